#include "referee/core/chance_steps.hpp"

#include <stdexcept>

#include "dice_sequences.hpp"

namespace referee {

namespace {

// Rolls the faces of one declared outcome, and nothing else: a die of other
// sides, or one more die, means the declaration was made on another state.
class StepDice final : public Dice {
 public:
  explicit StepDice(const std::vector<Roll>& rolls) : rolls_(rolls) {}
  bool used_up() const { return next_ == rolls_.size(); }

 protected:
  int draw(int sides, const std::string&) override {
    if (next_ >= rolls_.size() || rolls_[next_].sides != sides)
      throw std::logic_error("resolve: the state rolls other dice than its declaration (declared on another state)");
    return rolls_[next_++].value;
  }

 private:
  const std::vector<Roll>& rolls_;
  std::size_t next_ = 0;
};

}  // namespace

DeclaredAction declare(const GameState& state, const Json& action, const std::string& path, std::size_t max_outcomes) {
  DeclaredAction d;
  d.action = action;
  d.verdict = state.validate(action, path);
  if (d.refused()) return d;
  std::vector<std::int64_t> weights;
  const std::optional<std::string> why = chance_detail::for_each_dice_sequence(
      state, action, path, max_outcomes, false, [&](const chance_detail::DiceSequence& s) {
        d.outcomes.push_back({s.outcome.rolls, {}});
        weights.push_back(s.weight);
      });
  if (why) {
    d.kind = Chances::Kind::NotEnumerable;
    d.why = *why;
    d.outcomes.clear();
    return d;
  }
  if (d.outcomes.size() == 1 && weights[0] == 1) {
    d.outcomes.clear();
    return d;  // no dice
  }
  const std::optional<std::int64_t> denom = chance_detail::common_denominator(weights);
  if (!denom) {
    d.kind = Chances::Kind::NotEnumerable;
    d.why = chance_detail::kNoCommonDenominator;
    d.outcomes.clear();
    return d;
  }
  for (std::size_t k = 0; k < d.outcomes.size(); ++k) d.outcomes[k].chance = {*denom / weights[k], *denom};
  d.kind = Chances::Kind::Outcomes;
  return d;
}

Resolved resolve(const GameState& state, const DeclaredAction& declared, std::size_t k, const std::string& path) {
  if (declared.refused()) throw std::logic_error("resolve: the action was refused");
  if (declared.kind == Chances::Kind::NotEnumerable)
    throw std::logic_error("resolve: the action's dice could not be listed (" + declared.why + "): apply it with dice");
  static const std::vector<Roll> kNoDice;
  const std::size_t count = declared.is_chance() ? declared.outcomes.size() : 1;
  if (k >= count)
    throw std::logic_error("resolve: outcome " + std::to_string(k) + " of " + std::to_string(count));
  StepDice dice(declared.is_chance() ? declared.outcomes[k].rolls : kNoDice);
  Resolved r{state.clone(), {}};
  r.outcome = r.state->apply(declared.action, dice, path);
  if (!r.outcome.applied()) throw std::logic_error("resolve: the action is refused on this state (declared on another)");
  if (!dice.used_up()) throw std::logic_error("resolve: the state rolls fewer dice than its declaration");
  return r;
}

std::size_t sample_outcome(const DeclaredAction& declared, Rng& rng) {
  if (!declared.is_chance()) return 0;
  const std::int64_t denom = declared.outcomes.front().chance.outcomes;
  std::int64_t u = static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(denom)));
  for (std::size_t k = 0; k < declared.outcomes.size(); ++k) {
    u -= declared.outcomes[k].chance.successes;
    if (u < 0) return k;
  }
  return declared.outcomes.size() - 1;  // unreachable: the chances sum to one
}

Json to_json_value(const DeclaredAction& d) {
  Json j{{"action", d.action}, {"kind", to_string(d.kind)}};
  if (d.refused()) j["refused"] = d.verdict.violations;
  if (d.kind == Chances::Kind::NotEnumerable) j["why"] = d.why;
  if (d.is_chance()) {
    Json outs = Json::array();
    for (const ChanceStep& s : d.outcomes) outs.push_back({{"rolls", s.rolls}, {"chance", s.chance}});
    j["outcomes"] = std::move(outs);
  }
  return j;
}

}  // namespace referee
