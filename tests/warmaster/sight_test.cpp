// Line of sight and distances (movement text, Moving by initiative; docs/rulings.md#warmaster-transit-line-of-sight).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "referee/core/dice.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "../../bench/warmaster_field.hpp"
#include "warmaster_test_fields.hpp"

using namespace referee;
using namespace referee::warmaster;
using namespace referee::warmaster::testing;

namespace {
// Elves (3 stands in line at y = 30, facing north) and orcs 20 cm away (front edges 20 cm apart).
Battlefield facing_off() {
  Battlefield bf = empty_field();
  bf.units.push_back(infantry("elves-1", 0, {{{46, 30}, 0}, {{50, 30}, 0}, {{54, 30}, 0}}));
  bf.units.push_back(infantry("orcs-1", 1, {{{46, 52}, 180}, {{50, 52}, 180}, {{54, 52}, 180}}));
  return bf;
}
SightAnswer los(const Battlefield& bf, bool front_only = true, Settings s = {}) {
  return line_of_sight(bf, bf.units[0], bf.units[1], s, front_only);
}
}  // namespace

TEST(Distance, UnitDistanceIsBetweenClosestStands) {
  Battlefield bf = facing_off();
  ClosestPoints cp = unit_distance(bf.units[0], bf.units[1]);
  EXPECT_NEAR(cp.distance, 20.0, 1e-9);
  EXPECT_NEAR(cp.on_a.y, 31.0, 1e-9);
  EXPECT_NEAR(cp.on_b.y, 51.0, 1e-9);
}

TEST(Distance, CharacterDistanceUsesTheRoundBase) {
  Battlefield bf = facing_off();
  Character c;
  c.id = "general";
  c.pose = {{50, 20}, 0};  // base radius 1.25; stand rear edge at y = 29
  ClosestPoints cp = character_distance(c, bf.units[0]);
  EXPECT_NEAR(cp.distance, 9.0 - 1.25, 1e-9);
}

TEST(Sight, ClearLineBetweenFacingUnits) {
  Battlefield bf = facing_off();
  SightAnswer a = los(bf);
  EXPECT_TRUE(a.visible);
  EXPECT_EQ(a.rule, "warmaster.sight");
  EXPECT_NEAR(a.distance, 20.0, 1e-9);
  ASSERT_TRUE(a.line.has_value());
}

TEST(Sight, AnotherUnitWideEnoughBlocks) {
  Battlefield bf = facing_off();
  // A wide friendly block of 5 stands across the whole view, at y = 41.
  bf.units.push_back(infantry("elves-2", 0, {{{30, 41}, 0}, {{34, 41}, 0}, {{38, 41}, 0}, {{42, 41}, 0}, {{46, 41}, 0},
                                              {{50, 41}, 0}, {{54, 41}, 0}, {{58, 41}, 0}, {{62, 41}, 0}, {{66, 41}, 0},
                                              {{70, 41}, 0}}));
  SightAnswer a = los(bf);
  EXPECT_FALSE(a.visible);
  EXPECT_EQ(a.blocked_by, "unit elves-2");
}

TEST(Sight, ANarrowBlockerLeavesSideLinesClear) {
  Battlefield bf = facing_off();
  bf.units.push_back(infantry("elves-2", 0, {{{50, 41}, 0}}));  // covers x 48..52 only
  EXPECT_TRUE(los(bf).visible);
}

// Property: on random scenes, whenever a brute-force sweep of lines (front
// edge points to target boundary points) finds a clear one, line_of_sight
// says visible; and every line it reports is really clear.
TEST(Sight, AgreesWithBruteForceOnRandomScenes) {
  Rng rng(7);
  auto uni = [&](double lo, double hi) { return lo + (hi - lo) * static_cast<double>(rng.below(1000000)) / 1e6; };
  int visible = 0, hidden = 0;
  for (int scene = 0; scene < 150; ++scene) {
    Battlefield bf = empty_field();
    bf.units.push_back(infantry("viewer", 0, {{{50, 30}, uni(-40, 40)}}));
    bf.units.push_back(infantry("target", 1, {{{uni(40, 60), uni(42, 52)}, uni(0, 360)}}));
    for (int k = 0; k < 4; ++k)
      bf.units.push_back(infantry(fmt::format("w{}", k), k % 2, {{{uni(42, 58), uni(33, 40)}, uni(0, 360)}}));
    SightAnswer s = line_of_sight(bf, bf.units[0], bf.units[1], {});
    auto blocked = [&](const Segment& seg) {
      for (std::size_t u = 2; u < bf.units.size(); ++u) {
        auto r = bf.units[u].footprint(0);
        r.half = r.half - Vec2{1e-4, 1e-4};
        if (intersects(seg, r)) return true;
      }
      return false;
    };
    bool brute = false;
    Segment front = bf.units[0].footprint(0).front_edge();
    auto tc = bf.units[1].footprint(0).corners();
    Vec2 fwd = bf.units[0].footprint(0).rot.forward();
    for (int i = 0; i <= 40 && !brute; ++i)
      for (int e = 0; e < 4 && !brute; ++e)
        for (int j = 0; j <= 40 && !brute; ++j) {
          Vec2 p = front.a + (front.b - front.a) * (i / 40.0);
          Vec2 q = tc[e] + (tc[(e + 1) % 4] - tc[e]) * (j / 40.0);
          if (dot(q - p, fwd) > 1e-6 && !blocked({p, q})) brute = true;
        }
    if (brute) {
      EXPECT_TRUE(s.visible) << "scene " << scene;
    }
    if (s.visible) {
      ASSERT_TRUE(s.line.has_value());
      EXPECT_FALSE(blocked(*s.line)) << "scene " << scene;
      ++visible;
    } else {
      ++hidden;
    }
  }
  EXPECT_GT(visible, 10);
  EXPECT_GT(hidden, 10);
}

TEST(Sight, CharactersNeverBlock) {
  Battlefield bf = facing_off();
  Character c;
  c.id = "general";
  c.side = 1;
  c.base_diameter = 30;  // absurdly large: still transparent
  c.pose = {{50, 41}, 0};
  bf.characters.push_back(c);
  EXPECT_TRUE(los(bf).visible);
}

TEST(Sight, WoodsBlockButRiversDoNot) {
  Battlefield bf = facing_off();
  bf.terrain.push_back(area("wood-1", TerrainKind::Wood, {{20, 38}, {80, 38}, {80, 44}, {20, 44}}));
  SightAnswer a = los(bf);
  EXPECT_FALSE(a.visible);
  EXPECT_EQ(a.blocked_by, "terrain wood-1");
  bf.terrain[0].kind = TerrainKind::ShallowRiver;
  EXPECT_TRUE(los(bf).visible);
  bf.terrain[0].kind = TerrainKind::Wood;
  bf.terrain[0].blocks_sight = false;  // scenario override
  EXPECT_TRUE(los(bf).visible);
}

TEST(Sight, ViewerInsideAWoodSeesOutByDefault) {
  Battlefield bf = facing_off();
  bf.terrain.push_back(area("wood-1", TerrainKind::Wood, {{40, 25}, {60, 25}, {60, 35}, {40, 35}}));
  EXPECT_TRUE(los(bf).visible);
  Settings s;
  s.see_out_of_own_feature = false;
  EXPECT_FALSE(los(bf, true, s).visible);
}

TEST(Sight, OnlyFrontEdgesUnlessAllRound) {
  Battlefield bf = facing_off();
  // Turn the elves around: the orcs are behind them.
  for (auto& st : bf.units[0].stands) st.pose.facing_deg = 180;
  EXPECT_FALSE(los(bf).visible);
  bf.units[0].sees_all_round = true;
  EXPECT_FALSE(los(bf, true).visible);   // charging still needs a front edge
  EXPECT_TRUE(los(bf, false).visible);   // any free edge sees
}

TEST(Sight, FreeEdgesExcludeEdgesAgainstOwnStands) {
  Battlefield bf = facing_off();
  bf.units[0].sees_all_round = true;
  // Three stands in line: 4 + 3 + 4 = 11 free edges... the middle stand's two sides touch.
  EXPECT_EQ(sight_edges(bf.units[0], {}, false).size(), 8u);
  EXPECT_EQ(sight_edges(bf.units[0], {}, true).size(), 3u);
}

// A unit sees another exactly when one of its stands does
// (docs/rulings.md#warmaster-shooting-range-per-stand: shooting asks each
// stand): over every pair of units within 60 cm on the 40-unit bench field
// with its terrain, the unit's answer is the "or" of its stands' answers, and
// a stand alone never sees more than its unit.
TEST(Sight, AUnitSeesWhenOneOfItsStandsSees) {
  const Battlefield bf = referee::warmaster::bench::make_field(40);
  const Settings s;
  int pairs = 0, seen = 0, partly = 0;
  for (const Unit& a : bf.units)
    for (const Unit& b : bf.units) {
      if (&a == &b || a.stands.empty() || b.stands.empty() || unit_distance(a, b).distance > 60) continue;
      std::vector<StandIndex> all;
      for (StandIndex k : indices<StandIndex>(a.stands)) all.push_back(k);
      const std::vector<char> stands = stands_that_see(bf, a, b, s, all);
      int n = 0;
      for (char c : stands) n += c != 0;
      EXPECT_EQ(line_of_sight(bf, a, b, s).visible, n > 0) << a.id << " -> " << b.id;
      ++pairs;
      seen += n > 0;
      partly += n > 0 && n < static_cast<int>(a.stands.size());
    }
  // The field has both kinds, and some units that see with only part of their stands.
  EXPECT_GT(pairs, 100);
  EXPECT_GT(seen, 10);
  EXPECT_GT(partly, 0);
  std::printf("[sight per stand] %d pairs, %d seen, %d seen by only some stands\n", pairs, seen, partly);
}

// A search whose first lines fail stops early when, for every target stand,
// one convex blocker lies across every line (each line from an end of the
// edge to a corner of the stand runs 0.02 cm deep into it); one that leaves a
// line past its edge, however close, must not stop it. The viewer's front
// edge runs x 48..52 at y 31; the target's three stands span x 44..56, y
// 51..53; a wood across y 38..44 runs from x 20 to `right`. The middle stand,
// the nearest, is hidden deep behind it, so the first lines fail; the line
// from (52, 31) to the right stand's corner (56, 51) meets y 38 at x 53.4.
TEST(Sight, OneBlockerAcrossEveryLineAndOneThatLeavesASliver) {
  auto scene = [](double right) {
    Battlefield bf = empty_field();
    bf.units.push_back(infantry("elves-1", 0, {{{50, 30}, 0}}));
    bf.units.push_back(infantry("orcs-1", 1, {{{46, 52}, 180}, {{50, 52}, 180}, {{54, 52}, 180}}));
    bf.terrain.push_back(area("wood-1", TerrainKind::Wood, {{20, 38}, {right, 38}, {right, 44}, {20, 44}}));
    return bf;
  };
  auto stand_sees = [](const Battlefield& bf) { return stands_that_see(bf, bf.units[0], bf.units[1], {}, {StandIndex(0)})[0] != 0; };
  const Battlefield across = scene(60);  // across every line, deeply
  EXPECT_FALSE(los(across).visible);
  EXPECT_EQ(los(across).blocked_by, "terrain wood-1");
  EXPECT_FALSE(stand_sees(across));
  const Battlefield barely = scene(53.41);  // across every line, the right stand's outermost only 0.01 cm deep
  EXPECT_FALSE(los(barely).visible);
  EXPECT_FALSE(stand_sees(barely));
  const Battlefield sliver = scene(53.39);  // that line passes 0.01 cm clear of it
  const SightAnswer a = los(sliver);
  EXPECT_TRUE(a.visible);
  ASSERT_TRUE(a.line.has_value());
  EXPECT_NEAR(a.line->a.x, 52, 1e-9);
  EXPECT_NEAR(a.line->b.x, 56, 1e-9);
  EXPECT_TRUE(stand_sees(sliver));
}
