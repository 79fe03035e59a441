// Where everything stands now, and what has been ordered and moved this turn.
// A plain value: copying it is a few small vectors, cheap enough to clone a
// game state for search or simulation.
#pragma once

#include <cstdint>
#include <vector>

#include "referee/ancients/model.hpp"

namespace referee::ancients {

struct UnitState {
  int hex = 0;
  int blocks = 0;
  bool ordered = false;
  bool moved = false;         // has made its move this turn
  bool frozen = false;        // a leader attached to it this turn: it can move no further (ancients.leader.attach_stops)
  int hexes_moved = 0;
  bool may_battle = true;
  bool close_combat_compulsory = false;
  bool operator==(const UnitState&) const = default;
};

struct LeaderState {
  int hex = 0;
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
  int unit_on(int hex) const { return unit_at[static_cast<std::size_t>(hex)]; }
  int leader_on(int hex) const { return leader_at[static_cast<std::size_t>(hex)]; }
  // The leader attached to a unit, or -1.
  int leader_of(int unit) const;
  // Moves a piece and keeps the occupancy arrays in step.
  void place_unit(int unit, int hex);
  void place_leader(int leader, int hex);
  // Clears the per-turn flags and re-derives attachment: a leader in a friendly
  // unit's hex at the start of a turn is attached (unit-movement text, Leader Movement).
  void start_turn(const Battle& battle);
  bool operator==(const Position&) const = default;
};

}  // namespace referee::ancients
