// Reach and the move check agree, for every unit of every bundled Warmaster
// battle and on random fields, both ways:
// - no false promises: a whole-unit move whose stands each end inside their
//   own reach (ReachAnswer::stand_boundaries) is accepted by the check;
// - no legal move beyond the bound: a move the check accepts ends each
//   stand within ReachAnswer::miss_bound of its own area.
// The moves are what a player dragging a unit on a board sends: translations,
// small turns and any turn of the whole formation about its centre, half of
// them ending near the reach boundary, coordinates rounded to 0.001 cm; and
// along straight lines out of the formation, the farthest legal move (found
// by bisection), where a miss is largest. A unit
// whose stands stand apart (the pitched battle's cavalry, 2 cm between
// stands) cannot move as it stands (its stands must touch at the end), so it
// closes up into a line as it moves, as a player would move it.
//
// And the board's case: moves that turn the unit by any amount, against the
// reach that keeps its facing (what the board shades), within
// miss_bound_any_facing.
//
// reach.hpp names what the promise leaves out, and those moves are counted
// apart, not passed over: a move refused only because the unit's stands are
// in each other's way (each stand's own move, alone on the table, is
// accepted), and a legal end beyond the bound in a thin place (a way through a
// gap, or an end between things, less than a cell wider than the stand needs).
//
// REFEREE_REACH_PROBES=k probes k times as many moves (the default keeps the
// sanitizer run short).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "../../bench/warmaster_field.hpp"
#include "referee/core/dice.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/movement/reach.hpp"
#include "referee/warmaster/movement/transit_kernels.hpp"
#include "referee/warmaster/model/troops.hpp"

namespace referee::warmaster {
namespace {

using bench::uniform;

double round3(double v) { return std::round(v * 1000) / 1000; }

int probes(int n) {
  const char* k = std::getenv("REFEREE_REACH_PROBES");
  return k ? n * std::max(1, std::atoi(k)) : n;
}

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
  int empty_areas = 0;         // reach answers with nothing shaded
  int false_promises = 0;      // inside reach, refused
  double worst_promise = 0;    // how deep inside the worst of them lay
  std::string first_promise;   // the first one, with the check's reason
  int in_the_way = 0;          // inside reach, refused only for the unit's own stands in each other's way
  int thin = 0;                // legal beyond the bound in a thin place
  std::string first_thin;      // the first of them
  int missed = 0;              // legal, some stand outside reach
  std::string worst_missed_move;
  double worst_missed = 0;     // cm outside
  double worst_missed_ratio = 0;  // cm outside / miss_bound
  void add(const Tally& o) {
    moves += o.moves;
    inside_moves += o.inside_moves;
    legal += o.legal;
    false_promises += o.false_promises;
    if (o.worst_promise > worst_promise || first_promise.empty()) {
      worst_promise = std::max(worst_promise, o.worst_promise);
      if (first_promise.empty()) first_promise = o.first_promise;
    }
    in_the_way += o.in_the_way;
    thin += o.thin;
    if (first_thin.empty()) first_thin = o.first_thin;
    missed += o.missed;
    worst_missed = std::max(worst_missed, o.worst_missed);
    if (o.worst_missed_ratio > worst_missed_ratio) {
      worst_missed_ratio = o.worst_missed_ratio;
      worst_missed_move = o.worst_missed_move;
    }
  }
  // One unit's line: the worst legal end outside reach, and the moves the
  // promise leaves out when there are any.
  void print_unit(const std::string& what) const {
    std::printf("[reach vs check] %s: %d moves, %d inside, %d legal; worst legal end %.3f cm outside (%.0f%% of the "
                "bound%s%s)%s%s%s\n",
                what.c_str(), moves, inside_moves, legal, worst_missed, 100 * worst_missed_ratio,
                worst_missed_move.empty() ? "" : ": ", worst_missed_move.c_str(),
                false_promises ? "; FALSE PROMISES" : "", in_the_way ? "; stands in each other's way" : "",
                thin ? "; legal beyond the bound in a thin place" : "");
  }
  void print(const std::string& what) const {
    std::printf("[reach vs check] %s: %d moves, %d inside reach, %d legal; %d inside but refused (worst %.3f cm "
                "inside), %d refused for the unit's own stands; %d legal outside (worst %.3f cm, %.0f%% of the "
                "bound), %d legal beyond the bound in a thin place%s%s\n",
                what.c_str(), moves, inside_moves, legal, false_promises, worst_promise, in_the_way, missed,
                worst_missed, 100 * worst_missed_ratio, thin, first_thin.empty() ? "" : ", first: ", first_thin.c_str());
  }
};

// What a stand of `u` may not overlap: other units' stands, terrain it may
// not enter, and the table's four edges (as slabs just outside it).
std::vector<Polygon> obstacles(const Battlefield& bf, const Unit& u) {
  std::vector<Polygon> out;
  for (const Unit& o : bf.units)
    if (o.id != u.id)
      for (std::size_t i = 0; i < o.stands.size(); ++i) out.push_back(to_polygon(o.footprint(i)));
  for (const TerrainFeature& f : bf.terrain)
    if (!may_enter(u.type, f.kind, Settings{}))
      for (const Polygon& p : f.pieces) out.push_back(p);
  const double w = bf.width, h = bf.height;
  for (const Aabb& b : {Aabb{{-1, -1}, {0, h + 1}}, Aabb{{w, -1}, {w + 1, h + 1}}, Aabb{{-1, -1}, {w + 1, 0}},
                        Aabb{{-1, h}, {w + 1, h + 1}}})
    out.push_back(Polygon{{b.min, {b.max.x, b.min.y}, b.max, {b.min.x, b.max.y}}});
  return out;
}

// A thin place (reach.hpp: the grid may have no sample in it): some stand's
// way passes between two obstacles, on either side of it and each less than
// `clearance + cell` from it (a gap less than a cell wider than the stand
// needs), or the stand ends between two obstacles, on opposite sides of its
// centre and each less than `cell` from its footprint.
bool thin_place(const std::vector<Polygon>& obs, const Unit& u, const MoveAnswer& ans, const Pose& end,
                double clearance, double cell) {
  for (const StandRoute& r : ans.routes)
    for (std::size_t k = 0; k + 1 < r.poses.size(); ++k) {
      const Vec2 a = r.poses[k].position, b = r.poses[k + 1].position;
      if (a == b) continue;
      const Polygon leg{{a, b}};
      bool left = false, right = false;
      for (const Polygon& o : obs) {
        const ClosestPoints cp = closest_points(leg, o);
        if (cp.distance >= clearance + cell) continue;
        (cross(b - a, cp.on_b - a) > 0 ? left : right) = true;
      }
      if (left && right) return true;
    }
  const Polygon fp = to_polygon(u.footprint_at(end));
  std::vector<Vec2> sides;
  for (const Polygon& o : obs) {
    const ClosestPoints cp = closest_points(fp, o);
    if (cp.distance >= cell) continue;
    const Vec2 side = cp.on_b - end.position;
    for (Vec2 other : sides)
      if (dot(side, other) < 0) return true;
    sides.push_back(side);
  }
  return false;
}

// Each stand's own move, with the rest of its unit off the table, at the same
// allowance (a dice move: the formation plays no part), is accepted.
bool each_alone_accepted(const Battlefield& bf, const Unit& u, const std::vector<Pose>& ends, double allowance,
                         const Settings& settings) {
  for (std::size_t i = 0; i < ends.size(); ++i) {
    Battlefield alone = bf;
    alone.find_unit(u.id)->stands = {u.stands[i]};
    MoveRequest req;
    req.mover = u.id;
    req.kind = MoveKind::Dice;
    req.dice_distance = allowance;
    StandPlan p;
    p.final_pose = ends[i];
    req.stands = {p};
    const MoveAnswer a = check_move(alone, req, settings, CheckDepth::Legality);
    if (!a.verdict.legal() || a.leaves_table) return false;
  }
  return true;
}

// The stands' places about the unit's centre as it moves: where they stand
// when each touches another, otherwise closed up side by side in a line
// across the first stand's facing, in their order along it.
std::vector<Vec2> formed_up(const Unit& u, Vec2 centre, const Settings& settings) {
  std::vector<Vec2> rel;
  for (const Stand& s : u.stands) rel.push_back(s.pose.position - centre);
  bool touching = true;
  for (std::size_t i = 0; i < u.stands.size() && u.stands.size() > 1; ++i) {
    bool any = false;
    for (std::size_t j = 0; j < u.stands.size() && !any; ++j)
      any = i != j && distance(u.footprint(i), u.footprint(j)) <= settings.contact_tolerance;
    touching = touching && any;
  }
  if (touching) return rel;
  const Vec2 right = Rot::from_degrees(u.stands[0].pose.facing_deg).right();
  std::vector<std::size_t> order(u.stands.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return dot(rel[a], right) < dot(rel[b], right); });
  const double middle = (static_cast<double>(order.size()) - 1) / 2;
  for (std::size_t k = 0; k < order.size(); ++k) rel[order[k]] = right * (u.width * (static_cast<double>(k) - middle));
  return rel;
}

// A unit moved as a whole: its stands turned about its centre (compass
// facings turn clockwise, and the positions with them), then shifted.
struct Formation {
  const Unit& u;
  Vec2 centre{0, 0};
  std::vector<Vec2> rel;
  Formation(const Unit& unit, const Settings& settings) : u(unit) {
    for (const Stand& s : u.stands) centre += s.pose.position / static_cast<double>(u.stands.size());
    rel = formed_up(u, centre, settings);
  }
  std::vector<Vec2> turned(double turn) const {
    const double c = std::cos(deg_to_rad(-turn)), sn = std::sin(deg_to_rad(-turn));
    std::vector<Vec2> out;
    for (Vec2 r : rel) out.push_back(centre + Vec2{c * r.x - sn * r.y, sn * r.x + c * r.y});
    return out;
  }
  std::vector<Pose> ends(double turn, double facing, Vec2 shift) const {
    std::vector<Pose> out;
    for (Vec2 p : turned(turn)) out.push_back(Pose{{round3(p.x + shift.x), round3(p.y + shift.y)}, facing});
    return out;
  }
};

// Checks the move of the unit's stands to `ends` against the reach answer
// `a` (asked with those ends' facing), into `t`. Returns whether it is legal.
// `bound` is the answer's miss bound for these ends: miss_bound() facing as
// it says, miss_bound_any_facing() at another facing.
bool judge(const Battlefield& bf, const MoveIndex& index, const Settings& settings, const Unit& u,
           const ReachAnswer& a, const std::vector<Pose>& ends, double turn, MoveScratch& scratch, Tally& t,
           std::optional<double> bound = std::nullopt) {
  const double miss_bound = bound ? *bound : a.miss_bound();
  MoveRequest req;
  req.mover = u.id;
  req.kind = MoveKind::Ordered;
  for (std::size_t i = 0; i < ends.size(); ++i) {
    StandPlan p;
    p.stand = StandIndex(i);
    p.final_pose = ends[i];
    req.stands.push_back(p);
  }
  const MoveAnswer ans = check_move(bf, index, req, settings, scratch, CheckDepth::Legality);
  const bool legal = ans.verdict.legal() && !ans.leaves_table;
  bool all_in = true;
  double depth = 1e18, outside = 0;
  std::size_t worst = 0;
  for (std::size_t i = 0; i < ends.size(); ++i) {
    const std::vector<Polygon>& own = a.stand_boundaries[i];
    if (inside(own, ends[i].position)) {
      depth = std::min(depth, to_boundary(own, ends[i].position));
    } else {
      all_in = false;
      const double o = own.empty() ? 1e9 : to_boundary(own, ends[i].position);
      if (o > outside) {
        outside = o;
        worst = i;
      }
    }
  }
  ++t.moves;
  t.inside_moves += all_in;
  t.legal += legal;
  if (all_in && !legal) {
    if (u.stands.size() > 1 && each_alone_accepted(bf, u, ends, a.allowance, settings)) {
      ++t.in_the_way;
    } else {
      ++t.false_promises;
      t.worst_promise = std::max(t.worst_promise, depth);
      if (t.first_promise.empty()) {
        const MoveAnswer why = check_move(bf, index, req, settings);
        t.first_promise = u.id + ": " + (why.verdict.violations.empty() ? std::string("?") : why.verdict.violations[0].reason);
      }
    }
  }
  if (!legal || all_in) return legal;
  const auto where = [&] {
    return u.id + " turned " + std::to_string(turn) + ", stand " + std::to_string(worst) + " to (" +
           std::to_string(ends[worst].position.x) + ", " + std::to_string(ends[worst].position.y) + "), " +
           (a.stand_boundaries[worst].empty() ? std::string("its area empty") : std::to_string(outside) + " cm outside");
  };
  if (outside > miss_bound && thin_place(obstacles(bf, u), u, ans, ends[worst], a.clearance, a.cell)) {
    ++t.thin;
    if (t.first_thin.empty()) t.first_thin = where();
    return legal;
  }
  ++t.missed;
  t.worst_missed = std::max(t.worst_missed, outside);
  if (outside / miss_bound > t.worst_missed_ratio) {
    t.worst_missed_ratio = outside / miss_bound;
    t.worst_missed_move = where();
  }
  return legal;
}

bool one_facing(const Unit& u) {
  for (const Stand& st : u.stands)
    if (st.pose.facing_deg != u.stands[0].pose.facing_deg) return false;
  return true;
}

// A turn of up to max_turn degrees (none when 0), its end facing, and the
// reach answer for it.
struct Turned {
  double turn = 0, facing = 0;
  ReachAnswer a;
};
Turned turned_reach(const Battlefield& bf, const Settings& settings, const Unit& u, double max_turn, Rng& rng) {
  Turned out;
  out.facing = u.stands[0].pose.facing_deg;
  ReachRequest rq{u.id, ReachKind::Ordered, std::nullopt, 0.5, std::nullopt};
  if (max_turn > 0) {
    out.turn = round3(uniform(rng, -max_turn, max_turn));
    out.facing = round3(std::remainder(out.facing + out.turn, 360.0));
    rq.facing = out.facing;
  }
  out.a = reach(bf, rq, settings);
  return out;
}

// Where a probe sends stand `s`: near the boundary of `a` (`near`), or
// anywhere within the allowance and a little beyond.
Vec2 probe_target(const ReachAnswer& a, const Unit& u, std::size_t s, bool near, Rng& rng) {
  if (near && !a.boundary.empty()) {
    const Polygon& ring = a.boundary[rng.below(a.boundary.size())];
    const double ang = uniform(rng, 0, 2 * kPi), len = uniform(rng, 0, 2);
    return ring.points[rng.below(ring.points.size())] + Vec2{std::cos(ang), std::sin(ang)} * len;
  }
  const double ang = uniform(rng, 0, 2 * kPi), len = uniform(rng, 0, a.allowance + 2);
  return u.stands[s].pose.position + Vec2{std::cos(ang), std::sin(ang)} * len;
}

// Along one straight line: every move a centimetre apart out to the
// allowance and a little beyond, then the last legal one (`legal_at` its
// length) pushed out by bisection to a hundredth of a millimetre.
template <class LegalAt>
void push_out_farthest(double allowance, LegalAt legal_at) {
  double last = -1;
  for (double len = 0; len <= allowance + 2; len += 1)
    if (legal_at(len)) last = len;
  if (last < 0) return;
  double lo = last, hi = last + 1;
  while (hi - lo > 0.001) {
    const double mid = (lo + hi) / 2;
    (legal_at(mid) ? lo : hi) = mid;
  }
}

// `moves` whole-unit moves of unit `u`: translations when max_turn is 0,
// otherwise `facings` end facings each turned by up to max_turn degrees,
// moves / facings moves each. Stand `s` (at random) ends near the boundary
// half the time, anywhere in reach (and a little beyond) otherwise.
void probe(const Battlefield& bf, const MoveIndex& index, const Settings& settings, const Unit& u, int moves,
           double max_turn, int facings, Rng& rng, Tally& t) {
  if (u.stands.empty() || (max_turn > 0 && !one_facing(u))) return;  // reach takes one end facing for all stands
  MoveScratch scratch;
  const Formation form(u, settings);
  const int per_reach = max_turn > 0 ? std::max(1, moves / facings) : moves;
  Turned tr;
  for (int k = 0; k < moves; ++k) {
    if (k % per_reach == 0) {
      tr = turned_reach(bf, settings, u, max_turn, rng);
      t.empty_areas += tr.a.boundary.empty();
    }
    const ReachAnswer& a = tr.a;
    const std::vector<Vec2> turned = form.turned(tr.turn);
    const std::size_t s = rng.below(u.stands.size());
    const Vec2 target = probe_target(a, u, s, k % 2 == 0, rng);
    judge(bf, index, settings, u, a, form.ends(tr.turn, tr.facing, target - turned[s]), tr.turn, scratch, t);
  }
}

// The far edge of what the check allows, where misses are largest: along
// `rays` straight lines out of the (turned) formation, every whole-unit move
// a centimetre apart out to the allowance and a little beyond, then the last
// legal one pushed out by bisection to a hundredth of a millimetre.
void frontier(const Battlefield& bf, const MoveIndex& index, const Settings& settings, const Unit& u, int rays,
              double max_turn, Rng& rng, Tally& t) {
  if (u.stands.empty() || (max_turn > 0 && !one_facing(u))) return;
  MoveScratch scratch;
  const Formation form(u, settings);
  for (int k = 0; k < rays; ++k) {
    const Turned tr = turned_reach(bf, settings, u, max_turn, rng);
    t.empty_areas += tr.a.boundary.empty();
    const double ang = uniform(rng, 0, 2 * kPi);
    const Vec2 dir{std::cos(ang), std::sin(ang)};
    push_out_farthest(tr.a.allowance, [&](double len) {
      return judge(bf, index, settings, u, tr.a, form.ends(tr.turn, tr.facing, dir * len), tr.turn, scratch, t);
    });
  }
}

// The board's case: reach asked keeping each stand's facing (the shading a
// player sees), and moves that turn the unit by any amount as they drag it,
// `moves` of them half near the boundary, and along `rays` straight lines
// the farthest legal one. A turned move is not promised (its turn costs
// what reach did not charge), so only its misses count, against
// miss_bound_any_facing().
void probe_any_facing(const Battlefield& bf, const MoveIndex& index, const Settings& settings, const Unit& u, double cell,
                      int moves, int rays, Rng& rng, Tally& t) {
  if (u.stands.empty() || !one_facing(u)) return;
  MoveScratch scratch;
  const Formation form(u, settings);
  const ReachAnswer a = reach(bf, ReachRequest{u.id, ReachKind::Ordered, std::nullopt, cell, std::nullopt}, settings);
  t.empty_areas += a.boundary.empty();
  const double bound = a.miss_bound_any_facing();
  auto turned_ends = [&](Vec2 shift_of_stand, std::size_t s, double turn) {
    const double facing = round3(std::remainder(u.stands[0].pose.facing_deg + turn, 360.0));
    return form.ends(turn, facing, shift_of_stand - form.turned(turn)[s]);
  };
  for (int k = 0; k < moves; ++k) {
    const double turn = round3(uniform(rng, -180, 180));
    const std::size_t s = rng.below(u.stands.size());
    const Vec2 target = probe_target(a, u, s, k % 2 == 0, rng);
    judge(bf, index, settings, u, a, turned_ends(target, s, turn), turn, scratch, t, bound);
  }
  for (int k = 0; k < rays; ++k) {
    const double turn = round3(uniform(rng, -180, 180));
    const double ang = uniform(rng, 0, 2 * kPi);
    const Vec2 dir{std::cos(ang), std::sin(ang)};
    push_out_farthest(a.allowance, [&](double len) {
      return judge(bf, index, settings, u, a, turned_ends(form.turned(turn)[0] + dir * len, 0, turn), turn, scratch, t,
                   bound);
    });
  }
}

void expect_agreement(const Tally& t) {
  EXPECT_EQ(t.false_promises, 0) << "worst " << t.worst_promise << " cm inside reach; first: " << t.first_promise;
  EXPECT_LE(t.worst_missed_ratio, 1.0) << "a legal move ended " << t.worst_missed << " cm outside reach: "
                                       << t.worst_missed_move;
  EXPECT_GT(t.inside_moves, t.moves / 4);  // the probe really tests promises
  EXPECT_GT(t.legal, t.inside_moves / 2);
}

// scenarios/warmaster/*.json but the move requests (X-move.json), by name.
std::vector<std::string> bundled_battles() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(fs::path(REFEREE_SOURCE_DIR) / "scenarios" / "warmaster")) {
    const std::string name = entry.path().filename().string();
    const std::string suffix = "-move.json";
    if (entry.path().extension() != ".json") continue;
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) continue;
    out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Every unit of every bundled battle, probed by `each` (moves of one unit);
// one line per unit. A unit whose reach is empty (the combat battle's
// halberdiers, shut in between their crossbowmen and the enemy) is still
// probed: any legal move of it counts against the bound.
template <class Each>
void every_bundled_unit(const char* what, Each each, bool promised = true) {
  Tally all;
  int battles = 0, units = 0;
  for (const std::string& path : bundled_battles()) {
    const BattlefieldFile f = load_battlefield_file(path);
    const MoveIndex index(f.battlefield);
    const std::string name = std::filesystem::path(path).filename().string();
    Rng rng(16001 + static_cast<std::uint64_t>(battles++));
    for (const Unit& u : f.battlefield.units) {
      if (u.type == TroopType::Flyer) continue;  // flyers end by other rules (no bundled battle has one)
      Tally t;
      each(f.battlefield, index, f.settings, u, rng, t);
      if (t.moves == 0) continue;
      ++units;
      // Every unit that can move is probed inside its area.
      EXPECT_TRUE(t.inside_moves > 0 || t.empty_areas > 0) << name << " " << u.id;
      t.print_unit(name + " " + u.id + ", " + what);
      all.add(t);
    }
  }
  all.print(std::string("every bundled battle, ") + what);
  if (promised) {
    expect_agreement(all);
  } else {
    EXPECT_LE(all.worst_missed_ratio, 1.0) << "a legal move ended " << all.worst_missed << " cm outside reach: "
                                           << all.worst_missed_move;
    EXPECT_GT(all.legal, all.moves / 4);
  }
  EXPECT_GE(battles, 9);
  EXPECT_GE(units, 70);
}

TEST(ReachAgreesWithCheck, EveryBundledUnitTranslated) {
  every_bundled_unit("translations", [](const Battlefield& bf, const MoveIndex& index, const Settings& s,
                                        const Unit& u, Rng& rng, Tally& t) {
    probe(bf, index, s, u, probes(100), 0, 1, rng, t);
    frontier(bf, index, s, u, probes(2), 0, rng, t);
  });
}

TEST(ReachAgreesWithCheck, EveryBundledUnitTurned) {
  every_bundled_unit("turns of up to 5 degrees and of any size", [](const Battlefield& bf, const MoveIndex& index,
                                                                     const Settings& s, const Unit& u, Rng& rng,
                                                                     Tally& t) {
    probe(bf, index, s, u, probes(12), 5, probes(3), rng, t);
    probe(bf, index, s, u, probes(24), 180, probes(6), rng, t);
    frontier(bf, index, s, u, probes(2), 180, rng, t);
  });
}

// The board shades reach keeping each stand's facing (cell 1 cm, and the
// finer default), and a player may turn the unit as he drags it: every such
// legal end lies within miss_bound_any_facing().
TEST(ReachAgreesWithCheck, EveryBundledUnitTurnedAgainstTheReachThatKeepsItsFacing) {
  for (double cell : {0.5, 1.0})
    every_bundled_unit(cell == 1.0 ? "any turn, against reach keeping the facing (cell 1 cm)"
                                   : "any turn, against reach keeping the facing (cell 0.5 cm)",
                       [cell](const Battlefield& bf, const MoveIndex& index, const Settings& s, const Unit& u, Rng& rng,
                              Tally& t) { probe_any_facing(bf, index, s, u, cell, probes(24), probes(3), rng, t); },
                       false);
}

// The combat battle's cannon (30, 48), facing the giant 4 cm ahead of it,
// turned 94.259 degrees ends 1.356 cm outside the reach that keeps its
// facing, beyond miss_bound (1.12 cm): its footprint, turned side-on, fits
// about 1 cm nearer the giant.
// miss_bound_any_facing adds the 1.236 cm (half-diagonal sqrt(5) less half
// the 2 cm depth) that a turned footprint can come nearer.
TEST(ReachAgreesWithCheck, ATurnedEndBesideAnEnemyIsWithinTheBoundForAnyFacing) {
  const BattlefieldFile f = load_battlefield_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/combat.json");
  const Battlefield& bf = f.battlefield;
  const MoveIndex index(bf);
  MoveScratch scratch;
  const Unit& u = *bf.find_unit("emp-cannon");
  const ReachAnswer a = reach(bf, ReachRequest{u.id, ReachKind::Ordered, std::nullopt, 0.5, std::nullopt}, f.settings);
  EXPECT_NEAR(a.other_facing_room, std::sqrt(5.0) - 1.0, 1e-12);
  EXPECT_NEAR(a.miss_bound_any_facing(), a.miss_bound() + std::sqrt(5.0) - 1.0, 1e-12);
  const Formation form(u, f.settings);
  const double turn = -94.259;
  const double facing = std::remainder(u.stands[0].pose.facing_deg + turn, 360.0);
  Tally t;
  EXPECT_TRUE(judge(bf, index, f.settings, u, a, form.ends(turn, facing, Vec2{30.227, 48.989} - form.turned(turn)[0]), turn,
                    scratch, t, a.miss_bound_any_facing()));
  EXPECT_GT(t.worst_missed, a.miss_bound());
  EXPECT_LE(t.worst_missed_ratio, 1.0);
  t.print_unit("combat.json emp-cannon, turned side-on to the giant");
}

// Legal moves on the default battle that reach used to leave well outside
// its area: a straight leg that turns costs less than a route's worst turn
// (the stone thrower turned 155 degrees: 1.56 cm outside, the boar boyz
// turned 137.5 degrees: 2.30 cm), and the grid's path error, pressed against
// the limit and the halberdiers' corner the knights go round (2.09 cm).
TEST(ReachAgreesWithCheck, LegalEndsTheGridMissed) {
  const BattlefieldFile f = load_battlefield_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/default.json");
  const Battlefield& bf = f.battlefield;
  const MoveIndex index(bf);
  MoveScratch scratch;
  struct Known {
    const char* unit;
    double turn;
    std::size_t stand;
    Vec2 end;
  };
  for (const Known& k : {Known{"orc-lobber", -155.223, 0, {63.141, 114.226}},
                         Known{"orc-boar-boyz", 137.514, 0, {62.423, 109.447}},
                         Known{"emp-knights", 0, 0, {67.392, 19.082}}}) {
    const Unit& u = *bf.find_unit(k.unit);
    const Formation form(u, f.settings);
    const double facing = std::remainder(u.stands[0].pose.facing_deg + k.turn, 360.0);
    ReachRequest rq{u.id, ReachKind::Ordered, std::nullopt, 0.5, std::nullopt};
    if (k.turn != 0) rq.facing = facing;
    const ReachAnswer a = reach(bf, rq, f.settings);
    Tally t;
    EXPECT_TRUE(judge(bf, index, f.settings, u, a, form.ends(k.turn, facing, k.end - form.turned(k.turn)[k.stand]), k.turn,
                      scratch, t))
        << k.unit;
    EXPECT_LE(t.worst_missed_ratio, 1.0) << k.unit << ": " << t.worst_missed << " cm outside, bound " << a.miss_bound();
    t.print_unit(std::string("default.json ") + k.unit + ", a known miss");
  }
}

TEST(ReachAgreesWithCheck, RandomFields) {
  Tally t;
  for (std::uint64_t seed : {7u, 8u, 9u}) {
    Battlefield bf = bench::make_field(60, 20, seed);
    const MoveIndex index(bf);
    Rng rng(seed * 31 + 1);
    int n = 0;
    for (const Unit& u : bf.units) {
      if (u.type == TroopType::Flyer || n++ >= 12) continue;
      probe(bf, index, Settings{}, u, probes(40), 0, 1, rng, t);
      frontier(bf, index, Settings{}, u, probes(1), 0, rng, t);
      if (n > 6) continue;
      probe(bf, index, Settings{}, u, probes(12), 5, probes(3), rng, t);
      probe(bf, index, Settings{}, u, probes(12), 180, probes(3), rng, t);
      frontier(bf, index, Settings{}, u, probes(1), 180, rng, t);
    }
  }
  t.print("random fields");
  expect_agreement(t);
}

}  // namespace
}  // namespace referee::warmaster
