// The Combat phase (play sheet, "3. COMBAT"; combat.hpp), with scripted
// dice so each figure is worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "referee/core/dice.hpp"
#include "referee/core/errors.hpp"
#include "referee/warmaster/combat/combat.hpp"
#include "warmaster_test_fields.hpp"

using namespace referee;
using namespace referee::warmaster;
using namespace referee::warmaster::testing;

namespace {

// The Empire (side 0) in line at y = 30 facing north; the Orcs (side 1) in
// line at y = 32 facing south: the two front edges touch along y = 31.
// Infantry stands are 4 x 2 cm, so the lines cover x 44 to 56.
Battlefield duel() {
  Battlefield bf = empty_field();
  Unit emp = infantry("empire", 0, {{{46, 30}, 0}, {{50, 30}, 0}, {{54, 30}, 0}});
  emp.attacks = 1;
  emp.hits = 3;
  bf.units.push_back(emp);
  Unit orcs = infantry("orcs", 1, {{{46, 32}, 180}, {{50, 32}, 180}, {{54, 32}, 180}});
  orcs.attacks = 0;  // the orcs roll no dice unless a test gives them Attacks
  orcs.hits = 10;    // and lose no stand
  bf.units.push_back(orcs);
  return bf;
}

CombatOptions stand_fast(const std::string& unit) {
  CombatOptions o;
  o.decisions.push_back({unit, CombatChoice::Stand, std::nullopt});
  return o;
}

bool has_rule(const CombatReport& r, const std::string& id) {
  for (const Ruling& x : r.rulings)
    if (x.rule == id) return true;
  return false;
}

std::string reasons(const CombatReport& r) {
  std::string s;
  for (const Ruling& x : r.rulings) s += x.rule + ": " + x.reason + "\n";
  return s;
}

// The script first, then seeded rolls: for tests that check round 1 and
// only need later rounds to happen.
class ThenSeeded final : public Dice {
 public:
  explicit ThenSeeded(std::vector<int> script) : script_(script.begin(), script.end()), rng_(1) {}

 protected:
  int draw(int sides, const std::string&) override {
    if (script_.empty()) return 1 + static_cast<int>(rng_.below(static_cast<std::uint64_t>(sides)));
    const int v = script_.front();
    script_.erase(script_.begin());
    return v;
  }

 private:
  std::vector<int> script_;
  Rng rng_;
};

const CombatAttack* attack(const CombatReport& r, int round, const std::string& attacker, const std::string& target) {
  for (const CombatRound& cr : r.rounds)
    if (cr.round == round)
      for (const CombatAttack& a : cr.attacks)
        if (a.attacker == attacker && a.target == target) return &a;
  return nullptr;
}

const CombatMove* move_of(const CombatReport& r, const std::string& unit, int round = 1) {
  for (const CombatRound& cr : r.rounds)
    if (cr.round == round)
      for (const CombatMove& m : cr.moves)
        if (m.unit == unit) return &m;
  return nullptr;
}

int modifier(const CombatAttack& a, const std::string& starts_with) {
  int v = 0;
  for (const AttackModifier& m : a.modifiers)
    if (m.name.rfind(starts_with, 0) == 0) v += m.value * m.stands;
  return v;
}

double centre_y(const Battlefield& bf, const std::string& id) {
  const Unit& u = *bf.find_unit(id);
  double y = 0;
  for (const Stand& s : u.stands) y += s.pose.position.y / static_cast<double>(u.stands.size());
  return y;
}

}  // namespace

// An engagement is a connected group: A touches B, B touches C. A pair
// elsewhere on the table is a second engagement; units apart are in none.
TEST(Combat, EngagementsAreConnectedGroupsOfUnitsInContact) {
  Battlefield bf = empty_field();
  bf.units.push_back(infantry("a", 0, {{{50, 30}, 0}}));
  bf.units.push_back(infantry("b", 1, {{{50, 32}, 180}}));
  bf.units.push_back(infantry("c", 0, {{{53, 32}, 270}}));  // against b's right side (x 52)
  bf.units.push_back(infantry("d", 0, {{{120, 30}, 0}}));
  bf.units.push_back(infantry("e", 1, {{{120, 32}, 180}}));
  bf.units.push_back(infantry("f", 1, {{{150, 80}, 180}}));
  const auto e = find_engagements(bf);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].units, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(e[1].units, (std::vector<std::string>{"d", "e"}));
  // Half a millimetre apart still touches (contact tolerance); a millimetre does not.
  bf.units[4].stands[0].pose.position.y = 32.05;
  EXPECT_EQ(find_engagements(bf).size(), 2u);
  bf.units[4].stands[0].pose.position.y = 32.1;
  EXPECT_EQ(find_engagements(bf).size(), 1u);
}

// "Charging enemy in the open +1": three stands of Attacks 1 roll 2 dice each.
TEST(Combat, ChargingAnEnemyInTheOpenAddsOneAttack) {
  Battlefield bf = duel();
  CombatOptions o = stand_fast("empire");
  o.charged = {"empire"};
  SeededDice dice(3);
  CombatReport r = resolve_combat(bf, 0, dice, o);
  const CombatAttack* a = attack(r, 1, "empire", "orcs");
  ASSERT_NE(a, nullptr) << reasons(r);
  EXPECT_EQ(a->stands, 3);
  EXPECT_EQ(a->dice, 6);
  EXPECT_EQ(modifier(*a, "charging an enemy in the open"), 3);
  EXPECT_TRUE(has_rule(r, "warmaster.combat.engagement"));
  EXPECT_TRUE(has_rule(r, "warmaster.combat.attacks"));
  EXPECT_TRUE(has_rule(r, "warmaster.combat.hits"));
  EXPECT_TRUE(has_rule(r, "warmaster.combat.result"));
  // Not charging: 1 die a stand.
  SeededDice again(3);
  EXPECT_EQ(attack(resolve_combat(bf, 0, again, stand_fast("empire")), 1, "empire", "orcs")->dice, 3);
}

// "Monster/chariot charging enemy in open +1" on top of the charge's +1.
TEST(Combat, AChariotChargingInTheOpenAddsOneMore) {
  Battlefield bf = duel();
  Unit& c = bf.units[0];
  c.type = TroopType::Chariot;
  c.width = 4;  // a chariot stand given a 4 cm frontage by its army list
  c.attacks = 3;
  CombatOptions o = stand_fast("empire");
  o.charged = {"empire"};
  SeededDice dice(5);
  CombatReport r = resolve_combat(bf, 0, dice, o);
  const CombatAttack* a = attack(r, 1, "empire", "orcs");
  ASSERT_NE(a, nullptr) << reasons(r);
  EXPECT_EQ(a->dice, 3 * (3 + 1 + 1));
  EXPECT_EQ(modifier(*a, "monster or chariot"), 3);
}

// A charge against a defended enemy earns nothing: "in the open" only. And
// the defended orcs are hit on 5+.
TEST(Combat, NoChargeBonusAgainstADefendedEnemy) {
  Battlefield bf = duel();
  bf.terrain.push_back(area("wood-1", TerrainKind::Wood, {{40, 31.5}, {60, 31.5}, {60, 40}, {40, 40}}));
  CombatOptions o = stand_fast("empire");
  o.charged = {"empire"};
  SeededDice dice(5);
  CombatReport r = resolve_combat(bf, 0, dice, o);
  const CombatAttack* a = attack(r, 1, "empire", "orcs");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->position, Position::Defended);
  EXPECT_EQ(a->needed, 5);
  EXPECT_EQ(a->dice, 3);
}

// "Fighting terrifying enemy -1" and "Confused -1": Attacks 3 become 1.
TEST(Combat, TerrorAndConfusionEachTakeOneAttack) {
  Battlefield bf = duel();
  bf.units[0].attacks = 3;
  bf.units[0].confused = true;
  bf.units[1].terrifying = true;
  SeededDice dice(7);
  CombatReport r = resolve_combat(bf, 0, dice, stand_fast("empire"));
  const CombatAttack* a = attack(r, 1, "empire", "orcs");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->dice, 3 * 1);
  EXPECT_EQ(modifier(*a, "fighting a terrifying enemy"), -3);
  EXPECT_EQ(modifier(*a, "confused"), -3);
  // Modifiers never take a stand below 0 dice.
  Battlefield low = duel();
  low.units[0].confused = true;
  low.units[1].terrifying = true;
  SeededDice d2(7);
  EXPECT_EQ(attack(resolve_combat(low, 0, d2, stand_fast("empire")), 1, "empire", "orcs")->dice, 0);
}

// "Fighting to side or rear -1": an orc stand against the right side of the
// empire's right-hand stand (x 56) fights it; that stand fights at -1.
TEST(Combat, FightingToTheSideCostsOneAttack) {
  Battlefield bf = empty_field();
  Unit emp = infantry("empire", 0, {{{50, 30}, 0}});
  emp.attacks = 3;
  emp.hits = 3;
  bf.units.push_back(emp);
  Unit orc = infantry("orc", 1, {{{53, 30}, 270}});  // facing west, front edge at x 52
  orc.attacks = 2;
  orc.hits = 3;
  bf.units.push_back(orc);
  SeededDice dice(2);
  CombatOptions o = stand_fast("empire");
  o.decisions.push_back({"orc", CombatChoice::Stand, std::nullopt});
  CombatReport r = resolve_combat(bf, 0, dice, o);
  const CombatAttack* a = attack(r, 1, "empire", "orc");
  ASSERT_NE(a, nullptr) << reasons(r);
  EXPECT_EQ(a->dice, 2);
  EXPECT_EQ(modifier(*a, "fighting to the side or rear"), -1);
  const CombatAttack* b = attack(r, 1, "orc", "empire");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->dice, 2);  // the orc fights with its front edge
  EXPECT_TRUE(b->modifiers.empty());
}

// "+1 to Combat result per supporting stand": a column of three, the front
// stand fighting, the two behind supporting. Empire: 3 dice 4, 5, 1 (two
// hits on 4+, no armour); the single orc stand: 3 dice 4, 2, 2 (one hit).
// Result 2 + 2 support = 4 against 1: the empire wins by 3 and the orcs
// retreat 3 cm.
TEST(Combat, TheResultIsHitsPlusOnePerSupportingStand) {
  Battlefield bf = empty_field();
  Unit emp = infantry("empire", 0, {{{50, 30}, 0}, {{50, 28}, 0}, {{50, 26}, 0}});
  emp.attacks = 3;
  emp.hits = 3;
  bf.units.push_back(emp);
  Unit orc = infantry("orcs", 1, {{{50, 32}, 180}});
  orc.attacks = 3;
  orc.hits = 3;
  bf.units.push_back(orc);
  ScriptedDice dice({4, 5, 1, 4, 2, 2});
  CombatReport r = resolve_combat(bf, 0, dice, stand_fast("empire"));
  ASSERT_EQ(r.rounds.size(), 1u) << reasons(r);
  const CombatRound& cr = r.rounds[0];
  EXPECT_EQ(cr.sides[0].hits, 2);
  EXPECT_EQ(cr.sides[0].support, 2);
  EXPECT_EQ(cr.sides[0].result, 4);
  EXPECT_EQ(cr.sides[1].result, 1);
  ASSERT_TRUE(cr.winner.has_value());
  EXPECT_EQ(*cr.winner, 0);
  EXPECT_EQ(cr.difference, 3);
  EXPECT_NEAR(centre_y(r.after, "orcs"), 35, 1e-9);
  EXPECT_TRUE(has_rule(r, "warmaster.combat.support"));
  EXPECT_TRUE(has_rule(r, "warmaster.combat.stand"));
  EXPECT_EQ(dice.remaining(), 0u);
  // "Confused units cannot support": the same rolls, now 2 against 1, by 1.
  bf.units[0].confused = true;
  bf.units[0].attacks = 4;  // 3 dice after the confusion's -1
  ScriptedDice d2({4, 5, 1, 4, 2, 2});
  CombatReport c = resolve_combat(bf, 0, d2, stand_fast("empire"));
  EXPECT_EQ(c.rounds[0].sides[0].support, 0);
  EXPECT_EQ(c.rounds[0].difference, 1);
}

// Hits are saved by the target's Armour; a stand goes per full Hits value.
TEST(Combat, ArmourSavesAndCasualties) {
  Battlefield bf = duel();
  bf.units[0].attacks = 2;   // 6 dice
  bf.units[1].armour = 5;
  bf.units[1].hits = 1;
  // To hit 6 6 6 1 1 4: four hits; saves 5 (saved), 6 (saved), 2, 1: two unsaved.
  ScriptedDice dice({6, 6, 6, 1, 1, 4, 5, 6, 2, 1});
  CombatReport r = resolve_combat(bf, 0, dice, stand_fast("empire"));
  const CombatAttack* a = attack(r, 1, "empire", "orcs");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->hits, 4);
  EXPECT_EQ(a->unsaved, 2);
  ASSERT_EQ(r.rounds[0].casualties.size(), 1u);
  EXPECT_EQ(r.rounds[0].casualties[0].stands_removed, 2);
  EXPECT_EQ(r.after.find_unit("orcs")->stands.size(), 1u);
  EXPECT_EQ(r.after.find_unit("orcs")->stands_lost, 2);
  EXPECT_TRUE(has_rule(r, "warmaster.combat.casualties"));
}

// "Draw: both sides fall back up to 3D6cm and must fall back by the score of
// the lowest dice." No hits either way: the empire rolls 5, 2, 6 and falls
// back 2 cm; the orcs roll 3, 4, 4 and fall back 3 cm.
TEST(Combat, ADrawFallsBackByTheLowestDie) {
  Battlefield bf = duel();
  ScriptedDice dice({1, 1, 1, 5, 2, 6, 3, 4, 4});
  CombatReport r = resolve_combat(bf, 0, dice);
  ASSERT_EQ(r.rounds.size(), 1u);
  EXPECT_FALSE(r.rounds[0].winner.has_value());
  EXPECT_NEAR(centre_y(r.after, "empire"), 28, 1e-9);
  EXPECT_NEAR(centre_y(r.after, "orcs"), 35, 1e-9);
  EXPECT_TRUE(has_rule(r, "warmaster.combat.draw"));
  EXPECT_FALSE(r.after.find_unit("empire")->engaged);
  // "Up to 3D6cm": a player may ask for more, up to the total (13 cm), and
  // never less than the lowest die.
  CombatOptions o;
  o.decisions = {{"empire", CombatChoice::FallBack, 20.0}, {"orcs", CombatChoice::FallBack, 1.0}};
  ScriptedDice d2({1, 1, 1, 5, 2, 6, 3, 4, 4});
  CombatReport far = resolve_combat(bf, 0, d2, o);
  EXPECT_NEAR(centre_y(far.after, "empire"), 30 - 13, 1e-9);
  EXPECT_NEAR(centre_y(far.after, "orcs"), 32 + 3, 1e-9);
}

// "A defended or fortified unit can stand its ground instead" (our default
// for it): the orcs in a wood stand, the empire falls back 2 cm (2 2 6).
TEST(Combat, ADefendedUnitStandsAfterADraw) {
  Battlefield bf = duel();
  bf.terrain.push_back(area("wood-1", TerrainKind::Wood, {{40, 31.5}, {60, 31.5}, {60, 40}, {40, 40}}));
  ScriptedDice dice({1, 1, 1, 2, 2, 6});
  CombatReport r = resolve_combat(bf, 0, dice);
  ASSERT_EQ(r.rounds.size(), 1u) << reasons(r);
  const CombatMove* m = move_of(r, "orcs");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->kind, CombatMoveKind::Stand);
  EXPECT_NEAR(centre_y(r.after, "orcs"), 32, 1e-9);
  EXPECT_NEAR(centre_y(r.after, "empire"), 28, 1e-9);
  EXPECT_EQ(dice.remaining(), 0u);
}

// "The loser must retreat by the difference in Combat results in cm", and
// several losers share it, rounded up: two orc units lose by 5, each
// retreats 3 cm.
TEST(Combat, SeveralLosersShareTheDifferenceRoundedUp) {
  Battlefield bf = duel();
  bf.units[0].attacks = 4;
  bf.units[1].stands = {{{{44, 32}, 180}}};
  bf.units[1].id = "orcs-a";
  Unit b = bf.units[1];
  b.id = "orcs-b";
  b.stands = {{{{56, 32}, 180}}};
  bf.units.push_back(b);
  // Empire against a: 6 6 6 1 (3 hits); against b: 5 4 1 1 (2 hits).
  ScriptedDice dice({6, 6, 6, 1, 5, 4, 1, 1});
  CombatReport r = resolve_combat(bf, 0, dice, stand_fast("empire"));
  ASSERT_EQ(r.rounds.size(), 1u) << reasons(r);
  EXPECT_EQ(r.rounds[0].difference, 5);
  EXPECT_EQ(move_of(r, "orcs-a")->distance, 3) << reasons(r);
  EXPECT_NEAR(centre_y(r.after, "orcs-a"), 35, 1e-9);
  EXPECT_NEAR(centre_y(r.after, "orcs-b"), 35, 1e-9);
  EXPECT_TRUE(has_rule(r, "warmaster.combat.retreat"));
}

// The winner pursues by default, and the pursuit fights another round:
// "Pursuit attack +1", "Extra pursuit attack (per 3cm) +1". The orcs
// retreat 3 cm (6 6 6), the empire follows, and in round 2 each stand rolls
// 1 + 1 + 1 = 3 dice. Round 2: nine 1s and no hits: a draw; the empire
// falls back 2 (2 3 4), the orcs 5 (5 5 6).
TEST(Combat, PursuitFightsAnotherRoundWithExtraAttacks) {
  Battlefield bf = duel();
  Character hero;
  hero.id = "captain";
  hero.side = 0;
  hero.pose = {{50, 27}, 0};
  hero.joined_unit = "empire";
  bf.characters.push_back(hero);
  std::vector<int> script{6, 6, 6};
  for (int k = 0; k < 9; ++k) script.push_back(1);
  for (int v : {2, 3, 4, 5, 5, 6}) script.push_back(v);
  ScriptedDice dice(script);
  CombatReport r = resolve_combat(bf, 0, dice);
  ASSERT_EQ(r.rounds.size(), 2u) << reasons(r);
  const CombatMove* p = move_of(r, "empire", 1);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->kind, CombatMoveKind::Pursuit);
  EXPECT_NEAR(p->moved, 3, 1e-9);
  const CombatAttack* a = attack(r, 2, "empire", "orcs");
  ASSERT_NE(a, nullptr) << reasons(r);
  EXPECT_EQ(a->dice, 9);
  EXPECT_EQ(modifier(*a, "pursuit attack"), 3);
  EXPECT_EQ(modifier(*a, "extra pursuit attacks"), 3);
  EXPECT_FALSE(r.rounds[1].winner.has_value());
  EXPECT_NEAR(centre_y(r.after, "orcs"), 32 + 3 + 5, 1e-9);
  EXPECT_NEAR(centre_y(r.after, "empire"), 30 + 3 - 2, 1e-9);
  // "Characters which have joined units are moved with them."
  EXPECT_NEAR(r.after.find_character("captain")->pose.position.y, 27 + 3 - 2, 1e-9);
  EXPECT_TRUE(has_rule(r, "warmaster.combat.pursuit"));
  EXPECT_TRUE(has_rule(r, "warmaster.combat.round"));
  EXPECT_TRUE(has_rule(r, "warmaster.combat.fall_back") || has_rule(r, "warmaster.combat.draw"));
  EXPECT_EQ(dice.remaining(), 0u);
}

// Under 3 cm retreated: the pursuit's +1 only.
TEST(Combat, ARetreatUnderThreeCentimetresGivesNoExtraAttack) {
  Battlefield bf = duel();
  std::vector<int> script{6, 6, 1};  // wins by 2: a 2 cm retreat
  for (int k = 0; k < 6; ++k) script.push_back(1);
  for (int v : {1, 1, 1, 1, 1, 1}) script.push_back(v);
  ScriptedDice dice(script);
  CombatReport r = resolve_combat(bf, 0, dice);
  const CombatAttack* a = attack(r, 2, "empire", "orcs");
  ASSERT_NE(a, nullptr) << reasons(r);
  EXPECT_EQ(a->dice, 6);
  EXPECT_EQ(modifier(*a, "extra pursuit attacks"), 0);
}

// A winning empire unit of `type` against a losing orc unit of `loser`, the
// empire winning 3-0 in round 1 (6 6 6, the orcs have no Attacks).
CombatReport one_sided(TroopType type, TroopType loser, Battlefield bf, const Settings& s = {}) {
  bf.units[0].type = type;
  bf.units[1].type = loser;
  ThenSeeded dice({6, 6, 6});
  return resolve_combat(bf, 0, dice, {}, s);
}

void expect_no_pursuit(const CombatReport& r, const std::string& why) {
  ASSERT_EQ(r.rounds.size(), 1u) << reasons(r);
  const CombatMove* m = move_of(r, "empire");
  ASSERT_NE(m, nullptr) << reasons(r);
  EXPECT_EQ(m->kind, CombatMoveKind::Stand);
  bool found = false;
  for (const Ruling& x : r.rulings)
    found = found || (x.rule == "warmaster.combat.pursuit_refused" && x.reason.find(why) != std::string::npos);
  EXPECT_TRUE(found) << why << "\n" << reasons(r);
}

// "Infantry cannot pursue cavalry or chariots."
TEST(Combat, InfantryCannotPursueCavalryOrChariots) {
  Battlefield bf = duel();
  bf.units[1].width = 4;  // keep the orcs' 4 cm frontage, whatever their type
  expect_no_pursuit(one_sided(TroopType::Infantry, TroopType::Cavalry, bf), "infantry cannot pursue cavalry");
  expect_no_pursuit(one_sided(TroopType::Infantry, TroopType::Chariot, bf), "infantry cannot pursue chariot");
  // Cavalry may pursue cavalry.
  CombatReport ok = one_sided(TroopType::Cavalry, TroopType::Cavalry, bf);
  ASSERT_NE(move_of(ok, "empire"), nullptr);
  EXPECT_EQ(move_of(ok, "empire")->kind, CombatMoveKind::Pursuit) << reasons(ok);
}

// "Artillery never pursue and are destroyed if they retreat."
TEST(Combat, ArtilleryNeverPursueAndAreDestroyedIfTheyRetreat) {
  Battlefield bf = duel();
  expect_no_pursuit(one_sided(TroopType::Artillery, TroopType::Infantry, bf), "artillery never pursue");
  CombatReport r = one_sided(TroopType::Infantry, TroopType::Artillery, bf);
  EXPECT_EQ(r.after.find_unit("orcs"), nullptr);
  const CombatMove* m = move_of(r, "orcs");
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(m->destroyed);
  EXPECT_TRUE(has_rule(r, "warmaster.combat.artillery"));
}

// "Fortified units never pursue."
TEST(Combat, FortifiedUnitsNeverPursue) {
  Battlefield bf = duel();
  bf.units[0].fortified = true;
  expect_no_pursuit(one_sided(TroopType::Infantry, TroopType::Infantry, bf), "fortified units never pursue");
}

// "Troops cannot pursue enemy retreating into terrain they cannot enter":
// the orcs retreat 3 cm into a wood 1 cm behind them; cavalry may not enter
// woods, infantry may.
TEST(Combat, NoPursuitIntoTerrainThePursuerCannotEnter) {
  Battlefield bf = duel();
  bf.terrain.push_back(area("wood-1", TerrainKind::Wood, {{40, 34}, {60, 34}, {60, 50}, {40, 50}}));
  Battlefield cav = bf;
  cav.units[0].width = 4;
  expect_no_pursuit(one_sided(TroopType::Cavalry, TroopType::Infantry, cav), "which cavalry cannot enter");
  CombatReport inf = one_sided(TroopType::Infantry, TroopType::Infantry, bf);
  EXPECT_EQ(move_of(inf, "empire")->kind, CombatMoveKind::Pursuit) << reasons(inf);
}

// "Non-flying units cannot pursue flyers."
TEST(Combat, NonFlyersCannotPursueFlyers) {
  Battlefield bf = duel();
  expect_no_pursuit(one_sided(TroopType::Infantry, TroopType::Flyer, bf), "non-flying units cannot pursue flyers");
  CombatReport r = one_sided(TroopType::Flyer, TroopType::Flyer, bf);
  EXPECT_EQ(move_of(r, "empire")->kind, CombatMoveKind::Pursuit) << reasons(r);
}

// The winner's decisions: stand, fall back, or (the enemy destroyed) advance.
TEST(Combat, TheWinnerMayStandFallBackOrAdvance) {
  Battlefield bf = duel();
  CombatOptions o;
  o.decisions = {{"empire", CombatChoice::FallBack, std::nullopt}};
  ScriptedDice dice({6, 6, 6, 4, 5, 6});  // wins by 3; falls back the lowest of 4 5 6
  CombatReport r = resolve_combat(bf, 0, dice, o);
  EXPECT_EQ(move_of(r, "empire")->kind, CombatMoveKind::FallBack);
  EXPECT_NEAR(centre_y(r.after, "empire"), 26, 1e-9);
  EXPECT_TRUE(has_rule(r, "warmaster.combat.fall_back"));
  // The orcs destroyed (Hits 1, three unsaved hits): the empire advances 5 cm.
  Battlefield weak = duel();
  weak.units[1].hits = 1;
  o.decisions = {{"empire", CombatChoice::Advance, 5.0}};
  ScriptedDice d2({6, 6, 6});
  CombatReport adv = resolve_combat(weak, 0, d2, o);
  EXPECT_EQ(adv.after.find_unit("orcs"), nullptr);
  EXPECT_EQ(move_of(adv, "empire")->kind, CombatMoveKind::Advance) << reasons(adv);
  EXPECT_NEAR(centre_y(adv.after, "empire"), 35, 1e-9);
  EXPECT_TRUE(has_rule(adv, "warmaster.combat.advance"));
}

// "Units that leave the table as a result of retreating from combat are
// deemed destroyed", and a character joined to them "suffers the same fate".
TEST(Combat, RetreatingOffTheTableDestroysTheUnit) {
  Battlefield bf = duel();
  bf.height = 35;  // the orcs' rear edge at 33
  Character boss;
  boss.id = "boss";
  boss.side = 1;
  boss.pose = {{50, 32}, 180};
  boss.joined_unit = "orcs";
  bf.characters.push_back(boss);
  ScriptedDice dice({6, 6, 6});
  CombatReport r = resolve_combat(bf, 0, dice);
  EXPECT_EQ(r.after.find_unit("orcs"), nullptr);
  EXPECT_EQ(r.after.find_character("boss"), nullptr);
  const CombatMove* m = move_of(r, "orcs");
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(m->left_table);
  EXPECT_TRUE(m->destroyed);
  ASSERT_TRUE(m->off_table.has_value());
  EXPECT_EQ(m->off_table->outcome, OffTableOutcome::Destroyed);
  EXPECT_TRUE(has_rule(r, "warmaster.movement.off_table"));
  EXPECT_EQ(dice.remaining(), 0u);  // no chart roll
}

// "In any other situation roll a D6 and then consult the table": a draw's
// fall back over the table edge is not a retreat, so the empire rolls on the
// chart (a 5: it may come back) and is off the table at the end of the phase.
TEST(Combat, FallingBackOffTheTableRollsOnTheChart) {
  Battlefield bf = duel();
  for (Stand& s : bf.units[0].stands) s.pose.position.y = 1.2;  // rear edge at y 0.2
  for (Stand& s : bf.units[1].stands) s.pose.position.y = 3.2;
  ScriptedDice dice({1, 1, 1, 2, 3, 4, 5, 1, 1, 1});
  CombatReport r = resolve_combat(bf, 0, dice);
  const CombatMove* m = move_of(r, "empire");
  ASSERT_NE(m, nullptr) << reasons(r);
  EXPECT_TRUE(m->left_table);
  EXPECT_FALSE(m->destroyed);
  ASSERT_TRUE(m->off_table.has_value());
  EXPECT_EQ(m->off_table->roll, 5);
  EXPECT_EQ(m->off_table->outcome, OffTableOutcome::ReturnsMayMove);
  EXPECT_EQ(r.after.find_unit("empire"), nullptr);
  EXPECT_NEAR(centre_y(r.after, "orcs"), 4.2, 1e-9);
  EXPECT_EQ(dice.remaining(), 0u);
}

// The setting is read from a battle file's settings, and written only when
// it differs from the default (so older logs keep their exact text).
TEST(Combat, BlockedRetreatSettingRoundTrips) {
  Settings s = settings_from_json(nlohmann::json::parse(R"({"blocked_retreat_cm_per_stand": 5})"));
  EXPECT_EQ(s.blocked_retreat_cm_per_stand, 5.0);
  nlohmann::json j;
  to_json(j, s);
  EXPECT_EQ(j.at("blocked_retreat_cm_per_stand"), 5.0);
  to_json(j, Settings{});
  EXPECT_FALSE(j.contains("blocked_retreat_cm_per_stand"));
  EXPECT_THROW(settings_from_json(nlohmann::json::parse(R"({"blocked_retreat_cm_per_stand": 0})")), InputError);
}

// "If a unit is forced to retreat into impassable terrain during combat, then
// stands may be destroyed": a deep river 1 cm behind the orcs stops a 5 cm
// retreat after about 1 cm; the 4 cm it could not make cost 2 stands (one per
// 3 cm or part, docs/rulings.md#warmaster-combat-blocked-retreat).
TEST(Combat, ARetreatIntoImpassableTerrainCostsStands) {
  Battlefield bf = duel();
  bf.units[0].attacks = 2;  // 6 dice
  bf.terrain.push_back(area("river-1", TerrainKind::DeepRiver, {{30, 34}, {70, 34}, {70, 40}, {30, 40}}));
  ScriptedDice dice({6, 6, 6, 6, 6, 1});
  CombatOptions o = stand_fast("empire");
  CombatReport r = resolve_combat(bf, 0, dice, o);
  const CombatMove* m = move_of(r, "orcs");
  ASSERT_NE(m, nullptr) << reasons(r);
  EXPECT_TRUE(m->blocked);
  EXPECT_NEAR(m->moved, 1.04, 0.015);
  EXPECT_EQ(m->stands_lost, 2);
  EXPECT_EQ(r.after.find_unit("orcs")->stands.size(), 1u);
  EXPECT_TRUE(has_rule(r, "warmaster.combat.blocked_retreat"));
  // A gentler reading: one stand per 5 cm.
  Settings s;
  s.blocked_retreat_cm_per_stand = 5;
  ScriptedDice d2({6, 6, 6, 6, 6, 1});
  EXPECT_EQ(move_of(resolve_combat(bf, 0, d2, o, s), "orcs")->stands_lost, 1);
}

// Characters move with their units when they retreat; one whose unit is
// destroyed in the fight is slain with it ("characters are slain if their
// unit is destroyed in combat").
TEST(Combat, CharactersMoveWithTheirUnits) {
  Battlefield bf = duel();
  Character boss;
  boss.id = "boss";
  boss.side = 1;
  boss.pose = {{50, 36}, 180};
  boss.joined_unit = "orcs";
  bf.characters.push_back(boss);
  ScriptedDice dice({6, 6, 6});
  CombatReport r = resolve_combat(bf, 0, dice, stand_fast("empire"));
  EXPECT_NEAR(r.after.find_character("boss")->pose.position.y, 39, 1e-9);
  bf.units[1].hits = 1;
  ScriptedDice d2({6, 6, 6});
  CombatReport gone = resolve_combat(bf, 0, d2, stand_fast("empire"));
  EXPECT_EQ(gone.after.find_unit("orcs"), nullptr);
  EXPECT_EQ(gone.after.find_character("boss"), nullptr);
  EXPECT_EQ(gone.slain, (std::vector<std::string>{"boss"}));
}

TEST(Combat, NoContactNoCombatAndBadInput) {
  Battlefield bf = duel();
  for (Stand& s : bf.units[1].stands) s.pose.position.y += 10;
  ScriptedDice dice({});
  CombatReport r = resolve_combat(bf, 0, dice);
  EXPECT_TRUE(r.engagements.empty());
  EXPECT_TRUE(r.rounds.empty());
  EXPECT_THROW(resolve_combat(bf, 2, dice), InputError);
  CombatOptions o;
  o.charged = {"nobody"};
  EXPECT_THROW(resolve_combat(bf, 0, dice, o), InputError);
  try {
    combat_options_from_json(nlohmann::json::parse(R"({"decisions":[{"unit":"empire","choice":"flee"}]})"), bf);
    ADD_FAILURE() << "an unknown choice was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("options.decisions[0].choice"), std::string::npos) << e.what();
  }
  const CombatOptions ok = combat_options_from_json(
      nlohmann::json::parse(R"({"charged":["empire"],"decisions":[{"unit":"orcs","choice":"fall_back","distance":4}]})"),
      bf);
  EXPECT_EQ(ok.charged, std::vector<std::string>{"empire"});
  EXPECT_EQ(ok.decisions[0].choice, CombatChoice::FallBack);
  EXPECT_EQ(*ok.decisions[0].distance, 4.0);
}

// One die each hitting on 4+ with no armour: each side scores with chance
// 18/36. a wins on (1, 0): 324/1296; a draw on (0, 0) or (1, 1): 648/1296.
// With one supporting stand a wins unless (0, 1): 972/1296.
TEST(Combat, ExactOddsOfAnExchange) {
  CombatOddsRequest q;
  q.a.dice = 1;
  q.b.dice = 1;
  CombatOdds o = combat_odds(q);
  EXPECT_EQ(o.a_wins_fraction, "324/1296");
  EXPECT_EQ(o.draw_fraction, "648/1296");
  EXPECT_EQ(o.b_wins_fraction, "324/1296");
  q.a.support = 1;
  o = combat_odds(q);
  EXPECT_EQ(o.a_wins_fraction, "972/1296");
  EXPECT_DOUBLE_EQ(o.a_wins, 0.75);
  // b defended (a hits on 5+) with a 4+ save: a's die is an unsaved hit with
  // chance 2/6 x 3/6 = 6/36.
  q.b.position = Position::Defended;
  q.b.armour = 4;
  q.a.support = 0;
  q.a.dice = 3;
  o = combat_odds(q);
  EXPECT_EQ(o.needed[0], 5);
  EXPECT_NEAR(o.p_unsaved[0], 6.0 / 36, 1e-12);
  EXPECT_EQ(o.rows[0][0].fraction, "27000/46656");  // 30^3
  EXPECT_NEAR(o.a_wins + o.draw + o.b_wins, 1.0, 1e-12);
  q.a.armour = 9;
  EXPECT_THROW(combat_odds(q), InputError);
}
