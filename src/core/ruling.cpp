#include "referee/core/ruling.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "referee/core/json_io.hpp"

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

// Read with JsonReader: bad JSON is an InputError naming the field.
void from_json(const nlohmann::json& j, Figure& f) {
  JsonReader in(j, "");
  in.require_object();
  f.name = in.string("name");
  f.value = in.number("value", -1e300, 1e300);
  f.unit = in.string_or("unit", "");
}

void to_json(nlohmann::json& j, const Ruling& r) {
  j = nlohmann::json{{"rule", r.rule}, {"reason", r.reason}, {"figures", r.figures}};
}

void from_json(const nlohmann::json& j, Ruling& r) {
  JsonReader in(j, "");
  in.require_object();
  r.rule = in.string("rule");
  r.reason = in.string("reason");
  r.figures.clear();
  if (auto figures = in.find("figures"))
    for (const JsonReader& f : figures->items()) r.figures.push_back(f.json().get<Figure>());
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
