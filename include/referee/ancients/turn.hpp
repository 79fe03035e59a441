// Playing a turn through the engine (OpenSpiel style): the battle is the
// immutable game, AncientsState is a cheap value, validate() never changes the
// state, apply() checks once and then does (do_apply, which trusts a legal
// action: the game interface checks first). Every action goes into the core
// game log, and replaying the log rebuilds the same state.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/ancients/model.hpp"
#include "referee/ancients/orders.hpp"
#include "referee/ancients/position.hpp"
#include "referee/ancients/report.hpp"
#include "referee/core/dice.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/ruling.hpp"

namespace referee::ancients {

enum class Phase { play_card, movement, battle };

struct Action {
  enum class Type {
    play_card, order, move, end_movement,
    battle,      // piece: the unit; target: the enemy unit (or lone leader, target_leader)
    evade,       // the defender evades to `to`
    stand,       // the defender does not evade
    retreat,     // the retreating unit ends on `to` (its own hex: it ignores the flags it may)
    advance,     // momentum advance into the vacated hex
    hold,        // no momentum advance
    end_battle,
  } type = Type::end_movement;
  int card = -1;                  // play_card
  std::vector<OrderItem> items;   // order
  OrderItem piece;                // move: a unit, or a leader moving on his own; battle: the unit
  ColRow to;                      // move, evade, retreat: may be off the board (that is a ruling, not bad input)
  int target = -1;                // battle
  bool target_leader = false;     // battle: `target` is a lone enemy leader
  bool operator==(const Action&) const = default;
};

// A combat waiting on a player's choice (docs/rulings.md#ancients-battle-sequence).
struct Pending {
  enum class Kind : std::uint8_t { none, evade, retreat, momentum } kind = Kind::none;
  int attacker = -1;        // the unit that declared the combat
  int defender = -1;
  int unit = -1;            // who decides: evade, the defender; retreat, the retreating unit; momentum, the attacker
  int flags = 0;            // retreat: the flags the unit must answer
  int may_ignore = 0;       // retreat: how many of them it may ignore (docs/rulings.md#ancients-support)
  int lost = 0;             // retreat: blocks the unit lost to hits in this combat (for the leader check)
  bool battle_back = false; // retreat: forced by the battle back (the attacker retreats)
  bool bonus = false;       // the combat is a bonus close combat
  bool close = true;
  int vacated = -1;         // momentum: the hex to advance into
  bool operator==(const Pending&) const = default;
};

struct AncientsState {
  Position position;
  int side = 0;        // the player whose turn it is
  int turn = 1;
  Phase phase = Phase::play_card;
  int card = -1;       // the card played this turn
  OrderPlan plan;
  std::vector<OrderItem> orders;
  bool moving = false;  // a piece has moved: no more orders this turn
  Pending pending;      // battle phase: a choice a combat waits on
  std::array<int, 2> banners{0, 0};  // victory banners won by each side
  // Card lists hold indices into Battle::cards, not ids, so a copy of the
  // state allocates no string (model.hpp, CardIndex); state_json writes ids.
  std::array<std::vector<CardIndex>, 2> hands;
  std::array<std::vector<CardIndex>, 2> decks;
  // Cards each side has played, in the order played; shuffled into a new deck
  // when a draw finds the deck empty (docs/rulings.md#ancients-reshuffle).
  std::array<std::vector<CardIndex>, 2> discards;

  // The start with the cards as the battle lists them.
  static AncientsState initial(const Battle& b);
  // The start as a game begins it: under "deal": "shuffled" each side's
  // cards (its hand and deck as listed) are shuffled with `dice` (purpose
  // "deal") and the hand dealt from the front, as many cards as the battle
  // lists in it (docs/rulings.md#ancients-deal); otherwise initial(b),
  // rolling nothing.
  static AncientsState dealt(const Battle& b, Dice& dice);
  bool operator==(const AncientsState&) const = default;
};

// The id of unit `u` and leader `l` of `b` (indices into its lists).
inline const std::string& unit_id(const Battle& b, int u) { return b.units[static_cast<std::size_t>(u)].id; }
inline const std::string& leader_id(const Battle& b, int l) { return b.leaders[static_cast<std::size_t>(l)].id; }
// The id of card `c` of `b` (a CardIndex, or Action::card).
inline const std::string& card_id(const Battle& b, int c) { return b.cards[static_cast<std::size_t>(c)].id; }
// Has the piece been ordered this turn?
inline bool has_order(const AncientsState& s, OrderItem it) {
  return std::find(s.orders.begin(), s.orders.end(), it) != s.orders.end();
}

// The side to act now: the player whose turn it is, or the one a pending
// combat choice belongs to (a defender's evasion or retreat).
int acting_side(const Battle& b, const AncientsState& s);

// Refuses everything once the game is over (ancients.game.over).
Verdict validate(const Battle& b, const AncientsState& s, const Action& a);
// validate's verdict on unit `u` declaring a battle now, before a target is
// named: the game's end, a pending choice, the phase, and whether the unit
// may battle (ancients.order.side, ancients.battle.eligible, ancients.battle.once).
Verdict validate_battler(const Battle& b, const AncientsState& s, int u);
// Applies an action the caller has validated (it is not checked again) and
// reports what happened; describe() (report.hpp) words it for the log.
// describe=false leaves out what only the description needs (a card's plan,
// a move's path), for simulations that keep no log.
// Battles roll `dice`, and so does a draw that reshuffles the discards into
// a new deck (docs/rulings.md#ancients-reshuffle).
Report do_apply(const Battle& b, AncientsState& s, const Action& a, Dice& dice, bool describe = true);
// Validates, then applies a legal action and returns its description, for
// the log; a refused one leaves `s` unchanged and answers {"refused": true,
// "violations": [...]}.
nlohmann::json apply(const Battle& b, AncientsState& s, const Action& a, Dice& dice);
// The same, for actions that roll no dice: a battle, or a draw that
// reshuffles, throws ScriptError. do_apply's description, for callers that
// only want the JSON.
nlohmann::json apply(const Battle& b, AncientsState& s, const Action& a);
nlohmann::json do_apply(const Battle& b, AncientsState& s, const Action& a);

// The dice a legal action `a` rolls to reshuffle the discards into a new
// deck (docs/rulings.md#ancients-reshuffle): one per card but the first when
// the action ends the turn with the deck empty under the reshuffle setting,
// else 0.
int reshuffle_dice(const Battle& b, const AncientsState& s, const Action& a);

// Parses one action; errors name `path` and the field (JSON first, as in
// the other systems).
Action parse_action(const nlohmann::json& j, const Battle& b, const std::string& path);
nlohmann::json action_json(const Battle& b, const Action& a);
std::string phase_name(Phase p);  // "play_card", "movement", "battle"
// Everything the game needs to resume: pieces and their per-turn flags, the
// hands, decks and discards, and in the movement phase the card played, its plan, the
// orders given and whether a piece has moved.
nlohmann::json state_json(const Battle& b, const AncientsState& s);
// The inverse of state_json for a state of `b`: strict, every error names
// the field under `path` (unknown ids, wrong counts, two pieces on a hex,
// values out of range).
AncientsState state_from_json(const Battle& b, const nlohmann::json& j, const std::string& path);

// Every legal action now, in a fixed order: the cards in hand (one action
// per distinct card), or orders one piece at a time (orders may be given in
// several actions until a piece moves, and every set of orders a card allows
// can be given that way: docs/rulings.md#ancients-legal-actions), then each
// ordered piece to each hex it may move to, then end_movement. Empty once
// the game is over.
std::vector<Action> legal_actions(const Battle& b, const AncientsState& s);
// A random legal action for simulations and the conformance suite's random
// games: ending the movement or the battle one time in ten while another
// action is legal; otherwise a kind of action (orders or moves; battles; a
// combat's choices) uniformly, then one of that kind uniformly, so random
// games come to blows (docs/rulings.md#ancients-random-play). Nothing once
// the game is over.
std::optional<Action> random_action(const Battle& b, const AncientsState& s, Rng& rng);

// The game ends when a side has its victory banners, after turn
// `Battle::turn_limit`, or when the player to play holds no command card
// (under the scenario's "no_reshuffle" setting; with the reshuffle a hand
// never shrinks) (docs/rulings.md#ancients-game-end).
bool game_over(const Battle& b, const AncientsState& s);
// Why, or empty while the game goes on.
std::string game_over_reason(const Battle& b, const AncientsState& s);
// The side that has its victory banners, or -1.
int winner(const Battle& b, const AncientsState& s);

// Plays a list of actions from the start; an illegal action is an InputError
// naming it ("actions[3]: ancients.movement.blocked: ..."), so nothing is written.
struct Playthrough {
  GameLog log;
  AncientsState state;
};
Playthrough play_actions(const Battle& b, const nlohmann::json& battle_json, const nlohmann::json& actions,
                         std::uint64_t seed, const std::string& scenario);
// Replays a log (the battle travels inside it); a result that differs from the
// logged one is an InputError naming the line.
Playthrough replay_log(const GameLog& log, Battle& battle);

}  // namespace referee::ancients
