// Reach and route planning on the deterministic bench field (warmaster_field.hpp):
// 180 x 120 cm, 40 units of 3 stands (or as the argument says), 20 terrain features.
#include <benchmark/benchmark.h>

#include <stdexcept>

#include "referee/warmaster/movement/reach.hpp"
#include "referee/warmaster/movement/transit.hpp"
#include "warmaster_field.hpp"

using namespace referee;
using namespace referee::warmaster;

namespace {

// The first unit of the given type whose stand 0 cannot go straight 15 cm
// ahead but has a detour within twice that: a move that needs planning.
struct Detour {
  const Unit* unit = nullptr;
  Pose from, to;
};

Detour find_detour(const Battlefield& bf) {
  for (const Unit& u : bf.units) {
    TransitScene scene(bf, u, {});
    Pose from = u.stands[0].pose;
    for (double turn : {0.0, 30.0, -30.0, 60.0, -60.0}) {
      Rot r = Rot::from_degrees(from.facing_deg + turn);
      Pose to{from.position + r.forward() * 15.0, from.facing_deg};
      if (!scene.is_clear(to.position) || scene.check_leg(from, to, "s").empty()) continue;
      auto route = scene.shortest_route(from, to, 30);
      if (route && route->size() > 2) return {&u, from, to};
    }
  }
  throw std::runtime_error("no detour on the bench field");
}

}  // namespace

// shortest_route alone on a move that needs a detour (scene built once).
static void BM_WarmasterShortestRoute(benchmark::State& state) {
  Battlefield bf = bench::make_field(static_cast<int>(state.range(0)));
  Detour d = find_detour(bf);
  TransitScene scene(bf, *d.unit, {});
  for (auto _ : state) benchmark::DoNotOptimize(scene.shortest_route(d.from, d.to, 30));
}
BENCHMARK(BM_WarmasterShortestRoute)->Arg(40)->Arg(160)->Unit(benchmark::kMicrosecond);

// Building the scene (obstacles, index, gates) plus the route: what one stand of a checked move costs.
static void BM_WarmasterSceneAndRoute(benchmark::State& state) {
  Battlefield bf = bench::make_field(static_cast<int>(state.range(0)));
  Detour d = find_detour(bf);
  TransitScratch scratch;  // the caller's, kept from scene to scene
  for (auto _ : state) {
    TransitScene scene(bf, *d.unit, {}, {}, &scratch);
    benchmark::DoNotOptimize(scene.shortest_route(d.from, d.to, 30));
  }
}
BENCHMARK(BM_WarmasterSceneAndRoute)->Arg(40)->Arg(160)->Unit(benchmark::kMicrosecond);

// One straight leg checked (the common case of a move).
static void BM_WarmasterCheckLeg(benchmark::State& state) {
  Battlefield bf = bench::make_field(40);
  Detour d = find_detour(bf);
  TransitScene scene(bf, *d.unit, {});
  for (auto _ : state) benchmark::DoNotOptimize(scene.check_leg(d.from, d.to, "stand 1"));
}
BENCHMARK(BM_WarmasterCheckLeg)->Unit(benchmark::kMicrosecond);

// The whole reach of a unit (target <= 5 ms): arg 0 an infantry unit ordered
// (20 cm), arg 1 a cavalry unit charging (30 cm), arg 2 the infantry unit
// ordered to end facing 90 degrees from where it faces (straight legs and
// routes charged differently for the turn).
static void BM_WarmasterReach(benchmark::State& state) {
  Battlefield bf = bench::make_field(40);
  TroopType want = state.range(0) == 1 ? TroopType::Cavalry : TroopType::Infantry;
  const Unit* unit = nullptr;
  for (const Unit& u : bf.units)
    if (u.type == want) { unit = &u; break; }
  if (!unit) throw std::runtime_error("no unit of that type");
  ReachRequest req{unit->id, state.range(0) == 1 ? ReachKind::Charge : ReachKind::Ordered, std::nullopt, 0.5, std::nullopt};
  if (state.range(0) == 2) req.facing = unit->stands[0].pose.facing_deg + 90;
  for (auto _ : state) benchmark::DoNotOptimize(reach(bf, req));
}
BENCHMARK(BM_WarmasterReach)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
