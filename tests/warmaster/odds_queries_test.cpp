// The board's odds queries on a game state (queries.cpp): shooting_odds
// (play sheet, "2. SHOOTING"), combat_odds ("3. COMBAT") and evade_plan
// (movement text, "The path of evaders"), answered before anything is
// rolled or moved, and agreeing with what the phase then does.
#include <gtest/gtest.h>

#include <cmath>

#include "command_fixtures.hpp"
#include "referee/core/errors.hpp"
#include "referee/warmaster/combat/combat.hpp"
#include "referee/warmaster/battle/queries.hpp"
#include "referee/warmaster/movement/move_json.hpp"
#include "referee/warmaster/shooting/shooting.hpp"

namespace referee::warmaster {
namespace {

using namespace testing;

Json ask(const WarmasterState& s, const std::string& name, const Json& args) {
  return answer_query(s, name, args, "args", nullptr);
}

// Archers (side 0, three stands of Attacks 1 with bows) at y = 30 facing
// north; orcs (side 1, no armour) facing them, front edges 20 cm apart.
Battlefield archery() {
  Battlefield bf = empty_field();
  Unit archers = line_unit("archers", 0, 50, 30);
  archers.attacks = 1;
  archers.hits = 3;
  archers.missile = Missile::Bow;
  bf.units.push_back(archers);
  Unit orcs = line_unit("orcs", 1, 50, 52, 180);
  orcs.attacks = 3;
  orcs.hits = 3;
  orcs.armour = 0;
  bf.units.push_back(orcs);
  bf.characters.push_back(character("g", 0, CharacterRole::General, 9, 50, 10));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 50, 110));
  return bf;
}

// "Target in the open 4, 5 or 6": three archer stands roll three dice, each
// hitting on 4+ with no save, so no hit at all is (1/2)^3 = 1/8, and all
// three (a stand lost, Hits 3) also 1/8.
TEST(OddsQueries, ShootingOddsGiveTheEnginesTargetAndTheExactHits) {
  WarmasterState s(make_game(archery()));
  const Json q = ask(s, "shooting_odds", {{"side", 0}});
  ASSERT_EQ(q["shooters"].size(), 1u);
  EXPECT_EQ(q["shooters"][0]["shooter"], "archers");
  EXPECT_EQ(q["shooters"][0]["target"], "orcs");
  EXPECT_EQ(q["shooters"][0]["attacks"], 3);
  EXPECT_NEAR(q["shooters"][0]["distance"].get<double>(), 20.0, 1e-9);
  ASSERT_EQ(q["targets"].size(), 1u);
  const Json& t = q["targets"][0];
  EXPECT_EQ(t["target"], "orcs");
  EXPECT_EQ(t["position"], "open");
  EXPECT_EQ(t["needed"], 4);
  ASSERT_EQ(t["rows"].size(), 4u);
  EXPECT_DOUBLE_EQ(t["rows"][0]["chance"].get<double>(), 1.0 / 8);
  EXPECT_DOUBLE_EQ(t["rows"][3]["chance"].get<double>(), 1.0 / 8);
  EXPECT_DOUBLE_EQ(t["any_stand_removed"].get<double>(), 1.0 / 8);
  // "Drive back D6 cm per hit; any 6 confuses": one hit, one die, 1/6.
  EXPECT_NEAR(t["rows"][1]["confused"].get<double>(), 1.0 / 6, 1e-12);
  // The default side is the side to play (0); the orcs have no missiles.
  EXPECT_EQ(ask(s, "shooting_odds", Json::object())["side"], 0);
  EXPECT_TRUE(ask(s, "shooting_odds", {{"side", 1}})["shooters"].empty());
  EXPECT_THROW(ask(s, "shooting_odds", {{"side", 2}}), InputError);
  EXPECT_THROW(ask(s, "shooting_odds", {{"sides", 0}}), InputError);
}

// Two units of three stands, Attacks 3, front to front in the open: 9 dice
// a side hitting on 4+, no armour, no support. A draw is as many hits on
// each side: sum C(9,k)^2 / 2^18 = C(18,9) / 2^18 = 48620/262144; the rest
// is split evenly.
Battlefield front_to_front() {
  Battlefield bf = empty_field();
  for (Unit u : {line_unit("a", 0, 50, 30), line_unit("b", 1, 50, 32, 180)}) {
    u.attacks = 3;
    u.hits = 3;
    bf.units.push_back(u);
  }
  bf.characters.push_back(character("g", 0, CharacterRole::General, 9, 50, 10));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 50, 110));
  return bf;
}

TEST(OddsQueries, CombatOddsOfEachEngagementBeforeTheDice) {
  Battlefield bf = front_to_front();
  WarmasterState s(make_game(bf));
  const Json q = ask(s, "combat_odds", Json::object());
  ASSERT_EQ(q["engagements"].size(), 1u);
  const Json& e = q["engagements"][0];
  EXPECT_EQ(e["sides"][0]["dice"], 9);
  EXPECT_EQ(e["sides"][1]["dice"], 9);
  EXPECT_EQ(e["sides"][0]["support"], 0);
  const double draw = 48620.0 / 262144.0;
  EXPECT_NEAR(e["draw"].get<double>(), draw, 1e-12);
  EXPECT_NEAR(e["side_0_wins"].get<double>(), (1 - draw) / 2, 1e-12);
  EXPECT_NEAR(e["side_1_wins"].get<double>(), (1 - draw) / 2, 1e-12);
  // The same as the command line's combat-odds for those dice.
  CombatOddsRequest r;
  r.a.dice = 9;
  r.b.dice = 9;
  const CombatOdds o = combat_odds(r);
  EXPECT_NEAR(e["draw"].get<double>(), o.draw, 1e-12);
  EXPECT_NEAR(e["side_0_wins"].get<double>(), o.a_wins, 1e-12);
  // Armour 4+ on b: each of a's dice does an unsaved hit with 1/2 x 1/2.
  bf.units[1].armour = 4;
  WarmasterState armoured(make_game(bf));
  r.b.armour = 4;
  const CombatOdds o2 = combat_odds(r);
  const Json e2 = ask(armoured, "combat_odds", Json::object())["engagements"][0];
  EXPECT_NEAR(e2["side_0_wins"].get<double>(), o2.a_wins, 1e-12);
  EXPECT_NEAR(e2["draw"].get<double>(), o2.draw, 1e-12);
  EXPECT_NEAR(e2["side_1_wins"].get<double>(), o2.b_wins, 1e-12);
  // Apart: no engagement.
  bf.units[1].stands = line_unit("b", 1, 50, 60, 180).stands;
  EXPECT_TRUE(ask(WarmasterState(make_game(bf)), "combat_odds", Json::object())["engagements"].empty());
}

// docs/rulings.md#warmaster-combat-characters: with the General (+2) joined
// to a, a rolls 11 dice and the odds are those of 11 against 9; the attack
// names him.
TEST(OddsQueries, CombatOddsCountAJoinedCharactersBonus) {
  Battlefield bf = front_to_front();
  Character& g = bf.characters[0];
  g.pose.position.y = 27.5;
  g.name = "General Kessler";
  g.attacks = 2;
  g.joined_unit = "a";
  const Json e = ask(WarmasterState(make_game(bf)), "combat_odds", Json::object())["engagements"][0];
  EXPECT_EQ(e["sides"][0]["dice"], 11);
  EXPECT_EQ(e["sides"][1]["dice"], 9);
  const Json mods = e["sides"][0]["attacks"][0]["modifiers"];
  ASSERT_EQ(mods.size(), 1u) << e.dump();
  EXPECT_EQ(mods[0]["name"], "General Kessler");
  EXPECT_EQ(mods[0]["character"], "g");
  EXPECT_EQ(mods[0]["value"], 2);
  CombatOddsRequest r;
  r.a.dice = 11;
  r.b.dice = 9;
  const CombatOdds o = combat_odds(r);
  EXPECT_NEAR(e["side_0_wins"].get<double>(), o.a_wins, 1e-12);
  EXPECT_NEAR(e["draw"].get<double>(), o.draw, 1e-12);
  EXPECT_GT(o.a_wins, o.b_wins);
}

// Asked directly, one unit at a time: the archers' closest target is the orcs
// 20 cm away, within the bow's 30 cm, all three stands shooting; the orcs
// have no missile weapon. warmaster.shooting.target: "Shoot at the closest
// enemy unit".
TEST(OddsQueries, TheTargetQueryGivesOneUnitsClosestTargetAsTheShootingPhasePicksIt) {
  const WarmasterState s(make_game(archery()));
  const Json t = ask(s, "target", {{"unit", "archers"}});
  EXPECT_EQ(t["target"], "orcs");
  EXPECT_NEAR(t["distance"].get<double>(), 20.0, 1e-9);
  EXPECT_NEAR(t["range"].get<double>(), 30.0, 1e-9);
  EXPECT_EQ(t["attacks"], 3);
  EXPECT_EQ(t["rule"], "warmaster.shooting.target");
  // The same as the Shooting phase's own pick in shooting_odds.
  EXPECT_EQ(ask(s, "shooting_odds", Json::object())["shooters"][0], t);
  const Json none = ask(s, "target", {{"unit", "orcs"}});
  EXPECT_TRUE(none["target"].is_null());
  EXPECT_EQ(none["rule"], "warmaster.shooting.no_target");
  EXPECT_THROW(ask(s, "target", {{"unit", "nobody"}}), InputError);
}

// warmaster.combat.support: with a third unit right behind a, side 0's
// fighting stands are backed by its three stands; side 1 has none. A unit in
// no engagement says so.
TEST(OddsQueries, TheSupportQueryGivesTheSupportAUnitsCombatWouldGet) {
  Battlefield bf = front_to_front();
  Unit behind = line_unit("behind", 0, 50, 28);
  behind.attacks = 3;
  behind.hits = 3;
  bf.units.push_back(behind);
  bf.units.push_back(line_unit("far", 1, 150, 100, 180));
  const WarmasterState s(make_game(bf));
  const Json q = ask(s, "support", {{"unit", "a"}});
  EXPECT_TRUE(q["engaged"].get<bool>()) << q.dump();
  EXPECT_EQ(q["rule"], "warmaster.combat.support");
  ASSERT_EQ(q["sides"].size(), 2u);
  EXPECT_EQ(q["sides"][0]["support"], 3) << q.dump();
  EXPECT_EQ(q["sides"][1]["support"], 0);
  // As the combat odds count it.
  EXPECT_EQ(ask(s, "combat_odds", Json::object())["engagements"][0]["sides"][0]["support"], 3);
  EXPECT_FALSE(ask(s, "support", {{"unit", "far"}})["engaged"].get<bool>());
}

// U (side 0) faces E1 13 cm away: the engine's evade is straight back by
// the full 20 cm (front edge 51 -> 31), and the plan shown is where the
// evade then puts the stands.
TEST(OddsQueries, EvadePlanIsWhereTheEnginesEvadeGoes) {
  Battlefield bf = empty_field();
  bf.units.push_back(line_unit("U", 0, 60, 50));
  bf.units.push_back(line_unit("E1", 1, 60, 65, 180));
  bf.characters.push_back(character("g", 0, CharacterRole::General, 9, 60, 10));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 60, 110));
  WarmasterState s(make_game(bf));
  const Json q = ask(s, "evade_plan", {{"unit", "U"}, {"enemy", "E1"}});
  ASSERT_TRUE(q["possible"].get<bool>());
  EXPECT_NEAR(q["distance"].get<double>(), 20.0, 1e-3);
  ASSERT_EQ(q["stands"].size(), 3u);
  const ActionOutcome o = play(s, initiative("U", false, "E1"));
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  for (const Json& st : q["stands"]) {
    const Stand& moved = unit(s, "U").stands[st["stand"].get<std::size_t>()];
    EXPECT_NEAR(st["to"]["x"].get<double>(), moved.pose.position.x, 1e-3);
    EXPECT_NEAR(st["to"]["y"].get<double>(), 30.0, 1e-3);
  }
  EXPECT_THROW(ask(s, "evade_plan", {{"unit", "U"}, {"enemy", "U"}}), InputError);
  EXPECT_THROW(ask(s, "evade_plan", {{"unit", "nobody"}, {"enemy", "E1"}}), InputError);
}

// charge_plan: the charge the board offers for a unit dragged up to an enemy
// ("a unit that moves into contact with an enemy is charging": movement text,
// "Charge!"). U's front edge (y 51) is 14 cm from E1's (y 65): slid straight
// on, it touches E1 front to front, and applying that move charges it.
TEST(WarmasterChargePlan, SlidesOnIntoContactAndApplyingItCharges) {
  Battlefield bf = empty_field();
  bf.units.push_back(line_unit("U", 0, 60, 50));
  bf.units.push_back(line_unit("E1", 1, 60, 66, 180));
  bf.characters.push_back(character("g", 0, CharacterRole::General, 9, 60, 10));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 60, 110));
  WarmasterState s(make_game(bf));
  // Not ordered yet: the charge is planned, but applying it now is refused.
  EXPECT_FALSE(ask(s, "charge_plan", {{"unit", "U"}, {"target", "E1"}})["legal"].get<bool>());
  // The General orders U (a roll of 1 and 1 passes whatever the penalties).
  ASSERT_TRUE(play(s, order("g", {"U"}), {1, 1}).verdict.legal());
  // From where it stands: 14 cm on.
  const Json q = ask(s, "charge_plan", {{"unit", "U"}, {"target", "E1"}});
  EXPECT_TRUE(q["legal"].get<bool>()) << q.dump();
  EXPECT_NEAR(q["slide"].get<double>(), 14.0, 1e-3);
  EXPECT_EQ(q["move"]["kind"], "charge");
  EXPECT_EQ(q["move"]["target"], "E1");
  // From where the board dragged it (12.5 cm on): 1.5 cm more, to the same place.
  Json dragged = Json::array();
  for (const Stand& st : unit(s, "U").stands)
    dragged.push_back({{"x", st.pose.position.x}, {"y", st.pose.position.y + 12.5}, {"facing", 0}});
  const Json d = ask(s, "charge_plan", {{"unit", "U"}, {"target", "E1"}, {"stands", dragged}});
  EXPECT_NEAR(d["slide"].get<double>(), 1.5, 1e-3);
  for (const Json& st : d["move"]["stands"]) EXPECT_NEAR(st["to"]["y"].get<double>(), 64.0, 1e-3);

  // Applying the planned move charges.
  Action charge;
  charge.type = ActionType::Move;
  charge.moves.push_back(parse_move_request(d["move"], s.battlefield()));
  const ActionOutcome o = play(s, charge);
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_TRUE(unit(s, "U").engaged);
  EXPECT_TRUE(status(s, "U").charged);

  // Bad input names the field.
  EXPECT_THROW(ask(s, "charge_plan", {{"unit", "U"}, {"target", "U"}}), InputError);
  EXPECT_THROW(ask(s, "charge_plan", {{"unit", "nobody"}, {"target", "E1"}}), InputError);
  try {
    ask(s, "charge_plan", {{"unit", "E1"}, {"target", "U"}, {"stands", Json::array({{{"x", 1}, {"y", 2}}})}});
    FAIL() << "one stand of three was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "args.stands");
  }
}

}  // namespace
}  // namespace referee::warmaster
