// Property tests: our hot kernels against Boost.Geometry on random inputs.
#include <gtest/gtest.h>

#include "referee/core/dice.hpp"
#include "referee/core/geometry.hpp"
#include "support/boost_geometry.hpp"

using namespace referee;
using namespace referee::test_support;

namespace {
// Function arguments are evaluated in no fixed order, so each draw is its own
// statement: the same seed must give the same cases with every compiler.
OrientedRect random_stand(Rng& rng, double spread) {
  const Pose pose{{uniform(rng, 0, spread), uniform(rng, 0, spread)}, uniform(rng, 0, 360)};
  const double width = uniform(rng, 1, 5);
  const double depth = uniform(rng, 1, 5);
  return OrientedRect::from_pose(pose, width, depth);
}
}  // namespace

TEST(KernelsVsBoost, OverlapAndDistanceOfStands) {
  Rng rng(20261121);
  int overlapping = 0;
  for (int i = 0; i < 20000; ++i) {
    OrientedRect a = random_stand(rng, 10), b = random_stand(rng, 10);
    BPoly pa = to_boost(to_polygon(a)), pb = to_boost(to_polygon(b));
    double boost_area = 0;
    std::vector<BPoly> inter;
    bg::intersection(pa, pb, inter);
    for (auto& p : inter) boost_area += bg::area(p);
    double pen = penetration(a, b);
    // Skip the knife-edge band where touching and overlapping meet.
    if (std::abs(pen) < 1e-6) continue;
    bool ours = overlaps(a, b, 1e-9);
    EXPECT_EQ(ours, boost_area > 1e-9) << "case " << i;
    overlapping += ours;
    EXPECT_NEAR(distance(a, b), bg::distance(pa, pb), 1e-9) << "case " << i;
  }
  EXPECT_GT(overlapping, 1000);  // the sample exercises both outcomes
}

// within_distance answers distance(a, b) <= d, by separating axes where they
// settle it: the same answer as measuring, and as Boost, at thresholds drawn
// both at random and right at the measured distance.
TEST(KernelsVsBoost, WithinDistanceOfStands) {
  Rng rng(314);
  int near = 0, far = 0;
  for (int i = 0; i < 20000; ++i) {
    OrientedRect a = random_stand(rng, 12), b = random_stand(rng, 12);
    const double exact = distance(a, b);
    const double d = uniform(rng, 0, 3);
    EXPECT_EQ(within_distance(a, b, d), exact <= d) << "case " << i;
    EXPECT_TRUE(within_distance(a, b, exact)) << "case " << i;
    if (exact > 1e-6) {
      EXPECT_FALSE(within_distance(a, b, exact - 1e-7)) << "case " << i;
    }
    if (std::abs(exact - d) > 1e-9) {
      const double boost = bg::distance(to_boost(to_polygon(a)), to_boost(to_polygon(b)));
      EXPECT_EQ(within_distance(a, b, d), boost <= d) << "case " << i;
    }
    (exact <= d ? near : far)++;
  }
  EXPECT_GT(near, 2000);
  EXPECT_GT(far, 2000);
}

TEST(KernelsVsBoost, SegmentAgainstPolygonAndPointDistances) {
  Rng rng(7);
  for (int i = 0; i < 5000; ++i) {
    // A random star-shaped simple polygon around a centre.
    Vec2 c{uniform(rng, 20, 30), uniform(rng, 20, 30)};
    int n = 3 + static_cast<int>(rng.below(8));
    Polygon poly;
    for (int k = 0; k < n; ++k) {
      double a = 2 * kPi * (k + uniform(rng, 0.1, 0.9)) / n;
      double r = uniform(rng, 2, 10);
      poly.points.push_back(c + Vec2{std::cos(a), std::sin(a)} * r);
    }
    ASSERT_TRUE(is_simple(poly));
    BPoly bp = to_boost(poly);
    ASSERT_TRUE(bg::is_valid(bp));
    Segment s{{uniform(rng, 0, 50), uniform(rng, 0, 50)}, {uniform(rng, 0, 50), uniform(rng, 0, 50)}};
    BSeg bs(BPoint(s.a.x, s.a.y), BPoint(s.b.x, s.b.y));
    EXPECT_EQ(intersects(s, poly), bg::intersects(bs, bp)) << "case " << i;
    EXPECT_NEAR(distance(s, poly), bg::distance(bs, bp), 1e-9) << "case " << i;
    Vec2 p{uniform(rng, 0, 50), uniform(rng, 0, 50)};
    EXPECT_NEAR(distance(p, poly), bg::distance(BPoint(p.x, p.y), bp), 1e-9) << "case " << i;
    OrientedRect r = random_stand(rng, 50);
    BPoly br = to_boost(to_polygon(r));
    std::vector<BPoly> inter;
    bg::intersection(br, bp, inter);
    double area = 0;
    for (auto& q : inter) area += bg::area(q);
    if (area > 1e-6 || area == 0) {
      EXPECT_EQ(overlaps(r, poly, 1e-9), area > 1e-6) << "case " << i;
    }
    EXPECT_NEAR(distance(r, poly), bg::distance(br, bp), 1e-9) << "case " << i;
  }
}

// The box rejection in intersects(Segment, Polygon): segments drawn near the
// polygon's bounds (across their corners and sides, where the boxes meet but
// the shapes need not, and just outside) and far away, against Boost.
TEST(KernelsVsBoost, SegmentNearAndFarFromThePolygonsBounds) {
  Rng rng(8);
  int rejected = 0, boxes_meet_apart = 0, meeting = 0;
  for (int i = 0; i < 20000; ++i) {
    Vec2 c{uniform(rng, 20, 30), uniform(rng, 20, 30)};
    int n = 3 + static_cast<int>(rng.below(8));
    Polygon poly;
    for (int k = 0; k < n; ++k) {
      double a = 2 * kPi * (k + uniform(rng, 0.1, 0.9)) / n;
      double r = uniform(rng, 2, 10);
      poly.points.push_back(c + Vec2{std::cos(a), std::sin(a)} * r);
    }
    const Aabb box = poly.bounds();
    auto near_box = [&] {
      const double x = rng.below(2) == 0 ? box.min.x : box.max.x;
      const double y = rng.below(2) == 0 ? box.min.y : box.max.y;
      const double px = uniform(rng, -1.5, 1.5);
      const double py = uniform(rng, -1.5, 1.5);
      return Vec2{x + px, y + py};
    };
    Segment s{near_box(), near_box()};
    if (rng.below(5) == 0) {
      const double dx = uniform(rng, 15, 40);
      const double dy = uniform(rng, -40, 40);
      s = {s.a + Vec2{dx, dy}, s.b + Vec2{dx, dy}};
    }
    BSeg bs(BPoint(s.a.x, s.a.y), BPoint(s.b.x, s.b.y));
    const bool ours = intersects(s, poly);
    ASSERT_EQ(ours, bg::intersects(bs, to_boost(poly))) << "case " << i;
    if (!s.bounds().overlaps(box)) ++rejected;
    else if (!ours) ++boxes_meet_apart;
    else ++meeting;
  }
  EXPECT_GT(rejected, 3000);
  EXPECT_GT(boxes_meet_apart, 1000);
  EXPECT_GT(meeting, 1000);
}

TEST(KernelsVsBoost, SelfIntersectionMatchesValidity) {
  Rng rng(99);
  int simple = 0, not_simple = 0;
  for (int i = 0; i < 5000; ++i) {
    Polygon poly;
    int n = 3 + static_cast<int>(rng.below(5));
    for (int k = 0; k < n; ++k) poly.points.push_back({uniform(rng, 0, 10), uniform(rng, 0, 10)});
    BPoly bp = to_boost(poly);
    bool ours = is_simple(poly);
    EXPECT_EQ(ours, bg::is_simple(bp) && bg::is_valid(bp)) << "case " << i;
    ours ? ++simple : ++not_simple;
  }
  EXPECT_GT(simple, 500);
  EXPECT_GT(not_simple, 500);
}

// segment_depth: the deepest point of a segment inside a stand, against the
// depth Boost measures (distance to the outline, inside) at many points along
// it: never shallower than any of them, and no deeper than the deepest by
// more than the spacing of the points.
TEST(KernelsVsBoost, SegmentDepthIntoAStand) {
  Rng rng(1126);
  int entering = 0, missing = 0;
  for (int i = 0; i < 3000; ++i) {
    const OrientedRect r = random_stand(rng, 10);
    const Polygon poly = to_polygon(r);
    const BPoly bp = to_boost(poly);
    BLine outline;
    for (Vec2 v : poly.points) bg::append(outline, BPoint(v.x, v.y));
    bg::append(outline, BPoint(poly.points[0].x, poly.points[0].y));
    const double ax = uniform(rng, 0, 10);
    const double ay = uniform(rng, 0, 10);
    const double bx = uniform(rng, 0, 10);
    const double by = uniform(rng, 0, 10);
    const Segment s{{ax, ay}, {bx, by}};
    const double ours = segment_depth(s, r);
    const int steps = 400;
    double deepest = -1;
    for (int k = 0; k <= steps; ++k) {
      const Vec2 p = s.a + (s.b - s.a) * (static_cast<double>(k) / steps);
      const BPoint bpnt(p.x, p.y);
      if (!bg::within(bpnt, bp)) continue;
      const double d = bg::distance(bpnt, outline);
      deepest = std::max(deepest, d);
      EXPECT_GE(ours, d - 1e-9) << "case " << i << " step " << k;
    }
    if (deepest < 0) {
      ++missing;
      EXPECT_LE(ours, s.length() / steps + 1e-9) << "case " << i;  // at most a step's worth inside, unseen
    } else {
      ++entering;
      EXPECT_LE(ours, deepest + s.length() / steps + 1e-9) << "case " << i;
    }
  }
  EXPECT_GT(entering, 500);
  EXPECT_GT(missing, 500);
}
