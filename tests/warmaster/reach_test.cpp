// Reach (reach.hpp): where a unit's stands' centres can get with one move.
#include <gtest/gtest.h>

#include <cmath>

#include "referee/core/errors.hpp"
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/movement/reach.hpp"
#include "referee/warmaster/movement/transit.hpp"
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
  ReachAnswer a = reach(bf, {"inf", ReachKind::Ordered, std::nullopt, 0.5, std::nullopt});
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
  EXPECT_EQ(reach(bf, {"inf", ReachKind::Ordered, std::nullopt, 0.5, std::nullopt}).allowance, 10.0);
  EXPECT_EQ(reach(bf, {"inf", ReachKind::Charge, std::nullopt, 0.5, std::nullopt}).allowance, 20.0);
  EXPECT_EQ(reach(bf, {"inf", ReachKind::Evade, std::nullopt, 0.5, std::nullopt}).allowance, 20.0);
  EXPECT_EQ(reach(bf, {"inf", ReachKind::HalfPace, std::nullopt, 0.5, std::nullopt}).allowance, 10.0);
  EXPECT_THROW(reach(bf, {"nobody", ReachKind::Ordered, std::nullopt, 0.5, std::nullopt}), InputError);
}

TEST(Reach, CavalryStaysOutOfWoodsAndBehindClosedGaps) {
  Battlefield bf = empty_field();
  bf.terrain.push_back(area("wood-1", TerrainKind::Wood, {{80, 70}, {100, 70}, {100, 80}, {80, 80}}));
  // Two enemy stands 1.5 cm apart: closed for anyone.
  bf.units.push_back(infantry("orcs-1", 1, {{{60, 75}, 90}, {{60, 79.5}, 90}}));
  Unit cav = cavalry("cav", 0, {{{90, 60}, 0}});
  bf.units.push_back(cav);
  ReachAnswer a = reach(bf, {"cav", ReachKind::Ordered, std::nullopt, 0.5, std::nullopt});
  EXPECT_EQ(a.allowance, 30.0);
  EXPECT_FALSE(reachable(a, {90, 75}));  // inside the wood
  // A 2 x 4 cm cavalry stand centred at y 68.5 would overlap the wood by 0.5
  // cm, so it may not end there; at y 67.5 it ends 0.5 cm short of it.
  EXPECT_FALSE(reachable(a, {90, 68.5}));
  EXPECT_TRUE(reachable(a, {90, 67.5}));
  EXPECT_TRUE(reachable(a, {103, 78}));  // round the wood's corner, about 27 cm
  // Infantry walks into the wood.
  bf.units.back().type = TroopType::Infantry;
  ReachAnswer b = reach(bf, {"cav", ReachKind::Ordered, std::nullopt, 0.5, std::nullopt});
  EXPECT_TRUE(reachable(b, {90, 75}));
}

TEST(Reach, AgreesWithTheRoutePlannerAtSamples) {
  // A point the planner reaches within 95% of the allowance must be inside the
  // reach area; one it cannot reach within the allowance must be outside.
  Battlefield bf = empty_field();
  bf.terrain.push_back(area("wall-1", TerrainKind::Impassable, {{80, 64}, {100, 64}, {100, 66}, {80, 66}}));
  Unit me = infantry("me", 0, {{{90, 60}, 0}});
  bf.units.push_back(me);
  ReachAnswer a = reach(bf, {"me", ReachKind::Ordered, std::nullopt, 0.5, std::nullopt});
  TransitScene scene(bf, me, {});
  int inside = 0, outside = 0;
  for (double x = 72; x <= 108; x += 3)
    for (double y = 42; y <= 80; y += 3) {
      // Reach shades where the footprint fits with its margin to spare.
      if (!scene.is_clear({x, y}) ||
          distance(OrientedRect::from_pose({{x, y}, 0}, 4, 2), bf.terrain[0].pieces[0]) < a.margin + 0.05)
        continue;
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

// "Always measure from the part of the stand that moves the greatest
// distance – this will often be one of the corners." Ending facing 90
// degrees, a 40 x 20 mm stand's corners move up to 2 x 2.236 x sin(45) =
// 3.162 cm further than its centre, so a route leaves 20 - 3.162 = 16.838 cm
// for the centre's path. One straight leg costs what its corners really
// move: 18.5 cm straight ahead moves the corner that swings forward 21.52 cm
// (too far), 15.5 cm moves it 18.53; 18 cm ahead and 45 degrees left, where
// this turn costs least, moves the worst corner 19.62 cm, within the
// allowance. The move check agrees on both sides.
TEST(Reach, AFinalFacingTakesTheTurnOffTheAllowance) {
  Battlefield bf = empty_field();
  bf.units.push_back(infantry("inf", 0, {{{90, 40}, 0}}));
  ReachAnswer kept = reach(bf, {"inf", ReachKind::Ordered, std::nullopt, 0.5, std::nullopt});
  ReachAnswer turned = reach(bf, {"inf", ReachKind::Ordered, std::nullopt, 0.5, 90.0});
  EXPECT_DOUBLE_EQ(kept.turn_cost, 0.0);
  EXPECT_NEAR(turned.turn_cost, 2 * std::hypot(2.0, 1.0) * std::sin(kPi / 4), 1e-9);
  EXPECT_NEAR(turned.turn_cost, 3.162, 1e-3);
  EXPECT_TRUE(reachable(kept, {90, 58.5}));
  EXPECT_FALSE(reachable(turned, {90, 58.5}));
  EXPECT_TRUE(reachable(turned, {90, 55.5}));
  auto check = [&](double y) {
    MoveRequest req;
    req.mover = "inf";
    req.stands.push_back({StandIndex(0), {}, Pose{{90, y}, 90}});
    return check_move(bf, req).verdict.legal();
  };
  EXPECT_TRUE(check(55.5));   // inside the turned reach: legal
  EXPECT_FALSE(check(58.5));  // outside it: a corner moves more than 20 cm
  const Vec2 diagonal{90 - 18 / std::sqrt(2.0), 40 + 18 / std::sqrt(2.0)};
  EXPECT_TRUE(reachable(turned, diagonal));  // 18 cm of centre path, beyond the route's 16.838
  MoveRequest req;
  req.mover = "inf";
  req.stands.push_back({StandIndex(0), {}, Pose{diagonal, 90}});
  const MoveAnswer diag = check_move(bf, req);
  EXPECT_TRUE(diag.verdict.legal());
  EXPECT_NEAR(diag.routes[0].used, 19.62, 0.01);
  EXPECT_NE(explain(turned).find("ending facing 90.0 degrees (3.2 cm of the allowance goes on the turn)"),
            std::string::npos)
      << explain(turned);
}
