// Order tests and odds (command text, "Command penalties"; docs/rulings.md#warmaster-command-distance-penalty).
#include <gtest/gtest.h>

#include "referee/warmaster/command/orders.hpp"

namespace referee::warmaster {
namespace {

TEST(OrderTarget, WorkedExampleCommand9At25cmInAWoodNeeds7) {
  // Command text: "a General (Command value 9) ... 25cm distant (-1) and within
  // a wood (-1) ... requires a dice roll of 7 or less".
  OrderFactors f;
  f.command = 9;
  f.distance = 25;
  f.dense = true;
  const OrderTarget t = order_target(f);
  EXPECT_EQ(t.needed, 7);
  EXPECT_EQ(order_needed(f), 7);
  ASSERT_EQ(t.penalties.size(), 2u);
  EXPECT_EQ(t.penalties[0].rule, "warmaster.command.distance");
  EXPECT_EQ(t.penalties[0].value, -1);
  EXPECT_EQ(t.penalties[1].rule, "warmaster.command.dense");
  EXPECT_EQ(t.penalties[1].value, -1);
  EXPECT_EQ(t.chance.fraction(), "21/36");
}

TEST(OrderTarget, DistanceBandsFromTheTable) {
  EXPECT_EQ(distance_penalty(0), 0);
  EXPECT_EQ(distance_penalty(20.0), 0);       // up to and including 20 cm: none
  EXPECT_EQ(distance_penalty(20.001), -1);    // one hundredth of a millimetre over
  EXPECT_EQ(distance_penalty(20.0004), 0);    // below the measuring precision
  EXPECT_EQ(distance_penalty(40.0), -1);
  EXPECT_EQ(distance_penalty(40.001), -2);
  EXPECT_EQ(distance_penalty(60.0), -2);
  EXPECT_EQ(distance_penalty(60.5), -3);
  EXPECT_EQ(distance_penalty(80.0), -3);      // "Up to 80cm -3"
  EXPECT_EQ(distance_penalty(80.01), -4);     // "per +20cm minus a further 1"
  EXPECT_EQ(distance_penalty(100.0), -4);
}

TEST(OrderTarget, EnemyWithin20cmIsTwentyOrLess) {
  EXPECT_TRUE(within_20cm(20.0));
  EXPECT_TRUE(within_20cm(20.0004));
  EXPECT_FALSE(within_20cm(20.001));
}

TEST(OrderTarget, FurtherOrdersAreCumulative) {
  // "a unit's second order is at -1, its third order is at -2".
  OrderFactors f;
  f.command = 8;
  f.previous_orders = 1;
  EXPECT_EQ(order_needed(f), 7);
  f.previous_orders = 2;
  const OrderTarget t = order_target(f);
  EXPECT_EQ(t.needed, 6);
  ASSERT_EQ(t.penalties.size(), 1u);
  EXPECT_EQ(t.penalties[0].rule, "warmaster.command.further_order");
  EXPECT_EQ(t.penalties[0].value, -2);
}

TEST(OrderTarget, EveryPenaltyTogether) {
  // Command 10, 65 cm (-3), third order (-2), enemy near (-1), dense (-1),
  // two stands lost (-2): needs 1, which 2D6 can never roll.
  OrderFactors f{10, 65, 2, true, true, 2, false};
  const OrderTarget t = order_target(f);
  EXPECT_EQ(t.total_penalty, -9);
  EXPECT_EQ(t.needed, 1);
  EXPECT_EQ(t.chance.fraction(), "0/36");
  ASSERT_EQ(t.penalties.size(), 5u);
  EXPECT_EQ(t.penalties[4].rule, "warmaster.command.casualties");
}

TEST(OrderTarget, FirstTurnBonusNeverAboveTen) {
  OrderFactors f;
  f.command = 9;
  f.first_turn_bonus = true;
  EXPECT_EQ(order_target(f).effective_command, 10);
  EXPECT_EQ(order_needed(f), 10);
  f.command = 10;
  EXPECT_EQ(order_target(f).effective_command, 10);
  EXPECT_EQ(order_needed(f), 10);
}

TEST(Odds, ExactChancesOf2D6) {
  OrderFactors f;
  f.command = 8;
  EXPECT_EQ(order_target(f).chance.fraction(), "26/36");
  f.command = 10;
  EXPECT_EQ(order_target(f).chance.fraction(), "33/36");
}

TEST(Odds, SequenceOfOrders) {
  // Command 9 ordering one unit three times, 15 cm away: needs 9, 8, 7.
  const int needed[] = {9, 8, 7};
  const std::vector<SequenceOutcome> o = sequence_odds(needed);
  ASSERT_EQ(o.size(), 4u);
  EXPECT_EQ(o[0].chance.fraction(), "6/36");               // first fails: 10, 11, 12
  EXPECT_EQ(o[1].chance.fraction(), "300/1296");  // 30/36 pass, then 10/36 fail
  EXPECT_EQ(o[2].chance.fraction(), std::to_string(30 * 26 * 15) + "/46656");
  EXPECT_TRUE(o[3].all_succeed);
  EXPECT_EQ(o[3].chance.fraction(), std::to_string(30 * 26 * 21) + "/46656");
  double total = 0;
  for (const SequenceOutcome& s : o) total += s.chance.value();
  EXPECT_NEAR(total, 1.0, 1e-12);
}

TEST(Odds, DistanceTableForCommands8To10) {
  const int commands[] = {8, 9, 10};
  const std::vector<DistanceRow> rows = distance_table(commands, 80, OrderFactors{});
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].needed, (std::vector<int>{8, 9, 10}));
  EXPECT_EQ(rows[1].needed, (std::vector<int>{7, 8, 9}));
  EXPECT_EQ(rows[1].chance[1].fraction(), "26/36");
  EXPECT_EQ(rows[3].needed, (std::vector<int>{5, 6, 7}));
  const std::string svg = distance_plot_svg(commands, 80, OrderFactors{});
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("Command 9"), std::string::npos);
}

}  // namespace
}  // namespace referee::warmaster
