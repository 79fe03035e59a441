#include "referee/core/game.hpp"

#include <algorithm>
#include <stdexcept>

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

Json game_result(bool over, std::optional<int> winner, const std::string& reason) {
  return {{"over", over}, {"winner", winner ? Json(*winner) : Json(nullptr)}, {"reason", reason}};
}

Json to_json_value(const ChanceOutcome& c) {
  Json j{{"label", c.label}, {"chance", c.chance}};
  if (!c.detail.empty()) j["detail"] = c.detail;
  return j;
}

Json to_json_value(const QueryInfo& q) { return {{"name", q.name}, {"summary", q.summary}, {"args", q.args}}; }

Json to_json_value(const RuleEntry& r) { return {{"id", r.id}, {"text", r.text}, {"fires", r.fires}}; }

}  // namespace referee
