// Playing a turn through the engine (OpenSpiel style): the battle is the
// immutable game, GameState is a cheap value, validate() never changes the
// state, apply() assumes a legal action. Every action goes into the core
// game log, and replaying the log rebuilds the same state.
#pragma once

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

struct GameState {
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

  static GameState initial(const Battle& b);
};

Verdict validate(const Battle& b, const GameState& s, const Action& a);
// Applies a legal action and returns what happened, for the log.
nlohmann::json apply(const Battle& b, GameState& s, const Action& a);

Action parse_action(const Battle& b, const nlohmann::json& j, const std::string& field);
nlohmann::json action_json(const Battle& b, const Action& a);
nlohmann::json state_json(const Battle& b, const GameState& s);

// Plays a list of actions from the start; an illegal action is an InputError
// naming it ("actions[3]: ancients.movement.blocked: ..."), so nothing is written.
struct Playthrough {
  GameLog log;
  GameState state;
};
Playthrough play_actions(const Battle& b, const nlohmann::json& battle_json, const nlohmann::json& actions,
                         std::uint64_t seed, const std::string& scenario);
// Replays a log (the battle travels inside it); a result that differs from the
// logged one is an InputError naming the line.
Playthrough replay_log(const GameLog& log, Battle& battle);

}  // namespace referee::ancients
