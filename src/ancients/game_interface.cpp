#include "referee/ancients/game_interface.hpp"

#include "referee/ancients/queries.hpp"
#include "referee/ancients/rules.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"

namespace referee::ancients {

namespace {

using IState = referee::GameState;
// Inside a class derived from referee::GameState, "GameState" names the base:
// the typed state needs its full name.
using TypedState = ancients::GameState;

class AncientsGame;

class AncientsState final : public IState {
 public:
  AncientsState(std::shared_ptr<const Battle> b, TypedState s) : b_(std::move(b)), s_(std::move(s)) {}
  const TypedState& typed() const { return s_; }

  std::unique_ptr<IState> clone() const override { return std::make_unique<AncientsState>(*this); }
  Json to_json() const override { return state_json(*b_, s_); }
  int current_player() const override { return game_over(*b_, s_) ? -1 : s_.side; }
  int turn() const override { return s_.turn; }
  std::string phase() const override { return s_.phase == Phase::play_card ? "play_card" : "movement"; }
  bool is_terminal() const override { return game_over(*b_, s_); }
  Json result() const override {
    if (!is_terminal()) return game_result(false, std::nullopt, "");
    return game_result(true, std::nullopt, game_over_reason(*b_, s_));
  }

  Verdict validate(const Json& action, const std::string& path) const override {
    return ancients::validate(*b_, s_, parse_action(action, *b_, path));
  }

  Outcome apply(const Json& action, Dice&, const std::string& path, bool) override {
    const Action a = parse_action(action, *b_, path);
    Outcome out;
    out.verdict = ancients::validate(*b_, s_, a);
    if (out.applied()) out.result = ancients::apply(*b_, s_, a);
    return out;
  }

  std::vector<Json> legal_actions() const override {
    std::vector<Json> out;
    for (const Action& a : ancients::legal_actions(*b_, s_)) out.push_back(action_json(*b_, a));
    return out;
  }

  std::optional<Json> sample_action(Rng& rng) const override {
    if (is_terminal()) return std::nullopt;
    const std::vector<Action> legal = ancients::legal_actions(*b_, s_);
    if (legal.empty()) return std::nullopt;
    return action_json(*b_, legal[rng.below(legal.size())]);
  }

  // No Ancients action rolls dice yet (battles are not played).
  std::vector<ChanceOutcome> chance_outcomes(const Json& action, const std::string& path) const override {
    (void)parse_action(action, *b_, path);
    return {};
  }

  Json query(const std::string& name, const Json& args, const std::string& path) const override {
    return answer_query(*b_, s_, true, name, args, path);
  }

 private:
  std::shared_ptr<const Battle> b_;
  TypedState s_;
};

class AncientsGame final : public Game {
 public:
  AncientsGame(std::shared_ptr<const Battle> b, Json scenario) : b_(std::move(b)), scenario_(std::move(scenario)) {}
  const Battle& battle() const { return *b_; }
  std::string system() const override { return "ancients"; }
  std::vector<std::string> players() const override { return {b_->players[0].name, b_->players[1].name}; }
  const Json& scenario() const override { return scenario_; }
  std::unique_ptr<IState> new_initial_state() const override {
    return std::make_unique<AncientsState>(b_, TypedState::initial(*b_));
  }
  std::unique_ptr<IState> state_from_json(const Json& j, const std::string& path) const override {
    return std::make_unique<AncientsState>(b_, ancients::state_from_json(*b_, j, path));
  }
  std::vector<QueryInfo> queries() const override { return query_catalogue(); }
  std::span<const RuleInfo> rules() const override { return rule_catalogue(); }

 private:
  std::shared_ptr<const Battle> b_;
  Json scenario_;
};

}  // namespace

std::shared_ptr<const Game> load_game(const Json& battle, const std::string& source, const Json& settings) {
  JsonReader s(settings, "settings");
  s.require_object();
  s.allow_only({});
  return std::make_shared<AncientsGame>(std::make_shared<const Battle>(parse_battle(battle, source)), battle);
}

GameType game_type() {
  return {"ancients", "Commands & Colors: Ancients", "hex movement, leaders and command cards", &load_game, query_catalogue()};
}

const Battle* typed_battle(const Game& g) {
  const auto* a = dynamic_cast<const AncientsGame*>(&g);
  return a ? &a->battle() : nullptr;
}

const GameState* typed_state(const referee::GameState& s) {
  const auto* a = dynamic_cast<const AncientsState*>(&s);
  return a ? &a->typed() : nullptr;
}

}  // namespace referee::ancients
