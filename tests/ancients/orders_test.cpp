// Command cards (ancients.card.*) and ordering (ancients.order.*).
#include <gtest/gtest.h>

#include "referee/ancients/orders.hpp"
#include "test_support.hpp"

namespace referee::ancients {
namespace {

using namespace testing;

std::vector<std::string> unit_ids(const Battle& b, const OrderPlan& p) {
  std::vector<std::string> ids;
  for (int u : p.units) ids.push_back(b.units[static_cast<std::size_t>(u)].id);
  return ids;
}

TEST(AncientsCards, OrderThreeUnitsCenterInTheBundledBattle) {
  Battle b = load_scenario("centre_clash.json");
  Position p = Position::initial(b);
  OrderPlan plan = plan_orders(b, p, 0, b.find_card("order-three-center"), 5);
  EXPECT_EQ(plan.total, 3);
  EXPECT_EQ(unit_ids(b, plan), (std::vector<std::string>{"a_mi1", "a_hi1", "a_hc1", "a_hi2", "a_hi3", "a_wm1"}));
  ASSERT_EQ(plan.leaders.size(), 2u);  // caesar may detach, labienus is alone
  EXPECT_EQ(plan.quota, (std::array<int, 3>{0, 3, 0}));
}

TEST(AncientsCards, AUnitOnADottedLineMayBeOrderedFromEitherSection) {
  Battle b = make_battle({unit("line", "heavy_infantry", 0, 4, 6), unit("l1", "heavy_infantry", 0, 2, 6),
                          unit("l2", "heavy_infantry", 0, 3, 6), unit("r1", "heavy_infantry", 0, 10, 6)});
  Position p = Position::initial(b);
  OrderPlan left = plan_orders(b, p, 0, b.find_card("order-two-left"), 4);
  OrderPlan centre = plan_orders(b, p, 0, b.find_card("order-three-center"), 4);
  EXPECT_EQ(unit_ids(b, left), (std::vector<std::string>{"line", "l1", "l2"}));
  EXPECT_EQ(unit_ids(b, centre), (std::vector<std::string>{"line"}));
  // Coordinated advance: one per section. line -> centre, l1 -> left, r1 -> right fits;
  // line, l1 and l2 cannot (two of them need the one left order).
  OrderPlan ca = plan_orders(b, p, 0, b.find_card("coordinated-advance"), 4);
  EXPECT_TRUE(check_orders(b, p, ca, {{false, 0}, {false, 1}, {false, 3}}).legal());
  Verdict v = check_orders(b, p, ca, {{false, 0}, {false, 1}, {false, 2}});
  EXPECT_EQ(rules_of(v), std::vector<std::string>{"ancients.card.section"});
}

TEST(AncientsCards, SectionsAreNamedFromEachPlayersOwnSeat) {
  Battle b = make_battle({unit("east", "heavy_infantry", 1, 10, 2), unit("west", "heavy_infantry", 1, 1, 2)});
  Position p = Position::initial(b);
  OrderPlan left = plan_orders(b, p, 1, b.find_card("order-two-left"), 2);
  EXPECT_EQ(unit_ids(b, left), std::vector<std::string>{"east"});  // side 1's left is the board's right
  Verdict v = check_orders(b, p, left, {{false, 1}});
  EXPECT_EQ(rules_of(v), std::vector<std::string>{"ancients.card.eligible"});
}

TEST(AncientsCards, TroopCardsOrderAsManyAsTheCommand) {
  Battle b = load_scenario("centre_clash.json");
  Position p = Position::initial(b);
  OrderPlan light = plan_orders(b, p, 0, b.find_card("order-light-troops"), 5);
  EXPECT_EQ(light.total, 5);
  EXPECT_TRUE(light.move.light_pass_through);
  EXPECT_EQ(unit_ids(b, light), (std::vector<std::string>{"a_li1", "a_ls1", "a_aux1", "a_lb1", "a_lc1", "a_ch1"}));
  OrderPlan medium = plan_orders(b, p, 0, b.find_card("order-medium-troops"), 5);
  EXPECT_EQ(unit_ids(b, medium), (std::vector<std::string>{"a_mi1", "a_mc1", "a_cam1"}));
  OrderPlan heavy = plan_orders(b, p, 0, b.find_card("order-heavy-troops"), 5);
  EXPECT_EQ(unit_ids(b, heavy), (std::vector<std::string>{"a_hi1", "a_hc1", "a_hi2", "a_hi3", "a_wm1", "a_el1"}));
  OrderPlan mounted = plan_orders(b, p, 0, b.find_card("order-mounted-troops"), 5);
  EXPECT_EQ(unit_ids(b, mounted), (std::vector<std::string>{"a_hc1", "a_mc1", "a_lc1", "a_el1", "a_ch1", "a_cam1"}));
  // Six light units, five orders.
  std::vector<OrderItem> six;
  for (int u : light.units) six.push_back({false, u});
  Verdict v = check_orders(b, p, light, six);
  ASSERT_EQ(rules_of(v), std::vector<std::string>{"ancients.card.count"});
  EXPECT_EQ(v.violations[0].figures[0].value, 6);
  EXPECT_EQ(v.violations[0].figures[1].value, 5);
  six.pop_back();
  EXPECT_TRUE(check_orders(b, p, light, six).legal());
  // Medium infantry is not light.
  EXPECT_EQ(rules_of(check_orders(b, p, light, {{false, b.find_unit("a_mi1")}})),
            std::vector<std::string>{"ancients.card.eligible"});
}

TEST(AncientsCards, NoUnitOfTheKindMeansOneUnitOfChoice) {
  Battle b = make_battle({unit("hi", "heavy_infantry", 0, 6, 6), unit("mi", "medium_infantry", 0, 2, 6)});
  Position p = Position::initial(b);
  OrderPlan plan = plan_orders(b, p, 0, b.find_card("order-light-troops"), 4);
  EXPECT_TRUE(plan.fallback);
  EXPECT_EQ(plan.total, 1);
  EXPECT_EQ(unit_ids(b, plan), (std::vector<std::string>{"hi", "mi"}));
  EXPECT_EQ(rules_of(check_orders(b, p, plan, {{false, 0}, {false, 1}})), std::vector<std::string>{"ancients.card.count"});
}

TEST(AncientsCards, LeadershipOrdersThroughOneLeaderAndALinkedChain) {
  // Leader L attached to a at 6,6; b at 7,6 touches him; c at 8,6 touches b; d at 2,6 is far.
  Battle b = make_battle({unit("a", "heavy_infantry", 0, 6, 6), unit("b", "heavy_infantry", 0, 7, 6),
                          unit("c", "heavy_infantry", 0, 8, 6), unit("d", "heavy_infantry", 0, 2, 6)},
                         {{{"id", "L"}, {"side", 0}, {"attached_to", "a"}}, {{"id", "M"}, {"side", 0}, {"at", {2, 2}}}});
  Position p = Position::initial(b);
  OrderPlan plan = plan_orders(b, p, 0, b.find_card("leadership-any-section"), 4);
  EXPECT_EQ(unit_ids(b, plan), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(check_orders(b, p, plan, {{true, 0}, {false, 0}, {false, 1}, {false, 2}}).legal());
  // c without b is not linked to the leader.
  Verdict gap = check_orders(b, p, plan, {{true, 0}, {false, 2}});
  EXPECT_EQ(rules_of(gap), std::vector<std::string>{"ancients.card.leadership"});
  // Through one leader only.
  Verdict two = check_orders(b, p, plan, {{true, 0}, {true, 1}});
  EXPECT_EQ(rules_of(two), std::vector<std::string>{"ancients.card.leadership"});
  // d is not linked at all.
  EXPECT_EQ(rules_of(check_orders(b, p, plan, {{true, 0}, {false, 3}})), std::vector<std::string>{"ancients.card.eligible"});
}

TEST(AncientsCards, AScenarioCanAddACard) {
  Battle b = load_scenario("river_crossing.json");
  int card = b.find_card("flank-attack");
  ASSERT_GE(card, 0);
  Position p = Position::initial(b);
  OrderPlan plan = plan_orders(b, p, 0, card, 4);
  EXPECT_EQ(plan.total, 2);
  // 11-column board, lines at 3 and 7: r_mc1 at 0,6 is left, r_lc1 at 9,6 right.
  EXPECT_TRUE(check_orders(b, p, plan, {{false, b.find_unit("r_mc1")}, {false, b.find_unit("r_lc1")}}).legal());
  EXPECT_EQ(rules_of(check_orders(b, p, plan, {{false, b.find_unit("r_aux1")}})),
            std::vector<std::string>{"ancients.card.eligible"});
}

struct Turn : ::testing::Test {
  Battle b = make_battle({unit("hi", "heavy_infantry", 0, 6, 6), unit("mi", "medium_infantry", 0, 5, 6),
                          unit("enemy", "medium_infantry", 1, 6, 2)});
  AncientsState s = AncientsState::initial(b);
  Verdict act(const nlohmann::json& j) {
    Action a = parse_action(j, b, "action");
    AncientsState before = s;
    Verdict v = validate(b, s, a);
    EXPECT_EQ(before.position, s.position);  // validation never changes the state
    if (v.legal()) apply(b, s, a);
    return v;
  }
};

TEST_F(Turn, TheCardMustBeInHandAndPlayedOnce) {
  EXPECT_EQ(rules_of(act({{"type", "play_card"}, {"card", "order-four-center"}})),
            std::vector<std::string>{"ancients.card.not_in_hand"});
  EXPECT_EQ(rules_of(act({{"type", "order"}, {"units", {"hi"}}})), std::vector<std::string>{"ancients.order.sequence"});
  ASSERT_TRUE(act({{"type", "play_card"}, {"card", "order-three-center"}}).legal());
  EXPECT_EQ(rules_of(act({{"type", "play_card"}, {"card", "order-light-troops"}})),
            std::vector<std::string>{"ancients.order.sequence"});
  EXPECT_EQ(s.hands[0].size(), 3u);
}

TEST_F(Turn, OrderedOnceMovedOnceOneAtATimeAndOrdersBeforeMoves) {
  ASSERT_TRUE(act({{"type", "play_card"}, {"card", "order-three-center"}}).legal());
  EXPECT_EQ(rules_of(act({{"type", "order"}, {"units", {"hi", "hi"}}})), std::vector<std::string>{"ancients.order.once"});
  EXPECT_EQ(rules_of(act({{"type", "order"}, {"units", {"enemy"}}})), std::vector<std::string>{"ancients.order.side"});
  ASSERT_TRUE(act({{"type", "order"}, {"units", {"hi"}}}).legal());
  EXPECT_EQ(rules_of(act({{"type", "move"}, {"unit", "mi"}, {"to", {5, 5}}})),
            std::vector<std::string>{"ancients.order.not_ordered"});
  ASSERT_TRUE(act({{"type", "move"}, {"unit", "hi"}, {"to", {6, 5}}}).legal());
  EXPECT_EQ(rules_of(act({{"type", "move"}, {"unit", "hi"}, {"to", {6, 4}}})), std::vector<std::string>{"ancients.order.once"});
  EXPECT_EQ(rules_of(act({{"type", "order"}, {"units", {"mi"}}})), std::vector<std::string>{"ancients.order.sequence"});
  // An ordered unit need not move: ending now is legal, and the turn passes.
  ASSERT_TRUE(act({{"type", "end_movement"}}).legal());
  EXPECT_EQ(s.side, 1);
  EXPECT_EQ(s.turn, 2);
  EXPECT_FALSE(s.position.units[0].moved);
}

TEST_F(Turn, OrderedUnitsMayMoveFromOneSectionIntoAnother) {
  // 5,6 is centre only; 4,6 is on the line and 3,6 is left only.
  ASSERT_TRUE(act({{"type", "play_card"}, {"card", "order-three-center"}}).legal());
  ASSERT_TRUE(act({{"type", "order"}, {"units", {"mi"}}}).legal());
  ASSERT_TRUE(act({{"type", "move"}, {"unit", "mi"}, {"to", {4, 6}}}).legal());
  EXPECT_EQ(b.board.section_mask(hex(b, 3, 6)), 1);
}

TEST_F(Turn, ACardThatOrdersNothingSkipsStraightToDrawing) {
  ASSERT_TRUE(act({{"type", "play_card"}, {"card", "order-three-center"}}).legal());
  ASSERT_TRUE(act({{"type", "end_movement"}}).legal());
  ASSERT_EQ(s.side, 1);
  // Side 1's only unit is in the centre, so "Order Two Units Left" can order
  // nothing: the turn skips straight to drawing.
  Action play = parse_action({{"type", "play_card"}, {"card", "order-two-left"}}, b, "action");
  ASSERT_TRUE(validate(b, s, play).legal());
  nlohmann::json result = apply(b, s, play);
  ASSERT_TRUE(result.contains("turn_skipped"));
  EXPECT_EQ(result["turn_skipped"]["rule"], "ancients.card.orders_nothing");
  EXPECT_EQ(s.side, 0);
  EXPECT_EQ(s.turn, 3);
  EXPECT_EQ(s.phase, Phase::play_card);
  EXPECT_EQ(rules_of(act({{"type", "end_movement"}})), std::vector<std::string>{"ancients.order.sequence"});
}

}  // namespace
}  // namespace referee::ancients
