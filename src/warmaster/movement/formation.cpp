// A unit's formation: line, column or irregular (docs/rulings.md#warmaster-move-formation-at-the-start),
// and stands that stand apart, the warnings a battle's start gives for them.
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/model/rule_ids.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "referee/core/errors.hpp"
#include "referee/warmaster/model/troops.hpp"
#include "movement/stand_pairs.hpp"

namespace referee::warmaster {

namespace {

// Facings count as equal when turning one into the other moves a corner by
// no more than the contact tolerance.
double facing_tolerance_deg(double tolerance, double width, double depth) {
  return rad_to_deg(std::atan2(tolerance, std::max(width, depth)));
}


// The formation a unit starts its move in (docs/rulings.md#warmaster-move-formation-at-the-start).

// A line: every stand faces the same way and they stand side by side,
// butted edge to edge along their frontage, in one straight row.
bool is_line(const Unit& u, double tol) {
  const double ang = facing_tolerance_deg(tol, u.width, u.depth);
  const Pose& ref = u.stands[0].pose;
  const Rot ref_rot = Rot::from_degrees(ref.facing_deg);  // positions in its frame: x to its right, y to its front
  std::vector<Vec2> rel;
  for (const auto& s : u.stands) {
    if (std::abs(angle_difference_degrees(ref.facing_deg, s.pose.facing_deg)) > ang) return false;
    rel.push_back(ref_rot.apply_inverse(s.pose.position - ref.position));
  }
  std::sort(rel.begin(), rel.end(), [](Vec2 a, Vec2 b) { return a.x < b.x; });
  for (std::size_t i = 0; i + 1 < rel.size(); ++i) {
    if (std::abs(rel[i + 1].x - rel[i].x - u.width) > tol) return false;
    if (std::abs(rel[i + 1].y - rel[i].y) > tol) return false;
  }
  return true;
}

// Does `b` follow `a` in a column? Either edge to edge, straight behind it
// with the same facing, or corner to corner: b's front-left corner on a's
// rear-left corner (or right on right), b turned less than a right angle and
// behind a, so the column curves (movement text, Figure 1).
bool follows(const Unit& u, std::size_t a, std::size_t b, double tol, RotMemo& rot) {
  const Pose& pa = u.stands[a].pose;
  const Pose& pb = u.stands[b].pose;
  double turn = std::abs(angle_difference_degrees(pa.facing_deg, pb.facing_deg));
  Vec2 rel = rot(pa.facing_deg).apply_inverse(pb.position - pa.position);
  if (turn <= facing_tolerance_deg(tol, u.width, u.depth) && std::abs(rel.x) <= tol &&
      std::abs(rel.y + u.depth) <= tol)
    return true;
  if (turn >= 90.0 || rel.y >= 0) return false;
  OrientedRect ra = u.footprint(a, rot), rb = u.footprint(b, rot);
  if (overlaps(ra, rb, tol)) return false;
  auto ca = ra.corners();
  auto cb = rb.corners();
  // corners: 0 front-left, 1 front-right, 2 rear-right, 3 rear-left
  return distance(cb[0], ca[3]) <= tol || distance(cb[1], ca[2]) <= tol;
}

// A column: the stands can be ordered so that each follows the one before.
// Units have a handful of stands, so a depth-first search over orders is cheap.
bool chain_from(const std::vector<std::vector<bool>>& link, std::vector<bool>& used, std::size_t head,
                std::size_t placed) {
  if (placed == used.size()) return true;
  for (std::size_t next = 0; next < used.size(); ++next) {
    if (used[next] || !link[head][next]) continue;
    used[next] = true;
    if (chain_from(link, used, next, placed + 1)) return true;
    used[next] = false;
  }
  return false;
}

bool is_column(const Unit& u, double tol) {
  std::size_t n = u.stands.size();
  if (n > 16) return false;
  std::vector<std::vector<bool>> link(n, std::vector<bool>(n, false));
  RotMemo rot;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) link[a][b] = a != b && follows(u, a, b, tol, rot);
  for (std::size_t head = 0; head < n; ++head) {
    std::vector<bool> used(n, false);
    used[head] = true;
    if (chain_from(link, used, head, 1)) return true;
  }
  return false;
}

}  // namespace

std::vector<StandApart> stands_apart(const std::vector<OrientedRect>& rects, double tolerance) {
  std::vector<StandApart> out;
  if (rects.size() < 2) return out;
  // Each pair is measured at most once, and a stand stops looking once it
  // touches one (the nearest is needed only to explain a stand that does not).
  const std::size_t n = rects.size();
  std::vector<double> memo(n * n, -1);
  auto gap = [&](std::size_t i, std::size_t j) {
    double& d = memo[std::min(i, j) * n + std::max(i, j)];
    if (d < 0) d = distance(rects[i], rects[j]);
    return d;
  };
  for (std::size_t i = 0; i < n; ++i) {
    double nearest = 1e300;
    std::size_t which = 0;
    for (std::size_t j = 0; j < n && nearest > tolerance; ++j) {
      if (i == j) continue;
      double d = gap(i, j);
      if (d < nearest) {
        nearest = d;
        which = j;
      }
    }
    if (nearest > tolerance) out.push_back({i, which, nearest});
  }
  return out;
}

std::string describe_apart(const StandApart& a, double tolerance, std::string_view when) {
  const ComparedFigures f = format_compared(a.gap * 10, tolerance * 10, "mm");
  return fmt::format("{} touches no other stand of its unit{} (nearest: {}, {} away; touching means within {})",
                     stand_label(a.stand), when, stand_label(a.nearest), f.value, f.limit);
}

std::vector<Ruling> formation_warnings(const Battlefield& bf, const Settings& settings) {
  std::vector<Ruling> out;
  for (const Unit& u : bf.units) {
    std::vector<OrientedRect> rects;
    for (std::size_t s = 0; s < u.stands.size(); ++s) rects.push_back(u.footprint(s));
    const std::vector<StandApart> apart = stands_apart(rects, settings.contact_tolerance);
    if (apart.empty()) continue;
    std::vector<std::string> others;
    for (std::size_t k = 1; k < apart.size(); ++k) others.push_back(std::to_string(apart[k].stand + 1));
    const std::string also =
        others.empty() ? std::string()
        : others.size() == 1
            ? fmt::format(", and so does stand {}", others[0])
            : fmt::format(", and so do stands {} and {}",
                          fmt::join(others.begin(), others.end() - 1, ", "), others.back());
    out.push_back({warmaster::rule_id::movement_formation,
                   fmt::format("{} is deployed in no formation: {}{}; its next move must leave every stand touching "
                               "another (docs/rulings.md#warmaster-deployment)",
                               u.id, describe_apart(apart[0], settings.contact_tolerance), also),
                   {{"gap", apart[0].gap, "cm"},
                    {"tolerance", settings.contact_tolerance, "cm"},
                    {"stands_apart", static_cast<double>(apart.size()), ""}}});
  }
  return out;
}

Formation classify_formation(const Unit& u, const Settings& settings) {
  if (u.stands.size() <= 1) return Formation::Line;  // docs/rulings.md#warmaster-move-formation-at-the-start
  if (is_line(u, settings.contact_tolerance)) return Formation::Line;
  if (is_column(u, settings.contact_tolerance)) return Formation::Column;
  return Formation::Irregular;
}

}  // namespace referee::warmaster
