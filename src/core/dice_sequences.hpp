// Every sequence of die faces an action can roll, found by applying it to
// clones of the state (a die asked for beyond the sequence so far branches
// over its faces). Shared by enumerate_chance (game.hpp), which sums the
// chances of each label, and the chance steps (chance_steps.hpp), which
// list the sequences themselves. Not a public header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "referee/core/game.hpp"

namespace referee::chance_detail {

// One complete sequence: its faces in the order rolled, the sides of each
// die, its weight (1 / weight is its chance: the product of the sides) and
// the outcome the action had with it.
struct DiceSequence {
  const std::vector<int>& faces;
  const std::vector<int>& sides;
  std::int64_t weight;
  const Outcome& outcome;
};

// Calls `visit` for every sequence, depth first in lexicographic order of
// the faces (an action that rolls none: one sequence, weight 1, no faces).
// nullopt when done; otherwise why the sequences cannot be listed: more than
// `max_sequences`, or a sample space past 64 bits. `describe` is passed to
// apply(). A refused action is visited once, with its refusal.
std::optional<std::string> for_each_dice_sequence(const GameState& state, const Json& action, const std::string& path,
                                                  std::size_t max_sequences, bool describe,
                                                  const std::function<void(const DiceSequence&)>& visit);

// The least common multiple of the sequences' weights, over which each
// sequence's chance is denominator / weight successes; nullopt when it does
// not fit in 64 bits.
std::optional<std::int64_t> common_denominator(const std::vector<std::int64_t>& weights);

// Why the chances of some sequences cannot be said when their common
// denominator does not fit.
inline constexpr const char* kNoCommonDenominator = "no common denominator of its chances fits in 64 bits";

}  // namespace referee::chance_detail
