// Characters in combat (docs/rulings.md#warmaster-combat-characters): the
// rulebook's "Characters add their Attacks value as a bonus to any stand in
// the unit they are with", "characters cannot be attacked" and "characters
// are slain if their unit is destroyed in combat, by shooting or by magic",
// with scripted dice so each figure is worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "command_fixtures.hpp"
#include "referee/core/dice.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/combat/combat.hpp"
#include "referee/warmaster/shooting/shooting.hpp"
#include "support/input_error.hpp"

namespace referee::warmaster {
namespace combat_characters_cases {

using namespace testing;

Unit with_profile(Unit u, int attacks, int hits, Missile missile = Missile::None) {
  u.attacks = attacks;
  u.hits = hits;
  u.missile = missile;
  return u;
}

// The Empire's three stands in line at y = 30 facing north, Attacks 1; the
// Orcs' three at y = 32 facing south, front edges touching along y = 31.
// The Orcs roll no dice and lose no stand unless a test says so.
Battlefield clash() {
  Battlefield bf = empty_field();
  bf.units.push_back(with_profile(line_unit("empire", 0, 50, 30), 1, 3));
  bf.units.push_back(with_profile(line_unit("orcs", 1, 50, 32, 180), 0, 10));
  return bf;
}

// Infantry stands (4 x 2 cm) centred at each x, all at y, facing `facing`.
Unit stand_row(const std::string& id, int side, std::vector<double> xs, double y, double facing) {
  Unit u = line_unit(id, side, xs.front(), y, facing);
  u.stands.clear();
  for (double x : xs) u.stands.push_back({Pose{{x, y}, facing}});
  return u;
}

Character joined(const std::string& id, const std::string& name, CharacterRole role, int attacks,
                 const std::string& unit, int side, double x, double y) {
  Character c = character(id, side, role, 9, x, y);
  c.name = name;
  c.attacks = attacks;
  c.joined_unit = unit;
  return c;
}

const CombatAttack* first_attack(const CombatReport& r, const std::string& attacker, const std::string& target) {
  for (const CombatRound& cr : r.rounds)
    if (cr.round == 1)
      for (const CombatAttack& a : cr.attacks)
        if (a.attacker == attacker && a.target == target) return &a;
  return nullptr;
}

const AttackModifier* bonus_of(const CombatAttack& a, const std::string& character) {
  for (const AttackModifier& m : a.modifiers)
    if (m.character == character) return &m;
  return nullptr;
}

bool ruled(const std::vector<Ruling>& rulings, const std::string& rule, const std::string& words) {
  return std::any_of(rulings.begin(), rulings.end(), [&](const Ruling& x) {
    return x.rule == rule && x.reason.find(words) != std::string::npos;
  });
}

// The script, then 3s: the tests read round 1; what follows only has to happen.
class ScriptThenThrees final : public Dice {
 public:
  explicit ScriptThenThrees(std::vector<int> script) : script_(script.begin(), script.end()) {}

 protected:
  int draw(int, const std::string&) override {
    if (script_.empty()) return 3;
    const int v = script_.front();
    script_.erase(script_.begin());
    return v;
  }

 private:
  std::vector<int> script_;
};

CombatOptions standing(const std::string& unit) {
  CombatOptions o;
  o.decisions.push_back({unit, CombatChoice::Stand, std::nullopt});
  return o;
}

}  // namespace combat_characters_cases

using namespace combat_characters_cases;

// "A General adds +2": the Empire's 3 stands of Attacks 1 roll 3 dice, and 5
// with General Kessler joined to them; the modifier names him.
TEST(CombatCharacters, AJoinedGeneralAddsTwoDiceToHisUnitsAttack) {
  Battlefield bf = clash();
  ScriptThenThrees plain(std::vector<int>(3, 1));
  const CombatReport without = resolve_combat(bf, 0, plain, standing("orcs"));
  ASSERT_NE(first_attack(without, "empire", "orcs"), nullptr);
  EXPECT_EQ(first_attack(without, "empire", "orcs")->dice, 3);

  bf.characters.push_back(joined("kessler", "General Kessler", CharacterRole::General, 2, "empire", 0, 50, 27.5));
  ScriptThenThrees ones(std::vector<int>(5, 1));
  const CombatReport r = resolve_combat(bf, 0, ones, standing("orcs"));
  const CombatAttack* a = first_attack(r, "empire", "orcs");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->stands, 3);
  EXPECT_EQ(a->dice, 5);
  EXPECT_EQ(a->to_hit.size(), 5u);
  const AttackModifier* m = bonus_of(*a, "kessler");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->name, "General Kessler");
  EXPECT_EQ(m->value, 2);
  EXPECT_EQ(m->stands, 1);
  EXPECT_TRUE(ruled(r.rulings, "warmaster.combat.attacks", "General Kessler +2")) << explain(r);
  nlohmann::json j;
  to_json(j, r);
  const nlohmann::json mods = j["rounds"][0]["attacks"][0]["modifiers"];
  ASSERT_EQ(mods.size(), 1u) << j.dump();
  EXPECT_EQ(mods[0]["character"], "kessler");
  EXPECT_EQ(mods[0]["value"], 2);
}

// "A Hero adds +1", and a character who has not joined the unit adds
// nothing however close he stands.
TEST(CombatCharacters, AJoinedHeroAddsOneAndACharacterNearbyButNotJoinedAddsNothing) {
  Battlefield bf = clash();
  bf.characters.push_back(joined("vogt", "Captain Vogt", CharacterRole::Hero, 1, "empire", 0, 50, 27.5));
  bf.characters.push_back(joined("near", "Near By", CharacterRole::Hero, 1, "", 0, 40, 27.5));
  ScriptThenThrees ones(std::vector<int>(4, 1));
  const CombatReport r = resolve_combat(bf, 0, ones, standing("orcs"));
  const CombatAttack* a = first_attack(r, "empire", "orcs");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->dice, 4);
  ASSERT_NE(bonus_of(*a, "vogt"), nullptr);
  EXPECT_EQ(bonus_of(*a, "near"), nullptr);
}

// The bonus goes to one stand: a unit fighting two enemy units adds it once,
// against the one most of its stands fight. The Empire's left two stands
// fight "left", its right stand fights "right".
TEST(CombatCharacters, TheBonusGoesOnceToTheEnemyMostOfTheUnitsStandsFight) {
  Battlefield bf = empty_field();
  bf.units.push_back(with_profile(line_unit("empire", 0, 50, 30), 1, 3));
  bf.units.push_back(with_profile(stand_row("left", 1, {46, 50}, 32, 180), 0, 10));  // 2 stands over x 44 to 52
  bf.units.push_back(with_profile(stand_row("right", 1, {54}, 32, 180), 0, 10));  // 1 stand over x 52 to 56
  bf.characters.push_back(joined("kessler", "General Kessler", CharacterRole::General, 2, "empire", 0, 50, 27.5));
  ScriptThenThrees ones(std::vector<int>(5, 1));
  CombatOptions o = standing("left");
  o.decisions.push_back({"right", CombatChoice::Stand, std::nullopt});
  const CombatReport r = resolve_combat(bf, 0, ones, o);
  const CombatAttack* at_left = first_attack(r, "empire", "left");
  const CombatAttack* at_right = first_attack(r, "empire", "right");
  ASSERT_NE(at_left, nullptr);
  ASSERT_NE(at_right, nullptr);
  EXPECT_EQ(at_left->stands, 2);
  EXPECT_EQ(at_left->dice, 4);  // 2 stands x 1 + 2
  EXPECT_NE(bonus_of(*at_left, "kessler"), nullptr);
  EXPECT_EQ(at_right->dice, 1);
  EXPECT_EQ(bonus_of(*at_right, "kessler"), nullptr);
}

// "Characters are slain if their unit is destroyed in combat": the Empire's
// one stand (Hits 1) takes an unsaved hit from the Orcs and is destroyed;
// Captain Vogt goes with it, listed as slain, and is not on the battlefield
// after.
TEST(CombatCharacters, ACharacterIsSlainWithTheUnitDestroyedInCombat) {
  Battlefield bf = empty_field();
  bf.units.push_back(with_profile(stand_row("empire", 0, {50}, 30, 0), 1, 1));
  bf.units.push_back(with_profile(stand_row("orcs", 1, {50}, 32, 180), 1, 10));
  bf.characters.push_back(joined("vogt", "Captain Vogt", CharacterRole::Hero, 1, "empire", 0, 50, 27.5));
  // The Empire's 2 dice (1 + Vogt's 1) miss; the Orcs' one die hits on a 6.
  ScriptedDice dice({1, 1, 6});
  const CombatReport r = resolve_combat(bf, 0, dice, standing("orcs"));
  EXPECT_EQ(r.after.find_unit("empire"), nullptr);
  EXPECT_EQ(r.slain, (std::vector<std::string>{"vogt"}));
  EXPECT_TRUE(std::none_of(r.after.characters.begin(), r.after.characters.end(),
                           [](const Character& c) { return c.id == "vogt"; }));
  EXPECT_TRUE(ruled(r.rulings, "warmaster.combat.characters", "vogt is slain with empire")) << explain(r);
  nlohmann::json j;
  to_json(j, r);
  EXPECT_EQ(j["slain"], nlohmann::json::array({"vogt"}));
}

// "... or by shooting": three 6s destroy the spears (Hits 1); the Hero who
// had joined them is slain, and a General slain makes his army withdraw.
TEST(CombatCharacters, CharactersAreSlainWithAUnitDestroyedByShootingAndASlainGeneralEndsTheBattle) {
  Battlefield bf = empty_field();
  bf.units.push_back(with_profile(line_unit("bows", 0, 90, 40), 1, 3, Missile::Bow));
  bf.units.push_back(with_profile(line_unit("spears", 1, 90, 60, 180), 3, 1));
  bf.units.push_back(with_profile(line_unit("far", 1, 20, 100, 180), 3, 3));
  bf.armies[1].break_point = 2;  // so the General, not the break point, ends it
  bf.characters.push_back(character("g0", 0, CharacterRole::General, 9, 150, 10));
  bf.characters.push_back(joined("g1", "Warboss Grulg", CharacterRole::General, 2, "spears", 1, 90, 62.5));
  bf.characters.push_back(joined("h1", "Big Boss Skab", CharacterRole::Hero, 1, "spears", 1, 94, 62.5));

  ScriptedDice six({6, 6, 6});
  const ShootingResult shot = resolve_shooting(bf, 0, six, {});
  EXPECT_EQ(shot.slain, (std::vector<std::string>{"g1", "h1"}));
  EXPECT_TRUE(ruled(shot.rulings, "warmaster.combat.characters", "g1, h1 are slain with spears"));

  WarmasterState s(make_game(bf));
  ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
  const ActionOutcome o = play(s, simple(ActionType::Shoot), {6, 6, 6});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_TRUE(s.characters()[1].slain);
  EXPECT_TRUE(s.characters()[1].lost);
  EXPECT_TRUE(s.characters()[2].slain);
  EXPECT_TRUE(s.battlefield().characters[2].joined_unit.empty());
  ASSERT_TRUE(s.battle_over());
  EXPECT_EQ(s.winner(), 0);
  EXPECT_EQ(s.battle_over_reason(), "the General g1 was slain with spears: his army withdraws");
  // The state keeps them slain, and a slain character never rolls to return.
  const Json state = state_to_json(s);
  EXPECT_EQ(state["characters"][1]["slain"], true);
  const WarmasterState back = state_from_json(make_game(bf), state, "state");
  EXPECT_TRUE(back.characters()[2].slain);
  EXPECT_FALSE(back.characters()[2].returns_next_turn);
  Json bad = state;
  bad["characters"][2]["lost"] = false;
  EXPECT_EQ(test_support::error_of([&] { state_from_json(make_game(bf), bad, "state"); }),
            "state.characters[2].slain: a slain character is lost");
}

// A battle file gives a character its bonus as "attacks", or names its army
// list's character; a bad one is refused naming the field.
TEST(CombatCharacters, TheBattleFileGivesACharactersAttacksOrTakesItsArmyListsValue) {
  Json j = load_json_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/pitched-battle.json");
  const Battlefield bf = parse_battlefield(j);
  const Character* general = bf.find_character("emp-general");
  const Character* hero = bf.find_character("emp-hero");
  ASSERT_NE(general, nullptr);
  ASSERT_NE(hero, nullptr);
  EXPECT_EQ(general->attacks, 2);  // the list's empire-general: Command 9, +2
  EXPECT_EQ(general->command, 9);
  EXPECT_EQ(general->role, CharacterRole::General);
  EXPECT_EQ(general->name, "General Kessler");
  EXPECT_EQ(hero->attacks, 1);
  EXPECT_EQ(to_json(bf)["armies"][0]["characters"][0]["attacks"], 2);

  Json own = j;
  Json& c = own["armies"][0]["characters"][1];
  c.erase("troop");
  c["role"] = "hero";
  c["command"] = 8;
  EXPECT_EQ(parse_battlefield(own).find_character("emp-hero")->attacks, 0) << "no troop and no attacks: 0";
  c["attacks"] = 3;
  EXPECT_EQ(parse_battlefield(own).find_character("emp-hero")->attacks, 3);
  c["attacks"] = 11;
  EXPECT_EQ(test_support::error_of([&] { parse_battlefield(own); }),
            "armies[0].characters[1].attacks: 11 is out of range [0, 10]");
  c["attacks"] = "+2";
  EXPECT_NE(test_support::error_of([&] { parse_battlefield(own); }).find("armies[0].characters[1].attacks"),
            std::string::npos);

  Json both = j;
  both["armies"][0]["characters"][0]["attacks"] = 1;
  EXPECT_EQ(test_support::error_of([&] { parse_battlefield(both); }),
            "armies[0].characters[0].attacks: given by its troop \"empire-general\": a character names a troop or "
            "gives its profile, not both");
  Json unknown = j;
  unknown["armies"][0]["characters"][0]["troop"] = "empire-emperor";
  EXPECT_EQ(test_support::error_of([&] { parse_battlefield(unknown); }),
            "armies[0].characters[0].troop: no character \"empire-emperor\" in army list \"empire-orcs\"");
}

}  // namespace referee::warmaster
