#include "referee/warmaster/movement/transit_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace referee::warmaster {

namespace {

// First t in [0,1] with |a + t d - c| <= r, assuming |a - c| > r.
std::optional<double> circle_entry(Vec2 a, Vec2 d, Vec2 c, double r) {
  Vec2 f = a - c;
  double A = dot(d, d), B = 2 * dot(f, d), C = dot(f, f) - r * r;
  if (A <= 0) return std::nullopt;
  double disc = B * B - 4 * A * C;
  if (disc < 0) return std::nullopt;
  double t = (-B - std::sqrt(disc)) / (2 * A);
  if (t < 0 || t > 1) return std::nullopt;
  return t;
}

// First t at which the moving point enters the capsule of edge (p, q).
std::optional<double> capsule_entry(Vec2 a, Vec2 d, Vec2 p, Vec2 q, double r) {
  std::optional<double> best;
  auto take = [&](std::optional<double> t) {
    if (t && (!best || *t < *best)) best = t;
  };
  take(circle_entry(a, d, p, r));
  take(circle_entry(a, d, q, r));
  Vec2 e = q - p;
  double len = length(e);
  if (len > 0) {
    Vec2 u = e / len;
    double s0 = cross(u, a - p), sv = cross(u, d);
    if (sv != 0) {
      for (double side : {r, -r}) {
        double t = (side - s0) / sv;
        if (t < 0 || t > 1) continue;
        // Only an entry: moving from outside |s| > r towards inside.
        if (std::abs(s0) <= r) continue;
        double along = dot(a + d * t - p, u);
        if (along >= 0 && along <= len) take(t);
      }
    }
  }
  return best;
}

inline double dist_sq(Vec2 p, Vec2 a, Vec2 b) {
  Vec2 ab = b - a, ap = p - a;
  double l2 = dot(ab, ab);
  double t = l2 > 0 ? std::clamp(dot(ap, ab) / l2, 0.0, 1.0) : 0.0;
  Vec2 d = ap - ab * t;
  return dot(d, d);
}

inline bool cross_or_touch(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  double d1 = cross(d - c, a - c), d2 = cross(d - c, b - c);
  double d3 = cross(b - a, c - a), d4 = cross(b - a, d - a);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

}  // namespace

bool fast_inside(const Polygon& poly, Vec2 p) {
  const auto& pts = poly.points;
  bool inside = false;
  for (std::size_t i = 0, j = pts.size() - 1, n = pts.size(); i < n; j = i++) {
    Vec2 a = pts[j], b = pts[i];
    if ((b.y > p.y) != (a.y > p.y)) {
      double x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (p.x < x) inside = !inside;
    }
  }
  return inside;
}

double fast_distance(Vec2 p, const Polygon& poly) {
  const auto& pts = poly.points;
  if (pts.size() < 3) return std::numeric_limits<double>::infinity();
  if (fast_inside(poly, p)) return 0;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0, n = pts.size(); i < n; ++i) best = std::min(best, dist_sq(p, pts[i], pts[(i + 1) % n]));
  return std::sqrt(best);
}

double fast_distance(const Segment& s, const Polygon& poly) {
  const auto& pts = poly.points;
  if (pts.size() < 3) return std::numeric_limits<double>::infinity();
  if (fast_inside(poly, s.a) || fast_inside(poly, s.b)) return 0;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0, n = pts.size(); i < n; ++i) {
    Vec2 c = pts[i], d = pts[(i + 1) % n];
    if (cross_or_touch(s.a, s.b, c, d)) return 0;
    best = std::min({best, dist_sq(s.a, c, d), dist_sq(s.b, c, d), dist_sq(c, s.a, s.b), dist_sq(d, s.a, s.b)});
  }
  return std::sqrt(best);
}

bool fast_within(const Segment& s, const Polygon& poly, double thr) {
  const auto& pts = poly.points;
  const std::size_t n = pts.size();
  if (n < 3 || !(thr > 0)) return false;
  const double thr2 = thr * thr;
  // Edges first: in the planner most tested segments are blocked, and a
  // crossing or a near edge settles it without the inside tests.
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    Vec2 c = pts[j], d = pts[i];
    if (cross_or_touch(s.a, s.b, c, d)) return true;
    if (dist_sq(s.a, c, d) < thr2 || dist_sq(s.b, c, d) < thr2 || dist_sq(c, s.a, s.b) < thr2) return true;
  }
  // Every vertex was tested as an edge's start, so only a segment wholly
  // inside (far from every edge) is left.
  return fast_inside(poly, s.a) || fast_inside(poly, s.b);
}

// In the rectangle's frame the box is [-hx, hx] x [-hy, hy]. A segment and
// a convex polygon that do not meet are closest at a vertex of one of them,
// so: a quick reject on the bounds, the segment's ends against the box, the
// segment through the box (slab clipping), then the box's corners against
// the segment.
bool fast_within(const Segment& s, const OrientedRect& rect, double thr) {
  if (!(thr > 0)) return false;
  const double hx = rect.half.x, hy = rect.half.y, thr2 = thr * thr;
  Vec2 p = rect.rot.apply_inverse(s.a - rect.center), q = rect.rot.apply_inverse(s.b - rect.center);
  if (std::min(p.x, q.x) >= hx + thr || std::max(p.x, q.x) <= -hx - thr || std::min(p.y, q.y) >= hy + thr ||
      std::max(p.y, q.y) <= -hy - thr)
    return false;
  auto box_d2 = [&](Vec2 v) {
    double dx = std::max(std::abs(v.x) - hx, 0.0), dy = std::max(std::abs(v.y) - hy, 0.0);
    return dx * dx + dy * dy;
  };
  if (box_d2(p) < thr2 || box_d2(q) < thr2) return true;
  Vec2 d = q - p;
  double t0 = 0, t1 = 1;
  bool meets = true;
  for (int axis = 0; axis < 2 && meets; ++axis) {
    double o = axis == 0 ? p.x : p.y, v = axis == 0 ? d.x : d.y, h = axis == 0 ? hx : hy;
    if (v == 0) {
      meets = std::abs(o) <= h;
      continue;
    }
    double ta = (-h - o) / v, tb = (h - o) / v;
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    meets = t0 <= t1;
  }
  if (meets) return true;
  for (Vec2 c : {Vec2{hx, hy}, Vec2{-hx, hy}, Vec2{-hx, -hy}, Vec2{hx, -hy}})
    if (dist_sq(c, p, q) < thr2) return true;
  return false;
}

std::optional<double> first_contact(const Segment& path, double r, const Polygon& poly) {
  const auto& pts = poly.points;
  if (pts.size() < 3) return std::nullopt;
  // A contact puts the centre within r of the polygon, so within r of its
  // bounds: a path whose bounds stay further away (by more than a hair,
  // 1e-9, far above rounding) has none, and no edge need be looked at; and
  // a start that far away does not start in contact.
  const Aabb reach = poly.bounds().inflated(r + 1e-9);
  if (!path.bounds().overlaps(reach)) return std::nullopt;
  if (reach.contains(path.a) && distance(path.a, poly) <= r) return 0.0;
  Vec2 d = path.b - path.a;
  std::optional<double> best;
  // The same test edge by edge: an entry into an edge's capsule is within r
  // of the edge's bounds.
  const Aabb swept = path.bounds().inflated(r + 1e-9);
  for (std::size_t i = 0, n = pts.size(); i < n; ++i) {
    const Vec2 p = pts[i], q = pts[(i + 1) % n];
    if (std::min(p.x, q.x) > swept.max.x || std::max(p.x, q.x) < swept.min.x || std::min(p.y, q.y) > swept.max.y ||
        std::max(p.y, q.y) < swept.min.y)
      continue;
    auto t = capsule_entry(path.a, d, p, q, r);
    if (t && (!best || *t < *best)) best = t;
  }
  return best;
}

// The exact segment kernel (core closest_points) decides every pair that
// can still win, in the same order, so ties break as they always did (the
// first pair at the least distance). A pair that cannot reach the least
// distance is skipped: its edges' boxes are further apart than some vertex
// pair, or its cheap squared distance is above the best so far (each by a
// margin far above rounding). Likewise the two containment tests are skipped
// for a point clearly outside the other polygon's bounding box.
ClosestPoints closest_points(const Polygon& a, const Polygon& b) {
  if (a.points.empty() || b.points.empty()) return {{}, {}, std::numeric_limits<double>::infinity()};
  constexpr double kMargin = 1e-9;
  const auto& p = a.points;
  const auto& q = b.points;
  const Aabb box_a = Aabb::of_points(p).inflated(kMargin), box_b = Aabb::of_points(q).inflated(kMargin);
  if (box_b.contains(p[0]) && contains(b, p[0])) return {p[0], p[0], 0};
  if (box_a.contains(q[0]) && contains(a, q[0])) return {q[0], q[0], 0};
  auto pad = [](double d2) {
    double d = std::sqrt(d2) * (1 + kMargin) + kMargin;
    return d * d;
  };
  // An upper bound on the answer: the nearest vertex of b to a's first one.
  double upper2 = std::numeric_limits<double>::infinity();
  for (Vec2 v : q) upper2 = std::min(upper2, dot(v - p[0], v - p[0]));
  upper2 = pad(upper2);
  ClosestPoints best{{}, {}, std::numeric_limits<double>::infinity()};
  double limit2 = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0, n = p.size(); i < n; ++i) {
    Vec2 pa = p[i], pb = p[i + 1 == n ? 0 : i + 1];
    const double pxl = std::min(pa.x, pb.x), pxh = std::max(pa.x, pb.x), pyl = std::min(pa.y, pb.y),
                 pyh = std::max(pa.y, pb.y);
    for (std::size_t j = 0, m = q.size(); j < m; ++j) {
      Vec2 qa = q[j], qb = q[j + 1 == m ? 0 : j + 1];
      double dx = std::max({std::min(qa.x, qb.x) - pxh, pxl - std::max(qa.x, qb.x), 0.0});
      double dy = std::max({std::min(qa.y, qb.y) - pyh, pyl - std::max(qa.y, qb.y), 0.0});
      if (dx * dx + dy * dy > std::min(upper2, limit2)) continue;
      if (!cross_or_touch(pa, pb, qa, qb) &&
          std::min({dist_sq(pa, qa, qb), dist_sq(pb, qa, qb), dist_sq(qa, pa, pb), dist_sq(qb, pa, pb)}) > limit2)
        continue;
      ClosestPoints c = referee::closest_points(Segment{pa, pb}, Segment{qa, qb});
      if (c.distance < best.distance) {
        best = c;
        limit2 = pad(best.distance * best.distance);
      }
    }
  }
  return best;
}

// Split the segment at every crossing with the polygon's boundary; the piece
// between two consecutive crossings is wholly inside or wholly outside, so
// its midpoint decides. A midpoint counts as inside only when it is deeper
// than `tol`, so grazing lines pass.
bool crosses_interior(const Segment& s, const Polygon& poly, double tol) {
  const auto& pts = poly.points;
  std::size_t n = pts.size();
  if (n < 3) return false;
  Vec2 d = s.b - s.a;
  std::vector<double> ts{0.0, 1.0};
  for (std::size_t i = 0; i < n; ++i) {
    Vec2 p = pts[i], q = pts[(i + 1) % n];
    Vec2 e = q - p;
    double den = cross(d, e);
    if (den == 0) continue;  // parallel: collinear runs are on the boundary
    Vec2 w = p - s.a;
    double t = cross(w, e) / den, u = cross(w, d) / den;
    if (t > 0 && t < 1 && u >= -1e-12 && u <= 1 + 1e-12) ts.push_back(t);
  }
  std::sort(ts.begin(), ts.end());
  for (std::size_t k = 0; k + 1 < ts.size(); ++k) {
    if (ts[k + 1] - ts[k] <= 0) continue;
    Vec2 m = s.a + d * ((ts[k] + ts[k + 1]) / 2);
    if (contains(poly, m)) {
      // Inside: how deep, measured to the boundary.
      double depth = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < n; ++i) depth = std::min(depth, distance(m, Segment{pts[i], pts[(i + 1) % n]}));
      if (depth > tol) return true;
    }
  }
  return false;
}

bool crosses_properly(const Segment& s, const Segment& t) {
  double d1 = cross(t.b - t.a, s.a - t.a), d2 = cross(t.b - t.a, s.b - t.a);
  double d3 = cross(s.b - s.a, t.a - s.a), d4 = cross(s.b - s.a, t.b - s.a);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

bool passes_gate(const Segment& path, const Segment& gate, double tol) {
  if (!segments_intersect(path, gate)) return false;
  if (distance(path.a, gate) <= tol) return false;
  return true;
}

Polygon ccw(Polygon p) {
  if (p.signed_area() < 0) std::reverse(p.points.begin(), p.points.end());
  return p;
}

}  // namespace referee::warmaster
