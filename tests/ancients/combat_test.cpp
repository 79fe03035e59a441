// Battles, with figures from the published rules: the six faces of the
// battle die, dice by class, which faces hit, terrain limits, line of sight,
// flags and retreat, support, evasion, leaders in battle, momentum, battle
// back, banners and the exact odds. Dice are scripted: 1 light, 2 medium,
// 3 heavy, 4 swords, 5 leader helmet, 6 flag (docs/rulings.md#ancients-battle-dice).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "../support/input_error.hpp"
#include "referee/ancients/battle.hpp"
#include "referee/ancients/queries.hpp"
#include "referee/core/dice.hpp"
#include "test_support.hpp"

namespace referee::ancients {
namespace ancients_combat_test {

using namespace testing;

nlohmann::json blocks(nlohmann::json u, int n) {
  u["blocks"] = n;
  return u;
}

std::string input_error_field(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.field();
  }
  return "no error";
}

Action battle(const Battle& b, const std::string& u, const std::string& t) {
  return parse_action({{"type", "battle"}, {"unit", u}, {"target", t}}, b, "action");
}
Action simple(const Battle& b, const std::string& type) { return parse_action({{"type", type}}, b, "action"); }
Action to_hex(const Battle& b, const std::string& type, int col, int row) {
  return parse_action({{"type", type}, {"to", {col, row}}}, b, "action");
}

const UnitState& st(const Battle& b, const AncientsState& s, const std::string& id) {
  return s.position.units[static_cast<std::size_t>(b.find_unit(id))];
}

AttackPlan plan(const Battle& b, const Position& p, const std::string& u, const std::string& t, bool evading = false) {
  const int a = b.find_unit(u), d = b.find_unit(t);
  const bool close = b.board.adjacent(p.units[static_cast<std::size_t>(a)].hex, p.units[static_cast<std::size_t>(d)].hex);
  return plan_attack(b, p, a, d, close, false, evading);
}

// --- the dice -----------------------------------------------------------------------

TEST(AncientsBattleDice, SixFacesOneEach) {
  // ancients.battle.dice: light, medium, heavy, swords, leader helmet, flag.
  EXPECT_EQ(face_of(1), Face::light);
  EXPECT_EQ(face_of(2), Face::medium);
  EXPECT_EQ(face_of(3), Face::heavy);
  EXPECT_EQ(face_of(4), Face::swords);
  EXPECT_EQ(face_of(5), Face::leader);
  EXPECT_EQ(face_of(6), Face::flag);
  EXPECT_EQ(kFaces, 6);
}

// --- close combat: dice and hits -----------------------------------------------------

TEST(AncientsCloseCombat, DiceByClass) {
  // Each attacker adjacent to its own target, all on open ground.
  const Battle b = make_battle({unit("li", "light_infantry", 0, 1, 6), unit("t1", "medium_infantry", 1, 1, 5),
                                unit("aux", "auxilia", 0, 3, 6), unit("t2", "medium_infantry", 1, 3, 5),
                                unit("mi", "medium_infantry", 0, 5, 6), unit("t3", "medium_infantry", 1, 5, 5),
                                unit("hi", "heavy_infantry", 0, 7, 6), unit("t4", "medium_infantry", 1, 7, 5),
                                unit("mc", "medium_cavalry", 0, 9, 6), unit("t5", "medium_infantry", 1, 9, 5),
                                unit("hc", "heavy_cavalry", 0, 11, 6), unit("t6", "medium_infantry", 1, 11, 5),
                                unit("el", "elephant", 0, 1, 2), unit("t7", "heavy_infantry", 1, 1, 1),
                                unit("el2", "elephant", 0, 5, 2), unit("t8", "camel", 1, 5, 1)});
  const Position p = Position::initial(b);
  EXPECT_EQ(plan(b, p, "li", "t1").dice, 2);
  EXPECT_EQ(plan(b, p, "aux", "t2").dice, 3);
  EXPECT_EQ(plan(b, p, "mi", "t3").dice, 4);
  EXPECT_EQ(plan(b, p, "hi", "t4").dice, 5);
  EXPECT_EQ(plan(b, p, "mc", "t5").dice, 3);
  EXPECT_EQ(plan(b, p, "hc", "t6").dice, 4);
  // Elephants roll what the target would (heavy infantry 5), 3 against camels.
  EXPECT_EQ(plan(b, p, "el", "t7").dice, 5);
  EXPECT_EQ(plan(b, p, "el2", "t8").dice, 3);
  EXPECT_EQ(combat_profile(find_unit_class("warrior")).retreat_per_flag, 2);
  EXPECT_EQ(combat_profile(find_unit_class("auxilia")).retreat_per_flag, 1);
  EXPECT_EQ(combat_profile(find_unit_class("elephant")).retreat_per_flag, 1);
  EXPECT_EQ(combat_profile(find_unit_class("light_cavalry")).retreat_per_flag, 4);
}

TEST(AncientsCloseCombat, FacesThatHitByTargetClassSwordsAndLeaders) {
  const Battle b = make_battle({unit("mi", "medium_infantry", 0, 5, 6), unit("tm", "medium_infantry", 1, 5, 5),
                                unit("li", "light_infantry", 0, 9, 6), unit("tm2", "medium_infantry", 1, 9, 5),
                                unit("hi", "heavy_infantry", 0, 1, 6), unit("el", "elephant", 1, 1, 5)},
                               {{{"id", "L"}, {"side", 0}, {"at", {8, 6}}}});
  const Position p = Position::initial(b);
  // ancients.battle.hits: medium infantry at medium infantry: the blue triangle and swords, 2 faces of 6.
  AttackPlan a = plan(b, p, "mi", "tm");
  EXPECT_TRUE(a.hits[static_cast<std::size_t>(Face::medium)]);
  EXPECT_TRUE(a.hits[static_cast<std::size_t>(Face::swords)]);
  EXPECT_FALSE(a.hits[static_cast<std::size_t>(Face::leader)]);
  EXPECT_FALSE(a.hits[static_cast<std::size_t>(Face::light)] || a.hits[static_cast<std::size_t>(Face::heavy)]);
  // The exact chance that 4 dice score at least one hit: 1 - (4/6)^4 = 1040/1296.
  AttackOdds o = attack_odds(b, p, a);
  EXPECT_EQ(o.outcomes, 1296u);
  EXPECT_EQ(o.at_least_one_hit, 1296u - 256u);
  // Light infantry score no sword hits, but leader L (adjacent, ancients.battle.leader_hits) adds the helmet:
  // 2 faces of 6 on 2 dice: 1 - (4/6)^2 = 20/36.
  a = plan(b, p, "li", "tm2");
  EXPECT_FALSE(a.hits[static_cast<std::size_t>(Face::swords)]);
  EXPECT_TRUE(a.hits[static_cast<std::size_t>(Face::leader)]);
  o = attack_odds(b, p, a);
  EXPECT_EQ(o.outcomes, 36u);
  EXPECT_EQ(o.at_least_one_hit, 20u);
  // Swords never hit elephants: heavy infantry's 5 dice hit only on the red square, 1 - (5/6)^5.
  a = plan(b, p, "hi", "el");
  EXPECT_FALSE(a.hits[static_cast<std::size_t>(Face::swords)]);
  o = attack_odds(b, p, a);
  EXPECT_EQ(o.outcomes, 7776u);
  EXPECT_EQ(o.at_least_one_hit, 7776u - 3125u);
}

TEST(AncientsCloseCombat, TerrainLimitsDice) {
  // ancients.battle.terrain_dice: at most 2 dice into forest, out of broken ground, and up a hill.
  const Battle b = make_battle({unit("hi", "heavy_infantry", 0, 5, 6), unit("inwood", "medium_infantry", 1, 5, 5),
                                unit("hi2", "heavy_infantry", 0, 9, 6), unit("onhill", "medium_infantry", 1, 9, 5),
                                unit("hill2", "heavy_infantry", 0, 1, 6), unit("onhill2", "medium_infantry", 1, 1, 5)},
                               {},
                               {{{"type", "forest"}, {"hexes", {{5, 5}}}},
                                {{"type", "hill"}, {"hexes", {{9, 5}, {1, 6}, {1, 5}}}}});
  const Position p = Position::initial(b);
  AttackPlan a = plan(b, p, "hi", "inwood");
  EXPECT_EQ(a.dice, 2);
  EXPECT_EQ(a.dice_before_terrain, 5);
  EXPECT_EQ(b.terrain_types[static_cast<std::size_t>(a.limited_by)].id, "forest");
  EXPECT_EQ(plan(b, p, "hi2", "onhill").dice, 2);   // uphill
  EXPECT_EQ(plan(b, p, "hill2", "onhill2").dice, 5);  // both on the hill: not uphill
  // In play: the answer names the terrain and the dice it took away.
  AncientsState s = battle_phase(b, {"hi"});
  ScriptedDice dice({1, 1, /* battle back, 2 dice out of the forest */ 1, 1});
  const nlohmann::json r = apply(b, s, battle(b, "hi", "inwood"), dice);
  EXPECT_EQ(r["attack"]["dice"], 2);
  EXPECT_EQ(r["attack"]["terrain_dice"]["rule"], "ancients.battle.terrain_dice");
  EXPECT_EQ(r["attack"]["terrain_dice"]["dice_before"], 5);
  EXPECT_EQ(r["attack"]["battle_back"]["dice"], 2);
  EXPECT_EQ(dice.remaining(), 0u);
}

// --- ranged combat --------------------------------------------------------------------

TEST(AncientsRangedCombat, RangeDiceAndOnlyTheUnitSymbol) {
  const Battle b = make_battle({unit("li", "light_infantry", 0, 6, 6), unit("bow", "light_bow_infantry", 0, 2, 6),
                                unit("t", "medium_infantry", 1, 6, 4), unit("far", "heavy_infantry", 1, 2, 3)});
  AncientsState s = battle_phase(b, {"li", "bow"});
  AttackPlan a = plan(b, s.position, "li", "t");
  EXPECT_FALSE(a.close);
  EXPECT_EQ(a.dice, 2);  // not moved: 2 dice
  EXPECT_FALSE(a.hits[static_cast<std::size_t>(Face::swords)]);  // swords and helmets miss in ranged combat
  EXPECT_TRUE(a.hits[static_cast<std::size_t>(Face::medium)]);
  s.position.units[static_cast<std::size_t>(b.find_unit("li"))].hexes_moved = 1;
  EXPECT_EQ(plan(b, s.position, "li", "t").dice, 1);  // moved: 1 die
  // A bow reaches 3 hexes; light infantry's javelins only 2 (ancients.battle.ranged).
  EXPECT_TRUE(validate(b, s, battle(b, "bow", "far")).legal());
  const Verdict v = validate(b, s, battle(b, "li", "far"));
  EXPECT_TRUE(v.has("ancients.battle.ranged")) << explain(v);
}

TEST(AncientsRangedCombat, LineOfSightAlongAnEdgeIsBlockedOnlyWhenBothSidesAre) {
  // From 5,6 to 6,5 (2 hexes): the line runs along the edge between 6,6 and 5,5 (ancients.battle.sight).
  const Battle e = make_battle({unit("li", "light_infantry", 0, 5, 6), unit("t", "medium_infantry", 1, 6, 5),
                                unit("x", "medium_infantry", 0, 6, 6)});
  const Position pe = Position::initial(e);
  const int from = hex(e, 5, 6), to = hex(e, 6, 5);
  ASSERT_EQ(hex_distance(e.board.axial(from), e.board.axial(to)), 2);
  // One side of the edge (6,6) blocked, the other (5,5) open: sight is clear.
  EXPECT_TRUE(line_of_sight(e, pe, from, to));
  const Battle both = make_battle({unit("li", "light_infantry", 0, 5, 6), unit("t", "medium_infantry", 1, 6, 5),
                                   unit("x", "medium_infantry", 0, 6, 6), unit("y", "medium_infantry", 0, 5, 5)});
  const Position pb = Position::initial(both);
  int blocker = -1;
  EXPECT_FALSE(line_of_sight(both, pb, from, to, &blocker));
  EXPECT_GE(blocker, 0);
  // y is adjacent to nothing hostile; li is not adjacent to t, so only sight refuses it.
  AncientsState s = battle_phase(both, {"li"});
  EXPECT_TRUE(validate(both, s, battle(both, "li", "t")).has("ancients.battle.sight"));
  // A forest between blocks sight too (blocks_sight); straight up a column 6,6 -> 6,4 crosses 5,5 or 6,5.
  const Battle wood = make_battle({unit("li", "light_infantry", 0, 6, 6), unit("t", "medium_infantry", 1, 6, 4)}, {},
                                  {{{"type", "forest"}, {"hexes", {{5, 5}, {6, 5}}}}});
  EXPECT_FALSE(line_of_sight(wood, Position::initial(wood), hex(wood, 6, 6), hex(wood, 6, 4)));
  const Battle open = make_battle({unit("li", "light_infantry", 0, 6, 6), unit("t", "medium_infantry", 1, 6, 4)});
  EXPECT_TRUE(line_of_sight(open, Position::initial(open), hex(open, 6, 6), hex(open, 6, 4)));
}

// --- flags, retreat, support ----------------------------------------------------------

TEST(AncientsFlags, OneFlagRetreatsMediumInfantryOneHexTheOwnerChoosesAndTheAttackerAdvances) {
  // Side 0's medium infantry at 6,3 attacks side 1's at 6,2; side 1 retreats toward row 0.
  const Battle b = make_battle({unit("a", "medium_infantry", 0, 6, 3), unit("d", "medium_infantry", 1, 6, 2)});
  AncientsState s = battle_phase(b, {"a"});
  ScriptedDice dice({6, 1, 1, 3});  // a flag, light, light, heavy: no hit on medium infantry
  const nlohmann::json r = apply(b, s, battle(b, "a", "d"), dice);
  ASSERT_EQ(s.pending.kind, Pending::Kind::retreat) << r.dump();
  EXPECT_EQ(r["rule"], "ancients.battle.close");
  EXPECT_EQ(r["attack"]["rule"], "ancients.battle.hits");
  EXPECT_EQ(r["attack"]["dice_rule"], "ancients.battle.dice");
  EXPECT_EQ(r["attack"]["rolled"], nlohmann::json({"flag", "light", "light", "heavy"}));
  EXPECT_EQ(r["attack"]["hits"], 0);
  EXPECT_EQ(r["attack"]["flags"], 1);
  EXPECT_EQ(acting_side(b, s), 1);  // the owner chooses the path (ancients.flag.path)
  EXPECT_EQ(r["attack"]["awaiting"]["options"].size(), 2u);
  EXPECT_TRUE(validate(b, s, simple(b, "end_battle")).has("ancients.decision.pending"));
  EXPECT_TRUE(validate(b, s, to_hex(b, "retreat", 6, 0)).has("ancients.flag.path"));  // 2 hexes: too far
  const nlohmann::json rr = apply(b, s, to_hex(b, "retreat", 6, 1), dice);
  EXPECT_EQ(rr["rule"], "ancients.flag.retreat");
  EXPECT_EQ(st(b, s, "d").hex, hex(b, 6, 1));
  EXPECT_EQ(st(b, s, "d").blocks, 4);
  // The hex is vacated: momentum advance (ancients.momentum.advance); medium infantry gets no bonus combat.
  ASSERT_EQ(s.pending.kind, Pending::Kind::momentum);
  EXPECT_EQ(acting_side(b, s), 0);
  const nlohmann::json m = apply(b, s, simple(b, "advance"), dice);
  EXPECT_EQ(m["rule"], "ancients.momentum.advance");
  EXPECT_EQ(st(b, s, "a").hex, hex(b, 6, 2));
  EXPECT_FALSE(m["bonus_close_combat"].get<bool>());
  EXPECT_EQ(dice.remaining(), 0u);
}

TEST(AncientsFlags, ABlockedRetreatCostsABlockPerHexAndTheDefenderBattlesBack) {
  // Side 1's medium infantry at 6,2 with its own units on both hexes behind it (5,1 and 6,1).
  const Battle b = make_battle({unit("a", "medium_infantry", 0, 6, 3), unit("d", "medium_infantry", 1, 6, 2),
                                unit("r1", "medium_infantry", 1, 5, 1), unit("r2", "medium_infantry", 1, 6, 1)});
  AncientsState s = battle_phase(b, {"a"});
  // Attack: flag, flag, light, heavy. Supported by r1 and r2 it ignores one flag (ancients.flag.support);
  // the other cannot be retreated: one block lost (ancients.flag.blocked). Battle back: 4 dice, 2 hits.
  ScriptedDice dice({6, 6, 1, 3, /* battle back */ 2, 4, 1, 6});
  const nlohmann::json r = apply(b, s, battle(b, "a", "d"), dice);
  EXPECT_EQ(r["attack"]["flags_ignored"][0]["rule"], "ancients.flag.support");
  EXPECT_EQ(r["attack"]["retreat"]["loss"]["rule"], "ancients.flag.blocked");
  EXPECT_EQ(st(b, s, "d").blocks, 3);
  EXPECT_EQ(st(b, s, "d").hex, hex(b, 6, 2));
  // Battle back (ancients.battle.back): medium and swords hit the attacker; its flag moves it 1 hex back
  // (side 0 retreats toward row 8: 6,4 or 7,4, the attacker's choice).
  const nlohmann::json& bb = r["attack"]["battle_back"];
  EXPECT_EQ(bb["rule"], "ancients.battle.back");
  EXPECT_EQ(bb["hits"], 2);
  EXPECT_EQ(st(b, s, "a").blocks, 2);
  ASSERT_EQ(s.pending.kind, Pending::Kind::retreat);
  EXPECT_TRUE(s.pending.battle_back);
  EXPECT_EQ(acting_side(b, s), 0);
  apply(b, s, to_hex(b, "retreat", 7, 4), dice);
  EXPECT_EQ(st(b, s, "a").hex, hex(b, 7, 4));
  EXPECT_EQ(s.pending.kind, Pending::Kind::none);  // no momentum after a battle back
}

TEST(AncientsFlags, AnAttachedLeaderIgnoresAFlag) {
  const Battle b = make_battle({unit("a", "medium_infantry", 0, 6, 3), unit("d", "medium_infantry", 1, 6, 2)},
                               {{{"id", "L"}, {"side", 1}, {"attached_to", "d"}}});
  AncientsState s = battle_phase(b, {"a"});
  // One flag, ignored thanks to leader L (ancients.flag.leader); no hit; then d battles back: 4 misses
  // (the light symbol, and the heavy), and L beside... is d's own leader, so his helmet hits for d.
  // The leader "may" let it ignore the flag: its owner chooses to hold on 6,2 or retreat to 5,1 or 6,1.
  ScriptedDice dice({6, 1, 1, 3, /* battle back */ 1, 1, 3, 3});
  const nlohmann::json a = apply(b, s, battle(b, "a", "d"), dice);
  ASSERT_EQ(s.pending.kind, Pending::Kind::retreat) << a.dump();
  EXPECT_EQ(a["attack"]["awaiting"]["options"].size(), 3u);
  EXPECT_EQ(a["attack"]["awaiting"]["may_ignore"], 1);
  const nlohmann::json r = apply(b, s, to_hex(b, "retreat", 6, 2), dice);
  EXPECT_TRUE(r["holds"].get<bool>());
  EXPECT_EQ(r["flags_ignored"][0]["rule"], "ancients.flag.leader");
  EXPECT_EQ(st(b, s, "d").hex, hex(b, 6, 2));
  EXPECT_EQ(r["battle_back"]["leader_hits_rule"], "ancients.battle.leader_hits");
  EXPECT_EQ(st(b, s, "a").blocks, 4);
  // A hit and a flag: the leader check comes first, and a killed leader no longer saves the unit from its flag
  // (the published FAQ: "the unit must retreat").
  AncientsState k = battle_phase(b, {"a"});
  ScriptedDice kill({2, 6, 1, 1, /* leader check */ 5, 5});
  const nlohmann::json rk = apply(b, k, battle(b, "a", "d"), kill);
  EXPECT_TRUE(rk["attack"]["leader_check"]["killed"].get<bool>());
  EXPECT_FALSE(rk["attack"].contains("flags_ignored"));
  EXPECT_EQ(k.pending.kind, Pending::Kind::retreat);
  EXPECT_EQ(k.banners[0], 1);
}

// "A unit supported by two adjacent friendly units may ignore one flag": may,
// so its owner chooses (docs/rulings.md#ancients-support). Side 1's medium
// infantry d on 6,4 has friends on 5,4 and 7,4 beside it and open ground
// behind, toward row 0.
Battle supported_battle() {
  return make_battle({unit("a", "medium_infantry", 0, 6, 5), unit("d", "medium_infantry", 1, 6, 4),
                      unit("s1", "medium_infantry", 1, 5, 4), unit("s2", "medium_infantry", 1, 7, 4)});
}
int row_of(const nlohmann::json& option) { return option["to"][1].get<int>(); }

TEST(AncientsSupport, TwoFlagsOnASupportedUnitOfferOneHexBackOrTwo) {
  const Battle b = supported_battle();
  AncientsState s = battle_phase(b, {"a"});
  ScriptedDice dice({6, 6, 1, 3});  // two flags, a light and a heavy: no hit on medium infantry
  const nlohmann::json r = apply(b, s, battle(b, "a", "d"), dice);
  ASSERT_EQ(s.pending.kind, Pending::Kind::retreat) << r.dump();
  EXPECT_EQ(acting_side(b, s), 1);
  // Ignoring one flag, 1 hex (row 3); taking both, 2 (row 2); never holding, with a flag it may not ignore.
  const nlohmann::json& options = r["attack"]["awaiting"]["options"];
  int one = 0, two = 0;
  for (const nlohmann::json& o : options) {
    EXPECT_FALSE(o.contains("holds"));
    const int row = row_of(o);
    one += row == 3 ? 1 : 0;
    two += row == 2 ? 1 : 0;
    EXPECT_EQ(o["flags_ignored"], row == 3 ? 1 : 0);
  }
  EXPECT_EQ(one, 2);  // 5,3 and 6,3
  EXPECT_EQ(two, 3);  // 5,2, 6,2 and 7,2
  EXPECT_EQ(one + two, static_cast<int>(options.size()));
  EXPECT_EQ(legal_actions(b, s).size(), options.size());
  EXPECT_TRUE(validate(b, s, to_hex(b, "retreat", 6, 4)).has("ancients.flag.path"));
  // Its owner takes both flags: 2 hexes back, no flag ignored, and the attacker may advance.
  const nlohmann::json t = apply(b, s, to_hex(b, "retreat", 6, 2), dice);
  EXPECT_EQ(t["hexes"], 2) << t.dump();
  EXPECT_EQ(t["flags_not_ignored"]["flags"], 1);
  EXPECT_EQ(t["flags_not_ignored"]["rule"], "ancients.flag.support");
  EXPECT_FALSE(t.contains("flags_ignored"));
  EXPECT_EQ(b.board.col_row(st(b, s, "d").hex).row, 2);
  EXPECT_EQ(s.pending.kind, Pending::Kind::momentum);
}

TEST(AncientsSupport, OneFlagOnASupportedUnitOffersToHoldOrToRetreat) {
  const Battle b = supported_battle();
  // Holding: the flag is ignored, and d battles back (four misses).
  AncientsState s = battle_phase(b, {"a"});
  ScriptedDice dice({6, 1, 1, 3, /* battle back */ 1, 1, 3, 3});
  const nlohmann::json r = apply(b, s, battle(b, "a", "d"), dice);
  ASSERT_EQ(s.pending.kind, Pending::Kind::retreat) << r.dump();
  const nlohmann::json& options = r["attack"]["awaiting"]["options"];
  ASSERT_EQ(options.size(), 3u);  // hold on 6,4, or 1 hex to either hex of row 3
  EXPECT_TRUE(options[0]["holds"].get<bool>());
  EXPECT_EQ(options[0]["to"], nlohmann::json({6, 4}));
  EXPECT_EQ(options[0]["flags_ignored"], 1);
  EXPECT_EQ(row_of(options[1]), 3);
  EXPECT_EQ(options[1]["flags_ignored"], 0);
  const nlohmann::json h = apply(b, s, to_hex(b, "retreat", 6, 4), dice);
  EXPECT_TRUE(h["holds"].get<bool>());
  EXPECT_EQ(h["flags_ignored"][0]["rule"], "ancients.flag.support");
  EXPECT_EQ(h["battle_back"]["rule"], "ancients.battle.back");
  EXPECT_EQ(st(b, s, "d").hex, hex(b, 6, 4));
  EXPECT_EQ(s.pending.kind, Pending::Kind::none);
  EXPECT_EQ(dice.remaining(), 0u);
  // Retreating instead: 1 hex, and the vacated hex offers the attacker its momentum advance.
  AncientsState q = battle_phase(b, {"a"});
  ScriptedDice again({6, 1, 1, 3});
  apply(b, q, battle(b, "a", "d"), again);
  const nlohmann::json t = apply(b, q, to_hex(b, "retreat", options[1]["to"][0].get<int>(), 3), again);
  EXPECT_EQ(t["hexes"], 1);
  EXPECT_EQ(t["flags_not_ignored"]["flags"], 1);
  EXPECT_EQ(q.pending.kind, Pending::Kind::momentum);
  // The state keeps the choice (the random games' round trip reads it back).
  AncientsState w = battle_phase(b, {"a"});
  ScriptedDice third({6, 1, 1, 3});
  apply(b, w, battle(b, "a", "d"), third);
  const nlohmann::json js = state_json(b, w);
  EXPECT_EQ(js["pending"]["flags"], 1);
  EXPECT_EQ(js["pending"]["may_ignore"], 1);
}

TEST(AncientsSupport, TheOddsCountARetreatItMayDecline) {
  // Medium infantry's 4 dice at the supported unit: medium and swords hit (2 faces), a flag (1), 3 others.
  // A retreat is forced on 2 or more flags: 6^4 - 5^4 - 4 x 5^3 = 171 rolls. Any flag (6^4 - 5^4 = 671
  // rolls) offers its owner a retreat it may decline: 4 hexes of open ground lie behind it.
  const Battle b = supported_battle();
  const AncientsState s = battle_phase(b, {"a"});
  const Json j = answer_query(b, s, true, "odds", {{"unit", "a"}, {"target", "d"}}, "args");
  EXPECT_EQ(j["ignorable_flags"], 1);
  EXPECT_EQ(j["retreat_by_choice"]["rolls"], 671);
  // Only 4 hits (2^4 = 16 rolls) eliminate its 4 blocks; every forced retreat has the room it needs.
  EXPECT_EQ(j["eliminate"]["rolls"], 16);
  EXPECT_EQ(j["retreat"]["rolls"], 171);
  // The retreats query lists the same choices the game offers for 1 flag: hold, or either hex of row 3.
  const Json r = answer_query(b, s, true, "retreats", {{"unit", "d"}, {"flags", 1}}, "args");
  ASSERT_EQ(r["choices"].size(), 3u);
  EXPECT_TRUE(r["choices"][0]["holds"].get<bool>());
  // Behind a blocked retreat it holds without being asked: taking the flag would only cost a block.
  const Battle c = make_battle({unit("a", "medium_infantry", 0, 6, 3), unit("d", "medium_infantry", 1, 6, 2),
                                unit("r1", "medium_infantry", 1, 5, 1), unit("r2", "medium_infantry", 1, 6, 1)});
  const Json blocked = answer_query(c, battle_phase(c, {"a"}), true, "retreats", {{"unit", "d"}, {"flags", 1}}, "args");
  ASSERT_EQ(blocked["choices"].size(), 1u);
  EXPECT_TRUE(blocked["choices"][0]["holds"].get<bool>());
}

// --- elimination, banners, leaders --------------------------------------------------------

TEST(AncientsBanners, AnEliminatedUnitGivesABannerAndTheLastBannerEndsTheGame) {
  nlohmann::json j = battle_json({unit("hc", "heavy_cavalry", 0, 6, 3), blocks(unit("li", "light_infantry", 1, 6, 2), 1),
                                  unit("far", "medium_infantry", 1, 1, 1)});
  j["victory_banners"] = 1;
  const Battle b = parse_battle(j, "test");
  EXPECT_EQ(b.victory_banners[0], 1);
  AncientsState s = battle_phase(b, {"hc"});
  // Light infantry may evade heavy cavalry: it stands. Heavy cavalry rolls 4 dice: light, swords, flag, flag.
  ScriptedDice dice({1, 4, 6, 6});
  apply(b, s, battle(b, "hc", "li"), dice);
  ASSERT_EQ(s.pending.kind, Pending::Kind::evade);
  const nlohmann::json r = apply(b, s, simple(b, "stand"), dice);
  EXPECT_EQ(r["attack"]["result"]["banner"]["rule"], "ancients.victory.banners");
  EXPECT_EQ(s.banners[0], 1);
  EXPECT_EQ(st(b, s, "li").hex, kNoHex);
  EXPECT_TRUE(game_over(b, s));
  EXPECT_EQ(winner(b, s), 0);
  // The reason names the army (the battle's player name), "side 0" when the battle names none.
  EXPECT_EQ(game_over_reason(b, s), "side 0 has 1 victory banner of 1");
  Battle named = b;
  named.players[0].name = "Rome";
  EXPECT_EQ(game_over_reason(named, s), "Rome has 1 victory banner of 1");
  EXPECT_TRUE(legal_actions(b, s).empty());
  // Strict parsing of the count.
  j["victory_banners"] = {3};
  EXPECT_EQ(input_error_field([&] { parse_battle(j, "test"); }), "victory_banners");
  j["victory_banners"] = 0;
  EXPECT_EQ(input_error_field([&] { parse_battle(j, "test"); }), "victory_banners");
  j["victory_banners"] = {3, 4};
  EXPECT_EQ(parse_battle(j, "test").victory_banners[1], 4);
}

TEST(AncientsLeaders, CasualtyChecksOnLossesAndOnElimination) {
  // d has leader L attached and 2 blocks: a hit, no flag; L's check is 2 dice, both helmets: killed, a banner.
  const Battle b = make_battle({unit("a", "heavy_infantry", 0, 6, 3), blocks(unit("d", "medium_infantry", 1, 6, 2), 2)},
                               {{{"id", "L"}, {"side", 1}, {"attached_to", "d"}}});
  AncientsState s = battle_phase(b, {"a"});
  ScriptedDice dice({2, 1, 1, 3, 3, /* leader check */ 5, 5, /* battle back */ 1, 1, 1, 1});
  const nlohmann::json r = apply(b, s, battle(b, "a", "d"), dice);
  EXPECT_EQ(r["attack"]["leader_check"]["rule"], "ancients.leader.casualty");
  EXPECT_TRUE(r["attack"]["leader_check"]["killed"].get<bool>());
  EXPECT_EQ(s.banners[0], 1);
  EXPECT_EQ(s.position.leaders[0].hex, kNoHex);
  // Eliminated: 1 die; no helmet, so the leader evades toward his own edge (ancients.leader.evade).
  const Battle b2 = make_battle({unit("a", "heavy_infantry", 0, 6, 3), blocks(unit("d", "medium_infantry", 1, 6, 2), 1),
                                 unit("friend", "medium_infantry", 1, 9, 0)},
                                {{{"id", "L"}, {"side", 1}, {"attached_to", "d"}}});
  AncientsState s2 = battle_phase(b2, {"a"});
  ScriptedDice dice2({2, 1, 1, 3, 3, /* leader check */ 1});
  const nlohmann::json r2 = apply(b2, s2, battle(b2, "a", "d"), dice2);
  EXPECT_FALSE(r2["attack"]["leader_check"]["killed"].get<bool>());
  EXPECT_EQ(r2["attack"]["leader_check"]["evade"]["rule"], "ancients.leader.evade");
  EXPECT_EQ(s2.banners[0], 1);  // the unit only
  EXPECT_NE(s2.position.leaders[0].hex, hex(b2, 6, 2));
  ASSERT_EQ(s2.pending.kind, Pending::Kind::momentum);
}

TEST(AncientsLeaders, ALoneLeaderIsHitOnlyByHelmetsAndOtherwiseEvades) {
  // Lone leader H (side 1) next to a's medium infantry; M two hexes from the slingers.
  const Battle b = make_battle({unit("a", "medium_infantry", 0, 6, 3), unit("sl", "light_sling_infantry", 0, 2, 6),
                                unit("el", "elephant", 0, 10, 3)},
                               {{{"id", "H"}, {"side", 1}, {"at", {6, 2}}}, {{"id", "M"}, {"side", 1}, {"at", {2, 4}}},
                                {{"id", "E"}, {"side", 1}, {"at", {10, 2}}}});
  AncientsState s = battle_phase(b, {"a", "sl", "el"});
  EXPECT_EQ(dice_against_leader(b, s.position, b.find_unit("a"), 0), 4);   // its close-combat dice
  EXPECT_EQ(dice_against_leader(b, s.position, b.find_unit("el"), 2), 1);  // an elephant rolls 1 die against a leader
  EXPECT_EQ(dice_against_leader(b, s.position, b.find_unit("sl"), 1), 2);  // fire: 2 dice, not moved
  // No helmet: H is not hit and must evade toward his own edge (ancients.leader.evade).
  ScriptedDice miss({2, 4, 6, 1});
  const nlohmann::json r = apply(b, s, battle(b, "a", "H"), miss);
  EXPECT_EQ(r["hits"], 0);
  EXPECT_EQ(r["evade"]["rule"], "ancients.leader.evade");
  EXPECT_LT(b.board.col_row(s.position.leaders[0].hex).row, 2);
  // Before the roll, the odds: killed unless every die misses the helmet, 36 - 25 = 11 rolls of 36.
  const Json o = answer_query(b, s, true, "odds", {{"unit", "sl"}, {"target", "M"}}, "args");
  EXPECT_EQ(o["eliminate"]["rolls"], 11);
  EXPECT_EQ(o["rolls"], 36);
  // A helmet kills the lone leader M at range 2: a banner.
  ScriptedDice hit({5, 1});
  const nlohmann::json k = apply(b, s, battle(b, "sl", "M"), hit);
  EXPECT_TRUE(k["killed"].get<bool>());
  EXPECT_EQ(k["banner"]["rule"], "ancients.victory.banners");
  EXPECT_EQ(s.banners[0], 1);
  EXPECT_EQ(s.position.leaders[1].hex, kNoHex);
}

// --- evasion ----------------------------------------------------------------------------

TEST(AncientsEvasion, AnEvadingWarMachineIsRemovedAndItsLeaderLeftAloneEvades) {
  // docs/rulings.md#ancients-evade: the war machine leaves the board, no
  // banner; its attached leader is not left attached to nothing.
  const Battle b = make_battle({unit("mi", "medium_infantry", 0, 6, 3), unit("wm", "light_war_machine", 1, 6, 2),
                                unit("f", "medium_infantry", 1, 6, 1)},
                               {{{"id", "L"}, {"side", 1}, {"attached_to", "wm"}}});
  AncientsState s = battle_phase(b, {"mi"});
  ScriptedDice dice({2, 3, 4, 6});  // no light face: nothing hits the evading light war machine
  apply(b, s, battle(b, "mi", "wm"), dice);
  ASSERT_EQ(s.pending.kind, Pending::Kind::evade);
  std::optional<Action> evade;
  for (const Action& a : legal_actions(b, s))
    if (a.type == Action::Type::evade) evade = a;
  ASSERT_TRUE(evade.has_value());
  const nlohmann::json r = apply(b, s, *evade, dice);
  EXPECT_EQ(dice.remaining(), 0u);
  EXPECT_EQ(r["attack"]["evade"]["removed"], true);
  EXPECT_EQ(st(b, s, "wm").hex, kNoHex);
  EXPECT_EQ(s.banners[0], 0);
  const LeaderState& l = s.position.leaders[0];
  EXPECT_EQ(l.attached, b.find_unit("f")) << r.dump();  // he evades to the nearest friendly unit and attaches
  EXPECT_EQ(l.hex, hex(b, 6, 1));
  EXPECT_EQ(r["attack"]["leader_evade"]["attached_to"], "f");
}

TEST(AncientsEvasion, OnlyTheEvadersSymbolHitsAndItMovesTwoHexesBack) {
  const Battle b = make_battle({unit("mi", "medium_infantry", 0, 6, 3), unit("li", "light_infantry", 1, 6, 2),
                                unit("mc", "medium_cavalry", 0, 2, 3), unit("mc2", "medium_cavalry", 1, 2, 2)});
  AncientsState s = battle_phase(b, {"mi", "mc"});
  // Medium cavalry may not evade medium cavalry (ancients.evade.eligible), only foot and heavy mounted.
  EXPECT_FALSE(may_evade(b, b.find_unit("mc2"), b.find_unit("mc")));
  EXPECT_TRUE(may_evade(b, b.find_unit("mc2"), b.find_unit("mi")));
  ScriptedDice dice({1, 4, 5, 6});  // light hits; swords, helmet and flag are ignored against an evader
  const nlohmann::json r = apply(b, s, battle(b, "mi", "li"), dice);
  EXPECT_EQ(r["awaiting"]["rule"], "ancients.evade.eligible");
  EXPECT_EQ(acting_side(b, s), 1);
  EXPECT_TRUE(validate(b, s, to_hex(b, "evade", 6, 1)).has("ancients.evade.move"));  // 1 hex while 2 are open
  const nlohmann::json e = apply(b, s, to_hex(b, "evade", 6, 0), dice);
  EXPECT_EQ(e["attack"]["rule"], "ancients.evade.hits");
  EXPECT_EQ(e["attack"]["hits"], 1);
  EXPECT_EQ(st(b, s, "li").blocks, 3);
  EXPECT_EQ(st(b, s, "li").hex, hex(b, 6, 0));
  EXPECT_EQ(s.pending.kind, Pending::Kind::none);  // no momentum, no battle back
  EXPECT_EQ(st(b, s, "mi").hex, hex(b, 6, 3));
}

// --- momentum ----------------------------------------------------------------------------

TEST(AncientsMomentum, CavalryAdvancesAndMakesOneBonusCloseCombat) {
  const Battle b = make_battle({unit("hc", "heavy_cavalry", 0, 6, 3), blocks(unit("d", "medium_infantry", 1, 6, 2), 1),
                                unit("e2", "medium_infantry", 1, 6, 1), unit("e3", "medium_infantry", 1, 1, 1)});
  AncientsState s = battle_phase(b, {"hc"});
  ScriptedDice dice({2, 1, 1, 1});  // one hit: eliminated
  apply(b, s, battle(b, "hc", "d"), dice);
  ASSERT_EQ(s.pending.kind, Pending::Kind::momentum);
  const nlohmann::json m = apply(b, s, simple(b, "advance"), dice);
  EXPECT_TRUE(m["bonus_close_combat"].get<bool>());
  EXPECT_EQ(m["bonus_rule"], "ancients.momentum.bonus");
  // The bonus close combat against e2 (adjacent now); a second bonus is not allowed.
  ScriptedDice more({1, 1, 1, 1, /* e2 battles back */ 1, 1, 1, 1});
  const nlohmann::json r = apply(b, s, battle(b, "hc", "e2"), more);
  EXPECT_EQ(r["bonus_close_combat"], "ancients.momentum.bonus");
  EXPECT_TRUE(validate(b, s, battle(b, "hc", "e2")).has("ancients.battle.once"));
}

// --- the phase and its refusals ---------------------------------------------------------

TEST(AncientsBattlePhase, RefusalsNameTheirRules) {
  const Battle b = make_battle({unit("a", "medium_infantry", 0, 6, 3), unit("d", "medium_infantry", 1, 6, 2),
                                unit("idle", "medium_infantry", 0, 2, 3), unit("wi", "warrior", 0, 9, 5),
                                unit("e", "medium_infantry", 1, 9, 3)});
  AncientsState s = battle_phase(b, {"a", "wi"});
  EXPECT_TRUE(validate(b, s, battle(b, "idle", "d")).has("ancients.battle.eligible"));  // not ordered
  EXPECT_TRUE(validate(b, s, battle(b, "a", "idle")).has("ancients.battle.target"));    // a friend
  // A warrior that charged 2 hexes must close combat (ancients.battle.compulsory).
  s.position.units[static_cast<std::size_t>(b.find_unit("wi"))].hex = hex(b, 9, 4);
  s.position.unit_at[static_cast<std::size_t>(hex(b, 9, 5))] = -1;
  s.position.unit_at[static_cast<std::size_t>(hex(b, 9, 4))] = static_cast<std::int16_t>(b.find_unit("wi"));
  s.position.units[static_cast<std::size_t>(b.find_unit("wi"))].close_combat_compulsory = true;
  EXPECT_TRUE(validate(b, s, simple(b, "end_battle")).has("ancients.battle.compulsory"));
  AncientsState moving = AncientsState::initial(b);
  moving.phase = Phase::movement;
  EXPECT_TRUE(validate(b, moving, battle(b, "a", "d")).has("ancients.battle.phase"));
  ScriptedDice dice({1, 1, 1, 1, /* battle back */ 1, 1, 1, 1});
  apply(b, s, battle(b, "a", "d"), dice);
  EXPECT_TRUE(validate(b, s, battle(b, "a", "d")).has("ancients.battle.once"));
}

// --- exact odds --------------------------------------------------------------------------

TEST(AncientsOdds, ExactDistributionAndEliminationAsAQuery) {
  // Medium infantry, 4 dice, at a 1-block medium infantry with open ground behind it.
  const Battle b = make_battle({unit("a", "medium_infantry", 0, 6, 3), blocks(unit("d", "medium_infantry", 1, 6, 2), 1),
                                unit("lc", "light_cavalry", 1, 1, 7)});
  const AncientsState s = battle_phase(b, {"a"});
  std::string text;
  const Json j = answer_query(b, s, true, "odds", {{"unit", "a"}, {"target", "d"}}, "args", &text);
  EXPECT_EQ(j["rule"], "ancients.battle.odds");
  EXPECT_EQ(j["dice"], 4);
  EXPECT_EQ(j["rolls"], 1296);
  // Eliminated on any hit (1 - (4/6)^4: 1040 rolls), and on 3 or 4 flags with no hit: 2 hexes lie behind it
  // (rows 1 and 0), so a 3-hex retreat costs its last block: 4 x 3 + 1 = 13 rolls. 1053 in all.
  EXPECT_EQ(j["eliminate"]["rolls"], 1053);
  // It retreats and survives on 1 or 2 flags and no hit (2 faces hit, 1 flag, 3 others): 4 x 3^3 + 6 x 3^2 = 162.
  EXPECT_EQ(j["retreat"]["rolls"], 162);
  // The distribution: 4 hits and 0 flags: 2^4 = 16 rolls.
  bool found = false;
  for (const Json& d : j["distribution"])
    if (d["hits"] == 4 && d["flags"] == 0) found = d["rolls"] == 16;
  EXPECT_TRUE(found);
  EXPECT_NEAR(j["expected_hits"].get<double>(), 4.0 * 2.0 / 6.0, 1e-12);
  // The targets query gives the same odds per target, and the chance of at
  // least one hit: 1 - (4/6)^4 = 1040 rolls of 1296.
  const Json t = answer_query(b, s, true, "targets", {{"unit", "a"}}, "args", &text);
  ASSERT_EQ(t["targets"].size(), 1u);
  EXPECT_EQ(t["targets"][0]["target"], "d");
  EXPECT_NEAR(t["targets"][0]["at_least_one_hit"].get<double>(), 1040.0 / 1296.0, 1e-12);
  EXPECT_NEAR(t["targets"][0]["eliminate"].get<double>(), 1053.0 / 1296.0, 1e-12);
  // A light cavalry unit 6 hexes from its edge... at row 7, with 1 row left: 1 flag (4 hexes) costs 3 blocks.
  const Battle c = make_battle({unit("hi", "heavy_infantry", 1, 1, 6), unit("lc", "light_cavalry", 0, 1, 7)});
  const AttackOdds o = attack_odds(c, Position::initial(c), plan(c, Position::initial(c), "hi", "lc"));
  EXPECT_EQ(o.retreat_room, 1);
  EXPECT_EQ(o.dice, 5);
  // Bad arguments name the field.
  EXPECT_EQ(input_error_field([&] { answer_query(b, s, true, "odds", {{"unit", "nobody"}, {"target", "d"}}, "args"); }),
            "args.unit");
}

// --- whole random games ---------------------------------------------------------------

TEST(AncientsRandomGames, TheEngagedLinesAreFoughtToTheBanners) {
  // Both armies start in contact (scenarios/ancients/lines_engaged.json, 3 banners to win).
  const Battle b = load_scenario("lines_engaged.json");
  EXPECT_EQ(b.victory_banners[0], 3);
  int by_banners = 0, battles = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    AncientsState s = AncientsState::initial(b);
    Rng rng(seed);
    SeededDice dice(seed);
    int actions = 0;
    while (const std::optional<Action> a = random_action(b, s, rng)) {
      ASSERT_TRUE(validate(b, s, *a).legal()) << action_json(b, *a).dump();
      battles += a->type == Action::Type::battle;
      apply(b, s, *a, dice);
      ASSERT_LT(++actions, 2000);
    }
    EXPECT_TRUE(game_over(b, s));
    const int w = winner(b, s);
    if (w >= 0) {
      ++by_banners;
      EXPECT_GE(s.banners[static_cast<std::size_t>(w)], 3);
      EXPECT_EQ(game_over_reason(b, s),
                fmt::format("{} has {} victory banners of 3", w == 0 ? "Rome" : "Carthage", s.banners[static_cast<std::size_t>(w)]));
    }
  }
  EXPECT_GE(by_banners, 8);  // most games: about two in three
  EXPECT_GT(battles, 100);
}

}  // namespace ancients_combat_test
}  // namespace referee::ancients
