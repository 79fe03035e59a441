// Leader movement, attaching and detaching (ancients.leader.*), including the
// text's own worked example (the Order Three Units Center play note).
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace referee::ancients {
namespace {

using namespace testing;

std::vector<Destination> leader_dests(const Battle& b, const Position& p, const std::string& id) {
  PathScratch s;
  std::vector<Destination> out;
  leader_destinations(b, p, b.find_leader(id), s, out);
  return out;
}

TEST(AncientsLeader, ALoneLeaderMovesOneToThreeHexes) {
  Battle b = make_battle({}, {{{"id", "L"}, {"side", 0}, {"at", {6, 4}}}});
  EXPECT_EQ(leader_dests(b, Position::initial(b), "L").size(), 36u);
  Verdict v = check_leader_move(b, Position::initial(b), 0, {6, 0});
  ASSERT_EQ(rules_of(v), std::vector<std::string>{"ancients.leader.allowance"});
  EXPECT_EQ(v.violations[0].figures[0].value, 4);
}

TEST(AncientsLeader, PassesThroughFriendsNeverThroughEnemiesNorEndsOnAFriendlyLeader) {
  // Leader at 6,6; a wall of friendly units on row 5 (5,5 6,5) and of enemies on the
  // other side (7,6, 5,6). Friendly leader at 6,4.
  Battle b = make_battle({unit("f1", "heavy_infantry", 0, 5, 5), unit("f2", "heavy_infantry", 0, 6, 5),
                          unit("e1", "heavy_infantry", 1, 7, 6), unit("e2", "heavy_infantry", 1, 5, 6)},
                         {{{"id", "L"}, {"side", 0}, {"at", {6, 6}}}, {{"id", "M"}, {"side", 0}, {"at", {6, 4}}},
                          {{"id", "E"}, {"side", 1}, {"at", {6, 7}}}});
  Position p = Position::initial(b);
  auto ds = leader_dests(b, p, "L");
  EXPECT_TRUE(find_dest(ds, hex(b, 6, 5)));    // onto a friendly unit: he attaches
  EXPECT_TRUE(find_dest(ds, hex(b, 6, 3)));    // through the friendly leader's hex, 3 hexes
  EXPECT_FALSE(find_dest(ds, hex(b, 6, 4)));   // not onto the friendly leader
  EXPECT_FALSE(find_dest(ds, hex(b, 7, 6)));   // never onto an enemy unit
  EXPECT_FALSE(find_dest(ds, hex(b, 6, 7)));   // nor an enemy leader
  EXPECT_EQ(rules_of(check_leader_move(b, p, 0, {6, 4})), std::vector<std::string>{"ancients.leader.one_per_hex"});
  EXPECT_EQ(rules_of(check_leader_move(b, p, 0, {7, 6})), std::vector<std::string>{"ancients.leader.blocked"});
  EXPECT_EQ(rules_of(check_leader_move(b, p, 0, {6, 7})), std::vector<std::string>{"ancients.leader.blocked"});
  // 6,8 lies 2 hexes away, and 5,7 / 6,7 below him are an empty hex and an enemy leader:
  // the route through 5,7 is open.
  EXPECT_TRUE(find_dest(ds, hex(b, 6, 8)));
}

TEST(AncientsLeader, NeverLeavesTheBoard) {
  Battle b = make_battle({}, {{{"id", "L"}, {"side", 0}, {"at", {0, 8}}}});
  Verdict v = check_leader_move(b, Position::initial(b), 0, {0, 9});
  EXPECT_EQ(rules_of(v), std::vector<std::string>{"ancients.leader.off_board"});
}

// The play note: Order Three Units Center orders a heavy infantry unit, its
// attached leader and a heavy cavalry unit. The cavalry moves first, adjacent
// to an enemy; the leader detaches from the infantry and joins the cavalry,
// where he stops; the infantry moves third. The cavalry and leader may battle.
struct WorkedExample : ::testing::Test {
  Battle b = make_battle({unit("hi", "heavy_infantry", 0, 6, 6), unit("hc", "heavy_cavalry", 0, 7, 6),
                          unit("enemy", "medium_infantry", 1, 7, 4)},
                         {{{"id", "L"}, {"side", 0}, {"attached_to", "hi"}}});
  AncientsState s = AncientsState::initial(b);

  Verdict act(const nlohmann::json& j) {
    Action a = parse_action(j, b, "action");
    Verdict v = validate(b, s, a);
    if (v.legal()) apply(b, s, a);
    return v;
  }
};

TEST_F(WorkedExample, CavalryThenLeaderThenInfantry) {
  ASSERT_TRUE(act({{"type", "play_card"}, {"card", "order-three-center"}}).legal());
  ASSERT_TRUE(act({{"type", "order"}, {"units", {"hi", "hc"}}, {"leaders", {"L"}}}).legal());
  // Heavy cavalry moves adjacent to the enemy at 7,4: 7,6 -> 7,5 (one hex).
  ASSERT_TRUE(act({{"type", "move"}, {"unit", "hc"}, {"to", {7, 5}}}).legal());
  EXPECT_EQ(s.position.leader_of(b.find_unit("hi")), 0);  // the leader stayed with the infantry
  // The leader detaches from the unmoved infantry and joins the cavalry.
  ASSERT_TRUE(act({{"type", "move"}, {"leader", "L"}, {"to", {7, 5}}}).legal());
  EXPECT_EQ(s.position.leaders[0].attached, b.find_unit("hc"));
  EXPECT_EQ(s.position.leader_of(b.find_unit("hi")), -1);
  // The infantry moves third, alone.
  ASSERT_TRUE(act({{"type", "move"}, {"unit", "hi"}, {"to", {6, 5}}}).legal());
  EXPECT_EQ(s.position.leaders[0].hex, hex(b, 7, 5));
  // The cavalry and its new leader may battle; the infantry is adjacent to the enemy and may too.
  EXPECT_TRUE(s.position.units[static_cast<std::size_t>(b.find_unit("hc"))].may_battle);
  EXPECT_TRUE(s.position.units[static_cast<std::size_t>(b.find_unit("hi"))].may_battle);
  EXPECT_TRUE(b.board.adjacent(hex(b, 6, 5), hex(b, 7, 4)));
}

TEST_F(WorkedExample, HadTheInfantryMovedSecondTheLeaderWentWithItAndCouldNotDetach) {
  ASSERT_TRUE(act({{"type", "play_card"}, {"card", "order-three-center"}}).legal());
  ASSERT_TRUE(act({{"type", "order"}, {"units", {"hi", "hc"}}, {"leaders", {"L"}}}).legal());
  ASSERT_TRUE(act({{"type", "move"}, {"unit", "hc"}, {"to", {7, 5}}}).legal());
  ASSERT_TRUE(act({{"type", "move"}, {"unit", "hi"}, {"to", {6, 5}}}).legal());
  EXPECT_EQ(s.position.leaders[0].hex, hex(b, 6, 5));  // required to move with it
  Verdict v = act({{"type", "move"}, {"leader", "L"}, {"to", {7, 5}}});
  ASSERT_EQ(rules_of(v), std::vector<std::string>{"ancients.leader.detach_after_move"});
}

TEST_F(WorkedExample, ALeaderJoiningAnUnmovedUnitStopsItButItMayStillBattle) {
  ASSERT_TRUE(act({{"type", "play_card"}, {"card", "order-three-center"}}).legal());
  ASSERT_TRUE(act({{"type", "order"}, {"units", {"hc"}}, {"leaders", {"L"}}}).legal());
  ASSERT_TRUE(act({{"type", "move"}, {"leader", "L"}, {"to", {7, 6}}}).legal());  // joins the unmoved cavalry
  Verdict v = act({{"type", "move"}, {"unit", "hc"}, {"to", {7, 5}}});
  ASSERT_EQ(rules_of(v), std::vector<std::string>{"ancients.leader.attach_stops"});
  EXPECT_TRUE(s.position.units[static_cast<std::size_t>(b.find_unit("hc"))].may_battle);
}

TEST_F(WorkedExample, AnAttachedLeaderNeedsHisOwnOrderToDetach) {
  ASSERT_TRUE(act({{"type", "play_card"}, {"card", "order-three-center"}}).legal());
  ASSERT_TRUE(act({{"type", "order"}, {"units", {"hi"}}}).legal());
  Verdict v = act({{"type", "move"}, {"leader", "L"}, {"to", {5, 5}}});
  ASSERT_EQ(rules_of(v), std::vector<std::string>{"ancients.order.not_ordered"});
  // One order moves both unit and leader.
  ASSERT_TRUE(act({{"type", "move"}, {"unit", "hi"}, {"to", {6, 5}}}).legal());
  EXPECT_EQ(s.position.leaders[0].hex, hex(b, 6, 5));
}

TEST_F(WorkedExample, NoDetachingUnderLeadership) {
  ASSERT_TRUE(act({{"type", "play_card"}, {"card", "leadership-any-section"}}).legal());
  ASSERT_TRUE(act({{"type", "order"}, {"units", {"hi", "hc"}}, {"leaders", {"L"}}}).legal());
  Verdict v = act({{"type", "move"}, {"leader", "L"}, {"to", {7, 6}}});
  ASSERT_EQ(rules_of(v), std::vector<std::string>{"ancients.leader.detach_card"});
}

TEST_F(WorkedExample, NoDetachingUnderOrderLightTroopsButYesUnderMountedTroops) {
  OrderPlan light = plan_orders(b, s.position, 0, b.find_card("order-light-troops"), 4);
  Verdict v = check_orders(b, s.position, light, {{true, 0}});
  ASSERT_EQ(rules_of(v), std::vector<std::string>{"ancients.leader.detach_card"});
  OrderPlan mounted = plan_orders(b, s.position, 0, b.find_card("order-mounted-troops"), 4);
  EXPECT_TRUE(check_orders(b, s.position, mounted, {{true, 0}, {false, 1}}).legal());
  OrderPlan spartacus = plan_orders(b, s.position, 0, b.find_card("i-am-spartacus"), 4);
  EXPECT_TRUE(check_orders(b, s.position, spartacus, {{true, 0}}).legal());
}

TEST_F(WorkedExample, IAmSpartacusOrdersTheCommandInLeadersOrTheirUnits) {
  // Command 4 (the hand, counting the card played): four orders, leaders may detach.
  OrderPlan spartacus = plan_orders(b, s.position, 0, b.find_card("i-am-spartacus"), 4);
  EXPECT_EQ(spartacus.rule, "ancients.card.spartacus");
  EXPECT_EQ(spartacus.total, 4);
  EXPECT_EQ(spartacus.reason.find("I am Spartacus orders 4 leaders or units with attached leaders"), 0u) << spartacus.reason;
}

}  // namespace
}  // namespace referee::ancients
