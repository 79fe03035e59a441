// Troop data from the rule texts: paces, terrain access, dense terrain,
// and what blocks sight. Pure functions of the types, so every module asks
// the same table.
#pragma once

#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/model/settings.hpp"

namespace referee::warmaster {

inline constexpr double kCharacterPace = 60.0;        // warmaster.movement.pace
// Flyers (command text): ordered only within this of a friendly character;
// a flyer further than this from every friendly character may home back.
inline constexpr double kFlyerCharacterRange = 20.0;  // cm
inline constexpr double kFlyingCharacterPace = 100.0;

// Full pace for a troop type (movement text, "Movement distances"). A
// Machine's pace comes from its unit data, so pass the unit.
double full_pace(const Unit& u);
double full_pace(TroopType t, double machine_pace = 0);

// May this troop type enter (or pass over, for ground troops) the terrain?
// The terrain access table (docs/rulings.md#warmaster-terrain-access), with the players' agreement
// about villages and broken ground (Settings::open_villages_and_broken_ground).
// Flyers pass over everything but may not end inside terrain they could not
// enter as ground troops would (docs/rulings.md#warmaster-flyers); see flyer_may_end_in().
bool may_enter(TroopType t, TerrainKind k, const Settings& settings);
// Characters treat terrain as infantry (movement text, Character movement),
// whom no agreement concerns.
inline bool character_may_enter(TerrainKind k) { return may_enter(TroopType::Infantry, k, Settings{}); }
// Where a flying unit may finish: where cavalry and monsters may go
// (docs/rulings.md#warmaster-flyers): never a wood, nor terrain nobody may enter.
bool flyer_may_end_in(TerrainKind k, const Settings& settings);

// Woods, villages, broken and marshy ground: -1 Command (command text, penalty 4).
bool is_dense(TerrainKind k);
// docs/rulings.md#warmaster-sight-through-terrain: terrain blocks sight "except low features". Our list of
// low features: low obstacles, rivers, fords, bridges, marsh, broken ground
// and grown fields. A feature's `blocks_sight` in the scenario overrides this.
bool blocks_sight(TerrainKind k);
bool blocks_sight(const TerrainFeature& f);

}  // namespace referee::warmaster
