// The quick "enemy within 20 cm" tests (orders.hpp: enemy_within for one
// unit, enemies_within for a side at the start of its Command phase) against
// their definition: the closest pair of stands, measured exactly and
// compared in whole hundredths of a millimetre (docs/rulings.md#warmaster-command-distance-penalty).
#include <gtest/gtest.h>

#include "../bench/warmaster_field.hpp"
#include "referee/warmaster/command/orders.hpp"
#include "referee/warmaster/movement/sight.hpp"

using namespace referee;
using namespace referee::warmaster;

namespace {
bool by_definition(const Battlefield& bf, const Unit& u, double cm) {
  if (u.stands.empty()) return false;
  for (const Unit& e : bf.units)
    if (e.side != u.side && !e.stands.empty() &&
        to_hundredths_of_mm(unit_distance(u, e).distance) <= to_hundredths_of_mm(cm))
      return true;
  return false;
}
}  // namespace

// Busy fields, each unit shifted at random, and distances of every size
// from touching to far apart: the quick tests agree with the definition.
TEST(EnemyWithin, AgreesWithTheClosestStandsOnRandomFields) {
  Rng rng(4242);
  int near = 0, far = 0;
  for (int field = 0; field < 20; ++field) {
    Battlefield bf = bench::make_field(40, 10, 1000 + static_cast<std::uint64_t>(field));
    for (Unit& u : bf.units) {
      const Vec2 shift{bench::uniform(rng, -15, 15), bench::uniform(rng, -25, 25)};
      for (Stand& s : u.stands) s.pose.position += shift;
    }
    for (const double cm : {5.0, 20.0}) {
      for (int side = 0; side < 2; ++side) {
        const std::vector<char> all = enemies_within(bf, side, cm);
        for (std::size_t i = 0; i < bf.units.size(); ++i) {
          const Unit& u = bf.units[i];
          const bool expected = u.side == side && by_definition(bf, u, cm);
          EXPECT_EQ(all[i] != 0, expected) << "unit " << u.id << " at " << cm << " cm";
          if (u.side == side) {
            EXPECT_EQ(enemy_within(bf, u, cm), expected) << "unit " << u.id;
          }
          (expected ? near : far) += 1;
        }
      }
    }
  }
  EXPECT_GT(near, 100);
  EXPECT_GT(far, 100);
}

// The band's edge, to the hundredth of a millimetre: an enemy stand exactly
// 20 cm away counts, one 20.001 cm away does not, whichever corner is closest.
TEST(EnemyWithin, TwentyCentimetresExactlyCountsAndAHairMoreDoesNot) {
  for (const double facing : {0.0, 30.0, 90.0}) {
    Battlefield bf;
    Unit u;
    u.id = "u";
    u.side = 0;
    u.stands = {{Pose{{50, 20}, 0}}, {Pose{{54, 20}, 0}}};
    Unit e;  // a fresh unit, not a copy of u: GCC 12 -O3 reports a false -Wrestrict on reassigning the copied id
    e.id = "e";
    e.side = 1;
    e.stands = {{Pose{{0, 0}, facing}}};
    bf.units = {u, e};
    // Place the enemy so that its stand is exactly `gap` beyond u's front edge.
    for (const auto& [gap, expected] : {std::pair{20.0, true}, std::pair{20.001, false}, std::pair{19.999, true}}) {
      const OrientedRect probe = OrientedRect::from_pose(Pose{{0, 0}, facing}, e.width, e.depth);
      double lowest = 1e9;
      for (Vec2 c : probe.corners()) lowest = std::min(lowest, c.y);
      bf.units[1].stands[0].pose.position = Vec2{52, 21 + gap - lowest};
      const double measured = unit_distance(bf.units[0], bf.units[1]).distance;
      EXPECT_NEAR(measured, gap, 1e-9);
      EXPECT_EQ(enemy_within(bf, bf.units[0], 20.0), expected) << "facing " << facing << ", gap " << gap;
      EXPECT_EQ(enemies_within(bf, 0, 20.0)[0] != 0, expected) << "facing " << facing << ", gap " << gap;
    }
  }
}
