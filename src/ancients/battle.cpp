// Battles: dice, targets, hits, retreat paths, evasion and odds (battle.hpp).
// The figures per class are the published unit summaries; where those are
// silent the reading is in docs/rulings.md#ancients-battle-classes.
#include "referee/ancients/battle.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "referee/ancients/rule_ids.hpp"

namespace referee::ancients {

const char* face_name(Face f) {
  switch (f) {
    case Face::light: return "light";
    case Face::medium: return "medium";
    case Face::heavy: return "heavy";
    case Face::swords: return "swords";
    case Face::leader: return "leader";
    default: return "flag";
  }
}

const CombatProfile& combat_profile(int cls) {
  using E = Evasion;
  using M = Momentum;
  // In unit_classes() order. close dice, elephant dice, range, ranged dice (held, moved), sword hits,
  // ignores swords, leader hits, retreat hexes per flag, evasion, momentum.
  static const std::vector<CombatProfile> profiles{
      {2, false, 2, 2, 1, false, false, true, 2, E::always, M::advance},               // light infantry
      {2, false, 3, 2, 1, false, false, true, 2, E::always, M::advance},               // light sling infantry
      {2, false, 3, 2, 1, false, false, true, 2, E::always, M::advance},               // light bow infantry
      {3, false, 2, 2, 1, true, false, true, 1, E::never, M::advance},                 // auxilia
      {0, false, 4, 2, 0, false, false, false, 1, E::always, M::none},                 // light war machine
      {4, false, 0, 0, 0, true, false, true, 1, E::never, M::advance},                 // medium infantry
      {4, false, 0, 0, 0, true, false, true, 2, E::never, M::advance_and_battle},      // warrior
      {5, false, 0, 0, 0, true, false, true, 1, E::never, M::advance},                 // heavy infantry
      {0, false, 5, 3, 0, false, false, false, 1, E::always, M::none},                 // heavy war machine
      {2, false, 2, 2, 1, false, false, true, 4, E::always, M::advance_and_battle},    // light cavalry
      {2, false, 3, 2, 1, false, false, true, 4, E::always, M::advance_and_battle},    // light bow cavalry
      {2, false, 2, 2, 1, false, false, true, 3, E::always, M::advance_and_battle},    // light chariot
      {3, false, 0, 0, 0, true, false, true, 3, E::foot_and_heavy_mounted, M::advance_and_battle},  // medium cavalry
      {3, false, 0, 0, 0, true, false, true, 3, E::foot_and_heavy_mounted, M::advance_and_battle},  // camel
      {4, false, 0, 0, 0, true, false, true, 2, E::foot_and_elephants, M::advance_and_battle},      // heavy cavalry
      {0, true, 0, 0, 0, false, true, false, 1, E::never, M::advance},                 // elephant
      {4, false, 0, 0, 0, true, false, true, 2, E::foot_and_elephants, M::advance_and_battle},      // heavy chariot
  };
  return profiles[static_cast<std::size_t>(cls)];
}

namespace {

const UnitClass& cls_of(const Battle& b, int u) { return b.unit_class(u); }
int side_of(const Battle& b, int u) { return b.units[static_cast<std::size_t>(u)].side; }
int hex_of(const Position& p, int u) { return p.units[static_cast<std::size_t>(u)].hex; }
bool is_class(const Battle& b, int u, const char* id) { return cls_of(b, u).id == id; }

Face weight_face(Weight w) {
  return w == Weight::light ? Face::light : w == Weight::medium ? Face::medium : Face::heavy;
}

// Close combat dice of `u` against `target` before terrain.
int base_close_dice(const Battle& b, int u, int target) {
  const CombatProfile& pr = combat_profile(b.units[static_cast<std::size_t>(u)].cls);
  if (!pr.elephant_dice) return pr.close_dice;
  // Elephants: 3 dice against elephants, camels, warriors and heavy chariots;
  // otherwise what the target rolls (docs/rulings.md#ancients-battle-classes).
  if (is_class(b, target, "elephant") || is_class(b, target, "camel") || is_class(b, target, "warrior") ||
      is_class(b, target, "heavy_chariot"))
    return 3;
  const int d = combat_profile(b.units[static_cast<std::size_t>(target)].cls).close_dice;
  return d > 0 ? d : 3;
}

}  // namespace

int leader_near(const Battle& b, const Position& p, int unit) {
  const int hex = hex_of(p, unit);
  if (hex < 0) return -1;
  const int side = side_of(b, unit);
  auto friendly_leader = [&](int h) {
    const int l = p.leader_on(h);
    return l >= 0 && b.leaders[static_cast<std::size_t>(l)].side == side ? l : -1;
  };
  if (int l = friendly_leader(hex); l >= 0) return l;
  for (int dir = 0; dir < 6; ++dir) {
    const int n = b.board.neighbour(hex, dir);
    if (n < 0) continue;
    if (int l = friendly_leader(n); l >= 0) return l;
  }
  return -1;
}

bool adjacent_enemy(const Battle& b, const Position& p, int unit) {
  const int hex = hex_of(p, unit);
  if (hex < 0) return false;
  for (int dir = 0; dir < 6; ++dir) {
    const int n = b.board.neighbour(hex, dir);
    const int e = n < 0 ? -1 : p.unit_on(n);
    if (e >= 0 && side_of(b, e) != side_of(b, unit)) return true;
  }
  return false;
}

namespace {

// The hexes strictly between two hex centres, along the line nudged to one
// side (`sign` +1 or -1) so that a line along an edge picks one of its two hexes.
// The hexes strictly between two hex centres along the straight line, nudged
// to one side (`sign` +1 or -1) so that a line along an edge picks one of its
// two hexes.
std::vector<int> line_hexes(const Battle& b, int from, int to, double sign) {
  const Axial a = b.board.axial(from), c = b.board.axial(to);
  const int n = hex_distance(a, c);
  const double ax = a.q, az = a.r, ay = -a.q - a.r;
  const double cx = c.q, cz = c.r, cy = -c.q - c.r;
  std::vector<int> out;
  for (int i = 1; i < n; ++i) {
    const double t = static_cast<double>(i) / n;
    double x = ax + (cx - ax) * t + sign * 1e-6, y = ay + (cy - ay) * t + sign * 2e-6, z = az + (cz - az) * t - sign * 3e-6;
    double rx = std::round(x), ry = std::round(y), rz = std::round(z);
    const double dx = std::abs(rx - x), dy = std::abs(ry - y), dz = std::abs(rz - z);
    if (dx > dy && dx > dz) rx = -ry - rz;
    else if (dy > dz) ry = -rx - rz;
    else rz = -rx - ry;
    const int h = b.board.index_axial({static_cast<int>(rx), static_cast<int>(rz)});
    if (h >= 0) out.push_back(h);
  }
  return out;
}

// Whether a blocking hex lies between, on the side `sign`.
template <typename F>
bool line_blocked(const Battle& b, int from, int to, double sign, F blocks, int* blocker) {
  for (int h : line_hexes(b, from, to, sign))
    if (blocks(h)) {
      if (blocker) *blocker = h;
      return true;
    }
  return false;
}

}  // namespace

bool blocks_sight(const Battle& b, const Position& p, int hex) {
  if (p.unit_on(hex) >= 0) return true;
  const TerrainType* t = b.terrain_at(hex);
  return t && t->blocks_sight;
}

std::array<std::vector<int>, 2> sight_hexes(const Battle& b, int from, int to) {
  return {line_hexes(b, from, to, 1.0), line_hexes(b, from, to, -1.0)};
}

bool line_of_sight(const Battle& b, const Position& p, int from, int to, int* blocker) {
  auto blocks = [&](int h) { return blocks_sight(b, p, h); };
  int first = -1, second = -1;
  // Both sides of an edge must be blocked (docs/rulings.md#ancients-line-of-sight).
  if (!line_blocked(b, from, to, 1.0, blocks, &first)) return true;
  if (!line_blocked(b, from, to, -1.0, blocks, &second)) return true;
  if (blocker) *blocker = first;
  return false;
}

int ignorable_flags(const Battle& b, const Position& p, int unit, bool* supported) {
  const int hex = hex_of(p, unit);
  int friends = 0;
  for (int dir = 0; dir < 6 && hex >= 0; ++dir) {
    const int n = b.board.neighbour(hex, dir);
    const int f = n < 0 ? -1 : p.unit_on(n);
    if (f >= 0 && side_of(b, f) == side_of(b, unit)) ++friends;
  }
  const bool sup = friends >= 2;
  if (supported) *supported = sup;
  return (sup ? 1 : 0) + (p.leader_of(unit) >= 0 ? 1 : 0);
}

AttackPlan plan_attack(const Battle& b, const Position& p, int attacker, int target, bool close, bool battle_back,
                       bool evading) {
  AttackPlan a;
  a.attacker = attacker;
  a.target = target;
  a.close = close;
  a.battle_back = battle_back;
  a.evading = evading;
  const CombatProfile& ap = combat_profile(b.units[static_cast<std::size_t>(attacker)].cls);
  const CombatProfile& tp = combat_profile(b.units[static_cast<std::size_t>(target)].cls);
  if (close) {
    a.dice = a.dice_before_terrain = base_close_dice(b, attacker, target);
    // Terrain: at most N dice battling into or out of it, or (hills) attacking up it.
    const int ah = hex_of(p, attacker), th = hex_of(p, target);
    const int at = b.terrain[static_cast<std::size_t>(ah)], tt = b.terrain[static_cast<std::size_t>(th)];
    auto cap = [&](int ti) {
      const TerrainType& t = b.terrain_types[static_cast<std::size_t>(ti)];
      if (t.close_combat_dice_max > 0 && a.dice > t.close_combat_dice_max) {
        a.dice = t.close_combat_dice_max;
        a.limited_by = ti;
      }
    };
    if (at >= 0 && !b.terrain_types[static_cast<std::size_t>(at)].close_combat_uphill_only) cap(at);
    if (tt >= 0 && (!b.terrain_types[static_cast<std::size_t>(tt)].close_combat_uphill_only || at != tt)) cap(tt);
  } else {
    a.dice = a.dice_before_terrain =
        p.units[static_cast<std::size_t>(attacker)].hexes_moved > 0 ? ap.ranged_dice_moved : ap.ranged_dice;
  }
  a.hits[static_cast<std::size_t>(weight_face(cls_of(b, target).weight))] = true;
  if (close && !evading) {
    if (ap.sword_hits && !tp.ignores_swords) a.hits[static_cast<std::size_t>(Face::swords)] = true;
    a.near_leader = leader_near(b, p, attacker);
    if (ap.leader_hits && a.near_leader >= 0) a.hits[static_cast<std::size_t>(Face::leader)] = true;
  }
  a.ignorable_flags = evading ? 0 : ignorable_flags(b, p, target, &a.supported);
  a.retreat_per_flag = tp.retreat_per_flag;
  return a;
}

std::string hits_reason(const Battle& b, const AttackPlan& a) {
  const CombatProfile& ap = combat_profile(b.units[static_cast<std::size_t>(a.attacker)].cls);
  const CombatProfile& tp = combat_profile(b.units[static_cast<std::size_t>(a.target)].cls);
  const UnitClass& tc = cls_of(b, a.target);
  std::string why = fmt::format("{} hits {} {}", face_name(weight_face(tc.weight)), weight_name(tc.weight), tc.name);
  if (a.close && !a.evading) {
    if (ap.sword_hits && !tp.ignores_swords) why += "; swords hit in close combat";
    else why += ap.sword_hits ? "; swords miss: the target ignores swords" : "; swords miss: this class scores no sword hits";
    if (ap.leader_hits && a.near_leader >= 0)
      why += fmt::format("; leader helmets hit: leader {} is with or beside it",
                         b.leaders[static_cast<std::size_t>(a.near_leader)].id);
    else
      why += ap.leader_hits ? "; leader helmets miss: no friendly leader with or beside it"
                            : "; leader helmets miss: this class gains nothing from leaders";
  } else if (a.evading) {
    why += "; the target evades, so nothing else hits";
  } else {
    why += "; swords and helmets miss in ranged combat";
  }
  return why;
}

std::vector<Target> battle_targets(const Battle& b, const Position& p, int unit) {
  std::vector<Target> out;
  const int hex = hex_of(p, unit);
  if (hex < 0) return out;
  const int side = side_of(b, unit);
  const CombatProfile& pr = combat_profile(b.units[static_cast<std::size_t>(unit)].cls);
  bool adjacent = false;
  for (int dir = 0; dir < 6; ++dir) {
    const int n = b.board.neighbour(hex, dir);
    const int e = n < 0 ? -1 : p.unit_on(n);
    if (e >= 0 && side_of(b, e) != side) {
      adjacent = true;
      if (pr.close_dice > 0 || pr.elephant_dice) out.push_back({e, true, 1});
    }
  }
  const bool can_close = pr.close_dice > 0 || pr.elephant_dice;
  // Lone enemy leaders next to it are targets too; they do not force close combat.
  for (int dir = 0; dir < 6; ++dir) {
    const int n = b.board.neighbour(hex, dir);
    const int l = n < 0 ? -1 : p.leader_on(n);
    if (l >= 0 && p.unit_on(n) < 0 && b.leaders[static_cast<std::size_t>(l)].side != side && can_close)
      out.push_back({l, true, 1, true});
  }
  if (adjacent || pr.range == 0) return out;
  if ((p.units[static_cast<std::size_t>(unit)].hexes_moved > 0 ? pr.ranged_dice_moved : pr.ranged_dice) == 0) return out;
  const Axial a = b.board.axial(hex);
  for (std::size_t e = 0; e < b.units.size(); ++e) {
    const int eh = p.units[e].hex;
    if (eh < 0 || b.units[e].side == side) continue;
    const int d = hex_distance(a, b.board.axial(eh));
    if (d >= 2 && d <= pr.range && line_of_sight(b, p, hex, eh)) out.push_back({static_cast<int>(e), false, d});
  }
  for (std::size_t l = 0; l < b.leaders.size(); ++l) {
    const int lh = p.leaders[l].hex;
    if (lh < 0 || b.leaders[l].side == side || p.unit_on(lh) >= 0) continue;
    const int d = hex_distance(a, b.board.axial(lh));
    if (d >= 2 && d <= pr.range && line_of_sight(b, p, hex, lh)) out.push_back({static_cast<int>(l), false, d, true});
  }
  return out;
}

std::string why_not_leader_target(const Battle& b, const Position& p, int attacker, int leader, const char** rule) {
  *rule = ancients::rule_id::battle_target;
  const LeaderSpec& spec = b.leaders[static_cast<std::size_t>(leader)];
  const int lh = p.leaders[static_cast<std::size_t>(leader)].hex;
  if (lh < 0) return fmt::format("leader {} is no longer on the board", spec.id);
  if (spec.side == side_of(b, attacker)) return fmt::format("leader {} is on the same side", spec.id);
  if (p.unit_on(lh) >= 0)
    return fmt::format("leader {} is with unit {}: battle the unit", spec.id, b.units[static_cast<std::size_t>(p.unit_on(lh))].id);
  for (const Target& t : battle_targets(b, p, attacker))
    if (t.leader && t.unit == leader) return {};
  const int d = hex_distance(b.board.axial(hex_of(p, attacker)), b.board.axial(lh));
  if (d > 1 && adjacent_enemy(b, p, attacker)) {
    *rule = ancients::rule_id::battle_close;
    return "a unit adjacent to an enemy unit must close combat an adjacent enemy unit if it battles";
  }
  *rule = d == 1 ? ancients::rule_id::battle_close : ancients::rule_id::battle_ranged;
  return fmt::format("lone leader {} is not in reach of {}'s close combat or fire, or not in sight", spec.id,
                     b.units[static_cast<std::size_t>(attacker)].id);
}

int dice_against_leader(const Battle& b, const Position& p, int attacker, int leader) {
  const CombatProfile& pr = combat_profile(b.units[static_cast<std::size_t>(attacker)].cls);
  const bool close = b.board.adjacent(hex_of(p, attacker), p.leaders[static_cast<std::size_t>(leader)].hex);
  if (!close) return p.units[static_cast<std::size_t>(attacker)].hexes_moved > 0 ? pr.ranged_dice_moved : pr.ranged_dice;
  return pr.elephant_dice ? 1 : pr.close_dice;
}

std::string why_not_target(const Battle& b, const Position& p, int attacker, int target, const char** rule) {
  const int ah = hex_of(p, attacker), th = hex_of(p, target);
  *rule = ancients::rule_id::battle_target;
  if (th < 0) return fmt::format("unit {} has been eliminated", b.units[static_cast<std::size_t>(target)].id);
  if (side_of(b, attacker) == side_of(b, target))
    return fmt::format("unit {} is on the same side", b.units[static_cast<std::size_t>(target)].id);
  const CombatProfile& pr = combat_profile(b.units[static_cast<std::size_t>(attacker)].cls);
  const int d = hex_distance(b.board.axial(ah), b.board.axial(th));
  if (d == 1) {
    if (pr.close_dice == 0 && !pr.elephant_dice) {
      *rule = ancients::rule_id::battle_close;
      return fmt::format("a {} cannot battle in close combat", cls_of(b, attacker).name);
    }
    return {};
  }
  if (adjacent_enemy(b, p, attacker)) {
    *rule = ancients::rule_id::battle_close;
    return "a unit adjacent to an enemy unit must close combat an adjacent enemy unit if it battles";
  }
  *rule = ancients::rule_id::battle_ranged;
  if (pr.range == 0) return fmt::format("a {} has no missile weapon: it battles only adjacent enemies", cls_of(b, attacker).name);
  if (d > pr.range) return fmt::format("{} hexes away; a {} fires at most {}", d, cls_of(b, attacker).name, pr.range);
  if (p.units[static_cast<std::size_t>(attacker)].hexes_moved > 0 && pr.ranged_dice_moved == 0)
    return fmt::format("a {} cannot fire after moving", cls_of(b, attacker).name);
  int blocker = -1;
  if (!line_of_sight(b, p, ah, th, &blocker)) {
    *rule = ancients::rule_id::battle_sight;
    const int u = p.unit_on(blocker);
    return fmt::format("no line of sight: hex {} blocks it ({})", format_hex(b.board.col_row(blocker)),
                       u >= 0 ? "unit " + b.units[static_cast<std::size_t>(u)].id
                              : b.terrain_at(blocker) ? b.terrain_at(blocker)->name : std::string("terrain"));
  }
  return {};
}

namespace {

// Layers of hexes a unit can step to toward its home edge, one row per step.
// Hexes on a lone friendly leader end the path there (he attaches).
struct Layers {
  std::vector<std::vector<int>> layer;  // layer[k]: hexes after k steps (layer[0] = start)
  std::vector<int> leader_stops;        // hexes that end a path on a friendly leader
  std::vector<int> leader_depth;
  std::vector<int> pred;                // per board index, for paths
};

Layers retreat_layers(const Battle& b, const Position& p, int unit, int steps) {
  Layers L;
  const int side = side_of(b, unit);
  const int start = hex_of(p, unit);
  const bool carries_leader = p.leader_of(unit) >= 0;
  const int cls = b.units[static_cast<std::size_t>(unit)].cls;
  L.pred.assign(static_cast<std::size_t>(b.board.cell_count()), -1);
  L.layer.push_back({start});
  const int dirs[2] = {side == 0 ? 4 : 1, side == 0 ? 5 : 2};  // south-west, south-east / north-east, north-west
  for (int k = 1; k <= steps; ++k) {
    std::vector<int> next;
    for (int h : L.layer.back()) {
      for (int d : dirs) {
        const int n = b.board.neighbour(h, d);
        if (n < 0 || p.unit_on(n) >= 0) continue;
        if (const TerrainType* t = b.terrain_at(n); t && in_mask(t->cannot_enter, cls)) continue;
        const int l = p.leader_on(n);
        if (l >= 0 && b.leaders[static_cast<std::size_t>(l)].side != side) continue;  // a lone enemy leader
        if (std::find(next.begin(), next.end(), n) != next.end() ||
            std::find(L.leader_stops.begin(), L.leader_stops.end(), n) != L.leader_stops.end())
          continue;
        if (l >= 0) {
          // A lone friendly leader: the path stops and he attaches; a unit
          // already carrying one cannot end there (docs/rulings.md#ancients-retreat-onto-leaders).
          if (carries_leader) continue;
          L.pred[static_cast<std::size_t>(n)] = h;
          L.leader_stops.push_back(n);
          L.leader_depth.push_back(k);
          continue;
        }
        L.pred[static_cast<std::size_t>(n)] = h;
        next.push_back(n);
      }
    }
    if (next.empty()) break;
    L.layer.push_back(std::move(next));
  }
  return L;
}

RetreatOption option_of(const Battle& b, const Position& p, const Layers& L, int end, int hexes, int lost) {
  RetreatOption o;
  o.end = end;
  o.hexes = hexes;
  o.lost = lost;
  const int l = p.leader_on(end);
  if (end != L.layer[0][0] && l >= 0) o.attaches_leader = l;
  for (int h = end; h >= 0 && h != L.layer[0][0]; h = L.pred[static_cast<std::size_t>(h)]) o.path.push_back(h);
  o.path.push_back(L.layer[0][0]);
  std::reverse(o.path.begin(), o.path.end());
  (void)b;
  return o;
}

}  // namespace

std::vector<RetreatOption> retreat_options(const Battle& b, const Position& p, int unit, int hexes) {
  std::vector<RetreatOption> out;
  const Layers L = retreat_layers(b, p, unit, hexes);
  const int reached = static_cast<int>(L.layer.size()) - 1;
  for (std::size_t i = 0; i < L.leader_stops.size(); ++i) out.push_back(option_of(b, p, L, L.leader_stops[i], L.leader_depth[i], 0));
  if (reached >= hexes || out.empty())
    for (int h : L.layer.back()) out.push_back(option_of(b, p, L, h, reached, hexes - reached));
  // Only the fewest blocks lost (docs/rulings.md#ancients-retreat-choice).
  int best = 1 << 30;
  for (const RetreatOption& o : out) best = std::min(best, o.lost);
  std::erase_if(out, [&](const RetreatOption& o) { return o.lost != best; });
  return out;
}

std::vector<FlagChoice> flag_choices(const Battle& b, const Position& p, int unit, int flags, int may_ignore) {
  std::vector<FlagChoice> out;
  const int per = combat_profile(b.units[static_cast<std::size_t>(unit)].cls).retreat_per_flag;
  const int most = std::clamp(may_ignore, 0, flags);
  auto keep = [&out](FlagChoice c) {
    for (FlagChoice& k : out)
      if (k.option.end == c.option.end) {
        if (c.option.lost < k.option.lost) k = std::move(c);
        return;
      }
    out.push_back(std::move(c));
  };
  // Most ignored first, so that a tie keeps the shorter retreat.
  for (int ignored = most; ignored >= 0; --ignored) {
    const int hexes = (flags - ignored) * per;
    if (hexes == 0) {
      FlagChoice hold;
      hold.ignored = ignored;
      hold.option.end = p.units[static_cast<std::size_t>(unit)].hex;
      keep(std::move(hold));
      continue;
    }
    for (RetreatOption& o : retreat_options(b, p, unit, hexes)) keep({ignored, hexes, std::move(o)});
  }
  return out;
}

std::vector<RetreatOption> evade_options(const Battle& b, const Position& p, int unit) {
  std::vector<RetreatOption> out;
  const Layers L = retreat_layers(b, p, unit, 2);
  for (std::size_t i = 0; i < L.leader_stops.size(); ++i)
    if (L.leader_depth[i] == 1) out.push_back(option_of(b, p, L, L.leader_stops[i], 1, 0));
  if (L.layer.size() == 3) {
    for (int h : L.layer[2]) out.push_back(option_of(b, p, L, h, 2, 0));
  } else if (L.layer.size() == 2) {
    for (int h : L.layer[1]) out.push_back(option_of(b, p, L, h, 1, 0));
  }
  return out;
}

bool may_evade(const Battle& b, int defender, int attacker) {
  const CombatProfile& pr = combat_profile(b.units[static_cast<std::size_t>(defender)].cls);
  const UnitClass& ac = cls_of(b, attacker);
  switch (pr.evasion) {
    case Evasion::never: return false;
    case Evasion::always: return true;
    case Evasion::foot_and_heavy_mounted: return ac.category == Category::foot || ac.weight == Weight::heavy;
    case Evasion::foot_and_elephants: return ac.category == Category::foot || ac.id == "elephant";
  }
  return false;
}

std::string why_not_evade(const Battle& b, const Position& p, int attacker, int defender, const char** rule,
                          std::vector<RetreatOption>* options) {
  *rule = ancients::rule_id::evade_eligible;
  const std::string& d = b.units[static_cast<std::size_t>(defender)].id;
  if (!b.board.adjacent(hex_of(p, attacker), hex_of(p, defender)))
    return fmt::format("unit {} may not evade a ranged attack: evasion is offered in close combat only", d);
  if (!may_evade(b, defender, attacker))
    return fmt::format("a {} may not evade a {}", cls_of(b, defender).name, cls_of(b, attacker).name);
  std::vector<RetreatOption> opts = evade_options(b, p, defender);
  if (opts.empty()) {
    *rule = ancients::rule_id::evade_move;
    return fmt::format("unit {} has no evade path: no free hex 1 or 2 rows toward its own side", d);
  }
  if (options) *options = std::move(opts);
  return {};
}

AttackOdds attack_odds(const Battle& b, const Position& p, const AttackPlan& plan) {
  AttackOdds o;
  const int n = plan.dice;
  o.dice = n;
  for (bool h : plan.hits) o.hit_faces += h ? 1 : 0;
  const int flag_faces = plan.evading ? 0 : 1;
  const int other = kFaces - o.hit_faces - flag_faces;
  o.blocks = p.units[static_cast<std::size_t>(plan.target)].blocks;
  o.ignorable_flags = plan.ignorable_flags;
  o.retreat_per_flag = plan.retreat_per_flag;
  // Powers and binomials for up to n dice.
  std::array<std::uint64_t, 32> pw_hit{}, pw_other{};
  pw_hit[0] = pw_other[0] = 1;
  for (int i = 1; i <= n; ++i) {
    pw_hit[static_cast<std::size_t>(i)] = pw_hit[static_cast<std::size_t>(i - 1)] * static_cast<std::uint64_t>(o.hit_faces);
    pw_other[static_cast<std::size_t>(i)] = pw_other[static_cast<std::size_t>(i - 1)] * static_cast<std::uint64_t>(other);
  }
  auto choose = [](int a, int k) {
    std::uint64_t r = 1;
    for (int i = 1; i <= k; ++i) r = r * static_cast<std::uint64_t>(a - k + i) / static_cast<std::uint64_t>(i);
    return r;
  };
  for (int i = 0; i < n; ++i) o.outcomes *= kFaces;
  // The longest retreat the target has: one layered search as deep as the most flags could need.
  const int most = n * plan.retreat_per_flag;
  int room = 0, leader_at = 1 << 30;
  if (!plan.evading && most > 0) {
    const Layers L = retreat_layers(b, p, plan.target, most);
    room = static_cast<int>(L.layer.size()) - 1;
    for (int d : L.leader_depth) leader_at = std::min(leader_at, d);
  }
  o.retreat_room = room;
  o.counts.assign(static_cast<std::size_t>(n + 1), std::vector<std::uint64_t>(static_cast<std::size_t>(n + 1), 0));
  double expected = 0;
  for (int h = 0; h <= n; ++h)
    for (int f = 0; f + h <= n; ++f) {
      if (flag_faces == 0 && f > 0) continue;
      const std::uint64_t c = choose(n, h) * choose(n - h, f) * pw_hit[static_cast<std::size_t>(h)] *
                              pw_other[static_cast<std::size_t>(n - h - f)];
      o.counts[static_cast<std::size_t>(h)][static_cast<std::size_t>(f)] = c;
      if (c == 0) continue;
      expected += static_cast<double>(h) * static_cast<double>(c);
      if (h > 0) o.at_least_one_hit += c;
      if (h >= o.blocks) {
        o.eliminate += c;
        continue;
      }
      const int eff = std::max(0, f - plan.ignorable_flags);
      const int need = eff * plan.retreat_per_flag;
      // A flag it may ignore and takes gets it further only while there is room and no leader has stopped it.
      if (eff < f && room > need && leader_at > need) o.retreat_by_choice += c;
      if (eff == 0) continue;
      const int lost = (room >= need || leader_at <= need) ? 0 : need - room;
      if (h + lost >= o.blocks) o.eliminate += c;
      else o.retreat += c;
    }
  o.expected_hits = expected / static_cast<double>(o.outcomes);
  return o;
}

nlohmann::json odds_json(const Battle& b, const AttackPlan& plan, const AttackOdds& o) {
  nlohmann::json faces = nlohmann::json::array();
  for (int f = 0; f < kFaces; ++f)
    if (plan.hits[static_cast<std::size_t>(f)]) faces.push_back(face_name(static_cast<Face>(f)));
  nlohmann::json dist = nlohmann::json::array();
  const double all = static_cast<double>(o.outcomes);
  // So many rolls of all, and their share.
  auto chance = [all](auto rolls) {
    return nlohmann::json{{"rolls", rolls}, {"probability", static_cast<double>(rolls) / all}};
  };
  for (std::size_t h = 0; h < o.counts.size(); ++h)
    for (std::size_t f = 0; f < o.counts[h].size(); ++f)
      if (o.counts[h][f] > 0) {
        nlohmann::json entry = chance(o.counts[h][f]);
        entry["hits"] = h;
        entry["flags"] = f;
        dist.push_back(std::move(entry));
      }
  nlohmann::json j{{"attacker", b.units[static_cast<std::size_t>(plan.attacker)].id},
                   {"target", b.units[static_cast<std::size_t>(plan.target)].id},
                   {"combat", plan.close ? "close" : "ranged"},
                   {"evading", plan.evading},
                   {"dice", o.dice},
                   {"hit_faces", faces},
                   {"hits_reason", hits_reason(b, plan)},
                   {"rolls", o.outcomes},
                   {"distribution", dist},
                   {"blocks", o.blocks},
                   {"ignorable_flags", o.ignorable_flags},
                   {"retreat_hexes_per_flag", o.retreat_per_flag},
                   {"retreat_room", o.retreat_room},
                   {"eliminate", chance(o.eliminate)},
                   {"retreat", chance(o.retreat)},
                   {"retreat_by_choice", chance(o.retreat_by_choice)},
                   {"at_least_one_hit", chance(o.at_least_one_hit)},
                   {"expected_hits", o.expected_hits},
                   {"rule", ancients::rule_id::battle_odds}};
  if (plan.limited_by >= 0)
    j["dice_limited_by"] = {{"terrain", b.terrain_types[static_cast<std::size_t>(plan.limited_by)].id},
                            {"dice_before", plan.dice_before_terrain}};
  return j;
}

}  // namespace referee::ancients
