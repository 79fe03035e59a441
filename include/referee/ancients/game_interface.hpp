// Commands & Colors: Ancients on the one game interface (core/game.hpp): a
// layer over the typed game of game.hpp. Actions and states are the JSON of
// docs/ancients.md; the named queries are those of queries.hpp.
#pragma once

#include <memory>
#include <string>

#include "referee/ancients/hidden_cards.hpp"
#include "referee/ancients/turn.hpp"
#include "referee/core/game.hpp"
#include "referee/core/game_adapter.hpp"

namespace referee::ancients {

// The registry entry: name "ancients".
GameType game_type();

// A battle file's JSON. `settings` may override the battle's "deal"
// ("as_listed" or "shuffled", docs/rulings.md#ancients-deal); any other key
// is an InputError naming it.
std::shared_ptr<const Game> load_game(const Json& battle, const std::string& source, const Json& settings);

// The typed battle and state behind an interface game or state made by this
// module; nullptr for another system's.
// Commands & Colors: Ancients described for the one adapter
// (core/game_adapter.hpp): typed_state<System> and typed_context<System>
// (core) give the typed state and battle behind the interface's.
struct System {
  using Context = Battle;
  using State = ancients::AncientsState;
  using Action = ancients::Action;
  struct Checked {
    Action action;
    Verdict verdict;
  };
  static constexpr std::string_view name = "ancients";
  // A command card in hand is its holder's, and no one sees a deck's order:
  // a player's view shows the other's hand and both decks as counts
  // (docs/rulings.md#ancients-hidden-cards).
  static constexpr Information information = Information::imperfect;
  static Json view(const Battle& b, const State& s, int viewer) { return state_view(b, s, viewer); }
  static Json entry_view(const Battle& b, const Json& entry, int viewer) { return ancients::entry_view(b, entry, viewer); }

  static std::vector<std::string> players(const Battle& b) { return {b.players[0].name, b.players[1].name}; }
  static State initial(const std::shared_ptr<const Battle>& b) { return State::initial(*b); }
  static State initial(const std::shared_ptr<const Battle>& b, Dice& dice) { return State::dealt(*b, dice); }
  static State from_json(const std::shared_ptr<const Battle>& b, const Json& j, const std::string& path) {
    return state_from_json(*b, j, path);
  }
  static Json to_json(const Battle& b, const State& s) { return state_json(b, s); }
  static int side(const Battle& b, const State& s) { return acting_side(b, s); }
  static int turn(const State& s) { return s.turn; }
  static std::string phase(const State& s) { return phase_name(s.phase); }
  static bool over(const Battle& b, const State& s) { return game_over(b, s); }
  static Json result(const Battle& b, const State& s) {
    const int w = winner(b, s);
    return game_result(true, w >= 0 ? std::optional<int>(w) : std::nullopt, game_over_reason(b, s));
  }
  static Action parse(const Battle& b, const State&, const Json& j, const std::string& path) {
    return parse_action(j, b, path);
  }
  static Checked check(const Battle& b, const State& s, const Action& a, bool) { return {a, validate(b, s, a)}; }
  // Undescribed, the result is null: the report is left unworded.
  static Json do_apply(const Battle& b, State& s, Checked&& c, Dice& dice, bool describe) {
    const Report r = ancients::do_apply(b, s, c.action, dice, describe);
    return describe ? ancients::describe(b, r) : Json();
  }
  static std::vector<Action> legal(const Battle& b, const State& s) { return legal_actions(b, s); }
  static Json action_json(const Battle& b, const Action& a) { return ancients::action_json(b, a); }
  static std::optional<Json> sample(const Battle& b, const State& s, Rng& rng);
  // A battle, an evasion, a retreat or a momentum choice may roll dice (the
  // attack, a battle back, leader checks); their outcomes are not listed one
  // by one: the "odds" query gives an attack's exact distribution.
  static Chances chances(const referee::GameState&, const Battle& b, const State& s, const Action& a, const Json&,
                         const std::string&);
  static Json query(const Battle& b, const State& s, const std::string& name, const Json& args,
                    const std::string& path);
  static std::vector<QueryInfo> queries();
  static std::span<const RuleInfo> rules();
};
static_assert(RuleSystem<System>, "ancients's System gives the adapter what core/game_adapter.hpp asks");

}  // namespace referee::ancients
