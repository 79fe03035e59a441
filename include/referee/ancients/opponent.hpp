// The built-in opponent for Commands & Colors: Ancients: a one-ply search
// that weighs every choice by expected victory banners, computed from the
// exact odds of the attacks it opens up (battle.hpp's attack_odds).
//
// - A card: each card in hand is played on a copy of the state, and scored by
//   the best orders it allows (the units worth ordering, the best of each).
// - Orders: the eligible unit whose best hex (staying, or a destination)
//   scores highest, one at a time while one is worth ordering.
// - Moves: the ordered unit's destination that gains most over staying: the
//   best attack it opens up, less what it exposes (the enemy's best attack on
//   it there), with a small pull toward the nearest enemy unit.
// - Battles: the attack with the most expected banners (eliminations, a
//   leader lost with his unit, blocks off, a retreat) less the battle back it
//   risks; the battle phase ends when no attack is worth its risk.
// The enemy's banners count for less than its own (a fifth for a battle
// back, a tenth for what a move exposes) until the next one would win the
// enemy the game: against a clock of cards the race to the banners pays.
// - A combat's choices: stand or evade by the smaller expected loss, the
//   retreat hex least exposed, a momentum advance when it gains.
// Deterministic given the Rng it receives, which breaks exact ties only.
#pragma once

#include <optional>

#include "referee/ancients/battle.hpp"
#include "referee/ancients/turn.hpp"
#include "referee/core/dice.hpp"

namespace referee::ancients {

// The opponent's action for the side acting in `s`; nullopt once the game is
// over. Always one of legal_actions(b, s).
std::optional<Action> opponent_action(const Battle& b, const AncientsState& s, Rng& rng);

// What the opponent expects `attacker` to gain by battling `target` (a unit)
// now, in banners for the attacker's side (negative when it expects to lose
// more than it wins): the exact odds of the attack, the defender's best
// answer when it may evade, and the battle back it risks (the enemy's
// banners counted at a fifth until the next one would win it the game).
double attack_value(const Battle& b, const AncientsState& s, int attacker, int target, bool close);

}  // namespace referee::ancients
