// Rulings not exercised elsewhere, and the wording of reasons: figures built
// from the settings, and near misses printed with the digits that differ
// ("moved 20.004 cm > 20.000 cm", never "20.0 cm > 20.0 cm").
#include <gtest/gtest.h>

#include "command_fixtures.hpp"
#include "referee/warmaster/command/initiative.hpp"
#include "referee/warmaster/movement/movement.hpp"

namespace referee::warmaster {
namespace rule_coverage_test {

using namespace testing;

// U (side 0) faces E1 (side 1) 13 cm away; E2 is off to the side; F is a
// friend far from every enemy.
Battlefield field() {
  Battlefield bf = empty_field();
  bf.units.push_back(line_unit("U", 0, 60, 50));
  bf.units.push_back(line_unit("E1", 1, 60, 65, 180));
  bf.units.push_back(line_unit("E2", 1, 110, 60, 180));
  bf.units.push_back(line_unit("F", 0, 150, 20));
  bf.characters.push_back(character("g", 0, CharacterRole::General, 9, 60, 10));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 60, 110));
  return bf;
}

::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << part << "\"";
}

const Ruling* ruling_of(const Verdict& v, const std::string& rule) {
  for (const Ruling& r : v.violations)
    if (r.rule == rule) return &r;
  return nullptr;
}

TEST(WarmasterRuleCoverage, InitiativeOnceATurn) {
  WarmasterState s(make_game(field()));
  ASSERT_TRUE(play(s, initiative("U", false, "E1")).verdict.legal());
  expect_refused(s, initiative("U", false, "E1"), "warmaster.initiative.once");
}

TEST(WarmasterRuleCoverage, InitiativeTargetsAnEnemy) {
  WarmasterState s(make_game(field()));
  expect_refused(s, initiative("U", true, "F"), "warmaster.initiative.target");
}

TEST(WarmasterRuleCoverage, AnInitiativeChargeNeedsItsMove) {
  WarmasterState s(make_game(field()));
  expect_refused(s, initiative("U", true, "E1"), "warmaster.initiative.charge");
}

TEST(WarmasterRuleCoverage, TheEvadersNearestStandMovesFirst) {
  WarmasterState s(make_game(field()));
  const EvadeLine line = evade_line(unit(s, "U"), unit(s, "E1"));
  MoveRequest m = slide(unit(s, "U"), {0, -12}, MoveKind::Evade);
  m.order = {StandIndex((line.stand.value() + 1) % 3), line.stand, StandIndex((line.stand.value() + 2) % 3)};
  expect_refused(s, initiative("U", false, "E1", {m}), "warmaster.initiative.evade_order");
  // The same slide with the nearest stand first is legal.
  m.order = {line.stand, StandIndex((line.stand.value() + 1) % 3), StandIndex((line.stand.value() + 2) % 3)};
  EXPECT_TRUE(s.validate(initiative("U", false, "E1", {m})).legal());
}

TEST(WarmasterRuleCoverage, BurstThroughOnlyFriendlyUnengagedUnits) {
  WarmasterState s(make_game(field()));
  Action a = initiative("U", false, "E1", {slide(unit(s, "U"), {0, -12}, MoveKind::Evade)});
  a.burst_through = {"E2"};
  expect_refused(s, a, "warmaster.initiative.burst_through");
  const Verdict v = s.validate(a);
  const Ruling* r = ruling_of(v, "warmaster.initiative.burst_through");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->reason, "unit U can burst through friendly unengaged units only, not E2");
}

TEST(WarmasterRuleCoverage, UnknownUnitsAreRefusedByName) {
  WarmasterState s(make_game(field()));
  expect_refused(s, order("g", {"nobody"}), "warmaster.command.unknown");
  EXPECT_EQ(ruling_of(s.validate(order("g", {"nobody"})), "warmaster.command.unknown")->reason, "no unit \"nobody\"");
}

TEST(WarmasterRuleCoverage, AUnitOffTheTableCannotBeOrdered) {
  // T stands 2 cm from the south edge facing it; a 5 cm move takes it off,
  // and a roll of 2 keeps it off until its side's next turn.
  Battlefield bf = field();
  bf.units.push_back(line_unit("T", 0, 120, 3, 180));
  bf.characters[0].pose.position = {120, 12};
  WarmasterState s(make_game(bf));
  ASSERT_TRUE(play(s, order("g", {"T"}), {1, 1}).verdict.legal());
  ASSERT_TRUE(play(s, move({slide(unit(s, "T"), {0, -5})}), {2}).verdict.legal());
  ASSERT_TRUE(status(s, "T").off_table);
  expect_refused(s, order("g", {"T"}), "warmaster.command.off_table");
}

TEST(WarmasterRuleCoverage, AnOrderAllowsOnlyItsKindOfMove) {
  WarmasterState s(make_game(field()));
  ASSERT_TRUE(play(s, order("g", {"F"}), {1, 1}).verdict.legal());
  expect_refused(s, move({slide(unit(s, "F"), {0, 5}, MoveKind::Evade)}), "warmaster.command.move_kind");
}

Action character_move(const std::string& id, Pose to, const std::string& join) {
  Action cm;
  cm.type = ActionType::CharacterMove;
  cm.character = id;
  cm.join = join;
  MoveRequest r;
  r.mover = id;
  r.kind = MoveKind::Character;
  StandPlan p;
  p.final_pose = to;
  r.stands.push_back(p);
  cm.moves.push_back(r);
  return cm;
}

TEST(WarmasterRuleCoverage, ACharacterJoinsAFriendlyUnitItTouches) {
  WarmasterState s(make_game(field()));
  ASSERT_TRUE(play(s, simple(ActionType::EndOrders)).verdict.legal());
  expect_refused(s, character_move("g", Pose{{60, 30}, 0}, "E1"), "warmaster.command.join");
  // U's rear edge is at y = 49 and g's base is 2.5 cm across: a centre at
  // y = 47.69 leaves 0.06 cm, just beyond the 0.05 cm contact tolerance.
  const Action near = character_move("g", Pose{{60, 47.69}, 0}, "U");
  expect_refused(s, near, "warmaster.command.join");
  EXPECT_EQ(ruling_of(s.validate(near), "warmaster.command.join")->reason,
            "g must end touching unit U to join it (0.06 cm away; touching means within 0.05 cm)");
  EXPECT_TRUE(s.validate(character_move("g", Pose{{60, 47.75}, 0}, "U")).legal());
}

TEST(WarmasterRuleCoverage, AMachineWithoutAPaceCannotMove) {
  Battlefield bf = field();
  Unit m = line_unit("engine", 0, 20, 20, 0, TroopType::Machine);
  m.machine_pace = 0;
  bf.units.push_back(m);
  const MoveAnswer a = check_move(bf, slide(m, {0, 5}), Settings{});
  const Ruling* r = ruling_of(a.verdict, "warmaster.movement.pace");
  ASSERT_NE(r, nullptr) << explain(a.verdict);
  EXPECT_EQ(r->reason, "machine 'engine' has no pace in its data");
}

// --- Reasons ----------------------------------------------------------------

TEST(WarmasterRuleCoverage, ANearMissOnDistanceShowsDistinctFigures) {
  // 20.004 cm is beyond the 0.001 cm slack over infantry's 20 cm.
  Battlefield bf = empty_field();
  bf.units.push_back(line_unit("U", 0, 60, 50));
  const MoveAnswer a = check_move(bf, slide(bf.units[0], {0, 20.004}), Settings{});
  const Ruling* r = ruling_of(a.verdict, "warmaster.movement.distance");
  ASSERT_NE(r, nullptr) << explain(a.verdict);
  EXPECT_TRUE(contains(r->reason, "corner moved 20.004 cm > 20.000 cm (infantry, line, full pace)"));
  // A clear excess keeps one decimal.
  const MoveAnswer b = check_move(bf, slide(bf.units[0], {0, 21.4}), Settings{});
  EXPECT_TRUE(contains(ruling_of(b.verdict, "warmaster.movement.distance")->reason, "moved 21.4 cm > 20.0 cm"));
}

TEST(WarmasterRuleCoverage, ANearMissOnTheFlyerRangeShowsDistinctFigures) {
  // A flyer whose nearest stand edge is 20.004 cm from the General's base.
  Battlefield bf = field();
  Unit fl = line_unit("hawks", 0, 100, 40, 0, TroopType::Flyer);
  bf.units.push_back(fl);
  // Stands 2 cm wide, 4 deep, centred at y = 40: rear edge y = 38. The
  // General's 2.5 cm base: centre at y = 38 - 1.25 - 20.004.
  bf.characters[0].pose.position = {100, 38 - 1.25 - 20.004};
  WarmasterState s(make_game(bf));
  expect_refused(s, order("g", {"hawks"}), "warmaster.command.flyer_range");
  EXPECT_EQ(ruling_of(s.validate(order("g", {"hawks"})), "warmaster.command.flyer_range")->reason,
            "flying unit hawks is 20.004 cm from the nearest friendly character: flyers are ordered only within 20.000 cm");
}

TEST(WarmasterRuleCoverage, TheFormationMessageNamesTheContactToleranceSetting) {
  // Stand 3 of a line stands 0.08 cm off its neighbour at the end of a move.
  Battlefield bf = empty_field();
  bf.units.push_back(line_unit("U", 0, 60, 50));
  MoveRequest m = slide(bf.units[0], {0, 5});
  m.stands[2].final_pose.position.x += 0.08;
  const MoveAnswer plain = check_move(bf, m, Settings{});
  const Ruling* r = ruling_of(plain.verdict, "warmaster.movement.formation");
  ASSERT_NE(r, nullptr) << explain(plain.verdict);
  EXPECT_TRUE(contains(r->reason, "(nearest: stand 2, 0.8 mm away; touching means within 0.5 mm)"));
  Settings loose;
  loose.contact_tolerance = 0.1;
  EXPECT_FALSE(check_move(bf, m, loose).verdict.has("warmaster.movement.formation"));
  Settings tight;
  tight.contact_tolerance = 0.07;
  EXPECT_TRUE(contains(ruling_of(check_move(bf, m, tight).verdict, "warmaster.movement.formation")->reason,
                       "(nearest: stand 2, 0.8 mm away; touching means within 0.7 mm)"));
}

}  // namespace rule_coverage_test
}  // namespace referee::warmaster
