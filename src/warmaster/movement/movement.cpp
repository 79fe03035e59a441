// Checking a Warmaster move: pace, formation, distance, clear path, terrain,
// overlap and leaving the table (movement text; docs/rulings.md#warmaster-move-pace and the entries after it). The
// checks only read the battlefield; apply_move() makes the change. This file
// is the checker's top level, check_move and its steps; the checks it runs
// are in the files movement/move_check.hpp names.
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/movement/moving_chargers.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "referee/core/errors.hpp"
#include "referee/warmaster/movement/transit.hpp"
#include "referee/warmaster/model/troops.hpp"
#include "movement/move_check.hpp"

namespace referee::warmaster {

using move_detail::check_character_move;
using move_detail::check_distances;
using move_detail::check_end_formation;
using move_detail::check_overlaps;
using move_detail::check_pace;
using move_detail::check_terrain;
using move_detail::kept_formation;
using move_detail::kept_scene;
using move_detail::no_route_in_any_order;
using move_detail::off_table;
using move_detail::OrderSearch;
using move_detail::OwnFootprints;
using move_detail::plan_in_some_order;
using move_detail::route_search;
using move_detail::RouteSearch;
using move_detail::scene_options;
using move_detail::straight_in_some_order;
using move_detail::terrain_near;

namespace {

// Reasons count stands from 1, as players do (and as TransitScene labels
// other units' stands); files and answers use the 0-based index.

// The poses each stand passes through: start, waypoints, final. Stands the
// request does not mention stay where they are.
std::vector<StandRoute> initial_routes(const Unit& u, const MoveRequest& req) {
  std::vector<StandRoute> routes(u.stands.size());
  for (std::size_t i = 0; i < u.stands.size(); ++i) routes[i].stand = StandIndex(i);
  // Each list made at its full size at once (it is made for every check).
  for (const auto& plan : req.stands)
    routes[plan.stand.slot()].poses.reserve(plan.waypoints.size() + 2);
  for (std::size_t i = 0; i < u.stands.size(); ++i) routes[i].poses.push_back(u.stands[i].pose);
  for (const auto& plan : req.stands) {
    auto& r = routes[plan.stand.slot()];
    r.poses.insert(r.poses.end(), plan.waypoints.begin(), plan.waypoints.end());
    r.poses.push_back(plan.final_pose);
  }
  return routes;
}

// Where each stand's route ends, stand by stand: read by the own blockers,
// the table edge, the overlaps and the formation at the end. A planned
// route ends where the straight one did (shortest_route), so they are
// worked out once per check.
std::vector<OrientedRect> final_footprints(const Unit& u, const std::vector<StandRoute>& routes, RotMemo& rot) {
  std::vector<OrientedRect> finals;
  finals.reserve(routes.size());
  for (const StandRoute& r : routes) finals.push_back(u.footprint_at(r.poses.back(), rot));
  return finals;
}

}  // namespace

MoveAnswer check_move(const Battlefield& bf, const MoveRequest& req, const Settings& settings, CheckDepth depth) {
  if (req.kind == MoveKind::Character) return check_character_move(bf, req, settings, depth, nullptr);
  return check_move(bf, MoveIndex(bf), req, settings, depth);
}

MoveAnswer check_move(const Battlefield& bf, const MoveIndex& index, const MoveRequest& req,
                      const Settings& settings, CheckDepth depth) {
  MoveScenes scenes;
  return check_move(bf, index, req, settings, scenes, depth);
}

MoveAnswer check_move(const Battlefield& bf, const MoveIndex& index, const MoveRequest& req, const Settings& settings,
                      MoveScratch& scratch, CheckDepth depth) {
  if (!scratch.kept) scratch.kept.reset(new MoveScenes(&scratch));
  scratch.kept->impl->scratch = &scratch;  // the scratch may have moved since
  return check_move(bf, index, req, settings, *scratch.kept, depth);
}

namespace {

// The unit a request moves, with its stands checked: a malformed request is
// bad input (an InputError naming the field), not a ruling.
const Unit& requested_unit(const Battlefield& bf, const MoveRequest& req) {
  const Unit* found = bf.find_unit(req.mover);
  if (!found) throw InputError("unit", fmt::format("no unit \"{}\" on the battlefield", req.mover));
  const Unit& u = *found;
  if (u.stands.empty()) throw InputError("unit", fmt::format("unit \"{}\" has no stands on the table", u.id));
  std::vector<bool> listed(u.stands.size(), false);
  for (const auto& plan : req.stands) {
    if (!plan.stand.within(u.stands.size()))
      throw InputError("stands", fmt::format("unit \"{}\" has no stand {}", u.id, plan.stand.value()));
    if (listed[plan.stand.slot()])
      throw InputError("stands", fmt::format("stand {} is listed twice", plan.stand.value()));
    listed[plan.stand.slot()] = true;
  }
  if (req.kind == MoveKind::Dice && !req.dice_distance)
    throw InputError("dice_distance", "a dice move needs the distance rolled");
  return u;
}

// Everything the stands' footprints cover on their way, start to final.
// (Stands keep their facing on most legs: the rotation is worked out again
// only when it changes.)
Aabb swept_area(const Unit& u, const std::vector<StandRoute>& routes, RotMemo& rot) {
  Aabb area = u.footprint(0, rot).bounds();
  for (const auto& r : routes)
    for (const auto& p : r.poses) area = area.merged(u.footprint_at(p, rot).bounds());
  return area;
}

// The stands whose paths are not traced. Terrain at the destination comes
// first: a stand refused there halts at the edge, and there is no path to
// look for. The table edge is an obstacle in transit, so a stand obliged to
// leave the table is not traced past it (and the move leaves the table).
std::vector<bool> stands_not_traced(const Battlefield& bf, const MoveIndex& index, const Unit& u,
                                    const std::vector<StandRoute>& routes, const std::vector<OrientedRect>& finals,
                                    const Aabb& near, const Settings& settings, bool explain, RotMemo& rot,
                                    MoveAnswer& a) {
  std::vector<bool> skip = check_terrain(terrain_near(bf, index, near), u, routes, settings, explain, rot, a.verdict);
  for (std::size_t i = 0; i < routes.size(); ++i) {
    if (off_table(finals[i], bf)) {
      a.leaves_table = true;
      skip[i] = true;
    }
  }
  return skip;
}

}  // namespace

MoveAnswer check_move(const Battlefield& bf, const MoveIndex& index, const MoveRequest& req, const Settings& settings,
                      MoveScenes& scenes, CheckDepth depth) {
  if (req.kind == MoveKind::Character)
    return check_character_move(bf, req, settings, depth, scenes.impl->transit(), &index, scenes.whole_battle);
  const Unit& u = requested_unit(bf, req);
  MoveAnswer a;
  const Pace pace = check_pace(u, req, kept_formation(scenes, u, settings), a);
  std::vector<StandRoute> routes = initial_routes(u, req);
  std::vector<StandIndex> moving;
  for (const auto& plan : req.stands) moving.push_back(plan.stand);

  RotMemo rot;
  const Aabb area = swept_area(u, routes, rot);
  const double reach = u.frontage() + std::max(u.width, u.depth) + 1.0;
  const bool explain = depth == CheckDepth::Explain;
  // CheckDepth::Whether: once a violation is found the move is refused, and
  // the checks after it only add reasons; Legality names the first the same.
  const bool whether = depth == CheckDepth::Whether;
  auto refused_already = [&] {
    if (!whether || a.verdict.legal()) return false;
    a.verdict.violations.resize(1);
    return true;
  };
  const std::vector<OrientedRect> finals = final_footprints(u, routes, rot);
  const std::vector<bool> skip =
      stands_not_traced(bf, index, u, routes, finals, area.inflated(reach), settings, explain, rot, a);
  if (refused_already()) return a;

  TransitOptions opts;
  opts.flying = u.type == TroopType::Flyer;
  opts.evading = req.kind == MoveKind::Evade;
  if (req.kind == MoveKind::Charge && !req.charge_target.empty()) opts.ignore_units.push_back(req.charge_target);
  // Straight lines need only what is near them (gates span at most the
  // frontage); a planned route may wander up to max_route from its start.
  opts.region = area.inflated(reach);
  opts.index = &index;
  TransitScene& scene = kept_scene(scenes, bf, index, u, settings, opts);
  // Routes are searched up to the allowance plus the stand's longest edge:
  // enough to show by how much a slightly long detour fails, without
  // searching the whole table for hopeless ones.
  const double max_route = std::max(pace.allowance, 1.0) + std::max(u.width, u.depth);
  const RouteSearch search = route_search(u, pace, max_route, explain);
  // The listed order first; the other orders are made only if it fails.
  OrderSearch s{u,      routes, skip, search, moving, pace.allowance, req.order.empty() && moving.size() > 1,
                {req.order.empty() ? moving : req.order}, OwnFootprints(u, finals, rot), {}, false, {}, StandIndex::none()};
  if (!straight_in_some_order(scene, s)) {
    // Only a stand's single straight leg is ever planned round what blocks
    // it (trace_paths); legs given with waypoints are taken as given. When no
    // stand that is traced has a single leg, planning would only trace the
    // same legs again and refuse them as no_route_in_any_order says, without
    // tracing them (a drive back's halving asks a dozen such checks). An
    // explaining check plans in the planner's scene, whose reasons are the
    // ones written.
    bool may_plan = explain;
    for (std::size_t i = 0; i < routes.size() && !may_plan; ++i) may_plan = !skip[i] && routes[i].poses.size() == 2;
    if (!may_plan) {
      no_route_in_any_order(s);
    } else {
      // A route no longer than L from A to B keeps |AP| + |PB| <= L, so it never
      // strays more than L / 2 from the segment AB, which `area` contains.
      opts.region = area.inflated(max_route / 2 + reach);
      TransitScene planner(bf, u, settings, scene_options(opts, scenes), scenes.impl->transit());
      plan_in_some_order(planner, s);
    }
  }
  a.order = std::move(s.order);
  for (auto& r : s.chosen.violations) a.verdict.add(std::move(r));
  if (refused_already()) return a;
  // The routes as asked are not copied: the search is over.
  a.routes = s.as_asked ? std::move(routes) : std::move(s.chosen.routes);
  check_distances(u, pace, a.formation, req.kind, explain, rot, a.verdict, a.routes);
  if (refused_already()) return a;
  check_overlaps(bf, index, u, a.routes, finals, settings, whether, a.verdict);
  if (refused_already()) return a;
  check_end_formation(finals, settings, a.verdict);
  if (refused_already()) return a;
  // A charge lines up edge to edge (docs/rulings.md#warmaster-moving-chargers).
  if (req.kind == MoveKind::Charge) {
    Unit after = u;
    for (const StandPlan& plan : req.stands) after.stands[plan.stand.slot()].pose = plan.final_pose;
    check_charge_alignment(bf, after, req.charge_target, settings, a.verdict, &index);
  }
  refused_already();
  return a;
}

}  // namespace referee::warmaster
