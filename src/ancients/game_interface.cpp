#include "referee/ancients/game_interface.hpp"

#include "referee/ancients/opponent.hpp"
#include "referee/ancients/queries.hpp"
#include "referee/ancients/rules.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"

namespace referee::ancients {

std::optional<Json> System::sample(const Battle& b, const State& s, Rng& rng) {
  const std::optional<Action> a = random_action(b, s, rng);
  if (!a) return std::nullopt;
  return ancients::action_json(b, *a);
}

Chances System::chances(const referee::GameState&, const Battle& b, const State& s, const Action& a, const Json&,
                         const std::string&) {
  if (reshuffle_dice(b, s, a) > 0)
    return Chances::not_enumerable(
        "the turn ends with a draw from an empty deck, so the discards are shuffled into a new deck with one die per "
        "card (docs/rulings.md#ancients-reshuffle); the orders are not listed one by one");
  switch (a.type) {
    case Action::Type::battle:
    case Action::Type::evade:
    case Action::Type::stand:
    case Action::Type::retreat:
      return Chances::not_enumerable(
          "a combat's dice (the attack, a battle back, a leader casualty check) are not listed outcome by outcome; the "
          "odds query gives an attack's exact distribution");
    default: return Chances::no_dice();
  }
}

Json System::query(const Battle& b, const State& s, const std::string& name, const Json& args,
                   const std::string& path) {
  return answer_query(b, s, true, name, args, path);
}
std::vector<QueryInfo> System::queries() { return query_catalogue(); }
std::span<const RuleInfo> System::rules() { return rule_catalogue(); }

std::shared_ptr<const Game> load_game(const Json& battle, const std::string& source, const Json& settings) {
  JsonReader s(settings, "settings");
  s.require_object();
  s.allow_only({"deal"});
  // The scenario as loaded carries the settings in force (game.hpp), so a
  // log replays with the deal it was played with.
  Json scenario = battle;
  if (s.has("deal")) {
    (void)s.one_of("deal", {"as_listed", "shuffled"});  // docs/rulings.md#ancients-deal
    if (!scenario.is_object()) JsonReader(battle, source).require_object();
    scenario["deal"] = settings["deal"];
  }
  return std::make_shared<SystemGame<System>>(std::make_shared<const Battle>(parse_battle(scenario, source)), scenario);
}

namespace {
// The built-in opponent (opponent.hpp) through the interface: the typed
// state in, the chosen action out as JSON.
std::optional<Json> opponent_json(const referee::GameState& state, Rng& rng) {
  const auto* t = dynamic_cast<const SystemState<System>*>(&state);
  if (!t) return std::nullopt;
  const Battle& b = t->context();
  const std::optional<Action> a = opponent_action(b, t->typed(), rng);
  if (!a) return std::nullopt;
  return ancients::action_json(b, *a);
}
}  // namespace

GameType game_type() {
  GameType t{"ancients", "Commands & Colors: Ancients", "hex movement, leaders, command cards and battles to the victory banners", &load_game, query_catalogue()};
  t.opponent = &opponent_json;
  return t;
}

}  // namespace referee::ancients
