// Reach (reach.hpp): where a unit's stands' centres can get with one move.
#include <gtest/gtest.h>

#include <cmath>

#include "referee/core/errors.hpp"
#include "referee/warmaster/reach.hpp"
#include "referee/warmaster/transit.hpp"
#include "warmaster_test_fields.hpp"

using namespace referee;
using namespace referee::warmaster;
using namespace referee::warmaster::testing;

namespace {
// Even-odd point in the reach rings.
bool reachable(const ReachAnswer& a, Vec2 p) {
  bool in = false;
  for (const Polygon& ring : a.boundary)
    if (contains(ring, p)) in = !in;
  return in;
}
}  // namespace

TEST(Reach, OpenGroundIsNearlyACircleOfThePace) {
  Battlefield bf = empty_field();
  bf.units.push_back(infantry("inf", 0, {{{90, 60}, 0}}));
  ReachAnswer a = reach(bf, {"inf", ReachKind::Ordered, std::nullopt, 0.5});
  EXPECT_EQ(a.allowance, 20.0);  // one stand: a regular formation, full pace
  double circle = kPi * 20 * 20;
  EXPECT_LE(a.area, circle * 1.005);
  EXPECT_GE(a.area, circle * 0.95);  // 16-neighbour steps: paths at most 2.7% long, so the area at most ~5% small
  EXPECT_TRUE(reachable(a, {90, 79}));
  EXPECT_FALSE(reachable(a, {90, 81}));
}

TEST(Reach, PaceFollowsKindAndFormation) {
  Battlefield bf = empty_field();
  // Three stands, not a line or a column: irregular, half pace when ordered.
  bf.units.push_back(infantry("inf", 0, {{{88, 60}, 0}, {{92, 60}, 0}, {{90, 62}, 0}}));
  EXPECT_EQ(reach(bf, {"inf", ReachKind::Ordered, std::nullopt, 0.5}).allowance, 10.0);
  EXPECT_EQ(reach(bf, {"inf", ReachKind::Charge, std::nullopt, 0.5}).allowance, 20.0);
  EXPECT_EQ(reach(bf, {"inf", ReachKind::Evade, std::nullopt, 0.5}).allowance, 20.0);
  EXPECT_EQ(reach(bf, {"inf", ReachKind::HalfPace, std::nullopt, 0.5}).allowance, 10.0);
  EXPECT_THROW(reach(bf, {"nobody", ReachKind::Ordered, std::nullopt, 0.5}), InputError);
}

TEST(Reach, CavalryStaysOutOfWoodsAndBehindClosedGaps) {
  Battlefield bf = empty_field();
  bf.terrain.push_back(area("wood-1", TerrainKind::Wood, {{80, 70}, {100, 70}, {100, 80}, {80, 80}}));
  // Two enemy stands 1.5 cm apart: closed for anyone.
  bf.units.push_back(infantry("orcs-1", 1, {{{60, 75}, 90}, {{60, 79.5}, 90}}));
  Unit cav = cavalry("cav", 0, {{{90, 60}, 0}});
  bf.units.push_back(cav);
  ReachAnswer a = reach(bf, {"cav", ReachKind::Ordered, std::nullopt, 0.5});
  EXPECT_EQ(a.allowance, 30.0);
  EXPECT_FALSE(reachable(a, {90, 75}));  // inside the wood
  EXPECT_TRUE(reachable(a, {90, 68.5}));  // at its edge, disc touching
  EXPECT_TRUE(reachable(a, {103, 78}));  // round the wood's corner, about 27 cm
  // Infantry walks into the wood.
  bf.units.back().type = TroopType::Infantry;
  ReachAnswer b = reach(bf, {"cav", ReachKind::Ordered, std::nullopt, 0.5});
  EXPECT_TRUE(reachable(b, {90, 75}));
}

TEST(Reach, AgreesWithTheRoutePlannerAtSamples) {
  // A point the planner reaches within 95% of the allowance must be inside the
  // reach area; one it cannot reach within the allowance must be outside.
  Battlefield bf = empty_field();
  bf.terrain.push_back(area("wall-1", TerrainKind::Impassable, {{80, 64}, {100, 64}, {100, 66}, {80, 66}}));
  Unit me = infantry("me", 0, {{{90, 60}, 0}});
  bf.units.push_back(me);
  ReachAnswer a = reach(bf, {"me", ReachKind::Ordered, std::nullopt, 0.5});
  TransitScene scene(bf, me, {});
  int inside = 0, outside = 0;
  for (double x = 72; x <= 108; x += 3)
    for (double y = 42; y <= 80; y += 3) {
      if (!scene.is_clear({x, y})) continue;
      auto r = scene.shortest_route({{90, 60}, 0}, {{x, y}, 0}, 40);
      double len = r ? route_distance(*r, 4, 2) : 1e9;
      if (len <= 0.95 * 20) {
        EXPECT_TRUE(reachable(a, {x, y})) << x << "," << y << " route " << len;
        ++inside;
      }
      if (len > 20.0) {
        EXPECT_FALSE(reachable(a, {x, y})) << x << "," << y << " route " << len;
        ++outside;
      }
    }
  EXPECT_GT(inside, 20);
  EXPECT_GT(outside, 20);
}
