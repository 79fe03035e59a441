#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "referee/ancients/opponent.hpp"
#include "referee/ancients/turn.hpp"
#include "referee/core/dice.hpp"

using namespace referee;
using namespace referee::ancients;

namespace {
Battle bundled(const std::string& name) {
  return load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/ancients/" + name + ".json");
}

// Every state the opponent acted in over a few seeded games against the
// random player: its cards, orders, moves, battles and a combat's choices,
// in the proportions a game has them.
std::vector<AncientsState> opponent_states(const Battle& b, int games) {
  std::vector<AncientsState> out;
  for (int g = 0; g < games; ++g) {
    AncientsState s = AncientsState::initial(b);
    SeededDice dice(static_cast<std::uint64_t>(100 + g));
    Rng rng[2] = {Rng(static_cast<std::uint64_t>(7 + g)), Rng(static_cast<std::uint64_t>(70 + g))};
    const int me = g % 2;
    while (!game_over(b, s)) {
      const int p = acting_side(b, s);
      if (p == me) out.push_back(s);
      const std::optional<Action> a = p == me ? opponent_action(b, s, rng[p]) : random_action(b, s, rng[p]);
      do_apply(b, s, *a, dice, false);
    }
  }
  return out;
}

void opponent_actions(benchmark::State& state, const std::string& name) {
  const Battle b = bundled(name);
  const std::vector<AncientsState> states = opponent_states(b, 4);
  Rng rng(1);
  std::size_t i = 0;
  for (auto _ : state) {
    const std::optional<Action> a = opponent_action(b, states[i], rng);
    benchmark::DoNotOptimize(a);
    i = (i + 1) % states.size();
  }
  state.counters["states"] = static_cast<double>(states.size());
}
}  // namespace

// One opponent action (issue target: well under a few ms), taken in turn
// over every state the opponent met in four seeded games on the centre
// clash (30 units on the standard board): the mean over a game's mix.
static void BM_AncientsOpponentAction(benchmark::State& state) { opponent_actions(state, "centre_clash"); }
BENCHMARK(BM_AncientsOpponentAction);

// The same on lines engaged (40 units, every one in contact).
static void BM_AncientsOpponentActionEngaged(benchmark::State& state) { opponent_actions(state, "lines_engaged"); }
BENCHMARK(BM_AncientsOpponentActionEngaged);

// The dearest decision: the card at the start of the centre clash, each card
// in hand played on a copy and weighed by the best orders it allows.
static void BM_AncientsOpponentCard(benchmark::State& state) {
  const Battle b = bundled("centre_clash");
  const AncientsState s = AncientsState::initial(b);
  Rng rng(1);
  for (auto _ : state) {
    const std::optional<Action> a = opponent_action(b, s, rng);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_AncientsOpponentCard);
