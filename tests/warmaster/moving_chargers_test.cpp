// Moving Chargers (the rulebook; docs/rulings.md#warmaster-moving-chargers):
// "It is not sufficient for the closest charging stand to contact the enemy
// corner-to-corner. The closest charger must always contact edge to edge";
// "the remaining stands are placed - front edges flush to the first stand
// and maximising edge contact"; "charging stands come into contact with other
// enemy units positioned alongside the first. These other units also count as
// having been 'charged'"; "where a corner is the only part of an enemy unit
// that can be reached the charge is not allowed".
#include <gtest/gtest.h>

#include <cmath>

#include "command_fixtures.hpp"
#include "referee/warmaster/movement/contact.hpp"
#include "referee/warmaster/movement/moving_chargers.hpp"
#include "referee/warmaster/command/initiative.hpp"
#include "referee/warmaster/model/rule_ids.hpp"

using namespace referee;
using namespace referee::warmaster;
using namespace referee::warmaster::testing;

namespace moving_chargers_cases {

Battlefield with(std::vector<Unit> units) {
  Battlefield bf = empty_field();
  bf.units = std::move(units);
  return bf;
}

Unit placed(Unit u, const MoveRequest& req) {
  for (const StandPlan& p : req.stands) u.stands[p.stand.slot()].pose = p.final_pose;
  return u;
}

const Ruling* violation_of(const MoveAnswer& a, const std::string& rule) {
  for (const Ruling& v : a.verdict.violations)
    if (v.rule == rule) return &v;
  return nullptr;
}

double figure(const Ruling& v, const std::string& name) {
  for (const auto& f : v.figures)
    if (f.name == name) return f.value;
  return NAN;
}

// Infantry in line facing south (180): front edge y = 59, x 84..96.
Unit infantry_line_facing_south() { return line_unit("foot", 1, 90, 60, 180); }

// Cavalry 22 cm short of the infantry, turned 30 degrees off square.
Unit cavalry_at_an_angle() { return line_unit("horse", 0, 84, 38, 30, TroopType::Cavalry); }

TEST(MovingChargers, CavalryChargingInfantryAtAnAngleLinesUpEdgeToEdge) {
  const Battlefield bf = with({cavalry_at_an_angle(), infantry_line_facing_south()});
  const Unit& horse = bf.units[0];
  const Unit& foot = bf.units[1];
  const std::optional<MoveRequest> plan = plan_lined_up_charge(bf, horse, foot, Settings{});
  ASSERT_TRUE(plan.has_value());
  const MoveAnswer a = check_move(bf, *plan, Settings{});
  ASSERT_TRUE(a.verdict.legal()) << a.verdict.violations.front().reason;
  const Unit after = placed(horse, *plan);
  // Diagram 33: every cavalry stand faces the infantry's front, its front edge
  // on the line y = 59, the three side by side (6 cm of frontage against 12).
  for (const Stand& s : after.stands) {
    EXPECT_NEAR(s.pose.facing_deg, 0.0, 1e-9);
    EXPECT_NEAR(s.pose.position.y + horse.depth / 2, 59.0, 1e-9);
  }
  const ChargeAlignment al = measure_charge_alignment(bf, after, "foot", 0.05);
  EXPECT_EQ(al.flush_stands, 3);
  EXPECT_EQ(al.flush_with_target, 3);
}

TEST(MovingChargers, TheStraightSlideAtAnAngleTouchesAtACornerAndIsRefused) {
  const Battlefield bf = with({cavalry_at_an_angle(), infantry_line_facing_south()});
  const MoveRequest straight = plan_straight_charge(bf.units[0], bf.units[1]);
  const MoveAnswer a = check_move(bf, straight, Settings{});
  const Ruling* v = violation_of(a, rule_id::combat_charge_alignment);
  ASSERT_NE(v, nullptr);
  // The cavalry keeps its 30 degree facing: its front edge meets the
  // infantry's front edge at 30.0 degrees, touching at one corner.
  EXPECT_NEAR(figure(*v, "angle"), 30.0, 1e-6);
  EXPECT_GT(figure(*v, "offset"), 0.05);
  EXPECT_NE(v->reason.find("edge to edge"), std::string::npos) << v->reason;
}

TEST(MovingChargers, ATargetReachableOnlyAtACornerCannotBeCharged) {
  // One infantry stand turned 45 degrees, its lowest corner 29.8 cm straight
  // ahead of the cavalry's front edge: the corner is within the 30 cm charge,
  // no edge is (turning to face an edge carries a corner further).
  Unit target = infantry("turned", 1, {{{0, 0}, 225}});
  const std::array<Vec2, 4> c = target.footprint(0).corners();
  Vec2 low = c[0];
  for (Vec2 p : c)
    if (p.y < low.y) low = p;
  target.stands[0].pose.position = Vec2{90, 32 + 29.8} - low;
  const Battlefield bf = with({line_unit("horse", 0, 90, 30, 0, TroopType::Cavalry), target});
  EXPECT_FALSE(plan_lined_up_charge(bf, bf.units[0], bf.units[1], Settings{}).has_value());
  const MoveAnswer a = check_move(bf, plan_straight_charge(bf.units[0], bf.units[1]), Settings{});
  const Ruling* v = violation_of(a, rule_id::combat_charge_alignment);
  ASSERT_NE(v, nullptr);
  EXPECT_NEAR(figure(*v, "angle"), 45.0, 1e-6);
}

TEST(MovingChargers, TheRemainingStandsDrawInASecondEnemyUnitAlongside) {
  // Two single-stand enemy units side by side, front edges on y = 59:
  // foot-a x 88..92, foot-b x 92..96. The charger, a line of three infantry
  // stands straight ahead of foot-a.
  const Battlefield bf = with({line_unit("charger", 0, 90, 40, 0), infantry("foot-a", 1, {{{90, 60}, 180}}),
                               infantry("foot-b", 1, {{{94, 60}, 180}})});
  const std::optional<MoveRequest> plan = plan_lined_up_charge(bf, bf.units[0], bf.units[1], Settings{});
  ASSERT_TRUE(plan.has_value());
  const Unit after = placed(bf.units[0], *plan);
  const ChargeAlignment al = measure_charge_alignment(bf, after, "foot-a", 0.05);
  EXPECT_EQ(al.flush_with_target, 1);
  EXPECT_EQ(al.flush_stands, 2) << "the line maximises edge contact: a second stand meets foot-b edge to edge";
  Battlefield moved = bf;
  moved.units[0] = after;
  mark_engaged(moved, 0.05);
  EXPECT_TRUE(moved.units[1].engaged);
  EXPECT_TRUE(moved.units[2].engaged) << "foot-b is drawn into the engagement";
}

TEST(MovingChargers, AChargeByInitiativeIsTheLinedUpOne) {
  const Battlefield bf = with({cavalry_at_an_angle(), infantry_line_facing_south()});
  const Action a = initiative_action(bf, bf.units[0], bf.units[1], true, Settings{});
  ASSERT_EQ(a.moves.size(), 1u);
  const MoveAnswer m = check_move(bf, a.moves[0], Settings{});
  EXPECT_TRUE(m.verdict.legal());
  EXPECT_EQ(measure_charge_alignment(bf, placed(bf.units[0], a.moves[0]), "foot", 0.05).flush_stands, 3);
}

TEST(MovingChargers, AFlankChargeLinesUpOnTheFlankItStartsBeyond) {
  // Infantry facing south; cavalry level with it 20 cm off its right flank
  // (the infantry's right is west, -x), facing east toward it.
  const Battlefield bf = with({line_unit("horse", 0, 62, 60, 90, TroopType::Cavalry), infantry_line_facing_south()});
  const std::optional<MoveRequest> plan = plan_lined_up_charge(bf, bf.units[0], bf.units[1], Settings{});
  ASSERT_TRUE(plan.has_value());
  const ChargeAlignment al = measure_charge_alignment(bf, placed(bf.units[0], *plan), "foot", 0.05);
  ASSERT_GE(al.flush_with_target, 1);
  bool on_flank = false;
  for (const ChargeEdge& e : al.touching) on_flank = on_flank || (e.flush && std::string(e.enemy_edge) == "right flank");
  EXPECT_TRUE(on_flank);
}

}  // namespace moving_chargers_cases
