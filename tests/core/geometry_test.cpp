#include "referee/core/geometry.hpp"
#include "referee/core/dice.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

using namespace referee;

namespace {
OrientedRect stand(double x, double y, double facing, double w = 4, double d = 2) {
  return OrientedRect::from_pose({{x, y}, facing}, w, d);
}
}  // namespace

TEST(Rot, CompassFacing) {
  Rot r = Rot::from_degrees(90);  // facing +x
  EXPECT_NEAR(r.forward().x, 1, 1e-12);
  EXPECT_NEAR(r.forward().y, 0, 1e-12);
  EXPECT_NEAR(r.right().y, -1, 1e-12);
  Vec2 w = r.apply({1, 2});
  Vec2 back = r.apply_inverse(w);
  EXPECT_NEAR(back.x, 1, 1e-12);
  EXPECT_NEAR(back.y, 2, 1e-12);
}

// from_degrees looks whole degrees up in a table: whatever order angles come
// in, each answer is bit for bit what cos and sin give, signed zeros, the
// table's ends and angles just off a whole degree included.
TEST(Rot, TabledAndComputedAnswersAreExact) {
  const double angles[] = {0.0,   -0.0,  33.3,  33.3, 180.0, 33.3, -0.0,     271.5, 180.0, 0.0,  1e-300,
                           90.0,  1.0,   359.0, 360.0, -90.0, 45.0, 359.9999, 720.0, 179.0, 1e-9, std::nextafter(90.0, 91.0)};
  Rng rng(5);
  for (int round = 0; round < 200; ++round) {
    const double a = angles[rng.below(std::size(angles))];
    const Rot r = Rot::from_degrees(a);
    const double rad = a * kPi / 180.0;
    EXPECT_EQ(std::signbit(r.c), std::signbit(std::cos(rad))) << a;
    EXPECT_EQ(std::signbit(r.s), std::signbit(std::sin(rad))) << a;
    EXPECT_EQ(r.c, std::cos(rad)) << a;
    EXPECT_EQ(r.s, std::sin(rad)) << a;
  }
}

TEST(OrientedRect, CornersOfAFrontFacingInfantryStand) {
  auto c = stand(10, 10, 0).corners();
  EXPECT_EQ(c[0], (Vec2{8, 11}));   // front-left
  EXPECT_EQ(c[1], (Vec2{12, 11}));  // front-right
  EXPECT_EQ(c[2], (Vec2{12, 9}));
  EXPECT_EQ(c[3], (Vec2{8, 9}));
}

TEST(OrientedRect, TurningAboutFaceMovesCornersByTheDiagonal) {
  // The figure of docs/rulings.md#warmaster-move-distance: a 40 x 20 mm stand turning 180 degrees on the spot
  // moves each corner to the opposite one, sqrt(4^2 + 2^2) = 4.47 cm.
  auto a = stand(0, 0, 0).corners();
  auto b = stand(0, 0, 180).corners();
  EXPECT_NEAR(distance(a[0], b[0]), 4.4721, 1e-4);
}

TEST(Overlap, TouchingIsNotOverlapping) {
  EXPECT_FALSE(overlaps(stand(0, 0, 0), stand(4, 0, 0)));      // side by side
  EXPECT_FALSE(overlaps(stand(0, 0, 0), stand(4, 2, 0)));      // corner to corner
  EXPECT_TRUE(overlaps(stand(0, 0, 0), stand(3.9, 0, 0)));
  EXPECT_TRUE(overlaps(stand(0, 0, 0), stand(0, 0, 45)));
}

TEST(Overlap, RotatedStandsNeedAllFourAxes) {
  // A diamond whose corner points into the gap above a stand: separated only
  // on the diamond's own axes.
  OrientedRect a = stand(0, 0, 0);
  OrientedRect b = stand(0, 1 + std::sqrt(2.0) + 0.05, 45, 2, 2);
  EXPECT_FALSE(overlaps(a, b));
  EXPECT_GT(distance(a, b), 0);
}

TEST(Distance, BetweenStands) {
  EXPECT_NEAR(distance(stand(0, 0, 0), stand(0, 25, 0)), 23.0, 1e-9);
  EXPECT_NEAR(distance(stand(0, 0, 0), stand(10, 0, 0)), 6.0, 1e-9);
  auto cp = closest_points(stand(0, 0, 0), stand(0, 25, 0));
  EXPECT_NEAR(cp.on_a.y, 1.0, 1e-9);
  EXPECT_NEAR(cp.on_b.y, 24.0, 1e-9);
}

TEST(Raycast, EntersRectangle) {
  auto t = raycast(Segment{{-10, 0}, {10, 0}}, stand(0, 0, 0));
  ASSERT_TRUE(t);
  EXPECT_NEAR(*t, 0.4, 1e-12);  // enters at x = -2
  EXPECT_FALSE(raycast(Segment{{-10, 5}, {10, 5}}, stand(0, 0, 0)));
}

TEST(Polygon, ContainsAndSimple) {
  Polygon sq{{{0, 0}, {10, 0}, {10, 10}, {0, 10}}};
  EXPECT_TRUE(contains(sq, {5, 5}));
  EXPECT_TRUE(contains(sq, {10, 5}));
  EXPECT_FALSE(contains(sq, {11, 5}));
  EXPECT_TRUE(is_simple(sq));
  Polygon bow{{{0, 0}, {10, 10}, {10, 0}, {0, 10}}};
  EXPECT_FALSE(is_simple(bow));
  EXPECT_FALSE(is_simple(Polygon{{{0, 0}, {1, 1}}}));
  EXPECT_NEAR(distance(Vec2{13, 14}, sq), 5.0, 1e-12);
}

TEST(Polygon, StandAgainstTerrainTouchingIsNotOverlapping) {
  Polygon wood{{{0, 0}, {10, 0}, {10, 10}, {0, 10}}};
  EXPECT_FALSE(overlaps(stand(12, 5, 0), wood));  // edge on x = 10
  EXPECT_TRUE(overlaps(stand(11.9, 5, 0), wood));
  EXPECT_TRUE(overlaps(stand(5, 5, 30), wood));   // wholly inside
}

TEST(Inflate, ContainsTheTrueOffset) {
  std::vector<Vec2> sq{{0, 0}, {2, 0}, {2, 2}, {0, 2}};
  Polygon p = inflate_convex(sq, 1.0);
  for (int i = 0; i < 360; ++i) {
    double a = deg_to_rad(i);
    Vec2 probe = Vec2{2, 2} + Vec2{std::cos(a), std::sin(a)} * 0.999;
    if (probe.x > 2 && probe.y > 2) {
      EXPECT_TRUE(contains(p, probe)) << i;
    }
  }
}

TEST(GridIndex, QueriesReturnOnlyNearbyIdsOnce) {
  GridIndex g({{0, 0}, {180, 120}}, 10);
  g.insert(7, {{5, 5}, {25, 8}});   // spans three cells
  g.insert(3, {{100, 100}, {101, 101}});
  g.insert(9, {{-5, -5}, {-1, -1}});  // off the table
  g.lay_out();
  EXPECT_EQ(g.query({{0, 0}, {30, 30}}), (std::vector<int>{7}));
  EXPECT_EQ(g.query({{-10, -10}, {0, 0}}), (std::vector<int>{9}));
  EXPECT_EQ(g.query({{0, 0}, {180, 120}}), (std::vector<int>{3, 7}));
}

// The flat cell layout is laid out again after more inserts; inserting after a
// query, clearing and boxes straddling the world's edge must all give what a
// brute-force scan gives.
TEST(GridIndex, AgreesWithABruteForceScan) {
  GridIndex g({{0, 0}, {180, 120}}, 10);
  std::vector<std::pair<int, Aabb>> all;
  Rng rng(11);
  auto coord = [&](double lo, double hi) { return lo + (hi - lo) * static_cast<double>(rng.below(10001)) / 10000.0; };
  auto random_box = [&] {
    const Vec2 a{coord(-30, 210), coord(-30, 150)};
    return Aabb{a, a + Vec2{coord(0, 40), coord(0, 40)}};
  };
  auto brute = [&](const Aabb& q) {
    std::vector<int> out;
    for (const auto& [id, box] : all)
      if (box.overlaps(q)) out.push_back(id);
    std::sort(out.begin(), out.end());
    return out;
  };
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 150; ++i) {
      const int id = round * 1000 + i;
      all.emplace_back(id, random_box());
      g.insert(id, all.back().second);
      if (i % 50 == 0) {
        g.lay_out();
        const Aabb q = random_box();
        ASSERT_EQ(g.query(q), brute(q)) << round << " " << i;
      }
    }
    g.lay_out();
    for (int k = 0; k < 200; ++k) {
      const Aabb q = random_box();
      ASSERT_EQ(g.query(q), brute(q)) << round << " " << k;
    }
    if (round == 1) {
      g.clear();
      all.clear();
      EXPECT_TRUE(g.query({{0, 0}, {180, 120}}).empty());
    }
  }
  EXPECT_EQ(g.size(), all.size());
  GridIndex shuffled({{0, 0}, {180, 120}}, 10);
  shuffled.insert(9, {{1, 1}, {2, 2}});
  shuffled.insert(2, {{1.5, 1.5}, {3, 3}});
  shuffled.insert(5, {{1, 1}, {45, 2}});
  shuffled.lay_out();
  EXPECT_EQ(shuffled.query({{0, 0}, {5, 5}}), (std::vector<int>{2, 5, 9}));
  EXPECT_EQ(shuffled.query({{1, 1}, {1.2, 1.2}}), (std::vector<int>{5, 9}));
  const GridIndex empty({{0, 0}, {180, 120}}, 10);
  EXPECT_TRUE(empty.query({{0, 0}, {180, 120}}).empty());
  GridIndex none;
  none.insert(4, {{1, 1}, {2, 2}});
  none.lay_out();
  EXPECT_EQ(none.query({{0, 0}, {3, 3}}), (std::vector<int>{4}));
}

#ifdef NDEBUG
// Inserts not laid out are a caller's bug (asserted in debug builds); a
// release build still answers a query of them, by a scan, with the same ids.
TEST(GridIndex, AnswersInsertsNotLaidOutByAScan) {
  GridIndex g({{0, 0}, {180, 120}}, 10);
  for (int i = 0; i < 40; ++i) g.insert(40 - i, {{4.0 * i, 1}, {4.0 * i + 3, 2}});
  EXPECT_FALSE(g.laid_out());
  EXPECT_EQ(g.query({{0, 0}, {10, 3}}), (std::vector<int>{38, 39, 40}));
  g.lay_out();
  EXPECT_TRUE(g.laid_out());
  EXPECT_EQ(g.query({{0, 0}, {10, 3}}), (std::vector<int>{38, 39, 40}));
}
#endif

// contains() and distance(Segment, Polygon) skip edges by their bounds (the
// point far outside an edge's box is not on it; an edge whose box is further
// than the best distance so far cannot be nearer). The skips must change no
// answer, bit for bit: here against the plain forms that measure every edge,
// on random polygons at scales from millimetres to kilometres, with points and
// segments on the outline, on vertices, a hair inside and outside, and away.
namespace {
bool contains_every_edge(const Polygon& poly, Vec2 p) {
  const auto& pts = poly.points;
  std::size_t n = pts.size();
  if (n < 3) return false;
  bool inside = false;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    Vec2 a = pts[j], b = pts[i];
    if (distance(p, Segment{a, b}) <= 1e-12) return true;
    if ((b.y > p.y) != (a.y > p.y)) {
      double x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (p.x < x) inside = !inside;
    }
  }
  return inside;
}

double distance_every_edge(const Segment& s, const Polygon& poly) {
  if (intersects(s, poly)) return 0;
  double best = std::numeric_limits<double>::infinity();
  const auto& pts = poly.points;
  for (std::size_t i = 0, n = pts.size(); i < n; ++i)
    best = std::min(best, closest_points(s, Segment{pts[i], pts[(i + 1) % n]}).distance);
  return best;
}

double skip_draw(Rng& rng, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(rng.next() >> 11) * (1.0 / 9007199254740992.0);
}
}  // namespace

TEST(Polygon, ContainsAndSegmentDistanceSkipNoEdgeThatDecides) {
  Rng rng(20261125);
  int on_outline = 0, inside = 0, outside = 0, measured = 0;
  for (double scale : {1e-3, 1.0, 100.0, 1e4, 1e6}) {
    for (int i = 0; i < 4000; ++i) {
      const Vec2 c{skip_draw(rng, -1, 1) * scale, skip_draw(rng, -1, 1) * scale};
      const int n = 3 + static_cast<int>(rng.below(8));
      Polygon poly;
      for (int k = 0; k < n; ++k) {
        const double a = 2 * kPi * (k + skip_draw(rng, 0.1, 0.9)) / n;
        const double r = skip_draw(rng, 0.05, 0.5) * scale;
        poly.points.push_back(c + Vec2{std::cos(a), std::sin(a)} * r);
      }
      // Probes: on an edge, on a vertex, a hair (1e-13 .. 1e-8 of the scale
      // and absolute) to either side of an edge, and anywhere near.
      const std::size_t e = rng.below(static_cast<std::uint64_t>(n));
      const Vec2 a = poly.points[e], b = poly.points[(e + 1) % static_cast<std::size_t>(n)];
      const Vec2 on = a + (b - a) * skip_draw(rng, 0, 1);
      const Vec2 nrm = normalized(perp(b - a));
      std::vector<Vec2> probes{on, a, c, {c.x + skip_draw(rng, -1, 1) * scale, c.y + skip_draw(rng, -1, 1) * scale}};
      for (double h : {1e-13, 1e-12, 1e-11, 1e-10, 1e-9, 1e-8}) {
        probes.push_back(on + nrm * h);
        probes.push_back(on - nrm * h);
        probes.push_back(on + nrm * (h * scale));
        probes.push_back(on - nrm * (h * scale));
      }
      for (Vec2 p : probes) {
        const bool ours = contains(poly, p), plain = contains_every_edge(poly, p);
        ASSERT_EQ(ours, plain) << "scale " << scale << " case " << i << " at (" << p.x << ", " << p.y << ")";
        if (distance(p, Segment{a, b}) <= 1e-12) ++on_outline;
        else (ours ? inside : outside)++;
      }
      for (int k = 0; k < 4; ++k) {
        const Vec2 p = probes[rng.below(probes.size())];
        const Vec2 q{c.x + skip_draw(rng, -1.5, 1.5) * scale, c.y + skip_draw(rng, -1.5, 1.5) * scale};
        const Segment s = k == 0 ? Segment{p, p + (q - p) * 1e-3} : Segment{p, q};
        const double ours = distance(s, poly), plain = distance_every_edge(s, poly);
        ASSERT_EQ(ours, plain) << "scale " << scale << " case " << i << " segment " << k;
        measured += ours > 0;
      }
    }
  }
  EXPECT_GT(on_outline, 10000);
  EXPECT_GT(inside, 10000);
  EXPECT_GT(outside, 10000);
  EXPECT_GT(measured, 10000);
}
