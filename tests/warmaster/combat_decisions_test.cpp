// The players' combat decisions through the game: the Combat phase's
// end_phase carries them (docs/rulings.md#warmaster-combat-decisions), for
// units of either side; a unit not named takes the default.
//
// Play sheet, "3. COMBAT":
//   Pursuit attack +1
//   Draw: "Both sides fall back up to 3D6cm and must fall back by the score
//   of the lowest dice. A defended or fortified unit can stand its ground
//   instead."
//   Lose: "The loser must retreat by the difference in Combat results in cm."
//   Win: "The winner can fall back, stand its ground, pursue or (if the
//   enemy is destroyed) advance. Infantry cannot pursue cavalry or chariots.
//   ..."
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "command_fixtures.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/game_interface.hpp"
#include "support/input_error.hpp"

namespace referee::warmaster {
namespace {

using namespace testing;

// One stand each, base to base in the open: South's A (Attacks 2, Hits 3)
// faces +y with its front edge at y = 51, North's E (Attacks 1, Hits 2)
// faces it. Each side has another unit far away, and North's break point is
// 2, so losing E does not end the battle.
Battlefield base_to_base() {
  Battlefield bf = empty_field();
  Unit a = line_unit("A", 0, 60, 50);
  a.stands.resize(1);
  a.stands[0].pose.position = {60, 50};
  a.attacks = 2;
  a.hits = 3;
  Unit e = line_unit("E", 1, 60, 52, 180);
  e.stands.resize(1);
  e.stands[0].pose.position = {60, 52};
  e.attacks = 1;
  e.hits = 2;
  bf.units.push_back(a);
  bf.units.push_back(e);
  bf.units.push_back(line_unit("far0", 0, 150, 20));
  bf.units.push_back(line_unit("far1", 1, 150, 110, 180));
  bf.armies[1].break_point = 2;
  bf.characters.push_back(character("g0", 0, CharacterRole::General, 9, 20, 10));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 20, 110));
  return bf;
}

// South's Command and Shooting phases (no unit shoots: no dice).
void to_combat_phase(WarmasterState& s) {
  for (ActionType t : {ActionType::EndPhase, ActionType::Shoot}) {
    const ActionOutcome o = play(s, simple(t));
    ASSERT_TRUE(o.verdict.legal()) << to_string(t) << ": " << explain(o.verdict);
  }
  ASSERT_EQ(s.phase(), Phase::Combat);
}

Action end_combat_with(std::vector<CombatDecision> decisions) {
  Action a = simple(ActionType::EndPhase);
  a.decisions = std::move(decisions);
  return a;
}

CombatDecision decided(const std::string& unit, CombatChoice choice, std::optional<double> distance = {}) {
  return CombatDecision{unit, choice, distance};
}

bool combat_ruled(const ActionOutcome& o, const std::string& rule, const std::string& text) {
  for (const Json& r : o.result.at("combats").at("rulings"))
    if (r.at("rule") == rule && r.at("reason").get<std::string>().find(text) != std::string::npos) return true;
  return false;
}

// Round 1: A's 2 dice roll 6, 1 (hits on 4+ in the open: 1 hit), E's die a
// 1 (none). 1 to 0: A wins by 1, and E "must retreat by the difference in
// Combat results in cm": 1 cm, to y = 53.
// By default A pursues ("a winner pursues when the rules allow it"): it
// follows E's 1 cm and fights a second round at +1 attack ("Pursuit attack
// +1"): 3 dice, 6, 1, 1, one more hit, E's second with Hits 2: E is
// destroyed. E's die: 1.
// Told to stand, A stays where it stood: one round, three dice.
TEST(CombatDecisions, AWinnerToldToStandDoesNotPursue) {
  WarmasterState pursues(make_game(base_to_base()));
  to_combat_phase(pursues);
  const ActionOutcome by_default = play(pursues, end_combat_with({}), {6, 1, 1, 6, 1, 1, 1});
  ASSERT_TRUE(by_default.verdict.legal()) << explain(by_default.verdict);
  EXPECT_TRUE(combat_ruled(by_default, "warmaster.combat.pursuit", "A pursues E"));
  EXPECT_NEAR(unit(pursues, "A").stands[0].pose.position.y, 51.0, 1e-9);
  EXPECT_TRUE(status(pursues, "E").destroyed);

  WarmasterState stands(make_game(base_to_base()));
  to_combat_phase(stands);
  const ActionOutcome told = play(stands, end_combat_with({decided("A", CombatChoice::Stand)}), {6, 1, 1});
  ASSERT_TRUE(told.verdict.legal()) << explain(told.verdict);
  EXPECT_EQ(told.result.at("combats").at("rounds").size(), 1u);
  EXPECT_TRUE(combat_ruled(told, "warmaster.combat.stand", "A stands its ground"));
  EXPECT_FALSE(combat_ruled(told, "warmaster.combat.pursuit", "A pursues"));
  EXPECT_EQ(unit(stands, "A").stands[0].pose.position, (Vec2{60, 50}));
  EXPECT_NEAR(unit(stands, "E").stands[0].pose.position.y, 53.0, 1e-9);
  EXPECT_FALSE(status(stands, "E").destroyed);
  EXPECT_EQ(stands.side(), 1);
  EXPECT_EQ(stands.phase(), Phase::Command);
}

// A choice that does not fit what happened is ruled on by the combat engine,
// not refused: "(if the enemy is destroyed) advance". E retreated and is
// still there, so A stands.
TEST(CombatDecisions, AnAdvanceWhileTheEnemyIsLeftIsAStand) {
  WarmasterState s(make_game(base_to_base()));
  to_combat_phase(s);
  const ActionOutcome o = play(s, end_combat_with({decided("A", CombatChoice::Advance, 10.0)}), {6, 1, 1});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_TRUE(combat_ruled(o, "warmaster.combat.stand", "it may advance only when the enemy was destroyed"));
  EXPECT_EQ(unit(s, "A").stands[0].pose.position, (Vec2{60, 50}));
}

// A draw: A's 6, 1 is 1 hit, E's 6 is 1 hit: 1 to 1. "Both sides fall back
// up to 3D6cm and must fall back by the score of the lowest dice": A rolls
// 2, 3, 4 and asked for 5 cm (between 2 and 9): 5 cm, straight back to
// y = 45. South's action also decides for North's E (standing orders for
// either side): 100 cm asked, 1 + 2 + 6 rolled, so 9 cm, the most, to
// y = 61. By default each would fall back its lowest die (2 and 1).
TEST(CombatDecisions, ADrawFallsBackTheDistanceAsked) {
  WarmasterState s(make_game(base_to_base()));
  to_combat_phase(s);
  const ActionOutcome o = play(s,
                               end_combat_with({decided("A", CombatChoice::FallBack, 5.0),
                                                decided("E", CombatChoice::FallBack, 100.0)}),
                               {6, 1, 6, 2, 3, 4, 1, 2, 6});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_TRUE(combat_ruled(o, "warmaster.combat.draw", "A falls back 5.0 cm away from E (3D6: 2+3+4"));
  EXPECT_TRUE(combat_ruled(o, "warmaster.combat.draw", "E falls back 9.0 cm away from A (3D6: 1+2+6"));
  EXPECT_NEAR(unit(s, "A").stands[0].pose.position.y, 45.0, 1e-9);
  EXPECT_NEAR(unit(s, "A").stands[0].pose.position.x, 60.0, 1e-9);
  EXPECT_NEAR(unit(s, "E").stands[0].pose.position.y, 61.0, 1e-9);

  WarmasterState by_default(make_game(base_to_base()));
  to_combat_phase(by_default);
  ASSERT_TRUE(play(by_default, end_combat_with({}), {6, 1, 6, 2, 3, 4, 1, 2, 6}).verdict.legal());
  EXPECT_NEAR(unit(by_default, "A").stands[0].pose.position.y, 48.0, 1e-9);
  EXPECT_NEAR(unit(by_default, "E").stands[0].pose.position.y, 53.0, 1e-9);
}

// "Both sides fall back up to 3D6cm and must fall back by the score of the
// lowest dice. A defended or fortified unit can stand its ground instead."
// A and E are both in the open, so neither may stand, and after a draw nobody
// pursues or advances: each choice is refused with a ruling and the default
// (fall back by the lowest die) takes its place. The distances asked for
// belong to a fall back, which neither chose, so they count for nothing.
// Same dice as above: 1 hit each, A rolls 2, 3, 4 (2 cm, to y = 48), E rolls
// 1, 2, 6 (1 cm, to y = 53), not the 5 and 9 cm asked.
TEST(CombatDecisions, AfterADrawAUnitInTheOpenMayNotStandAndFallsBackWithARuling) {
  WarmasterState s(make_game(base_to_base()));
  to_combat_phase(s);
  const ActionOutcome o =
      play(s, end_combat_with({decided("A", CombatChoice::Stand, 5.0), decided("E", CombatChoice::Advance, 9.0)}),
           {6, 1, 6, 2, 3, 4, 1, 2, 6});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_TRUE(combat_ruled(o, "warmaster.combat.draw",
                           "A is in the open: after a draw only a defended or fortified unit may stand its ground; it "
                           "falls back"));
  EXPECT_TRUE(combat_ruled(o, "warmaster.combat.draw",
                           "E may not advance after a draw (\"Both sides fall back\"); it falls back"));
  EXPECT_TRUE(combat_ruled(o, "warmaster.combat.draw", "A falls back 2.0 cm away from E (3D6: 2+3+4"));
  EXPECT_TRUE(combat_ruled(o, "warmaster.combat.draw", "E falls back 1.0 cm away from A (3D6: 1+2+6"));
  EXPECT_FALSE(combat_ruled(o, "warmaster.combat.draw", "stands its ground after the draw"));
  EXPECT_NEAR(unit(s, "A").stands[0].pose.position.y, 48.0, 1e-9);
  EXPECT_NEAR(unit(s, "E").stands[0].pose.position.y, 53.0, 1e-9);

  // Pursue is refused the same way; and the default, even with a distance,
  // falls back by the lowest die: the distance is only for "fall_back".
  WarmasterState p(make_game(base_to_base()));
  to_combat_phase(p);
  const ActionOutcome q =
      play(p, end_combat_with({decided("A", CombatChoice::Pursue), decided("E", CombatChoice::Default, 9.0)}),
           {6, 1, 6, 2, 3, 4, 1, 2, 6});
  ASSERT_TRUE(q.verdict.legal()) << explain(q.verdict);
  EXPECT_TRUE(combat_ruled(q, "warmaster.combat.draw",
                           "A may not pursue after a draw (\"Both sides fall back\"); it falls back"));
  EXPECT_TRUE(combat_ruled(q, "warmaster.combat.draw", "E falls back 1.0 cm away from A"));
  EXPECT_NEAR(unit(p, "A").stands[0].pose.position.y, 48.0, 1e-9);
  EXPECT_NEAR(unit(p, "E").stands[0].pose.position.y, 53.0, 1e-9);
  EXPECT_EQ(p.phase(), Phase::Command);
}

// "A defended or fortified unit can stand its ground instead": E in a wood
// (the wood's edge at y = 51.5 covers E's stand, y 51 to 53, not A's) is
// defended, so A's 6 hits it on 5+ and E's 6 hits A: 1 to 1, a draw. E was
// told to pursue: refused with a ruling, and it stands, its default. A falls
// back its lowest die, 2 (2, 3, 4), to y = 48, and rolls the only 3D6.
TEST(CombatDecisions, AfterADrawADefendedUnitToldToPursueStandsWithARuling) {
  Battlefield bf = base_to_base();
  bf.terrain.push_back(area("wood-1", TerrainKind::Wood, {{40, 51.5}, {80, 51.5}, {80, 70}, {40, 70}}));
  WarmasterState s(make_game(bf));
  to_combat_phase(s);
  const ActionOutcome o = play(s, end_combat_with({decided("E", CombatChoice::Pursue, 9.0)}), {6, 1, 6, 2, 3, 4});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_TRUE(combat_ruled(o, "warmaster.combat.draw",
                           "E may not pursue after a draw (\"Both sides fall back\"); it stands its ground"));
  EXPECT_TRUE(combat_ruled(o, "warmaster.combat.draw", "E stands its ground after the draw"));
  EXPECT_TRUE(combat_ruled(o, "warmaster.combat.draw", "A falls back 2.0 cm away from E (3D6: 2+3+4"));
  EXPECT_EQ(unit(s, "E").stands[0].pose.position, (Vec2{60, 52}));
  EXPECT_NEAR(unit(s, "A").stands[0].pose.position.y, 48.0, 1e-9);
}

// Through the one game interface: JSON in, the field named in any error,
// and the state as it was.
TEST(CombatDecisions, BadDecisionsAreInputErrorsNamingTheFieldAndChangeNothing) {
  const auto game = load_game(to_json(base_to_base()), "base_to_base", Json::object());
  auto st = game->new_initial_state();
  SeededDice dice(3);
  auto refused = [&](const Json& decisions) {
    const Json before = st->to_json();
    const std::size_t rolled = dice.history().size();
    const std::string e = test_support::error_of(
        [&] { st->apply(Json{{"type", "end_phase"}, {"decisions", decisions}}, dice); });
    EXPECT_EQ(st->to_json(), before) << e;
    EXPECT_EQ(dice.history().size(), rolled) << e;
    return e;
  };
  const Json stand = Json::array({{{"unit", "A"}, {"choice", "stand"}}});
  EXPECT_EQ(refused(stand),
            "action.decisions: decisions are given only with the end_phase of the Combat phase; this is the command "
            "phase");
  ASSERT_TRUE(st->apply(Json{{"type", "end_phase"}}, dice).applied());
  ASSERT_TRUE(st->apply(Json{{"type", "shoot"}}, dice).applied());
  ASSERT_EQ(st->phase(), "combat");
  EXPECT_EQ(refused(Json::array({{{"unit", "Z"}, {"choice", "stand"}}})),
            "action.decisions[0].unit: no unit \"Z\" on the battlefield");
  EXPECT_EQ(refused(Json::array({{{"unit", "A"}, {"choice", "stand"}}, {{"unit", "A"}, {"choice", "pursue"}}})),
            "action.decisions[1].unit: this unit already has a decision");
  EXPECT_EQ(refused(Json::array({{{"unit", "A"}, {"choice", "flee"}}})).rfind("action.decisions[0].choice: ", 0), 0u);
  EXPECT_EQ(refused(Json::array({{{"unit", "A"}, {"choice", "fall_back"}, {"distance", -1}}})).rfind(
                "action.decisions[0].distance: ", 0),
            0u);
  EXPECT_EQ(refused(Json::array({{{"unit", "A"}, {"choice", "fall_back"},
                                  {"distance", std::numeric_limits<double>::infinity()}}}))
                .rfind("action.decisions[0].distance: ", 0),
            0u);
  EXPECT_EQ(refused(Json::array({{{"unit", "A"}, {"choice", "stand"}, {"how", "bravely"}}})).rfind(
                "action.decisions[0].how: ", 0),
            0u);
  EXPECT_EQ(refused(Json{{"unit", "A"}}).rfind("action.decisions: ", 0), 0u);
  // Validation says the same, without throwing past the caller.
  EXPECT_THROW(st->validate(Json{{"type", "end_phase"}, {"decisions", Json::array({{{"unit", "Z"}}})}}), InputError);
  // The choice is optional ("default"), and a good list is accepted.
  EXPECT_TRUE(st->validate(Json{{"type", "end_phase"}, {"decisions", Json::array({{{"unit", "A"}}})}}).legal());
  // Other actions take no decisions.
  EXPECT_EQ(test_support::error_of([&] { st->validate(Json{{"type", "shoot"}, {"decisions", Json::array()}}); })
                .rfind("action.decisions: ", 0),
            0u);
}

// A caller building the action in code is told by the verdict, with the
// state unchanged and nothing rolled.
TEST(CombatDecisions, TypedDecisionsAreValidated) {
  WarmasterState s(make_game(base_to_base()));
  expect_refused(s, end_combat_with({decided("A", CombatChoice::Stand)}), "warmaster.combat.decisions");
  to_combat_phase(s);
  expect_refused(s, end_combat_with({decided("Z", CombatChoice::Stand)}), "warmaster.combat.decisions");
  expect_refused(s, end_combat_with({decided("A", CombatChoice::Stand), decided("A", CombatChoice::Pursue)}),
                 "warmaster.combat.decisions");
  expect_refused(s, end_combat_with({decided("A", CombatChoice::FallBack, -2.0)}), "warmaster.combat.decisions");
  expect_refused(s, end_combat_with({decided("A", CombatChoice::Advance, std::nan(""))}),
                 "warmaster.combat.decisions");
  EXPECT_TRUE(s.validate(end_combat_with({decided("A", CombatChoice::Stand), decided("E", CombatChoice::FallBack)}))
                  .legal());
  // legal_actions lists the plain end_phase: the decisions are the player's to add.
  const std::vector<Action> legal = s.legal_actions();
  ASSERT_EQ(legal.size(), 1u);
  EXPECT_EQ(to_json(legal[0]), (Json{{"type", "end_phase"}}));
}

// The action is logged as given, and the log replays it exactly. With seed 1
// A wins the first round and stands as told; the same log told to pursue
// rolls more dice, and no longer replays.
TEST(CombatDecisions, TheDecisionsAreLoggedAndReplayed) {
  const auto game = make_game(base_to_base());
  const Json with = Json::parse(
      R"({"type":"end_phase","decisions":[{"unit":"A","choice":"stand"},{"unit":"E","choice":"fall_back","distance":4.5}]})");
  const Json actions = Json::array({Json{{"type", "end_phase"}}, Json{{"type", "shoot"}}, with});
  const PlayReport rep = play_actions(game, 1, actions, "actions");
  ASSERT_TRUE(rep.refused.empty());
  ASSERT_EQ(rep.log.entries.size(), 3u);
  EXPECT_EQ(rep.log.entries[2].action, with);
  EXPECT_NE(rep.log.entries[2].result.at("text").get<std::string>().find("side 0 wins by 1"), std::string::npos);
  EXPECT_NE(rep.log.entries[2].result.at("text").get<std::string>().find("A stands its ground\n"), std::string::npos);
  WarmasterState probe(game);
  to_combat_phase(probe);
  EXPECT_EQ(to_json(parse_action(with, probe, "action")), with);
  const WarmasterState replayed = replay_log(game, rep.log, "log");
  EXPECT_EQ(state_to_json(replayed), rep.final_state);
  // A log whose decisions were changed does not replay to the same result.
  GameLog edited = rep.log;
  edited.entries[2].action["decisions"][0]["choice"] = "pursue";
  EXPECT_NE(test_support::error_of([&] { replay_log(game, edited, "log"); }), "no error");
}

}  // namespace
}  // namespace referee::warmaster
