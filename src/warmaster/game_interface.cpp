#include "referee/warmaster/game_interface.hpp"

#include <fmt/format.h>

#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/army_list.hpp"
#include "referee/warmaster/battlefield_json.hpp"
#include "referee/warmaster/command_json.hpp"
#include "referee/warmaster/command_sim.hpp"
#include "referee/warmaster/contact.hpp"
#include "referee/warmaster/opponent.hpp"
#include "referee/warmaster/queries.hpp"
#include "referee/warmaster/rules.hpp"

namespace referee::warmaster {

namespace {

class WarmasterGame;

class WarmasterState final : public GameState {
 public:
  explicit WarmasterState(CommandState s) : s_(std::move(s)) {}
  const CommandState& typed() const { return s_; }

  std::unique_ptr<GameState> clone() const override { return std::make_unique<WarmasterState>(*this); }
  Json to_json() const override { return state_to_json(s_); }
  int current_player() const override { return s_.battle_over() ? -1 : s_.side(); }
  int turn() const override { return s_.turn(); }
  // "command: initiative", "command: orders", "command: characters", "shooting", "combat".
  std::string phase() const override {
    if (s_.phase() == Phase::Command) return std::string("command: ") + to_string(s_.step());
    return to_string(s_.phase());
  }
  bool is_terminal() const override { return s_.battle_over(); }

  Json result() const override {
    if (!s_.battle_over()) return game_result(false, std::nullopt, "");
    return game_result(true, s_.winner() < 0 ? std::nullopt : std::optional<int>(s_.winner()),
                       s_.battle_over_reason());
  }

  Verdict validate(const Json& action, const std::string& path) const override {
    return s_.validate(parse_action(action, s_, path));
  }

  Outcome apply(const Json& action, Dice& dice, const std::string& path, bool describe) override {
    const Action a = parse_action(action, s_, path);
    ActionOutcome o = s_.apply(a, dice, describe ? CommandState::Describe::Yes : CommandState::Describe::No);
    Outcome out{std::move(o.verdict), std::move(o.rolls), std::move(o.result)};
    if (!out.applied()) out.result = nullptr;
    return out;
  }

  std::vector<Json> legal_actions() const override {
    std::vector<Json> out;
    for (const Action& a : s_.legal_actions()) out.push_back(warmaster::to_json(a));
    return out;
  }

  std::optional<Json> sample_action(Rng& rng) const override {
    if (s_.battle_over()) return std::nullopt;
    // A pending move is continuous: half the time a random slide, kept
    // when it is legal; else one of the listed actions.
    if (s_.pending() && s_.pending()->kind && (rng.next() & 1)) {
      const Action slide = sim::random_slide(s_, rng);
      if (s_.validate(slide).legal()) return warmaster::to_json(slide);
    }
    const std::vector<Action> legal = s_.legal_actions();
    if (legal.empty()) return std::nullopt;
    return warmaster::to_json(legal[rng.below(legal.size())]);
  }

  std::vector<ChanceOutcome> chance_outcomes(const Json& action, const std::string& path) const override {
    // A Shooting phase rolls a few dice per Attack of every shooting unit,
    // and a Combat phase's end_phase every fighting stand's, beyond counting
    // every face (enumerate_chance would clone and fight it some twenty-five
    // times before giving up); `referee warmaster odds --attacks` and the
    // shooting_odds and combat_odds queries give their exact odds instead.
    const Action a = parse_action(action, s_, path);
    if (a.type == ActionType::Shoot || (a.type == ActionType::EndPhase && s_.phase() == Phase::Combat)) return {};
    auto label = [](const Outcome& o) -> std::string {
      const Json& r = o.result;
      if (r.contains("passed"))
        return r.at("passed").get<bool>() ? fmt::format("passed: {} or less on 2D6", r.at("needed").get<int>())
                                          : fmt::format("failed: over {} on 2D6", r.at("needed").get<int>());
      if (r.contains("outcome")) return r.at("outcome").get<std::string>();
      std::string s = "rolled";
      for (const Roll& roll : o.rolls) s += fmt::format(" {}", roll.value);
      return s;
    };
    return enumerate_chance(*this, action, label, path).value_or(std::vector<ChanceOutcome>{});
  }

  Json query(const std::string& name, const Json& args, const std::string& path) const override {
    return answer_query(s_, name, args, path);
  }

 private:
  CommandState s_;
};

class WarmasterGame final : public Game {
 public:
  WarmasterGame(std::shared_ptr<const CommandGame> g, Json scenario) : g_(std::move(g)), scenario_(std::move(scenario)) {}
  std::string system() const override { return "warmaster"; }
  std::vector<std::string> players() const override {
    std::vector<std::string> out;
    for (const Army& a : g_->start.armies) out.push_back(a.name);
    return out;
  }
  const Json& scenario() const override { return scenario_; }
  std::unique_ptr<GameState> new_initial_state() const override { return std::make_unique<WarmasterState>(CommandState(g_)); }
  std::unique_ptr<GameState> state_from_json(const Json& j, const std::string& path) const override {
    return std::make_unique<WarmasterState>(warmaster::state_from_json(g_, j, path));
  }
  std::vector<QueryInfo> queries() const override { return query_catalogue(); }
  std::span<const RuleInfo> rules() const override { return rule_catalogue(); }

 private:
  std::shared_ptr<const CommandGame> g_;
  Json scenario_;
};

}  // namespace

std::shared_ptr<const Game> load_game(const Json& battlefield, const std::string& source, const Json& overrides) {
  JsonReader(overrides, "settings").require_object();
  auto g = std::make_shared<CommandGame>();
  Settings file_settings;
  g->start = parse_battlefield(battlefield, &file_settings);
  // Overrides are read on their own first, so an unknown key is named.
  (void)settings_from_json(overrides, "settings");
  Json merged;
  to_json(merged, file_settings);
  merged.update(overrides);
  g->settings = settings_from_json(merged, "settings");
  g->scenario = source;
  Json scenario = battlefield;
  to_json(scenario["settings"], g->settings);
  // A bundled army list named by the battle travels with it, so a log
  // replays with the profiles it was played with.
  if (scenario.contains("army_list") && scenario["army_list"].is_string())
    scenario["army_list"] = to_json(*bundled_army_list(scenario["army_list"].get<std::string>()));
  return std::make_shared<WarmasterGame>(std::move(g), std::move(scenario));
}

namespace {
// The built-in opponent (opponent.hpp) through the interface: the typed
// state in, the chosen action out as JSON. Each call makes its own scratch:
// the interface keeps nothing between calls.
std::optional<Json> opponent_action(const GameState& state, Rng& rng) {
  const CommandState* s = typed_state(state);
  if (!s || s->battle_over()) return std::nullopt;
  OpponentScratch scratch;
  return warmaster::to_json(choose_opponent_action(*s, rng, OpponentOptions{}, scratch).action);
}

// The arena's checks over every action of a played game: shots at units
// that were engaged when the Shooting phase began (an enemy stand touching
// them: docs/rulings.md#warmaster-shooting-engaged), and units whose engaged
// flag disagrees with their stands after the action
// (docs/rulings.md#warmaster-engaged).
std::vector<std::pair<std::string, int>> audit(const GameState& before, const Outcome& outcome,
                                               const GameState& after) {
  const CommandState* b = typed_state(before);
  const CommandState* a = typed_state(after);
  if (!b || !a) return {};
  const double tol = b->settings().contact_tolerance;
  int into_combat = 0;
  if (const auto shots = outcome.result.find("shots"); shots != outcome.result.end() && shots->is_array())
    for (const Json& shot : *shots) {
      const Unit* target = b->battlefield().find_unit(shot.at("target").get<std::string>());
      into_combat += target && !enemies_in_contact(b->battlefield(), *target, tol).empty();
    }
  int wrong_flags = 0;
  const std::vector<char> engaged = engaged_now(a->battlefield(), tol);
  for (std::size_t i = 0; i < engaged.size(); ++i) wrong_flags += a->battlefield().units[i].engaged != (engaged[i] != 0);
  return {{"shots at engaged units", into_combat}, {"engaged flags that disagree with the stands", wrong_flags}};
}
}  // namespace

GameType game_type() {
  GameType t{"warmaster", "Warmaster", "command (initiative, orders, movement), shooting and the combat phase, to the end of the battle, in cm with 40 x 20 mm stands", &load_game, query_catalogue()};
  t.opponent = &opponent_action;
  t.audit = &audit;
  return t;
}

const CommandState* typed_state(const GameState& s) {
  const auto* w = dynamic_cast<const WarmasterState*>(&s);
  return w ? &w->typed() : nullptr;
}

}  // namespace referee::warmaster
