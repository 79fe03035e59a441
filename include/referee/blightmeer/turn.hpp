// Blightmeer as a game: whose turn it is, which units have moved,
// the actions a player takes (a move, or ending the turn), and what happens at
// the turn boundaries. A layer over the typed Move-phase API: `validate` adds
// the turn rules to check_move; `apply` checks once (check), then does
// (do_apply, which trusts the checked action and never checks again).
//
// Turns (docs/rulings.md#blightmeer-turn-order): the sides take turns in play
// order; in its turn a side may move each of its units once
// (docs/rulings.md#blightmeer-once-per-turn), then ends the turn. A round is
// every side's turn once; the game ends after `Terrain::turn_limit` rounds, or
// when a side has no unit left standing (docs/rulings.md#blightmeer-game-end).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/blightmeer/model.hpp"
#include "referee/blightmeer/move.hpp"
#include "referee/blightmeer/resolve.hpp"
#include "referee/core/chance.hpp"
#include "referee/core/dice.hpp"
#include "referee/core/ruling.hpp"

namespace referee::blightmeer {

struct Action {
  enum class Type { move, end_turn } type = Type::end_turn;
  MoveRequest move;  // for Type::move
};

struct BlightmeerState {
  State state;                     // the units
  std::vector<std::string> sides;  // side names in play order (first side moves first)
  int side = 0;                    // index into sides: whose turn
  int turn = 1;                    // round number
  std::vector<bool> moved;         // per unit (index into state.units): moved this turn

  // The battle as loaded, at the start of the first side's Move phase (its
  // Upkeep is taken as done: docs/rulings.md#blightmeer-upkeep).
  static BlightmeerState initial(const Battle& b);
};

// Legal or not, with every ruling: the game is over (blightmeer.game.over), not
// the unit's side's turn (blightmeer.turn.not_your_turn), already moved this
// turn (blightmeer.move.once_per_turn), a path that does not join up with where
// the unit is (blightmeer.path.disconnected), and every check_move violation.
// Never changes `s` and never throws for an action parse_action accepted.
Verdict validate(const Terrain& t, const BlightmeerState& s, const Action& a);

// An action checked once: the verdict (validate's), and what applying it
// needs from the check (the move's report), so it is not checked again.
struct Checked {
  Action action;
  Verdict verdict;    // every ruling, as validate gives them
  Verdict refusal;    // the turn rules (and a disconnected path) alone, for apply's refusal
  MoveReport report;  // check_move's, for a move the turn rules allow
};
Checked check(const Terrain& t, const BlightmeerState& s, const Action& a);

// What ending a turn did (docs/rulings.md#blightmeer-turn-end,
// docs/rulings.md#blightmeer-upkeep): the turn that ended, the state changes
// at the boundary, and why the game is now over (empty while it goes on;
// the turn that begins is the state's).
struct TurnEnd {
  int ending_side = 0;  // index into BlightmeerState::sides
  int ending_turn = 1;
  std::vector<Ruling> events;
  std::string over;
};

// What applying a legal action did: a move's resolution, or a turn's end.
struct Applied {
  std::optional<TurnEnd> turn_end;  // for end_turn
  Resolution move;                  // for a move
};

// Applies a checked LEGAL action, rolling through dice.
Applied do_apply(const Terrain& t, BlightmeerState& s, Checked&& c, Dice& dice);
// The result JSON for the log, from what it did and the state after it:
// resolution_json for a move; for end_turn the turn that ended, the events,
// and the turn that begins or why the game is over.
nlohmann::json applied_json(const BlightmeerState& after, const Applied& a);

// Checks once, then applies (do_apply). An illegal action is refused: `s`
// is unchanged and the answer has "applied": false with the violations.
nlohmann::json apply(const Terrain& t, BlightmeerState& s, const Action& a, Dice& dice);

// {"type": "end_turn"} or {"type": "move", "unit": ..., "mode": ..., "path": [...]}
// (a move request with its type). Strict: unknown fields, a unit or ladder the
// battle does not have, are InputErrors naming the field under `path`.
Action parse_action(const nlohmann::json& j, const Battle& b, const std::string& path);
nlohmann::json action_json(const Action& a);

// The state as JSON: turn, side, sides, moved (unit ids) and each unit's
// position (exact), wounds and states. The units' fixed figures (Move,
// Agility, traits) stay in the battle file.
nlohmann::json battle_state_json(const BlightmeerState& s);
// Strict: every unit of the battle exactly once, standing units on a level and
// not overlapping, moved units on the side to move; InputErrors name the field.
BlightmeerState battle_state_from_json(const nlohmann::json& j, const Battle& b, const std::string& path);

bool game_over(const Battle& b, const BlightmeerState& s);
std::string game_over_reason(const Battle& b, const BlightmeerState& s);  // empty while the game goes on
// The same with the terrain only (the turn limit lives there).
std::string game_over_reason(const Terrain& t, const BlightmeerState& s);

// Discrete choices: end_turn (always, until the game is over), and for each
// unit of the side to move that is still on the table: a walk option and a run
// option, each with the rulings that forbid it (empty: allowed). An allowed
// kind may still have no legal destination (a unit boxed in); sample_move then
// finds none. Empty once the game is over.
struct MoveKindOption {
  std::string unit;
  bool run = false;
  Verdict why_not;  // empty -> allowed
};
std::vector<MoveKindOption> move_kinds(const Terrain& t, const BlightmeerState& s);

// A random legal move for `unit` (run or not), built from reach + route so that
// validate() accepts it; nullopt if none. All randomness comes from `rng`.
std::optional<Action> sample_move(const Terrain& t, const BlightmeerState& s, const std::string& unit, bool run, Rng& rng);

// Chance made explicit: the outcomes of a legal move's checks with exact
// probabilities summing to 1, in path order ("check 1 (climb at step 2) fails:
// stops at the foot", ..., "all checks pass"). Each chance counts only the
// dice rolled up to that outcome (a failure ends the move), so the
// denominators differ; outcomes that cannot happen (after an automatic
// failure) are left out. Checks after the step where the unit drowns are never
// rolled. `detail`: the check, and where the unit ends up before any fall
// placement and Injury Roll.
struct MoveOutcome {
  std::string label;
  Chance chance;
  nlohmann::json detail;
};
std::vector<MoveOutcome> move_outcomes(const MoveReport& r);

}  // namespace referee::blightmeer
