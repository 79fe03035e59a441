#include "referee/core/game.hpp"

#include <algorithm>
#include <stdexcept>

#include "dice_sequences.hpp"
#include "referee/core/errors.hpp"

namespace referee {

void GameRegistry::add(GameType type) {
  if (type.name.empty() || !type.load) throw std::logic_error("a game type needs a name and a loader");
  if (find(type.name)) throw std::logic_error("game type registered twice: " + type.name);
  types_.push_back(std::move(type));
}

const GameType* GameRegistry::find(std::string_view name) const {
  for (const GameType& t : types_)
    if (t.name == name) return &t;
  return nullptr;
}

const GameType& GameRegistry::at(std::string_view name, const std::string& field) const {
  if (const GameType* t = find(name)) return *t;
  std::string known;
  for (const GameType& t : types_) known += (known.empty() ? "" : ", ") + t.name;
  throw InputError(field, "unknown system \"" + std::string(name) + "\" (known: " + known + ")");
}

std::vector<std::string> GameRegistry::names() const {
  std::vector<std::string> out;
  for (const GameType& t : types_) out.push_back(t.name);
  return out;
}

namespace {


}  // namespace

std::string to_string(Information i) { return i == Information::perfect ? "perfect" : "imperfect"; }

std::string to_string(Chances::Kind k) {
  switch (k) {
    case Chances::Kind::NoDice: return "no dice";
    case Chances::Kind::Outcomes: return "outcomes";
    case Chances::Kind::NotEnumerable: return "not enumerable";
  }
  return "?";
}

Chances enumerate_chance(const GameState& state, const Json& action,
                         const std::function<std::string(const Outcome&)>& label, const std::string& path,
                         std::size_t max_leaves) {
  if (!state.validate(action, path).legal()) return Chances::no_dice();
  struct Leaf {
    std::string label;
    std::int64_t weight;  // 1 / weight is its chance
  };
  std::vector<Leaf> leaves;
  const std::optional<std::string> why = chance_detail::for_each_dice_sequence(
      state, action, path, max_leaves, true,
      [&](const chance_detail::DiceSequence& d) { leaves.push_back({label(d.outcome), d.weight}); });
  if (why) return Chances::not_enumerable(*why);
  if (leaves.size() == 1 && leaves[0].weight == 1) return Chances::no_dice();
  std::vector<std::int64_t> weights;
  for (const Leaf& l : leaves) weights.push_back(l.weight);
  const std::optional<std::int64_t> common = chance_detail::common_denominator(weights);
  if (!common) return Chances::not_enumerable(chance_detail::kNoCommonDenominator);
  const std::int64_t denom = *common;
  std::vector<ChanceOutcome> out;
  for (const Leaf& l : leaves) {
    auto it = std::find_if(out.begin(), out.end(), [&](const ChanceOutcome& c) { return c.label == l.label; });
    if (it == out.end()) {
      out.push_back({l.label, {0, denom}, Json::object()});
      it = out.end() - 1;
    }
    it->chance.successes += denom / l.weight;
  }
  return Chances::of(std::move(out));
}

Json game_result(bool over, std::optional<int> winner, const std::string& reason) {
  return {{"over", over}, {"winner", winner ? Json(*winner) : Json(nullptr)}, {"reason", reason}};
}

Json to_json_value(const ChanceOutcome& c) {
  Json j{{"label", c.label}, {"chance", c.chance}};
  if (!c.detail.empty()) j["detail"] = c.detail;
  return j;
}

Json to_json_value(const QueryInfo& q) { return {{"name", q.name}, {"summary", q.summary}, {"args", q.args}}; }


}  // namespace referee
