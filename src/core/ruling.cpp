#include "referee/core/ruling.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace referee {

bool Verdict::has(const std::string& rule) const {
  return std::any_of(violations.begin(), violations.end(), [&](const Ruling& r) { return r.rule == rule; });
}

void to_json(nlohmann::json& j, const Figure& f) {
  // Figures are rounded to 1/100 mm (1e-4 of a cm or inch) so JSON answers
  // are stable across platforms' last-bit differences.
  double v = std::round(f.value * 1e4) / 1e4;
  j = nlohmann::json{{"name", f.name}, {"value", v}};
  if (!f.unit.empty()) j["unit"] = f.unit;
}

void from_json(const nlohmann::json& j, Figure& f) {
  f.name = j.at("name").get<std::string>();
  f.value = j.at("value").get<double>();
  f.unit = j.value("unit", std::string{});
}

void to_json(nlohmann::json& j, const Ruling& r) {
  j = nlohmann::json{{"rule", r.rule}, {"reason", r.reason}, {"figures", r.figures}};
}

void from_json(const nlohmann::json& j, Ruling& r) {
  r.rule = j.at("rule").get<std::string>();
  r.reason = j.at("reason").get<std::string>();
  r.figures = j.value("figures", std::vector<Figure>{});
}

void to_json(nlohmann::json& j, const Verdict& v) {
  j = nlohmann::json{{"legal", v.legal()}, {"violations", v.violations}};
}

std::string format_measure(double value, const std::string& unit) {
  std::string n = fmt::format("{:.1f}", value);
  if (n == "-0.0") n = "0.0";
  return unit.empty() ? n : n + " " + unit;
}

std::string explain(const Ruling& r) {
  std::string s = r.rule + ": " + r.reason;
  if (!r.figures.empty()) {
    s += " (";
    for (std::size_t i = 0; i < r.figures.size(); ++i) {
      if (i) s += ", ";
      s += r.figures[i].name + " " + fmt::format("{:g}", std::round(r.figures[i].value * 100) / 100);
      if (!r.figures[i].unit.empty()) s += " " + r.figures[i].unit;
    }
    s += ")";
  }
  return s;
}

std::string explain(const Verdict& v) {
  if (v.legal()) return "legal\n";
  std::string s = "illegal\n";
  for (const Ruling& r : v.violations) s += "  - " + explain(r) + "\n";
  return s;
}

}  // namespace referee
