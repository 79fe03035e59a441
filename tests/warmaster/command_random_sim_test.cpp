// Random simulation (OpenSpiel style): thousands of random legal actions over
// many command phases, checking the invariants after every one; the whole
// game is logged and replayed at the end, and must give the same state.
#include <gtest/gtest.h>

#include <iostream>

#include "../../bench/warmaster_field.hpp"
#include "command_fixtures.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/opponent/command_sim.hpp"

namespace referee::warmaster {
namespace {

using namespace testing;

Battlefield field_with_characters(int units, std::uint64_t seed) {
  Battlefield bf = bench::make_field(units, units / 3, seed);
  bf.characters.push_back(character("south-general", 0, CharacterRole::General, 9, 90, 30));
  bf.characters.push_back(character("south-hero", 0, CharacterRole::Hero, 8, 40, 20));
  bf.characters.push_back(character("north-general", 1, CharacterRole::General, 9, 90, 90));
  bf.characters.push_back(character("north-wizard", 1, CharacterRole::Wizard, 7, 140, 100));
  return bf;
}

// Invariants that must hold after every applied action.
void check_invariants(const WarmasterState& before, const Action& a, const ActionOutcome& o, const WarmasterState& s) {
  ASSERT_TRUE(o.verdict.legal());
  const Battlefield& bf = s.battlefield();
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const UnitStatus& st = s.units()[i];
    EXPECT_LE(st.orders, 3) << bf.units[i].id;
    if (st.used_initiative) {
      EXPECT_EQ(st.orders, 0) << bf.units[i].id << " used initiative and was ordered";
    }
    EXPECT_EQ(st.orders > 0, !st.ordered_by.empty()) << bf.units[i].id;
    if (st.charged) {
      EXPECT_TRUE(bf.units[i].engaged) << bf.units[i].id;
    }
    if (st.off_table || st.destroyed) {
      EXPECT_TRUE(bf.units[i].stands.empty()) << bf.units[i].id;
    }
  }
  // No stand of one unit overlaps a stand of another.
  const double tol = s.settings().contact_tolerance;
  for (std::size_t i = 0; i < bf.units.size(); ++i)
    for (std::size_t j = i + 1; j < bf.units.size(); ++j)
      for (std::size_t p = 0; p < bf.units[i].stands.size(); ++p)
        for (std::size_t q = 0; q < bf.units[j].stands.size(); ++q) {
          const OrientedRect a1 = bf.units[i].footprint(p), b1 = bf.units[j].footprint(q);
          if (!a1.bounds().overlaps(b1.bounds())) continue;
          EXPECT_FALSE(overlaps(a1, b1, tol)) << bf.units[i].id << " overlaps " << bf.units[j].id << " after "
                                              << to_json(a).dump();
        }
  if (a.type == ActionType::Order) {
    int ci = -1;
    for (std::size_t k = 0; k < bf.characters.size(); ++k)
      if (bf.characters[k].id == a.character) ci = static_cast<int>(k);
    ASSERT_GE(ci, 0);
    EXPECT_FALSE(before.characters()[static_cast<std::size_t>(ci)].failed) << "a failed character gave an order";
    EXPECT_FALSE(before.general_failed()) << "an order after the General failed";
    // Two dice, and a third for a Hero's or Wizard's blunder (docs/rulings.md#warmaster-command-blunders).
    EXPECT_TRUE(o.rolls.size() == 2u || (o.rolls.size() == 3u && o.rolls[2].purpose == "blunder"));
  }
  if (a.type == ActionType::Initiative) {
    EXPECT_FALSE(before.orders_begun()) << "initiative after an order";
  }
}

struct Recorder {
  GameLog log;
  int actions = 0;
  sim::Observer observer() {
    return [this](const WarmasterState& before, const Action& a, const ActionOutcome& o, const WarmasterState& after) {
      check_invariants(before, a, o, after);
      log.append(to_json(a), o.rolls, o.result);
      ++actions;
      // A refused action changes nothing: try one that is always illegal here.
      WarmasterState probe = after;
      const Json snapshot = state_to_json(probe);
      Action bad = a.type == ActionType::Move ? simple(ActionType::Move) : order("nobody", {"nothing"});
      ScriptedDice none({});
      if (!probe.validate(bad).legal()) {
        probe.apply(bad, none);
        EXPECT_EQ(state_to_json(probe), snapshot);
      }
    };
  }
};

// 2,000 command phases in four shards of 500, so that ctest can run them on
// both cores (under ASan the whole takes minutes). Shard k plays the games
// whose seed is k modulo 4, each game with its own random stream.
class CommandRandomSimShard : public ::testing::TestWithParam<int> {};

TEST_P(CommandRandomSimShard, ThousandsOfRandomActionsKeepTheInvariantsAndReplay) {
  const int shard = GetParam();
  int total = 0, phases = 0;
  // Games until 500 command phases have been played (a game ends early when
  // a General leaves the table). The cost is the movement engine's check of
  // every move.
  for (std::uint64_t game_seed = 1 + static_cast<std::uint64_t>(shard); phases < 500 && game_seed <= 500; game_seed += 4) {
    auto game = make_game(field_with_characters(16, 1000 + game_seed));
    WarmasterState s(game);
    const std::uint64_t dice_seed = 77 + game_seed;
    SeededDice dice(dice_seed);
    Rng rng(2026 + game_seed);
    Recorder rec;
    rec.log.system = "warmaster";
    rec.log.seed = dice_seed;
    const sim::Observer obs = rec.observer();
    for (int phase = 0; phase < 40 && !s.battle_over(); ++phase, ++phases)
      sim::random_turn(s, dice, rng, &obs);
    total += rec.actions;
    // Replaying the log with the same seed gives the same state, field for field.
    const WarmasterState replayed = replay_log(game, GameLog::parse_jsonl(rec.log.to_jsonl(), "sim.log"), "sim.log");
    EXPECT_EQ(state_to_json(replayed), state_to_json(s));
    if (HasFailure()) break;
  }
  EXPECT_GE(phases, 500);
  EXPECT_GT(total, 1250);
  std::cout << "random simulation, shard " << shard << ": " << phases << " command phases, " << total << " actions\n";
}

INSTANTIATE_TEST_SUITE_P(Shards, CommandRandomSimShard, ::testing::Values(0, 1, 2, 3));

TEST(CommandRandomSim, UniformPicksFromLegalActions) {
  BattlefieldFile f = load_battlefield_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/command-crossroads.json");
  // Uniform picks end phases often: a long battle, so that every game lasts
  // its hundred picks (docs/rulings.md#warmaster-turn-limit).
  f.settings.turn_limit = 100;
  auto game = make_game(f.battlefield, f.settings);
  Rng rng(99);
  int total = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    WarmasterState s(game);
    SeededDice dice(seed);
    Recorder rec;
    const sim::Observer obs = rec.observer();
    for (int k = 0; k < 100 && sim::random_legal_action(s, dice, rng, &obs); ++k) {
      // Every listed action validates, and validating changes nothing.
      const Json snapshot = state_to_json(s);
      for (const Action& a : s.legal_actions()) EXPECT_TRUE(s.validate(a).legal()) << to_json(a).dump();
      EXPECT_EQ(state_to_json(s), snapshot);
    }
    total += rec.actions;
    if (HasFailure()) break;
  }
  EXPECT_GT(total, 400);
}

// Simulations without an observer apply actions undescribed (no result
// JSON); that must not change the game: same state, same dice, turn by turn.
TEST(CommandRandomSim, UndescribedPlayGivesTheSameGame) {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    auto game = make_game(field_with_characters(20, 300 + seed));
    WarmasterState described(game), undescribed(game);
    SeededDice dice_a(seed), dice_b(seed);
    Rng rng_a(seed), rng_b(seed);
    int applied = 0;
    const sim::Observer count = [&](const WarmasterState&, const Action&, const ActionOutcome& o, const WarmasterState&) {
      EXPECT_FALSE(o.result.is_null());
      ++applied;
    };
    for (int phase = 0; phase < 6 && !described.battle_over(); ++phase) {
      const int before = applied;
      sim::random_turn(described, dice_a, rng_a, &count);
      EXPECT_EQ(sim::random_turn(undescribed, dice_b, rng_b, nullptr), applied - before);
      ASSERT_EQ(state_to_json(undescribed), state_to_json(described)) << "seed " << seed << " phase " << phase;
      ASSERT_EQ(dice_b.history().size(), dice_a.history().size());
    }
    EXPECT_GT(applied, 20);
  }
}

TEST(CommandRandomSim, CloningIsCheapAndIndependent) {
  auto game = make_game(field_with_characters(40, 5));
  WarmasterState a(game);
  WarmasterState b = a;
  EXPECT_EQ(&a.battlefield(), &b.battlefield());  // shared until a stand moves
  SeededDice dice(3);
  Rng rng(4);
  sim::random_turn(b, dice, rng, nullptr);
  EXPECT_EQ(a.side(), 0);
  EXPECT_EQ(b.side(), 1);
  EXPECT_EQ(state_to_json(a), state_to_json(WarmasterState(game)));
}

}  // namespace
}  // namespace referee::warmaster
