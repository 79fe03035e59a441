#include <cmath>
#include <map>

#include <fmt/format.h>

#include "referee/blightmeer/io.hpp"

namespace referee::blightmeer {

namespace {
double r3(double v) { return std::round(v * 1000) / 1000; }

nlohmann::json bits_json(unsigned bits) {
  nlohmann::json a = nlohmann::json::array();
  if (bits & kDifficult) a.push_back("difficult");
  if (bits & kShallow) a.push_back("shallow_water");
  if (bits & kDeep) a.push_back("deep_water");
  if (bits & kLow) a.push_back("low_terrain");
  return a;
}

nlohmann::json rulings_json(const std::vector<Ruling>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (const Ruling& r : v) a.push_back(r);
  return a;
}
}  // namespace

nlohmann::json unit_json(const Unit& u) {
  nlohmann::json state{{"dazed", u.dazed},       {"stunned", u.stunned},   {"staggered", u.staggered},
                       {"incapacitated", u.incapacitated}, {"engaged_with", u.engaged_with},
                       {"tried_to_engage", u.tried_to_engage}, {"treasure", u.treasure}, {"ran", u.ran}};
  return {{"id", u.id}, {"side", u.side}, {"position", vec3_json(u.pos)}, {"wounds", u.wounds}, {"state", state}};
}

nlohmann::json state_json(const State& s) {
  nlohmann::json a = nlohmann::json::array();
  for (const Unit& u : s.units) a.push_back(unit_json(u));
  return {{"units", a}};
}

nlohmann::json report_json(const MoveReport& r) {
  nlohmann::json steps = nlohmann::json::array();
  for (const StepReport& s : r.steps)
    steps.push_back({{"step", s.index}, {"type", to_string(s.type)}, {"from", vec3_json(s.from)}, {"to", vec3_json(s.to)},
                     {"horizontal", r3(s.horizontal)}, {"vertical", r3(s.vertical)}, {"cost", r3(s.cost)},
                     {"terrain", bits_json(s.bits)}});
  nlohmann::json checks = nlohmann::json::array();
  for (const CheckNeed& c : r.checks) {
    nlohmann::json j{{"step", c.step}, {"kind", c.kind}, {"rule", c.rule}, {"stat", "Agility"}, {"target", c.target},
                     {"advantage", c.edge == Edge::advantage}, {"disadvantage", c.edge == Edge::disadvantage},
                     {"why", c.why}, {"chance", c.chance}, {"on_failure", to_string(c.on_failure)}};
    if (c.automatic_failure) j["automatic_failure"] = c.automatic_reason;
    if (c.on_failure != OnFailure::stop_at_foot) {
      j["fall_from"] = r3(c.fall_height);
      j["fall_spot"] = vec3_json(c.failure_spot);
    }
    checks.push_back(j);
  }
  const Allowance& a = r.allowance;
  nlohmann::json allowance{{"move", a.move},       {"staggered", a.staggered}, {"base", a.base},
                           {"run", a.run},         {"multiplier", a.multiplier}, {"difficult", a.difficult},
                           {"penalty", a.penalty}, {"total", r3(a.total)}};
  nlohmann::json j{{"legal", r.verdict.legal()},
                   {"violations", rulings_json(r.verdict.violations)},
                   {"unit", r.unit},
                   {"spent", r3(r.spent)},
                   {"allowance", allowance},
                   {"remaining", r3(a.total - r.spent)},
                   {"steps", steps},
                   {"checks", checks},
                   {"all_checks_pass", r.all_checks},
                   {"notes", rulings_json(r.notes)},
                   {"final_position", vec3_json(r.final_pos)}};
  return j;
}

nlohmann::json resolution_json(const Resolution& r) {
  nlohmann::json rolls = nlohmann::json::array();
  for (const Roll& x : r.rolls) rolls.push_back(x);
  return {{"legal", r.report.verdict.legal()}, {"violations", rulings_json(r.report.verdict.violations)},
          {"applied", r.applied},              {"unit", unit_json(r.after)},
          {"events", rulings_json(r.events)},  {"rolls", rolls}};
}

namespace {
nlohmann::json option_json(const RouteOption& o) {
  if (!o.found) return nullptr;
  nlohmann::json j = report_json(o.report);
  j["move"] = move_to_json(o.request);
  const TurnSplit split = split_by_turn(o.report);
  nlohmann::json turns = nlohmann::json::array();
  for (const TurnLeg& l : split.legs)
    turns.push_back({{"turn", l.turn}, {"steps", {l.first_step, l.last_step}}, {"spent", r3(l.spent)},
                     {"allowance", r3(l.allowance)}, {"stop", vec3_json(l.stop)}, {"stops_mid_step", l.mid_step}});
  j["turns"] = turns;
  if (!split.possible) j["turns_blocked_at_step"] = split.blocking_step;
  return j;
}

// A route longer than one turn's move, turn by turn, with where each turn stops.
std::string explain_turns(const RouteOption& o) {
  const TurnSplit split = split_by_turn(o.report);
  if (split.possible && split.legs.size() <= 1) return {};
  std::string out;
  if (!split.possible) {
    return fmt::format("  step {} alone costs more than a whole turn's move ({}): no split by turn reaches the end\n",
                       split.blocking_step, format_measure(o.report.allowance.base * o.report.allowance.multiplier, "in"));
  }
  out += fmt::format("  longer than one turn's move: {} (docs/rulings.md#blightmeer-route-turns)\n",
                     count_of(static_cast<double>(split.legs.size()), "turn", "turns"));
  for (std::size_t i = 0; i < split.legs.size(); ++i) {
    const TurnLeg& l = split.legs[i];
    const bool last = i + 1 == split.legs.size();
    const std::string steps = l.first_step == l.last_step ? fmt::format("step {}", l.first_step)
                                                           : fmt::format("steps {}-{}", l.first_step, l.last_step);
    out += fmt::format("  turn {}: {}, {} of {}; {} {}{}\n", l.turn, steps, format_measure(l.spent, "in"),
                       format_measure(l.allowance, "in"), last ? "ends at" : "stops at", position_words(l.stop),
                       l.mid_step ? fmt::format(", part-way along step {}", l.last_step) : "");
  }
  return out;
}

// Where a set of reach cells lies: the ground or each surface, with the
// span of cell centres on it, largest group first.
std::string where_cells(const ReachAnswer& a, int checks) {
  std::map<int, std::pair<int, Aabb>> by_surface;
  for (const ReachCell& c : a.cells) {
    if (c.checks != checks) continue;
    auto [it, fresh] = by_surface.try_emplace(c.surface, 0, Aabb{c.p.xy(), c.p.xy()});
    ++it->second.first;
    it->second.second = it->second.second.merged({c.p.xy(), c.p.xy()});
  }
  std::vector<std::pair<int, std::pair<int, Aabb>>> groups(by_surface.begin(), by_surface.end());
  std::stable_sort(groups.begin(), groups.end(), [](const auto& x, const auto& y) { return x.second.first > y.second.first; });
  std::string out;
  for (const auto& [surface, g] : groups) {
    const std::string on = surface < 0 || static_cast<std::size_t>(surface) >= a.surface_ids.size()
                               ? std::string("the ground")
                               : a.surface_ids[static_cast<std::size_t>(surface)];
    double z = 0;
    for (const ReachCell& c : a.cells)
      if (c.checks == checks && c.surface == surface) z = c.p.z;
    out += fmt::format("    {} on {}{}: x {:.1f} to {:.1f}, y {:.1f} to {:.1f}\n", count_of(g.first, "cell", "cells"),
                       on, surface < 0 ? "" : fmt::format(" ({} up)", format_measure(z, "in")), g.second.min.x,
                       g.second.max.x, g.second.min.y, g.second.max.y);
  }
  return out;
}
}  // namespace

nlohmann::json route_json(const RouteAnswer& a) {
  return {{"unit", a.unit}, {"to", vec3_json(a.to)}, {"mode", a.run ? "run" : "move"},
          {"risk_free", option_json(a.safe)}, {"with_checks", option_json(a.risky)}};
}

nlohmann::json reach_json(const ReachAnswer& a) {
  nlohmann::json cells = nlohmann::json::array();
  for (const ReachCell& c : a.cells)
    cells.push_back({{"at", vec3_json(c.p)}, {"checks", c.checks}, {"cost", r3(c.cost)}});
  return {{"unit", a.unit},
          {"mode", a.run ? "run" : "move"},
          {"allowance", r3(a.allowance)},
          {"cell_size", 1.0},
          {"counts", {{"no_check", a.counts[0]}, {"one_check", a.counts[1]}, {"two_checks", a.counts[2]},
                      {"three_or_more", a.counts[3]}}},
          {"cells", cells}};
}

std::string explain_report(const MoveReport& r) {
  std::string out = fmt::format("{} move by {}: spends {} of {}\n", r.verdict.legal() ? "Legal" : "Illegal", r.unit,
                                format_compared(r.spent, r.allowance.total, "in").value,
                                format_compared(r.spent, r.allowance.total, "in").limit);
  for (const StepReport& s : r.steps)
    out += fmt::format("  step {}: {} {} -> {}: {}\n", s.index, to_string(s.type), position_words(s.from), position_words(s.to),
                       format_measure(s.cost, "in"));
  for (const CheckNeed& c : r.checks)
    out += fmt::format("  check at step {} ({}): Agility {}+{}{}, chance {}; on failure it {}\n", c.step, c.kind,
                       c.target, c.edge == Edge::none ? "" : std::string(", ") + to_string(c.edge),
                       c.automatic_failure ? ", fails automatically: " + c.automatic_reason : "",
                       c.chance.fraction(), to_string(c.on_failure));
  if (!r.checks.empty()) out += fmt::format("  every check passes: {}\n", r.all_checks.fraction());
  for (const Ruling& v : r.verdict.violations) out += "  violation: " + explain(v) + "\n";
  for (const Ruling& n : r.notes) out += "  note: " + explain(n) + "\n";
  return out;
}

std::string explain_resolution(const Resolution& r) {
  if (!r.applied) return "Not applied: " + explain_report(r.report);
  std::string out = fmt::format("{} moves: {} -> {}\n", r.after.id, position_words(r.before.pos), position_words(r.after.pos));
  for (const Ruling& e : r.events) out += "  " + explain(e) + "\n";
  std::string st;
  if (r.after.incapacitated) st += " Incapacitated";
  if (r.after.stunned) st += " Stunned";
  if (r.after.dazed) st += " Dazed";
  if (r.after.ran) st += " ran";
  out += fmt::format("  now: wounds {}{}\n", r.after.wounds, st);
  return out;
}

std::string explain_route(const RouteAnswer& a) {
  std::string out = fmt::format("Routes for {} to {} ({})\n", a.unit, position_words(a.to), a.run ? "run" : "move");
  auto one = [&](const char* name, const RouteOption& o) {
    if (!o.found) {
      out += fmt::format("{}: none\n", name);
      return;
    }
    out += fmt::format("{}: {}, every check passes {}\n", name, format_measure(o.report.spent, "in"),
                       o.report.all_checks.fraction());
    out += explain_report(o.report);
    out += explain_turns(o);
  };
  one("risk-free route", a.safe);
  one("route with checks", a.risky);
  return out;
}

std::string explain_reach(const ReachAnswer& a) {
  std::string out = fmt::format("{} can reach {} this turn ({} {}): {} with no check, {} with one, {} with two, {} "
                                "with three or more (x and y are cell centres, in inches)\n",
                                a.unit, count_of(static_cast<double>(a.cells.size()), "one-inch cell", "one-inch cells"),
                                a.run ? "running" : "moving", format_measure(a.allowance, "in"), a.counts[0], a.counts[1],
                                a.counts[2], a.counts[3]);
  const char* names[4] = {"no check", "one check", "two checks", "three or more checks"};
  for (int k = 0; k < 4; ++k) {
    if (a.counts[k] == 0) continue;
    out += fmt::format("  with {}:\n", names[k]);
    out += where_cells(a, k);
  }
  return out;
}

}  // namespace referee::blightmeer
