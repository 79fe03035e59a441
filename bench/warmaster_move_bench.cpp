// Checking Warmaster moves on the generated 180 x 120 field (bench/warmaster_field.hpp):
// a 3-stand unit's direct move (target <= 20 us and 40k instructions,
// growing with what is near the move, not with the battle: /640 and /2560
// tile the /160 field 2 x 2 and 4 x 4 around the same move, and should stay
// within 1.5x of /160) and a move that needs a planned detour (target <= 300
// us). docs/warmaster-geometry.md has the figures.
#include <benchmark/benchmark.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "referee/warmaster/movement/movement.hpp"
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
    req.stands.push_back({StandIndex(s), {}, p});
  }
  return req;
}

struct Case {
  Battlefield bf;
  MoveRequest req;
};

// The first unit whose `dist` cm advance is legal, planned or not as asked
// (after `after`, when given).
Case find_case(int units, bool detour, const std::string& after = {}) {
  Case c{bench::make_field(units), {}};
  bool past = after.empty();
  for (const auto& u : c.bf.units) {
    if (!past) {
      past = u.id == after;
      continue;
    }
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

// Above 160 units: the 160-unit case's field tiled k x k (k * k * 160 units),
// the same move by the same unit, whose surroundings stay as they were; only
// the battle around them grows. Its check should cost what it did.
Case find_tiled_case(int units) {
  const int k = static_cast<int>(std::lround(std::sqrt(units / 160.0)));
  if (k * k * 160 != units) throw std::runtime_error("tiled bench fields have 160 k^2 units");
  Case c = find_case(160, false);
  c.bf = bench::make_tiled_field(160, k, k);
  MoveAnswer a = check_move(c.bf, c.req);
  for (const auto& r : a.routes)
    if (r.planned) throw std::runtime_error("the tiled field changed the bench move");
  if (!a.verdict.legal()) throw std::runtime_error("the tiled field changed the bench move");
  return c;
}

void BM_WarmasterCheckDirectMove(benchmark::State& state) {
  const int units = static_cast<int>(state.range(0));
  Case c = units > 160 ? find_tiled_case(units) : find_case(units, false);
  MoveIndex index(c.bf);  // built once per battlefield, as a game would
  MoveScratch scratch;    // kept from check to check, as a game would (one per thread)
  for (auto _ : state) {
    MoveAnswer a = check_move(c.bf, index, c.req, {}, scratch);
    benchmark::DoNotOptimize(a);
  }
  state.counters["units"] = static_cast<double>(c.bf.units.size());
}
BENCHMARK(BM_WarmasterCheckDirectMove)->Arg(40)->Arg(10)->Arg(160)->Arg(640)->Arg(2560)->Unit(benchmark::kMicrosecond);

// The direct moves of two units checked in turn, so that no check finds the
// scene it needs kept in the scratch (MoveScratch keeps the last unit's):
// each builds its own, as the first check of a unit on a state does (a
// move in random play, the first of the opponent's tries).
void BM_WarmasterCheckDirectMoveNewScene(benchmark::State& state) {
  const int units = static_cast<int>(state.range(0));
  const Case first = find_case(units, false);
  const Case second = find_case(units, false, first.req.mover);
  MoveIndex index(first.bf);
  MoveScratch scratch;
  bool which = false;
  for (auto _ : state) {
    MoveAnswer a = check_move(first.bf, index, which ? second.req : first.req, {}, scratch);
    which = !which;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_WarmasterCheckDirectMoveNewScene)->Arg(160)->Unit(benchmark::kMicrosecond);

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
