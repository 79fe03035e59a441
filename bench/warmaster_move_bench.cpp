// Checking Warmaster moves on the generated 180 x 120 field (bench/warmaster_field.hpp):
// a 3-stand unit's direct move (target <= 20 us, growing with what is near the
// move, not with the battle) and a move that needs a planned detour (target <= 300 us).
#include <benchmark/benchmark.h>

#include <stdexcept>

#include "referee/warmaster/movement.hpp"
#include "warmaster_field.hpp"

using namespace referee;
using namespace referee::warmaster;

namespace {

// Every stand of `u` moved `dist` cm straight ahead along the unit's facing.
MoveRequest advance(const Unit& u, double dist) {
  MoveRequest req;
  req.mover = u.id;
  for (std::size_t s = 0; s < u.stands.size(); ++s) {
    Pose p = u.stands[s].pose;
    p.position += Rot::from_degrees(p.facing_deg).forward() * dist;
    req.stands.push_back({static_cast<int>(s), {}, p});
  }
  return req;
}

struct Case {
  Battlefield bf;
  MoveRequest req;
};

// The first unit whose `dist` cm advance is legal, planned or not as asked.
Case find_case(int units, bool detour) {
  Case c{bench::make_field(units), {}};
  for (const auto& u : c.bf.units) {
    for (double dist = 6; dist <= 18; dist += 2) {
      MoveRequest req = advance(u, dist);
      MoveAnswer a = check_move(c.bf, req);
      bool planned = false;
      for (const auto& r : a.routes) planned = planned || r.planned;
      if (a.verdict.legal() && planned == detour) {
        c.req = req;
        return c;
      }
    }
  }
  throw std::runtime_error("no suitable move on the bench field");
}

void BM_WarmasterCheckDirectMove(benchmark::State& state) {
  Case c = find_case(static_cast<int>(state.range(0)), false);
  MoveIndex index(c.bf);  // built once per battlefield, as a game would
  MoveScratch scratch;    // kept from check to check, as a game would (one per thread)
  for (auto _ : state) {
    MoveAnswer a = check_move(c.bf, index, c.req, {}, scratch);
    benchmark::DoNotOptimize(a);
  }
  state.counters["units"] = static_cast<double>(c.bf.units.size());
}
BENCHMARK(BM_WarmasterCheckDirectMove)->Arg(40)->Arg(10)->Arg(160)->Unit(benchmark::kMicrosecond);

void BM_WarmasterCheckDetourMove(benchmark::State& state) {
  Case c = find_case(40, true);
  MoveIndex index(c.bf);
  MoveScratch scratch;
  for (auto _ : state) {
    MoveAnswer a = check_move(c.bf, index, c.req, {}, scratch);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_WarmasterCheckDetourMove)->Unit(benchmark::kMicrosecond);

}  // namespace
