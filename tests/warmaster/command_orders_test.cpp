// Ordered movement through the game state: the test, the sequencing limits,
// failure, charges and flyers (command text, "Ordered movement").
#include <gtest/gtest.h>

#include "command_fixtures.hpp"

namespace referee::warmaster {
namespace {

using namespace testing;

// Side 0: A, B, C in line 30 cm apart at y = 20, facing north; General g
// (Command 9) and Hero h (Command 8). Side 1: E far away at y = 100.
Battlefield basic_field() {
  Battlefield bf = empty_field();
  bf.units.push_back(line_unit("A", 0, 30, 20));
  bf.units.push_back(line_unit("B", 0, 60, 20));
  bf.units.push_back(line_unit("C", 0, 90, 20));
  bf.units.push_back(line_unit("E", 1, 60, 100, 180));
  bf.characters.push_back(character("g", 0, CharacterRole::General, 9, 60, 14));
  bf.characters.push_back(character("h", 0, CharacterRole::Hero, 8, 30, 14));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 60, 110));
  return bf;
}

TEST(CommandOrders, PassedOrderAllowsFullPaceAndCountsFurtherOrders) {
  WarmasterState s(make_game(basic_field()));
  // B is 6 cm from g (no distance penalty): Command 9 needs 9.
  const auto q = s.ask_order("g", {"B"});
  EXPECT_TRUE(q.verdict.legal());
  EXPECT_EQ(q.target.needed, 9);
  const ActionOutcome o = play(s, order("g", {"B"}), {4, 5});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_TRUE(o.result["passed"].get<bool>());
  EXPECT_EQ(o.result["needed"], 9);
  ASSERT_EQ(o.rolls.size(), 2u);
  EXPECT_EQ(o.rolls[0].purpose, "order test");
  EXPECT_EQ(s.step(), CommandStep::Orders);
  ASSERT_TRUE(s.pending());
  EXPECT_EQ(*s.pending()->kind, MoveKind::Ordered);
  // Full pace for infantry in line: 20 cm.
  const ActionOutcome m = play(s, move({slide(unit(s, "B"), {0, 20})}));
  ASSERT_TRUE(m.verdict.legal()) << explain(m.verdict);
  EXPECT_DOUBLE_EQ(unit(s, "B").stands[1].pose.position.y, 40);
  // Second order: -1 further order (and now 26 cm from g: -1 distance).
  const auto q2 = s.ask_order("g", {"B"});
  EXPECT_EQ(q2.target.needed, 7);
  ASSERT_EQ(q2.target.penalties.size(), 2u);
  EXPECT_EQ(q2.target.penalties[1].rule, "warmaster.command.further_order");
  EXPECT_EQ(status(s, "B").orders, 1);
  EXPECT_EQ(status(s, "B").ordered_by, "g");
}

TEST(CommandOrders, AskingNeverChangesTheState) {
  WarmasterState s(make_game(basic_field()));
  const Json before = state_to_json(s);
  (void)s.ask_order("g", {"A"});
  (void)s.validate(order("g", {"A"}));
  (void)s.legal_actions();
  EXPECT_EQ(state_to_json(s), before);
}

TEST(CommandOrders, AtMostThreeOrdersInSuccession) {
  WarmasterState s(make_game(basic_field()));
  for (int k = 0; k < 3; ++k) {
    ASSERT_TRUE(play(s, order("g", {"B"}), {1, 1}).verdict.legal());
    ASSERT_TRUE(play(s, move({})).verdict.legal());
  }
  EXPECT_EQ(status(s, "B").orders, 3);
  expect_refused(s, order("g", {"B"}), "warmaster.command.three_orders");
}

TEST(CommandOrders, NoGoingBackToAUnitOnceAnotherHasMoved) {
  WarmasterState s(make_game(basic_field()));
  ASSERT_TRUE(play(s, order("g", {"A"}), {1, 1}).verdict.legal());
  ASSERT_TRUE(play(s, order("g", {"B"}), {1, 1}).verdict.legal());
  expect_refused(s, order("g", {"A"}), "warmaster.command.no_return");
}

TEST(CommandOrders, AnotherCharacterCannotOrderAUnitAlreadyOrdered) {
  WarmasterState s(make_game(basic_field()));
  ASSERT_TRUE(play(s, order("g", {"A"}), {1, 1}).verdict.legal());
  expect_refused(s, order("h", {"A"}), "warmaster.command.other_character");
}

TEST(CommandOrders, EvenAfterAFailedOrderAnotherCharacterCannotOrderTheUnit) {
  WarmasterState s(make_game(basic_field()));
  // h (Command 8) fails on A: 6 + 5 (a 12 would be a blunder).
  const ActionOutcome o = play(s, order("h", {"A"}), {6, 5});
  ASSERT_TRUE(o.verdict.legal());
  EXPECT_FALSE(o.result["passed"].get<bool>());
  expect_refused(s, order("g", {"A"}), "warmaster.command.other_character");
}

TEST(CommandOrders, ACharacterFinishesAllItsOrdersBeforeAnotherBegins) {
  WarmasterState s(make_game(basic_field()));
  ASSERT_TRUE(play(s, order("g", {"B"}), {1, 1}).verdict.legal());
  ASSERT_TRUE(play(s, order("h", {"A"}), {1, 1}).verdict.legal());
  expect_refused(s, order("g", {"C"}), "warmaster.command.character_sequence");
}

TEST(CommandOrders, AFailedCharacterIssuesNoMoreOrders) {
  WarmasterState s(make_game(basic_field()));
  ASSERT_TRUE(play(s, order("h", {"A"}), {5, 5}).verdict.legal());  // 10 > 8: fails
  EXPECT_TRUE(s.characters()[1].failed);
  expect_refused(s, order("h", {"C"}), "warmaster.command.character_failed");
  // The General may still give orders.
  EXPECT_TRUE(s.validate(order("g", {"C"})).legal());
}

TEST(CommandOrders, WhenTheGeneralFailsNobodyOrders) {
  WarmasterState s(make_game(basic_field()));
  ASSERT_TRUE(play(s, order("g", {"B"}), {6, 5}).verdict.legal());  // 11 > 9
  EXPECT_TRUE(s.general_failed());
  expect_refused(s, order("h", {"A"}), "warmaster.command.general_failed");
}

TEST(CommandOrders, FailedFirstOrderMovesHalfPaceWithoutCharging) {
  WarmasterState s(make_game(basic_field()));
  const ActionOutcome o = play(s, order("g", {"B"}), {6, 6});
  EXPECT_EQ(o.result["allows"], "half pace, no charge");
  ASSERT_TRUE(s.pending() && s.pending()->kind);
  EXPECT_EQ(*s.pending()->kind, MoveKind::HalfPace);
  // 15 cm is more than half of 20.
  const Action too_far = move({slide(unit(s, "B"), {0, 15})});
  EXPECT_FALSE(s.validate(too_far).legal());
  Action charge = move({slide(unit(s, "B"), {0, 5}, MoveKind::Charge)});
  expect_refused(s, charge, "warmaster.command.failed_charge");
  const ActionOutcome m = play(s, move({slide(unit(s, "B"), {0, 10})}));
  EXPECT_TRUE(m.verdict.legal()) << explain(m.verdict);
}

TEST(CommandOrders, FailedFirstOrderAllowsNoMoveUnderTheOlderReading) {
  Settings st;
  st.failed_first_order_moves_half_pace = false;
  WarmasterState s(make_game(basic_field(), st));
  const ActionOutcome o = play(s, order("g", {"B"}), {6, 6});
  EXPECT_EQ(o.result["allows"], "no move");
  expect_refused(s, move({slide(unit(s, "B"), {0, 5})}), "warmaster.command.failed_order");
}

TEST(CommandOrders, FailedFurtherOrderAllowsNoMove) {
  WarmasterState s(make_game(basic_field()));
  ASSERT_TRUE(play(s, order("g", {"B"}), {1, 1}).verdict.legal());
  ASSERT_TRUE(play(s, move({slide(unit(s, "B"), {0, 5})})).verdict.legal());
  const ActionOutcome o = play(s, order("g", {"B"}), {6, 6});
  EXPECT_EQ(o.result["allows"], "no move");
  expect_refused(s, move({slide(unit(s, "B"), {0, 5})}), "warmaster.command.failed_order");
}

TEST(CommandOrders, MovingWithoutAnOrderIsRefused) {
  WarmasterState s(make_game(basic_field()));
  expect_refused(s, move({slide(unit(s, "A"), {0, 5})}), "warmaster.command.no_order");
  ASSERT_TRUE(play(s, order("g", {"B"}), {1, 1}).verdict.legal());
  expect_refused(s, move({slide(unit(s, "A"), {0, 5})}), "warmaster.command.not_ordered");
}

TEST(CommandOrders, OrdersAfterOrderedMovementEndedAreRefused) {
  WarmasterState s(make_game(basic_field()));
  ASSERT_TRUE(play(s, simple(ActionType::EndOrders)).verdict.legal());
  expect_refused(s, order("g", {"A"}), "warmaster.command.phase");
}

TEST(CommandOrders, TheOtherSideCannotOrder) {
  WarmasterState s(make_game(basic_field()));
  expect_refused(s, order("g1", {"E"}), "warmaster.command.side");
}

// Engaged is contact (docs/rulings.md#warmaster-engaged): an enemy line
// whose front edge meets B's at y = 21 engages it; a flag alone does not.
TEST(CommandOrders, ConfusedAndEngagedUnitsCannotBeOrdered) {
  Battlefield bf = basic_field();
  bf.units[0].confused = true;
  bf.units[2].engaged = true;  // C: no enemy touches it, so the flag is set right
  bf.units.push_back(line_unit("E3", 1, 60, 22, 180));
  WarmasterState s(make_game(bf));
  EXPECT_TRUE(s.battlefield().units[1].engaged);
  EXPECT_FALSE(s.battlefield().units[2].engaged);
  EXPECT_EQ(s.engaged_units(), (std::vector<std::string>{"B", "E3"}));
  expect_refused(s, order("g", {"A"}), "warmaster.command.confused");
  expect_refused(s, order("g", {"B"}), "warmaster.command.engaged");
}

TEST(CommandOrders, EnemyWithin20cmAndCasualtiesAndDenseTerrain) {
  Battlefield bf = basic_field();
  // An enemy unit exactly 20 cm in front of C (front edge y = 21, enemy rear 41).
  bf.units.push_back(line_unit("E2", 1, 90, 42, 180));
  bf.units[2].stands_lost = 1;
  bf.units[2].stands.pop_back();
  bf.terrain.push_back(area("wood", TerrainKind::Wood, {{85, 15}, {95, 15}, {95, 25}, {85, 25}}));
  WarmasterState s(make_game(bf));
  // g at (60, 14) to C's nearest stand (x 86..90): 26 cm: -1; enemy -1; wood -1; one stand lost -1.
  const auto q = s.ask_order("g", {"C"});
  EXPECT_EQ(q.target.needed, 5);
  ASSERT_EQ(q.target.penalties.size(), 4u);
  EXPECT_EQ(q.target.penalties[0].rule, "warmaster.command.distance");
  EXPECT_EQ(q.target.penalties[1].rule, "warmaster.command.enemy_near");
  EXPECT_EQ(q.target.penalties[2].rule, "warmaster.command.dense");
  EXPECT_EQ(q.target.penalties[3].rule, "warmaster.command.casualties");
  EXPECT_EQ(q.target.chance.fraction(), "10/36");
}

TEST(CommandOrders, FirstTurnBonusOnEachCharactersFirstOrder) {
  Settings st;
  st.first_turn_command_bonus = true;
  WarmasterState s(make_game(basic_field(), st));
  EXPECT_EQ(s.ask_order("g", {"B"}).target.needed, 10);
  ASSERT_TRUE(play(s, order("g", {"B"}), {1, 1}).verdict.legal());
  EXPECT_EQ(s.ask_order("g", {"B"}).target.needed, 8);  // second order, no bonus
}

TEST(CommandOrders, AChargeEndsTheUnitsOrders) {
  Battlefield bf = basic_field();
  bf.units.push_back(line_unit("E2", 1, 90, 36, 180));  // 14 cm in front of C
  WarmasterState s(make_game(bf));
  ASSERT_TRUE(play(s, order("g", {"C"}), {1, 1}).verdict.legal());
  // Sliding 14 cm brings C's front edge (y 21) onto E2's (y 35).
  Action a = move({slide(unit(s, "C"), {0, 14}, MoveKind::Charge)});
  const ActionOutcome o = play(s, a);
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_TRUE(status(s, "C").charged);
  EXPECT_TRUE(unit(s, "C").engaged);
  expect_refused(s, order("g", {"C"}), "warmaster.command.charge_ends_orders");
}

TEST(CommandOrders, AMoveIntoContactMustBeACharge) {
  Battlefield bf = basic_field();
  bf.units.push_back(line_unit("E2", 1, 90, 36, 180));
  WarmasterState s(make_game(bf));
  ASSERT_TRUE(play(s, order("g", {"C"}), {1, 1}).verdict.legal());
  expect_refused(s, move({slide(unit(s, "C"), {0, 14})}), "warmaster.command.charge_contact");
}

TEST(CommandOrders, FlyersAreOrderedOnlyWithin20cmOfACharacter) {
  Battlefield bf = basic_field();
  bf.units.push_back(line_unit("F", 0, 150, 30, 0, TroopType::Flyer));
  bf.units.push_back(line_unit("F2", 0, 60, 30, 0, TroopType::Flyer));
  WarmasterState s(make_game(bf));
  expect_refused(s, order("g", {"F"}), "warmaster.command.flyer_range");
  EXPECT_TRUE(s.validate(order("g", {"F2"})).legal());
}

// Play sheet, "SEQUENCE: 1. Command 2. Shoot 3. Combat"; public facts, "Confusion":
// confused units "stop being confused at the end of their own Command phase".
TEST(CommandOrders, EndPhaseLeadsThroughShootingAndCombatToTheOtherSide) {
  Battlefield bf = basic_field();
  bf.units[0].confused = true;
  WarmasterState s(make_game(bf));
  ASSERT_TRUE(play(s, order("g", {"B"}), {1, 1}).verdict.legal());
  const ActionOutcome end_command = play(s, simple(ActionType::EndPhase));
  ASSERT_TRUE(end_command.verdict.legal());
  EXPECT_EQ(s.phase(), Phase::Shooting);
  EXPECT_EQ(s.side(), 0);
  EXPECT_FALSE(unit(s, "A").confused);
  EXPECT_EQ(end_command.result.at("recovered"), Json::array({"A"}));
  // Nothing of the Command phase is open any more, and the phase ends only by shooting.
  expect_refused(s, order("g", {"A"}), "warmaster.phase.sequence");
  expect_refused(s, simple(ActionType::EndOrders), "warmaster.phase.sequence");
  expect_refused(s, simple(ActionType::EndPhase), "warmaster.phase.sequence");
  ASSERT_TRUE(play(s, simple(ActionType::Shoot)).verdict.legal());
  EXPECT_EQ(s.phase(), Phase::Combat);
  expect_refused(s, simple(ActionType::Shoot), "warmaster.phase.sequence");
  ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
  EXPECT_EQ(s.phase(), Phase::Command);
  EXPECT_EQ(s.side(), 1);
  EXPECT_EQ(s.turn(), 1);
  EXPECT_EQ(status(s, "B").orders, 0);
  expect_refused(s, simple(ActionType::Shoot), "warmaster.phase.sequence");
  end_turn(s);
  EXPECT_EQ(s.side(), 0);
  EXPECT_EQ(s.turn(), 2);
}

TEST(CommandOrders, CharactersMoveAtTheEndWithNoTest) {
  WarmasterState s(make_game(basic_field()));
  Action cm;
  cm.type = ActionType::CharacterMove;
  cm.character = "g";
  MoveRequest r;
  r.mover = "g";
  r.kind = MoveKind::Character;
  StandPlan p;
  p.final_pose = Pose{{60, 60}, 0};  // 46 cm: within 60
  r.stands.push_back(p);
  cm.moves.push_back(r);
  expect_refused(s, cm, "warmaster.command.character_move");  // not yet: orders first
  ASSERT_TRUE(play(s, simple(ActionType::EndOrders)).verdict.legal());
  const ActionOutcome o = play(s, cm);
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_TRUE(s.characters()[0].moved);
  expect_refused(s, cm, "warmaster.command.character_move");  // once
}

}  // namespace
}  // namespace referee::warmaster
