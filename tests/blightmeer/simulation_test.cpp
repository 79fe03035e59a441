// Random simulation (OpenSpiel style): many random moves on the bundled
// battlefields, each checked and, when legal, resolved with seeded dice.
// After every move the invariants of the Move-phase text must hold, and a
// replay with the same seed must give the same game.
#include <gtest/gtest.h>

#include <cmath>

#include "fixture.hpp"
#include "referee/blightmeer/resolve.hpp"
#include "referee/blightmeer/route.hpp"
#include "referee/core/errors.hpp"

namespace referee::blightmeer {
namespace {
using namespace testing;

// The test's own Upkeep, so units recover and keep moving: Stunned becomes
// Dazed, Dazed becomes Staggered, Staggered clears (docs/rulings.md#blightmeer-states).
void upkeep(State& s) {
  for (Unit& u : s.units) {
    u.ran = false;
    if (u.stunned) {
      u.stunned = false;
      u.dazed = true;
    } else if (u.dazed) {
      u.dazed = false;
      u.staggered = true;
    } else {
      u.staggered = false;
    }
  }
}

Step random_step(Rng& rng, const Terrain& t, Vec3 at) {
  Step s;
  int kind = static_cast<int>(rng.below(5));
  double r = 0.5 + static_cast<double>(rng.below(1000)) / 1000.0 * 4.0;
  double a = static_cast<double>(rng.below(3600)) / 10.0;
  Vec2 to = at.xy() + Rot::from_degrees(a).forward() * r;
  s.to = to;
  switch (kind) {
    case 0: s.type = StepType::walk; break;
    case 1: s.type = StepType::climb; s.to_z = t.level_at(to); break;
    case 2: s.type = StepType::jump_down; break;
    case 3: s.type = StepType::jump_across; break;
    default:
      s.type = StepType::ladder;
      s.has_to = false;
      s.ladder = t.ladders[rng.below(t.ladders.size())].id;
  }
  return s;
}

// Plays `moves` random moves; returns the final state as JSON.
nlohmann::json play(const std::string& scenario, std::uint64_t seed, int moves, int* applied_out) {
  Battle b = load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/blightmeer/" + scenario);
  const Terrain& t = *b.terrain;
  Rng rng(seed);
  SeededDice dice(seed);
  int applied = 0;
  for (int i = 0; i < moves; ++i) {
    if (i % 6 == 5) upkeep(b.state);
    const Unit& u = b.state.units[rng.below(b.state.units.size())];
    if (u.incapacitated) continue;
    MoveRequest m;
    bool run = rng.below(2) == 0;
    if (rng.below(3) != 0) {
      // A route to a random spot nearby.
      Vec2 to{std::clamp(u.pos.x + static_cast<double>(rng.below(17)) - 8, 0.5, t.width - 0.5),
              std::clamp(u.pos.y + static_cast<double>(rng.below(17)) - 8, 0.5, t.depth - 0.5)};
      if (t.in_impassable(to)) continue;
      RouteAnswer r = best_route(t, b.state, u.id, {to.x, to.y, NAN}, run);
      const RouteOption& o = r.risky.found && rng.below(2) == 0 ? r.risky : r.safe;
      if (!o.found) continue;
      m = o.request;
    } else {
      m.unit = u.id;
      m.run = run;
      Vec3 at = u.pos;
      int n = 1 + static_cast<int>(rng.below(3));
      for (int k = 0; k < n; ++k) m.path.push_back(random_step(rng, t, at));
    }
    MoveReport rep;
    try {
      rep = check_move(t, b.state, m);
    } catch (const InputError&) {
      continue;  // a random ladder step that does not connect: refused as bad input
    }
    const std::string id = m.unit;
    Resolution res = resolve_move(t, b.state, m, dice);
    EXPECT_EQ(res.applied, rep.verdict.legal());
    if (!res.applied) continue;
    ++applied;
    EXPECT_LE(rep.spent, rep.allowance.total + 1e-6) << "allowance exceeded by " << id;
    const Unit& after = b.state.units[static_cast<std::size_t>(b.state.find(id))];
    if (after.incapacitated) continue;
    Vec3 p = after.pos;
    EXPECT_TRUE(t.on_table(p.xy())) << id;
    EXPECT_FALSE(t.in_impassable(p.xy())) << id;
    // Never partway up a wall or a ladder, never in mid-air: exactly on a level.
    EXPECT_NEAR(t.level_at(p.xy()), p.z, kPlaceTolerance) << id << " at " << p.x << "," << p.y << "," << p.z;
    EXPECT_LT(overlapping_unit(b.state, b.state.find(id), p, after.radius()), 0)
        << id << " ends on another unit: " << move_to_json(m).dump() << " " << resolution_json(res).dump();
  }
  if (applied_out) *applied_out = applied;
  return state_json(b.state);
}

TEST(BlightmeerSimulation, RandomMovesKeepEveryInvariant) {
  for (const char* scenario : {"town.json", "ruin.json"}) {
    for (std::uint64_t seed : {7u, 8u, 9u}) {
      int applied = 0;
      play(scenario, seed, 300, &applied);
      EXPECT_GT(applied, 40) << scenario;  // the simulation really moves units
    }
  }
}

TEST(BlightmeerSimulation, SameSeedSameGame) {
  nlohmann::json a = play("town.json", 99, 60, nullptr);
  nlohmann::json b = play("town.json", 99, 60, nullptr);
  EXPECT_EQ(a, b);
  nlohmann::json c = play("town.json", 100, 60, nullptr);
  EXPECT_NE(a, c);
}

}  // namespace
}  // namespace referee::blightmeer
