// Reach and the move check agree: every whole-unit move whose stands each end
// inside their own reach (ReachAnswer::stand_boundaries) is accepted by the check, and every move the check
// accepts ends within the stated bound (ReachAnswer::miss_bound) of it. The
// moves are what a player dragging a unit on a board sends: translations and
// small turns of the whole formation, half of them ending near the reach
// boundary, with coordinates rounded to 0.001 cm.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "../../bench/warmaster_field.hpp"
#include "referee/core/dice.hpp"
#include "referee/warmaster/battlefield_json.hpp"
#include "referee/warmaster/movement.hpp"
#include "referee/warmaster/reach.hpp"
#include "referee/warmaster/troops.hpp"

namespace referee::warmaster {
namespace {

using bench::uniform;

double round3(double v) { return std::round(v * 1000) / 1000; }

// Even-odd over all rings: outer rings and holes alike.
bool inside(const std::vector<Polygon>& rings, Vec2 p) {
  bool in = false;
  for (const Polygon& ring : rings) {
    const auto& v = ring.points;
    for (std::size_t i = 0, j = v.size() - 1; i < v.size(); j = i++)
      if ((v[i].y > p.y) != (v[j].y > p.y) && p.x < (v[j].x - v[i].x) * (p.y - v[i].y) / (v[j].y - v[i].y) + v[i].x)
        in = !in;
  }
  return in;
}

double to_boundary(const std::vector<Polygon>& rings, Vec2 p) {
  double best = 1e18;
  for (const Polygon& ring : rings)
    for (std::size_t i = 0, n = ring.points.size(); i < n; ++i)
      best = std::min(best, distance(p, Segment{ring.points[i], ring.points[(i + 1) % n]}));
  return best;
}

struct Tally {
  int moves = 0, inside_moves = 0, legal = 0;
  int false_promises = 0;      // inside reach, refused
  double worst_promise = 0;    // how deep inside the worst of them lay
  std::string first_promise;   // the first one, with the check's reason
  int narrow = 0;              // legal beyond the bound, through a gap within a cell of the narrowest passable
  int missed = 0;              // legal, some stand outside reach
  std::string worst_missed_move;
  double worst_missed = 0;     // cm outside
  double worst_missed_ratio = 0;  // cm outside / miss_bound
  void print(const char* what) const {
    std::printf("[reach vs check] %s: %d moves, %d inside reach, %d legal; %d inside but refused (worst %.3f cm "
                "inside); %d legal outside (worst %.3f cm, %.0f%% of the bound); %d legal beyond the bound through a gap "
                "within a cell of the narrowest passable\n",
                what, moves, inside_moves, legal, false_promises, worst_promise, missed, worst_missed,
                100 * worst_missed_ratio, narrow);
  }
};

// The least distance from any stand's planned centre path to another unit's
// stand or to terrain the mover may not enter.
double narrowest(const Battlefield& bf, const Unit& u, const MoveAnswer& ans) {
  double best = 1e18;
  for (const StandRoute& r : ans.routes)
    for (std::size_t k = 0; k + 1 < r.poses.size(); ++k) {
      Segment leg{r.poses[k].position, r.poses[k + 1].position};
      for (const Unit& o : bf.units)
        if (o.id != u.id)
          for (std::size_t i = 0; i < o.stands.size(); ++i) best = std::min(best, distance(leg, o.footprint(i)));
      for (const TerrainFeature& f : bf.terrain)
        if (!may_enter(u.type, f.kind, Settings{}))
          for (const Polygon& p : f.pieces) best = std::min(best, distance(leg, p));
    }
  return best;
}

// `moves` whole-unit moves of each unit in `units`, translations when
// max_turn is 0, otherwise turned by up to max_turn degrees about the
// formation's centre first.
void probe(const Battlefield& bf, const Settings& settings, const std::vector<std::string>& units, int moves,
           double max_turn, Rng& rng, Tally& t) {
  MoveIndex index(bf);
  MoveScratch scratch;
  for (const std::string& id : units) {
    const Unit& u = *bf.find_unit(id);
    if (u.stands.empty()) continue;
    Vec2 centre{0, 0};
    for (const Stand& s : u.stands) centre += s.pose.position / static_cast<double>(u.stands.size());
    bool one_facing = true;
    for (const Stand& st : u.stands) one_facing = one_facing && st.pose.facing_deg == u.stands[0].pose.facing_deg;
    if (max_turn > 0 && !one_facing) continue;  // reach takes one end facing for all stands
    std::optional<ReachAnswer> kept;  // the reach keeping the facing, for translations
    for (int k = 0; k < moves; ++k) {
      const double turn = max_turn > 0 ? round3(uniform(rng, -max_turn, max_turn)) : 0.0;
      const double facing = u.stands[0].pose.facing_deg + turn;
      ReachRequest rq{id, ReachKind::Ordered, std::nullopt, 0.5, std::nullopt};
      if (max_turn > 0) rq.facing = facing;
      ReachAnswer fresh;
      if (max_turn > 0) fresh = reach(bf, rq, settings);
      else if (!kept) kept = reach(bf, rq, settings);
      const ReachAnswer& a = max_turn > 0 ? fresh : *kept;
      if (a.boundary.empty()) continue;
      // The stands turned about the centre, then moved so that stand `s`
      // ends at `target`: near the boundary half the time, anywhere in reach
      // (and a little beyond) otherwise.
      // Compass facings turn clockwise: the positions turn with them.
      const double c = std::cos(deg_to_rad(-turn)), sn = std::sin(deg_to_rad(-turn));
      std::vector<Vec2> turned;
      for (const Stand& st : u.stands) {
        Vec2 r = st.pose.position - centre;
        turned.push_back(centre + Vec2{c * r.x - sn * r.y, sn * r.x + c * r.y});
      }
      const std::size_t s = rng.below(u.stands.size());
      Vec2 target;
      if (k % 2 == 0) {
        const Polygon& ring = a.boundary[rng.below(a.boundary.size())];
        const double ang = uniform(rng, 0, 2 * kPi), len = uniform(rng, 0, 2);
        target = ring.points[rng.below(ring.points.size())] + Vec2{std::cos(ang), std::sin(ang)} * len;
      } else {
        const double ang = uniform(rng, 0, 2 * kPi), len = uniform(rng, 0, a.allowance + 2);
        target = u.stands[s].pose.position + Vec2{std::cos(ang), std::sin(ang)} * len;
      }
      const Vec2 shift = target - turned[s];
      MoveRequest req;
      req.mover = id;
      req.kind = MoveKind::Ordered;
      std::vector<Vec2> ends;
      for (std::size_t i = 0; i < u.stands.size(); ++i) {
        StandPlan p;
        p.stand = static_cast<int>(i);
        p.final_pose = Pose{{round3(turned[i].x + shift.x), round3(turned[i].y + shift.y)}, round3(facing)};
        ends.push_back(p.final_pose.position);
        req.stands.push_back(p);
      }
      const MoveAnswer ans = check_move(bf, index, req, settings, scratch, CheckDepth::Legality);
      const bool legal = ans.verdict.legal() && !ans.leaves_table;
      bool all_in = true;
      double depth = 1e18, outside = 0;
      for (std::size_t i = 0; i < ends.size(); ++i) {
        const std::vector<Polygon>& own = a.stand_boundaries[i];
        if (inside(own, ends[i])) {
          depth = std::min(depth, to_boundary(own, ends[i]));
        } else {
          all_in = false;
          outside = std::max(outside, own.empty() ? 1e9 : to_boundary(own, ends[i]));
        }
      }
      ++t.moves;
      t.inside_moves += all_in;
      t.legal += legal;
      if (all_in && !legal) {
        ++t.false_promises;
        t.worst_promise = std::max(t.worst_promise, depth);
        if (t.first_promise.empty()) {
          const MoveAnswer why = check_move(bf, index, req, settings);
          t.first_promise = id + ": " + (why.verdict.violations.empty() ? std::string("?") : why.verdict.violations[0].reason);
        }
      }
      if (legal && !all_in && outside > a.miss_bound() && narrowest(bf, u, ans) < a.clearance + a.cell) {
        // The grid may have no sample in a gap less than a cell wider than
        // the disc needs (reach.hpp): the one exception to the bound.
        ++t.narrow;
      } else if (legal && !all_in) {
        ++t.missed;
        t.worst_missed = std::max(t.worst_missed, outside);
        if (outside / a.miss_bound() > t.worst_missed_ratio) {
          t.worst_missed_ratio = outside / a.miss_bound();
          t.worst_missed_move = id + " turned " + std::to_string(turn) + ", stand " + std::to_string(s) + " to (" +
                                std::to_string(ends[s].x) + ", " + std::to_string(ends[s].y) + ")";
        }
      }
    }
  }
}

std::vector<std::string> unit_ids(const Battlefield& bf, std::size_t most = 1000) {
  std::vector<std::string> out;
  for (const Unit& u : bf.units)
    if (out.size() < most && u.type != TroopType::Flyer) out.push_back(u.id);
  return out;
}

void expect_agreement(const Tally& t) {
  EXPECT_EQ(t.false_promises, 0) << "worst " << t.worst_promise << " cm inside reach; first: " << t.first_promise;
  EXPECT_LE(t.worst_missed_ratio, 1.0) << "a legal move ended " << t.worst_missed << " cm outside reach: "
                                       << t.worst_missed_move;
  EXPECT_GT(t.inside_moves, t.moves / 4);  // the probe really tests promises
  EXPECT_GT(t.legal, t.inside_moves / 2);
}

TEST(ReachAgreesWithCheck, BundledDefaultBattleTranslations) {
  BattlefieldFile f = load_battlefield_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/default.json");
  Rng rng(16001);
  Tally t;
  probe(f.battlefield, f.settings, unit_ids(f.battlefield), 100, 0, rng, t);
  t.print("default battle, translations");
  expect_agreement(t);
}

TEST(ReachAgreesWithCheck, BundledDefaultBattleSmallTurns) {
  BattlefieldFile f = load_battlefield_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/default.json");
  Rng rng(16002);
  Tally t;
  probe(f.battlefield, f.settings, unit_ids(f.battlefield), 40, 5, rng, t);
  t.print("default battle, turns up to 5 degrees");
  expect_agreement(t);
}

TEST(ReachAgreesWithCheck, RandomFields) {
  Tally t;
  for (std::uint64_t seed : {7u, 8u, 9u}) {
    Battlefield bf = bench::make_field(60, 20, seed);
    Rng rng(seed * 31 + 1);
    probe(bf, Settings{}, unit_ids(bf, 12), 40, 0, rng, t);
    probe(bf, Settings{}, unit_ids(bf, 6), 15, 5, rng, t);
  }
  t.print("random fields");
  expect_agreement(t);
}

}  // namespace
}  // namespace referee::warmaster
