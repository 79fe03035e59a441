// The Shooting phase (play sheet, "2. SHOOTING"; shooting.hpp), with
// scripted dice so each figure is worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "referee/core/dice.hpp"
#include "referee/core/errors.hpp"
#include "referee/warmaster/shooting/shooting.hpp"
#include "warmaster_test_fields.hpp"

using namespace referee;
using namespace referee::warmaster;
using namespace referee::warmaster::testing;

namespace {

// Archers (side 0) in line at y = 30 facing north; Orcs (side 1) in line
// facing south with their front edge `gap` cm from the archers' front edge.
Battlefield duel(double gap = 20) {
  Battlefield bf = empty_field();
  Unit archers = infantry("archers", 0, {{{46, 30}, 0}, {{50, 30}, 0}, {{54, 30}, 0}});
  archers.attacks = 1;
  archers.hits = 3;
  archers.missile = Missile::Bow;
  bf.units.push_back(archers);
  const double y = 31 + gap + 1;
  Unit orcs = infantry("orcs", 1, {{{46, y}, 180}, {{50, y}, 180}, {{54, y}, 180}});
  orcs.attacks = 3;
  orcs.hits = 3;
  orcs.armour = 6;
  bf.units.push_back(orcs);
  return bf;
}

bool has_rule(const ShootingResult& r, const std::string& id) {
  for (const Ruling& x : r.rulings)
    if (x.rule == id) return true;
  return false;
}

}  // namespace

// "Score to Hit: Target in the open 4, 5 or 6 / defended 5 or 6 / fortified 6".
TEST(Shooting, ScoreToHitFollowsThePosition) {
  EXPECT_EQ(to_hit(Position::Open), 4);
  EXPECT_EQ(to_hit(Position::Defended), 5);
  EXPECT_EQ(to_hit(Position::Fortified), 6);
}

// "Infantry in woods, villages, broken ground, or behind low obstacles are
// defended. Infantry behind high obstacles are fortified."
// (docs/rulings.md#warmaster-shooting-position)
TEST(Shooting, PositionFromTerrain) {
  Battlefield bf = duel();
  const Unit& orcs = bf.units[1];
  EXPECT_EQ(position_of(bf, orcs).position, Position::Open);
  // A wood under two of the three stands (x 44-52): defended.
  bf.terrain.push_back(area("wood-1", TerrainKind::Wood, {{40, 50}, {51, 50}, {51, 60}, {40, 60}}));
  PositionAnswer p = position_of(bf, orcs);
  EXPECT_EQ(p.position, Position::Defended) << p.reason;
  EXPECT_NE(p.reason.find("2 of its 3 stands in wood-1"), std::string::npos) << p.reason;
  // Under one stand only: in the open.
  bf.terrain[0] = area("wood-1", TerrainKind::Wood, {{40, 50}, {47, 50}, {47, 60}, {40, 60}});
  EXPECT_EQ(position_of(bf, orcs).position, Position::Open);
  // A hedge 0.5 cm in front of the whole line (the orcs face south, y down): defended.
  Battlefield hedge = duel();
  hedge.terrain.push_back(area("hedge-1", TerrainKind::LowObstacle, {{40, 50.2}, {60, 50.2}, {60, 50.7}, {40, 50.7}}));
  EXPECT_EQ(position_of(hedge, hedge.units[1]).position, Position::Defended);
  // The same hedge behind their backs does not cover them.
  Battlefield back = duel();
  back.terrain.push_back(area("hedge-1", TerrainKind::LowObstacle, {{40, 53.3}, {60, 53.3}, {60, 53.8}, {40, 53.8}}));
  EXPECT_EQ(position_of(back, back.units[1]).position, Position::Open);
  // A wall in front: fortified.
  Battlefield wall = duel();
  wall.terrain.push_back(area("wall-1", TerrainKind::HighObstacle, {{40, 50.2}, {60, 50.2}, {60, 50.7}, {40, 50.7}}));
  EXPECT_EQ(position_of(wall, wall.units[1]).position, Position::Fortified);
  // Only infantry take positions.
  Battlefield cav = duel();
  cav.terrain.push_back(area("wood-1", TerrainKind::Wood, {{40, 50}, {60, 50}, {60, 60}, {40, 60}}));
  cav.units[1].type = TroopType::Cavalry;
  EXPECT_EQ(position_of(cav, cav.units[1]).position, Position::Open);
  Battlefield fort = duel();
  fort.units[1].fortified = true;
  EXPECT_EQ(position_of(fort, fort.units[1]).position, Position::Fortified);
}

// "Units shoot at the closest enemy within range": bows 30 cm.
TEST(Shooting, TheClosestEnemyInSightWithinRange) {
  Battlefield bf = duel(20);
  auto t = shooting_targets(bf, 0);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].target, "orcs");
  EXPECT_NEAR(t[0].distance, 20.0, 1e-9);
  EXPECT_EQ(t[0].rulings.back().rule, "warmaster.shooting.target");
  // 30.0 cm is within range; 30.1 is not.
  EXPECT_EQ(shooting_targets(duel(30.0), 0)[0].target, "orcs");
  auto far = shooting_targets(duel(30.1), 0);
  EXPECT_TRUE(far[0].target.empty());
  EXPECT_EQ(far[0].rulings.back().rule, "warmaster.shooting.no_target");
  // A closer enemy unit wins; the orcs have no missile weapon, so they never shoot.
  Battlefield two = duel(25);
  two.units.push_back(infantry("goblins", 1, {{{80, 42}, 180}}));
  EXPECT_EQ(shooting_targets(two, 0)[0].target, "goblins");
  EXPECT_TRUE(shooting_targets(two, 1).empty());
  // "Units engaged in combat cannot shoot": engaged is worked out from the
  // stands (docs/rulings.md#warmaster-engaged). An enemy stand against the
  // archers' right flank (x 56): they do not shoot.
  Battlefield engaged = duel();
  engaged.units.push_back(infantry("flankers", 1, {{{57, 30}, 90}}));
  const auto held = shooting_targets(engaged, 0);
  EXPECT_TRUE(held[0].target.empty());
  EXPECT_EQ(held[0].rulings.back().rule, "warmaster.shooting.engaged");
  EXPECT_NE(held[0].rulings.back().reason.find("engaged in combat with flankers"), std::string::npos)
      << held[0].rulings.back().reason;
  // A flag with no enemy stand touching is not contact: they shoot.
  Battlefield flagged = duel();
  flagged.units[0].engaged = true;
  EXPECT_EQ(shooting_targets(flagged, 0)[0].target, "orcs");
}

// The play sheet's range table has no handgun: ours shoots 30 cm, as
// crossbows, and is otherwise the same (docs/rulings.md#warmaster-shooting-handguns).
// The rulings name the weapon the unit carries.
TEST(Shooting, HandgunsShootThirtyCentimetresAsCrossbows) {
  EXPECT_EQ(missile_range(Missile::Handgun), 30.0);
  EXPECT_EQ(missile_range(Missile::Handgun), missile_range(Missile::Crossbow));
  EXPECT_EQ(std::string(to_string(Missile::Handgun)), "handgun");
  EXPECT_EQ(missile_from_string("handgun").value_or(Missile::None), Missile::Handgun);
  Battlefield bf = duel(30.0);
  bf.units[0].missile = Missile::Handgun;
  const auto in = shooting_targets(bf, 0);
  ASSERT_EQ(in.size(), 1u);
  EXPECT_EQ(in[0].target, "orcs");
  EXPECT_NE(in[0].rulings.back().reason.find("within its handgun's range of 30.0 cm"), std::string::npos) << in[0].rulings.back().reason;
  Battlefield far = duel(30.1);
  far.units[0].missile = Missile::Handgun;
  EXPECT_TRUE(shooting_targets(far, 0)[0].target.empty());
}

// Three archer stands of 1 Attack at orcs in the open with a 6+ save:
// to hit 4, 6, 2 (two hits on 4+), saves 6 (saved) and 3 (not): one unsaved
// hit. No stand is lost (Hits 3), the odd hit is discounted, and the orcs are
// driven back one D6: a 4, so 4 cm straight north, away from the archers.
TEST(Shooting, OneUnsavedHitDrivesBackOneDie) {
  Battlefield bf = duel();
  ScriptedDice dice({4, 6, 2, 6, 3, 4});
  ShootingResult r = resolve_shooting(bf, 0, dice);
  ASSERT_EQ(r.shots.size(), 1u);
  EXPECT_EQ(r.shots[0].hits, 2);
  EXPECT_EQ(r.shots[0].unsaved, 1);
  ASSERT_EQ(r.casualties.size(), 1u);
  EXPECT_EQ(r.casualties[0].stands_removed, 0);
  EXPECT_EQ(r.casualties[0].discounted, 1);
  ASSERT_EQ(r.drive_backs.size(), 1u);
  EXPECT_EQ(r.drive_backs[0].total, 4);
  EXPECT_FALSE(r.drive_backs[0].confused);
  const Unit& orcs = *r.after.find_unit("orcs");
  EXPECT_NEAR(orcs.stands[1].pose.position.x, 50, 1e-9);
  EXPECT_NEAR(orcs.stands[1].pose.position.y, 52 + 4, 1e-9);
  EXPECT_FALSE(orcs.confused);
  EXPECT_EQ(dice.remaining(), 0u);
  EXPECT_TRUE(has_rule(r, "warmaster.shooting.hits"));
  EXPECT_TRUE(has_rule(r, "warmaster.shooting.casualties"));
  EXPECT_TRUE(has_rule(r, "warmaster.shooting.drive_back"));
}

// "Units are confused if any Drive Back dice roll a 6."
TEST(Shooting, ASixConfuses) {
  Battlefield bf = duel();
  bf.units[1].armour = 0;  // no save: every hit counts
  ScriptedDice dice({5, 1, 1, 6});
  ShootingResult r = resolve_shooting(bf, 0, dice);
  ASSERT_EQ(r.drive_backs.size(), 1u);
  EXPECT_EQ(r.drive_backs[0].total, 6);
  EXPECT_TRUE(r.drive_backs[0].confused);
  EXPECT_TRUE(r.after.find_unit("orcs")->confused);
}

// "A stand is removed for every Hits value of unsaved hits": 4 unsaved hits
// on Hits 3 remove one stand (the one furthest from the archers is one of the
// line's ends at equal distance: the first found), one hit is discounted; the
// drive back is still 4 dice, "D6cm per hit", and 6+6+5+3 = 20 cm is the
// orcs' full pace: "Units driven back by the full pace move or more are routed."
TEST(Shooting, CasualtiesAndRout) {
  Battlefield bf = duel();
  bf.units[0].attacks = 2;  // 6 dice
  bf.units[1].armour = 0;
  ScriptedDice dice({4, 5, 6, 4, 1, 1, 6, 6, 5, 3});
  ShootingResult r = resolve_shooting(bf, 0, dice);
  ASSERT_EQ(r.casualties.size(), 1u);
  EXPECT_EQ(r.casualties[0].unsaved, 4);
  EXPECT_EQ(r.casualties[0].stands_removed, 1);
  EXPECT_EQ(r.casualties[0].discounted, 1);
  ASSERT_EQ(r.drive_backs.size(), 1u);
  EXPECT_EQ(r.drive_backs[0].dice, 4);
  EXPECT_EQ(r.drive_backs[0].total, 20);
  EXPECT_TRUE(r.drive_backs[0].routed);
  EXPECT_TRUE(has_rule(r, "warmaster.shooting.rout"));
  EXPECT_EQ(r.after.find_unit("orcs"), nullptr);
  // 19 cm is short of the full pace: not routed, and it keeps 2 stands.
  ScriptedDice less({4, 5, 6, 4, 1, 1, 6, 6, 4, 3});
  ShootingResult s = resolve_shooting(bf, 0, less);
  EXPECT_FALSE(s.drive_backs[0].routed);
  ASSERT_NE(s.after.find_unit("orcs"), nullptr);
  EXPECT_EQ(s.after.find_unit("orcs")->stands.size(), 2u);
  EXPECT_EQ(s.after.find_unit("orcs")->stands_lost, 1);
}

// Defended: hits on 5+ and "-1 dice if Defended".
TEST(Shooting, DefendedTargetsAreHarderToHitAndDriveBack) {
  Battlefield bf = duel();
  bf.units[1].armour = 0;
  bf.terrain.push_back(area("wood-1", TerrainKind::Wood, {{40, 50}, {60, 50}, {60, 56}, {40, 56}}));
  ScriptedDice more({4, 5, 6, 3});  // 4 misses on 5+: two hits, one drive-back die
  ShootingResult r = resolve_shooting(bf, 0, more);
  EXPECT_EQ(r.shots[0].needed, 5);
  EXPECT_EQ(r.shots[0].hits, 2);
  ASSERT_EQ(r.drive_backs.size(), 1u);
  EXPECT_EQ(r.drive_backs[0].dice, 1);
  EXPECT_EQ(r.drive_backs[0].total, 3);
}

// "If they are driven back into impassable terrain ... they may become
// confused": a deep river 2 cm behind the orcs stops a 5 cm drive back.
TEST(Shooting, ADriveBackCutShortStopsAndConfuses) {
  Battlefield bf = duel();
  bf.units[1].armour = 0;
  bf.terrain.push_back(area("river-1", TerrainKind::DeepRiver, {{30, 55}, {70, 55}, {70, 60}, {30, 60}}));
  ScriptedDice dice({4, 1, 1, 5});
  ShootingResult r = resolve_shooting(bf, 0, dice);
  ASSERT_EQ(r.drive_backs.size(), 1u);
  EXPECT_TRUE(r.drive_backs[0].blocked);
  EXPECT_TRUE(r.drive_backs[0].confused);
  // The orcs' rear edge (y 53) reaches the river (y 55) after 2 cm, and may
  // go 0.05 cm further, touching it within the contact tolerance.
  EXPECT_NEAR(r.drive_backs[0].moved, 2.04, 0.015);
  EXPECT_LE(r.drive_backs[0].moved, 2.05 + 1e-9);
  EXPECT_TRUE(has_rule(r, "warmaster.shooting.blocked"));
}

// Troops driven back by missile fire over the table edge leave the table and
// roll on the chart: a 6, no stands lost: it may return and move.
TEST(Shooting, DrivenOffTheTableRollsOnTheChart) {
  Battlefield bf = duel(20);
  bf.height = 55;  // the orcs' rear edge at y 53, the edge at 55
  bf.units[1].armour = 0;
  ScriptedDice dice({4, 1, 1, 3, 6});
  ShootingResult r = resolve_shooting(bf, 0, dice);
  ASSERT_EQ(r.drive_backs.size(), 1u);
  EXPECT_TRUE(r.drive_backs[0].left_table);
  ASSERT_TRUE(r.drive_backs[0].off_table.has_value());
  EXPECT_EQ(r.drive_backs[0].off_table->roll, 6);
  EXPECT_EQ(r.after.find_unit("orcs"), nullptr);
}

TEST(Shooting, JoinedCharactersMoveWithTheirUnit) {
  Battlefield bf = duel();
  Character hero;
  hero.id = "boss";
  hero.side = 1;
  hero.pose = {{50, 54.5}, 180};
  hero.joined_unit = "orcs";
  bf.characters.push_back(hero);
  ScriptedDice dice({4, 1, 1, 1, 5});  // one hit, save failed on a 1, drive back 5
  ShootingResult r = resolve_shooting(bf, 0, dice);
  EXPECT_NEAR(r.after.find_character("boss")->pose.position.y, 59.5, 1e-9);
}

// Three dice at 4+ with a 4+ save: each die is an unsaved hit with chance
// 3/6 x 3/6 = 9/36 = 1/4. P(none) = (27/36)^3 = 19683/46656 = 27/64; at
// least one: 37/64. Three unsaved hits remove a Hits-3 stand: 729/46656 = 1/64.
TEST(Shooting, ExactOdds) {
  ShootingOddsRequest q;
  q.attacks = 3;
  q.position = Position::Open;
  q.armour = 4;
  q.hits = 3;
  q.stands = 3;
  q.pace = 20;
  ShootingOdds o = shooting_odds(q);
  EXPECT_DOUBLE_EQ(o.p_unsaved, 0.25);
  ASSERT_EQ(o.rows.size(), 4u);
  EXPECT_EQ(o.rows[0].fraction, "19683/46656");
  EXPECT_DOUBLE_EQ(o.rows[0].chance, 27.0 / 64);
  EXPECT_EQ(o.rows[3].fraction, "729/46656");
  EXPECT_DOUBLE_EQ(o.any_stand_removed, 1.0 / 64);
  EXPECT_NEAR(o.mean_unsaved, 0.75, 1e-12);
  // One unsaved hit: one die, confused on a 6 (1/6); 3 dice can never make 20 cm.
  EXPECT_NEAR(o.rows[1].confused, 1.0 / 6, 1e-12);
  EXPECT_EQ(o.rows[3].routed, 0.0);
  // Against a 10 cm pace (artillery), 3 dice rout on 10 or more: 135/216.
  q.pace = 10;
  q.hits = 4;
  EXPECT_NEAR(shooting_odds(q).rows[3].routed, 135.0 / 216, 1e-12);
  // Defended: hits on 5+, one die fewer.
  q.position = Position::Defended;
  q.armour = 0;
  ShootingOdds d = shooting_odds(q);
  EXPECT_NEAR(d.p_unsaved, 2.0 / 6, 1e-12);
  EXPECT_EQ(d.rows[1].drive_back_dice, 0);
  EXPECT_EQ(d.rows[3].drive_back_dice, 2);
  // Bad requests name the field.
  q.armour = 7;
  try {
    shooting_odds(q);
    ADD_FAILURE() << "armour 7 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("armour"), std::string::npos);
  }
}
