// Units in combat (docs/rulings.md#warmaster-engaged and the shooting readings
// it leads to): engaged is contact worked out from the stands; "units engaged
// in combat cannot shoot and cannot be shot at"; range is measured from each
// stand; between enemies equally close the shooting player chooses.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "command_fixtures.hpp"
#include "referee/core/errors.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/battle/command_json.hpp"
#include "referee/warmaster/movement/contact.hpp"
#include "referee/warmaster/opponent/opponent.hpp"
#include "referee/warmaster/shooting/shooting.hpp"

using namespace referee;
using namespace referee::warmaster;
using namespace referee::warmaster::testing;

namespace {

// Archers (side 0) in line at y = 30 facing +y: stands at x 46, 50, 54, so
// the line covers x 44..56 and its front edge is y = 31. Bows, 30 cm.
Unit line_of_archers() {
  Unit u = infantry("archers", 0, {{{46, 30}, 0}, {{50, 30}, 0}, {{54, 30}, 0}});
  u.attacks = 1;
  u.hits = 3;
  u.missile = Missile::Bow;
  return u;
}

// One enemy stand facing the archers, centred at (x, y): its front edge is y - 1.
Unit facing_stand(const std::string& id, double x, double y) {
  Unit u = infantry(id, 1, {{{x, y}, 180}});
  u.attacks = 3;
  u.hits = 3;
  return u;
}

}  // namespace

// --- 1. No shooting into a combat --------------------------------------------

// "Units shoot at the closest enemy within range" (play sheet), and units
// engaged in combat cannot be shot at (the standard rules): the orcs 10 cm
// away are fighting the knights, so the archers pass over them to the goblins
// 20 cm away. With shoot_into_combat (the play sheet's literal words) they
// shoot at the orcs.
TEST(Engagement, ShootersPassOverAnEngagedEnemy) {
  Battlefield bf = empty_field();
  bf.units.push_back(line_of_archers());
  bf.units.push_back(facing_stand("orcs", 50, 42));       // front edge y 41: 10 cm
  bf.units.push_back(facing_stand("goblins", 70, 52));    // x 68..72, front edge y 51: 23.3 cm from (56, 31)
  // Cavalry facing -x, 4 cm deep along x (52..56): against the orcs' right flank (x 52).
  bf.units.push_back(cavalry("knights", 0, {{{54, 42}, 270}}));
  const auto t = shooting_targets(bf, 0);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].target, "goblins");
  EXPECT_EQ(t[0].passed_over, (std::vector<std::string>{"orcs"}));
  ASSERT_EQ(t[0].rulings.size(), 2u);
  EXPECT_EQ(t[0].rulings[0].rule, "warmaster.shooting.engaged");
  EXPECT_EQ(t[0].rulings[0].reason,
            "archers passes over orcs, 10.0 cm away: it is engaged in combat with knights, and units engaged in "
            "combat cannot be shot at");
  EXPECT_EQ(t[0].rulings[1].rule, "warmaster.shooting.target");
  EXPECT_NEAR(t[0].distance, std::hypot(68 - 56.0, 51 - 31.0), 1e-9);

  Settings literal;
  literal.shoot_into_combat = true;
  const auto l = shooting_targets(bf, 0, literal);
  EXPECT_EQ(l[0].target, "orcs");
  EXPECT_TRUE(l[0].passed_over.empty());

  // The only enemy in range is engaged: no target at all, and the reason says why.
  bf.units.erase(bf.units.begin() + 2);
  const auto none = shooting_targets(bf, 0);
  EXPECT_TRUE(none[0].target.empty());
  EXPECT_EQ(none[0].rulings.back().rule, "warmaster.shooting.no_target");
  EXPECT_NE(none[0].rulings.back().reason.find("that is not engaged in combat"), std::string::npos);
}

// --- 2. Range per stand -------------------------------------------------------

// Range is measured from each stand: an enemy stand ahead and to the right,
// its front edge 29 cm ahead (y 60) and its left edge at x 58, is 29.07 cm
// from stand 3 (x 52..56), 29.61 cm from stand 2 and 30.68 cm from stand 1
// (x 44..48), beyond the bow's 30 cm. Stands 2 and 3 shoot: 2 dice.
TEST(Engagement, OnlyTheStandsWithinRangeShoot) {
  Battlefield bf = empty_field();
  bf.units.push_back(line_of_archers());
  bf.units.push_back(facing_stand("orcs", 60, 61));
  const auto t = shooting_targets(bf, 0);
  ASSERT_EQ(t[0].target, "orcs");
  EXPECT_NEAR(t[0].distance, std::sqrt(2.0 * 2 + 29.0 * 29), 1e-9);
  EXPECT_EQ(values_of(t[0].stands), (std::vector<int>{1, 2}));
  EXPECT_FALSE(t[0].every_stand);
  EXPECT_NE(t[0].rulings.back().reason.find("2 of its 3 stands (stands 2, 3) within range and in sight shoot"),
            std::string::npos)
      << t[0].rulings.back().reason;
  ScriptedDice dice({4, 5, 1, 2});  // two to hit, then two drive-back dice (no armour)
  const ShootingResult r = resolve_shooting(bf, 0, dice);
  ASSERT_EQ(r.shots.size(), 1u);
  EXPECT_EQ(r.shots[0].to_hit.size(), 2u);
  EXPECT_EQ(values_of(r.shots[0].stands), (std::vector<int>{1, 2}));
  nlohmann::json j = r;
  EXPECT_EQ(j["shots"][0]["stands"], nlohmann::json({1, 2}));
  EXPECT_EQ(dice.remaining(), 0u);
  // The play sheet's unit reading: every stand of a unit in range shoots.
  Settings units;
  units.range_per_stand = false;
  const auto all = shooting_targets(bf, 0, units);
  EXPECT_EQ(values_of(all[0].stands), (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(all[0].every_stand);
}

// A stand that cannot see the target does not shoot either: a wood in front
// of stand 3 (x 51..58, y 32..36) blocks every line from its front edge,
// stand 1 is out of range, and stand 2 alone shoots: 1 die.
TEST(Engagement, OnlyTheStandsThatSeeShoot) {
  Battlefield bf = empty_field();
  bf.units.push_back(line_of_archers());
  bf.units.push_back(facing_stand("orcs", 60, 61));
  bf.terrain.push_back(area("copse", TerrainKind::Wood, {{51, 32}, {58, 32}, {58, 36}, {51, 36}}));
  const auto t = shooting_targets(bf, 0);
  ASSERT_EQ(t[0].target, "orcs");
  EXPECT_EQ(values_of(t[0].stands), (std::vector<int>{1}));
  ScriptedDice dice({6, 1});
  const ShootingResult r = resolve_shooting(bf, 0, dice);
  EXPECT_EQ(r.shots[0].to_hit.size(), 1u);
  EXPECT_NE(r.rulings[1].reason.find("rolls 1 die at orcs (stand 2 of 3 stands, open"), std::string::npos)
      << r.rulings[1].reason;
}

// --- 3. Equally close: the shooting player chooses ---------------------------

namespace {
// Two enemy stands 20 cm ahead of the archers' two ends: "a" (first in the
// battle) exactly 20 cm, in a wood (defended); "b" 20 cm + `b_further`, in
// the open; "c" 25 cm ahead in the middle.
Battlefield two_equally_close(double b_further) {
  Battlefield bf = empty_field();
  bf.units.push_back(line_of_archers());
  bf.units.push_back(facing_stand("a", 44, 52));
  bf.units.push_back(facing_stand("b", 58, 52 + b_further));
  bf.units.push_back(facing_stand("c", 51, 57));
  bf.terrain.push_back(area("wood", TerrainKind::Wood, {{40, 50}, {47, 50}, {47, 56}, {40, 56}}));
  return bf;
}
}  // namespace

TEST(Engagement, EquallyCloseTargetsAreThePlayersChoice) {
  // b 0.03 cm further: within the contact tolerance (0.05 cm), as close.
  const Battlefield bf = two_equally_close(0.03);
  const auto t = shooting_targets(bf, 0);
  EXPECT_EQ(t[0].target, "a");  // none chosen: the closest
  EXPECT_EQ(t[0].choices, (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(t[0].chosen);
  EXPECT_NE(t[0].rulings.back().reason.find("b at 20.03 cm is as close (within the contact tolerance of 0.05 cm), "
                                            "and the shooting player chooses: none chosen, so the closest, a"),
            std::string::npos)
      << t[0].rulings.back().reason;
  const auto b = shooting_targets(bf, 0, Settings{}, {{"archers", "b"}});
  EXPECT_EQ(b[0].target, "b");
  EXPECT_TRUE(b[0].chosen);
  // The choice is the player's only where enemies are equally close.
  EXPECT_TRUE(check_target_choices(t, {{"archers", "b"}}).legal());
  const Verdict wrong = check_target_choices(t, {{"archers", "c"}});
  ASSERT_FALSE(wrong.legal());
  EXPECT_EQ(wrong.violations[0].rule, "warmaster.shooting.target");
  EXPECT_EQ(wrong.violations[0].reason, "target choice 1: archers may choose between a and b, equally close; not c");
  EXPECT_FALSE(check_target_choices(t, {{"a", "archers"}}).legal());
  EXPECT_FALSE(check_target_choices(t, {{"archers", "b"}, {"archers", "a"}}).legal());
  ScriptedDice dice({1, 1, 1});
  EXPECT_THROW(resolve_shooting(bf, 0, dice, {}, {{"archers", "c"}}), InputError);
  // 0.1 cm further is not as close: no choice.
  const auto apart = shooting_targets(two_equally_close(0.1), 0);
  EXPECT_EQ(apart[0].target, "a");
  EXPECT_TRUE(apart[0].choices.empty());
  EXPECT_FALSE(check_target_choices(apart, {{"archers", "b"}}).legal());
}

// The game offers each choice as a legal shoot, applies the one given, and the
// built-in opponent picks by its own rule: b, in the open (4+ to hit), over
// a, defended (5+).
TEST(Engagement, TheGameOffersEachChoiceAndTheOpponentPicks) {
  WarmasterState s(make_game(two_equally_close(0.03)));
  ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
  ASSERT_EQ(s.phase(), Phase::Shooting);
  const std::vector<Action> legal = s.legal_actions();
  ASSERT_EQ(legal.size(), 2u);
  EXPECT_TRUE(legal[0].targets.empty());
  EXPECT_EQ(legal[1].targets, (std::vector<TargetChoice>{{"archers", "b"}}));
  EXPECT_EQ(to_json(legal[1]), nlohmann::json::parse(R"({"type": "shoot", "targets": [{"shooter": "archers", "target": "b"}]})"));
  Rng rng(1);
  OpponentScratch scratch;
  const OpponentChoice pick = choose_opponent_action(s, rng, OpponentOptions{}, scratch);
  EXPECT_EQ(pick.action.type, ActionType::Shoot);
  EXPECT_EQ(pick.action.targets, (std::vector<TargetChoice>{{"archers", "b"}}));
  Action bad = simple(ActionType::Shoot);
  bad.targets = {{"archers", "c"}};
  expect_refused(s, bad, "warmaster.shooting.target");
  const ActionOutcome o = play(s, legal[1], {1, 1, 1});
  ASSERT_TRUE(o.verdict.legal());
  EXPECT_EQ(o.result["shots"][0]["target"], "b");
  EXPECT_EQ(o.rolls[0].purpose, "to hit: archers at b");
}

// --- 4. Contact is geometry, not a flag ------------------------------------

namespace {
// A battle file: the halberds (side 0) and `orc_unit` (side 1).
nlohmann::json battle_with(const nlohmann::json& orc_unit) {
  nlohmann::json halberds{{"id", "halberds"}, {"type", "infantry"}, {"stands", {{{"x", 50}, {"y", 30}, {"facing", 0}}}}};
  return {{"armies", {{{"units", {halberds}}}, {{"units", {orc_unit}}}}}};
}
nlohmann::json boyz_at(double y, std::optional<bool> engaged) {
  nlohmann::json u{{"id", "boyz"}, {"type", "infantry"}, {"stands", {{{"x", 50}, {"y", y}, {"facing", 180}}}}};
  if (engaged) u["engaged"] = *engaged;
  return u;
}
}  // namespace

// The halberds' front edge is y 31; boyz at y 32 touch it (their front edge
// at y 31), at y 35.2 they are 3.2 cm off.
TEST(Engagement, BattleFilesFlagsMustAgreeWithTheStands) {
  // Left out, it is worked out; given right, it is accepted.
  for (std::optional<bool> flag : {std::optional<bool>(), std::optional<bool>(true)}) {
    const Battlefield bf = parse_battlefield(battle_with(boyz_at(32, flag)));
    EXPECT_TRUE(bf.units[0].engaged);
    EXPECT_TRUE(bf.units[1].engaged);
  }
  EXPECT_FALSE(parse_battlefield(battle_with(boyz_at(35.2, std::nullopt))).units[1].engaged);
  try {
    parse_battlefield(battle_with(boyz_at(35.2, true)));
    FAIL() << "a flag that contradicts the stands was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "armies[1].units[0].engaged");
    EXPECT_NE(std::string(e.what()).find("boyz is marked engaged, but no enemy stand touches it within the contact "
                                         "tolerance of 0.05 cm: the nearest enemy, halberds, is 3.2 cm away"),
              std::string::npos)
        << e.what();
  }
  try {
    parse_battlefield(battle_with(boyz_at(32, false)));
    FAIL() << "a unit in contact marked not engaged was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "armies[1].units[0].engaged");
    EXPECT_NE(std::string(e.what()).find("halberds touches it"), std::string::npos) << e.what();
  }
}

TEST(Engagement, SavedStatesFlagsMustAgreeWithTheStands) {
  const Battlefield bf = parse_battlefield(battle_with(boyz_at(32, std::nullopt)));
  auto game = make_game(bf);
  WarmasterState s(game);
  nlohmann::json j = state_to_json(s);
  EXPECT_NO_THROW(state_from_json(game, j, "state"));
  j["units"][1]["engaged"] = false;
  try {
    state_from_json(game, j, "state");
    FAIL() << "a saved state whose flags contradict its stands was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "state.units[1].engaged");
  }
}

// --- 5. Engaged ends when contact ends -------------------------------------

namespace {
// The repro's pattern: Orc boyz (side 0, which moves first here) in contact
// with the Empire's halberds (their front edges at y 31), and Orc archers
// north-east of both, 16.4 cm from the halberds' nearest corner (66, 31).
Battlefield boyz_engaged_archers_near() {
  Battlefield bf = empty_field();
  Unit boyz = line_unit("boyz", 0, 60, 32, 180);
  boyz.attacks = 3;
  boyz.hits = 3;
  bf.units.push_back(boyz);
  Unit bows = line_unit("orc-archers", 0, 82, 45, 180);
  bows.attacks = 1;
  bows.hits = 3;
  bows.missile = Missile::Bow;
  bf.units.push_back(bows);
  Unit halberds = line_unit("halberds", 1, 60, 30, 0);
  halberds.attacks = 3;
  halberds.hits = 4;  // three unsaved hits remove no stand
  bf.units.push_back(halberds);
  bf.characters.push_back(character("orc-general", 0, CharacterRole::General, 8, 60, 60));
  bf.characters.push_back(character("empire-general", 1, CharacterRole::General, 9, 60, 20));
  return bf;
}
}  // namespace

TEST(Engagement, ContactEndsEngagementAfterADriveBack) {
  // The rules as we read them: the archers pass over the halberds, who are
  // fighting; no die is rolled, and both units stay engaged for the Combat phase.
  {
    WarmasterState s(make_game(boyz_engaged_archers_near()));
    EXPECT_EQ(s.engaged_units(), (std::vector<std::string>{"boyz", "halberds"}));
    ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
    const ActionOutcome o = play(s, simple(ActionType::Shoot));
    ASSERT_TRUE(o.verdict.legal());
    EXPECT_TRUE(o.rolls.empty());
    EXPECT_EQ(s.engaged_units(), (std::vector<std::string>{"boyz", "halberds"}));
  }
  // The play sheet's literal reading: the archers shoot the halberds (3 hits
  // on 4+, no armour) and drive them back 2 + 5 + 5 = 12 cm, south-west, out
  // of contact. Neither unit is engaged any more, the Combat phase finds no
  // combat, and in their own turn the halberds may be ordered.
  Settings literal;
  literal.shoot_into_combat = true;
  WarmasterState s(make_game(boyz_engaged_archers_near(), literal));
  ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
  const ActionOutcome shot = play(s, simple(ActionType::Shoot), {4, 5, 6, 2, 5, 5});
  ASSERT_TRUE(shot.verdict.legal());
  EXPECT_EQ(shot.result["drive_backs"][0]["unit"], "halberds");
  EXPECT_EQ(shot.result["drive_backs"][0]["moved"], 12.0);
  EXPECT_FALSE(unit(s, "halberds").engaged);
  EXPECT_FALSE(unit(s, "boyz").engaged);
  EXPECT_TRUE(s.engaged_units().empty());
  const ActionOutcome combat = play(s, simple(ActionType::EndPhase));
  ASSERT_TRUE(combat.verdict.legal());
  EXPECT_TRUE(combat.result["combats"]["engagements"].empty());
  ASSERT_EQ(s.side(), 1);
  EXPECT_TRUE(s.validate(order("empire-general", {"halberds"})).legal());
}

// After a combat, the units that no enemy touches are not engaged, whatever
// happened (a retreat, a fall back, a pursuit, a unit destroyed): ten seeded
// Combat phases of the boyz against the halberds, and in some of them the
// combat ends the contact.
TEST(Engagement, ContactEndsEngagementAfterTheCombatPhase) {
  Battlefield bf = boyz_engaged_archers_near();
  bf.units.erase(bf.units.begin() + 1);  // no archers
  int parted = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    WarmasterState s(make_game(bf));
    ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
    ASSERT_TRUE(play(s, simple(ActionType::Shoot)).verdict.legal());
    SeededDice dice(seed);
    ASSERT_TRUE(s.apply(simple(ActionType::EndPhase), dice).verdict.legal());
    for (const Unit& u : s.battlefield().units) {
      const bool touching = !enemies_in_contact(s.battlefield(), u, 0.05).empty();
      EXPECT_EQ(u.engaged, touching) << u.id << ", seed " << seed;
    }
    parted += s.engaged_units().empty();
  }
  EXPECT_GT(parted, 0) << "no combat ended the contact: the test checks nothing";
}
