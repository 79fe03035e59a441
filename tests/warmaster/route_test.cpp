// Route planning (docs/rulings.md#warmaster-transit-planned-routes: the engine adds waypoints when the direct
// line is blocked and reports the route it measured; reading 5: the gap rule).
#include <gtest/gtest.h>

#include <cmath>

#include "referee/warmaster/movement/transit.hpp"
#include "warmaster_test_fields.hpp"

using namespace referee;
using namespace referee::warmaster;
using namespace referee::warmaster::testing;

namespace {
// The hand-computed figures take the transit disc at exactly half the
// shortest edge (r = 1.0 cm): no contact tolerance.
const Settings kStrictRoute{.contact_tolerance = 0.0};


double centre_length(const std::vector<Pose>& p) {
  double d = 0;
  for (std::size_t i = 1; i < p.size(); ++i) d += distance(p[i - 1].position, p[i].position);
  return d;
}

// Every leg of a planned route must pass check_leg: the planner and the
// checker share one model.
void expect_legal(TransitScene& scene, const std::vector<Pose>& route) {
  for (std::size_t i = 1; i < route.size(); ++i) {
    auto v = scene.check_leg(route[i - 1], route[i], "stand 1");
    EXPECT_TRUE(v.empty()) << "leg " << i << ": " << (v.empty() ? "" : v[0].reason);
  }
}

// A 20 cm wide impassable wall from x = 40 to 60, y = 44 to 46, between
// (50, 30) and (50, 60).
Battlefield wall_field() {
  Battlefield bf = empty_field();
  bf.terrain.push_back(area("wall-1", TerrainKind::Impassable, {{40, 44}, {60, 44}, {60, 46}, {40, 46}}));
  return bf;
}

}  // namespace

TEST(Route, DirectWhenClear) {
  Battlefield bf = empty_field();
  Unit me = infantry("me", 0, {{{50, 30}, 0}});
  TransitScene scene(bf, me, kStrictRoute);
  auto r = scene.shortest_route({{50, 30}, 0}, {{50, 45}, 0}, 20);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->size(), 2u);
}

// Hand computed: the disc (r = 1) goes round one end of the wall. From
// A = (50, 30) the tangent to the circle of radius 1 about the corner (60, 44)
// is sqrt(|A - C|^2 - 1) = sqrt(295) long; it then follows the arc to the
// wall's side x = 61, runs 2 cm up it, and symmetrically to B = (50, 60).
// The arc at each corner turns from the tangent's direction, atan2(14, 10) -
// asin(1 / sqrt(296)), to straight up.
TEST(Route, DetourRoundAWallIsTheShortest) {
  Battlefield bf = wall_field();
  Unit me = infantry("me", 0, {{{50, 30}, 0}});
  TransitScene scene(bf, me, kStrictRoute);
  auto r = scene.shortest_route({{50, 30}, 0}, {{50, 60}, 0}, 60);
  ASSERT_TRUE(r.has_value());
  double tangent = std::sqrt(295.0);
  double turn = kPi / 2 - (std::atan2(14.0, 10.0) - std::asin(1 / std::sqrt(296.0)));
  double exact = 2 * tangent + 2 + 2 * turn;
  EXPECT_NEAR(exact, 37.708, 1e-3);
  double got = centre_length(*r);
  EXPECT_GE(got, exact - 1e-9);
  EXPECT_LE(got, exact * 1.001);  // circumscribed arcs: at most 0.1% longer, never shorter
  // Same facing throughout: every corner moves the centre's distance (reading 4).
  EXPECT_NEAR(route_distance(*r, 4, 2), got, 1e-9);
  expect_legal(scene, *r);
}

TEST(Route, NoneWithinTheAllowance) {
  Battlefield bf = wall_field();
  Unit me = infantry("me", 0, {{{50, 30}, 0}});
  TransitScene scene(bf, me, kStrictRoute);
  EXPECT_FALSE(scene.shortest_route({{50, 30}, 0}, {{50, 60}, 0}, 37.0).has_value());
  EXPECT_TRUE(scene.shortest_route({{50, 30}, 0}, {{50, 60}, 0}, 37.8).has_value());
}

TEST(Route, ThroughANarrowGap) {
  // Two walls leave a 2.2 cm gap at x = 48.9..51.1 (a 2.0 cm edge fits); the
  // goal is off to the side, so the route must bend at the gap's mouth.
  Battlefield bf = empty_field();
  bf.terrain.push_back(area("w1", TerrainKind::Impassable, {{10, 44}, {48.9, 44}, {48.9, 46}, {10, 46}}));
  bf.terrain.push_back(area("w2", TerrainKind::Impassable, {{51.1, 44}, {90, 44}, {90, 46}, {51.1, 46}}));
  Unit me = infantry("me", 0, {{{40, 30}, 0}});
  TransitScene scene(bf, me, kStrictRoute);
  auto r = scene.shortest_route({{40, 30}, 0}, {{60, 60}, 0}, 60);
  ASSERT_TRUE(r.has_value());
  EXPECT_GE(r->size(), 3u);
  expect_legal(scene, *r);
}

TEST(Route, GoesRoundAClosedEnemyGap) {
  // Two enemy stands 4.0 cm apart (not wider than the 4.0 cm frontage): the
  // route may not go between them, and must go round the pair.
  Battlefield bf = empty_field();
  bf.units.push_back(infantry("orcs-1", 1, {{{46, 45}, 0}}));  // x 44..48
  bf.units.push_back(infantry("orcs-2", 1, {{{54, 45}, 0}}));  // x 52..56
  Unit me = infantry("me", 0, {{{50, 30}, 0}});
  TransitScene scene(bf, me, kStrictRoute);
  ASSERT_FALSE(scene.check_leg({{50, 30}, 0}, {{50, 60}, 0}, "stand 1").empty());
  auto r = scene.shortest_route({{50, 30}, 0}, {{50, 60}, 0}, 60);
  ASSERT_TRUE(r.has_value());
  expect_legal(scene, *r);
  // Round the outside: further than round one 4 cm stand, x beyond 56 or 44.
  bool outside = false;
  for (const Pose& p : *r) outside |= p.position.x > 56.0 || p.position.x < 44.0;
  EXPECT_TRUE(outside);
  // 4.5 cm apart the gap is open and the straight line is legal.
  bf.units[1].stands[0].pose.position.x = 54.5;
  TransitScene open(bf, me, kStrictRoute);
  auto s = open.shortest_route({{50, 30}, 0}, {{50, 60}, 0}, 60);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->size(), 2u);
}

TEST(Route, TurningIsMeasuredOnTheCheapestLeg) {
  Battlefield bf = wall_field();
  Unit me = infantry("me", 0, {{{50, 30}, 0}});
  TransitScene scene(bf, me, kStrictRoute);
  auto r = scene.shortest_route({{50, 30}, 0}, {{50, 60}, 90}, 60);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->front().facing_deg, 0);
  EXPECT_EQ(r->back().facing_deg, 90);
  // Turning costs something: more than the straight centre length.
  EXPECT_GT(route_distance(*r, 4, 2), centre_length(*r));
}

// Characterization (Wesnoth style): a fixed scene, its route's waypoints and
// length pinned, so a change in the planner shows up here.
TEST(Route, CharacterizationCavalryRoundWoodAndEnemy) {
  Battlefield bf = empty_field();
  bf.terrain.push_back(area("wood-1", TerrainKind::Wood, {{30, 40}, {48, 40}, {48, 52}, {30, 52}}));
  bf.units.push_back(infantry("orcs-1", 1, {{{53, 46}, 90}}));  // x 52..54, y 44..48: 4 cm from the wood
  Unit cav = cavalry("me", 0, {{{40, 30}, 0}});
  TransitScene scene(bf, cav, kStrictRoute);
  auto r = scene.shortest_route({{40, 30}, 0}, {{40, 62}, 0}, 60);
  ASSERT_TRUE(r.has_value());
  expect_legal(scene, *r);
  // The wood blocks cavalry; the 4 cm wood-enemy gap is open for a 2 cm
  // frontage, so the route goes between them (x 48..52), not round the orcs.
  bool between = false;
  for (const Pose& p : *r) between |= p.position.x > 48.9 && p.position.x < 51.1;
  EXPECT_TRUE(between);
  // Hand computed as for the wall: tangents sqrt(8^2 + 10^2 - 1) from each
  // end to the wood's corners, 12 cm up its side, and two arcs.
  double tangent = std::sqrt(163.0);
  double turn = kPi / 2 - (std::atan2(10.0, 8.0) - std::asin(1 / std::sqrt(164.0)));
  double exact = 2 * tangent + 12 + 2 * turn;
  EXPECT_GE(centre_length(*r), exact - 1e-9);
  EXPECT_LE(centre_length(*r), exact * 1.001);
  // Pinned waypoints: two points on each corner's circumscribed arc.
  std::vector<Vec2> expected{{40, 30}, {48.734, 39.266}, {49.002, 39.732}, {49.002, 52.268}, {48.734, 52.734}, {40, 62}};
  ASSERT_EQ(r->size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR((*r)[i].position.x, expected[i].x, 1e-3) << i;
    EXPECT_NEAR((*r)[i].position.y, expected[i].y, 1e-3) << i;
  }
}

// "A stand cannot pass through a gap ... between an enemy stand and any
// feature ... unless the gap is wider than the stand's own frontage ... or
// between an enemy stand and the edge of a river." An enemy stand at x
// 91.5-95.5 and a shallow river up to x 88.5, both spanning y 59-61: a 3 cm
// gap with parallel sides. An infantry stand from (90, 50) to (90, 68) may go
// through the river (docs/rulings.md#warmaster-transit-enemy-gaps), but its
// centre may never be in the gap itself, not at either end of it. Run as
// given and mirrored left-right, top-bottom and both.
TEST(Route, AGapWithParallelSidesIsClosedAlongItsWholeLength) {
  for (int mirror = 0; mirror < 4; ++mirror) {
    const bool mx = mirror & 1, my = mirror & 2;
    auto at = [&](double x, double y) { return Vec2{mx ? 180 - x : x, my ? 120 - y : y}; };
    Battlefield bf = empty_field();
    std::vector<Vec2> river{at(60, 59), at(88.5, 59), at(88.5, 61), at(60, 61)};
    if ((mx != my)) std::reverse(river.begin(), river.end());
    bf.terrain.push_back(area("river-1", TerrainKind::ShallowRiver, river));
    const double facing = my ? 180 : 0;
    bf.units.push_back(infantry("orcs", 1, {{at(93.5, 60), facing}}));
    Unit me = infantry("me", 0, {{at(90, 50), facing}});
    bf.units.push_back(me);
    TransitScene scene(bf, me, {});
    // The straight line runs through the gap: refused, naming it.
    auto direct = scene.check_leg({at(90, 50), facing}, {at(90, 68), facing}, "stand 1");
    ASSERT_FALSE(direct.empty()) << "mirror " << mirror;
    EXPECT_EQ(direct[0].rule, "warmaster.movement.gap") << direct[0].reason;
    auto r = scene.shortest_route({at(90, 50), facing}, {at(90, 68), facing}, 60);
    ASSERT_TRUE(r.has_value()) << "mirror " << mirror;
    expect_legal(scene, *r);
    // No point of the centre path lies strictly inside the gap: x in (88.5,
    // 91.5) while y in [59, 61], in the unmirrored frame.
    for (std::size_t i = 1; i < r->size(); ++i) {
      const Vec2 a = (*r)[i - 1].position, b = (*r)[i].position;
      for (int k = 0; k <= 200; ++k) {
        Vec2 p = a + (b - a) * (k / 200.0);
        const Vec2 q = at(p.x, p.y);  // the mirror is its own inverse
        EXPECT_FALSE(q.x > 88.5 + 1e-6 && q.x < 91.5 - 1e-6 && q.y >= 59 && q.y <= 61)
            << "mirror " << mirror << ": the route passes the gap at (" << q.x << ", " << q.y << ")";
      }
    }
  }
}
