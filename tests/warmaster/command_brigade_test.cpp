// Brigades, home back and the table edge (command text, "Brigades"; play
// sheet, "Home Back"; movement text, "Units which move off the table").
#include <gtest/gtest.h>

#include "command_fixtures.hpp"

namespace referee::warmaster {
namespace {

using namespace testing;

// P, Q, R touch side by side (x 24..60 at y = 20); S stands alone at x 74..86.
// The General g (Command 9) is at (80, 14).
Battlefield brigade_field() {
  Battlefield bf = empty_field();
  bf.units.push_back(line_unit("P", 0, 30, 20));
  bf.units.push_back(line_unit("Q", 0, 42, 20));
  bf.units.push_back(line_unit("R", 0, 54, 20));
  bf.units.push_back(line_unit("S", 0, 80, 20));
  bf.units.push_back(line_unit("E", 1, 60, 110, 180));
  bf.characters.push_back(character("g", 0, CharacterRole::General, 9, 80, 14));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 60, 116));
  return bf;
}

TEST(Brigade, OneTestMeasuredToTheMostDistantUnit) {
  WarmasterState s(make_game(brigade_field()));
  // R alone: 19.4 cm from g, no penalty. P is 43 cm away: -2 for the brigade.
  EXPECT_EQ(s.ask_order("g", {"R"}).target.needed, 9);
  const auto q = s.ask_order("g", {"P", "Q", "R"});
  EXPECT_TRUE(q.verdict.legal()) << explain(q.verdict);
  EXPECT_EQ(q.target.needed, 7);
  EXPECT_GT(q.factors.distance, 40.0);
  EXPECT_LE(q.factors.distance, 60.0);
}

TEST(Brigade, EachPenaltyOnceAndCasualtiesFromTheUnitThatLostMost) {
  Battlefield bf = brigade_field();
  bf.units[0].stands_lost = 1;  // P
  bf.units[1].stands_lost = 2;  // Q
  bf.terrain.push_back(area("wood", TerrainKind::Wood, {{20, 15}, {60, 15}, {60, 25}, {20, 25}}));
  WarmasterState s(make_game(bf));
  const auto q = s.ask_order("g", {"P", "Q", "R"});
  // 9 - 2 (distance) - 1 (dense, once for three units) - 2 (Q lost most) = 4.
  EXPECT_EQ(q.target.needed, 4);
  EXPECT_EQ(q.factors.stands_lost, 2);
}

TEST(Brigade, MovesAsABodyAndMustEndTouching) {
  WarmasterState s(make_game(brigade_field()));
  ASSERT_TRUE(play(s, order("g", {"P", "Q", "R"}), {1, 1}).verdict.legal());
  // P and Q move on, R stays: R no longer touches.
  expect_refused(s, move({slide(unit(s, "P"), {0, 10}), slide(unit(s, "Q"), {0, 10})}),
                 "warmaster.command.brigade_touching");
  const ActionOutcome o =
      play(s, move({slide(unit(s, "P"), {0, 10}), slide(unit(s, "Q"), {0, 10}), slide(unit(s, "R"), {0, 10})}));
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  for (const char* id : {"P", "Q", "R"}) {
    EXPECT_EQ(status(s, id).orders, 1);
    EXPECT_DOUBLE_EQ(unit(s, id).stands[0].pose.position.y, 30.0);
  }
}

// Command text, "Brigades": "Any units in a brigade that wish to charge do not
// have to remain in touch with the rest of the brigade as a whole... Units
// which do not charge still have to end their move touching." T (side 1)
// stands 18 cm in front of R (T x 48..60, y 39..41; R's front edge y = 21).
TEST(Brigade, AUnitChargingOutOfTheBrigadeLeavesItTheOthersStillTouch) {
  Battlefield bf = brigade_field();
  bf.units.push_back(line_unit("T", 1, 54, 40, 180));
  WarmasterState s(make_game(bf));
  ASSERT_TRUE(play(s, order("g", {"P", "Q", "R"}), {1, 1}).verdict.legal());
  MoveRequest charge = slide(unit(s, "R"), {0, 18}, MoveKind::Charge);
  charge.charge_target = "T";
  // P moves on, Q stays: the two that did not charge no longer touch.
  expect_refused(s, move({slide(unit(s, "P"), {0, 10}), charge}),
                 "warmaster.command.brigade_touching");
  // P and Q advance 10 cm side by side, still touching; R leaves them to charge.
  const ActionOutcome o = play(s, move({slide(unit(s, "P"), {0, 10}), slide(unit(s, "Q"), {0, 10}), charge}));
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_TRUE(status(s, "R").charged);
  EXPECT_TRUE(unit(s, "R").engaged);
  EXPECT_TRUE(unit(s, "T").engaged);
  EXPECT_FALSE(status(s, "P").charged);
  EXPECT_DOUBLE_EQ(unit(s, "P").stands[0].pose.position.y, 30.0);
  EXPECT_DOUBLE_EQ(unit(s, "R").stands[0].pose.position.y, 38.0);
}

// The board's charge by dragging out of a brigade sends the charging unit's
// move alone: the others stay where they stood, still touching, and may not
// move after it (one move action per order).
TEST(Brigade, AUnitChargingOutAloneLeavesTheOthersWhereTheyStood) {
  Battlefield bf = brigade_field();
  bf.units.push_back(line_unit("T", 1, 54, 40, 180));
  WarmasterState s(make_game(bf));
  ASSERT_TRUE(play(s, order("g", {"P", "Q", "R"}), {1, 1}).verdict.legal());
  const double p_y = unit(s, "P").stands[0].pose.position.y;
  MoveRequest charge = slide(unit(s, "R"), {0, 18}, MoveKind::Charge);
  charge.charge_target = "T";
  const ActionOutcome o = play(s, move({charge}));
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_TRUE(unit(s, "T").engaged);
  EXPECT_DOUBLE_EQ(unit(s, "P").stands[0].pose.position.y, p_y);
  expect_refused(s, move({slide(unit(s, "P"), {0, 10}), slide(unit(s, "Q"), {0, 10})}), "warmaster.command.no_order");
}

TEST(Brigade, AtMostFourUnits) {
  Battlefield bf = brigade_field();
  bf.units.push_back(line_unit("T", 0, 66, 20));  // touches R
  bf.units.push_back(line_unit("V", 0, 18, 20));  // touches P
  WarmasterState s(make_game(bf));
  expect_refused(s, order("g", {"V", "P", "Q", "R", "T"}), "warmaster.command.brigade_size");
  EXPECT_TRUE(s.validate(order("g", {"P", "Q", "R", "T"})).legal());
}

TEST(Brigade, UnitsNotTouchingAreNoBrigade) {
  WarmasterState s(make_game(brigade_field()));
  expect_refused(s, order("g", {"R", "S"}), "warmaster.command.brigade_formed");
  expect_refused(s, order("g", {"P", "R"}), "warmaster.command.brigade_formed");
}

TEST(Brigade, ABrigadeFormedDuringThePhaseCannotMoveAsOne) {
  WarmasterState s(make_game(brigade_field()));
  ASSERT_TRUE(play(s, order("g", {"S"}), {1, 1}).verdict.legal());
  // S slides 14 cm west to touch R.
  ASSERT_TRUE(play(s, move({slide(unit(s, "S"), {-14, 0})})).verdict.legal());
  expect_refused(s, order("g", {"R", "S"}), "warmaster.command.brigade_formed");
}

TEST(Brigade, FurtherOrdersToAPartThenTheOtherPart) {
  WarmasterState s(make_game(brigade_field()));
  ASSERT_TRUE(play(s, order("g", {"P", "Q", "R"}), {1, 1}).verdict.legal());
  ASSERT_TRUE(play(s, move({slide(unit(s, "P"), {0, 5}), slide(unit(s, "Q"), {0, 5}), slide(unit(s, "R"), {0, 5})}))
                  .verdict.legal());
  // Part A = {P}: a further order carries the -1.
  const auto q = s.ask_order("g", {"P"});
  EXPECT_TRUE(q.verdict.legal()) << explain(q.verdict);
  ASSERT_FALSE(q.target.penalties.empty());
  EXPECT_EQ(q.target.penalties.back().rule, "warmaster.command.further_order");
  ASSERT_TRUE(play(s, order("g", {"P"}), {1, 1}).verdict.legal());
  // Part B = {Q, R}.
  ASSERT_TRUE(play(s, order("g", {"Q", "R"}), {1, 1}).verdict.legal());
  // A is finished once B has moved.
  expect_refused(s, order("g", {"P"}), "warmaster.command.no_return");
}

TEST(Brigade, FinishTheBrigadeBeforeMixingInOtherUnits) {
  WarmasterState s(make_game(brigade_field()));
  ASSERT_TRUE(play(s, order("g", {"Q", "R"}), {1, 1}).verdict.legal());
  expect_refused(s, order("g", {"R", "S"}), "warmaster.command.brigade_finish");
  // The reason names the units actually in the brigade, and the one that is not.
  const auto asked = s.ask_order("g", {"R", "S"});
  ASSERT_FALSE(asked.verdict.legal());
  EXPECT_NE(explain(asked.verdict).find("unit R belongs to the brigade being ordered (Q, R) but S does not"),
            std::string::npos)
      << explain(asked.verdict);
  // Ordering another unit ends the brigade's orders.
  ASSERT_TRUE(play(s, order("g", {"S"}), {1, 1}).verdict.legal());
  expect_refused(s, order("g", {"Q"}), "warmaster.command.no_return");
}

TEST(Brigade, AFailedFirstBrigadeOrderMovesTheWholeBrigadeAtHalfPace) {
  WarmasterState s(make_game(brigade_field()));
  const ActionOutcome o = play(s, order("g", {"P", "Q", "R"}), {6, 6});
  EXPECT_EQ(o.result["allows"], "half pace, no charge");
  EXPECT_EQ(status(s, "P").orders, 1);
  EXPECT_EQ(status(s, "R").orders, 1);
  const ActionOutcome m =
      play(s, move({slide(unit(s, "P"), {0, 10}), slide(unit(s, "Q"), {0, 10}), slide(unit(s, "R"), {0, 10})}));
  EXPECT_TRUE(m.verdict.legal()) << explain(m.verdict);
}

// --- Home back -------------------------------------------------------------------

Battlefield flyer_field() {
  Battlefield bf = brigade_field();
  bf.units.push_back(line_unit("F", 0, 150, 40, 0, TroopType::Flyer));
  return bf;
}

Vec2 toward_g(const Unit& f, double d) { return normalized(Vec2{80, 14} - f.stands[1].pose.position) * d; }

TEST(HomeBack, FlyerFarFromCharactersHomesBackTenTimesD6) {
  WarmasterState s(make_game(flyer_field()));
  Action hb;
  hb.type = ActionType::HomeBack;
  hb.unit = "F";
  hb.character = "g";
  const ActionOutcome o = play(s, hb, {3});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_EQ(o.result["distance"], 30.0);
  ASSERT_TRUE(s.pending());
  // Moving away from the character is not homing back.
  expect_refused(s, move({slide(unit(s, "F"), -toward_g(unit(s, "F"), 20), MoveKind::Dice)}),
                 "warmaster.command.home_back");
  const ActionOutcome m = play(s, move({slide(unit(s, "F"), toward_g(unit(s, "F"), 29.9), MoveKind::Dice)}));
  ASSERT_TRUE(m.verdict.legal()) << explain(m.verdict);
  EXPECT_TRUE(status(s, "F").homed_back);
  // Still more than 20 cm away, it cannot be ordered (but it may be, once close).
  expect_refused(s, order("g", {"F"}), "warmaster.command.flyer_range");
  expect_refused(s, hb, "warmaster.command.home_back");  // once
}

TEST(HomeBack, OnlyBeforeOrdersAndOnlyWhenFar) {
  Battlefield bf = flyer_field();
  bf.units.push_back(line_unit("F2", 0, 80, 30, 0, TroopType::Flyer));
  WarmasterState s(make_game(bf));
  Action hb;
  hb.type = ActionType::HomeBack;
  hb.unit = "F2";
  hb.character = "g";
  expect_refused(s, hb, "warmaster.command.home_back");  // 14 cm from g
  ASSERT_TRUE(play(s, order("g", {"S"}), {1, 1}).verdict.legal());
  hb.unit = "F";
  expect_refused(s, hb, "warmaster.command.home_back");  // orders have begun
}

// --- Off the table ------------------------------------------------------------------

Battlefield edge_field() {
  Battlefield bf = brigade_field();
  bf.units.push_back(line_unit("T", 0, 120, 3, 180));  // facing south, stands y 2..4
  bf.characters[0].pose.position = {120, 12};
  return bf;
}

TEST(OffTable, ARollOfOneOrTwoRollsAgainNextTurn) {
  WarmasterState s(make_game(edge_field()));
  ASSERT_TRUE(play(s, order("g", {"T"}), {1, 1}).verdict.legal());
  const ActionOutcome m = play(s, move({slide(unit(s, "T"), {0, -5})}), {2});
  ASSERT_TRUE(m.verdict.legal()) << explain(m.verdict);
  ASSERT_TRUE(m.result.contains("off_table"));
  EXPECT_EQ(m.result["off_table"][0]["outcome"], to_string(OffTableOutcome::GoneRollNextTurn));
  EXPECT_TRUE(status(s, "T").off_table);
  EXPECT_TRUE(unit(s, "T").stands.empty());
  end_turn(s);
  end_turn(s);
  EXPECT_TRUE(status(s, "T").returns_next_turn);
  // It rolls before anything else moves.
  expect_refused(s, order("g", {"S"}), "warmaster.command.off_table_return");
  Action ret;
  ret.type = ActionType::OffTableReturn;
  ret.unit = "T";
  const ActionOutcome r = play(s, ret, {6});
  ASSERT_TRUE(r.verdict.legal()) << explain(r.verdict);
  EXPECT_FALSE(status(s, "T").off_table);
  ASSERT_EQ(unit(s, "T").stands.size(), 3u);
  // Back at the point it left, pushed just onto the table: y from 0 to 2.
  EXPECT_NEAR(unit(s, "T").stands[0].pose.position.y, 1.0, 1e-9);
  EXPECT_NEAR(unit(s, "T").stands[0].pose.position.x, 124.0, 1e-9);
  EXPECT_TRUE(s.validate(order("g", {"T"})).legal());  // 5-6 at the start of a turn: moves as normal
}

TEST(OffTable, ThreeOrFourReturnsButCannotMove) {
  WarmasterState s(make_game(edge_field()));
  ASSERT_TRUE(play(s, order("g", {"T"}), {1, 1}).verdict.legal());
  ASSERT_TRUE(play(s, move({slide(unit(s, "T"), {0, -5})}), {4}).verdict.legal());
  EXPECT_TRUE(status(s, "T").frozen);
  EXPECT_EQ(unit(s, "T").stands.size(), 3u);
  expect_refused(s, order("g", {"T"}), "warmaster.command.returned");
}

TEST(OffTable, CasualtiesCountAgainstTheRoll) {
  Battlefield bf = edge_field();
  bf.units.back().stands_lost = 1;
  WarmasterState s(make_game(bf));
  ASSERT_TRUE(play(s, order("g", {"T"}), {1, 1}).verdict.legal());
  const ActionOutcome m = play(s, move({slide(unit(s, "T"), {0, -5})}), {1});
  EXPECT_EQ(m.result["off_table"][0]["modified"], 0);
  EXPECT_TRUE(status(s, "T").destroyed);
}

// Movement text, "Units which move off the table": "Characters who are on
// their own must roll in the unlikely event that they leave the table", on the
// same D6 chart. Reading (warmaster.command.character_lost): 1-2 and the
// character is off the table, issuing no orders, and rolls again at the start
// of its side's next turn; 3-6 and it is back at once where it crossed the
// edge, its 2.5 cm base wholly on the table.
Action hero_walks_off(const std::string& id) {
  Action cm;
  cm.type = ActionType::CharacterMove;
  cm.character = id;
  MoveRequest r;
  r.mover = id;
  r.kind = MoveKind::Character;
  StandPlan p;
  p.final_pose = Pose{{30, -2}, 180};  // from (30, 8): 10 cm south, ending 2 cm beyond the edge
  r.stands.push_back(p);
  cm.moves.push_back(r);
  return cm;
}

Battlefield hero_field(CharacterRole role) {
  Battlefield bf = brigade_field();
  bf.characters.push_back(character("h", 0, role, 8, 30, 8));
  return bf;
}

TEST(OffTable, ACharacterOnItsOwnRollingOneOrTwoIsOffTheTableUntilItRollsBack) {
  for (CharacterRole role : {CharacterRole::Hero, CharacterRole::Wizard})
    for (int roll : {1, 2}) {
      WarmasterState s(make_game(hero_field(role)));
      ASSERT_TRUE(play(s, simple(ActionType::EndOrders)).verdict.legal());
      const ActionOutcome o = play(s, hero_walks_off("h"), {roll});
      ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
      EXPECT_EQ(o.result["off_table"]["roll"], roll);
      EXPECT_EQ(o.result["off_table"]["outcome"], to_string(OffTableOutcome::GoneRollNextTurn));
      EXPECT_EQ(o.result["off_table"]["lost"], true);
      EXPECT_FALSE(s.battle_over());  // only the General's loss ends the battle
      EXPECT_TRUE(state_to_json(s)["characters"][2]["lost"].get<bool>());
      end_turn(s);
      // The other side's phase: nothing waits on the hero.
      EXPECT_FALSE(s.characters()[2].returns_next_turn);
      end_turn(s);
      // Its side's next phase: the roll comes before anything else.
      EXPECT_TRUE(s.characters()[2].returns_next_turn);
      expect_refused(s, order("g", {"S"}), "warmaster.command.off_table_return");
      expect_refused(s, order("h", {"P"}), "warmaster.command.character_lost");
      const std::vector<Action> legal = s.legal_actions();
      ASSERT_EQ(legal.size(), 1u);
      EXPECT_EQ(legal[0].type, ActionType::OffTableReturn);
      EXPECT_EQ(legal[0].character, "h");
      // Another 1-2: still off the table; it gives no orders and does not move.
      const ActionOutcome again = play(s, legal[0], {roll});
      ASSERT_TRUE(again.verdict.legal()) << explain(again.verdict);
      EXPECT_EQ(again.result["outcome"], to_string(OffTableOutcome::GoneRollNextTurn));
      EXPECT_TRUE(s.characters()[2].lost);
      expect_refused(s, order("h", {"P"}), "warmaster.command.character_lost");
      for (const Action& a : s.legal_actions()) EXPECT_NE(a.character, "h");
      ASSERT_TRUE(play(s, order("g", {"S"}), {1, 1}).verdict.legal());  // the General still commands
      ASSERT_TRUE(play(s, simple(ActionType::EndOrders)).verdict.legal());
      expect_refused(s, hero_walks_off("h"), "warmaster.command.character_lost");
    }
}

// Back on a later turn: where it crossed the edge. On 3-4 it may give orders
// but makes no move that turn; on 5-6 it may also move.
TEST(OffTable, ACharacterOffTheTableComesBackOnALaterRollOfThreeOrMore) {
  for (int roll : {3, 4, 5, 6}) {
    WarmasterState s(make_game(hero_field(CharacterRole::Hero)));
    ASSERT_TRUE(play(s, simple(ActionType::EndOrders)).verdict.legal());
    ASSERT_TRUE(play(s, hero_walks_off("h"), {2}).verdict.legal());
    end_turn(s);
    end_turn(s);
    Action back;
    back.type = ActionType::OffTableReturn;
    back.character = "h";
    const ActionOutcome o = play(s, back, {roll});
    ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
    EXPECT_EQ(o.result["roll"], roll);
    const Character h = *s.battlefield().find_character("h");
    EXPECT_DOUBLE_EQ(h.pose.position.x, 30.0);
    EXPECT_DOUBLE_EQ(h.pose.position.y, 1.25);
    EXPECT_FALSE(s.characters()[2].lost);
    EXPECT_TRUE(s.validate(order("h", {"P"})).legal());
    ASSERT_TRUE(play(s, simple(ActionType::EndOrders)).verdict.legal());
    Action step = character_move(h, Pose{{30, 6}, 0});
    if (roll <= 4) {
      expect_refused(s, step, "warmaster.command.returned");
    } else {
      EXPECT_TRUE(play(s, step).verdict.legal());
    }
    // Rolling again is refused: it is no longer waiting.
    expect_refused(s, back, "warmaster.command.off_table_return");
  }
}

// While it is off the table, flyers neither home back on it nor count it
// for the 20 cm an order to a flyer needs.
TEST(OffTable, AFlyerCannotUseACharacterThatIsOffTheTable) {
  Battlefield bf = hero_field(CharacterRole::Hero);
  bf.characters[0].pose.position = {170, 110};  // the General far away
  Unit flyer = line_unit("F", 0, 15, 20);
  flyer.type = TroopType::Flyer;
  flyer.stands.resize(2);
  bf.units.push_back(flyer);
  WarmasterState s(make_game(bf));
  EXPECT_TRUE(s.validate(order("g", {"F"})).legal());  // the hero is within 20 cm
  ASSERT_TRUE(play(s, simple(ActionType::EndOrders)).verdict.legal());
  ASSERT_TRUE(play(s, hero_walks_off("h"), {1}).verdict.legal());
  end_turn(s);
  end_turn(s);
  Action back;
  back.type = ActionType::OffTableReturn;
  back.character = "h";
  ASSERT_TRUE(play(s, back, {1}).verdict.legal());
  expect_refused(s, order("g", {"F"}), "warmaster.command.flyer_range");
  Action home;
  home.type = ActionType::HomeBack;
  home.unit = "F";
  home.character = "h";
  expect_refused(s, home, "warmaster.command.character_lost");
}

TEST(OffTable, ACharacterOnItsOwnRollingThreeToSixComesBackWhereItLeft) {
  for (CharacterRole role : {CharacterRole::Hero, CharacterRole::Wizard})
    for (int roll : {3, 4, 5, 6}) {
      WarmasterState s(make_game(hero_field(role)));
      ASSERT_TRUE(play(s, simple(ActionType::EndOrders)).verdict.legal());
      const ActionOutcome o = play(s, hero_walks_off("h"), {roll});
      ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
      EXPECT_EQ(o.result["off_table"]["roll"], roll);
      EXPECT_FALSE(o.result["off_table"].contains("lost"));
      const Character& h = *s.battlefield().find_character("h");
      EXPECT_DOUBLE_EQ(h.pose.position.x, 30.0);
      EXPECT_DOUBLE_EQ(h.pose.position.y, 1.25);  // the base's edge on the table edge
      EXPECT_EQ(state_to_json(s)["characters"][2]["lost"], false);
      end_turn(s);
      end_turn(s);
      EXPECT_TRUE(s.validate(order("h", {"P"})).legal());
    }
}

TEST(OffTable, TheGeneralLeavingEndsTheBattle) {
  Battlefield bf = brigade_field();
  bf.characters[0].pose.position = {80, 3};
  WarmasterState s(make_game(bf));
  ASSERT_TRUE(play(s, simple(ActionType::EndOrders)).verdict.legal());
  Action cm;
  cm.type = ActionType::CharacterMove;
  cm.character = "g";
  MoveRequest r;
  r.mover = "g";
  r.kind = MoveKind::Character;
  StandPlan p;
  p.final_pose = Pose{{80, -2}, 180};
  r.stands.push_back(p);
  cm.moves.push_back(r);
  const ActionOutcome o = play(s, cm, {2});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_TRUE(s.battle_over());
  expect_refused(s, simple(ActionType::EndPhase), "warmaster.command.battle_over");
}

}  // namespace
}  // namespace referee::warmaster
