// The command state in JSON: written and read back it is the same state, to
// the last bit of every pose; a state read back plays on exactly as the
// original does (same actions and dice give the same verdicts, rolls,
// results and final state); a malformed state is an InputError naming the
// field. Also the battle's end by turn limit (docs/rulings.md#warmaster-turn-limit).
#include <iostream>

#include <gtest/gtest.h>

#include "../../bench/warmaster_field.hpp"
#include "../support/input_error.hpp"
#include "command_fixtures.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/opponent/command_sim.hpp"

namespace referee::warmaster {
namespace state_json_test {

using namespace testing;
using test_support::error_of;

Battlefield random_field(int units, std::uint64_t seed) {
  Battlefield bf = bench::make_field(units, units / 3, seed);
  bf.characters.push_back(character("south-general", 0, CharacterRole::General, 9, 90, 30));
  bf.characters.push_back(character("south-hero", 0, CharacterRole::Hero, 8, 40, 20));
  bf.characters.push_back(character("north-general", 1, CharacterRole::General, 9, 90, 90));
  bf.characters.push_back(character("north-wizard", 1, CharacterRole::Wizard, 7, 140, 100));
  return bf;
}

std::shared_ptr<const BattleGame> bundled_game(const std::string& name) {
  BattlefieldFile f = load_battlefield_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/" + name);
  return make_game(f.battlefield, f.settings);
}

// Written, read back and written again: the same JSON, also through text.
void expect_round_trip(const std::shared_ptr<const BattleGame>& game, const WarmasterState& s) {
  const Json j = state_to_json(s);
  const WarmasterState back = state_from_json(game, j, "state");
  ASSERT_EQ(state_to_json(back), j);
  const Json text = parse_json_text(j.dump(), "state");
  ASSERT_EQ(state_to_json(state_from_json(game, text, "state")), j);
}

std::vector<std::string> legal_json(const WarmasterState& s) {
  std::vector<std::string> out;
  for (const Action& a : s.legal_actions()) out.push_back(to_json(a).dump());
  return out;
}

struct Step {
  Action action;
  ActionOutcome outcome;
};

// Continues `original` at random for `phases` phases with dice `seed`, then
// applies the same actions to `resumed` with the same dice: every verdict,
// roll and result, and the final state, must be the same.
void expect_same_play(WarmasterState original, WarmasterState resumed, std::uint64_t seed, Rng& rng, int phases) {
  ASSERT_EQ(legal_json(resumed), legal_json(original));
  std::vector<Step> steps;
  const sim::Observer record = [&](const WarmasterState&, const Action& a, const ActionOutcome& o, const WarmasterState&) {
    steps.push_back({a, o});
  };
  SeededDice dice_a(seed), dice_b(seed);
  for (int k = 0; k < phases && !original.battle_over(); ++k) sim::random_turn(original, dice_a, rng, &record);
  // A few uniform picks as well, so that pending moves and holds are played.
  for (int k = 0; k < 10 && sim::random_legal_action(original, dice_a, rng, &record); ++k) {
  }
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const ActionOutcome o = resumed.apply(steps[i].action, dice_b);
    ASSERT_EQ(o.verdict.violations, steps[i].outcome.verdict.violations) << "action " << i;
    ASSERT_EQ(o.rolls, steps[i].outcome.rolls) << "action " << i;
    ASSERT_EQ(o.result, steps[i].outcome.result) << "action " << i << ": " << to_json(steps[i].action).dump();
  }
  EXPECT_EQ(state_to_json(resumed), state_to_json(original));
  EXPECT_EQ(legal_json(resumed), legal_json(original));
}

TEST(CommandStateJson, RoundTripsExactlyAfterEveryActionOfRandomGames) {
  int checked = 0, over = 0, pending = 0, lost = 0, off_table = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    auto game = make_game(random_field(16, 500 + seed));
    WarmasterState s(game);
    SeededDice dice(seed);
    Rng rng(seed * 7);
    const sim::Observer check = [&](const WarmasterState&, const Action&, const ActionOutcome&, const WarmasterState& after) {
      expect_round_trip(game, after);
      ++checked;
      pending += after.pending().has_value();
      for (const CharacterStatus& c : after.characters()) lost += c.lost;
      for (const UnitStatus& u : after.units()) off_table += u.off_table || u.destroyed;
    };
    while (!s.battle_over()) sim::random_turn(s, dice, rng, &check);
    over += s.battle_over();
    if (HasFailure()) return;
  }
  // The states checked include every kind the JSON must carry.
  EXPECT_EQ(over, 6);
  EXPECT_GT(checked, 450);
  EXPECT_GT(pending, 50);
  EXPECT_GT(off_table, 0);
  std::cout << "state JSON round trips: " << checked << " states, " << pending << " with a pending move, " << lost
            << " lost-character states, " << off_table << " off-table unit states\n";
}

TEST(CommandStateJson, RoundTripsOnTheBundledBattlesUnderUniformPlay) {
  for (const char* name : {"default.json", "command-crossroads.json"}) {
    auto game = bundled_game(name);
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      WarmasterState s(game);
      expect_round_trip(game, s);
      SeededDice dice(seed);
      Rng rng(seed);
      const sim::Observer check = [&](const WarmasterState&, const Action&, const ActionOutcome&,
                                      const WarmasterState& after) { expect_round_trip(game, after); };
      for (int k = 0; k < 150 && sim::random_legal_action(s, dice, rng, &check); ++k) {
      }
      if (HasFailure()) return;
    }
  }
}

TEST(CommandStateJson, AResumedStatePlaysExactlyAsTheOriginal) {
  int resumed_points = 0, with_pending = 0, orders_begun = 0;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    auto game = make_game(random_field(16, 900 + seed));
    WarmasterState s(game);
    SeededDice dice(seed);
    Rng rng(seed);
    // Stop at several points of each phase: after k uniformly random actions.
    for (int point = 0; point < 6 && !s.battle_over(); ++point) {
      const int k = static_cast<int>(rng.next() % 6);
      for (int i = 0; i < k && sim::random_legal_action(s, dice, rng, nullptr); ++i) {
      }
      const WarmasterState resumed = state_from_json(game, parse_json_text(state_to_json(s).dump(), "saved"), "saved");
      with_pending += s.pending().has_value();
      orders_begun += s.orders_begun();
      Rng continuation(seed * 100 + static_cast<std::uint64_t>(point));
      expect_same_play(s, resumed, seed * 1000 + static_cast<std::uint64_t>(point), continuation, 3);
      ++resumed_points;
      if (HasFailure()) return;
      sim::random_turn(s, dice, rng, nullptr);
    }
  }
  EXPECT_GE(resumed_points, 25);
  EXPECT_GT(with_pending, 0);
  EXPECT_GT(orders_begun, 0);
}

TEST(CommandStateJson, ResumingMidOrdersKeepsTheBrigadeAndFurtherOrderRules) {
  // The crossroads battle, side 0 after its first order: the units being
  // ordered, the units touching at the start of ordered movement and the
  // pending move all travel in the JSON.
  auto game = bundled_game("command-crossroads.json");
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    WarmasterState s(game);
    SeededDice dice(seed);
    Rng rng(seed);
    while (!s.orders_begun() && sim::random_legal_action(s, dice, rng, nullptr)) {
    }
    ASSERT_TRUE(s.orders_begun());
    const Json j = state_to_json(s);
    EXPECT_FALSE(j.at("ordering").empty());
    const WarmasterState resumed = state_from_json(game, j, "saved");
    Rng continuation(seed);
    expect_same_play(s, resumed, seed, continuation, 2);
    if (HasFailure()) return;
  }
}

// --- malformed states -----------------------------------------------------------

class MalformedCommandState : public ::testing::Test {
 protected:
  void SetUp() override {
    game_ = bundled_game("command-crossroads.json");
    WarmasterState s(game_);
    SeededDice dice(3);
    Rng rng(3);
    while (!s.pending() && sim::random_legal_action(s, dice, rng, nullptr)) {
    }
    ASSERT_TRUE(s.pending().has_value());
    good_ = state_to_json(s);
  }
  // The field the error names, after changing the good state with `edit`.
  std::string field_of(const std::function<void(Json&)>& edit) const {
    Json j = good_;
    edit(j);
    try {
      state_from_json(game_, j, "state");
    } catch (const InputError& e) {
      return e.field();
    }
    return "no error";
  }
  std::shared_ptr<const BattleGame> game_;
  Json good_;
};

TEST_F(MalformedCommandState, TheGoodStateReadsBack) {
  EXPECT_EQ(state_to_json(state_from_json(game_, good_, "state")), good_);
}

TEST_F(MalformedCommandState, ErrorsNameTheField) {
  EXPECT_EQ(field_of([](Json& j) { j["colour"] = "red"; }), "state.colour");
  EXPECT_EQ(field_of([](Json& j) { j.erase("turn"); }), "state.turn");
  EXPECT_EQ(field_of([](Json& j) { j["turn"] = 0; }), "state.turn");
  EXPECT_EQ(field_of([](Json& j) { j["side"] = 2; }), "state.side");
  EXPECT_EQ(field_of([](Json& j) { j["step"] = "shooting"; }), "state.step");
  EXPECT_EQ(field_of([](Json& j) { j["phase"] = "melee"; }), "state.phase");
  // After the Command phase the step is its last, characters.
  EXPECT_EQ(field_of([](Json& j) { j["phase"] = "combat"; }), "state.step");
  EXPECT_EQ(field_of([](Json& j) {
              j["battle_over"] = true;
              j["battle_over_reason"] = "turn limit";
            }),
            "state.winner");
  EXPECT_EQ(field_of([](Json& j) { j["winner"] = 0; }), "state.winner");
  EXPECT_EQ(field_of([](Json& j) { j["orders_begun"] = "yes"; }), "state.orders_begun");
  EXPECT_EQ(field_of([](Json& j) { j["active_character"] = "nobody"; }), "state.active_character");
  EXPECT_EQ(field_of([](Json& j) { j["battle_over"] = true; }), "state.battle_over_reason");
  EXPECT_EQ(field_of([](Json& j) { j["ordering"] = {"ghost"}; }), "state.ordering[0]");
  EXPECT_EQ(field_of([](Json& j) { j["last_ordered"] = {"a", "b", "c", "d", "e"}; }), "state.last_ordered");
  // Units: their count and order, their stands, their values.
  EXPECT_EQ(field_of([](Json& j) { j["units"].erase(j["units"].size() - 1); }), "state.units");
  EXPECT_EQ(field_of([](Json& j) { j["units"][0]["id"] = "ghost"; }), "state.units[0].id");
  EXPECT_EQ(field_of([](Json& j) { std::swap(j["units"][0], j["units"][1]); }), "state.units[0].id");
  EXPECT_EQ(field_of([](Json& j) { j["units"][1]["side"] = 1 - j["units"][1]["side"].get<int>(); }),
            "state.units[1].side");
  EXPECT_EQ(field_of([](Json& j) { j["units"][0]["stands"].erase(0); }), "state.units[0].stands");
  EXPECT_EQ(field_of([](Json& j) { j["units"][0]["stands"] = Json::array(); }), "state.units[0].stands");
  EXPECT_EQ(field_of([](Json& j) { j["units"][0]["stands"][1]["x"] = "far"; }), "state.units[0].stands[1].x");
  EXPECT_EQ(field_of([](Json& j) { j["units"][0]["stands"][1]["facing"] = 1e6; }), "state.units[0].stands[1].facing");
  EXPECT_EQ(field_of([](Json& j) { j["units"][0]["stands"][1]["z"] = 1; }), "state.units[0].stands[1].z");
  EXPECT_EQ(field_of([](Json& j) { j["units"][0]["orders"] = 4; }), "state.units[0].orders");
  EXPECT_EQ(field_of([](Json& j) { j["units"][0]["stands_lost"] = -1; }), "state.units[0].stands_lost");
  EXPECT_EQ(field_of([](Json& j) { j["units"][0]["off_table"] = true; }), "state.units[0].stands");
  EXPECT_EQ(field_of([](Json& j) { j["units"][0]["parked"] = j["units"][0]["stands"]; }), "state.units[0].parked");
  EXPECT_EQ(field_of([](Json& j) { j["units"][0]["brigade_touching"] = {"ghost"}; }),
            "state.units[0].brigade_touching[0]");
  EXPECT_EQ(field_of([](Json& j) { j["units"][2]["speed"] = 3; }), "state.units[2].speed");
  // Characters and the pending move.
  EXPECT_EQ(field_of([](Json& j) { j["characters"].erase(0); }), "state.characters");
  EXPECT_EQ(field_of([](Json& j) { j["characters"][0]["role"] = "wizard"; }), "state.characters[0].role");
  EXPECT_EQ(field_of([](Json& j) { j["characters"][0]["joined_unit"] = "ghost"; }), "state.characters[0].joined_unit");
  EXPECT_EQ(field_of([](Json& j) { j["characters"][0]["pose"]["facing"] = -1e5; }), "state.characters[0].pose.facing");
  EXPECT_EQ(field_of([](Json& j) { j["characters"][0]["return_point"] = "edge"; }), "state.characters[0].return_point");
  EXPECT_EQ(field_of([](Json& j) { j["pending"]["units"] = {"ghost"}; }), "state.pending.units[0]");
  EXPECT_EQ(field_of([](Json& j) { j["pending"]["move"] = "teleport"; }), "state.pending.move");
  EXPECT_EQ(field_of([](Json& j) { j["pending"]["source"] = "prayer"; }), "state.pending.source");
  EXPECT_EQ(field_of([](Json& j) { j["pending"]["units"] = Json::array(); }), "state.pending.units");
  EXPECT_EQ(error_of([&] { state_from_json(game_, Json::array(), "state"); }).rfind("state: ", 0), 0u);
}

TEST_F(MalformedCommandState, AStateOfAnotherBattleIsRefused) {
  auto other = bundled_game("default.json");
  try {
    state_from_json(other, good_, "state");
    FAIL() << "a state of another battle was read";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "state.units");
    EXPECT_NE(std::string(e.what()).find("units (the battle's)"), std::string::npos) << e.what();
  }
}

// --- the end of the battle by turn limit ---------------------------------------------

TEST(CommandTurnLimit, TheBattleEndsAfterTheSecondSidesCombatPhaseOfTheLastTurn) {
  BattlefieldFile f = load_battlefield_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/default.json");
  Settings settings = f.settings;
  settings.turn_limit = 2;
  // No missiles, so that the Shooting phases roll nothing and lose no unit.
  for (Unit& u : f.battlefield.units) u.missile = Missile::None;
  WarmasterState s(make_game(f.battlefield, settings));
  for (int turn = 0; turn < 3; ++turn) {
    end_turn(s);
    EXPECT_FALSE(s.battle_over()) << "after side-turn " << turn + 1;
  }
  EXPECT_EQ(s.turn(), 2);
  EXPECT_EQ(s.side(), 1);
  ASSERT_TRUE(play(s, simple(ActionType::EndPhase)).verdict.legal());
  ASSERT_TRUE(play(s, simple(ActionType::Shoot)).verdict.legal());
  EXPECT_FALSE(s.battle_over()) << "the last turn ends with side 1's Combat phase";
  const ActionOutcome last = play(s, simple(ActionType::EndPhase));
  ASSERT_TRUE(last.verdict.legal());
  EXPECT_TRUE(s.battle_over());
  // No unit lost on either side: a draw (docs/rulings.md#warmaster-end-of-battle).
  const std::string reason = "turn limit (2 turns): units lost 0 to 0, a draw";
  EXPECT_EQ(s.battle_over_reason(), reason);
  EXPECT_EQ(s.winner(), -1);
  EXPECT_EQ(last.result.at("battle_over"), reason);
  EXPECT_TRUE(last.result.at("winner").is_null());
  expect_refused(s, simple(ActionType::EndPhase), "warmaster.command.battle_over");
  expect_refused(s, order("emp-general", {"emp-crossbow"}), "warmaster.command.battle_over");
  // The ended battle reads back ended.
  const WarmasterState back = state_from_json(make_game(f.battlefield, settings), state_to_json(s), "state");
  EXPECT_TRUE(back.battle_over());
  EXPECT_EQ(back.battle_over_reason(), reason);
  EXPECT_EQ(back.winner(), -1);
}

TEST(CommandTurnLimit, TheDefaultIsEightTurns) {
  EXPECT_EQ(Settings{}.turn_limit, 8);
  WarmasterState s(make_game(random_field(6, 1)));
  for (int turn = 0; turn < 15; ++turn) end_turn(s);
  EXPECT_FALSE(s.battle_over());
  end_turn(s);
  EXPECT_EQ(s.battle_over_reason(), "turn limit (8 turns): units lost 0 to 0, a draw");
}

TEST(CommandTurnLimit, ReadFromTheBattlefieldSettings) {
  Json j = load_json_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/default.json");
  j["settings"]["turn_limit"] = 6;
  Settings settings;
  parse_battlefield(j, &settings);
  EXPECT_EQ(settings.turn_limit, 6);
  Json back;
  to_json(back, settings);
  EXPECT_EQ(back.at("turn_limit"), 6);
  j["settings"]["turn_limit"] = 0;
  try {
    parse_battlefield(j, &settings);
    FAIL() << "turn_limit 0 was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "settings.turn_limit");
  }
  j["settings"]["turn_limit"] = 2.5;
  EXPECT_NE(error_of([&] { parse_battlefield(j, &settings); }), "no error");
}

}  // namespace state_json_test
}  // namespace referee::warmaster
