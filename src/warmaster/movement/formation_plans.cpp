#include "referee/warmaster/movement/formation_plans.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace referee::warmaster {

double compass_of(Vec2 v) { return normalize_degrees(rad_to_deg(std::atan2(v.x, v.y))); }

Vec2 stands_centre(const Unit& u) {
  Vec2 c{0, 0};
  for (const Stand& s : u.stands) c += s.pose.position;
  return u.stands.empty() ? c : c * (1.0 / static_cast<double>(u.stands.size()));
}

double path_length(const std::vector<Vec2>& path) {
  double total = 0;
  for (std::size_t k = 1; k < path.size(); ++k) total += distance(path[k - 1], path[k]);
  return total;
}

std::pair<Vec2, Vec2> point_along(const std::vector<Vec2>& path, double d) {
  if (path.empty()) return {Vec2{0, 0}, Vec2{0, 0}};
  double left = d;
  for (std::size_t k = 1; k < path.size(); ++k) {
    const double seg = distance(path[k - 1], path[k]);
    if (seg >= left) {
      const Vec2 dir = normalized(path[k] - path[k - 1]);
      // Heading: a few points on, so a diagonal staircase reads as a line.
      const Vec2 ahead = path[std::min(path.size() - 1, k + 3)];
      const Vec2 h = length(ahead - path[k - 1]) > 1e-9 ? normalized(ahead - path[k - 1]) : dir;
      return {path[k - 1] + dir * left, h};
    }
    left -= seg;
  }
  if (path.size() < 2) return {path.front(), Vec2{0, 0}};
  return {path.back(), normalized(path.back() - path[path.size() - 2])};
}

MoveRequest place_unit(const Unit& u, Vec2 new_centre, std::optional<double> facing, MoveKind kind) {
  const Vec2 c = stands_centre(u);
  MoveRequest req;
  req.mover = u.id;
  req.kind = kind;
  const double turn = facing ? angle_difference_degrees(u.stands[0].pose.facing_deg, *facing) : 0.0;
  const Rot r = Rot::from_degrees(turn);
  for (std::size_t k = 0; k < u.stands.size(); ++k) {
    StandPlan p;
    p.stand = StandIndex(k);
    p.final_pose.position = new_centre + r.apply(u.stands[k].pose.position - c);
    p.final_pose.facing_deg = normalize_degrees(u.stands[k].pose.facing_deg + turn);
    req.stands.push_back(p);
  }
  return req;
}

std::optional<MoveRequest> line_facing(const Unit& u, Vec2 toward, MoveKind kind) {
  const Vec2 c = stands_centre(u);
  if (u.stands.empty() || distance(c, toward) < 0.1) return std::nullopt;
  const double facing = compass_of(toward - c);
  const Vec2 across = Rot::from_degrees(facing).right();
  // The stands in their order across the new line, so that paths do not cross.
  std::vector<StandIndex> order = index_list<StandIndex>(u.stands);
  std::stable_sort(order.begin(), order.end(), [&](StandIndex a, StandIndex b) {
    return dot(u.stands[a.slot()].pose.position, across) < dot(u.stands[b.slot()].pose.position, across);
  });
  const double n = static_cast<double>(u.stands.size());
  MoveRequest req;
  req.mover = u.id;
  req.kind = kind;
  for (std::size_t i = 0; i < order.size(); ++i) {
    StandPlan p;
    p.stand = order[i];
    p.final_pose.position = c + across * ((static_cast<double>(i) - (n - 1) / 2) * u.width);
    p.final_pose.facing_deg = facing;
    req.stands.push_back(p);
  }
  return req;
}

std::optional<MoveRequest> column_along(const Unit& u, const std::vector<Vec2>& path, MoveKind kind,
                                        std::optional<double> lead_at) {
  if (u.stands.empty() || path_length(path) <= 0) return std::nullopt;
  const double d = lead_at.value_or(path_length(path));
  MoveRequest req;
  req.mover = u.id;
  req.kind = kind;
  std::vector<bool> used(u.stands.size(), false);
  for (std::size_t k = 0; k < u.stands.size(); ++k) {
    const auto [at, heading] = point_along(path, d - static_cast<double>(k) * u.depth);
    if (length(heading) < 1e-9) return std::nullopt;
    std::size_t best = 0;
    double bd = std::numeric_limits<double>::max();
    for (std::size_t j = 0; j < u.stands.size(); ++j)
      if (!used[j] && distance(u.stands[j].pose.position, at) < bd) bd = distance(u.stands[j].pose.position, at), best = j;
    used[best] = true;
    StandPlan p;
    p.stand = StandIndex(best);
    p.final_pose.position = at;
    p.final_pose.facing_deg = compass_of(heading);
    req.stands.push_back(p);
    req.order.push_back(StandIndex(best));
  }
  return req;
}

}  // namespace referee::warmaster
