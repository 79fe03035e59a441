// Moving Chargers (the rulebook; docs/rulings.md#warmaster-moving-chargers):
// a charge ends with the closest charging stand edge to edge with the enemy
// it charges, and the remaining stands placed one at a time, each touching
// one already placed, front edges flush with the first stand's where they
// can be and maximising edge contact, which may draw in enemy units
// alongside. A charge that touches only at a corner is refused
// (warmaster.combat.charge_alignment).
//
// Two pure functions over a battlefield: measuring how a charge that has been
// made lines up (what check_move refuses it for), and working out the
// lined-up placement for a unit and its target (what initiative, the board's
// dragged charge and the built-in opponent make).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "referee/core/ruling.hpp"
#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/model/settings.hpp"
#include "referee/warmaster/movement/movement.hpp"

namespace referee::warmaster {

// One charging stand against one enemy stand it touches: how its front edge
// lies to the nearest edge of that stand.
struct ChargeEdge {
  int stand = 0;            // the charger's stand
  std::string enemy;        // the enemy unit
  int enemy_stand = 0;
  const char* enemy_edge = "front";  // front, right flank, rear, left flank
  double angle_deg = 0;     // between the charger's front edge and that edge
  double offset_cm = 0;     // how far the front edge's further corner lies off the edge's line
  double overlap_cm = 0;    // length of front edge along the edge
  bool flush = false;       // edge to edge: both corners on the line (within tolerance), overlap more than it
};

struct ChargeAlignment {
  // For each charging stand that touches an enemy stand, the best-lying edge
  // (flush first, then the smallest offset), in stand order.
  std::vector<ChargeEdge> touching;
  int flush_stands = 0;         // charging stands flush edge to edge with an enemy stand
  int flush_with_target = 0;    // of which against the unit charged
};

// How `charger` (its stands where the charge ends) lies against the enemy.
// `target` empty: any enemy unit counts as the one charged. `index` (of
// `bf`), when given, finds the units near the charger instead of a scan of all.
ChargeAlignment measure_charge_alignment(const Battlefield& bf, const Unit& charger, const std::string& target,
                                         double tolerance, const MoveIndex* index = nullptr);

// Adds warmaster.combat.charge_alignment to `v` when no charging stand is
// flush edge to edge with the unit charged, with the figures of the stand
// that lies best (angle, offset). A charge that touches nothing is left to
// the contact rule.
void check_charge_alignment(const Battlefield& bf, const Unit& charger, const std::string& target,
                            const Settings& settings, Verdict& v, const MoveIndex* index = nullptr);

// The lined-up charge of `charger` into `target` at full pace: the closest
// stand placed edge to edge on the nearest edge of the target that it starts
// beyond, centre to centre or as near it as the way allows, the others beside
// it (front edges flush) or behind, the placement bringing the most stands
// into edge contact first; each placement is checked in full (check_move) and
// the first legal one is given. nullopt when no placement within the unit's
// full pace is legal (the target cannot be charged this way). `index` and
// `scratch` as for check_move; made for the call when not given. `dragged`:
// the unit where a player dragged it (the board's charge); of the edges the
// closest charger may reach, the one nearest where it was dragged comes first.
std::optional<MoveRequest> plan_lined_up_charge(const Battlefield& bf, const Unit& charger, const Unit& target,
                                                const Settings& settings, const MoveIndex* index = nullptr,
                                                MoveScratch* scratch = nullptr, const Unit* dragged = nullptr);

}  // namespace referee::warmaster
