// Moving Chargers: measuring how a charge lines up, and the lined-up
// placement (docs/rulings.md#warmaster-moving-chargers).
#include "referee/warmaster/movement/moving_chargers.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "referee/warmaster/model/rule_ids.hpp"
#include "referee/warmaster/model/troops.hpp"
#include "referee/warmaster/movement/formation_plans.hpp"

namespace referee::warmaster {

namespace {

// The least length of the enemy's edge a placed charger's front edge shares:
// 5 mm, so that a placement is edge to edge and not a sliver at the corner.
constexpr double kMinEdgeShare = 0.5;
// Offsets along the edge tried for the closest charger, either side of
// centre to centre.
constexpr double kOffsetStep = 0.5;
// Placements checked in full (check_move) before the planner gives up.
constexpr int kMaxChecks = 32;

constexpr std::array<const char*, 4> kEdgeNames{"front", "right flank", "rear", "left flank"};

struct Edge {
  Vec2 a, b;  // corners, in the footprint's order
  Vec2 n;     // outward normal
};

// A footprint's edges: front, right, rear, left (corners(): front-left,
// front-right, rear-right, rear-left).
std::array<Edge, 4> edges_of(const OrientedRect& r) {
  const std::array<Vec2, 4> c = r.corners();
  const Vec2 f = r.rot.forward(), rt = r.rot.right();
  return {Edge{c[0], c[1], f}, Edge{c[1], c[2], rt}, Edge{c[2], c[3], -f}, Edge{c[3], c[0], -rt}};
}

// How a front edge (corners fl, fr; the stand facing `fwd`) lies to `e`.
ChargeEdge lie_against(Vec2 fl, Vec2 fr, Vec2 fwd, const Edge& e, double tolerance) {
  ChargeEdge ce;
  const double ol = dot(fl - e.a, e.n), orr = dot(fr - e.a, e.n);
  ce.offset_cm = std::max(std::abs(ol), std::abs(orr));
  ce.angle_deg = rad_to_deg(std::acos(std::clamp(dot(fwd, -e.n), -1.0, 1.0)));
  const Vec2 t = normalized(e.b - e.a);
  const double len = distance(e.a, e.b);
  const double p0 = dot(fl - e.a, t), p1 = dot(fr - e.a, t);
  ce.overlap_cm = std::max(0.0, std::min(std::max(p0, p1), len) - std::max(std::min(p0, p1), 0.0));
  ce.flush = ce.offset_cm <= tolerance && ce.overlap_cm > tolerance && dot(fwd, -e.n) > 0;
  return ce;
}

bool better_lie(const ChargeEdge& a, const ChargeEdge& b) {
  if (a.flush != b.flush) return a.flush;
  if (std::abs(a.offset_cm - b.offset_cm) > 1e-9) return a.offset_cm < b.offset_cm;
  return a.angle_deg < b.angle_deg;
}

// The units (indices into bf.units) other than `self` with a stand whose
// box meets `box`: those the index has near it, or every unit without one.
std::vector<std::size_t> units_meeting(const Battlefield& bf, const Aabb& box, const std::string& self,
                                       const MoveIndex* index) {
  std::vector<int> candidates;
  if (index) index->units_near(box, candidates);
  else
    for (std::size_t k = 0; k < bf.units.size(); ++k) candidates.push_back(static_cast<int>(k));
  std::vector<std::size_t> out;
  for (int c : candidates) {
    const std::size_t k = static_cast<std::size_t>(c);
    const Unit& o = bf.units[k];
    if (o.id == self || o.stands.empty()) continue;
    bool meets = false;
    for (std::size_t s = 0; s < o.stands.size() && !meets; ++s) meets = o.footprint(s).bounds().overlaps(box);
    if (meets) out.push_back(k);
  }
  return out;
}

ChargeAlignment measure_among(const Battlefield& bf, const std::vector<std::size_t>& near, const Unit& charger,
                              const std::string& target, double tolerance) {
  ChargeAlignment out;
  for (std::size_t i = 0; i < charger.stands.size(); ++i) {
    const OrientedRect me = charger.footprint(i);
    const std::array<Vec2, 4> c = me.corners();
    std::optional<ChargeEdge> best;
    for (std::size_t k : near) {
      const Unit& e = bf.units[k];
      if (e.side == charger.side) continue;
      for (std::size_t j = 0; j < e.stands.size(); ++j) {
        const OrientedRect them = e.footprint(j);
        if (!within_distance(me, them, tolerance)) continue;
        const std::array<Edge, 4> es = edges_of(them);
        for (std::size_t k2 = 0; k2 < es.size(); ++k2) {
          ChargeEdge ce = lie_against(c[0], c[1], me.rot.forward(), es[k2], tolerance);
          ce.stand = static_cast<int>(i);
          ce.enemy = e.id;
          ce.enemy_stand = static_cast<int>(j);
          ce.enemy_edge = kEdgeNames[k2];
          // Flush first; then against the unit charged, whose figures are
          // the ones a refusal gives; then the better lie.
          const bool on_target = target.empty() || e.id == target;
          const bool best_on_target = best && (target.empty() || best->enemy == target);
          if (!best || (ce.flush && !best->flush) ||
              (ce.flush == best->flush &&
               ((on_target && !best_on_target) || (on_target == best_on_target && better_lie(ce, *best)))))
            best = ce;
        }
      }
    }
    if (!best) continue;
    out.flush_stands += best->flush;
    out.flush_with_target += best->flush && (target.empty() || best->enemy == target);
    out.touching.push_back(*best);
  }
  return out;
}

Aabb unit_box(const Unit& u) {
  Aabb box = u.footprint(0).bounds();
  for (std::size_t s = 1; s < u.stands.size(); ++s) box = box.merged(u.footprint(s).bounds());
  return box;
}

}  // namespace

ChargeAlignment measure_charge_alignment(const Battlefield& bf, const Unit& charger, const std::string& target,
                                         double tolerance, const MoveIndex* index) {
  if (charger.stands.empty()) return {};
  return measure_among(bf, units_meeting(bf, unit_box(charger).inflated(tolerance + 0.01), charger.id, index),
                       charger, target, tolerance);
}

void check_charge_alignment(const Battlefield& bf, const Unit& charger, const std::string& target,
                            const Settings& settings, Verdict& v, const MoveIndex* index) {
  const ChargeAlignment a = measure_charge_alignment(bf, charger, target, settings.contact_tolerance, index);
  if (a.flush_with_target > 0) return;
  const ChargeEdge* best = nullptr;
  for (const ChargeEdge& ce : a.touching)
    if ((target.empty() || ce.enemy == target) && (!best || ce.angle_deg < best->angle_deg - 1e-9 ||
                                                   (std::abs(ce.angle_deg - best->angle_deg) <= 1e-9 &&
                                                    ce.offset_cm < best->offset_cm)))
      best = &ce;
  if (!best) return;  // touches nothing charged: warmaster.command.charge_contact says so
  v.add(rule_id::combat_charge_alignment,
        fmt::format("unit {} charges {} but does not line up edge to edge: stand {}'s front edge lies at {:.1f}° to "
                    "the {} edge of {}'s stand {}, {:.2f} cm off its line at the further corner and sharing {:.2f} cm "
                    "of it; the closest charger must contact edge to edge (docs/rulings.md#warmaster-moving-chargers)",
                    charger.id, best->enemy, best->stand + 1, best->angle_deg, best->enemy_edge, best->enemy,
                    best->enemy_stand + 1, best->offset_cm, best->overlap_cm),
        {{"angle", best->angle_deg, "degrees"},
         {"offset", best->offset_cm, "cm"},
         {"edge shared", best->overlap_cm, "cm"},
         {"tolerance", settings.contact_tolerance, "cm"}});
}

namespace {

struct FirstPlacement {
  Pose pose;
  double edge_rank = 0;  // the move to the edge's centre: nearer edges first
  double offset = 0;     // from centre to centre
};

// Where the closest charger may go: on each edge of a target stand that it
// starts beyond (front, flank or rear by where it starts), facing the edge,
// centre to centre and then offset either way while it shares at least
// kMinEdgeShare of the edge; nearest edge first, then the smallest offset.
std::vector<FirstPlacement> first_placements(const Unit& charger, std::size_t s0, const Unit& target, double pace,
                                             Vec2 aim) {
  std::vector<FirstPlacement> out;
  const Vec2 from = charger.stands[s0].pose.position;
  for (std::size_t j = 0; j < target.stands.size(); ++j) {
    for (const Edge& e : edges_of(target.footprint(j))) {
      if (dot(from - e.a, e.n) <= 0) continue;
      const Vec2 t = normalized(e.b - e.a);
      const double len = distance(e.a, e.b);
      const Vec2 mid = (e.a + e.b) * 0.5 + e.n * (charger.depth / 2);
      const double facing = compass_of(-e.n);
      const double rank = distance(aim, mid);
      const double limit = (len + charger.width) / 2 - kMinEdgeShare;
      for (int step = 0; step * kOffsetStep <= limit; ++step)
        for (double sign : {1.0, -1.0}) {
          const double o = sign * step * kOffsetStep;
          const Pose p{mid + t * o, facing};
          if (distance(from, p.position) <= pace + kMeasureSlack) out.push_back({p, rank, std::abs(o)});
          if (step == 0) break;
        }
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const FirstPlacement& a, const FirstPlacement& b) {
    if (a.edge_rank != b.edge_rank) return a.edge_rank < b.edge_rank;
    return a.offset < b.offset;
  });
  return out;
}

// The slots of a formation m stands wide with the first stand p-th from the
// left: the line beside it, front edges flush, then rows behind, filled from
// the first stand outward. slot[0] is `first`.
std::vector<Pose> formation_slots(const Pose& first, const Unit& u, std::size_t n, int m, int p) {
  const Rot r = Rot::from_degrees(first.facing_deg);
  std::vector<int> line;
  for (int i = -p; i < m - p; ++i) line.push_back(i);
  std::stable_sort(line.begin(), line.end(), [](int a, int b) { return std::abs(a) < std::abs(b); });
  std::vector<Pose> out;
  for (int row = 0; out.size() < n; ++row)
    for (int i : line) {
      if (out.size() == n) break;
      out.push_back({first.position + r.right() * (u.width * i) - r.forward() * (u.depth * row), first.facing_deg});
    }
  return out;
}

// Which stand goes to which slot: the closest charger to slot 0, the others
// so that the longest move is shortest (every order tried for up to six
// stands, nearest free slot beyond). Returns the longest centre move and
// fills `to` (stand -> slot).
double assign_slots(const Unit& u, std::size_t s0, const std::vector<Pose>& slots, std::vector<int>& to) {
  const std::size_t n = u.stands.size();
  std::vector<StandIndex> others;
  for (StandIndex i : indices<StandIndex>(u.stands))
    if (i.slot() != s0) others.push_back(i);
  auto cost = [&](const std::vector<StandIndex>& perm, double& sum) {
    double worst = distance(u.stands[s0].pose.position, slots[0].position);
    sum = worst;
    for (std::size_t k = 0; k < perm.size(); ++k) {
      const double d = distance(u.stands[perm[k].slot()].pose.position, slots[k + 1].position);
      worst = std::max(worst, d);
      sum += d;
    }
    return worst;
  };
  std::vector<StandIndex> best = others;
  double best_worst = 0, best_sum = 0;
  if (others.size() <= 5) {
    std::vector<StandIndex> perm = others;
    bool first = true;
    do {
      double sum = 0;
      const double w = cost(perm, sum);
      if (first || w < best_worst - 1e-9 || (std::abs(w - best_worst) <= 1e-9 && sum < best_sum)) {
        best = perm, best_worst = w, best_sum = sum, first = false;
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
  } else {
    std::vector<bool> used(others.size(), false);
    best.clear();
    for (std::size_t k = 1; k < slots.size(); ++k) {
      std::size_t pick = 0;
      double pd = -1;
      for (std::size_t q = 0; q < others.size(); ++q) {
        if (used[q]) continue;
        const double d = distance(u.stands[others[q].slot()].pose.position, slots[k].position);
        if (pd < 0 || d < pd) pick = q, pd = d;
      }
      used[pick] = true;
      best.push_back(others[pick]);
    }
    best_worst = cost(best, best_sum);
  }
  to.assign(n, 0);
  to[s0] = 0;
  for (std::size_t k = 0; k < best.size(); ++k) to[best[k].slot()] = static_cast<int>(k + 1);
  return best_worst;
}

// Would a stand of `u` at `p` lie off the table or on another unit's stand?
bool slot_blocked(const Battlefield& bf, const std::vector<std::size_t>& near, const Unit& u, const Pose& p,
                  double tolerance) {
  const OrientedRect f = u.footprint_at(p);
  const Aabb b = f.bounds();
  if (b.min.x < 0 || b.min.y < 0 || b.max.x > bf.width || b.max.y > bf.height) return true;
  for (std::size_t k : near) {
    const Unit& o = bf.units[k];
    for (std::size_t s = 0; s < o.stands.size(); ++s)
      if (overlaps(f, o.footprint(s), tolerance)) return true;
  }
  return false;
}

struct Placement {
  std::vector<Pose> slots;
  std::vector<int> to;
  int flush = 0;
  int line = 0;
  double worst = 0;
};

MoveRequest request_for(const Unit& u, const Unit& target, const Placement& pl, std::size_t s0) {
  MoveRequest req;
  req.mover = u.id;
  req.kind = MoveKind::Charge;
  req.charge_target = target.id;
  for (std::size_t i = 0; i < u.stands.size(); ++i)
    req.stands.push_back({StandIndex(i), {}, pl.slots[static_cast<std::size_t>(pl.to[i])]});
  // The order the stands move in is the engine's: whichever order lets each
  // trace its path (check_move searches them).
  (void)s0;
  return req;
}

// The formations about one first placement, best first: the most stands in
// edge contact, then the widest line, then the shortest longest move.
std::vector<Placement> placements_about(const Battlefield& bf, const std::vector<std::size_t>& near, const Unit& u,
                                        std::size_t s0, const Unit& target, const Pose& first, double pace,
                                        double tolerance) {
  std::vector<Placement> out;
  const std::size_t n = u.stands.size();
  for (int m = static_cast<int>(n); m >= 1; --m)
    for (int p = 0; p < m; ++p) {
      Placement pl;
      pl.slots = formation_slots(first, u, n, m, p);
      bool blocked = false;
      for (std::size_t k = 1; k < pl.slots.size() && !blocked; ++k)
        blocked = slot_blocked(bf, near, u, pl.slots[k], tolerance);
      if (blocked) continue;
      pl.worst = assign_slots(u, s0, pl.slots, pl.to);
      if (pl.worst > pace + kMeasureSlack) continue;
      Unit after = u;
      for (std::size_t i = 0; i < n; ++i) after.stands[i].pose = pl.slots[static_cast<std::size_t>(pl.to[i])];
      const ChargeAlignment a = measure_among(bf, near, after, target.id, tolerance);
      if (a.flush_with_target == 0) continue;
      pl.flush = a.flush_stands;
      pl.line = m;
      out.push_back(std::move(pl));
    }
  std::stable_sort(out.begin(), out.end(), [](const Placement& a, const Placement& b) {
    if (a.flush != b.flush) return a.flush > b.flush;
    if (a.line != b.line) return a.line > b.line;
    return a.worst < b.worst;
  });
  return out;
}

}  // namespace

std::optional<MoveRequest> plan_lined_up_charge(const Battlefield& bf, const Unit& charger, const Unit& target,
                                                const Settings& settings, const MoveIndex* index,
                                                MoveScratch* scratch, const Unit* dragged) {
  if (charger.stands.empty() || target.stands.empty() || charger.side == target.side) return std::nullopt;
  const double tol = settings.contact_tolerance;
  // The closest charger: the stand nearest any stand of the target.
  std::size_t s0 = 0;
  double nearest = -1;
  for (std::size_t i = 0; i < charger.stands.size(); ++i)
    for (std::size_t j = 0; j < target.stands.size(); ++j) {
      const double d = distance(charger.footprint(i), target.footprint(j));
      if (nearest < 0 || d < nearest) s0 = i, nearest = d;
    }
  const double pace = full_pace(charger);
  const bool hint = dragged && dragged->stands.size() == charger.stands.size();
  const Vec2 aim = (hint ? *dragged : charger).stands[s0].pose.position;
  const std::vector<FirstPlacement> firsts = first_placements(charger, s0, target, pace, aim);
  if (firsts.empty()) return std::nullopt;
  const double span = pace + static_cast<double>(charger.stands.size()) * std::max(charger.width, charger.depth);
  std::optional<MoveIndex> own_index;
  if (!index) index = &own_index.emplace(bf);
  const std::vector<std::size_t> near = units_meeting(bf, unit_box(charger).inflated(span), charger.id, index);
  MoveScratch own_scratch;
  if (!scratch) scratch = &own_scratch;
  int checks = 0;
  for (const FirstPlacement& f : firsts) {
    if (slot_blocked(bf, near, charger, f.pose, tol)) continue;
    for (const Placement& pl : placements_about(bf, near, charger, s0, target, f.pose, pace, tol)) {
      if (++checks > kMaxChecks) return std::nullopt;
      MoveRequest req = request_for(charger, target, pl, s0);
      if (check_move(bf, *index, req, settings, *scratch, CheckDepth::Whether).verdict.legal()) return req;
    }
  }
  return std::nullopt;
}

}  // namespace referee::warmaster
