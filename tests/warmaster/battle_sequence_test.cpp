// The turn as the play sheet sequences it ("SEQUENCE: 1. Command 2. Shoot
// 3. Combat"), confusion across the phases, and the end of the battle: break
// points, the General leaving the table, the turn limit
// (docs/rulings.md#warmaster-turn-sequence, #warmaster-end-of-battle,
// #warmaster-break-point).
#include <gtest/gtest.h>

#include "command_fixtures.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/game_interface.hpp"
#include "support/input_error.hpp"

namespace referee::warmaster {
namespace {

using namespace testing;

Unit profiled(Unit u, int attacks, int hits, int armour, Missile missile = Missile::None) {
  u.attacks = attacks;
  u.hits = hits;
  u.armour = armour;
  u.missile = missile;
  return u;
}

// South's bowmen 18 cm from North's spearmen (front edge to front edge),
// North's other unit far away on the left.
Battlefield shooting_field(int target_hits = 3) {
  Battlefield bf = empty_field();
  bf.units.push_back(profiled(line_unit("bows", 0, 90, 40), 1, 3, 0, Missile::Bow));
  bf.units.push_back(profiled(line_unit("spears", 1, 90, 60, 180), 3, target_hits, 0));
  bf.units.push_back(profiled(line_unit("far", 1, 20, 100, 180), 3, 3, 0));
  bf.characters.push_back(character("g0", 0, CharacterRole::General, 9, 150, 10));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 150, 110));
  return bf;
}

TEST(BattleSequence, ShootingIsThePhaseAfterCommandAndItsDiceGoThroughTheState) {
  WarmasterState s(make_game(shooting_field()));
  ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
  ASSERT_EQ(s.phase(), Phase::Shooting);
  // The only legal action is to shoot.
  const std::vector<Action> legal = s.legal_actions();
  ASSERT_EQ(legal.size(), 1u);
  EXPECT_EQ(legal[0].type, ActionType::Shoot);
  // Play sheet: "Target in the open 4, 5 or 6"; one die per Attack of each of
  // the 3 stands: three 6s are 3 hits, no armour, and with Hits 3 "a stand is
  // removed for every Hits value of unsaved hits": one stand. Drive back "D6cm
  // per hit": 3 dice, 1+1+2 = 4 cm, below infantry's full pace of 20 cm.
  const ActionOutcome o = play(s, simple(ActionType::Shoot), {6, 6, 6, 1, 1, 2});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_EQ(s.phase(), Phase::Combat);
  EXPECT_EQ(o.result.at("casualties")[0].at("stands_removed"), 1);
  EXPECT_EQ(o.result.at("drive_backs")[0].at("total"), 4);
  const Unit& spears = unit(s, "spears");
  EXPECT_EQ(spears.stands.size(), 2u);
  EXPECT_EQ(spears.stands_lost, 1);
  EXPECT_FALSE(spears.confused);
  // Driven directly away from the bowmen (+y), 4 cm.
  EXPECT_NEAR(spears.stands[0].pose.position.y, 64.0, 1e-9);
  EXPECT_FALSE(status(s, "spears").destroyed);
  EXPECT_TRUE(o.result.at("text").get<std::string>().find("spears") != std::string::npos);
  // The state's JSON carries the phase and the losses, and resumes exactly.
  const Json j = state_to_json(s);
  EXPECT_EQ(j.at("phase"), "combat");
  EXPECT_EQ(state_to_json(state_from_json(make_game(shooting_field()), j, "state")), j);
  ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
  EXPECT_EQ(s.side(), 1);
  EXPECT_EQ(s.phase(), Phase::Command);
}

TEST(BattleSequence, ASixOnTheDriveBackConfusesTheUnitUntilTheEndOfItsOwnCommandPhase) {
  WarmasterState s(make_game(shooting_field()));
  ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
  // One hit (6, 1, 1), one drive-back die: a 6 confuses ("Units are confused
  // if any Drive Back dice roll a 6").
  ASSERT_TRUE(play(s, simple(ActionType::Shoot), {6, 1, 1, 6}).verdict.legal());
  EXPECT_TRUE(unit(s, "spears").confused);
  ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
  // North's Command phase: "Confused units cannot move in the Command phase".
  ASSERT_EQ(s.side(), 1);
  expect_refused(s, order("g1", {"spears"}), "warmaster.command.confused");
  EXPECT_TRUE(s.validate(order("g1", {"far"})).legal());
  // ... and "stop being confused at the end of their own Command phase".
  const ActionOutcome end = play(s, simple(ActionType::EndPhase));
  ASSERT_TRUE(end.verdict.legal());
  EXPECT_FALSE(unit(s, "spears").confused);
  EXPECT_EQ(end.result.at("recovered"), Json::array({"spears"}));
}

TEST(BattleSequence, ConfusedUnitsCannotUseInitiativeNorBeOrderedNorHomeBack) {
  Battlefield bf = empty_field();
  bf.units.push_back(line_unit("A", 0, 60, 50));
  bf.units.push_back(line_unit("E", 1, 60, 62, 180));  // 10 cm away: within initiative range
  bf.units.push_back(line_unit("F", 0, 150, 30, 0, TroopType::Flyer));
  bf.units[0].confused = true;
  bf.units[2].confused = true;
  bf.characters.push_back(character("g", 0, CharacterRole::General, 9, 60, 14));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 60, 110));
  WarmasterState s(make_game(bf));
  expect_refused(s, initiative("A", false, "E"), "warmaster.command.confused");
  Action home;
  home.type = ActionType::HomeBack;
  home.unit = "F";
  home.character = "g";
  expect_refused(s, home, "warmaster.command.confused");
  expect_refused(s, order("g", {"A"}), "warmaster.command.confused");
  // Nor does the engine offer them anything.
  for (const Action& a : s.legal_actions()) {
    EXPECT_NE(a.unit, "A") << to_json(a).dump();
    EXPECT_NE(a.unit, "F") << to_json(a).dump();
    for (const std::string& u : a.units) EXPECT_NE(u, "A") << to_json(a).dump();
  }
}

TEST(BattleSequence, AnArmyAtItsBreakPointWithdrawsAndTheBattleEnds) {
  // North has two units: by default its break point is half, rounded up: 1.
  // Spears with Hits 1 lose a stand per unsaved hit: three 6s destroy them.
  WarmasterState s(make_game(shooting_field(1)));
  EXPECT_EQ(s.break_point(1), 1);
  EXPECT_EQ(s.break_point(0), 1);
  ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
  const ActionOutcome o = play(s, simple(ActionType::Shoot), {6, 6, 6});
  ASSERT_TRUE(o.verdict.legal()) << explain(o.verdict);
  EXPECT_TRUE(status(s, "spears").destroyed);
  EXPECT_TRUE(unit(s, "spears").stands.empty());
  EXPECT_EQ(unit(s, "spears").stands_lost, 3);
  EXPECT_EQ(s.units_lost(1), 1);
  ASSERT_TRUE(s.battle_over());
  EXPECT_EQ(s.winner(), 0);
  const std::string reason = "North has lost 1 unit of 2, reaching its break point of 1: it withdraws";
  EXPECT_EQ(s.battle_over_reason(), reason);
  EXPECT_EQ(o.result.at("battle_over"), reason);
  EXPECT_EQ(o.result.at("winner"), 0);
  expect_refused(s, simple(ActionType::EndPhase), "warmaster.command.battle_over");
  EXPECT_TRUE(s.legal_actions().empty());
  const WarmasterState back = state_from_json(make_game(shooting_field(1)), state_to_json(s), "state");
  EXPECT_EQ(back.winner(), 0);
  EXPECT_EQ(back.battle_over_reason(), reason);
}

TEST(BattleSequence, TheBattleFileSetsAnArmysBreakPoint) {
  Battlefield bf = shooting_field(1);
  bf.armies[1].break_point = 2;
  WarmasterState s(make_game(bf));
  EXPECT_EQ(s.break_point(1), 2);
  ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
  ASSERT_TRUE(play(s, simple(ActionType::Shoot), {6, 6, 6}).verdict.legal());
  EXPECT_EQ(s.units_lost(1), 1);
  EXPECT_FALSE(s.battle_over()) << "one unit lost of a break point of 2";
  // Read from the file, and written back.
  Json j = load_json_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/default.json");
  j["armies"][1]["break_point"] = 3;
  EXPECT_EQ(parse_battlefield(j).armies[1].break_point, 3);
  EXPECT_EQ(to_json(parse_battlefield(j))["armies"][1]["break_point"], 3);
  j["armies"][1]["break_point"] = 0;
  EXPECT_EQ(test_support::error_of([&] { parse_battlefield(j); }), "armies[1].break_point: 0 is out of range [1, 1000]");
}

// Play sheet: "SEQUENCE: 1. Command 2. Shoot 3. Combat". The charge made in
// the Command phase is fought when the Combat phase ends, with the charger's
// +1 ("charging an enemy in the open"), and what it did stays in the state.
TEST(BattleSequence, TheCombatPhaseFightsTheEngagementsTheChargesMade) {
  Battlefield bf = empty_field();
  bf.units.push_back(line_unit("A", 0, 60, 50));
  bf.units.push_back(line_unit("E", 1, 60, 62, 180));
  bf.characters.push_back(character("g", 0, CharacterRole::General, 9, 60, 14));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 60, 110));
  WarmasterState s(make_game(bf));
  const ActionOutcome charge = play(s, initiative_action(s.battlefield(), unit(s, "A"), unit(s, "E"), true, s.settings()));
  ASSERT_TRUE(charge.verdict.legal()) << explain(charge.verdict);
  ASSERT_TRUE(unit(s, "E").engaged);
  ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
  ASSERT_TRUE(play(s, simple(ActionType::Shoot)).verdict.legal());
  ASSERT_EQ(s.phase(), Phase::Combat);
  EXPECT_EQ(s.engaged_units(), (std::vector<std::string>{"A", "E"}));
  SeededDice dice(11);
  const ActionOutcome combat = s.apply(simple(ActionType::EndPhase), dice);
  ASSERT_TRUE(combat.verdict.legal()) << explain(combat.verdict);
  EXPECT_FALSE(combat.rolls.empty());
  const Json& fought = combat.result["combats"];
  ASSERT_EQ(fought["engagements"].size(), 1u) << fought.dump();
  bool charge_bonus = false;
  int removed_e = 0;
  for (const Json& round : fought["rounds"]) {
    for (const Json& at : round["attacks"])
      if (at["attacker"] == "A" && round["round"] == 1)
        for (const Json& m : at["modifiers"]) charge_bonus |= m["name"] == "charging an enemy in the open" && m["value"] == 1;
    for (const Json& c : round["casualties"])
      if (c["unit"] == "E") removed_e += c["stands_removed"].get<int>();
  }
  EXPECT_TRUE(charge_bonus) << fought.dump();
  // The turn has passed, and E's losses are the state's.
  EXPECT_EQ(s.side(), 1);
  EXPECT_EQ(s.phase(), Phase::Command);
  const Unit* e = s.battlefield().find_unit("E");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->stands_lost, removed_e);
}

TEST(BattleSequence, AtTheTurnLimitTheSideThatLostFewerUnitsWins) {
  Settings settings;
  settings.turn_limit = 1;
  Battlefield bf = shooting_field(1);
  bf.armies[1].break_point = 2;
  WarmasterState s(make_game(bf, settings));
  ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
  ASSERT_TRUE(play(s, simple(ActionType::Shoot), {6, 6, 6}).verdict.legal());
  ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
  // North's turn: its units have no missiles; then the battle ends.
  ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
  ASSERT_TRUE(play(s, simple(ActionType::Shoot)).verdict.legal());
  const ActionOutcome last = play(s, simple(ActionType::EndPhase));
  ASSERT_TRUE(s.battle_over());
  EXPECT_EQ(s.battle_over_reason(), "turn limit (1 turns): units lost 0 to 1");
  EXPECT_EQ(s.winner(), 0);
  EXPECT_EQ(last.result.at("winner"), 0);
}

// The Combat phase of the worked example rolls some forty dice: far more
// sequences than chance_outcomes enumerates, and a sample space (6^40) no
// 64-bit count holds. It says it has no enumeration instead of multiplying
// past the limit (UBSan found 6 * 4738381338321616896 here).
TEST(BattleSequence, AFightOfManyDiceHasNoEnumeratedChances) {
  Json j = load_json_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/combat.json");
  const auto game = load_game(j, "combat.json", Json::object());
  auto st = game->new_initial_state();
  SeededDice dice(1);
  for (const char* t : {"end_orders", "end_phase", "shoot"}) ASSERT_TRUE(st->apply(Json{{"type", t}}, dice).applied()) << t;
  ASSERT_EQ(st->phase(), "combat");
  EXPECT_EQ(st->chance_outcomes(Json{{"type", "end_phase"}}).kind, Chances::Kind::NotEnumerable);
  EXPECT_TRUE(st->apply(Json{{"type", "end_phase"}}, dice).applied());
}

TEST(BattleSequence, TheGameInterfaceNamesThePhaseTheWinnerAndTheReason) {
  Json j = load_json_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/default.json");
  const auto game = load_game(j, "default.json", Json{{"turn_limit", 1}});
  auto st = game->new_initial_state();
  EXPECT_EQ(st->phase(), "command: initiative");
  SeededDice dice(1);
  ASSERT_TRUE(st->apply(Json{{"type", "end_phase"}}, dice).applied());
  EXPECT_EQ(st->phase(), "shooting");
  EXPECT_EQ(st->legal_actions(), (std::vector<Json>{Json{{"type", "shoot"}}}));
  EXPECT_EQ(st->chance_outcomes(Json{{"type", "shoot"}}).kind, Chances::Kind::NotEnumerable);
  const Outcome refused = st->apply(Json{{"type", "order"}, {"character", "emp-general"}, {"unit", "emp-crossbow"}}, dice);
  ASSERT_FALSE(refused.applied());
  EXPECT_TRUE(refused.verdict.has("warmaster.phase.sequence"));
  ASSERT_TRUE(st->apply(Json{{"type", "shoot"}}, dice).applied());
  EXPECT_EQ(st->phase(), "combat");
  ASSERT_TRUE(st->apply(Json{{"type", "end_phase"}}, dice).applied());
  EXPECT_EQ(st->current_player(), 1);
  EXPECT_EQ(st->phase(), "command: initiative");
  for (const char* t : {"end_phase", "shoot", "end_phase"}) ASSERT_TRUE(st->apply(Json{{"type", t}}, dice).applied());
  ASSERT_TRUE(st->is_terminal());
  EXPECT_EQ(st->current_player(), -1);
  EXPECT_EQ(st->result(), (Json{{"over", true}, {"winner", nullptr},
                                {"reason", "turn limit (1 turns): units lost 0 to 0, a draw"}}));
}

}  // namespace
}  // namespace referee::warmaster
