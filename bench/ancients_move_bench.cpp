#include <benchmark/benchmark.h>

#include <string>

#include "referee/ancients/movement.hpp"
#include "referee/ancients/orders.hpp"

using namespace referee::ancients;

namespace {
// The bundled centre clash: the standard board, 30 units, 15 terrain hexes.
Battle centre_clash() { return load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/ancients/centre_clash.json"); }
}  // namespace

// One unit's destinations (issue target: <= 1 us). Light cavalry, 4 hexes:
// the largest search of any class.
static void BM_AncientsLegalDestinations(benchmark::State& state) {
  Battle b = centre_clash();
  Position p = Position::initial(b);
  int unit = b.find_unit("a_lc1");
  PathScratch scratch;
  std::vector<Destination> out;
  out.reserve(64);
  for (auto _ : state) {
    unit_destinations(b, p, unit, {}, scratch, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["destinations"] = static_cast<double>(out.size());
}
BENCHMARK(BM_AncientsLegalDestinations);

// Every legal destination of every unit and leader one card play may order
// (issue target: <= 50 us). Order Mounted Troops for side 0: six mounted units
// (light cavalry, chariot, camel, medium and heavy cavalry, elephant) and both leaders.
static void BM_AncientsAllOrders(benchmark::State& state) {
  Battle b = centre_clash();
  Position p = Position::initial(b);
  int card = b.find_card("order-mounted-troops");
  PathScratch scratch;
  std::vector<Destination> out;
  out.reserve(64);
  std::size_t total = 0;
  for (auto _ : state) {
    OrderPlan plan = plan_orders(b, p, 0, card, 5);
    total = 0;
    for (int u : plan.units) {
      unit_destinations(b, p, u, plan.move, scratch, out);
      total += out.size();
    }
    for (int l : plan.leaders) {
      leader_destinations(b, p, l, scratch, out);
      total += out.size();
    }
    benchmark::DoNotOptimize(total);
  }
  state.counters["destinations"] = static_cast<double>(total);
}
BENCHMARK(BM_AncientsAllOrders);
