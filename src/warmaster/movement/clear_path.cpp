// The clear path (docs/rulings.md#warmaster-transit-model): the stands move
// one at a time, each leg through TransitScene's gap rule, a blocked straight
// line planned round what blocks it; and the search for an order of the
// stands, and their routes, in which the move works.
#include "referee/warmaster/movement/movement.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "movement/move_check.hpp"
#include "movement/stand_pairs.hpp"

namespace referee::warmaster::move_detail {

// Is some leg of `poses` (one that moves) blocked in `scene`? Legality only,
// with no reasons written: those are made for the legs that stay blocked.
bool any_leg_blocked(TransitScene& scene, const std::vector<Pose>& poses) {
  for (std::size_t k = 0; k + 1 < poses.size(); ++k)
    if (poses[k] != poses[k + 1] && !scene.leg_clear(poses[k], poses[k + 1])) return true;
  return false;
}

namespace {

// What a check for legality alone says of the first stand that has no route.
Ruling no_route_within_allowance(StandIndex stand) {
  return {warmaster::rule_id::movement_path,
          stand_label(stand) + ": no route round what blocks the straight line within the allowance", {}};
}

// The first stand in `order` whose straight legs, as given, are blocked
// (none if none), the stands moving one at a time as trace_paths moves them.
// Nothing is planned and no reason written, so the routes are only read.
StandIndex first_blocked_stand(TransitScene& scene, const std::vector<StandIndex>& order,
                               const std::vector<StandRoute>& routes, const std::vector<bool>& skip,
                               OwnFootprints& own) {
  own.moved.assign(routes.size(), 0);
  for (StandIndex i : order) {
    const std::size_t k = i.slot();
    // A stand not traced blocks nothing before it moves, and no leg of it is checked.
    if (!skip[k]) {
      scene.set_own_blockers(own.of(i));
      if (any_leg_blocked(scene, routes[k].poses)) return i;
    }
    own.moved[k] = 1;
  }
  return StandIndex::none();
}

// The routes of `order` planned round what blocks their straight lines
// (only a stand's single straight leg is planned), the own stands blocking
// as in first_blocked_stand.
PathAttempt trace_paths(TransitScene& scene, const std::vector<StandIndex>& order, std::vector<StandRoute> routes,
                        const std::vector<bool>& skip, const RouteSearch& search,
                        OwnFootprints& own) {
  PathAttempt out;
  own.moved.assign(routes.size(), 0);
  for (StandIndex i : order) {
    auto& route = routes[i.slot()];
    scene.set_own_blockers(own.of(i));
    own.moved[i.slot()] = 1;
    if (skip[i.slot()]) continue;
    // Reasons are written only for legs that are blocked and not replanned.
    if (!any_leg_blocked(scene, route.poses)) continue;
    // A straight line blocked: plan round what blocks it first; the leg's
    // reasons are written only when no route is found.
    std::optional<std::vector<Pose>> planned;
    if (route.poses.size() == 2)
      planned = scene.shortest_route(route.poses.front(), route.poses.back(), search.route, search.read);
    if (planned) {
      route.poses = std::move(*planned);
      route.planned = true;
      continue;
    }
    if (out.failed.is_none()) out.failed = i;
    if (!search.reasons) {
      // Legality only: the first stand with no route decides, and its legs' reasons are not written.
      out.violations.push_back(no_route_within_allowance(i));
      break;
    }
    for (std::size_t k = 0; k + 1 < route.poses.size(); ++k) {
      if (route.poses[k] == route.poses[k + 1]) continue;
      auto legs = scene.check_leg(route.poses[k], route.poses[k + 1], stand_label(i));
      out.violations.insert(out.violations.end(), legs.begin(), legs.end());
    }
    if (route.poses.size() == 2)
      out.violations.push_back({warmaster::rule_id::movement_path,
                                fmt::format("{}: no route round what blocks the straight line within {} (the "
                                            "allowance plus the stand's longest edge)",
                                            stand_label(i), cm(search.route)),
                                {{"searched", search.route, "cm"}}});
  }
  out.routes = std::move(routes);
  return out;
}

// Orders to try when the request gives none: the listed order first, then
// every other order of up to five moving stands, until one has a clear path.
std::vector<std::vector<StandIndex>> candidate_orders(const std::vector<StandIndex>& moving) {
  std::vector<std::vector<StandIndex>> out{moving};
  if (moving.size() < 2) return out;
  if (moving.size() > 5) {
    out.emplace_back(moving.rbegin(), moving.rend());
    return out;
  }
  std::vector<StandIndex> p = moving;
  std::sort(p.begin(), p.end());
  do {
    if (p != moving) out.push_back(p);
  } while (std::next_permutation(p.begin(), p.end()));
  return out;
}

}  // namespace

// How far routes are searched. A verdict must never depend on whether its
// reasons are written. For legality alone the search reads what the
// explaining one reads (the same scene, obstacles, gates and points:
// TransitScene::shortest_route with a read length) but gives only routes no
// longer than the allowance (and the measuring slack twice over, for
// rounding). Those are the routes that can pass: the centre is the mean of
// the corners, so the corner that moves furthest moves at least as far as
// the centre, and a route whose centre goes further fails
// warmaster.movement.distance. A longer one, which explaining finds and then
// refuses, is here no route; either way the move fails. The stand order
// search stops where the explaining one would find only such routes: once
// the stand moving first has no route, a stand that moves later has more
// obstacles. Stands of an engaged unit that have not moved block too, so
// that is not so for them: their routes are searched as far as the
// explaining check searches.
RouteSearch route_search(const Unit& u, const Pace& pace, double max_route, bool explain) {
  RouteSearch search{max_route, max_route, true};
  if (!explain) {
    search.reasons = false;
    if (!u.engaged) search.route = std::min(max_route, pace.allowance + 2 * kMeasureSlack);
  }
  return search;
}

// First look for an order in which every straight line is clear (cheap).
// A stand whose straight line is blocked with none of its own unit's stands
// in the way is blocked in every order (stands already moved only add
// obstacles and gates), so then no other order is tried.
bool straight_in_some_order(TransitScene& scene, OrderSearch& s) {
  auto try_order = [&](const std::vector<StandIndex>& order) {
    const StandIndex blocked = first_blocked_stand(scene, order, s.routes, s.skip, s.own);
    if (!blocked.is_none()) return blocked;
    s.as_asked = true;
    s.order = order;
    return StandIndex::none();
  };
  s.first_blocked = try_order(s.orders.front());
  if (s.first_blocked.is_none()) return true;
  if (!s.other_orders) return false;
  bool blocked_in_every_order = false;
  scene.set_own_blockers({});
  for (std::size_t i = 0; i < s.routes.size() && !blocked_in_every_order; ++i)
    blocked_in_every_order = !s.skip[i] && any_leg_blocked(scene, s.routes[i].poses);
  if (blocked_in_every_order) return false;
  s.orders = candidate_orders(s.moving);  // the listed order first, as tried
  for (std::size_t k = 1; k < s.orders.size(); ++k)
    if (try_order(s.orders[k]).is_none()) return true;
  return false;
}

// No order has every straight line clear, and no stand that is traced could
// be planned round what blocks it (each has waypoints; trace_paths plans
// only a single straight leg): what plan_in_some_order would find, without
// tracing every order again. In the listed order the first stand blocked
// has no route, so that attempt fails there, with the routes as asked; no
// other order works, for straight_in_some_order tried each (or found a
// stand blocked in every order), and an order works with planning only if
// its straight lines are clear when nothing can be planned. The reasons
// shown are the listed order's, as plan_in_some_order keeps them.
void no_route_in_any_order(OrderSearch& s) {
  s.as_asked = true;
  s.chosen.violations.push_back(no_route_within_allowance(s.first_blocked));
  s.chosen.failed = s.first_blocked;
  s.order = s.orders.front();
}

namespace {

// A planned route longer than the allowance fails too (an explaining check
// searches further than the allowance, to say by how much).
bool works(const PathAttempt& t, const Unit& u, double allowance) {
  if (!t.violations.empty()) return false;
  RotMemo memo;
  for (const StandRoute& r : t.routes)
    if (r.planned) {
      auto c = corner_distances(r.poses, u.width, u.depth, memo);
      if (*std::max_element(c.begin(), c.end()) > allowance + kMeasureSlack) return false;
    }
  return true;
}

}  // namespace

// No order has every straight line clear: plan routes round what blocks, in
// the first order. Then planned routes in another order: a stand that must
// go round something may need to go before the stands that would close its
// way. Stands already moved only add obstacles and gates, so once the stand
// that moves first has no route, no order has one. The reasons shown stay
// those of the first order when none works.
void plan_in_some_order(TransitScene& planner, OrderSearch& s) {
  s.chosen = trace_paths(planner, s.orders.front(), s.routes, s.skip, s.search, s.own);
  s.order = s.orders.front();
  if (works(s.chosen, s.u, s.allowance) || !s.other_orders || s.chosen.failed == s.orders.front().front()) return;
  if (s.orders.size() == 1) s.orders = candidate_orders(s.moving);
  for (std::size_t k = 1; k < s.orders.size(); ++k) {
    PathAttempt attempt = trace_paths(planner, s.orders[k], s.routes, s.skip, s.search, s.own);
    if (works(attempt, s.u, s.allowance)) {
      s.chosen = std::move(attempt);
      s.order = s.orders[k];
      return;
    }
    if (attempt.failed == s.orders[k].front()) return;
  }
}

}  // namespace referee::warmaster::move_detail
