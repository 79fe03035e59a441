// Explicit chance steps over the game interface, as OpenSpiel's chance nodes
// (is_chance_node, chance_outcomes, apply_action(outcome)) allow: an action
// is declared, which lists every outcome of the dice it would roll (each
// sequence of die faces, with its exact chance), and is then resolved with
// the outcome a search or a learner chooses or samples itself. Resolving
// gives exactly the state, rolls and result that apply() gives with dice
// that rolled those faces, so a log written from it is the log apply() would
// write. apply(action, dice) stays the one-call path; a Match rolls its own
// dice (match.hpp), so these are for programs that hold states themselves.
//
// Where the dice of an action cannot be listed (more sequences than the
// limit, or a sample space past 64 bits: a Warmaster Combat phase rolls
// dozens of dice), the declaration says so and why, and the action is
// applied with dice as before.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "referee/core/chance.hpp"
#include "referee/core/dice.hpp"
#include "referee/core/game.hpp"

namespace referee {

// One outcome of an action's dice: the dice rolled, in order (sides, face
// and purpose), and its exact chance.
struct ChanceStep {
  std::vector<Roll> rolls;
  Chance chance;
};

// An action declared: whether it is refused, rolls no dice, has these
// outcomes (exclusive; their chances sum to one over a common denominator),
// or has dice that cannot be listed, and why.
struct DeclaredAction {
  Json action;
  Verdict verdict;  // the refusal, when refused
  Chances::Kind kind = Chances::Kind::NoDice;
  std::vector<ChanceStep> outcomes;  // Kind::Outcomes only
  std::string why;                   // Kind::NotEnumerable only
  bool refused() const { return !verdict.legal(); }
  bool is_chance() const { return kind == Chances::Kind::Outcomes; }
};

// Declares `action` on `state`, listing at most `max_outcomes` outcomes. An
// action that rolls none is Kind::NoDice (resolve it with k = 0). Bad input
// is an InputError naming `path`; the state never changes.
DeclaredAction declare(const GameState& state, const Json& action, const std::string& path = "action",
                       std::size_t max_outcomes = 4096);

// The state after `declared` resolved with outcome k (k = 0 for an action
// that rolls no dice), and what applying it did: a new state, `state` is
// left as it was. A declaration resolved on a state it was not made on (one
// whose dice ask for other dice) is a std::logic_error, as is a k out of
// range or a refused or unlistable declaration.
struct Resolved {
  std::unique_ptr<GameState> state;
  Outcome outcome;
};
Resolved resolve(const GameState& state, const DeclaredAction& declared, std::size_t k,
                 const std::string& path = "action");

// An outcome drawn with its exact chance, using one draw of `rng`.
std::size_t sample_outcome(const DeclaredAction& declared, Rng& rng);

// {"kind": "outcomes", "outcomes": [{"rolls": [...], "chance": {...}}], ...}.
Json to_json_value(const DeclaredAction& d);

}  // namespace referee
