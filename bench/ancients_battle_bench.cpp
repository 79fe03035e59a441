#include <benchmark/benchmark.h>

#include <string>

#include "referee/ancients/battle.hpp"
#include "referee/ancients/turn.hpp"
#include "referee/core/dice.hpp"

using namespace referee;
using namespace referee::ancients;

namespace {
// The bundled centre clash: the standard board, 30 units, 15 terrain hexes, 6 banners to win.
Battle centre_clash() { return load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/ancients/centre_clash.json"); }
}  // namespace

// The exact odds of one attack (issue target: under 50 us): heavy infantry's
// 5 dice in close combat, the distribution over every count of hits and
// flags, elimination and retreat with the target's retreat room searched.
static void BM_AncientsAttackOdds(benchmark::State& state) {
  const Battle b = centre_clash();
  const Position p = Position::initial(b);
  const int attacker = b.find_unit("a_hi1");
  const int target = b.find_unit("b_mi1");
  std::uint64_t eliminate = 0;
  for (auto _ : state) {
    const AttackPlan plan = plan_attack(b, p, attacker, target, true, false, false);
    const AttackOdds o = attack_odds(b, p, plan);
    eliminate = o.eliminate;
    benchmark::DoNotOptimize(eliminate);
  }
  state.counters["eliminate_rolls"] = static_cast<double>(eliminate);
}
BENCHMARK(BM_AncientsAttackOdds);

// A whole random game on the centre clash (issue target: 1,000 games a
// second or more on one core): every action drawn by random_action (the
// conformance suite's sampler) from the legal actions (cards, orders, moves,
// battles, evasions, retreats, momentum) and applied with seeded dice
// (describe=false: a simulation keeps no log), until
// a side has its banners or the cards run out.
static void random_games(benchmark::State& state, const Battle& b) {
  const AncientsState start = AncientsState::initial(b);
  Rng rng(11);
  std::int64_t actions = 0, battles = 0, by_banners = 0;
  for (auto _ : state) {
    AncientsState s = start;
    SeededDice dice(rng.next());
    for (;;) {
      const std::optional<Action> a = random_action(b, s, rng);
      if (!a) break;
      battles += a->type == Action::Type::battle;
      do_apply(b, s, *a, dice, false);
      ++actions;
    }
    by_banners += winner(b, s) >= 0;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["actions_per_game"] = static_cast<double>(actions) / n;
  state.counters["battles_per_game"] = static_cast<double>(battles) / n;
  state.counters["ended_by_banners"] = static_cast<double>(by_banners) / n;
  state.counters["games_per_second"] = benchmark::Counter(n, benchmark::Counter::kIsRate);
}
static void BM_AncientsRandomGame(benchmark::State& state) { random_games(state, centre_clash()); }
BENCHMARK(BM_AncientsRandomGame)->Unit(benchmark::kMillisecond);

// The same on the lines-engaged battle, whose armies start in contact: most
// of its games end on a side's 4 banners.
static void BM_AncientsRandomGameEngaged(benchmark::State& state) {
  random_games(state, load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/ancients/lines_engaged.json"));
}
BENCHMARK(BM_AncientsRandomGameEngaged)->Unit(benchmark::kMillisecond);
