// Warmaster on the one game interface (core/game.hpp): a layer over the
// typed CommandState, as OpenSpiel's ChessState sits over ChessBoard.
// Actions and states are the JSON of docs/warmaster-command.md; the named
// queries are those of queries.hpp.
#pragma once

#include <memory>
#include <string>

#include "referee/core/game.hpp"
#include "referee/core/game_adapter.hpp"
#include "referee/warmaster/battle/command_state.hpp"

namespace referee::warmaster {

// The registry entry: name "warmaster".
GameType game_type();

// A battlefield file's JSON, with settings overrides merged over the file's
// own (unknown keys are InputErrors naming "settings.<key>").
std::shared_ptr<const Game> load_game(const Json& battlefield, const std::string& source, const Json& settings);

// The typed state behind an interface state made by this module, for
// callers that need the typed API (renderers, the built-in opponent).
// nullptr for a state of another system.
// Warmaster described for the one adapter (core/game_adapter.hpp). The
// interface's state is SystemState<System>; typed_state<System> (core) gives
// the CommandState behind one.
struct System {
  using Context = CommandGame;
  using State = CommandState;
  using Action = warmaster::Action;
  using Checked = CommandState::Checked;
  static constexpr std::string_view name = "warmaster";

  static std::vector<std::string> players(const CommandGame& g);
  static CommandState initial(const std::shared_ptr<const CommandGame>& g);
  static CommandState from_json(const std::shared_ptr<const CommandGame>& g, const Json& j, const std::string& path);
  static Json to_json(const CommandGame& g, const CommandState& s);
  static int side(const CommandGame&, const CommandState& s) { return s.side(); }
  static int turn(const CommandState& s) { return s.turn(); }
  // "command: initiative", "command: orders", "command: characters", "shooting", "combat".
  static std::string phase(const CommandState& s);
  static bool over(const CommandGame&, const CommandState& s) { return s.battle_over(); }
  static Json result(const CommandGame& g, const CommandState& s);
  static Action parse(const CommandGame& g, const CommandState& s, const Json& action, const std::string& path);
  static Checked check(const CommandGame& g, const CommandState& s, const Action& a, bool describe);
  static Json do_apply(const CommandGame& g, CommandState& s, Checked&& c, Dice& dice, bool describe);
  static std::vector<Action> legal(const CommandGame& g, const CommandState& s);
  static Json action_json(const CommandGame& g, const Action& a);
  static std::optional<Json> sample(const CommandGame& g, const CommandState& s, Rng& rng);
  static Chances chances(const referee::GameState& self, const CommandGame& g, const CommandState& s, const Action& a,
                         const Json& action, const std::string& path);
  static Json query(const CommandGame& g, const CommandState& s, const std::string& name, const Json& args,
                    const std::string& path);
  static std::vector<QueryInfo> queries();
  static std::span<const RuleInfo> rules();
};

}  // namespace referee::warmaster
