// The move checker looks only at what is near a move: MoveIndex finds units
// and terrain through grids, and the transit scenes are fed the units the
// index finds near the move rather than visiting the whole battle. Neither
// may change an answer. Checked on a big field (the bench field tiled 2 x 2,
// 640 units, built in code: the file format's 1,000-unit cap guards input,
// not the engine) against a brute-force scan and against scenes that hold
// the whole battle (MoveScenes::whole_battle).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "../../bench/warmaster_field.hpp"
#include "referee/warmaster/movement/movement.hpp"

using namespace referee;
using namespace referee::warmaster;

namespace {

// Units whose stands' bounds meet `box`, by visiting every unit.
std::vector<int> units_near_by_scan(const Battlefield& bf, const Aabb& box) {
  std::vector<int> out;
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const Unit& u = bf.units[i];
    if (u.stands.empty()) continue;
    Aabb b = u.footprint(0).bounds();
    for (std::size_t s = 1; s < u.stands.size(); ++s) b = b.merged(u.footprint(s).bounds());
    if (b.overlaps(box)) out.push_back(static_cast<int>(i));
  }
  return out;
}

Aabb random_box(Rng& rng, const Battlefield& bf) {
  Vec2 c{bench::uniform(rng, -30, bf.width + 30), bench::uniform(rng, -30, bf.height + 30)};
  Vec2 half{bench::uniform(rng, 0, 40), bench::uniform(rng, 0, 40)};
  return {c - half, c + half};
}

// A rigid move of the whole unit: turned about its centre, then shifted.
MoveRequest rigid_move(Rng& rng, const Unit& u, double max_dist) {
  Vec2 centre{0, 0};
  for (const auto& s : u.stands) centre += s.pose.position;
  centre = centre / static_cast<double>(u.stands.size());
  const double turn = bench::uniform(rng, -90, 90);
  const double dir = bench::uniform(rng, 0, 360);
  const double dist = bench::uniform(rng, 0, max_dist);
  const Rot r = Rot::from_degrees(turn);
  const Vec2 shift = Rot::from_degrees(dir).forward() * dist;
  MoveRequest req;
  req.mover = u.id;
  for (std::size_t s = 0; s < u.stands.size(); ++s) {
    const Vec2 local = u.stands[s].pose.position - centre;
    req.stands.push_back(
        {StandIndex(s), {}, {centre + r.apply(local) + shift, normalize_degrees(u.stands[s].pose.facing_deg + turn)}});
  }
  return req;
}

void expect_same_answer(const MoveAnswer& local, const MoveAnswer& whole, const std::string& what) {
  ASSERT_EQ(local.verdict.violations.size(), whole.verdict.violations.size()) << what;
  for (std::size_t k = 0; k < local.verdict.violations.size(); ++k)
    EXPECT_EQ(local.verdict.violations[k], whole.verdict.violations[k]) << what << ", reason " << k;
  EXPECT_EQ(local.order, whole.order) << what;
  EXPECT_EQ(local.leaves_table, whole.leaves_table) << what;
  EXPECT_EQ(local.allowance, whole.allowance) << what;
  ASSERT_EQ(local.routes.size(), whole.routes.size()) << what;
  for (std::size_t k = 0; k < local.routes.size(); ++k) {
    EXPECT_EQ(local.routes[k].poses, whole.routes[k].poses) << what << ", route " << k;
    EXPECT_EQ(local.routes[k].used, whole.routes[k].used) << what << ", route " << k;
    EXPECT_EQ(local.routes[k].planned, whole.routes[k].planned) << what << ", route " << k;
  }
}

// units_near is the brute-force scan's answer, in the same (ascending)
// order, for boxes anywhere on and off the table; also for an index made
// from an earlier one after a move, and with a unit pushed off the table
// (outside the grid) and one with no stands left. `bf` has more than 7 units.
void expect_units_near_as_scanned(Battlefield bf, int min_found) {
  Rng rng(2026);
  const MoveIndex first(bf);
  bf.units[3].stands.clear();
  for (Stand& s : bf.units[5].stands) s.pose.position += Vec2{bf.width + 50, 0};
  for (Stand& s : bf.units[7].stands) s.pose.position += Vec2{0, 6};
  const MoveIndex fresh(bf), updated(bf, first);
  EXPECT_FALSE(fresh.unit_box(3).has_value());
  int found = 0, empty = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const Aabb box = random_box(rng, bf);
    const std::vector<int> scan = units_near_by_scan(bf, box);
    std::vector<int> got;
    fresh.units_near(box, got);
    ASSERT_EQ(got, scan) << "trial " << trial;
    got.clear();
    updated.units_near(box, got);
    ASSERT_EQ(got, scan) << "trial " << trial;
    found += static_cast<int>(scan.size());
    empty += scan.empty();
  }
  std::vector<int> off;
  fresh.units_near(bf.units[5].footprint(0).bounds(), off);
  EXPECT_NE(std::find(off.begin(), off.end(), 5), off.end());
  EXPECT_GT(found, min_found);
  EXPECT_GT(empty, 100);
}

}  // namespace

// 40 units are scanned (at most MoveIndex::kScanUnitsUpTo); 640 sit in a grid.
TEST(MoveIndex, UnitsNearAsTheScanFindsThem) {
  expect_units_near_as_scanned(bench::make_field(40), 1000);
  const Battlefield big = bench::make_tiled_field(160, 2, 2);
  ASSERT_EQ(big.units.size(), 640u);
  expect_units_near_as_scanned(big, 10000);
}

// A scene over a region built through the index holds what the same scene
// built by visiting every unit and feature holds: the same gates (enemy gaps,
// with the stands that make them and their widths) and the same clear and
// blocked points, in and around the region. Regions are small and random,
// so many units sit on their edges.
TEST(MoveIndex, SceneThroughTheIndexHoldsWhatTheScanFinds) {
  const Battlefield bf = bench::make_tiled_field(160, 2, 2);
  const MoveIndex index(bf);
  Rng rng(77);
  int gates = 0, blocked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Unit& u = bf.units[rng.below(bf.units.size())];
    TransitOptions scan;
    scan.region = random_box(rng, bf);
    TransitOptions indexed = scan;
    indexed.index = &index;
    TransitScene a(bf, u, {}, scan), b(bf, u, {}, indexed);
    const auto ga = a.gates(), gb = b.gates();
    ASSERT_EQ(ga.size(), gb.size()) << "trial " << trial;
    for (std::size_t k = 0; k < ga.size(); ++k) {
      EXPECT_EQ(ga[k].a, gb[k].a) << "trial " << trial;
      EXPECT_EQ(ga[k].b, gb[k].b) << "trial " << trial;
      EXPECT_EQ(ga[k].width, gb[k].width) << "trial " << trial;
    }
    gates += static_cast<int>(ga.size());
    const Aabb around = scan.region->inflated(5);
    for (int k = 0; k < 200; ++k) {
      const Vec2 p{bench::uniform(rng, around.min.x, around.max.x), bench::uniform(rng, around.min.y, around.max.y)};
      ASSERT_EQ(a.is_clear(p), b.is_clear(p)) << "trial " << trial << " at " << p.x << ", " << p.y;
      blocked += !a.is_clear(p);
    }
  }
  EXPECT_GT(gates, 300);
  EXPECT_GT(blocked, 3000);
}

// The scenes built from the index (only the units and terrain near the move)
// give exactly the verdict, the reasons with their figures, the order and
// the routes that scenes holding the whole battle give, for random moves of
// every kind, planned detours included, at both depths.
TEST(MoveIndex, LocalScenesAnswerAsTheWholeBattle) {
  Battlefield bf = bench::make_tiled_field(160, 2, 2);
  Rng rng(1121);
  // Some variety: engaged units (their stands block their own), other troop
  // types (terrain access, flyers), and characters.
  for (Unit& u : bf.units) {
    const auto pick = rng.below(20);
    if (pick == 0) u.engaged = true;
    if (pick == 1) u.type = TroopType::Flyer;
    if (pick == 2) u.type = TroopType::Chariot;
    if (pick == 3) u.type = TroopType::Monster;
  }
  for (int i = 0; i < 40; ++i) {
    Character c;
    c.id = "character-" + std::to_string(i + 1);
    c.side = i % 2;
    c.flying = i % 5 == 0;
    c.pose = {{bench::uniform(rng, 5, bf.width - 5), bench::uniform(rng, 5, bf.height - 5)}, 0};
    bf.characters.push_back(c);
  }
  const MoveIndex index(bf);
  MoveScratch scratch;
  std::map<std::string, int> rules;
  int legal = 0, planned = 0, characters = 0;
  for (int trial = 0; trial < 600; ++trial) {
    MoveRequest req;
    if (trial % 10 == 9) {
      const Character& c = bf.characters[rng.below(bf.characters.size())];
      const Vec2 shift = Rot::from_degrees(bench::uniform(rng, 0, 360)).forward() * bench::uniform(rng, 0, 70);
      req.mover = c.id;
      req.kind = MoveKind::Character;
      req.stands.push_back({StandIndex(0), {}, {c.pose.position + shift, c.pose.facing_deg}});
      ++characters;
    } else {
      const Unit& u = bf.units[rng.below(bf.units.size())];
      req = rigid_move(rng, u, 35);
      const auto kind = rng.below(6);
      if (kind == 1) req.kind = MoveKind::HalfPace;
      if (kind == 2) req.kind = MoveKind::Evade;
      if (kind == 3) {
        req.kind = MoveKind::Dice;
        req.dice_distance = bench::uniform(rng, 5, 30);
      }
      if (kind == 4) {
        // A charge at the nearest enemy unit, whose stands then do not block.
        req.kind = MoveKind::Charge;
        double best = 1e300;
        for (const Unit& e : bf.units)
          if (e.side != u.side && distance(e.stands[0].pose.position, u.stands[0].pose.position) < best) {
            best = distance(e.stands[0].pose.position, u.stands[0].pose.position);
            req.charge_target = e.id;
          }
      }
      if (rng.below(3) == 0) std::reverse(req.stands.begin(), req.stands.end());
    }
    for (CheckDepth depth : {CheckDepth::Explain, CheckDepth::Legality}) {
      MoveScenes local(&scratch), whole(&scratch);
      whole.whole_battle = true;
      const MoveAnswer a = check_move(bf, index, req, {}, local, depth);
      const MoveAnswer b = check_move(bf, index, req, {}, whole, depth);
      expect_same_answer(a, b, "trial " + std::to_string(trial) + " " + req.mover);
      if (depth == CheckDepth::Legality) continue;
      legal += a.verdict.legal();
      for (const auto& r : a.routes) planned += r.planned;
      for (const auto& v : a.verdict.violations) ++rules[v.rule];
    }
  }
  // The sample reaches what the local scenes could get wrong: stands and
  // terrain in the way, enemy gaps, detours planned round them.
  EXPECT_GT(legal, 60);
  EXPECT_GT(planned, 20);
  EXPECT_GT(characters, 50);
  EXPECT_GT(rules["warmaster.movement.path"], 20);
  EXPECT_GT(rules["warmaster.movement.gap"], 10);
  EXPECT_GT(rules["warmaster.movement.overlap"], 20);
  EXPECT_GT(rules["warmaster.movement.terrain"], 5);
}
