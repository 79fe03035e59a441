// What the one game interface costs over the typed API (target: at most
// 1 us more per action). Both loops do the same work: copy the state, then
// validate and apply one legal Ancients move (the heavy cavalry a_hc1 of the
// bundled centre clash, ordered by "Order Three Center", to 7,5). The
// interface also parses the action's JSON and builds the result's.
#include <stdexcept>

#include <benchmark/benchmark.h>

#include <string>

#include "referee/ancients/turn.hpp"
#include "referee/ancients/game_interface.hpp"
#include "referee/core/json_io.hpp"
#include "referee/core/match.hpp"
#include "referee/games/builtin.hpp"

namespace {

using referee::Json;

const Json kSetup = Json::array({{{"type", "play_card"}, {"card", "order-three-center"}},
                                 {{"type", "order"}, {"units", {"a_hi1", "a_hc1"}}, {"leaders", {"caesar"}}}});
const Json kMove = {{"type", "move"}, {"unit", "a_hc1"}, {"to", {7, 5}}};

referee::Match ordered() {
  const std::string file = std::string(REFEREE_SOURCE_DIR) + "/scenarios/ancients/centre_clash.json";
  // Dealt as the battle lists it, so that Rome holds the card the set-up plays
  // (a shuffled deal would refuse it, and the loops would time a refusal).
  auto game = referee::builtin_games().at("ancients").load(referee::load_json_file(file), file,
                                                           Json{{"deal", "as_listed"}});
  referee::Match m(game, referee::DiceSource{1, std::nullopt}, file);
  for (const Json& a : kSetup)
    if (!m.play(a).applied()) throw std::logic_error("the set-up is refused: " + a.dump());
  return m;
}

}  // namespace

static void BM_GameInterfaceOverheadTyped(benchmark::State& state) {
  const referee::Match m = ordered();
  const referee::ancients::Battle& b = *referee::typed_context<referee::ancients::System>(m.game());
  const referee::ancients::AncientsState start = *referee::typed_state<referee::ancients::System>(m.state());
  const referee::ancients::Action a = referee::ancients::parse_action(kMove, b, "move");
  for (auto _ : state) {
    referee::ancients::AncientsState s = start;
    if (!referee::ancients::validate(b, s, a).legal()) state.SkipWithError("the move is not legal");
    Json result = referee::ancients::do_apply(b, s, a);
    benchmark::DoNotOptimize(result);
  }
}
BENCHMARK(BM_GameInterfaceOverheadTyped);

static void BM_GameInterfaceOverhead(benchmark::State& state) {
  const referee::Match m = ordered();
  referee::StreamDice dice(referee::DiceSource{1, std::nullopt});
  for (auto _ : state) {
    std::unique_ptr<referee::GameState> s = m.state().clone();
    referee::Outcome o = s->apply(kMove, dice);
    if (!o.applied()) state.SkipWithError("the move is not legal");
    benchmark::DoNotOptimize(o);
  }
}
BENCHMARK(BM_GameInterfaceOverhead);
