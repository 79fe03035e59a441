// Playing a turn through the engine (OpenSpiel style): the battle is the
// immutable game, BattleState is a cheap value, validate() never changes the
// state, apply() checks once and then does (do_apply, which trusts a legal
// action: the game interface checks first). Every action goes into the core
// game log, and replaying the log rebuilds the same state.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/ancients/model.hpp"
#include "referee/ancients/orders.hpp"
#include "referee/ancients/position.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/ruling.hpp"

namespace referee::ancients {

enum class Phase { play_card, movement };

struct Action {
  enum class Type { play_card, order, move, end_movement } type = Type::end_movement;
  int card = -1;                  // play_card
  std::vector<OrderItem> items;   // order
  OrderItem piece;                // move: a unit, or a leader moving on his own
  ColRow to;                      // move: may be off the board (that is a ruling, not bad input)
  bool operator==(const Action&) const = default;
};

struct BattleState {
  Position position;
  int side = 0;        // the player whose turn it is
  int turn = 1;
  Phase phase = Phase::play_card;
  int card = -1;       // the card played this turn
  OrderPlan plan;
  std::vector<OrderItem> orders;
  bool moving = false;  // a piece has moved: no more orders this turn
  std::array<std::vector<std::string>, 2> hands;
  std::array<std::vector<std::string>, 2> decks;

  static BattleState initial(const Battle& b);
  bool operator==(const BattleState&) const = default;
};

// The id of unit `u` and leader `l` of `b` (indices into its lists).
inline const std::string& unit_id(const Battle& b, int u) { return b.units[static_cast<std::size_t>(u)].id; }
inline const std::string& leader_id(const Battle& b, int l) { return b.leaders[static_cast<std::size_t>(l)].id; }
// Has the piece been ordered this turn?
inline bool has_order(const BattleState& s, OrderItem it) {
  return std::find(s.orders.begin(), s.orders.end(), it) != s.orders.end();
}

// Refuses everything once the game is over (ancients.game.over).
Verdict validate(const Battle& b, const BattleState& s, const Action& a);
// Validates, then applies a legal action and returns what happened, for the
// log; a refused one leaves `s` unchanged and answers {"refused": true,
// "violations": [...]}.
nlohmann::json apply(const Battle& b, BattleState& s, const Action& a);
// Applies an action the caller has validated (it is not checked again).
nlohmann::json do_apply(const Battle& b, BattleState& s, const Action& a);

// Parses one action; errors name `path` and the field (JSON first, as in
// the other systems).
Action parse_action(const nlohmann::json& j, const Battle& b, const std::string& path);
nlohmann::json action_json(const Battle& b, const Action& a);
// Everything the game needs to resume: pieces and their per-turn flags, the
// hands and decks, and in the movement phase the card played, its plan, the
// orders given and whether a piece has moved.
nlohmann::json state_json(const Battle& b, const BattleState& s);
// The inverse of state_json for a state of `b`: strict, every error names
// the field under `path` (unknown ids, wrong counts, two pieces on a hex,
// values out of range).
BattleState state_from_json(const Battle& b, const nlohmann::json& j, const std::string& path);

// Every legal action now, in a fixed order: the cards in hand (one action
// per distinct card), or orders one piece at a time (orders may be given in
// several actions until a piece moves, and every set of orders a card allows
// can be given that way: docs/rulings.md#ancients-legal-actions), then each
// ordered piece to each hex it may move to, then end_movement. Empty once
// the game is over.
std::vector<Action> legal_actions(const Battle& b, const BattleState& s);

// The game ends after turn `Battle::turn_limit`, or when the player to play
// holds no command card (docs/rulings.md#ancients-game-end).
bool game_over(const Battle& b, const BattleState& s);
// Why, or empty while the game goes on.
std::string game_over_reason(const Battle& b, const BattleState& s);

// Plays a list of actions from the start; an illegal action is an InputError
// naming it ("actions[3]: ancients.movement.blocked: ..."), so nothing is written.
struct Playthrough {
  GameLog log;
  BattleState state;
};
Playthrough play_actions(const Battle& b, const nlohmann::json& battle_json, const nlohmann::json& actions,
                         std::uint64_t seed, const std::string& scenario);
// Replays a log (the battle travels inside it); a result that differs from the
// logged one is an InputError naming the line.
Playthrough replay_log(const GameLog& log, Battle& battle);

}  // namespace referee::ancients
