// Routes and reach take climbs and jumps where the straight line crosses an
// edge, not only from the 1-inch cell centres (docs/rulings.md#blightmeer-routes):
// the four cases found wrong before, then a seeded search over random walls,
// alleys and roofs comparing the planner with a dense set of moves that
// check_move accepts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "fixture.hpp"
#include "referee/blightmeer/route.hpp"
#include "referee/core/dice.hpp"

namespace referee::blightmeer {
namespace {
using namespace testing;

json rect(const std::string& id, double h, double x0, double y0, double x1, double y1) {
  return {{"id", id}, {"height", h}, {"footprint", {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}}};
}

Battle field(const std::vector<json>& surfaces, const std::vector<json>& units, double size = 36) {
  json t = {{"table", {{"width", size}, {"depth", size}}}, {"surfaces", surfaces}, {"units", units}};
  return parse_battle(t, "test");
}

const ReachCell* cell(const ReachAnswer& a, double x, double y, double z) {
  for (const ReachCell& c : a.cells)
    if (std::abs(c.p.x - x) < 1e-9 && std::abs(c.p.y - y) < 1e-9 && std::abs(c.p.z - z) < 1e-9) return &c;
  return nullptr;
}

// "To climb up or down a vertical surface as part of your movement make an
// Agility Check ... The vertical movement counts towards the distance": from
// (9.5, 5) the straight line to (12, 5) is 2.5 in across and the wall 3 in up.
TEST(BlightmeerRouteSearch, ClimbsWhereTheLineMeetsTheWall) {
  Battle b = field({rect("wall", 3, 10, 0, 20, 12)}, {unit("a", 9.5, 5, 0)});
  MoveReport direct = check(b, move("a", {climb(10.5, 5, 3), walk(12, 5)}));
  ASSERT_TRUE(direct.verdict.legal()) << explain(direct.verdict);
  EXPECT_NEAR(direct.spent, 5.5, 1e-9);

  RouteAnswer r = best_route(*b.terrain, b.state, "a", {12, 5, 3}, false);
  EXPECT_FALSE(r.safe.found);  // no ladder: every way up is a climb
  ASSERT_TRUE(r.risky.found);
  EXPECT_TRUE(r.risky.report.verdict.legal()) << explain(r.risky.report.verdict);
  EXPECT_NEAR(r.risky.report.spent, 5.5, 1e-5);  // the exact crossing: the straight line, plus the wall
  ASSERT_EQ(r.risky.report.checks.size(), 1u);
  EXPECT_EQ(r.risky.report.checks[0].rule, "blightmeer.climb.check");
  EXPECT_EQ(r.risky.report.all_checks.fraction(), "13/20");  // Agility 8
}

// The cells (10.5, 7.5) and (10.5, 2.5) on top of the wall are 2.69 in across
// and 3 in up from (9.5, 5): 5.69 in, within Move 6. (11.5, 7.5) is 6.20 in.
TEST(BlightmeerRouteSearch, ReachIncludesCellsPastAClimbOffTheGrid) {
  Battle b = field({rect("wall", 3, 10, 0, 20, 12)}, {unit("a", 9.5, 5, 0)});
  MoveReport m = check(b, move("a", {walk(9.99, 6.225), climb(10.01, 6.275, 3), walk(10.5, 7.5)}));
  ASSERT_TRUE(m.verdict.legal()) << explain(m.verdict);
  EXPECT_NEAR(m.spent, std::sqrt(1 + 2.5 * 2.5) + 3, 1e-9);  // 5.69 in

  ReachAnswer a = unit_reach(*b.terrain, b.state, "a", false);
  for (double y : {7.5, 2.5}) {
    const ReachCell* c = cell(a, 10.5, y, 3);
    ASSERT_NE(c, nullptr) << "(10.5, " << y << ", 3)";
    EXPECT_EQ(c->checks, 1);
    EXPECT_LE(c->cost, m.spent + 2e-3);
    // The reach's figure is a route check_move accepts.
    RouteAnswer r = best_route(*b.terrain, b.state, "a", {10.5, y, 3}, false);
    ASSERT_TRUE(r.risky.found);
    EXPECT_TRUE(r.risky.report.verdict.legal()) << explain(r.risky.report.verdict);
    EXPECT_NEAR(r.risky.report.spent, m.spent, 1e-5);
  }
  EXPECT_EQ(cell(a, 11.5, 7.5, 3), nullptr);  // 6.20 in
}

// "No Jump Across check needs to be made to jump distances 1" or less": a
// 0.6 in alley between two 3 in roofs, 1 in to the lip, 0.6 in across, 0.9 in on.
TEST(BlightmeerRouteSearch, JumpsANarrowAlleyWithNoCheck) {
  Battle b = field({rect("west", 3, 0, 0, 10, 12), rect("east", 3, 10.6, 0, 20, 12)}, {unit("a", 9, 5, 3)});
  RouteAnswer r = best_route(*b.terrain, b.state, "a", {11.5, 5, 3}, false);
  ASSERT_TRUE(r.safe.found);
  EXPECT_TRUE(r.safe.report.verdict.legal()) << explain(r.safe.report.verdict);
  EXPECT_TRUE(r.safe.report.checks.empty());
  EXPECT_TRUE(has_note(r.safe.report, "blightmeer.jump_across.short"));
  EXPECT_NEAR(r.safe.report.spent, 2.5, 1e-3);
  EXPECT_FALSE(r.risky.found);  // nothing with a check is cheaper

  // Every cell of the east roof within reach is reached with no check.
  ReachAnswer a = unit_reach(*b.terrain, b.state, "a", false);
  int east = 0;
  for (const ReachCell& c : a.cells)
    if (c.p.x > 10.6 && c.p.z == 3) {
      ++east;
      EXPECT_EQ(c.checks, 0) << "(" << c.p.x << ", " << c.p.y << ")";
    }
  EXPECT_GT(east, 28);
  const ReachCell* far = cell(a, 14.5, 5.5, 3);  // 5.52 in straight across the alley
  ASSERT_NE(far, nullptr);
  EXPECT_EQ(far->checks, 0);
  // Reach's costs are the search's (grid walks where they sufficed): within 1%.
  EXPECT_GE(far->cost, std::hypot(5.5, 0.5) - 1e-6);
  EXPECT_LE(far->cost, std::hypot(5.5, 0.5) * 1.01);
}

// "No Jump Across check needs to be made to jump distances 1" or less": an
// alley 0.9 in wide, crossed on the slant from (8, 5) to (12.5, 7.5) on 3 in
// roofs. The straight line is hypot(4.5, 2.5) = 5.148 in but crosses
// 0.9 * 5.148 / 4.5 = 1.03 in of alley: a check. With no check, the jump is
// at most 1 in, so at most sqrt(1 - 0.81) = 0.436 in sideways, and the best
// lips make the rest straight: 1 + hypot(4.5 - 0.9, 2.5 - 0.436) = 5.150 in.
TEST(BlightmeerRouteSearch, CrossesASlantAlleyFreeAtTheBestLipsWithinOneInch) {
  Battle b = field({rect("west", 3, 0, 0, 10, 12), rect("east", 3, 10.9, 0, 20, 12)}, {unit("a", 8, 5, 3)});
  const double side = std::sqrt(1 - 0.81);
  const double free = 1 + std::hypot(3.6, 2.5 - side), checked = std::hypot(4.5, 2.5);
  RouteAnswer r = best_route(*b.terrain, b.state, "a", {12.5, 7.5, 3}, false);
  ASSERT_TRUE(r.safe.found);
  EXPECT_TRUE(r.safe.report.verdict.legal()) << explain(r.safe.report.verdict);
  EXPECT_TRUE(r.safe.report.checks.empty());
  EXPECT_TRUE(has_note(r.safe.report, "blightmeer.jump_across.short"));
  EXPECT_NEAR(r.safe.report.spent, free, 1e-5);
  ASSERT_TRUE(r.risky.found);
  EXPECT_TRUE(r.risky.report.verdict.legal()) << explain(r.risky.report.verdict);
  ASSERT_EQ(r.risky.report.checks.size(), 1u);
  EXPECT_EQ(r.risky.report.checks[0].rule, "blightmeer.jump_across.check");
  EXPECT_NEAR(r.risky.report.spent, checked, 1e-5);

  ReachAnswer a = unit_reach(*b.terrain, b.state, "a", false);
  const ReachCell* c = cell(a, 12.5, 7.5, 3);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->checks, 0);
  EXPECT_GE(c->cost, free - 1e-5);
}

// The bundled town: the Wood Elf on the inn roof (3 in) to the warehouse roof
// (4 in) across the 1 in alley between them: 1 in to the lip, a 1 in jump up
// 1 in (no check: 1 in or less, and not more than 1 in above), 2 in on.
TEST(BlightmeerRouteSearch, TownElfCrossesToTheWarehouseWithNoCheck) {
  Battle b = load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/blightmeer/town.json");
  MoveReport m = check(b, move("elf", {walk(12, 8), jump_across(13, 8), walk(15, 8)}));
  ASSERT_TRUE(m.verdict.legal()) << explain(m.verdict);
  EXPECT_TRUE(m.checks.empty());
  EXPECT_NEAR(m.spent, 4.0, 1e-9);

  RouteAnswer r = best_route(*b.terrain, b.state, "elf", {15, 8, 4}, false);
  ASSERT_TRUE(r.safe.found);
  EXPECT_TRUE(r.safe.report.verdict.legal()) << explain(r.safe.report.verdict);
  EXPECT_TRUE(r.safe.report.checks.empty());
  EXPECT_NEAR(r.safe.report.spent, 4.0, 1e-3);
  EXPECT_FALSE(r.risky.found);

  // Reach (Move 7): the warehouse roof (x 13-17, y 4-10) with no check, all
  // 24 cells less the 4 whose centres are within the dwarf's base at (14, 9).
  ReachAnswer a = unit_reach(*b.terrain, b.state, "elf", false);
  int roof = 0;
  for (const ReachCell& c : a.cells)
    if (c.p.x > 13 && c.p.x < 17 && c.p.y > 4 && c.p.y < 10) {
      ++roof;
      EXPECT_EQ(c.checks, 0) << "roof (" << c.p.x << ", " << c.p.y << ")";
    }
  EXPECT_EQ(roof, 20);
  // The ground east of it after the free jump, the roof and one jump down
  // from its east side: (17.5, 7.5) is 1 in across the alley plus
  // sqrt(5.5^2 + 0.5^2) = 5.52 in, 6.52 in with one check.
  const ReachCell* east = cell(a, 17.5, 7.5, 0);
  ASSERT_NE(east, nullptr);
  EXPECT_EQ(east->checks, 1);
  EXPECT_LE(east->cost, (1 + std::hypot(5.5, 0.5)) * 1.02);
  // (17.5, 5.5) with one check would be 1 + sqrt(5.5^2 + 2.5^2) = 7.04 in,
  // over the 7: the free jump must cross the 1 in alley square on. The
  // straight line, with a checked jump across (1.07 in of alley along it) and
  // the jump down, is sqrt(6.5^2 + 2.5^2) = 6.96 in: two checks. The walk
  // between the two jumps is straight, so the cell is in reach.
  const ReachCell* two = cell(a, 17.5, 5.5, 0);
  ASSERT_NE(two, nullptr);
  EXPECT_EQ(two->checks, 2);
  EXPECT_GE(two->cost, std::hypot(6.5, 2.5) - 1e-9);
  EXPECT_LE(two->cost, 7.0);
}

// Every cell reach promises in the town, for every unit that may move,
// walking and running, comes with a move check_move accepts: legal, complete,
// ending at the cell, spending the cost reach gives (within the allowance) and
// needing the checks reach counts.
void expect_moves_accepted(const Battle& b, const std::string& unit, bool run, int& cells) {
  const ReachAnswer a = unit_reach(*b.terrain, b.state, unit, run, true);
  for (const ReachCell& c : a.cells) {
    ++cells;
    const MoveReport r = check_move(*b.terrain, b.state, c.move);
    const std::string where = unit + (run ? " running" : "") + " to (" + std::to_string(c.p.x) + ", " +
                              std::to_string(c.p.y) + ", " + std::to_string(c.p.z) + ")";
    ASSERT_TRUE(r.verdict.legal()) << where << ": " << explain(r.verdict);
    ASSERT_TRUE(r.complete) << where;
    EXPECT_NEAR(r.final_pos.x, c.p.x, 1e-9) << where;
    EXPECT_NEAR(r.final_pos.y, c.p.y, 1e-9) << where;
    EXPECT_NEAR(r.final_pos.z, c.p.z, 1e-9) << where;
    EXPECT_NEAR(r.spent + r.allowance.penalty, c.cost, 1e-9) << where;
    EXPECT_LE(r.spent, r.allowance.total + 1e-6) << where;
    EXPECT_EQ(std::min<int>(3, static_cast<int>(r.checks.size())), c.checks) << where;
  }
}

TEST(BlightmeerRouteSearch, EveryTownReachCellComesWithAMoveCheckAccepts) {
  Battle b = load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/blightmeer/town.json");
  int cells = 0;
  for (const Unit& u : b.state.units)
    for (bool run : {false, true})
      if (may_move(b.state, b.state.find(u.id), run).legal()) expect_moves_accepted(b, u.id, run, cells);
  EXPECT_GT(cells, 1000);
}

// ---- The property: seeded walls, alleys and roofs ----

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A scenario in local coordinates: u along the edge, v across it (v < 0 is
// the unit's side). Surfaces are rectangles rotated by `angle` about the
// table centre.
struct Scene {
  enum Kind { wall, alley, roof } kind = wall;
  double angle = 0, h = 3, h2 = 3, gap = 0;
  double su = 0, sv = 0;  // the unit
  static constexpr double kLen = 14, kDeep = 6, kCentre = 15;
  Vec2 world(double u, double v) const {
    const double c = std::cos(angle), s = std::sin(angle);
    const double x = u - kLen / 2, y = v;
    return {kCentre + c * x - s * y, kCentre + s * x + c * y};
  }
  json poly(double v0, double v1) const {
    json pts = json::array();
    for (auto [u, v] : {std::pair{0.0, v0}, {kLen, v0}, {kLen, v1}, {0.0, v1}}) {
      Vec2 p = world(u, v);
      pts.push_back({p.x, p.y});
    }
    return pts;
  }
  Battle battle() const {
    std::vector<json> surfaces;
    if (kind == wall || kind == roof) surfaces.push_back({{"id", "block"}, {"height", h}, {"footprint", poly(0, kDeep)}});
    if (kind == alley) {
      surfaces.push_back({{"id", "near"}, {"height", h}, {"footprint", poly(-kDeep, 0)}});
      surfaces.push_back({{"id", "far"}, {"height", h2}, {"footprint", poly(gap, gap + kDeep)}});
    }
    Vec2 p = world(su, sv);
    double z = kind == wall ? 0 : h;
    return field(surfaces, {unit("a", p.x, p.y, z)}, 30);
  }
};

double uniform(Rng& rng, double lo, double hi) { return lo + (hi - lo) * static_cast<double>(rng.below(1000001)) / 1e6; }

Scene random_scene(Rng& rng, Scene::Kind kind) {
  Scene s;
  s.kind = kind;
  s.angle = uniform(rng, 0, 2 * 3.141592653589793);
  s.su = uniform(rng, 3, 11);
  if (kind == Scene::wall) {
    s.h = uniform(rng, 1.5, 3.5);
    s.sv = -uniform(rng, 0.05, 2.0);
  } else if (kind == Scene::alley) {
    s.h = 3;
    s.h2 = 3 + 0.5 * static_cast<double>(rng.below(3));  // rises of 0, 0.5, 1 in
    s.gap = uniform(rng, 0.2, 2.2);
    s.sv = -uniform(rng, 0.05, 2.0);
  } else {
    s.h = uniform(rng, 1.5, 4.5);
    s.sv = uniform(rng, 0.05, 2.0);
  }
  return s;
}

struct Candidate {
  double cost;  // geometric estimate, for ordering
  int checks;
  MoveRequest move;
};

// Every move of the form walk, climb or jump straight across the edge, walk,
// with the crossing every 0.1 in along the edge (and for an alley every pair
// of lips 0.1 in apart within jump reach). Returns the cheapest one
// check_move accepts, overall and with no check (spent, checks; spent is
// infinite when none is accepted).
struct Best {
  double any = std::numeric_limits<double>::infinity();
  int any_checks = 0;
  double free = std::numeric_limits<double>::infinity();
};

Best best_candidate(const Scene& s, const Battle& b, Vec2 goal) {
  const Unit& u = b.state.units[0];
  const Vec2 start = u.pos.xy();
  std::vector<Candidate> cands;
  constexpr double eps = 0.01;
  for (int i = 0; i <= 140; ++i) {
    const double cu = 0.1 * i;
    if (s.kind == Scene::wall) {
      Vec2 p = s.world(cu, -eps), q = s.world(cu, eps);
      cands.push_back({distance(start, p) + 2 * eps + s.h + distance(q, goal), 1,
                       move("a", {walk(p.x, p.y), climb(q.x, q.y, s.h), walk(goal.x, goal.y)})});
    } else if (s.kind == Scene::roof) {
      Vec2 p = s.world(cu, eps);
      double d = distance(p, goal);
      Vec2 land = d <= 3 ? goal : p + (goal - p) * (3 / d);
      std::vector<Step> path{walk(p.x, p.y), jump_down(land.x, land.y)};
      if (d > 3) path.push_back(walk(goal.x, goal.y));
      cands.push_back({distance(start, p) + d, 1, move("a", path)});
    } else {
      Vec2 p = s.world(cu, -1e-6);
      for (int j = 0; j <= 140; ++j) {
        Vec2 q = s.world(0.1 * j, s.gap + 1e-6);
        double gap = distance(p, q);
        if (gap > 3) continue;
        int checks = gap <= 1 + 1e-6 && s.h2 - s.h <= 1 + 1e-6 ? 0 : 1;
        cands.push_back({distance(start, p) + gap + distance(q, goal), checks,
                         move("a", {walk(p.x, p.y), jump_across(q.x, q.y), walk(goal.x, goal.y)})});
      }
    }
  }
  if (s.kind == Scene::roof && distance(start, goal) <= 3)
    cands.push_back({distance(start, goal), 1, move("a", {jump_down(goal.x, goal.y)})});
  std::sort(cands.begin(), cands.end(), [](const Candidate& x, const Candidate& y) { return x.cost < y.cost; });
  // A move's geometric cost is what check_move spends on it, so the first
  // accepted one in this order is the cheapest; nothing over the allowance is accepted.
  const double allowance = base_allowance(u, false).total;
  Best best;
  for (const Candidate& c : cands) {
    if (c.cost > allowance + 1e-6 || std::isfinite(best.free)) break;
    if (std::isfinite(best.any) && c.checks > 0) continue;
    MoveReport r = check_move(*b.terrain, b.state, c.move);
    if (!r.verdict.legal() || !r.complete) continue;
    const int n = static_cast<int>(r.checks.size());
    if (!std::isfinite(best.any)) {
      best.any = r.spent;
      best.any_checks = n;
    }
    if (n == 0) best.free = r.spent;
  }
  return best;
}

// Rounds of the three scenes, and the seed: BLIGHTMEER_SEARCH_ROUNDS and
// BLIGHTMEER_SEARCH_SEED override them to try more scenes locally.
int env_or(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

TEST(BlightmeerRouteSearch, RoutesWithinOnePercentAndReachCoversEveryAcceptedMoveExactly) {
  const int rounds = env_or("BLIGHTMEER_SEARCH_ROUNDS", 8);
  Rng rng(static_cast<std::uint64_t>(env_or("BLIGHTMEER_SEARCH_SEED", 20261125)));
  double worst = 1, tightest = kInfinity;
  int routes = 0, cells = 0, promised = 0;
  for (int round = 0; round < rounds; ++round)
    for (Scene::Kind kind : {Scene::wall, Scene::alley, Scene::roof}) {
      const Scene s = random_scene(rng, kind);
      const Battle b = s.battle();
      const double target_z = kind == Scene::wall ? s.h : kind == Scene::alley ? s.h2 : 0;
      // Routes: goals across the edge.
      for (int g = 0; g < 3; ++g) {
        const double gu = s.su + uniform(rng, -2, 2);
        const double gv = kind == Scene::alley ? s.gap + uniform(rng, 0.1, 2) : kind == Scene::wall ? uniform(rng, 0.1, 2) : -uniform(rng, 0.1, 2.5);
        const Vec2 goal = s.world(gu, gv);
        const Best best = best_candidate(s, b, goal);
        if (!std::isfinite(best.any)) continue;
        ++routes;
        RouteAnswer r = best_route(*b.terrain, b.state, "a", {goal.x, goal.y, target_z}, false);
        double planner = std::numeric_limits<double>::infinity();
        for (const RouteOption* o : {&r.safe, &r.risky})
          if (o->found) {
            EXPECT_TRUE(o->report.verdict.legal()) << explain(o->report.verdict);
            planner = std::min(planner, o->report.spent);
          }
        EXPECT_LE(planner, best.any * 1.01) << "kind " << kind << " round " << round;
        worst = std::max(worst, planner / best.any);
        if (std::isfinite(best.free)) {
          ASSERT_TRUE(r.safe.found) << "kind " << kind << " round " << round;
          EXPECT_TRUE(r.safe.report.checks.empty());
          EXPECT_LE(r.safe.report.spent, best.free * 1.01);
          worst = std::max(worst, r.safe.report.spent / best.free);
        }
      }
      // Reach, one way: every cell on the far side that an accepted candidate
      // reaches (its centre, within the allowance) is in reach, with no more
      // checks than the fewest a candidate needs. No spare.
      const ReachAnswer a = unit_reach(*b.terrain, b.state, "a", false, true);
      const Vec2 start = b.state.units[0].pos.xy();
      for (int j = 0; j < 30; ++j)
        for (int i = 0; i < 30; ++i) {
          const Vec2 c{i + 0.5, j + 0.5};
          if (distance(c, start) > 6 || std::abs(b.terrain->level_at(c) - target_z) > 1e-9) continue;
          const Best best = best_candidate(s, b, c);
          if (!std::isfinite(best.any)) continue;
          ++cells;
          tightest = std::min(tightest, a.allowance - (std::isfinite(best.free) ? best.free : best.any));
          const ReachCell* rc = cell(a, c.x, c.y, target_z);
          ASSERT_NE(rc, nullptr) << "kind " << kind << " round " << round << " cell (" << c.x << ", " << c.y
                                 << ") reached in " << best.any;
          const int want = std::isfinite(best.free) ? 0 : best.any_checks;
          EXPECT_LE(rc->checks, want) << "kind " << kind << " round " << round << " cell (" << c.x << ", " << c.y
                                      << ") free " << best.free << " any " << best.any << " reach cost " << rc->cost;
        }
      // The other way: every cell reach gives comes with a move check accepts,
      // with reach's cost and checks.
      for (const ReachCell& c : a.cells) {
        ++promised;
        const MoveReport r = check_move(*b.terrain, b.state, c.move);
        ASSERT_TRUE(r.verdict.legal() && r.complete) << "kind " << kind << " round " << round << " cell (" << c.p.x
                                                     << ", " << c.p.y << ", " << c.p.z << "): " << explain(r.verdict);
        EXPECT_NEAR(distance(r.final_pos.xy(), c.p.xy()), 0, 1e-9);
        EXPECT_NEAR(r.spent, c.cost, 1e-9);
        EXPECT_EQ(static_cast<int>(r.checks.size()), c.checks);
      }
    }
  EXPECT_GT(routes, 5 * rounds);
  EXPECT_GT(cells, 60 * rounds);
  std::printf("%d rounds: routes %d, worst route / best accepted candidate %.5f; reach: %d cells reached by "
              "candidates, all in reach (the tightest %.4f in inside the allowance); %d cells promised, each "
              "with a move check accepts\n",
              rounds, routes, worst, cells, tightest, promised);
}

}  // namespace
}  // namespace referee::blightmeer
