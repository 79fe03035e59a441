#include "referee/core/geometry.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace referee {

double normalize_degrees(double d) {
  double r = std::fmod(d, 360.0);
  if (r < 0) r += 360.0;
  if (r >= 360.0) r -= 360.0;
  return r;
}

double angle_difference_degrees(double a, double b) {
  double d = normalize_degrees(b - a);
  return d > 180.0 ? d - 360.0 : d;
}

// Facings given in whole degrees (as players give them, and as deployments
// and most moves keep them) are looked up in a table made once from the very
// same cos and sin, so the answer is bit for bit what the formula gives;
// other facings are computed. The table is constant after it is made: no
// state is kept between calls, and Rot stays a plain value. -0.0 is left to
// the formula, since its sine is -0.0.
namespace {
struct WholeDegreeRots {
  std::array<Rot, 360> rot;
  WholeDegreeRots() {
    for (int d = 0; d < 360; ++d) {
      const double r = deg_to_rad(static_cast<double>(d));
      rot[static_cast<std::size_t>(d)] = {std::cos(r), std::sin(r)};
    }
  }
};
}  // namespace

Rot Rot::from_degrees(double facing_deg) {
  if (facing_deg >= 0 && facing_deg < 360) {
    // Made on first use, not at start-up: other start-up code may ask first.
    static const WholeDegreeRots table;
    const int d = static_cast<int>(facing_deg);
    if (d == facing_deg && !std::signbit(facing_deg)) return table.rot[static_cast<std::size_t>(d)];
  }
  const double r = deg_to_rad(facing_deg);
  return {std::cos(r), std::sin(r)};
}

Aabb Aabb::of_points(std::span<const Vec2> pts) {
  if (pts.empty()) return {};
  Aabb box{pts[0], pts[0]};
  for (Vec2 p : pts) {
    box.min.x = std::min(box.min.x, p.x);
    box.min.y = std::min(box.min.y, p.y);
    box.max.x = std::max(box.max.x, p.x);
    box.max.y = std::max(box.max.y, p.y);
  }
  return box;
}

Aabb Segment::bounds() const {
  std::array<Vec2, 2> pts{a, b};
  return Aabb::of_points(pts);
}

std::array<Vec2, 4> OrientedRect::corners() const {
  Vec2 r = rot.right() * half.x;
  Vec2 f = rot.forward() * half.y;
  return {center + f - r, center + f + r, center - f + r, center - f - r};
}

Aabb OrientedRect::bounds() const {
  // Half-extents of a rotated box: |c|*hx + |s|*hy along each world axis.
  double ex = std::abs(rot.c) * half.x + std::abs(rot.s) * half.y;
  double ey = std::abs(rot.s) * half.x + std::abs(rot.c) * half.y;
  return {{center.x - ex, center.y - ey}, {center.x + ex, center.y + ey}};
}

Segment OrientedRect::front_edge() const {
  auto c = corners();
  return {c[0], c[1]};
}

bool OrientedRect::contains(Vec2 p, double tolerance) const {
  Vec2 l = rot.apply_inverse(p - center);
  return std::abs(l.x) <= half.x + tolerance && std::abs(l.y) <= half.y + tolerance;
}

double Polygon::signed_area() const {
  double a = 0;
  for (std::size_t i = 0, n = points.size(); i < n; ++i) a += cross(points[i], points[(i + 1) % n]);
  return a / 2;
}

// Separating axis theorem for two boxes: the only candidate axes are the two
// edge normals of each box. Writing b's axes in a's frame gives a 2x2
// rotation R; a box's projection radius on one of its own axes is just its
// half-extent, and on the other box's axes it is a row or column of |R|
// weighted by half-extents. So the whole test is a dozen multiplies.
namespace {
struct SatFrame {
  double r00, r01, r10, r11;  // |R| entries: a.right.b.right, a.right.b.fwd, a.fwd.b.right, a.fwd.b.fwd
  double ta_x, ta_y;          // centre offset on a's axes
  double tb_x, tb_y;          // centre offset on b's axes
};
inline SatFrame sat_frame(const OrientedRect& a, const OrientedRect& b) {
  Vec2 ar = a.rot.right(), af = a.rot.forward(), br = b.rot.right(), bf = b.rot.forward();
  Vec2 d = b.center - a.center;
  return {std::abs(dot(ar, br)), std::abs(dot(ar, bf)), std::abs(dot(af, br)), std::abs(dot(af, bf)),
          std::abs(dot(d, ar)),  std::abs(dot(d, af)),  std::abs(dot(d, br)),  std::abs(dot(d, bf))};
}
}  // namespace

double penetration(const OrientedRect& a, const OrientedRect& b) {
  SatFrame f = sat_frame(a, b);
  double p0 = a.half.x + b.half.x * f.r00 + b.half.y * f.r01 - f.ta_x;
  double p1 = a.half.y + b.half.x * f.r10 + b.half.y * f.r11 - f.ta_y;
  double p2 = b.half.x + a.half.x * f.r00 + a.half.y * f.r10 - f.tb_x;
  double p3 = b.half.y + a.half.x * f.r01 + a.half.y * f.r11 - f.tb_y;
  return std::min(std::min(p0, p1), std::min(p2, p3));
}

bool overlaps(const OrientedRect& a, const OrientedRect& b, double tolerance) {
  // Cheap reject first: stands far apart (the common case in a scene query)
  // are further apart on some world axis than hx + hy (>= the half-diagonal) of both.
  Vec2 d = b.center - a.center;
  double reach = a.half.x + a.half.y + b.half.x + b.half.y;
  if (std::abs(d.x) > reach || std::abs(d.y) > reach) return false;
  return penetration(a, b) > tolerance;
}

Vec2 closest_point(Vec2 p, const Segment& s) {
  Vec2 ab = s.b - s.a;
  double l2 = length_squared(ab);
  if (l2 <= 0) return s.a;
  double t = std::clamp(dot(p - s.a, ab) / l2, 0.0, 1.0);
  return s.a + ab * t;
}

double distance(Vec2 p, const Segment& s) { return distance(p, closest_point(p, s)); }

bool segments_intersect(const Segment& s, const Segment& t) {
  auto orient = [](Vec2 a, Vec2 b, Vec2 c) { return cross(b - a, c - a); };
  auto on_segment = [](Vec2 a, Vec2 b, Vec2 p) {
    return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
           p.y <= std::max(a.y, b.y);
  };
  double d1 = orient(t.a, t.b, s.a), d2 = orient(t.a, t.b, s.b);
  double d3 = orient(s.a, s.b, t.a), d4 = orient(s.a, s.b, t.b);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  if (d1 == 0 && on_segment(t.a, t.b, s.a)) return true;
  if (d2 == 0 && on_segment(t.a, t.b, s.b)) return true;
  if (d3 == 0 && on_segment(s.a, s.b, t.a)) return true;
  if (d4 == 0 && on_segment(s.a, s.b, t.b)) return true;
  return false;
}

std::optional<double> segment_intersection(const Segment& s, const Segment& t) {
  Vec2 r = s.b - s.a, q = t.b - t.a;
  double denom = cross(r, q);
  Vec2 w = t.a - s.a;
  if (denom == 0) {
    if (cross(w, r) != 0) return std::nullopt;  // parallel, apart
    double rr = dot(r, r);
    if (rr == 0) return segments_intersect(s, t) ? std::optional<double>(0.0) : std::nullopt;
    double t0 = dot(w, r) / rr, t1 = dot(t.b - s.a, r) / rr;
    double lo = std::max(0.0, std::min(t0, t1)), hi = std::min(1.0, std::max(t0, t1));
    if (lo > hi) return std::nullopt;
    return lo;
  }
  double u = cross(w, q) / denom;
  double v = cross(w, r) / denom;
  if (u < 0 || u > 1 || v < 0 || v > 1) return std::nullopt;
  return u;
}

ClosestPoints closest_points(const Segment& s, const Segment& t) {
  if (segments_intersect(s, t)) {
    auto u = segment_intersection(s, t);
    Vec2 p = s.a + (s.b - s.a) * u.value_or(0.0);
    return {p, p, 0};
  }
  ClosestPoints best{s.a, closest_point(s.a, t), 0};
  best.distance = distance(best.on_a, best.on_b);
  auto consider = [&](Vec2 on_a, Vec2 on_b) {
    double d = distance(on_a, on_b);
    if (d < best.distance) best = {on_a, on_b, d};
  };
  consider(s.b, closest_point(s.b, t));
  consider(closest_point(t.a, s), t.a);
  consider(closest_point(t.b, s), t.b);
  return best;
}

double distance(Vec2 p, const OrientedRect& r) {
  Vec2 l = r.rot.apply_inverse(p - r.center);
  double dx = std::max(std::abs(l.x) - r.half.x, 0.0);
  double dy = std::max(std::abs(l.y) - r.half.y, 0.0);
  return std::hypot(dx, dy);
}

namespace {
std::array<Segment, 4> edges(const OrientedRect& r) {
  auto c = r.corners();
  return {Segment{c[0], c[1]}, Segment{c[1], c[2]}, Segment{c[2], c[3]}, Segment{c[3], c[0]}};
}
}  // namespace

// Two convex boxes that do not overlap are nearest at a pair of boundary
// points, and one of those is a corner of one box; so the minimum over the
// corner-to-box distances is exact, and the closest point is recovered in the
// other box's local frame by clamping.
ClosestPoints closest_points(const OrientedRect& a, const OrientedRect& b) {
  if (penetration(a, b) > 0) return {a.center, a.center, 0};
  auto clamp_into = [](const OrientedRect& r, Vec2 p) {
    Vec2 l = r.rot.apply_inverse(p - r.center);
    l.x = std::clamp(l.x, -r.half.x, r.half.x);
    l.y = std::clamp(l.y, -r.half.y, r.half.y);
    return r.center + r.rot.apply(l);
  };
  ClosestPoints best{{}, {}, std::numeric_limits<double>::infinity()};
  for (Vec2 c : a.corners()) {
    Vec2 q = clamp_into(b, c);
    double d = distance(c, q);
    if (d < best.distance) best = {c, q, d};
  }
  for (Vec2 c : b.corners()) {
    Vec2 q = clamp_into(a, c);
    double d = distance(c, q);
    if (d < best.distance) best = {q, c, d};
  }
  return best;
}

double distance(const OrientedRect& a, const OrientedRect& b) {
  if (penetration(a, b) > 0) return 0;
  double best = std::numeric_limits<double>::infinity();
  for (Vec2 c : a.corners()) best = std::min(best, distance(c, b));
  for (Vec2 c : b.corners()) best = std::min(best, distance(c, a));
  return best;
}

// The margin keeps the answer distance(a, b) <= d's even where rounding in
// the two computations differs; only pairs within it are measured exactly.
bool within_distance(const OrientedRect& a, const OrientedRect& b, double d) {
  const double p = penetration(a, b);
  if (p > 0) return true;
  if (-p > d + 1e-9) return false;
  return distance(a, b) <= d;
}

// Crossing number, with points within 1e-12 of the outline inside. The
// outline test only measures edges whose bounds, widened by a margin, hold the
// point: the closest point measured lies within an edge's bounds up to a few
// ulps of its coordinates, so a point further outside than the margin (1e-9,
// plus 1e-15 of the coordinates to cover those ulps at any scale) is measured
// further than 1e-12 from that edge. The answer is the one measuring every
// edge gives (tests/core/geometry_test.cpp checks it), at a fraction of the cost.
bool contains(const Polygon& poly, Vec2 p) {
  const auto& pts = poly.points;
  std::size_t n = pts.size();
  if (n < 3) return false;
  bool inside = false;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    Vec2 a = pts[j], b = pts[i];
    // Outside the edge's y range (widened) it neither holds the point nor
    // crosses the ray, which needs min y <= p.y < max y.
    const double my = 1e-9 + 1e-15 * (std::abs(a.y) + std::abs(b.y));
    if (p.y < std::min(a.y, b.y) - my || p.y > std::max(a.y, b.y) + my) continue;
    const double mx = 1e-9 + 1e-15 * (std::abs(a.x) + std::abs(b.x));
    const bool far = p.x < std::min(a.x, b.x) - mx || p.x > std::max(a.x, b.x) + mx;
    if (!far && distance(p, Segment{a, b}) <= 1e-12) return true;
    if ((b.y > p.y) != (a.y > p.y)) {
      double x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (p.x < x) inside = !inside;
    }
  }
  return inside;
}

double distance(Vec2 p, const Polygon& poly) {
  if (contains(poly, p)) return 0;
  double best = std::numeric_limits<double>::infinity();
  const auto& pts = poly.points;
  for (std::size_t i = 0, n = pts.size(); i < n; ++i)
    best = std::min(best, distance(p, Segment{pts[i], pts[(i + 1) % n]}));
  return best;
}

// An edge whose bounds are further from the segment's than the best so far
// (by 1e-6, far above the rounding of any distance measured at table
// coordinates) cannot measure nearer, so it is not measured: the minimum is
// the one measuring every edge gives (tests/core/geometry_test.cpp checks it).
double distance(const Segment& s, const Polygon& poly) {
  if (intersects(s, poly)) return 0;
  double best = std::numeric_limits<double>::infinity();
  const auto& pts = poly.points;
  const double sxl = std::min(s.a.x, s.b.x), sxh = std::max(s.a.x, s.b.x), syl = std::min(s.a.y, s.b.y),
               syh = std::max(s.a.y, s.b.y);
  for (std::size_t i = 0, n = pts.size(); i < n; ++i) {
    const Vec2 a = pts[i], b = pts[i + 1 == n ? 0 : i + 1];
    const double dx = std::max({std::min(a.x, b.x) - sxh, sxl - std::max(a.x, b.x), 0.0});
    const double dy = std::max({std::min(a.y, b.y) - syh, syl - std::max(a.y, b.y), 0.0});
    const double reach = best + 1e-6;
    if (dx * dx + dy * dy > reach * reach) continue;
    best = std::min(best, closest_points(s, Segment{a, b}).distance);
  }
  return best;
}

double distance(const Segment& s, const OrientedRect& r) {
  if (intersects(s, r)) return 0;
  double best = std::numeric_limits<double>::infinity();
  for (const Segment& e : edges(r)) best = std::min(best, closest_points(s, e).distance);
  return best;
}

double distance(const OrientedRect& r, const Polygon& poly) {
  if (poly.points.empty()) return std::numeric_limits<double>::infinity();
  if (contains(poly, r.center) || r.contains(poly.points[0])) return 0;
  double best = std::numeric_limits<double>::infinity();
  for (const Segment& e : edges(r)) best = std::min(best, distance(e, poly));
  return best;
}

// A quick reject on the bounds first: every edge, and every point contains()
// accepts (within 1e-12 of the outline), lies within the polygon's bounds,
// so a segment whose bounds are further from them than a hair (1e-9, far
// above rounding) meets neither. Most pairs a caller asks about are far apart.
// Likewise an end outside the bounds needs no containment test.
bool intersects(const Segment& s, const Polygon& poly) {
  if (poly.points.empty()) return false;
  const Aabb box = poly.bounds().inflated(1e-9);
  if (!s.bounds().overlaps(box)) return false;
  if ((box.contains(s.a) && contains(poly, s.a)) || (box.contains(s.b) && contains(poly, s.b))) return true;
  const auto& pts = poly.points;
  for (std::size_t i = 0, n = pts.size(); i < n; ++i)
    if (segments_intersect(s, Segment{pts[i], pts[(i + 1) % n]})) return true;
  return false;
}

bool intersects(const Segment& s, const OrientedRect& r) { return raycast(s, r).has_value(); }

// Slab test in the rectangle's local frame.
std::optional<double> raycast(const Segment& s, const OrientedRect& r) {
  Vec2 a = r.rot.apply_inverse(s.a - r.center);
  Vec2 d = r.rot.apply_inverse(s.b - s.a);
  double t0 = 0, t1 = 1;
  const double lo[2] = {-r.half.x, -r.half.y}, hi[2] = {r.half.x, r.half.y};
  const double o[2] = {a.x, a.y}, v[2] = {d.x, d.y};
  for (int k = 0; k < 2; ++k) {
    if (v[k] == 0) {
      if (o[k] < lo[k] || o[k] > hi[k]) return std::nullopt;
      continue;
    }
    double ta = (lo[k] - o[k]) / v[k], tb = (hi[k] - o[k]) / v[k];
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (t0 > t1) return std::nullopt;
  }
  return t0;
}

double segment_depth(const Segment& s, const OrientedRect& r) {
  const Vec2 a = r.rot.apply_inverse(s.a - r.center);
  const Vec2 d = r.rot.apply_inverse(s.b - s.a);
  auto depth = [&](double t) {
    t = std::clamp(t, 0.0, 1.0);
    return std::min(r.half.x - std::abs(a.x + d.x * t), r.half.y - std::abs(a.y + d.y * t));
  };
  double best = std::max(depth(0), depth(1));
  // Kinks: where x or y is 0, and where the two distances are equal
  // (half.x - sx x = half.y - sy y for the four sign choices).
  if (d.x != 0) best = std::max(best, depth(-a.x / d.x));
  if (d.y != 0) best = std::max(best, depth(-a.y / d.y));
  for (double sx : {-1.0, 1.0})
    for (double sy : {-1.0, 1.0}) {
      const double den = sx * d.x - sy * d.y;
      if (den != 0) best = std::max(best, depth((r.half.x - r.half.y - sx * a.x + sy * a.y) / den));
    }
  return best;
}

std::optional<double> raycast(const Segment& s, const Polygon& poly) {
  if (contains(poly, s.a)) return 0.0;
  std::optional<double> best;
  const auto& pts = poly.points;
  for (std::size_t i = 0, n = pts.size(); i < n; ++i) {
    auto t = segment_intersection(s, Segment{pts[i], pts[(i + 1) % n]});
    if (t && (!best || *t < *best)) best = t;
  }
  return best;
}

// Interiors overlap unless some separating line exists. For a general
// (possibly concave) polygon: they overlap when an edge of one properly
// crosses the other's interior, or one contains a point inside the other.
// The tolerance is applied by shrinking the rectangle, which is what
// "touching is not overlapping" means for a stand against terrain.
bool overlaps(const OrientedRect& r, const Polygon& poly, double tolerance) {
  OrientedRect shrunk = r;
  shrunk.half.x = std::max(0.0, r.half.x - tolerance);
  shrunk.half.y = std::max(0.0, r.half.y - tolerance);
  if (poly.points.size() < 3) return false;
  if (!shrunk.bounds().overlaps(poly.bounds())) return false;
  if (contains(poly, shrunk.center)) return true;
  for (Vec2 p : poly.points)
    if (shrunk.contains(p)) return true;
  for (const Segment& e : edges(shrunk)) {
    const auto& pts = poly.points;
    for (std::size_t i = 0, n = pts.size(); i < n; ++i)
      if (segments_intersect(e, Segment{pts[i], pts[(i + 1) % n]})) return true;
  }
  return false;
}

bool is_simple(const Polygon& poly) {
  const auto& p = poly.points;
  std::size_t n = p.size();
  if (n < 3) return false;
  for (std::size_t i = 0; i < n; ++i)
    if (p[i] == p[(i + 1) % n]) return false;
  if (std::abs(poly.signed_area()) <= 1e-12) return false;
  for (std::size_t i = 0; i < n; ++i) {
    Segment e{p[i], p[(i + 1) % n]};
    for (std::size_t j = i + 1; j < n; ++j) {
      bool adjacent = j == i + 1 || (i == 0 && j == n - 1);
      Segment f{p[j], p[(j + 1) % n]};
      if (adjacent) {
        // Adjacent edges share one vertex; they must not fold back onto each other.
        Vec2 shared = (j == i + 1) ? e.b : e.a;
        Vec2 other_e = (j == i + 1) ? e.a : e.b;
        Vec2 other_f = (j == i + 1) ? f.b : f.a;
        if (cross(other_e - shared, other_f - shared) == 0 && dot(other_e - shared, other_f - shared) > 0)
          return false;
        continue;
      }
      if (segments_intersect(e, f)) return false;
    }
  }
  return true;
}

Polygon convex_hull(std::vector<Vec2> pts) {
  std::sort(pts.begin(), pts.end(), [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  if (pts.size() < 3) return {pts};
  std::vector<Vec2> hull(2 * pts.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {  // lower hull
    while (k >= 2 && cross(hull[k - 1] - hull[k - 2], pts[i] - hull[k - 2]) <= 0) --k;
    hull[k++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, t = k + 1; i-- > 0;) {  // upper hull
    while (k >= t && cross(hull[k - 1] - hull[k - 2], pts[i] - hull[k - 2]) <= 0) --k;
    hull[k++] = pts[i];
  }
  hull.resize(k - 1);
  return {hull};
}

Polygon inflate_convex(std::span<const Vec2> convex_ccw, double d, int arc_steps) {
  std::size_t n = convex_ccw.size();
  Polygon out;
  if (n == 0) return out;
  if (n == 1) {
    for (int i = 0; i < 4 * arc_steps; ++i) {
      double a = 2 * kPi * i / (4 * arc_steps);
      out.points.push_back(convex_ccw[0] + Vec2{std::cos(a), std::sin(a)} * d);
    }
    return out;
  }
  // Each vertex gets an arc from the outward normal of the incoming edge to
  // that of the outgoing edge. The arc is circumscribed (radius d/cos(half
  // step)) so that the inflated polygon contains the true rounded offset:
  // clearance tests built on it are conservative.
  for (std::size_t i = 0; i < n; ++i) {
    Vec2 prev = convex_ccw[(i + n - 1) % n], cur = convex_ccw[i], next = convex_ccw[(i + 1) % n];
    Vec2 n_in = normalized(Vec2{(cur - prev).y, -(cur - prev).x});
    Vec2 n_out = normalized(Vec2{(next - cur).y, -(next - cur).x});
    double a0 = std::atan2(n_in.y, n_in.x), a1 = std::atan2(n_out.y, n_out.x);
    while (a1 < a0) a1 += 2 * kPi;
    double sweep = a1 - a0;
    int steps = std::max(1, static_cast<int>(std::ceil(sweep / (kPi / 2) * arc_steps)));
    double r = d / std::cos(sweep / steps / 2);
    out.points.push_back(cur + n_in * d);
    for (int k = 0; k < steps; ++k) {
      double a = a0 + sweep * (k + 0.5) / steps;
      out.points.push_back(cur + Vec2{std::cos(a), std::sin(a)} * r);
    }
    out.points.push_back(cur + n_out * d);
  }
  return out;
}

Polygon to_polygon(const OrientedRect& r) {
  auto c = r.corners();
  Polygon p{{c.begin(), c.end()}};
  if (p.signed_area() < 0) std::reverse(p.points.begin(), p.points.end());
  return p;
}

// --- GridIndex ---------------------------------------------------------------

GridIndex::GridIndex(Aabb world, double cell_size) { reset(world, cell_size); }

void GridIndex::reset(Aabb world, double cell_size) {
  world_ = world;
  cell_ = cell_size;
  nx_ = std::max(1, static_cast<int>(std::ceil((world.max.x - world.min.x) / cell_size)));
  ny_ = std::max(1, static_cast<int>(std::ceil((world.max.y - world.min.y) / cell_size)));
  clear();
}

// floor(v) clamped to [0, n - 1], in that order so that no value is cast
// that an int cannot hold (a box reaching far off the world, a NaN); on
// (0, n - 1) the cast truncates, which is floor there.
static int cell_of(double v, int n) {
  if (!(v > 0)) return 0;
  if (v >= n - 1) return n - 1;
  return static_cast<int>(v);
}
int GridIndex::cell_x(double x) const { return cell_of((x - world_.min.x) / cell_, nx_); }
int GridIndex::cell_y(double y) const { return cell_of((y - world_.min.y) / cell_, ny_); }

bool GridIndex::inside_world(const Aabb& box) const {
  return box.min.x >= world_.min.x && box.min.y >= world_.min.y && box.max.x <= world_.max.x &&
         box.max.y <= world_.max.y;
}

void GridIndex::insert(int id, const Aabb& box) {
  if (!boxes_.empty() && id < boxes_.back().id) ids_ascending_ = false;
  boxes_.push_back({id, box});
  laid_out_ = false;
}

void GridIndex::clear() {
  boxes_.clear();
  ids_ascending_ = true;
  laid_out_ = true;  // nothing to lay out: an empty index is scanned
}

// Two passes over the entries: count per cell, turn the counts into offsets,
// then drop each entry into its cells. Anything reaching off the world is
// kept aside and checked on every query: rare, and it keeps boxes off the
// table (units leaving it) correct. A default-constructed index has no cells.
void GridIndex::lay_out() {
  if (laid_out_) return;
  laid_out_ = true;
  if (boxes_.size() <= kScanUpTo) return;  // scanned, no cells
  const bool has_cells = nx_ > 0 && ny_ > 0;
  const std::size_t cells = has_cells ? static_cast<std::size_t>(nx_) * static_cast<std::size_t>(ny_) : 0;
  cell_start_.assign(cells + 1, 0);
  outside_.clear();
  cells_of_.assign(boxes_.size(), Cells{});
  // An entry's cells, worked out once for both passes.
  auto for_cells = [&](const Cells& at, auto&& f) {
    for (int y = at.y0; y <= at.y1; ++y)
      for (int x = at.x0; x <= at.x1; ++x) f(static_cast<std::size_t>(y) * nx_ + x);
  };
  for (std::size_t i = 0; i < boxes_.size(); ++i) {
    const Aabb& box = boxes_[i].box;
    Cells& at = cells_of_[i];
    if (!has_cells || !inside_world(box)) {
      outside_.push_back(static_cast<int>(i));
      at.outside = true;
      continue;  // found through outside_ only
    }
    at.x0 = cell_x(box.min.x);
    at.y0 = cell_y(box.min.y);
    at.x1 = cell_x(box.max.x);
    at.y1 = cell_y(box.max.y);
    for_cells(at, [&](std::size_t c) { ++cell_start_[c + 1]; });
  }
  for (std::size_t c = 0; c < cells; ++c) cell_start_[c + 1] += cell_start_[c];
  cell_entries_.resize(static_cast<std::size_t>(cell_start_[cells]));
  fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (std::size_t i = 0; i < boxes_.size(); ++i)
    if (!cells_of_[i].outside)
      for_cells(cells_of_[i],
                [&](std::size_t c) { cell_entries_[static_cast<std::size_t>(fill_[c]++)] = static_cast<int>(i); });
}

// Every entry in insertion order: the answer for few entries (no cells are
// laid out for them), and for inserts not laid out.
void GridIndex::scan(const Aabb& box, std::vector<int>& out) const {
  const std::size_t first = out.size();
  for (const Entry& e : boxes_)
    if (e.box.overlaps(box)) out.push_back(e.id);
  if (!ids_ascending_) std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

// An entry lying in several cells is reported only from the first of its
// cells the query visits (its lowest cell within the query's range), so
// there are no repeats to remove and no visit stamps: a query never writes
// the index. Entries reaching off the world are kept out of the cells and
// checked on every query.
void GridIndex::query(const Aabb& box, std::vector<int>& out) const {
  assert(laid_out_ && "GridIndex: lay_out() after the last insert, before querying");
  if (!laid_out_ || boxes_.size() <= kScanUpTo) {
    scan(box, out);
    return;
  }
  const std::size_t first = out.size();
  for (int index : outside_)
    if (boxes_[static_cast<std::size_t>(index)].box.overlaps(box)) out.push_back(boxes_[static_cast<std::size_t>(index)].id);
  // In one cell, with nothing from outside_, entries come in insertion order.
  bool in_order = ids_ascending_ && out.size() == first;
  if (nx_ > 0 && ny_ > 0 && world_.overlaps(box)) {
    const int qx0 = cell_x(box.min.x), qx1 = cell_x(box.max.x);
    const int qy0 = cell_y(box.min.y), qy1 = cell_y(box.max.y);
    in_order = in_order && qx0 == qx1 && qy0 == qy1;
    for (int y = qy0; y <= qy1; ++y)
      for (int x = qx0; x <= qx1; ++x) {
        const std::size_t c = static_cast<std::size_t>(y) * nx_ + x;
        for (int k = cell_start_[c]; k < cell_start_[c + 1]; ++k) {
          const std::size_t index = static_cast<std::size_t>(cell_entries_[static_cast<std::size_t>(k)]);
          const Cells& at = cells_of_[index];
          if (x != std::max(at.x0, qx0) || y != std::max(at.y0, qy0)) continue;  // met in an earlier cell
          if (boxes_[index].box.overlaps(box)) out.push_back(boxes_[index].id);
        }
      }
  }
  if (!in_order) std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

std::vector<int> GridIndex::query(const Aabb& box) const {
  std::vector<int> out;
  query(box, out);
  return out;
}

}  // namespace referee
