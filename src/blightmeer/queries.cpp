#include "referee/blightmeer/queries.hpp"

#include <limits>

#include <fmt/format.h>

#include "referee/blightmeer/io.hpp"
#include "referee/blightmeer/move.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"

namespace referee::blightmeer {

namespace {

std::string unit_id(const State& state, const JsonReader& r) {
  const std::string id = r.string("unit");
  if (state.find(id) < 0) r.fail("unit", fmt::format("no unit \"{}\" on the battlefield", id));
  return id;
}

}  // namespace

std::vector<QueryInfo> query_catalogue() {
  return {
      {"route", "Cheapest route to a point: risk-free, and with checks",
       {{"unit", "unit id"}, {"to", "[x, y] or [x, y, z] in inches"}, {"run", "run (1.5 x Move), default false"}}},
      {"reach", "Where a unit can get this turn, split by the checks needed",
       {{"unit", "unit id"}, {"run", "run (1.5 x Move), default false"}}},
      {"check", "Is a move legal? Inches spent, violations, every check and its chance",
       {{"move", "a move request: {unit, run, path: [steps]}"}}},
  };
}

Json answer_query(const Terrain& t, const State& state, const std::string& name, const Json& args,
                  const std::string& path, std::string* text, ReachAnswer* reach_out) {
  JsonReader r(args, path);
  r.require_object();
  if (name == "route") {
    r.allow_only({"unit", "to", "run"});
    const std::string unit = unit_id(state, r);
    JsonReader to_r = r.at("to");
    to_r.require_array();
    if (to_r.size() != 2 && to_r.size() != 3) to_r.fail("expected [x, y] or [x, y, z]");
    const Vec3 to{to_r.at(std::size_t{0}).as_number(-1e4, 1e4), to_r.at(std::size_t{1}).as_number(-1e4, 1e4),
                  to_r.size() == 3 ? to_r.at(std::size_t{2}).as_number(-1e4, 1e4) : std::numeric_limits<double>::quiet_NaN()};
    const RouteAnswer a = best_route(t, state, unit, to, r.boolean_or("run", false));
    if (text) *text = explain_route(a);
    return route_json(a);
  }
  if (name == "reach") {
    r.allow_only({"unit", "run"});
    const std::string unit = unit_id(state, r);
    ReachAnswer a = unit_reach(t, state, unit, r.boolean_or("run", false));
    if (text) *text = explain_reach(a);
    Json j = reach_json(a);
    if (reach_out) *reach_out = std::move(a);
    return j;
  }
  if (name == "check") {
    r.allow_only({"move"});
    const MoveRequest m = parse_move(r.at("move").json(), r.path_of("move"));
    if (state.find(m.unit) < 0) throw InputError(r.path_of("move") + ".unit", fmt::format("no unit \"{}\" on the battlefield", m.unit));
    const MoveReport rep = check_move(t, state, m);
    if (text) *text = explain_report(rep);
    return report_json(rep);
  }
  throw InputError("query", fmt::format("unknown Blightmeer query \"{}\" (known: route, reach, check)", name));
}

}  // namespace referee::blightmeer
