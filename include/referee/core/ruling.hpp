// A ruling: which rule decided, why, and the measured figures. Every
// rejection in referee is one of these (boardgame.io's lesson: never reject
// without a reason).
#pragma once

#include <string>
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

// Formats a measurement the way rulings print it: one decimal, trailing
// ".0" kept ("20.0 cm"), so reasons read consistently.
std::string format_measure(double value, const std::string& unit);

}  // namespace referee
