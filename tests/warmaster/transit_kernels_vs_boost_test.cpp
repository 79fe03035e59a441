// Property tests: the transit and sight kernels (transit_kernels.hpp) against
// Boost.Geometry on random convex and concave (star-shaped) polygons.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "referee/core/dice.hpp"
#include "referee/warmaster/movement/transit_kernels.hpp"
#include "support/boost_geometry.hpp"

using namespace referee;
using namespace referee::warmaster;
using namespace referee::test_support;

namespace {
// Star-shaped about (5, 5): simple, and concave about half the time.
Polygon random_polygon(Rng& rng) {
  int n = 3 + static_cast<int>(rng.below(7));
  bool convex = rng.below(2) == 0;
  std::vector<double> angles;
  for (int i = 0; i < n; ++i) angles.push_back(uniform(rng, 0, 2 * kPi));
  std::sort(angles.begin(), angles.end());
  Polygon p;
  for (double a : angles) {
    double r = convex ? 3.0 : uniform(rng, 1.0, 4.0);
    p.points.push_back(Vec2{5, 5} + Vec2{std::cos(a), std::sin(a)} * r);
  }
  if (convex) p = convex_hull(p.points);
  return ccw(p);
}
Segment random_segment(Rng& rng) {
  return {{uniform(rng, -2, 12), uniform(rng, -2, 12)}, {uniform(rng, -2, 12), uniform(rng, -2, 12)}};
}
BSeg to_boost(const Segment& s) { return BSeg(BPoint(s.a.x, s.a.y), BPoint(s.b.x, s.b.y)); }
}  // namespace

TEST(TransitKernelsVsBoost, SegmentAndPointToPolygonDistance) {
  Rng rng(31);
  int inside = 0;
  for (int i = 0; i < 20000; ++i) {
    Polygon p = random_polygon(rng);
    if (p.points.size() < 3) continue;
    BPoly bp = to_boost(p);
    Segment s = random_segment(rng);
    double ours = fast_distance(s, p), theirs = bg::distance(to_boost(s), bp);
    ASSERT_NEAR(ours, theirs, 1e-9) << i;
    Vec2 q = s.a;
    double po = fast_distance(q, p), pt = bg::distance(BPoint(q.x, q.y), bp);
    ASSERT_NEAR(po, pt, 1e-9) << i;
    inside += po == 0;
  }
  EXPECT_GT(inside, 500);
}

// The clearance test (fast_within) on polygons and on rectangles in their own
// frame: "closer than thr" exactly when Boost's distance is less than thr.
TEST(TransitKernelsVsBoost, SegmentWithinDistanceOfPolygonAndRectangle) {
  Rng rng(47);
  int near = 0, far = 0;
  for (int i = 0; i < 20000; ++i) {
    Segment s = random_segment(rng);
    double thr = uniform(rng, 0.1, 3.0);
    Polygon p = random_polygon(rng);
    if (p.points.size() >= 3) {
      double d = bg::distance(to_boost(s), to_boost(p));
      if (std::abs(d - thr) > 1e-9) {
        ASSERT_EQ(fast_within(s, p, thr), d < thr) << i;
      }
    }
    OrientedRect r{{uniform(rng, 2, 8), uniform(rng, 2, 8)}, {uniform(rng, 0.5, 3), uniform(rng, 0.5, 3)},
                   Rot::from_degrees(uniform(rng, 0, 360))};
    Polygon rp;
    for (Vec2 c : r.corners()) rp.points.push_back(c);
    double d = bg::distance(to_boost(s), to_boost(rp));
    if (std::abs(d - thr) > 1e-9) {
      ASSERT_EQ(fast_within(s, r, thr), d < thr) << i;
    }
    (d < thr ? near : far)++;
  }
  EXPECT_GT(near, 2000);
  EXPECT_GT(far, 2000);
}

// The swept disc: first_contact finds a contact exactly when Boost's
// distance from the whole path to the polygon is within r, and at the
// contact the disc's centre is r away, never nearer before it.
TEST(TransitKernelsVsBoost, FirstContactOfASweptDisc) {
  Rng rng(32);
  int hits = 0, misses = 0;
  for (int i = 0; i < 20000; ++i) {
    Polygon p = random_polygon(rng);
    if (p.points.size() < 3) continue;
    BPoly bp = to_boost(p);
    Segment s = random_segment(rng);
    double r = uniform(rng, 0.2, 2.0);
    double whole = bg::distance(to_boost(s), bp);
    auto t = first_contact(s, r, p);
    if (std::abs(whole - r) < 1e-7) continue;  // grazing: either answer is right
    ASSERT_EQ(t.has_value(), whole < r) << i << " distance " << whole << " r " << r;
    if (!t) {
      ++misses;
      continue;
    }
    ++hits;
    Vec2 c = s.a + (s.b - s.a) * *t;
    double at = bg::distance(BPoint(c.x, c.y), bp);
    if (*t > 0) {
      EXPECT_NEAR(at, r, 1e-7) << i;
      // Before the contact the path stays at least r away.
      Segment before{s.a, s.a + (s.b - s.a) * (*t * (1 - 1e-9))};
      EXPECT_GE(bg::distance(to_boost(before), bp), r - 1e-6) << i;
    } else {
      EXPECT_LE(at, r + 1e-9) << i;
    }
  }
  EXPECT_GT(hits, 1000);
  EXPECT_GT(misses, 1000);
}

// Sight: a segment crosses the interior exactly when Boost's DE-9IM says the
// line's interior meets the polygon's interior.
TEST(TransitKernelsVsBoost, SegmentCrossesPolygonInterior) {
  Rng rng(33);
  int crossing = 0, clear = 0;
  for (int i = 0; i < 20000; ++i) {
    Polygon p = random_polygon(rng);
    if (p.points.size() < 3) continue;
    BPoly bp = to_boost(p);
    Segment s = random_segment(rng);
    BLine line;
    bg::append(line, BPoint(s.a.x, s.a.y));
    bg::append(line, BPoint(s.b.x, s.b.y));
    bool theirs = bg::relate(line, bp, bg::de9im::mask("T********"));
    bool ours = crosses_interior(s, p, 0);
    ASSERT_EQ(ours, theirs) << i;
    (ours ? crossing : clear)++;
  }
  EXPECT_GT(crossing, 1000);
  EXPECT_GT(clear, 1000);
}

TEST(TransitKernelsVsBoost, PolygonToPolygonClosestPoints) {
  Rng rng(34);
  for (int i = 0; i < 5000; ++i) {
    Polygon a = random_polygon(rng), b = random_polygon(rng);
    if (a.points.size() < 3 || b.points.size() < 3) continue;
    Vec2 shift{uniform(rng, -9, 9), uniform(rng, -9, 9)};
    for (Vec2& v : b.points) v += shift;
    ClosestPoints cp = closest_points(a, b);
    double theirs = bg::distance(to_boost(a), to_boost(b));
    ASSERT_NEAR(cp.distance, theirs, 1e-9) << i;
    ASSERT_NEAR(distance(cp.on_a, cp.on_b), cp.distance, 1e-9) << i;
    ASSERT_NEAR(bg::distance(BPoint(cp.on_a.x, cp.on_a.y), to_boost(a)), 0, 1e-9);
    ASSERT_NEAR(bg::distance(BPoint(cp.on_b.x, cp.on_b.y), to_boost(b)), 0, 1e-9);
  }
}

// The box rejection in first_contact: paths drawn around the polygon's
// bounds inflated by r (just inside, just outside, across its corners, where
// the boxes meet but the shapes need not) and far away. A contact is found
// exactly when Boost's distance from the path is within r, whether or not
// the boxes settle it.
TEST(TransitKernelsVsBoost, FirstContactNearAndFarFromThePolygonsBounds) {
  Rng rng(35);
  int rejected = 0, boxes_meet_no_contact = 0, hits = 0;
  for (int i = 0; i < 20000; ++i) {
    Polygon p = random_polygon(rng);
    if (p.points.size() < 3) continue;
    const double r = uniform(rng, 0.2, 2.0);
    const Aabb box = p.bounds().inflated(r);
    // Ends within 0.6 cm of the inflated bounds' corners or sides, or 20 to 60 cm off.
    auto near_box = [&] {
      const double x = rng.below(2) == 0 ? box.min.x : box.max.x, y = rng.below(2) == 0 ? box.min.y : box.max.y;
      const bool corner = rng.below(2) == 0;
      const double px = corner ? x + uniform(rng, -0.6, 0.6) : uniform(rng, box.min.x, box.max.x);
      const double py = corner || rng.below(2) == 0 ? y + uniform(rng, -0.6, 0.6) : uniform(rng, box.min.y, box.max.y);
      return Vec2{px, py};
    };
    Segment s{near_box(), near_box()};
    if (rng.below(5) == 0) {
      const Vec2 away = Rot::from_degrees(uniform(rng, 0, 360)).forward() * uniform(rng, 20, 60);
      s = {s.a + away, s.b + away};
    }
    const double whole = bg::distance(to_boost(s), to_boost(p));
    if (std::abs(whole - r) < 1e-7) continue;  // grazing: either answer is right
    const auto t = first_contact(s, r, p);
    ASSERT_EQ(t.has_value(), whole < r) << i << " distance " << whole << " r " << r;
    if (!s.bounds().overlaps(box)) ++rejected;
    else if (!t) ++boxes_meet_no_contact;
    else ++hits;
  }
  EXPECT_GT(rejected, 3000);
  EXPECT_GT(boxes_meet_no_contact, 1000);
  EXPECT_GT(hits, 1000);
}

// Sight (sight.cpp) skips crosses_interior() for a stand a line runs at least
// 1e-3 deep into (segment_depth): such a line always crosses the stand's
// interior by crosses_interior()'s own measure. Checked here on lines drawn to
// be awkward for it: across the stand at random, just past a corner, nearly
// along an edge (the splitting is least certain there), starting or ending
// inside, and short; at table coordinates and every facing.
TEST(TransitKernelsVsBoost, LineDeepIntoAStandCrossesItsInterior) {
  Rng rng(1125);
  int deep = 0, barely = 0, along = 0;
  for (int i = 0; i < 40000; ++i) {
    const Pose pose{{uniform(rng, 0, 180), uniform(rng, 0, 120)}, uniform(rng, 0, 360)};
    const double width = uniform(rng, 1, 6);
    const double depth = uniform(rng, 1, 6);
    const OrientedRect r = OrientedRect::from_pose(pose, width, depth);
    const Polygon poly = to_polygon(r);
    const auto c = r.corners();
    const int kind = static_cast<int>(rng.below(5));
    Segment s;
    if (kind == 0) {  // anywhere about the stand
      const Vec2 p{uniform(rng, -8, 8), uniform(rng, -8, 8)};
      const Vec2 q{uniform(rng, -8, 8), uniform(rng, -8, 8)};
      s = {r.center + p, r.center + q};
    } else if (kind == 1) {  // past a corner, 1e-3 to 1e-2 inside it
      const Vec2 k = c[rng.below(4)];
      const Vec2 in = normalized(r.center - k) * uniform(rng, 1e-3, 1e-2);
      const double a = uniform(rng, 0, 2 * kPi);
      const Vec2 d{std::cos(a), std::sin(a)};
      s = {k + in - d * uniform(rng, 0.1, 20), k + in + d * uniform(rng, 0.1, 20)};
    } else if (kind == 2) {  // nearly along an edge, just inside it
      const std::size_t e = rng.below(4);
      const Vec2 a = c[e], b = c[(e + 1) % 4];
      const Vec2 in = normalized(r.center - (a + b) / 2) * uniform(rng, 1e-3, 3e-3);
      const double tilt = std::pow(10.0, -uniform(rng, 3, 15)) * (rng.below(2) == 0 ? 1 : -1);
      const Vec2 dir = normalized(b - a);
      const Vec2 d = normalized(dir + perp(dir) * tilt);
      const Vec2 mid = (a + b) / 2 + in;
      s = {mid - d * uniform(rng, 0.5, 30), mid + d * uniform(rng, 0.5, 30)};
      ++along;
    } else if (kind == 3) {  // from inside to anywhere
      const Vec2 p{uniform(rng, -0.5, 0.5) * width, uniform(rng, -0.5, 0.5) * depth};
      s = {r.center + r.rot.apply(p), r.center + Vec2{uniform(rng, -10, 10), uniform(rng, -10, 10)}};
      if (rng.below(2) == 0) std::swap(s.a, s.b);
    } else {  // short, inside or across the outline
      const Vec2 p = r.center + r.rot.apply(Vec2{uniform(rng, -0.6, 0.6) * width, uniform(rng, -0.6, 0.6) * depth});
      const double a = uniform(rng, 0, 2 * kPi);
      s = {p, p + Vec2{std::cos(a), std::sin(a)} * uniform(rng, 1e-3, 0.1)};
    }
    const double reach = segment_depth(s, r);
    if (reach < 1e-3) continue;
    ++deep;
    barely += reach < 2e-3;
    ASSERT_TRUE(crosses_interior(s, poly, 1e-7))
        << "case " << i << " kind " << kind << " depth " << reach << " from (" << s.a.x << ", " << s.a.y << ") to ("
        << s.b.x << ", " << s.b.y << ")";
  }
  EXPECT_GT(deep, 15000);
  EXPECT_GT(barely, 2000);
  EXPECT_GT(along, 5000);
}

// The same for convex terrain pieces (sight.cpp tries a line's depth at its
// middle and at its point nearest the piece's centre): any point of the line
// 1e-3 or more inside a convex polygon, measured to the nearest edge line,
// means crosses_interior() finds the crossing. Lines across, nearly along an
// edge, through corners and short; Boost agrees the line meets the interior.
TEST(TransitKernelsVsBoost, LineDeepIntoAConvexPieceCrossesItsInterior) {
  Rng rng(1127);
  int deep = 0, barely = 0;
  for (int i = 0; i < 20000; ++i) {
    Polygon poly;
    do {
      poly = ccw(convex_hull(random_polygon(rng).points));
    } while (poly.points.size() < 3);
    const auto& p = poly.points;
    const std::size_t n = p.size();
    auto depth = [&](Vec2 x) {  // ccw: inside is to the left of every edge
      double d = std::numeric_limits<double>::infinity();
      for (std::size_t k = 0; k < n; ++k) {
        const Vec2 e = p[(k + 1) % n] - p[k];
        d = std::min(d, cross(e, x - p[k]) / length(e));
      }
      return d;
    };
    Segment s;
    const int kind = static_cast<int>(rng.below(3));
    if (kind == 0) {
      s = random_segment(rng);
    } else if (kind == 1) {  // nearly along an edge, just inside it
      const std::size_t e = rng.below(n);
      const Vec2 a = p[e], b = p[(e + 1) % n];
      const Vec2 dir = normalized(b - a);
      const double tilt = std::pow(10.0, -uniform(rng, 3, 15)) * (rng.below(2) == 0 ? 1 : -1);
      const Vec2 d = normalized(dir + perp(dir) * tilt);
      const Vec2 mid = (a + b) / 2 + perp(dir) * uniform(rng, 1e-3, 3e-3);
      s = {mid - d * uniform(rng, 0.5, 20), mid + d * uniform(rng, 0.5, 20)};
    } else {  // through a vertex's neighbourhood
      const Vec2 k = p[rng.below(n)];
      const double a = uniform(rng, 0, 2 * kPi);
      const Vec2 d{std::cos(a), std::sin(a)};
      const Vec2 in = normalized(Vec2{5, 5} - k) * uniform(rng, 1e-3, 1e-2);
      s = {k + in - d * uniform(rng, 0.01, 10), k + in + d * uniform(rng, 0.01, 10)};
    }
    double reach = -1;
    for (int k = 0; k <= 64; ++k) reach = std::max(reach, depth(s.a + (s.b - s.a) * (k / 64.0)));
    if (reach < 1e-3) continue;
    ++deep;
    barely += reach < 2e-3;
    ASSERT_TRUE(crosses_interior(s, poly, 1e-7)) << "case " << i << " kind " << kind << " depth " << reach;
    EXPECT_TRUE(bg::intersects(to_boost(s), to_boost(poly))) << "case " << i;
  }
  EXPECT_GT(deep, 5000);
  EXPECT_GT(barely, 200);
}
