#include "referee/blightmeer/game_interface.hpp"

#include "referee/blightmeer/io.hpp"
#include "referee/blightmeer/queries.hpp"
#include "referee/blightmeer/rules.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"

namespace referee::blightmeer {

namespace {

using IState = referee::GameState;
// Inside a class derived from referee::GameState, "GameState" names the base:
// the typed state needs its full name.
using TypedState = blightmeer::GameState;

class BlightmeerState final : public IState {
 public:
  BlightmeerState(std::shared_ptr<const Battle> b, TypedState s) : b_(std::move(b)), s_(std::move(s)) {}
  const TypedState& typed() const { return s_; }

  std::unique_ptr<IState> clone() const override { return std::make_unique<BlightmeerState>(*this); }
  Json to_json() const override { return game_state_json(s_); }
  int current_player() const override { return game_over(*b_, s_) ? -1 : s_.side; }
  int turn() const override { return s_.turn; }
  std::string phase() const override { return "move"; }
  bool is_terminal() const override { return game_over(*b_, s_); }
  Json result() const override {
    if (!is_terminal()) return game_result(false, std::nullopt, "");
    // The side left with units standing wins when the other has none.
    std::optional<int> winner;
    std::vector<int> standing(s_.sides.size(), 0);
    for (const Unit& u : s_.state.units)
      for (std::size_t i = 0; i < s_.sides.size(); ++i)
        if (u.side == s_.sides[i] && !u.incapacitated) ++standing[i];
    if (standing.size() == 2 && (standing[0] == 0) != (standing[1] == 0)) winner = standing[0] ? 0 : 1;
    return game_result(true, winner, game_over_reason(*b_, s_));
  }

  Verdict validate(const Json& action, const std::string& path) const override {
    return blightmeer::validate(*b_->terrain, s_, parse_action(action, *b_, path));
  }

  Outcome apply(const Json& action, Dice& dice, const std::string& path, bool) override {
    const Action a = parse_action(action, *b_, path);
    Outcome out;
    out.verdict = blightmeer::validate(*b_->terrain, s_, a);
    if (!out.applied()) return out;
    const std::size_t mark = dice.history().size();
    out.result = blightmeer::apply(*b_->terrain, s_, a, dice);
    out.rolls = dice.since(mark);
    return out;
  }

  std::vector<Json> legal_actions() const override {
    if (is_terminal()) return {};
    return {action_json(Action{})};  // end_turn: moves are continuous, sample_action reaches them
  }

  std::optional<Json> sample_action(Rng& rng) const override {
    if (is_terminal()) return std::nullopt;
    std::vector<MoveKindOption> kinds;
    for (MoveKindOption& k : move_kinds(*b_->terrain, s_))
      if (k.why_not.legal()) kinds.push_back(std::move(k));
    // Mostly moves, now and then the end of the turn, so games progress.
    if (!kinds.empty() && rng.below(5) != 0) {
      const MoveKindOption& k = kinds[rng.below(kinds.size())];
      if (std::optional<Action> a = sample_move(*b_->terrain, s_, k.unit, k.run, rng)) return action_json(*a);
    }
    return action_json(Action{});
  }

  std::vector<ChanceOutcome> chance_outcomes(const Json& action, const std::string& path) const override {
    const Action a = parse_action(action, *b_, path);
    if (a.type != Action::Type::move || !blightmeer::validate(*b_->terrain, s_, a).legal()) return {};
    const MoveReport rep = check_move(*b_->terrain, s_.state, a.move);
    if (rep.checks.empty()) return {};
    std::vector<ChanceOutcome> out;
    for (MoveOutcome& m : move_outcomes(rep)) out.push_back({std::move(m.label), m.chance, std::move(m.detail)});
    return out;
  }

  Json query(const std::string& name, const Json& args, const std::string& path) const override {
    return answer_query(*b_->terrain, s_.state, name, args, path);
  }

 private:
  std::shared_ptr<const Battle> b_;
  TypedState s_;
};

class BlightmeerGame final : public Game {
 public:
  BlightmeerGame(std::shared_ptr<const Battle> b, Json scenario) : b_(std::move(b)), scenario_(std::move(scenario)) {}
  const Battle& battle() const { return *b_; }
  std::string system() const override { return "blightmeer"; }
  std::vector<std::string> players() const override { return TypedState::initial(*b_).sides; }
  const Json& scenario() const override { return scenario_; }
  std::unique_ptr<IState> new_initial_state() const override {
    return std::make_unique<BlightmeerState>(b_, TypedState::initial(*b_));
  }
  std::unique_ptr<IState> state_from_json(const Json& j, const std::string& path) const override {
    return std::make_unique<BlightmeerState>(b_, game_state_from_json(j, *b_, path));
  }
  std::vector<QueryInfo> queries() const override { return query_catalogue(); }
  std::span<const RuleInfo> rules() const override { return rule_catalogue(); }

 private:
  std::shared_ptr<const Battle> b_;
  Json scenario_;
};

}  // namespace

std::shared_ptr<const Game> load_game(const Json& battle, const std::string& source, const Json& settings) {
  JsonReader(settings, "settings").require_object();
  Json merged = battle;
  if (!settings.empty()) {
    if (!merged.is_object()) throw InputError(source, "expected an object");
    Json& s = merged["settings"];
    if (s.is_null()) s = Json::object();
    if (!s.is_object()) throw InputError(source + ": settings", "expected an object");
    s.update(settings);
  }
  auto b = std::make_shared<const Battle>(parse_battle(merged, source));
  return std::make_shared<BlightmeerGame>(std::move(b), std::move(merged));
}

GameType game_type() { return {"blightmeer", "Blightmeer", "3D skirmish movement in inches", &load_game, query_catalogue()}; }

const Battle* typed_battle(const Game& g) {
  const auto* b = dynamic_cast<const BlightmeerGame*>(&g);
  return b ? &b->battle() : nullptr;
}

const GameState* typed_state(const referee::GameState& s) {
  const auto* b = dynamic_cast<const BlightmeerState*>(&s);
  return b ? &b->typed() : nullptr;
}

}  // namespace referee::blightmeer
