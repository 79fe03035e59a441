#include "referee/core/rule_catalogue.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace referee {

std::optional<RuleInfo> find_rule(std::span<const RuleInfo> catalogue, std::string_view id) {
  auto it = std::find_if(catalogue.begin(), catalogue.end(), [&](const RuleInfo& r) { return r.id == id; });
  if (it == catalogue.end()) return std::nullopt;
  return *it;
}

nlohmann::json rules_to_json(std::span<const RuleInfo> catalogue) {
  nlohmann::json j = nlohmann::json::array();
  for (const RuleInfo& r : catalogue)
    j.push_back({{"id", std::string(r.id)}, {"text", std::string(r.text)}, {"fires", std::string(r.fires)}});
  return j;
}

namespace {

std::string table_cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

}  // namespace

std::string rules_to_markdown(std::span<const RuleInfo> catalogue) {
  std::string s = "| Rule id | Rule | Fires when |\n|---|---|---|\n";
  for (const RuleInfo& r : catalogue)
    s += "| `" + std::string(r.id) + "` | " + table_cell(r.text) + " | " + table_cell(r.fires) + " |\n";
  return s;
}

std::string rules_to_text(std::span<const RuleInfo> catalogue) {
  std::string s;
  for (const RuleInfo& r : catalogue) {
    s += std::string(r.id) + "\n";
    s += "  rule:  " + std::string(r.text) + "\n";
    s += "  fires: " + std::string(r.fires) + "\n";
  }
  return s;
}

bool well_formed_rule_id(std::string_view id) {
  int parts = 0;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = id.find('.', start);
    std::string_view part = id.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (part.empty()) return false;
    for (char c : part)
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    if (!(part[0] >= 'a' && part[0] <= 'z')) return false;
    ++parts;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts >= 2;
}

}  // namespace referee
