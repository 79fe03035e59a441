// Random legal command phases, turns and whole battles (OpenSpiel's random
// simulation): a quick random policy that proposes actions, validates each,
// and applies the legal ones. Used by the random-simulation tests,
// BM_WarmasterRandomCommandPhase and BM_WarmasterRandomGame.
#pragma once

#include <functional>

#include "referee/core/dice.hpp"
#include "referee/warmaster/battle/battle_state.hpp"

namespace referee::warmaster::sim {

// Called after every applied action, with the state before and after.
using Observer = std::function<void(const WarmasterState& before, const Action& a, const ActionOutcome& o,
                                    const WarmasterState& after)>;

// Plays the rest of the current side's Command phase at random: off-table
// rolls, some initiative charges and evades, orders (single units and
// brigades, further orders) each followed by a random straight move that is
// validated (or holding when it is not legal), character moves, end_phase
// (which leads to the Shooting phase). Returns the number of actions
// applied; none outside the Command phase. `observer` may be null.
// `scratch`: the caller's working space for the move checks, kept from one
// phase to the next (one per thread); without it, each call makes its own.
int random_command_phase(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer);
int random_command_phase(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer, MoveScratch& scratch);

// Plays the rest of the current side's turn: the Command phase at random
// (random_command_phase), then shoot, then end_phase of the Combat phase, so
// the turn passes (or the battle ends). Returns the number of actions applied.
int random_turn(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer);
int random_turn(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer, MoveScratch& scratch);

// Random turns until the battle is over, at most `max_turns` side-turns
// (a battle ends by its turn limit). Returns the number of actions applied.
int random_battle(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer, MoveScratch& scratch,
                  int max_turns = 10000);

// A straight slide of every unit of the pending move, up to the allowance,
// in a random direction within 30 degrees of the first unit's facing. It may
// be illegal (blocked, off the table): callers validate it.
Action random_slide(const WarmasterState& s, Rng& rng);

// One uniformly random pick from legal_actions() (charges left out while the
// build has no combat resolution); false when there is none.
bool random_legal_action(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer);
bool random_legal_action(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer, MoveScratch& scratch);

}  // namespace referee::warmaster::sim
