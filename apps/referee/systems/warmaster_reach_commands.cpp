// referee warmaster reach | los | distance | route: where a unit can get,
// who can see whom, how far apart, and the shortest legal route of a stand.
// Every answer is worked out in full before anything is written.
#include <cmath>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "cli_values.hpp"
#include "system_commands.hpp"
#include "warmaster_battle_file.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/ruling.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/battle/queries.hpp"
#include "referee/warmaster/movement/reach.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "referee/warmaster/movement/transit.hpp"
#include "referee/warmaster/model/troops.hpp"

namespace referee::cli {

namespace wm = referee::warmaster;

namespace {

struct ReachArgs {
  std::string battle, unit, kind = "ordered", svg;
  double cell = 0.5;
  std::optional<double> facing;
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

void run_reach(const ReachArgs& a, std::uint64_t max_bytes) {
  wm::BattlefieldFile bf = load_warmaster_battle(a.battle, max_bytes);
  auto kind = wm::reach_kind_from_string(a.kind);
  if (!kind) throw InputError("--kind", "expected ordered, half_pace, charge, evade or character, not \"" + a.kind + "\"");
  if (*kind == wm::ReachKind::Character ? !bf.battlefield.find_character(a.unit) : !bf.battlefield.find_unit(a.unit))
    throw InputError("--unit", fmt::format("no {} \"{}\" on the battlefield",
                                           *kind == wm::ReachKind::Character ? "character" : "unit", a.unit));
  if (!(a.cell >= 0.1 && a.cell <= 10)) throw InputError("--cell", "must be between 0.1 and 10 cm");
  if (a.facing && !(*a.facing >= -360 && *a.facing <= 360)) throw InputError("--facing", "must be between -360 and 360 degrees");
  wm::ReachAnswer answer = wm::reach(bf.battlefield, {a.unit, *kind, std::nullopt, a.cell, a.facing}, bf.settings);
  Json j = answer;
  std::string svg = a.svg.empty() ? std::string() : wm::reach_svg(bf.battlefield, answer);
  OutputSet outputs;
  outputs.add_answer(a.out, j, wm::explain(answer));
  if (!a.svg.empty()) outputs.add(a.svg, svg);
  outputs.commit();
}

// los, distance and route answer through the library's queries, as the game
// interface does, so the board and the command line never disagree.
void answer(const std::string& battle, const std::string& name, const Json& args, const OutputOptions& out,
            std::uint64_t max_bytes) {
  wm::BattlefieldFile bf = load_warmaster_battle(battle, max_bytes);
  std::string text;
  const Json j = wm::answer_query(bf.battlefield, bf.settings, name, args, "arguments", &text);
  emit(out, j, text);
}

void run_los(const PairArgs& a, std::uint64_t max_bytes) {
  answer(a.battle, "los", {{"from", a.from}, {"to", a.to}, {"all_round", a.all_round}}, a.out, max_bytes);
}

void run_distance(const PairArgs& a, std::uint64_t max_bytes) {
  answer(a.battle, "distance", {{"from", a.from}, {"to", a.to}}, a.out, max_bytes);
}

void run_route(const RouteArgs& a, std::uint64_t max_bytes) {
  const Pose to = parse_pose(a.to, "--to", wm::kCoordinateLimit);
  Json args{{"unit", a.unit}, {"stand", a.stand}, {"to", {{"x", to.position.x}, {"y", to.position.y}, {"facing", to.facing_deg}}}};
  if (a.max > 0) args["max"] = a.max;
  answer(a.battle, "route", args, a.out, max_bytes);
}

}  // namespace

void add_warmaster_reach_commands(CLI::App& warmaster, std::uint64_t max_bytes) {
  auto reach_args = std::make_shared<ReachArgs>();
  auto* reach = warmaster.add_subcommand("reach", "Where a unit's stands can get with one move (polygons, SVG)");
  reach->add_option("--battle", reach_args->battle, "Battlefield JSON")->required();
  reach->add_option("--unit", reach_args->unit, "Id of the unit (or character, with --kind character)")->required();
  reach->add_option("--kind", reach_args->kind, "ordered, half_pace, charge, evade or character");
  reach->add_option("--cell", reach_args->cell, "Grid cell in cm (default 0.5)")->check(finite_number());
  reach->add_option("--facing", reach_args->facing, "The facing every stand ends with, in degrees (default: each keeps its own)")
      ->check(finite_number());
  reach->add_option("--svg", reach_args->svg, "Also draw the area over the battlefield as SVG");
  add_output_options(reach, reach_args->out);
  reach->callback([reach_args, max_bytes] { run_reach(*reach_args, max_bytes); });

  auto los_args = std::make_shared<PairArgs>();
  auto* los = warmaster.add_subcommand("los", "Line of sight between two units, or a character and a unit");
  los->add_option("--battle", los_args->battle, "Battlefield JSON")->required();
  los->add_option("--from", los_args->from, "Id of the unit (or character) looking")->required();
  los->add_option("--to", los_args->to, "Id of the unit (or character) looked at")->required();
  los->add_flag("--all-round", los_args->all_round, "Any free edge sees, for units that see all round");
  add_output_options(los, los_args->out);
  los->callback([los_args, max_bytes] { run_los(*los_args, max_bytes); });

  auto dist_args = std::make_shared<PairArgs>();
  auto* dist = warmaster.add_subcommand("distance", "Shortest distance between two units or characters");
  dist->add_option("--battle", dist_args->battle, "Battlefield JSON")->required();
  dist->add_option("--from", dist_args->from, "Id of a unit or character")->required();
  dist->add_option("--to", dist_args->to, "Id of a unit or character")->required();
  add_output_options(dist, dist_args->out);
  dist->callback([dist_args, max_bytes] { run_distance(*dist_args, max_bytes); });

  auto route_args = std::make_shared<RouteArgs>();
  auto* route = warmaster.add_subcommand("route", "The shortest route of one stand that obeys the gap rule");
  route->add_option("--battle", route_args->battle, "Battlefield JSON")->required();
  route->add_option("--unit", route_args->unit, "Id of the unit")->required();
  route->add_option("--stand", route_args->stand, "Index of the stand, from 0 as in move files")->required();
  route->add_option("--to", route_args->to, "Destination pose x,y,facing (cm, cm, degrees)")->required();
  route->add_option("--max", route_args->max, "Longest route to look for in cm (default twice full pace)")
      ->check(finite_number());
  add_output_options(route, route_args->out);
  route->callback([route_args, max_bytes] { run_route(*route_args, max_bytes); });
}

}  // namespace referee::cli
