// A ruling: which rule decided, why, and the measured figures. Every
// rejection in referee is one of these (boardgame.io's lesson: never reject
// without a reason).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace referee {

struct Figure {
  std::string name;   // "moved", "allowed", "gap"
  double value = 0;
  std::string unit;   // "cm", "in", "hexes", "" for counts
  bool operator==(const Figure&) const = default;
};

struct Ruling {
  std::string rule;    // "warmaster.movement.gap"
  std::string reason;  // "stand 2, front-left corner moved 21.4 cm > 20.0 cm (infantry, column, full pace)"
  std::vector<Figure> figures;
  bool operator==(const Ruling&) const = default;
};

// Legal or not, with every violation found (not only the first), so a player
// sees all that is wrong with a move at once.
struct Verdict {
  std::vector<Ruling> violations;
  bool legal() const { return violations.empty(); }
  void add(Ruling r) { violations.push_back(std::move(r)); }
  void add(std::string rule, std::string reason, std::vector<Figure> figures = {}) {
    violations.push_back({std::move(rule), std::move(reason), std::move(figures)});
  }
  bool has(const std::string& rule) const;
};

void to_json(nlohmann::json& j, const Figure& f);
void from_json(const nlohmann::json& j, Figure& f);
void to_json(nlohmann::json& j, const Ruling& r);
void from_json(const nlohmann::json& j, Ruling& r);
void to_json(nlohmann::json& j, const Verdict& v);

// "warmaster.movement.distance: stand 2, ... (moved 21.4 cm, allowed 20 cm)"
std::string explain(const Ruling& r);
std::string explain(const Verdict& v);

// A count with its noun in the right number: count_of(1, "hex", "hexes") is
// "1 hex", count_of(2, ...) "2 hexes". Reasons and answers print counts
// through it, never "1 hexes".
std::string count_of(double n, std::string_view one, std::string_view many);
// A figure's unit in the right number for its value: "hexes" is "hex" for
// exactly 1 (and "inches" "inch"); other units ("in", "cm") are unchanged.
std::string unit_for(double value, const std::string& unit);

// Formats a measurement the way rulings print it: one decimal, trailing
// ".0" kept ("20.0 cm"), so reasons read consistently.
std::string format_measure(double value, const std::string& unit);

// Formats a measured value and the limit it is compared with, each with its
// unit, at the fewest decimals (at least 1, at most 6) at which they print
// differently and neither is rounded by more than a tenth of the gap between
// them: 10.05 against 10.0 gives "10.05" and "10.00" (not "10.1"), 21.4
// against 20 gives "21.4" and "20.0". So a refusal never reads "moved 10.0 cm
// > 10.0 cm". Values that agree to 6 decimals (equal, or apart by
// floating-point noise) print at 1 decimal.
struct ComparedFigures {
  std::string value;
  std::string limit;
};
ComparedFigures format_compared(double value, double limit, const std::string& unit);

}  // namespace referee
