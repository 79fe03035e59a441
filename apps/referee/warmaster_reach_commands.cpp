// referee warmaster reach | los | distance | route: where a unit can get,
// who can see whom, how far apart, and the shortest legal route of a stand.
// Every answer is worked out in full before anything is written.
#include <cmath>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "cli_values.hpp"
#include "commands.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/ruling.hpp"
#include "referee/warmaster/battlefield_json.hpp"
#include "referee/warmaster/reach.hpp"
#include "referee/warmaster/sight.hpp"
#include "referee/warmaster/transit.hpp"
#include "referee/warmaster/troops.hpp"

namespace referee::cli {

namespace wm = referee::warmaster;

namespace {

struct ReachArgs {
  std::string battle, unit, kind = "ordered", svg;
  double cell = 0.5;
  OutputOptions out;
};

struct PairArgs {
  std::string battle, from, to;
  bool all_round = false;
  OutputOptions out;
};

struct RouteArgs {
  std::string battle, unit, to;
  int stand = 0;
  double max = 0;
  OutputOptions out;
};

Json point(Vec2 p) { return {{"x", std::round(p.x * 1000) / 1000}, {"y", std::round(p.y * 1000) / 1000}}; }
Json pose(const Pose& p) {
  Json j = point(p.position);
  j["facing"] = std::round(p.facing_deg * 1000) / 1000;
  return j;
}
std::string pt(Vec2 p) { return fmt::format("({:.1f}, {:.1f})", p.x, p.y); }

void run_reach(const ReachArgs& a) {
  wm::BattlefieldFile bf = wm::load_battlefield_file(a.battle);
  auto kind = wm::reach_kind_from_string(a.kind);
  if (!kind) throw InputError("--kind", "expected ordered, half_pace, charge, evade or character, not \"" + a.kind + "\"");
  if (*kind == wm::ReachKind::Character ? !bf.battlefield.find_character(a.unit) : !bf.battlefield.find_unit(a.unit))
    throw InputError("--unit", fmt::format("no {} \"{}\" on the battlefield",
                                           *kind == wm::ReachKind::Character ? "character" : "unit", a.unit));
  if (!(a.cell >= 0.1 && a.cell <= 10)) throw InputError("--cell", "must be between 0.1 and 10 cm");
  wm::ReachAnswer answer = wm::reach(bf.battlefield, {a.unit, *kind, std::nullopt, a.cell}, bf.settings);
  Json j = answer;
  std::string svg = a.svg.empty() ? std::string() : wm::reach_svg(bf.battlefield, answer);
  OutputSet outputs;
  outputs.add_answer(a.out, j, wm::explain(answer));
  if (!a.svg.empty()) outputs.add(a.svg, svg);
  outputs.commit();
}

// A unit or a character, by id.
struct Who {
  const wm::Unit* unit = nullptr;
  const wm::Character* character = nullptr;
};
Who find(const wm::Battlefield& bf, const std::string& id, const char* field) {
  Who w{bf.find_unit(id), bf.find_character(id)};
  if (!w.unit && !w.character) throw InputError(field, fmt::format("no unit or character \"{}\" on the battlefield", id));
  return w;
}

void run_los(const PairArgs& a) {
  wm::BattlefieldFile bf = wm::load_battlefield_file(a.battle);
  Who from = find(bf.battlefield, a.from, "--from"), to = find(bf.battlefield, a.to, "--to");
  wm::SightAnswer s;
  if (from.unit && to.unit) {
    s = wm::line_of_sight(bf.battlefield, *from.unit, *to.unit, bf.settings, !a.all_round);
  } else if (from.character && to.unit) {
    s = wm::line_of_sight(bf.battlefield, *from.character, *to.unit, bf.settings);
  } else if (from.unit && to.character) {
    s = wm::line_of_sight(bf.battlefield, *from.unit, *to.character, bf.settings, !a.all_round);
  } else {
    throw InputError("--to", "line of sight is between units, or a character and a unit");
  }
  Json j{{"rule", s.rule}, {"from", a.from}, {"to", a.to}, {"visible", s.visible},
         {"distance", std::round(s.distance * 1000) / 1000}, {"reason", s.reason}};
  j["front_edges_only"] = !a.all_round;
  if (s.line) j["line"] = {point(s.line->a), point(s.line->b)};
  if (!s.visible) j["blocked_by"] = s.blocked_by;
  emit(a.out, j, s.rule + ": " + s.reason + "\n");
}

void run_distance(const PairArgs& a) {
  wm::BattlefieldFile bf = wm::load_battlefield_file(a.battle);
  Who from = find(bf.battlefield, a.from, "--from"), to = find(bf.battlefield, a.to, "--to");
  ClosestPoints cp;
  if (from.unit && to.unit) {
    cp = wm::unit_distance(*from.unit, *to.unit);
  } else if (from.character && to.unit) {
    cp = wm::character_distance(*from.character, *to.unit);
  } else if (from.unit && to.character) {
    ClosestPoints c = wm::character_distance(*to.character, *from.unit);
    cp = {c.on_b, c.on_a, c.distance};
  } else {
    // Two round bases (or stands), centre to centre less both radii.
    auto radius = [](const wm::Character& c) {
      return c.stand_size ? std::min(c.stand_size->x, c.stand_size->y) / 2 : c.base_diameter / 2;
    };
    Vec2 p = from.character->pose.position, q = to.character->pose.position;
    double d = distance(p, q);
    Vec2 u = d > 0 ? (q - p) / d : Vec2{0, 0};
    double gap = std::max(0.0, d - radius(*from.character) - radius(*to.character));
    cp = {p + u * radius(*from.character), q - u * radius(*to.character), gap};
  }
  if (!std::isfinite(cp.distance)) throw InputError("--from/--to", "one of them has no stands on the table");
  Json j{{"rule", "warmaster.distance"},
         {"from", a.from},
         {"to", a.to},
         {"distance", std::round(cp.distance * 1000) / 1000},
         {"closest", {point(cp.on_a), point(cp.on_b)}}};
  emit(a.out, j,
       fmt::format("warmaster.distance: {} to {} is {} (closest points {} and {})\n", a.from, a.to,
                   format_measure(cp.distance, "cm"), pt(cp.on_a), pt(cp.on_b)));
}

void run_route(const RouteArgs& a) {
  wm::BattlefieldFile bf = wm::load_battlefield_file(a.battle);
  const wm::Unit* u = bf.battlefield.find_unit(a.unit);
  if (!u) throw InputError("--unit", fmt::format("no unit \"{}\" on the battlefield", a.unit));
  if (a.stand < 0 || a.stand >= static_cast<int>(u->stands.size()))
    throw InputError("--stand", fmt::format("unit \"{}\" has stands 0 to {}", a.unit, u->stands.size() - 1));
  Pose to = parse_pose(a.to, "--to", wm::kCoordinateLimit);
  double pace = wm::full_pace(*u);
  double max = a.max > 0 ? a.max : 2 * std::max(pace, 1.0);
  if (!(max <= 1000)) throw InputError("--max", "must be at most 1000 cm");
  wm::TransitScene scene(bf.battlefield, *u, bf.settings);
  Pose from = u->stands[static_cast<std::size_t>(a.stand)].pose;
  std::string label = "stand " + std::to_string(a.stand + 1);
  std::vector<Ruling> direct = scene.check_leg(from, to, label);
  auto route = scene.shortest_route(from, to, max);
  Json j{{"rule", "warmaster.movement.path"}, {"unit", a.unit}, {"stand", a.stand}, {"from", pose(from)},
         {"to", pose(to)}, {"direct_clear", direct.empty()}, {"direct_violations", direct}, {"max", max},
         {"full_pace", pace}};
  std::string text;
  if (route) {
    auto corners = wm::corner_distances(*route, u->width, u->depth);
    double d = wm::route_distance(*route, u->width, u->depth);
    Json poses = Json::array();
    for (const Pose& p : *route) poses.push_back(pose(p));
    j["found"] = true;
    j["route"] = poses;
    j["distance"] = std::round(d * 1000) / 1000;
    j["corner_distances"] = {corners[0], corners[1], corners[2], corners[3]};
    j["within_full_pace"] = d <= pace + 1e-9;
    text = fmt::format("{} {}: {} route of {} leg(s), {} by the furthest corner (full pace {})\n", a.unit, label,
                       direct.empty() ? "the direct" : "a planned", route->size() - 1, format_measure(d, "cm"),
                       format_measure(pace, "cm"));
    for (const Pose& p : *route) text += fmt::format("  {} facing {:.0f}\n", pt(p.position), p.facing_deg);
  } else {
    j["found"] = false;
    text = fmt::format("{} {}: no route obeying the gap rule within {}\n", a.unit, label, format_measure(max, "cm"));
  }
  for (const Ruling& r : direct) text += "  direct line: " + explain(r) + "\n";
  emit(a.out, j, text);
}

}  // namespace

void add_warmaster_reach_commands(CLI::App& warmaster) {
  auto reach_args = std::make_shared<ReachArgs>();
  auto* reach = warmaster.add_subcommand("reach", "Where a unit's stands can get with one move (polygons, SVG)");
  reach->add_option("--battle", reach_args->battle, "Battlefield JSON")->required();
  reach->add_option("--unit", reach_args->unit, "Id of the unit (or character, with --kind character)")->required();
  reach->add_option("--kind", reach_args->kind, "ordered, half_pace, charge, evade or character");
  reach->add_option("--cell", reach_args->cell, "Grid cell in cm (default 0.5)")->check(finite_number());
  reach->add_option("--svg", reach_args->svg, "Also draw the area over the battlefield as SVG");
  add_output_options(reach, reach_args->out);
  reach->callback([reach_args] { run_reach(*reach_args); });

  auto los_args = std::make_shared<PairArgs>();
  auto* los = warmaster.add_subcommand("los", "Line of sight between two units, or a character and a unit");
  los->add_option("--battle", los_args->battle, "Battlefield JSON")->required();
  los->add_option("--from", los_args->from, "Id of the unit (or character) looking")->required();
  los->add_option("--to", los_args->to, "Id of the unit (or character) looked at")->required();
  los->add_flag("--all-round", los_args->all_round, "Any free edge sees, for units that see all round");
  add_output_options(los, los_args->out);
  los->callback([los_args] { run_los(*los_args); });

  auto dist_args = std::make_shared<PairArgs>();
  auto* dist = warmaster.add_subcommand("distance", "Shortest distance between two units or characters");
  dist->add_option("--battle", dist_args->battle, "Battlefield JSON")->required();
  dist->add_option("--from", dist_args->from, "Id of a unit or character")->required();
  dist->add_option("--to", dist_args->to, "Id of a unit or character")->required();
  add_output_options(dist, dist_args->out);
  dist->callback([dist_args] { run_distance(*dist_args); });

  auto route_args = std::make_shared<RouteArgs>();
  auto* route = warmaster.add_subcommand("route", "The shortest route of one stand that obeys the gap rule");
  route->add_option("--battle", route_args->battle, "Battlefield JSON")->required();
  route->add_option("--unit", route_args->unit, "Id of the unit")->required();
  route->add_option("--stand", route_args->stand, "Index of the stand, from 0 as in move files")->required();
  route->add_option("--to", route_args->to, "Destination pose x,y,facing (cm, cm, degrees)")->required();
  route->add_option("--max", route_args->max, "Longest route to look for in cm (default twice full pace)")
      ->check(finite_number());
  add_output_options(route, route_args->out);
  route->callback([route_args] { run_route(*route_args); });
}

}  // namespace referee::cli
