// The built-in Warmaster opponent: a heuristic player that chooses the next
// action for the side whose turn it is, one action at a time, from the state
// alone (it keeps no plan between calls, so it can take over a game at any
// point, and every decision can be asked again).
//
// How it chooses (docs/warmaster-opponent.md):
// - Shooting phase: shoot (every unit shoots the closest visible enemy in
//   range: the rules leave no choice). Combat phase: end_phase.
// - Initiative: a unit within 20 cm of an enemy charges it when the odds of
//   the first round favour the charger (combat_odds with the charge bonus,
//   the defender's position and Armour), and evades when that enemy charging
//   it would be favourable for the enemy, or when it is a shooter or
//   artillery with a melee enemy that close.
// - Orders: characters in sequence, Heroes and Wizards first, the General
//   last (his failure ends every order). Each character orders the units it
//   is best placed to order (the highest number needed), closest to the
//   enemy first; units that touch and are far from the enemy go as a
//   brigade. An order is given only when the chance of passing is at least
//   OpponentOptions::min_first_order (further orders: min_further_order).
//   Shooters with an enemy in range are not ordered; a unit stops taking
//   further orders once in contact range or in range.
// - Moves: a charge when one is favourable and validates (the engine's
//   straight charge, or the stands lined up on the enemy's facing edge);
//   otherwise an advance along the shortest way round impassable terrain
//   (a grid distance field, OpponentScratch) toward the target, tried at
//   several lengths and in line, wheeled or in column, the longest legal one
//   kept; melee units stop short of contact, shooters stop inside range.
// - Characters: each moves to stay within 20 cm of its units, behind them,
//   and keeps clear of enemies.
// Every action returned validates (WarmasterState::validate); when none of
// its own does, it falls back to the legal actions listed by the state.
//
// Error bounds: the odds are those of one combat round with every stand
// fighting (support, pursuit and later rounds are left out); the way round
// terrain is measured on a 2 cm grid, so a gap narrower than about 3 cm more
// than a stand's shortest edge may be missed.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "referee/core/dice.hpp"
#include "referee/warmaster/battle/battle_state.hpp"

namespace referee::warmaster {

struct OpponentOptions {
  // Least chance of passing (P(2D6 <= needed)) for a first order to a unit,
  // and for a further order to the same unit or brigade.
  double min_first_order = 0.58;    // 7 or less on 2D6
  double min_further_order = 0.58;
  // A charge is made when P(win) - P(lose) of the first round is at least this.
  double charge_margin = 0.3;
  // In the last `press_turns` turns of a battle it is not winning (it has
  // destroyed no more units than it lost), it charges at this margin instead.
  int press_turns = 3;
  double press_charge_margin = -0.2;
  // A unit evades when the enemy charging it would have P(win) - P(lose) of
  // at least this.
  double evade_margin = 0.25;
  // Brigades are ordered only while their closest enemy is further than this (cm).
  double brigade_distance = 40.0;
  // Melee units stop this far (cm, along the way) short of the target when not charging.
  double stop_short = 4.0;
  bool operator==(const OpponentOptions&) const = default;
};

// The caller's working space: move checks (MoveScratch) and the
// navigation grid's (2 cm cells over the table): where each troop type may
// go, worked out cell by cell as searches reach them and kept between calls
// of one battle (made anew when the terrain differs), and the distance
// field, whose cells are stamped with the search that wrote them so that a
// search reads and writes only the cells it reaches.
struct OpponentScratch {
  MoveScratch move;
  struct Passable {
    const void* terrain = nullptr;  // the battle's terrain list it was built from
    std::size_t features = 0;
    TroopType type = TroopType::Infantry;
    double margin = 0;                 // cm kept from closed terrain
    std::vector<unsigned char> state;  // per cell: 0 not worked out yet, 1 a stand's centre may pass, 2 not
  };
  std::vector<Passable> passable;
  struct Field {
    std::uint32_t stamp = 0;  // of the last search
    int nx = 0;
    std::vector<std::uint32_t> seen, settled;  // the search that reached / settled a cell
    std::vector<std::uint32_t> blocked, reopened;  // a cell closed by a unit / opened again for a mover
    std::vector<std::uint32_t> tile;           // tiles whose units in the way are marked
    std::vector<std::uint32_t> unit;           // units marked
    std::vector<float> d;                      // cm, where seen
  } field;
  std::vector<std::pair<float, int>> heap;  // Dijkstra's frontier, reused
  std::vector<int> near, terrain_near, wanted;
  // P(win) - P(lose) of a first round (combat_odds) by its request's numbers
  // (dice, position, armour, support of each side): a pure function, asked
  // again and again as units are weighed action after action.
  using OddsKey = std::array<int, 8>;
  using OddsMemo = std::map<OddsKey, double>;
  OddsMemo odds;
  // Per unit, its Position (position_of: its stands and the terrain), or -1
  // not worked out since it changed (note_changes).
  std::vector<int> positions;
  // Each unit as the last call saw it, to tell what changed since: the
  // caches below are of the same battle (the terrain's address and count,
  // the settings) and forget what a changed unit's stands, where they were
  // or are now, may have changed.
  struct Seen {
    const void* terrain = nullptr;
    std::size_t features = 0;
    Settings settings;
    std::vector<Unit> units;
    std::vector<UnitStatus> status;
    std::vector<char> on_table;  // and whether it was on the table
    std::vector<Pose> characters;
  } seen;
  // Per unit, its initiative candidates (WarmasterState::initiative_targets,
  // for an evade [0] and for a charge [1]), kept from call to call until a
  // unit changes in `region`: the box holding the unit, the enemies it
  // measured and every line of sight it drew, so what is outside it cannot
  // change them. The Initiative step asks for every unit at each action.
  struct Candidates {
    bool known[2] = {false, false};
    Aabb region;
    std::vector<InitiativeCandidate> list[2];
  };
  std::vector<Candidates> initiative;
  // Per unit, whether an enemy of `side` is within its missile range, kept
  // until a unit changes in `region` (the unit's box widened by the range).
  struct InRange {
    signed char known = -1;  // -1 not worked out, else 0 or 1
    int side = 0;
    Aabb region;
  };
  std::vector<InRange> in_range;
  // Per unit, the distance to its closest enemy, kept until a unit changes
  // within that distance of it (`region`).
  struct Nearest {
    bool known = false;
    double distance = 0;
    Aabb region;
  };
  std::vector<Nearest> nearest;
  // Units that have nothing to do by initiative (no favourable charge that
  // validates, no evade wanted or none that validates), kept until a unit
  // or its status changes in `region`, or the turn, the step, the units
  // lost, the characters or the options change (`key`). Each action of the
  // Initiative step asks again of every unit before the one that acts.
  struct Idle {
    bool known = false;
    Aabb region;
  };
  std::vector<Idle> idle;
  std::array<int, 7> idle_key{};  // turn, side, phase, step, orders begun, units lost by each side
  OpponentOptions idle_options;
};

// The action chosen and why (for logs and tests).
struct OpponentChoice {
  Action action;
  std::string reason;
};

// The next action for the current side of `s`; EndPhase-type actions when
// nothing else is wanted. `rng` varies headings by a few degrees, so games
// with different seeds differ. The state must not be over.
OpponentChoice choose_opponent_action(const WarmasterState& s, Rng& rng, const OpponentOptions& options,
                                      OpponentScratch& scratch);

// Odds of `charger` charging `target` now, one round: P(charger wins) -
// P(charger loses), with a little for tougher stands. The stands fighting on
// each side: the given counts, or (0) every stand. `ally_dice`: the dice of
// friends that fight the same target in the same engagement (already in
// contact, or about to charge it too), added to the charger's.
double charge_value(const Battlefield& bf, const Unit& charger, const Unit& target, const Settings& settings,
                    int fighting_charger = 0, int fighting_target = 0, int ally_dice = 0);

}  // namespace referee::warmaster
