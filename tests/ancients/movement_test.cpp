// Unit movement by class, occupancy, the board edge and terrain, each case
// built from the movement text and the terrain table (docs/rulings.md#ancients-terrain).
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace referee::ancients {
namespace {

using namespace testing;

// On an open board, a unit at 6,4 can reach every hex within its allowance:
// 6 hexes at 1, 18 within 2, 36 within 3, 60 within 4.
int open_board_count(const std::string& cls) {
  Battle b = make_battle({unit("u", cls, 0, 6, 4)});
  return static_cast<int>(destinations(b, "u").size());
}

TEST(AncientsAllowance, EachClassMovesItsNumberOfHexes) {
  // ancients.movement.allowance: the class list of the movement text.
  EXPECT_EQ(open_board_count("light_infantry"), 18);
  EXPECT_EQ(open_board_count("light_sling_infantry"), 18);
  EXPECT_EQ(open_board_count("light_bow_infantry"), 18);
  EXPECT_EQ(open_board_count("auxilia"), 18);
  EXPECT_EQ(open_board_count("light_war_machine"), 6);
  EXPECT_EQ(open_board_count("medium_infantry"), 6);
  EXPECT_EQ(open_board_count("warrior"), 6);  // 2 hexes only next to an enemy: none here
  EXPECT_EQ(open_board_count("heavy_infantry"), 6);
  EXPECT_EQ(open_board_count("heavy_war_machine"), 6);
  EXPECT_EQ(open_board_count("light_cavalry"), 60);
  EXPECT_EQ(open_board_count("light_bow_cavalry"), 60);
  EXPECT_EQ(open_board_count("light_chariot"), 36);
  EXPECT_EQ(open_board_count("medium_cavalry"), 36);
  EXPECT_EQ(open_board_count("camel"), 36);
  EXPECT_EQ(open_board_count("heavy_cavalry"), 18);
  EXPECT_EQ(open_board_count("elephant"), 18);
  EXPECT_EQ(open_board_count("heavy_chariot"), 18);
}

TEST(AncientsAllowance, ClassesAreOrderedAsTheirLightMediumHeavyGroup) {
  auto weight_of = [](const std::string& id) { return unit_classes()[static_cast<std::size_t>(find_unit_class(id))].weight; };
  EXPECT_EQ(weight_of("auxilia"), Weight::light);            // "classed as Light foot"
  EXPECT_EQ(weight_of("light_war_machine"), Weight::light);
  EXPECT_EQ(weight_of("warrior"), Weight::medium);           // "classed as Medium foot"
  EXPECT_EQ(weight_of("heavy_war_machine"), Weight::heavy);
  EXPECT_EQ(weight_of("light_chariot"), Weight::light);      // light mounted
  EXPECT_EQ(weight_of("camel"), Weight::medium);             // medium mounted
  EXPECT_EQ(weight_of("elephant"), Weight::heavy);           // heavy mounted
  EXPECT_EQ(weight_of("heavy_chariot"), Weight::heavy);
}

TEST(AncientsAllowance, RouteBeyondAllowanceNamesDistanceAndAllowance) {
  Battle b = make_battle({unit("hi", "heavy_infantry", 0, 6, 6)});
  Verdict v = check_unit_move(b, Position::initial(b), 0, {6, 4}, {});
  ASSERT_EQ(rules_of(v), std::vector<std::string>{"ancients.movement.allowance"});
  EXPECT_EQ(v.violations[0].reason, "6,4 is 2 hexes away; heavy infantry moves at most 1 hex");
  EXPECT_EQ(v.violations[0].figures[0].value, 2);
  EXPECT_EQ(v.violations[0].figures[1].value, 1);
}

TEST(AncientsBattle, AuxiliaBattlesAfterOneHexNotAfterTwo) {
  // ancients.movement.battle: "move one hex and battle, or move two hexes and not battle".
  Battle b = make_battle({unit("ax", "auxilia", 0, 6, 6)});
  auto ds = destinations(b, "ax");
  auto one = find_dest(ds, hex(b, 6, 5));
  auto two = find_dest(ds, hex(b, 6, 4));
  ASSERT_TRUE(one && two);
  EXPECT_EQ(one->hexes, 1);
  EXPECT_TRUE(one->may_battle);
  EXPECT_EQ(two->hexes, 2);
  EXPECT_FALSE(two->may_battle);
  EXPECT_EQ(two->no_battle, NoBattle::auxilia_two_hexes);
}

TEST(AncientsBattle, WarMachinesMayNotBattleWhenTheyMove) {
  Battle b = make_battle({unit("lwm", "light_war_machine", 0, 6, 6), unit("hwm", "heavy_war_machine", 0, 2, 6)});
  for (const char* id : {"lwm", "hwm"}) {
    auto ds = destinations(b, id);
    ASSERT_EQ(ds.size(), 6u);
    for (const Destination& d : ds) EXPECT_FALSE(d.may_battle) << id;
  }
}

TEST(AncientsBattle, WarriorChargesTwoHexesOnlyToEndNextToAnEnemyAndMustCloseCombat) {
  // Warrior at 6,6; enemy unit at 6,3 and enemy lone leader at 9,6.
  Battle b = make_battle({unit("wi", "warrior", 0, 6, 6), unit("e", "heavy_infantry", 1, 6, 3)},
                         {{{"id", "el"}, {"side", 1}, {"at", {9, 6}}}});
  auto ds = destinations(b, "wi");
  // 2-hex hexes touching 6,3 (odd row: 6,4 and 7,4 below it) are legal, with compulsory close combat.
  auto charge = find_dest(ds, hex(b, 6, 4));
  ASSERT_TRUE(charge);
  EXPECT_EQ(charge->hexes, 2);
  EXPECT_TRUE(charge->may_battle);
  EXPECT_TRUE(charge->close_combat_compulsory);
  ASSERT_TRUE(find_dest(ds, hex(b, 7, 4)));
  // Ending next to an enemy leader also allows the charge: 8,6 touches 9,6.
  auto near_leader = find_dest(ds, hex(b, 8, 6));
  ASSERT_TRUE(near_leader);
  EXPECT_EQ(near_leader->hexes, 2);
  EXPECT_TRUE(near_leader->close_combat_compulsory);
  // A 2-hex move that ends next to no enemy is refused.
  EXPECT_FALSE(find_dest(ds, hex(b, 4, 6)));
  Verdict v = check_unit_move(b, Position::initial(b), 0, {4, 6}, {});
  ASSERT_EQ(rules_of(v), std::vector<std::string>{"ancients.movement.allowance"});
  EXPECT_EQ(v.violations[0].reason,
            "warrior wi may move 2 hexes only to end adjacent to an enemy unit or leader, and 4,6 is not");
  // One hex is always allowed, and close combat is not compulsory then.
  auto step = find_dest(ds, hex(b, 5, 6));
  ASSERT_TRUE(step);
  EXPECT_FALSE(step->close_combat_compulsory);
  EXPECT_EQ(ds.size(), 6u + 3u);  // six 1-hex steps; 6,4, 7,4 and 8,6 by charge
}

TEST(AncientsBlocked, NoUnitMovesOntoOrThroughEnemiesOrFriendlyUnits) {
  // Light infantry at 6,6 (even row: 5,5 and 6,5 above it): a friendly unit at 5,5, an
  // enemy unit at 6,5 and an enemy lone leader at 5,6.
  Battle b = make_battle({unit("li", "light_infantry", 0, 6, 6), unit("f", "heavy_infantry", 0, 5, 5),
                          unit("e", "heavy_infantry", 1, 6, 5)},
                         {{{"id", "el"}, {"side", 1}, {"at", {5, 6}}}});
  Position p = Position::initial(b);
  auto ds = destinations(b, "li");
  EXPECT_FALSE(find_dest(ds, hex(b, 5, 5)));
  EXPECT_FALSE(find_dest(ds, hex(b, 6, 5)));
  EXPECT_FALSE(find_dest(ds, hex(b, 5, 6)));
  // 6,4 lies beyond the friend and the enemy: reachable only through them.
  EXPECT_FALSE(find_dest(ds, hex(b, 6, 4)));
  Verdict through = check_unit_move(b, p, 0, {6, 4}, {});
  ASSERT_EQ(rules_of(through), std::vector<std::string>{"ancients.movement.blocked"});
  Verdict onto = check_unit_move(b, p, 0, {5, 5}, {});
  ASSERT_EQ(rules_of(onto), std::vector<std::string>{"ancients.movement.blocked"});
  EXPECT_EQ(onto.violations[0].reason, "f holds 5,5: light infantry li may not move onto a hex with a friendly unit");
  Verdict leader = check_unit_move(b, p, 0, {5, 6}, {});
  ASSERT_EQ(rules_of(leader), std::vector<std::string>{"ancients.movement.blocked"});
  EXPECT_EQ(leader.violations[0].reason, "enemy leader el holds 5,6");
  EXPECT_EQ(ds.size(), 3u + 7u);  // 7,6, 5,7, 6,7 at one hex; 8,6 7,5 7,7 4,7 5,8 6,8 7,8 at two
}

TEST(AncientsBlocked, OrderLightTroopsLetsLightFootPassThroughFriendsWhenMovingTwo) {
  Battle b = make_battle({unit("li", "light_infantry", 0, 6, 6), unit("f", "heavy_infantry", 0, 5, 5),
                          unit("f2", "heavy_infantry", 0, 6, 5), unit("ax", "auxilia", 0, 2, 6),
                          unit("f3", "medium_infantry", 0, 1, 5), unit("f5", "medium_infantry", 0, 2, 5),
                          unit("lc", "light_cavalry", 0, 10, 6), unit("f4", "medium_infantry", 0, 10, 5)});
  MoveOptions light{true};
  auto ds = destinations(b, "li", light);
  auto beyond = find_dest(ds, hex(b, 6, 4));
  ASSERT_TRUE(beyond);
  EXPECT_EQ(beyond->hexes, 2);
  EXPECT_FALSE(find_dest(ds, hex(b, 6, 5)));  // may pass, may not stop on a friend
  // Auxilia are light foot too; light cavalry is not foot.
  EXPECT_TRUE(find_dest(destinations(b, "ax", light), hex(b, 2, 4)));
  EXPECT_FALSE(find_dest(destinations(b, "ax"), hex(b, 2, 4)));
  auto lc = destinations(b, "lc", light);
  EXPECT_FALSE(find_dest(lc, hex(b, 10, 5)));
  // Without the card the friends block.
  EXPECT_FALSE(find_dest(destinations(b, "li"), hex(b, 6, 4)));
}

TEST(AncientsBlocked, UnitStopsOnALoneFriendlyLeaderWhoAttaches) {
  Battle b = make_battle({unit("lc", "light_cavalry", 0, 6, 6), unit("hc", "heavy_cavalry", 0, 2, 6)},
                         {{{"id", "L"}, {"side", 0}, {"at", {6, 5}}}, {{"id", "M"}, {"side", 0}, {"attached_to", "hc"}},
                          {{"id", "N"}, {"side", 0}, {"at", {2, 5}}}});
  auto ds = destinations(b, "lc");
  auto onto = find_dest(ds, hex(b, 6, 5));
  ASSERT_TRUE(onto);
  EXPECT_TRUE(onto->stops);
  EXPECT_EQ(onto->attaches_leader, b.find_leader("L"));
  // It stops there: 7,4 lies 2 hexes away through the leader's hex, 3 around it.
  auto past = find_dest(ds, hex(b, 7, 4));
  ASSERT_TRUE(past);
  EXPECT_EQ(past->hexes, 3);
  // A unit carrying a leader may not end on another leader (one leader per hex).
  Verdict v = check_unit_move(b, Position::initial(b), b.find_unit("hc"), {2, 5}, {});
  ASSERT_EQ(rules_of(v), std::vector<std::string>{"ancients.leader.one_per_hex"});
}

TEST(AncientsOffBoard, NoUnitLeavesTheBoard) {
  Battle b = make_battle({unit("lc", "light_cavalry", 0, 0, 8)});
  Verdict v = check_unit_move(b, Position::initial(b), 0, {-1, 8}, {});
  ASSERT_EQ(rules_of(v), std::vector<std::string>{"ancients.movement.off_board"});
  Verdict v2 = check_unit_move(b, Position::initial(b), 0, {0, 9}, {});
  ASSERT_EQ(rules_of(v2), std::vector<std::string>{"ancients.movement.off_board"});
  // In the corner only on-board hexes are offered: within 4 of 0,8 there are 18 on the board.
  auto ds = destinations(b, "lc");
  for (const Destination& d : ds) EXPECT_TRUE(b.board.valid_index(d.hex));
  EXPECT_EQ(ds.size(), 18u);
}

TEST(AncientsTerrain, ForestStopsEveryUnitAndBarsBattleExceptLightAuxiliaWarriors) {
  nlohmann::json forest = {{{"type", "forest"}, {"hexes", {{6, 5}, {2, 5}, {10, 5}}}}};
  Battle b = make_battle({unit("lc", "light_cavalry", 0, 6, 6), unit("li", "light_infantry", 0, 2, 6),
                          unit("hi", "heavy_infantry", 0, 10, 6)},
                         {}, forest);
  auto lc = destinations(b, "lc");
  auto in = find_dest(lc, hex(b, 6, 5));
  ASSERT_TRUE(in);
  EXPECT_TRUE(in->stops);
  EXPECT_FALSE(in->may_battle);
  EXPECT_EQ(in->no_battle, NoBattle::terrain);
  // Beyond the forest the cavalry must go around: 7,4 in 3 hexes, not 2.
  EXPECT_EQ(find_dest(lc, hex(b, 7, 4))->hexes, 3);
  auto li = find_dest(destinations(b, "li"), hex(b, 2, 5));
  ASSERT_TRUE(li);
  EXPECT_TRUE(li->may_battle);  // light infantry may battle on entering a forest
  auto hi = find_dest(destinations(b, "hi"), hex(b, 10, 5));
  ASSERT_TRUE(hi);
  EXPECT_FALSE(hi->may_battle);
}

TEST(AncientsTerrain, BrokenGroundBarsWarMachinesAndStopsMountedWhoMayNotBattle) {
  nlohmann::json broken = {{{"type", "broken_ground"}, {"hexes", {{6, 5}, {2, 5}, {10, 5}}}}};
  Battle b = make_battle({unit("hc", "heavy_cavalry", 0, 6, 6), unit("wm", "heavy_war_machine", 0, 2, 6),
                          unit("ax", "auxilia", 0, 10, 6)},
                         {}, broken);
  auto hc = find_dest(destinations(b, "hc"), hex(b, 6, 5));
  ASSERT_TRUE(hc);
  EXPECT_TRUE(hc->stops);
  EXPECT_FALSE(hc->may_battle);
  EXPECT_FALSE(find_dest(destinations(b, "wm"), hex(b, 2, 5)));
  Verdict v = check_unit_move(b, Position::initial(b), 1, {2, 5}, {});
  ASSERT_EQ(rules_of(v), std::vector<std::string>{"ancients.movement.terrain"});
  EXPECT_EQ(v.violations[0].reason, "heavy war machine wm cannot enter broken ground (2,5)");
  // Foot pass through broken ground.
  auto ax = destinations(b, "ax");
  EXPECT_FALSE(find_dest(ax, hex(b, 10, 5))->stops);
  EXPECT_EQ(find_dest(ax, hex(b, 10, 4))->hexes, 2);
}

TEST(AncientsTerrain, MarshStopsAndLetsAUnitLeaveOnlyOneHex) {
  nlohmann::json marsh = {{{"type", "marsh"}, {"hexes", {{6, 6}, {2, 5}}}}};
  Battle b = make_battle({unit("lc", "light_cavalry", 0, 6, 6), unit("li", "light_infantry", 0, 2, 6)}, {}, marsh);
  EXPECT_EQ(destinations(b, "lc").size(), 6u);  // starts in marsh: 1 hex, not 4
  Verdict v = check_unit_move(b, Position::initial(b), 0, {6, 4}, {});
  ASSERT_EQ(rules_of(v), std::vector<std::string>{"ancients.movement.terrain"});
  EXPECT_EQ(v.violations[0].figures[1].value, 1);
  auto in = find_dest(destinations(b, "li"), hex(b, 2, 5));
  ASSERT_TRUE(in);
  EXPECT_TRUE(in->stops);
}

TEST(AncientsTerrain, RiversBarFordsStopBridgesPassAndHillsAreOpen) {
  nlohmann::json t = {{{"type", "river"}, {"hexes", {{4, 5}, {5, 5}, {6, 5}}}},
                      {{"type", "ford"}, {"hexes", {{7, 5}}}},
                      {{"type", "bridge"}, {"hexes", {{3, 5}}}},
                      {{"type", "hill"}, {"hexes", {{8, 5}}}}};
  Battle b = make_battle({unit("lc", "light_cavalry", 0, 5, 6)}, {}, t);
  auto ds = destinations(b, "lc");
  EXPECT_FALSE(find_dest(ds, hex(b, 5, 5)));
  EXPECT_TRUE(find_dest(ds, hex(b, 7, 5))->stops);
  EXPECT_FALSE(find_dest(ds, hex(b, 3, 5))->stops);
  EXPECT_FALSE(find_dest(ds, hex(b, 8, 5))->stops);
  EXPECT_TRUE(find_dest(ds, hex(b, 8, 5))->may_battle);
  Verdict v = check_unit_move(b, Position::initial(b), 0, {5, 5}, {});
  ASSERT_EQ(rules_of(v), std::vector<std::string>{"ancients.movement.terrain"});
}

TEST(AncientsTerrain, AScenarioCanAddATerrainType) {
  nlohmann::json j = battle_json({unit("hc", "heavy_cavalry", 0, 6, 6), unit("hi", "heavy_infantry", 0, 2, 6)}, {},
                                 {{{"type", "vineyard"}, {"hexes", {{6, 5}, {2, 5}}}}});
  j["terrain_types"] = {{{"id", "vineyard"}, {"stop", {"mounted"}}, {"no_battle", {"mounted"}}}};
  Battle b = parse_battle(j, "test");
  auto hc = find_dest(destinations(b, "hc"), hex(b, 6, 5));
  ASSERT_TRUE(hc);
  EXPECT_TRUE(hc->stops);
  EXPECT_FALSE(hc->may_battle);
  auto hi = find_dest(destinations(b, "hi"), hex(b, 2, 5));
  EXPECT_TRUE(hi->may_battle);
  EXPECT_FALSE(hi->stops);
}

}  // namespace
}  // namespace referee::ancients

namespace referee::ancients {
namespace {

using namespace testing;

TEST(AncientsBlocked, ReducedUnitsNeverCombine) {
  // Two reduced heavy infantry units (2 blocks each) side by side: neither may enter the other's hex.
  nlohmann::json a = unit("a", "heavy_infantry", 0, 6, 6), b2 = unit("b", "heavy_infantry", 0, 7, 6);
  a["blocks"] = 2;
  b2["blocks"] = 2;
  Battle b = make_battle({a, b2});
  Verdict v = check_unit_move(b, Position::initial(b), 0, {7, 6}, {});
  ASSERT_EQ(rules_of(v), std::vector<std::string>{"ancients.movement.blocked"});
  EXPECT_EQ(destinations(b, "a").size(), 5u);
}

}  // namespace
}  // namespace referee::ancients
