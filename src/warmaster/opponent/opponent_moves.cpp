// The opponent's moves (opponent_parts.hpp): the enemies near a unit, the
// target it goes for, the charges it weighs (lined up, with the dice friends
// add) and the advance toward its target along the navigation field.
#include "opponent/opponent_parts.hpp"

namespace referee::warmaster::opponent_detail {

// The stands one behind another along the way, the lead `d` cm along it
// (formation_plans.hpp), when the way is long enough for the column.
std::optional<MoveRequest> column_at(const Unit& u, const std::vector<Vec2>& path, double d, MoveKind kind) {
  if (d < (static_cast<double>(u.stands.size()) - 1) * u.depth) return std::nullopt;
  return column_along(u, path, kind, d);
}

// A column that follows the way: the stand nearest the target (by the
// distance field in scratch.field) leads along the way from where it stands;
// each other stand, nearest first, goes through the places the stands ahead
// of it started from, then along the way, so that a column threads a ford or
// a bridge as a file of men would.
std::optional<MoveRequest> column_follow(const Battlefield& bf, const OpponentScratch& scratch, const Unit& u,
                                         double d, MoveKind kind, bool straight_tail) {
  const std::size_t n = u.stands.size();
  if (n == 0 || d < static_cast<double>(n - 1) * u.depth + 0.5) return std::nullopt;
  std::vector<std::size_t> order(n);
  for (std::size_t k = 0; k < n; ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return field_at(bf, scratch, u.stands[a].pose.position) < field_at(bf, scratch, u.stands[b].pose.position);
  });
  const std::vector<Vec2> raw = downhill(bf, scratch, u.stands[order[0]].pose.position, d + 2.0);
  // Every few cm is enough: a staircase of cells would only add turns.
  std::vector<Vec2> path{raw.front()};
  double since = 0;
  for (std::size_t k = 1; k < raw.size(); ++k) {
    since += distance(raw[k - 1], raw[k]);
    if (since >= 4.0 || k + 1 == raw.size()) {
      path.push_back(raw[k]);
      since = 0;
    }
  }
  if (path.size() < 2) return std::nullopt;
  MoveRequest req;
  req.mover = u.id;
  req.kind = kind;
  const auto [lead_end, lead_heading] = point_along(path, d);
  for (std::size_t k = 0; k < n; ++k) {
    const double t = d - static_cast<double>(k) * u.depth;
    auto [end, heading] = point_along(path, t);
    if (straight_tail) {
      // Touching front to back behind the lead, all facing its way: a column.
      heading = lead_heading;
      end = lead_end - lead_heading * ((u.depth + 0.01) * static_cast<double>(k));
    }
    if (length(heading) < 1e-9) return std::nullopt;
    std::vector<Vec2> via;
    for (std::size_t j = k; j-- > 0;) via.push_back(u.stands[order[j]].pose.position);
    double walked = 0;
    for (std::size_t j = 1; j < path.size(); ++j) {
      walked += distance(path[j - 1], path[j]);
      if (walked >= t - 0.5) break;
      via.push_back(path[j]);
    }
    StandPlan p;
    p.stand = StandIndex(order[k]);
    Vec2 from = u.stands[order[k]].pose.position;
    for (const Vec2& w : via) {
      if (distance(from, w) < 0.3) continue;
      p.waypoints.push_back(Pose{w, compass_of(w - from)});
      from = w;
    }
    p.final_pose = Pose{end, compass_of(heading)};
    req.stands.push_back(p);
    req.order.push_back(StandIndex(order[k]));
  }
  return req;
}

// Charges lining the charger's stands up on the edge of the target's nearest
// stand that faces it: centred on the edge, and from either end of it.
std::vector<MoveRequest> lined_up_charges(const Unit& u, const Unit& e) {
  std::vector<MoveRequest> out;
  if (u.stands.empty() || e.stands.empty()) return out;
  const Vec2 c = stands_centre(u);
  std::size_t best = 0;
  double bd = kFar;
  for (std::size_t k = 0; k < e.stands.size(); ++k) {
    const double d = distance(c, e.footprint(k));
    if (d < bd) bd = d, best = k;
  }
  const Pose& es = e.stands[best].pose;
  const Rot er = Rot::from_degrees(es.facing_deg);
  const Vec2 local = er.apply_inverse(c - es.position);
  Vec2 n, t;
  double half_n, edge;
  if (std::abs(local.y) / (e.depth / 2) >= std::abs(local.x) / (e.width / 2)) {
    n = local.y >= 0 ? er.forward() : -er.forward();
    half_n = e.depth / 2;
    t = er.right();
    edge = e.width;
  } else {
    n = local.x >= 0 ? er.right() : -er.right();
    half_n = e.width / 2;
    t = er.forward();
    edge = e.depth;
  }
  const double facing = compass_of(-n);
  const double k = static_cast<double>(u.stands.size());
  // Our stands in their order across the line, so that paths do not cross.
  std::vector<StandIndex> order = index_list<StandIndex>(u.stands);
  std::sort(order.begin(), order.end(), [&](StandIndex a, StandIndex b) {
    return dot(u.stands[a.slot()].pose.position, t) < dot(u.stands[b.slot()].pose.position, t);
  });
  const Vec2 mid = es.position + n * (half_n + u.depth / 2 + 0.01);
  const double span = u.width * k;
  for (double offset : {0.0, (span - edge) / 2, -(span - edge) / 2}) {
    MoveRequest req;
    req.mover = u.id;
    req.kind = MoveKind::Charge;
    req.charge_target = e.id;
    for (std::size_t i = 0; i < order.size(); ++i) {
      StandPlan p;
      p.stand = order[i];
      p.final_pose.position = mid + t * (offset + (static_cast<double>(i) - (k - 1) / 2) * u.width);
      p.final_pose.facing_deg = facing;
      req.stands.push_back(p);
    }
    // The stand nearest the enemy moves first.
    std::vector<StandIndex> first(order);
    std::sort(first.begin(), first.end(), [&](StandIndex a, StandIndex b) {
      return distance(u.stands[a.slot()].pose.position, es.position) <
             distance(u.stands[b.slot()].pose.position, es.position);
    });
    req.order = first;
    out.push_back(std::move(req));
    if (span <= edge) break;
  }
  return out;
}

// Units of side `side` on the table whose stands may lie within `d` cm of
// the box `near` (a stands_box), by index, ascending: the move index's boxes
// hold each unit's footprints, so no unit within d is left out, and the
// order is that of a pass over all units. Questions about what is near a
// unit read only what is near it, whatever the size of the battle.
std::vector<std::size_t> units_within(const Ctx& c, const Aabb& near, double d, int side) {
  std::vector<int> found;
  c.index.units_near(near.inflated(d + 1e-6), found);
  std::vector<std::size_t> out;
  for (int k : found) {
    const std::size_t i = static_cast<std::size_t>(k);
    if (c.bf.units[i].side == side && on_table(c.s, i)) out.push_back(i);
  }
  return out;
}
std::vector<std::size_t> enemies_within(const Ctx& c, const Unit& u, double d) {
  return units_within(c, stands_box(u), d, 1 - c.side);
}

// Enemies on the table, by index.
std::vector<std::size_t> enemies(const Ctx& c) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < c.bf.units.size(); ++i)
    if (c.bf.units[i].side != c.side && on_table(c.s, i)) out.push_back(i);
  return out;
}

// closest_enemy_distance (any enemy unit with stands), read through the
// move index in widening rings: an enemy within the ring's distance has its
// stands' box within it, so the nearest found there is the nearest of all.
double nearest_enemy(const Ctx& c, const Unit& u) {
  const Aabb box = stands_box(u);
  const double table = std::hypot(c.bf.width, c.bf.height);
  std::vector<int>& found = c.scratch.near;
  for (double ring = 30.0; ring <= table; ring *= 2) {
    found.clear();
    c.index.units_near(box.inflated(ring + 1e-6), found);
    double nearest = std::numeric_limits<double>::infinity();
    for (int k : found) {
      const Unit& e = c.bf.units[static_cast<std::size_t>(k)];
      if (e.side != u.side && !e.stands.empty()) nearest = std::min(nearest, unit_distance(u, e).distance);
    }
    if (nearest <= ring) return nearest;
  }
  return closest_enemy_distance(c.bf, u);
}

// The same, kept in the scratch for units of the state (OpponentScratch::Nearest).
double closest_enemy(const Ctx& c, const Unit& u) {
  const std::optional<std::size_t> i = c.index_of(u);
  if (u.stands.empty() || !i) return closest_enemy_distance(c.bf, u);
  OpponentScratch::Nearest& k = c.scratch.nearest[*i];
  if (!k.known) {
    k.distance = nearest_enemy(c, u);
    k.region = stands_box(u).inflated(std::min(k.distance, 1e6) + 0.01);
    k.known = true;
  }
  return k.distance;
}

// Is an enemy within the shooter's range? Kept in the scratch for units of
// the state (OpponentScratch::InRange): only units in the range's box are read.
bool enemy_in_range(const Ctx& c, const Unit& u) {
  if (!is_shooter(u)) return false;
  const double range = missile_range(u.missile);
  auto measure = [&] {
    for (std::size_t e : enemies_within(c, u, range))
      if (unit_distance(u, c.bf.units[e]).distance <= range) return true;
    return false;
  };
  const std::optional<std::size_t> i = c.index_of(u);
  if (u.stands.empty() || !i) return measure();
  OpponentScratch::InRange& k = c.scratch.in_range[*i];
  if (k.known < 0 || k.side != c.side) {
    k.known = measure() ? 1 : 0;
    k.side = c.side;
    k.region = stands_box(u).inflated(range + 0.01);
  }
  return k.known == 1;
}

// The enemy a unit goes for: near, and one it would beat. The score is the
// distance less 25 times the charge's value, which lies within
// charge_value_bound of 0, so only enemies within 50 times that of the
// nearest can score best: the search reads those, nearest first found by
// widening rings.
const Unit* choose_target(const Ctx& c, const Unit& u) {
  if (u.stands.empty()) return nullptr;
  const Aabb box = stands_box(u);
  const double table = std::hypot(c.bf.width, c.bf.height);
  double nearest = kFar;
  for (double ring = 30.0; nearest == kFar; ring *= 2) {
    for (std::size_t e : units_within(c, box, ring, 1 - c.side))
      nearest = std::min(nearest, unit_distance(u, c.bf.units[e]).distance);
    if (nearest > ring) nearest = kFar;  // a nearer one may lie beyond this ring
    if (ring > table && nearest == kFar) {
      // Every enemy is within the last ring: the nearest is its nearest.
      for (std::size_t e : enemies(c)) nearest = std::min(nearest, unit_distance(u, c.bf.units[e]).distance);
      break;
    }
  }
  if (nearest >= kFar) return nullptr;
  const double spread = keeps_range(u) ? 0.0 : 50.0 * c.charge_value_bound;
  const Unit* best = nullptr;
  double bs = kFar;
  for (std::size_t e : units_within(c, box, nearest + spread + 1.0, 1 - c.side)) {
    const Unit& en = c.bf.units[e];
    const double d = unit_distance(u, en).distance;
    double score = d;
    if (!keeps_range(u)) score -= 25.0 * c.value(u, en);
    if (score < bs) bs = score, best = &en;
  }
  return best;
}

// The odds a charge needs. Late in a battle that is not being won (no more
// enemy units lost than our own), a draw is no better than a loss, so the
// opponent takes fights it would otherwise refuse.
double charge_margin(const Ctx& c) {
  const int left = c.settings.turn_limit - c.s.turn();  // full turns after this one
  const bool winning = c.s.units_lost(1 - c.side) > c.s.units_lost(c.side);
  if (!winning && left < c.o.press_turns) return c.o.press_charge_margin;
  return c.o.charge_margin;
}

// Stands of `f` touching any stand of `e`.
int stands_touching(const Ctx& c, const Unit& f, const Unit& e) {
  const double touch = c.settings.contact_tolerance + 0.02;
  int k = 0;
  for (std::size_t i = 0; i < f.stands.size(); ++i)
    for (std::size_t j = 0; j < e.stands.size(); ++j)
      if (distance(f.footprint(i), e.footprint(j)) <= touch) {
        ++k;
        break;
      }
  return k;
}

// The dice friends of `u` will add against `en` in the same engagement: those
// already touching it (a charge made earlier this phase), and, by initiative,
// those that may still charge it by initiative because it is their closest
// visible enemy (each is expected to bring two stands into contact). Ganging
// up is how a weaker army wins fights: the combat result is the sum of hits.
int ally_dice(const Ctx& c, const Unit& u, const Unit& en, bool initiative) {
  const bool open = c.position(en) == Position::Open;
  int dice = 0;
  // Friends touching it, or within initiative range of it: the others add nothing.
  for (std::size_t i : units_within(c, stands_box(en), kInitiativeRange + 1.0, c.side)) {
    const Unit& f = c.bf.units[i];
    if (f.side != c.side || f.id == u.id || !on_table(c.s, i) || f.attacks <= 0 || keeps_range(f)) continue;
    const UnitStatus& st = c.s.units()[i];
    const int per = f.attacks - (f.confused ? 1 : 0) - (en.terrifying ? 1 : 0);
    if (const int k = stands_touching(c, f, en); k > 0) {
      dice += k * (per + (st.charged && open ? 1 : 0));
      continue;
    }
    if (!initiative || !st.near_enemy_at_start || st.used_initiative || st.moved || f.engaged || f.confused ||
        st.frozen)
      continue;
    for (const InitiativeCandidate& cand : c.candidates(i, true)) {
      if (!cand.visible) continue;
      if (cand.enemy == en.id) dice += std::min<int>(2, static_cast<int>(f.stands.size())) * (per + (open ? 1 : 0));
      break;
    }
  }
  return dice;
}

// The best favourable charge by `u` (ordered or by initiative), validated.
std::optional<Candidate> best_charge(const Ctx& c, const Unit& u, const Action& shell, bool initiative,
                                     const std::string& only_target) {
  if (keeps_range(u) || u.attacks <= 0) return std::nullopt;
  const double allowance = pace_of(u, MoveKind::Charge, c.settings);
  const double margin = charge_margin(c);
  struct Target {
    double value;
    const Unit* unit;
    int allies;  // ally_dice: worked out once, it asks each friend's initiative targets
  };
  std::vector<Target> targets;
  for (std::size_t e : enemies_within(c, u, allowance)) {
    const Unit& en = c.bf.units[e];
    if (!only_target.empty() && en.id != only_target) continue;
    if (unit_distance(u, en).distance > allowance) continue;
    const int allies = ally_dice(c, u, en, initiative);
    const double v = c.value(u, en, 0, 0, allies);
    if (v >= margin) targets.push_back({v, &en, allies});
  }
  std::sort(targets.begin(), targets.end(), [](const Target& a, const Target& b) { return a.value > b.value; });
  for (const auto& [whole, en, allies] : targets) {
    (void)whole;
    // The engine's lined-up placement first (docs/rulings.md#warmaster-moving-chargers),
    // then the opponent's own lines across the edge, which the move check
    // takes where they too line up.
    std::vector<MoveRequest> moves;
    if (std::optional<MoveRequest> planned = plan_lined_up_charge(c.bf, u, *en, c.settings, &c.index, &c.scratch.move))
      moves.push_back(std::move(*planned));
    for (MoveRequest& m : lined_up_charges(u, *en)) moves.push_back(std::move(m));
    // The odds of each move with the stands that will touch: a column
    // charging fights with its first stand only.
    std::vector<std::pair<double, std::size_t>> ranked;
    for (std::size_t k = 0; k < moves.size(); ++k) {
      const Unit after = unit_after(u, moves[k]);
      const int fa = stands_touching(c, after, *en);
      if (fa == 0) continue;
      const int fb = stands_touching(c, *en, after);
      const double mv = c.value(u, *en, fa, std::max(fb, 1), allies);
      if (mv >= margin) ranked.push_back({mv, k});
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [mv, k] : ranked) {
      const MoveRequest& m = moves[k];
      const double v = mv;
      Action a = shell;
      if (initiative) {
        a.charge = true;
        a.target = en->id;
      }
      a.moves = {m};
      if (c.legal(a))
        return Candidate{a, v, "charges " + en->id + " (odds favour it: P(win) - P(lose) " + std::to_string(v) + ")"};
    }
  }
  return std::nullopt;
}

// The distance from the unit to its target along the way, and the way.
struct Way {
  const Unit* target = nullptr;
  double distance = kFar;     // cm along the grid from the unit's centre
  std::vector<Vec2> path;
};

// How far a unit wants to go toward `target` this move.
double wanted_distance(const Ctx& c, const Unit& u, const Unit& target, double along_way) {
  if (is_shooter(u) && keeps_range(u)) {
    const double range = missile_range(u.missile);
    const double straight = unit_distance(u, target).distance;
    if (straight <= range) return 0;
    // Close to a little inside range; the way may be longer than the line.
    return std::max(0.0, along_way - (range - 3.0) - (along_way - straight));
  }
  return std::max(0.0, along_way - c.o.stop_short - u.depth);
}

// A move ending here leaves `u` within a short charge of an enemy that would
// beat it.
double danger(const Ctx& c, const Unit& moved) {
  double worst = 0;
  for (std::size_t e : enemies_within(c, moved, c.enemy_reach)) {
    const Unit& en = c.bf.units[e];
    if (en.attacks <= 0 || keeps_range(en)) continue;
    const double d = unit_distance(moved, en).distance;
    if (d > pace_of(en, MoveKind::Charge, c.settings)) continue;
    worst = std::max(worst, c.value(en, moved));
  }
  return worst;
}

namespace plan_advance_parts {

// The moves tried to go `d` along the path to `point`: a single unit
// placed there facing along the way or as it faces, or following the path
// as a column; a brigade slid there as one body.
std::vector<Action> advance_tries(const Ctx& c, const std::vector<int>& units, const Unit& lead, MoveKind kind,
                                  const std::vector<Vec2>& path, double d, Vec2 start, Vec2 point, Vec2 heading) {
  std::vector<Action> tries;
  if (units.size() == 1) {
    Action a;
    a.type = ActionType::Move;
    // Straight-line distance may be shorter than the way: cap the wheel's
    // centre shift at the allowance less what turning costs the corners.
    a.moves = {place_unit(lead, point, compass_of(heading), kind)};
    tries.push_back(a);
    a.moves = {place_unit(lead, point, std::nullopt, kind)};
    tries.push_back(a);
    for (bool straight : {true, false})
      if (auto col = column_follow(c.bf, c.scratch, lead, d, kind, straight)) {
        a.moves = {*col};
        tries.push_back(a);
      }
    if (auto col = column_at(lead, path, d, kind)) {
      a.moves = {*col};
      tries.push_back(a);
    }
  } else {
    // A brigade slides as one body, keeping its shape.
    const Vec2 shift = point - start;
    Action a;
    a.type = ActionType::Move;
    for (int ui : units) a.moves.push_back(slide_move(c.bf.units[static_cast<std::size_t>(ui)], shift, kind));
    tries.push_back(a);
  }
  return tries;
}

// Last: straight slides in sixteen directions, kept when they bring the
// units nearer along the way (round a friend in the way, off a bank).
std::optional<Action> slide_toward(const Ctx& c, const std::vector<int>& units, const Unit& lead, MoveKind kind,
                                   const Unit& target, Vec2 start, double allowance, double jitter, bool guarded,
                                   std::string& reason) {
  std::vector<std::pair<double, Vec2>> slides;
  const double before = field_at(c.bf, c.scratch, start);
  for (int k = 0; k < 16; ++k)
    for (double f : {1.0, 0.5}) {
      const Vec2 shift = Rot::from_degrees(22.5 * k + jitter).forward() * ((allowance - 0.05) * f);
      const double after = field_at(c.bf, c.scratch, start + shift);
      if (after < before - 1.0) slides.push_back({after, shift});
    }
  std::sort(slides.begin(), slides.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  if (slides.size() > 10) slides.resize(10);
  for (const auto& [after, shift] : slides) {
    Action a;
    a.type = ActionType::Move;
    for (int ui : units) a.moves.push_back(slide_move(c.bf.units[static_cast<std::size_t>(ui)], shift, kind));
    if (guarded && danger(c, unit_after(lead, a.moves.front())) >= c.o.evade_margin) continue;
    if (c.legal(a)) {
      reason = "slides " + std::to_string(static_cast<int>(length(shift))) + " cm toward " + target.id;
      return a;
    }
  }
  return std::nullopt;
}

}  // namespace plan_advance_parts

// Advance of the pending units (one unit or a brigade) toward their targets.
Action plan_advance(const Ctx& c, const std::vector<int>& units, MoveKind kind, std::string& reason) {
  Action hold;
  hold.type = ActionType::Move;
  const Unit& lead = c.bf.units[static_cast<std::size_t>(units.front())];
  double allowance = kFar;
  for (int ui : units) allowance = std::min(allowance, pace_of(c.bf.units[static_cast<std::size_t>(ui)], kind, c.settings));
  const Unit* target = choose_target(c, lead);
  if (!target || allowance <= 0.1) {
    reason = "holds: nothing to go for";
    return hold;
  }
  // The field is needed as far as the lead's centre, and for a single unit
  // its stands (column_follow orders them by it).
  const Vec2 start = stands_centre(lead);
  std::vector<Vec2> needed{start};
  if (units.size() == 1)
    for (const Stand& st : lead.stands) needed.push_back(st.pose.position);
  const MoveIndex& index = c.s.move_index();
  distance_field(c.bf, index, lead, *target, c.settings, c.scratch, units, true, needed);
  double way = field_at(c.bf, c.scratch, start);
  if (way >= kFar) {
    // Every way is shut by units for now: go by the terrain alone.
    distance_field(c.bf, index, lead, *target, c.settings, c.scratch, units, false, needed);
    way = field_at(c.bf, c.scratch, start);
  }
  if (way >= kFar) {
    reason = "holds: no way to " + target->id;
    return hold;
  }
  const double want = std::min(allowance - 0.05, wanted_distance(c, lead, *target, way));
  if (want < 1.0) {
    reason = "holds: already where it wants to be against " + target->id;
    return hold;
  }
  const std::vector<Vec2> path = downhill(c.bf, c.scratch, start, want + 8.0);
  const double jitter = (uniform01(c.rng) - 0.5) * 6.0;
  const bool guarded = keeps_range(lead);
  std::string first_refusal;
  for (double f : {1.0, 0.8, 0.6, 0.4, 0.25}) {
    const double d = want * f;
    if (d < 0.5) continue;
    auto [point, heading] = point_along(path, d);
    if (length(heading) < 1e-9) continue;
    heading = Rot::from_degrees(jitter).apply(heading);
    const std::vector<Action> tries =
        plan_advance_parts::advance_tries(c, units, lead, kind, path, d, start, point, heading);
    for (const Action& a : tries) {
      if (guarded) {
        // Shooters and artillery: not into the open in front of stronger enemies.
        const Unit after = unit_after(lead, a.moves.front());
        if (danger(c, after) >= c.o.evade_margin && f > 0.3) continue;
      }
      const Verdict v = c.s.validate(a, c.scratch.move);
      if (v.legal()) {
        reason = "advances " + std::to_string(static_cast<int>(d)) + " cm toward " + target->id;
        return a;
      }
      if (first_refusal.empty() && !v.violations.empty()) first_refusal = v.violations.front().reason;
    }
  }
  // Last: straight slides, kept when they bring the units nearer along the way.
  if (auto a =
          plan_advance_parts::slide_toward(c, units, lead, kind, *target, start, allowance, jitter, guarded, reason))
    return *a;
  reason = "holds: no legal advance toward " + target->id + (first_refusal.empty() ? "" : " (" + first_refusal + ")");
  return hold;
}

}  // namespace referee::warmaster::opponent_detail
