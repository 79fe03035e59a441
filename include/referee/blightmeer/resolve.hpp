// Resolving a move with dice: validate first (an illegal move
// changes nothing and rolls nothing), then roll each check in path order
// through the seeded Dice, stop where a check fails as the text says, and
// resolve any fall with its Injury Roll.
#pragma once

#include <string>
#include "referee/blightmeer/rule_ids.hpp"
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/blightmeer/move.hpp"
#include "referee/core/dice.hpp"
#include "referee/core/ruling.hpp"

namespace referee::blightmeer {

enum class Injury { none, dazed, stunned, incapacitated };
const char* to_string(Injury i);
// The Injury Roll table (docs/rulings.md#blightmeer-injury-roll-for-falls): 1-11 no effect, 12-14 Dazed, 15-17 Stunned, 18+ Incapacitated.
Injury injury_for(int total);
// blightmeer.fall.height: +2 for each full inch fallen above 2.
int fall_modifier(double height);

struct Resolution {
  MoveReport report;
  bool applied = false;         // false when the move was illegal
  std::vector<Ruling> events;   // what happened, in order, each with its rule
  std::vector<Roll> rolls;
  Unit before;
  Unit after;
};

// Checks the move once (check_move), then applies it when legal (an illegal
// one leaves `state` untouched).
Resolution resolve_move(const Terrain& terrain, State& state, const MoveRequest& req, Dice& dice);
// Applies a move already checked: `report` is check_move's answer for `req`
// on `state` as it is now, and is trusted (not checked again).
Resolution resolve_checked_move(const Terrain& terrain, State& state, const MoveRequest& req, MoveReport report,
                                Dice& dice);

// Places a falling unit (blightmeer.fall.placement): at the spot, or next to
// (not Engaged with) a unit already there, in a direction from that unit's
// centre, rolled on a d8 when the spot is that centre. Returns the spot used.
Vec3 place_after_fall(const Terrain& terrain, const State& state, int self, Vec3 spot, Dice& dice,
                      std::vector<Ruling>& events, const std::string& rule = blightmeer::rule_id::fall_placement);

}  // namespace referee::blightmeer
