// Blightmeer on the one game interface (core/game.hpp): a layer over the
// typed game of game.hpp. Actions and states are the JSON of
// docs/blightmeer.md; the named queries are those of queries.hpp.
#pragma once

#include <memory>
#include <string>

#include "referee/blightmeer/turn.hpp"
#include "referee/core/game.hpp"
#include "referee/core/game_adapter.hpp"

namespace referee::blightmeer {

// The registry entry: name "blightmeer".
GameType game_type();

// A battlefield file's JSON, with settings overrides merged over the file's
// own "settings" (unknown keys are InputErrors naming them).
std::shared_ptr<const Game> load_game(const Json& battle, const std::string& source, const Json& settings);

// The typed battle and state behind an interface game or state made by this
// module; nullptr for another system's.
// Blightmeer described for the one adapter (core/game_adapter.hpp):
// typed_state<System> and typed_context<System> (core) give the typed state
// and battle behind the interface's.
struct System {
  using Context = Battle;
  using State = blightmeer::BlightmeerState;
  using Action = blightmeer::Action;
  using Checked = blightmeer::Checked;
  static constexpr std::string_view name = "blightmeer";
  // Nothing is hidden: both warbands see the whole table and every die.
  static constexpr Information information = Information::perfect;

  static std::vector<std::string> players(const Battle& b) { return State::initial(b).sides; }
  static State initial(const std::shared_ptr<const Battle>& b) { return State::initial(*b); }
  static State from_json(const std::shared_ptr<const Battle>& b, const Json& j, const std::string& path) {
    return battle_state_from_json(j, *b, path);
  }
  static Json to_json(const Battle&, const State& s) { return battle_state_json(s); }
  static int side(const Battle&, const State& s) { return s.side; }
  static int turn(const State& s) { return s.turn; }
  static std::string phase(const State&) { return "move"; }
  static bool over(const Battle& b, const State& s) { return game_over(b, s); }
  static Json result(const Battle& b, const State& s);
  static Action parse(const Battle& b, const State&, const Json& j, const std::string& path) {
    return parse_action(j, b, path);
  }
  static Checked check(const Battle& b, const State& s, const Action& a, bool) {
    return blightmeer::check(*b.terrain, s, a);
  }
  static Json do_apply(const Battle& b, State& s, Checked&& c, Dice& dice, bool describe) {
    const Applied done = blightmeer::do_apply(*b.terrain, s, std::move(c), dice);
    return describe ? applied_json(s, done) : Json();
  }
  // end_turn: moves are continuous, sample reaches them.
  static std::vector<Action> legal(const Battle& b, const State& s) {
    if (game_over(b, s)) return {};
    return {Action{}};
  }
  static Json action_json(const Battle&, const Action& a) { return blightmeer::action_json(a); }
  static std::optional<Json> sample(const Battle& b, const State& s, Rng& rng);
  static Chances chances(const referee::GameState&, const Battle& b, const State& s, const Action& a, const Json&,
                         const std::string&);
  static Json query(const Battle& b, const State& s, const std::string& name, const Json& args,
                    const std::string& path);
  static std::vector<QueryInfo> queries();
  static std::span<const RuleInfo> rules();
};
static_assert(RuleSystem<System>, "blightmeer's System gives the adapter what core/game_adapter.hpp asks");

}  // namespace referee::blightmeer
