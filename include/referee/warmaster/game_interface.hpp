// Warmaster on the one game interface (core/game.hpp): a layer over the
// typed WarmasterState, as OpenSpiel's ChessState sits over ChessBoard.
// Actions and states are the JSON of docs/warmaster-command.md; the named
// queries are those of queries.hpp.
#pragma once

#include <memory>
#include <string>

#include "referee/core/game.hpp"
#include "referee/core/game_adapter.hpp"
#include "referee/warmaster/battle/battle_state.hpp"

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
// the WarmasterState behind one.
struct System {
  using Context = BattleGame;
  using State = WarmasterState;
  using Action = warmaster::Action;
  using Checked = WarmasterState::Checked;
  static constexpr std::string_view name = "warmaster";
  // Nothing is hidden: both generals see the whole table, every unit and
  // every die, as at a real table.
  static constexpr Information information = Information::perfect;

  static std::vector<std::string> players(const BattleGame& g);
  static WarmasterState initial(const std::shared_ptr<const BattleGame>& g);
  static WarmasterState from_json(const std::shared_ptr<const BattleGame>& g, const Json& j, const std::string& path);
  static Json to_json(const BattleGame& g, const WarmasterState& s);
  static int side(const BattleGame&, const WarmasterState& s) { return s.side(); }
  static int turn(const WarmasterState& s) { return s.turn(); }
  // "command: initiative", "command: orders", "command: characters", "shooting", "combat".
  static std::string phase(const WarmasterState& s);
  static bool over(const BattleGame&, const WarmasterState& s) { return s.battle_over(); }
  static Json result(const BattleGame& g, const WarmasterState& s);
  static Action parse(const BattleGame& g, const WarmasterState& s, const Json& action, const std::string& path);
  static Checked check(const BattleGame& g, const WarmasterState& s, const Action& a, bool describe);
  static Json do_apply(const BattleGame& g, WarmasterState& s, Checked&& c, Dice& dice, bool describe);
  static std::vector<Action> legal(const BattleGame& g, const WarmasterState& s);
  static Json action_json(const BattleGame& g, const Action& a);
  static std::optional<Json> sample(const BattleGame& g, const WarmasterState& s, Rng& rng);
  static Chances chances(const referee::GameState& self, const BattleGame& g, const WarmasterState& s, const Action& a,
                         const Json& action, const std::string& path);
  static Json query(const BattleGame& g, const WarmasterState& s, const std::string& name, const Json& args,
                    const std::string& path);
  static std::vector<QueryInfo> queries();
  static std::span<const RuleInfo> rules();
};
static_assert(RuleSystem<System>, "warmaster's System gives the adapter what core/game_adapter.hpp asks");

}  // namespace referee::warmaster
