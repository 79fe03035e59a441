#include "referee/core/ruling.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

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

namespace {

std::string fixed(double value, int decimals) {
  std::string n = fmt::format("{:.{}f}", value, decimals);
  if (n.find_first_not_of("-0.") == std::string::npos && n[0] == '-') n.erase(0, 1);  // "-0.00"
  return n;
}

}  // namespace

ComparedFigures format_compared(double value, double limit, const std::string& unit) {
  // The fewest decimals at which the two print differently and neither is
  // rounded by more than a tenth of their difference, so the printed gap is
  // the true one: 10.05 against 10 is "10.05" and "10.00", not "10.1" and
  // "10.0". Values that agree to six decimals differ only by floating-point
  // noise (a gap of exactly the frontage, built from sums): one decimal.
  constexpr int kMaxDecimals = 6;
  const double gap = std::fabs(value - limit);
  auto differ = [&](int d) { return fixed(value, d) != fixed(limit, d); };
  auto faithful = [&](int d) {
    const double ev = std::fabs(std::strtod(fixed(value, d).c_str(), nullptr) - value);
    const double el = std::fabs(std::strtod(fixed(limit, d).c_str(), nullptr) - limit);
    return std::max(ev, el) <= gap / 10;
  };
  int decimals = 0;
  for (int d = 1; d <= kMaxDecimals && !decimals; ++d)
    if (differ(d) && faithful(d)) decimals = d;
  for (int d = 1; d <= kMaxDecimals && !decimals; ++d)
    if (differ(d)) decimals = d;
  if (!decimals) decimals = 1;
  std::string suffix = unit.empty() ? "" : " " + unit;
  return {fixed(value, decimals) + suffix, fixed(limit, decimals) + suffix};
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
