// Moving by initiative (movement text, "Moving by initiative" and "The path
// of evaders"; docs/rulings.md#warmaster-command-the-evade): which enemy a unit may charge or evade,
// which enemies it may ignore, and the evade line. Pure functions of a
// battlefield; the game state (battle_state.hpp) decides when they apply.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "referee/core/geometry.hpp"
#include "referee/core/ruling.hpp"
#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/model/settings.hpp"

namespace referee::warmaster {

inline constexpr double kInitiativeRange = 20.0;  // cm
inline constexpr double kEvadeClearance = 5.0;    // cm from every enemy and engaged unit
inline constexpr double kEvadeMinimum = 1.0;      // cm

// An enemy within 20 cm of the unit, as initiative sees it.
struct InitiativeCandidate {
  std::string enemy;
  double distance = 0;         // cm, unit to unit
  bool visible = false;        // for the move asked (charges need a front edge)
  std::string blocked_by;      // when not visible
  bool fortified = false;      // fortified infantry or artillery: may be ignored
};

// Enemies within 20 cm of `u`, nearest first, with sight worked out for a
// charge (front edge only) or an evade (any free edge for a unit that sees
// all round).
std::vector<InitiativeCandidate> initiative_candidates(const Battlefield& bf, const Unit& u, const Settings& settings,
                                                       bool charge);
// The same, reading only the enemies near `u` through `index` (of `bf`).
std::vector<InitiativeCandidate> initiative_candidates(const Battlefield& bf, const MoveIndex& index, const Unit& u,
                                                       const Settings& settings, bool charge);

// Reading (docs/rulings.md#warmaster-command-ignoring-enemies): `e` is cut
// off from `u` when the straight line between their closest points crosses
// terrain that neither unit's troop type may enter, and neither unit's
// nearest stand has a clear route into contact with the other within its own
// full pace (TransitScene::shortest_route).
// `scratch`: the caller's working space for the route searches (MoveScratch),
// or null.
bool cut_off_by_barrier(const Battlefield& bf, const Unit& u, const Unit& e, const Settings& settings,
                        MoveScratch* scratch = nullptr);

// The evade line (docs/rulings.md#warmaster-command-the-evade): from the closest point of the enemy's
// nearest stand to the closest point of the evader's nearest stand.
struct EvadeLine {
  StandIndex stand;            // the evader's stand nearest the enemy: it moves first, straight
  Vec2 from;                   // that stand's closest point
  Vec2 direction;              // unit vector, directly away from the enemy
  double distance = 0;         // cm between the two stands
};
EvadeLine evade_line(const Unit& evader, const Unit& enemy);

// Checks a proposed evade move of `evader` away from `enemy` on `bf`: the
// nearest stand goes first in a straight line along the evade line, at least
// 1 cm; the move itself is checked by the movement engine as an Evade
// (full pace, clear path); it ends at least 5 cm from every enemy unit and
// every engaged unit; and units burst through are friendly, unengaged and
// cleared completely. `req.order` is filled in (nearest stand first) when
// empty. Returns whether it is legal. `index`, when given, is the MoveIndex
// of `bf`, and `scenes` (with an index) lets probes of one evade share their
// transit scene; its scratch (MoveScenes) serves every check made.
bool check_evade(const Battlefield& bf, const Unit& evader, const Unit& enemy, MoveRequest& req,
                 const std::vector<std::string>& burst_through, const Settings& settings, Verdict& v,
                 const MoveIndex* index = nullptr, MoveScenes* scenes = nullptr);

// The engine's own evade: the whole unit slides straight along the evade
// line, keeping its formation and facings: full pace when that is legal,
// otherwise the longest legal slide found by halving between 1 cm and full
// pace, to 0.5 cm. nullopt when the unit cannot evade. `scratch`: the
// caller's working space for the probes' checks (MoveScratch), or null.
std::optional<MoveRequest> plan_evade(const Battlefield& bf, const Unit& evader, const Unit& enemy,
                                      const std::vector<std::string>& burst_through, const Settings& settings,
                                      const MoveIndex* index = nullptr, MoveScratch* scratch = nullptr);

// A straight charge: the whole unit slides along the line between the
// closest points until it touches the enemy. Used to offer charges among the
// legal actions; the player may give any other charge move.
MoveRequest plan_straight_charge(const Unit& charger, const Unit& enemy);

}  // namespace referee::warmaster
