#include "referee/warmaster/command/initiative.hpp"
#include "referee/warmaster/model/rule_ids.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "referee/warmaster/movement/contact.hpp"
#include "referee/warmaster/movement/formation_plans.hpp"
#include "referee/warmaster/command/orders.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "referee/warmaster/movement/transit.hpp"
#include "referee/warmaster/model/troops.hpp"
#include "movement/stand_pairs.hpp"

namespace referee::warmaster {

namespace {
// initiative_candidates over `enemies` (indices into bf.units, ascending;
// all of them when null).
std::vector<InitiativeCandidate> candidates_among(const Battlefield& bf, const std::vector<int>* enemies, const Unit& u,
                                                  const Settings& settings, bool charge) {
  std::vector<InitiativeCandidate> out;
  if (u.stands.empty()) return out;
  const std::size_t n = enemies ? enemies->size() : bf.units.size();
  for (std::size_t k = 0; k < n; ++k) {
    const Unit& e = bf.units[enemies ? static_cast<std::size_t>((*enemies)[k]) : k];
    if (e.side == u.side || e.stands.empty()) continue;
    if (!units_may_touch(u, e, kInitiativeRange)) continue;
    const double d = unit_distance(u, e).distance;
    if (!within_20cm(d)) continue;
    InitiativeCandidate c;
    c.enemy = e.id;
    c.distance = d;
    // Charges need a line from a front edge even for units that see all
    // round; evades may use any free edge of such a unit.
    const SightAnswer s = line_of_sight(bf, u, e, settings, charge || !u.sees_all_round);
    c.visible = s.visible;
    c.blocked_by = s.blocked_by;
    c.fortified = e.fortified && (e.type == TroopType::Infantry || e.type == TroopType::Artillery);
    out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const InitiativeCandidate& a, const InitiativeCandidate& b) { return a.distance < b.distance; });
  return out;
}
}  // namespace

std::vector<InitiativeCandidate> initiative_candidates(const Battlefield& bf, const Unit& u, const Settings& settings,
                                                       bool charge) {
  return candidates_among(bf, nullptr, u, settings, charge);
}

std::vector<InitiativeCandidate> initiative_candidates(const Battlefield& bf, const MoveIndex& index, const Unit& u,
                                                       const Settings& settings, bool charge) {
  if (u.stands.empty()) return {};
  // units_may_touch: some stand centre of an enemy within both stands' radii
  // and the range of one of u's; that centre lies in the enemy's bounds.
  Aabb centres{u.stands.front().pose.position, u.stands.front().pose.position};
  for (const Stand& s : u.stands) centres = centres.merged({s.pose.position, s.pose.position});
  std::vector<int> near;
  index.units_near(centres.inflated(stand_circumradius(u) + index.max_stand_radius() + kInitiativeRange + 0.001), near);
  return candidates_among(bf, &near, u, settings, charge);
}

namespace {
// A stand of `from` slid along the closest-points vector until it touches
// `to`: the pose its nearest stand would need to be in contact.
struct ContactGoal {
  StandIndex stand;
  Pose start;
  Pose goal;
};
ContactGoal contact_goal(const Unit& from, const Unit& to) {
  ContactGoal g;
  const NearestStands n = nearest_stands(from, to);
  if (n.a.is_none()) return g;
  g.stand = n.a;
  g.start = from.stands[g.stand.slot()].pose;
  g.goal = g.start;
  g.goal.position += n.points.on_b - n.points.on_a;
  return g;
}

// The whole unit slid by `shift`, stand `lead` listed and moving first,
// the others after it in their own order.
MoveRequest slide_led_by(const Unit& u, StandIndex lead, Vec2 shift, MoveKind kind) {
  MoveRequest req = slide_move(u, shift, kind);
  const auto first = req.stands.begin();
  std::rotate(first, first + lead.value(), first + lead.value() + 1);
  for (const StandPlan& p : req.stands) req.order.push_back(p.stand);
  return req;
}

bool crosses_mutual_barrier(const Battlefield& bf, const Segment& line, const Unit& u, const Unit& e,
                            const Settings& settings) {
  for (const TerrainFeature& f : bf.terrain) {
    if (may_enter(u.type, f.kind, settings) || may_enter(e.type, f.kind, settings)) continue;
    if (!line.bounds().overlaps(f.bounds)) continue;
    for (const Polygon& p : f.pieces)
      if (intersects(line, p)) return true;
  }
  return false;
}

bool can_reach_within_pace(const Battlefield& bf, const Unit& from, const Unit& to, const Settings& settings,
                           TransitScratch* scratch) {
  const ContactGoal g = contact_goal(from, to);
  TransitOptions opt;
  opt.flying = from.type == TroopType::Flyer;
  opt.ignore_units = {to.id};
  TransitScene scene(bf, from, settings, opt, scratch);
  return scene.shortest_route(g.start, g.goal, full_pace(from)).has_value();
}
}  // namespace

bool cut_off_by_barrier(const Battlefield& bf, const Unit& u, const Unit& e, const Settings& settings,
                        MoveScratch* scratch) {
  if (u.stands.empty() || e.stands.empty()) return false;
  const ClosestPoints cp = unit_distance(u, e);
  if (!crosses_mutual_barrier(bf, Segment{cp.on_a, cp.on_b}, u, e, settings)) return false;
  TransitScratch* transit = scratch ? &scratch->transit : nullptr;
  return !can_reach_within_pace(bf, u, e, settings, transit) && !can_reach_within_pace(bf, e, u, settings, transit);
}

// Stand pairs in order; a pair replaces the best only when nearer by more
// than 1e-9, so among pairs as near as that the first is kept. A pair whose
// circumscribed discs are at least that much further than the best cannot
// replace it and is not measured.
EvadeLine evade_line(const Unit& evader, const Unit& enemy) {
  EvadeLine line;
  double best = 1e18;
  const StandRects re(evader), rn(enemy);
  const double reach = stand_circumradius(evader) + stand_circumradius(enemy) + kDiscSlack;
  for (std::size_t i = 0; i < re.size(); ++i)
    for (std::size_t j = 0; j < rn.size(); ++j) {
      const double bound = best - 1e-9 + reach;
      if (bound > 0 &&
          length_squared(evader.stands[i].pose.position - enemy.stands[j].pose.position) > bound * bound)
        continue;
      const ClosestPoints cp = closest_points(re[i], rn[j]);
      if (cp.distance < best - 1e-9) {
        best = cp.distance;
        line.stand = StandIndex(i);
        line.from = cp.on_a;
        line.direction = normalized(cp.on_a - cp.on_b);
        line.distance = cp.distance;
      }
    }
  return line;
}

namespace {
// An evade ends at least 5 cm from every enemy unit and every unit engaged
// in combat. `moved` is the evader where it ends; `index`, when given, is the
// MoveIndex of `bf`. A unit whose box is more than 5 cm from the evader's
// along x or y is further than 5 cm from it and is not measured.
bool evade_ends_clear(const Battlefield& bf, const Unit& moved, Verdict& v, const MoveIndex* index) {
  bool clear = true;
  const Aabb reach = stands_box(moved).inflated(kEvadeClearance + kDiscSlack);
  for (std::size_t k = 0; k < bf.units.size(); ++k) {
    const Unit& o = bf.units[k];
    if (o.stands.empty()) continue;
    if (o.side == moved.side && !o.engaged) continue;
    const std::optional<Aabb> box = index ? index->unit_box(k) : std::nullopt;
    if (!reach.overlaps(box ? *box : stands_box(o))) continue;
    if (o.id == moved.id) continue;
    if (!units_may_touch(moved, o, kEvadeClearance)) continue;
    const double d = unit_distance(moved, o).distance;
    if (to_hundredths_of_mm(d) >= 5000) continue;
    clear = false;
    v.add(warmaster::rule_id::initiative_evade_clearance,
           fmt::format("unit {} would end {} from {} unit {}: an evade ends at least {} from every enemy and every "
                       "engaged unit",
                       moved.id, format_compared(d, kEvadeClearance, "cm").value,
                       o.side == moved.side ? "engaged" : "enemy", o.id, format_compared(d, kEvadeClearance, "cm").limit),
           {{"distance", d, "cm"}, {"minimum", kEvadeClearance, "cm"}});
  }
  return clear;
}

// check_evade with the evade line already worked out (plan_evade's probes
// share one). `ends_clear` when evade_ends_refused has already found that the
// unit ends at least 5 cm from every enemy and engaged unit.
bool check_evade_along(const EvadeLine& line, const Battlefield& bf, const Unit& evader, const Unit& enemy,
                       MoveRequest& req, const std::vector<std::string>& burst_through, const Settings& settings,
                       Verdict& v, const MoveIndex* index, MoveScenes* scenes, bool ends_clear = false) {
  if (line.distance <= settings.contact_tolerance) {
    v.add(warmaster::rule_id::initiative_evade, fmt::format("unit {} is in contact with {} and cannot evade", evader.id, enemy.id));
    return false;
  }
  req.kind = MoveKind::Evade;
  req.mover = evader.id;
  // The nearest stand moves first, in a straight line directly away.
  const StandPlan* lead = nullptr;
  for (const StandPlan& p : req.stands)
    if (p.stand == line.stand) lead = &p;
  if (!lead) {
    v.add(warmaster::rule_id::initiative_evade_direction,
          fmt::format("stand {} is nearest the enemy and must move first, straight away from {}", line.stand.value(),
                      enemy.id));
    return false;
  }
  const Vec2 start = evader.stands[line.stand.slot()].pose.position;
  double along_prev = 0;
  bool straight = true;
  std::vector<Pose> path = lead->waypoints;
  path.push_back(lead->final_pose);
  for (const Pose& p : path) {
    const Vec2 d = p.position - start;
    const double along = dot(d, line.direction);
    const double off = std::fabs(cross(line.direction, d));
    if (off > settings.contact_tolerance || along < along_prev - 1e-9) straight = false;
    along_prev = along;
  }
  if (!straight)
    v.add(warmaster::rule_id::initiative_evade_direction,
          fmt::format("stand {} must move in a straight line directly away from {} (direction {:.1f} degrees)",
                      line.stand.value(), enemy.id, compass_of(line.direction)));
  if (along_prev < kEvadeMinimum - 1e-6)
    v.add(warmaster::rule_id::initiative_evade_distance,
          fmt::format("an evade moves at least {} (stand {} moves {})", format_compared(along_prev, kEvadeMinimum, "cm").limit,
                      line.stand.value(), format_compared(along_prev, kEvadeMinimum, "cm").value),
          {{"moved", along_prev, "cm"}, {"minimum", kEvadeMinimum, "cm"}});
  if (req.order.empty()) {
    req.order.push_back(line.stand);
    for (const StandPlan& p : req.stands)
      if (p.stand != line.stand) req.order.push_back(p.stand);
  } else if (req.order.front() != line.stand) {
    v.add(warmaster::rule_id::initiative_evade_order,
          fmt::format("stand {} is nearest the enemy and must move first", line.stand.value()));
  }

  // Burst through: the evader may pass through friendly unengaged units,
  // which are taken off the table for the path check and must be cleared.
  // Only then is the battlefield copied.
  std::optional<Battlefield> without_burst;
  if (!burst_through.empty()) without_burst = bf;
  std::vector<Unit> burst_units;
  for (const std::string& id : burst_through) {
    const Unit* b = bf.find_unit(id);
    if (!b) {
      v.add(warmaster::rule_id::command_unknown, fmt::format("no unit \"{}\"", id));
      continue;
    }
    if (b->side != evader.side || b->engaged || b->id == evader.id) {
      v.add(warmaster::rule_id::initiative_burst_through,
            fmt::format("unit {} can burst through friendly unengaged units only, not {}", evader.id, id));
      continue;
    }
    burst_units.push_back(*b);
    auto& units = without_burst->units;
    units.erase(std::remove_if(units.begin(), units.end(), [&](const Unit& x) { return x.id == id; }), units.end());
  }
  if (!v.legal()) return false;
  MoveScratch* scratch = scenes ? scenes->scratch() : nullptr;
  const MoveAnswer ans = without_burst && scratch ? check_move(*without_burst, MoveIndex(*without_burst), req, settings, *scratch)
                        : without_burst      ? check_move(*without_burst, req, settings)
                        : index && scenes ? check_move(bf, *index, req, settings, *scenes)
                        : index           ? check_move(bf, *index, req, settings)
                                          : check_move(bf, req, settings);
  for (const Ruling& r : ans.verdict.violations) v.add(r);
  // The engine plans round what blocks a straight line, but the nearest
  // stand may not go round: its line itself must be clear.
  for (const StandRoute& r : ans.routes)
    if (r.stand == line.stand && r.planned)
      v.add(warmaster::rule_id::initiative_evade_direction,
            fmt::format("stand {} must move in a straight line directly away from {}, and that line is blocked",
                        line.stand.value(), enemy.id));
  if (!v.legal()) return false;
  // Only the evader moves: the clearances are measured from it where it ends.
  const Unit moved_unit = unit_after(evader, req);
  const Unit* moved = &moved_unit;
  for (const Unit& b : burst_units)
    for (std::size_t i = 0; i < moved->stands.size(); ++i)
      for (std::size_t j = 0; j < b.stands.size(); ++j)
        if (overlaps(moved->footprint(i), b.footprint(j), settings.contact_tolerance)) {
          v.add(warmaster::rule_id::initiative_burst_through,
                fmt::format("unit {} must pass completely through {}: stand {} ends on it", evader.id, b.id, i));
          i = moved->stands.size() - 1;
          break;
        }
  if (!ends_clear) evade_ends_clear(bf, *moved, v, index);
  return v.legal();
}

// Sure to be refused for where the slide ends, as check_evade would find
// after its path checks: a moving stand ends overlapping a stand of another
// unit that stays on the table (check_move's warmaster.movement.overlap), or
// the unit ends within 5 cm of an enemy or engaged unit
// (warmaster.initiative.evade_clearance). Units burst through are off the
// table for the move.
// `index` is the MoveIndex of `bf`: only units whose box meets the final
// stands' box can overlap them.
bool evade_ends_refused(const Battlefield& bf, const MoveIndex& index, const Unit& evader, const MoveRequest& req,
                        const std::vector<std::string>& burst_through, const Settings& settings) {
  const Unit moved = unit_after(evader, req);
  std::vector<OrientedRect> finals;
  std::optional<Aabb> area;
  for (const StandPlan& p : req.stands) {
    finals.push_back(evader.footprint_at(p.final_pose));
    area = area ? area->merged(finals.back().bounds()) : finals.back().bounds();
  }
  if (!area) return false;
  std::vector<int> near;
  index.units_near(area->inflated(kDiscSlack), near);
  const double r = stand_circumradius(evader);
  for (int k : near) {
    const Unit& o = bf.units[static_cast<std::size_t>(k)];
    if (o.id == evader.id || o.stands.empty()) continue;
    if (std::find(burst_through.begin(), burst_through.end(), o.id) != burst_through.end()) continue;
    // Stands whose circumscribed discs do not meet cannot overlap.
    const double reach = r + stand_circumradius(o) + kDiscSlack;
    for (std::size_t s = 0; s < o.stands.size(); ++s) {
      const Vec2 c = o.stands[s].pose.position;
      bool near = false;
      for (const OrientedRect& f : finals) near = near || length_squared(f.center - c) < reach * reach;
      if (!near) continue;
      const OrientedRect rect = o.footprint(s);
      for (const OrientedRect& f : finals)
        if (overlaps(f, rect, settings.contact_tolerance)) return true;
    }
  }
  Verdict scratch;
  return !evade_ends_clear(bf, moved, scratch, &index);
}
}  // namespace

bool check_evade(const Battlefield& bf, const Unit& evader, const Unit& enemy, MoveRequest& req,
                 const std::vector<std::string>& burst_through, const Settings& settings, Verdict& v,
                 const MoveIndex* index, MoveScenes* scenes) {
  return check_evade_along(evade_line(evader, enemy), bf, evader, enemy, req, burst_through, settings, v, index,
                           scenes);
}

std::optional<MoveRequest> plan_evade(const Battlefield& bf, const Unit& evader, const Unit& enemy,
                                      const std::vector<std::string>& burst_through, const Settings& settings,
                                      const MoveIndex* index, MoveScratch* scratch) {
  // One index for every probe: they all check moves on the same battlefield.
  std::optional<MoveIndex> own_index;
  if (!index) index = &own_index.emplace(bf);
  // Full pace is tried first, so its scene covers every shorter slide.
  MoveScenes scenes(scratch);
  const EvadeLine line = evade_line(evader, enemy);
  if (line.distance <= settings.contact_tolerance) return std::nullopt;
  const double pace = full_pace(evader);
  // Probes after the first skip the movement check when where they end
  // already refuses them; the first always runs it, so that its scene (the
  // widest) is the one kept.
  bool first = true;
  auto attempt = [&](double t) -> std::optional<MoveRequest> {
    MoveRequest req = slide_led_by(evader, line.stand, line.direction * t, MoveKind::Evade);
    const bool screened = !first;
    if (screened && evade_ends_refused(bf, *index, evader, req, burst_through, settings)) return std::nullopt;
    first = false;
    Verdict v;
    if (check_evade_along(line, bf, evader, enemy, req, burst_through, settings, v, index, &scenes, screened))
      return req;
    return std::nullopt;
  };
  // Full pace first; otherwise halve the interval between the longest slide
  // known legal and the shortest known illegal, to 0.5 cm, starting from the
  // 1 cm minimum. Each probe is a full movement check (unless where it ends
  // already refuses it), so this keeps an evade to about seven checks instead
  // of forty. (A slide blocked part-way and
  // clear again further on is found only if full pace is clear.)
  if (auto full = attempt(pace)) return full;
  std::optional<MoveRequest> best = attempt(kEvadeMinimum);
  if (!best) return std::nullopt;
  double lo = kEvadeMinimum, hi = pace;
  while (hi - lo > 0.5 + 1e-9) {
    const double mid = lo + std::floor((hi - lo) / 2 / 0.5) * 0.5;
    const double t = mid > lo ? mid : lo + 0.5;
    if (auto r = attempt(t)) {
      best = std::move(r);
      lo = t;
    } else {
      hi = t;
    }
  }
  return best;
}

MoveRequest plan_straight_charge(const Unit& charger, const Unit& enemy) {
  const ContactGoal g = contact_goal(charger, enemy);
  MoveRequest req = slide_led_by(charger, g.stand, g.goal.position - g.start.position, MoveKind::Charge);
  req.charge_target = enemy.id;
  return req;
}

}  // namespace referee::warmaster
