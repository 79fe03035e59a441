#include "referee/core/ruling.hpp"

#include <charconv>

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

std::string count_of(double n, std::string_view one, std::string_view many) {
  return fmt::format("{:g} {}", n, n == 1 ? one : many);
}

std::string unit_for(double value, const std::string& unit) {
  if (value != 1) return unit;
  if (unit == "hexes") return "hex";
  if (unit == "inches") return "inch";
  if (unit == "blocks") return "block";
  if (unit == "checks") return "check";
  return unit;
}

namespace {
std::string fixed(double value, int decimals);
}  // namespace

// Measures are written on hot paths (every refusal, every target): within
// any table's size, fixed()'s integer arithmetic, which prints what
// fmt's "{:.1f}" prints (without its "-0.0"); beyond, fmt.
std::string format_measure(double value, const std::string& unit) {
  std::string n;
  if (std::fabs(value) < 1e8) {
    n = fixed(value, 1);
  } else {
    n = fmt::format("{:.1f}", value);
    if (n == "-0.0") n = "0.0";
  }
  return unit.empty() ? n : n + " " + unit;
}

namespace {

std::string fixed(double value, int decimals) {
  // Refusals and notes are built on hot paths, so the common case is
  // integer arithmetic: exact unless value * 10^decimals lies within a
  // hair of a tie, where to_chars gives printf's correctly rounded text.
  constexpr double kScale[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
  std::string n;
  const double scaled = decimals >= 0 && decimals <= 9 ? value * kScale[decimals] : 1e300;
  const double frac = std::fabs(scaled - std::trunc(scaled));
  if (std::fabs(scaled) < 1e15 && std::fabs(frac - 0.5) > 1e-6) {
    const long long r = std::llround(scaled);
    std::string digits = std::to_string(r < 0 ? -r : r);
    if (static_cast<int>(digits.size()) <= decimals) digits.insert(0, static_cast<std::size_t>(decimals + 1) - digits.size(), '0');
    if (decimals > 0) digits.insert(digits.size() - static_cast<std::size_t>(decimals), 1, '.');
    n = (r < 0 ? "-" : "") + digits;
  } else {
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, decimals);
    n = ec == std::errc() ? std::string(buf, end) : fmt::format("{:.{}f}", value, decimals);
  }
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
  // Refusals are built on hot paths (random play tries many illegal moves),
  // so the decimals are chosen by arithmetic, and the printed text only
  // checked: printing and parsing at every width cost 4% of a random phase.
  constexpr double kScale[kMaxDecimals + 1] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6};
  auto differ = [&](int d) { return std::nearbyint(value * kScale[d]) != std::nearbyint(limit * kScale[d]); };
  auto faithful = [&](int d) {
    const double ev = std::fabs(std::nearbyint(value * kScale[d]) / kScale[d] - value);
    const double el = std::fabs(std::nearbyint(limit * kScale[d]) / kScale[d] - limit);
    return std::max(ev, el) <= gap / 10;
  };
  int decimals = 0;
  for (int d = 1; d <= kMaxDecimals && !decimals; ++d)
    if (differ(d) && faithful(d)) decimals = d;
  for (int d = 1; d <= kMaxDecimals && !decimals; ++d)
    if (differ(d)) decimals = d;
  if (!decimals) decimals = 1;
  // Binary rounding can disagree with the decimal text at a tie: then the
  // first width at which the texts themselves differ.
  std::string v = fixed(value, decimals), l = fixed(limit, decimals);
  for (int d = decimals + 1; value != limit && v == l && d <= kMaxDecimals; ++d)
    if (std::string vd = fixed(value, d), ld = fixed(limit, d); vd != ld) {
      v = std::move(vd);
      l = std::move(ld);
    }
  if (!unit.empty()) {
    v += " " + unit;
    l += " " + unit;
  }
  return {std::move(v), std::move(l)};
}

std::string explain(const Ruling& r) {
  std::string s = r.rule + ": " + r.reason;
  if (!r.figures.empty()) {
    s += " (";
    for (std::size_t i = 0; i < r.figures.size(); ++i) {
      if (i) s += ", ";
      const double v = std::round(r.figures[i].value * 100) / 100;
      s += r.figures[i].name + " " + fmt::format("{:g}", v);
      if (!r.figures[i].unit.empty()) s += " " + unit_for(v, r.figures[i].unit);
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
