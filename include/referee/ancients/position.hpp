// Where everything stands now, and what has been ordered and moved this turn.
// A plain value: copying it is a few small vectors, cheap enough to clone a
// game state for search or simulation.
#pragma once

#include <cstdint>
#include <vector>

#include "referee/ancients/model.hpp"

namespace referee::ancients {

struct UnitState {
  int hex = 0;                // kNoHex once eliminated
  int blocks = 0;
  bool ordered = false;
  bool moved = false;         // has made its move this turn
  bool frozen = false;        // a leader attached to it this turn: it can move no further (ancients.leader.attach_stops)
  int hexes_moved = 0;
  bool may_battle = true;
  bool close_combat_compulsory = false;
  bool battled = false;       // has battled this turn (ancients.battle.once)
  bool bonus = false;         // may make its bonus close combat now (ancients.momentum.bonus)
  bool operator==(const UnitState&) const = default;
};

struct LeaderState {
  int hex = 0;                // kNoHex once killed or gone off the board
  int attached = -1;          // unit index, or -1 when alone
  bool ordered = false;       // ordered on its own (lone, or to detach)
  bool moved = false;         // has moved on its own this turn
  bool operator==(const LeaderState&) const = default;
};

struct Position {
  std::vector<UnitState> units;
  std::vector<LeaderState> leaders;
  std::vector<std::int16_t> unit_at;    // per board index: unit index or -1
  std::vector<std::int16_t> leader_at;  // per board index: leader index or -1

  static Position initial(const Battle& battle);
  // -1 for an empty hex, or kNoHex (a piece off the board: eliminated).
  int unit_on(int hex) const { return hex < 0 ? -1 : unit_at[static_cast<std::size_t>(hex)]; }
  int leader_on(int hex) const { return hex < 0 ? -1 : leader_at[static_cast<std::size_t>(hex)]; }
  // The leader attached to a unit, or -1.
  int leader_of(int unit) const;
  // Moves a piece and keeps the occupancy arrays in step.
  void place_unit(int unit, int hex);
  void place_leader(int leader, int hex);
  // Takes a piece off the board (eliminated, or a leader gone off his edge):
  // its hex becomes kNoHex and its blocks 0.
  void remove_unit(int unit);
  void remove_leader(int leader);
  // Clears the per-turn flags and re-derives attachment: a leader in a friendly
  // unit's hex at the start of a turn is attached (unit-movement text, Leader Movement).
  void start_turn(const Battle& battle);
  bool operator==(const Position&) const = default;
};

}  // namespace referee::ancients
