#include "referee/ancients/movement.hpp"
#include "referee/ancients/rule_ids.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace referee::ancients {

namespace {

constexpr std::uint8_t kEndable = 1;  // the move may end here
constexpr std::uint8_t kExpand = 2;   // the move may continue from here

struct SearchRules {
  bool occupancy = true;   // respect units and leaders (off only to explain a refusal)
  bool terrain = true;     // respect terrain (off only to explain a refusal)
  bool pass_through = false;
  int allowance = 0;
};

const UnitSpec& spec(const Battle& b, int unit) { return b.units[static_cast<std::size_t>(unit)]; }
std::string hex_name(const Battle& b, int hex) { return format_hex(b.board.col_row(hex)); }

bool light_foot(const UnitClass& c) { return c.category == Category::foot && c.weight == Weight::light; }

// Unit movement (ancients.movement.*): a breadth-first search over the flat
// neighbour table, up to the allowance. A hex is refused outright when it
// holds an enemy unit or leader, a friendly unit (unless the card lets light
// foot pass through, in which case it may be crossed but not ended on), or
// terrain the class cannot enter. A hex with terrain that stops the class, or
// with a lone friendly leader, may be entered but not left. Every refusal
// depends only on the hex, never on the route, so the first (shortest)
// arrival is the best one and each hex is visited once.
void search_unit(const Battle& b, const Position& p, int unit, const SearchRules& rules, PathScratch& s) {
  s.prepare(b.board.cell_count());
  const UnitSpec& u = spec(b, unit);
  const int cls = u.cls;
  const int start = p.units[static_cast<std::size_t>(unit)].hex;
  const bool has_leader = p.leader_of(unit) >= 0;
  std::size_t head = 0;
  s.reach(start, 0, -1, kExpand);
  while (head < static_cast<std::size_t>(s.visited)) {
    const int c = s.queue[head++];
    const int d = s.dist[static_cast<std::size_t>(c)];
    if (!(s.flags[static_cast<std::size_t>(c)] & kExpand) || d >= rules.allowance) continue;
    for (int dir = 0; dir < 6; ++dir) {
      const int n = b.board.neighbour(c, dir);
      if (n < 0 || s.seen(n)) continue;
      std::uint8_t f = kEndable | kExpand;
      if (rules.terrain) {
        if (const TerrainType* t = b.terrain_at(n)) {
          if (in_mask(t->cannot_enter, cls)) continue;
          if (in_mask(t->stop_on_entering, cls)) f &= static_cast<std::uint8_t>(~kExpand);
        }
      }
      if (rules.occupancy) {
        const int ou = p.unit_on(n);
        const int ol = p.leader_on(n);
        if (ou >= 0) {
          if (spec(b, ou).side != u.side || !rules.pass_through) continue;
          f &= static_cast<std::uint8_t>(~kEndable);  // light foot crossing a friendly unit
          if (!(f & kExpand)) continue;
        }
        if (ol >= 0) {
          if (b.leaders[static_cast<std::size_t>(ol)].side != u.side) continue;
          if (ou < 0) {
            // A lone friendly leader: the unit may end here and must stop; the
            // leader attaches. Not with a leader already attached (one per hex).
            if (has_leader) continue;
            f &= static_cast<std::uint8_t>(~kExpand);
          }
        }
      }
      s.reach(n, d + 1, c, f);
    }
  }
}

bool adjacent_to_enemy(const Battle& b, const Position& p, int side, int hex) {
  for (int dir = 0; dir < 6; ++dir) {
    int n = b.board.neighbour(hex, dir);
    if (n < 0) continue;
    int ou = p.unit_on(n), ol = p.leader_on(n);
    if (ou >= 0 && spec(b, ou).side != side) return true;
    if (ol >= 0 && b.leaders[static_cast<std::size_t>(ol)].side != side) return true;
  }
  return false;
}

// The battle flag of a destination (ancients.movement.battle): the class rule
// for the distance moved, then terrain that forbids battle on entering.
// Inline: unit_destinations makes one for every hex a unit reaches.
[[gnu::always_inline]] inline Destination make_destination(const Battle& b, const Position& p, int unit, int hex, int hexes, std::uint8_t flags) {
  const UnitClass& c = b.unit_class(unit);
  Destination d;
  d.hex = hex;
  d.hexes = hexes;
  d.stops = !(flags & kExpand);
  int ol = p.leader_on(hex);
  if (ol >= 0 && p.unit_on(hex) < 0) d.attaches_leader = ol;
  if (c.battle == BattleAfterMove::never_if_moved && hexes > 0) d.no_battle = NoBattle::war_machine_moved;
  else if (c.battle == BattleAfterMove::only_after_one && hexes > 1) d.no_battle = NoBattle::auxilia_two_hexes;
  else if (const TerrainType* t = b.terrain_at(hex); t && hexes > 0 && in_mask(t->no_battle_on_entering, spec(b, unit).cls))
    d.no_battle = NoBattle::terrain;
  d.may_battle = d.no_battle == NoBattle::none;
  d.close_combat_compulsory = c.warrior_charge && hexes == 2;
  return d;
}

bool warrior_ok(const Battle& b, const Position& p, int unit, int hex, int hexes) {
  return !(b.unit_class(unit).warrior_charge && hexes >= 2) || adjacent_to_enemy(b, p, spec(b, unit).side, hex);
}

SearchRules unit_rules(const Battle& b, const Position& p, int unit, const MoveOptions& o) {
  SearchRules r;
  r.allowance = unit_allowance(b, p, unit);
  r.pass_through = o.light_pass_through && light_foot(b.unit_class(unit));
  return r;
}

std::vector<int> route_from(const PathScratch& s, int to) {
  std::vector<int> path;
  for (int h = to; h >= 0; h = s.pred[static_cast<std::size_t>(h)]) path.push_back(h);
  std::reverse(path.begin(), path.end());
  return path;
}

// Lone leader movement (ancients.leader.*): the same search, but friendly
// units and leaders may be crossed, enemies never, and only impassable terrain
// stops a leader (our reading: terrain's stop and leave limits bind units).
void search_leader(const Battle& b, const Position& p, int leader, bool occupancy, PathScratch& s) {
  s.prepare(b.board.cell_count());
  const int side = b.leaders[static_cast<std::size_t>(leader)].side;
  const int start = p.leaders[static_cast<std::size_t>(leader)].hex;
  std::size_t head = 0;
  s.reach(start, 0, -1, kExpand);
  while (head < static_cast<std::size_t>(s.visited)) {
    const int c = s.queue[head++];
    const int d = s.dist[static_cast<std::size_t>(c)];
    if (d >= kLeaderAllowance) continue;
    for (int dir = 0; dir < 6; ++dir) {
      const int n = b.board.neighbour(c, dir);
      if (n < 0 || s.seen(n)) continue;
      const TerrainType* t = b.terrain_at(n);
      if (t && t->blocks_leaders) continue;
      std::uint8_t f = kEndable | kExpand;
      if (occupancy) {
        int ou = p.unit_on(n), ol = p.leader_on(n);
        if (ou >= 0 && spec(b, ou).side != side) continue;
        if (ol >= 0 && b.leaders[static_cast<std::size_t>(ol)].side != side) continue;
        if (ol >= 0) f &= static_cast<std::uint8_t>(~kEndable);  // only one leader per hex
      }
      s.reach(n, d + 1, c, f);
    }
  }
}

}  // namespace

void PathScratch::prepare(int cells) {
  auto n = static_cast<std::size_t>(cells);
  if (stamp.size() != n) {
    stamp.assign(n, 0);
    dist.assign(n, 0);
    pred.assign(n, -1);
    flags.assign(n, 0);
    queue.assign(n, 0);
    generation = 0;
  }
  if (++generation == 0) {  // wrapped: clear the stamps once every 4 billion searches
    std::fill(stamp.begin(), stamp.end(), 0);
    generation = 1;
  }
  visited = 0;
}

int unit_allowance(const Battle& b, const Position& p, int unit, const TerrainType** limited_by) {
  const UnitState& st = p.units[static_cast<std::size_t>(unit)];
  if (st.moved || st.frozen) return 0;
  int allowance = b.unit_class(unit).max_move;
  if (const TerrainType* t = b.terrain_at(st.hex); t && t->leave_limit > 0 && in_mask(t->leave_limited, spec(b, unit).cls) &&
                                                    t->leave_limit < allowance) {
    allowance = t->leave_limit;
    if (limited_by) *limited_by = t;
  }
  return allowance;
}

void unit_destinations(const Battle& b, const Position& p, int unit, const MoveOptions& o, PathScratch& s,
                       std::vector<Destination>& out) {
  out.clear();
  SearchRules rules = unit_rules(b, p, unit, o);
  if (rules.allowance <= 0) return;
  search_unit(b, p, unit, rules, s);
  for (int i = 1; i < s.visited; ++i) {
    int h = s.queue[static_cast<std::size_t>(i)];
    auto hi = static_cast<std::size_t>(h);
    if (!(s.flags[hi] & kEndable)) continue;
    int hexes = s.dist[hi];
    if (!warrior_ok(b, p, unit, h, hexes)) continue;
    out.push_back(make_destination(b, p, unit, h, hexes, s.flags[hi]));
  }
}


std::optional<Destination> unit_destination(const Battle& b, const Position& p, int unit, int to, const MoveOptions& o,
                                            PathScratch& s, std::vector<int>* route) {
  const SearchRules rules = unit_rules(b, p, unit, o);
  if (rules.allowance <= 0) return std::nullopt;
  search_unit(b, p, unit, rules, s);
  const auto t = static_cast<std::size_t>(to);
  if (to == p.units[static_cast<std::size_t>(unit)].hex || !s.seen(to) || !(s.flags[t] & kEndable)) return std::nullopt;
  if (!warrior_ok(b, p, unit, to, s.dist[t])) return std::nullopt;
  if (route) *route = route_from(s, to);
  return make_destination(b, p, unit, to, s.dist[t], s.flags[t]);
}

std::vector<int> unit_route(const Battle& b, const Position& p, int unit, int to, const MoveOptions& o,
                            PathScratch& s) {
  std::vector<int> route;
  unit_destination(b, p, unit, to, o, s, &route);
  return route;
}

Verdict check_unit_move(const Battle& b, const Position& p, int unit, ColRow to_cr, const MoveOptions& o) {
  Verdict v;
  const UnitSpec& u = spec(b, unit);
  const UnitClass& c = b.unit_class(unit);
  const UnitState& st = p.units[static_cast<std::size_t>(unit)];
  // The words of a refusal, made only for one (a legal move reads none).
  const auto who = [&] { return fmt::format("{} {}", c.name, u.id); };
  if (!b.board.on_board(to_cr)) {
    v.add(ancients::rule_id::movement_off_board,
          fmt::format("{} would leave the board: {} is not a hex of the {}x{} board", who(), format_hex(to_cr),
                      b.board.columns(), b.board.rows()));
    return v;
  }
  const int to = b.board.index(to_cr);
  const auto there = [&] { return hex_name(b, to); };
  if (st.frozen) {
    v.add(ancients::rule_id::leader_attach_stops,
          fmt::format("{} was joined by a leader this turn and can move no further (it may still battle)", who()));
    return v;
  }
  if (st.moved) {
    v.add(ancients::rule_id::order_once, fmt::format("{} has already moved this turn", who()));
    return v;
  }
  if (to == st.hex) {
    v.add(ancients::rule_id::movement_allowance, fmt::format("{} is already on {}: staying is not a move", who(), there()));
    return v;
  }
  const TerrainType* limited = nullptr;
  const int allowance = unit_allowance(b, p, unit, &limited);
  PathScratch s;
  SearchRules rules = unit_rules(b, p, unit, o);
  search_unit(b, p, unit, rules, s);
  auto ti = static_cast<std::size_t>(to);
  const int distance = hex_distance(b.board.axial(st.hex), b.board.axial(to));
  if (s.seen(to) && (s.flags[ti] & kEndable)) {
    if (warrior_ok(b, p, unit, to, s.dist[ti])) return v;
    v.add(ancients::rule_id::movement_allowance,
          fmt::format("{} may move {} only to end adjacent to an enemy unit or leader, and {} is not", who(),
                      count_of(s.dist[ti], "hex", "hexes"), there()),
          {{"hexes", static_cast<double>(s.dist[ti]), "hexes"}, {"allowed without a charge", 1, "hexes"}});
    return v;
  }
  // Refused: name every reason found at the destination, then the route.
  const int ou = p.unit_on(to), ol = p.leader_on(to);
  if (ou >= 0)
    v.add(ancients::rule_id::movement_blocked,
          fmt::format("{} holds {}: {} may not move onto a hex with {} unit", spec(b, ou).id, there(), who(),
                      spec(b, ou).side == u.side ? "a friendly" : "an enemy"));
  if (ol >= 0 && b.leaders[static_cast<std::size_t>(ol)].side != u.side)
    v.add(ancients::rule_id::movement_blocked, fmt::format("enemy leader {} holds {}", b.leaders[static_cast<std::size_t>(ol)].id, there()));
  else if (ol >= 0 && ou < 0 && p.leader_of(unit) >= 0)
    v.add(ancients::rule_id::leader_one_per_hex,
          fmt::format("{} carries leader {} and {} already holds leader {}: only one leader may occupy a hex", who(),
                      b.leaders[static_cast<std::size_t>(p.leader_of(unit))].id, there(),
                      b.leaders[static_cast<std::size_t>(ol)].id));
  if (const TerrainType* t = b.terrain_at(to); t && in_mask(t->cannot_enter, u.cls))
    v.add(ancients::rule_id::movement_terrain, fmt::format("{} cannot enter {} ({})", who(), t->name, there()));
  if (distance > allowance) {
    if (limited)
      v.add(ancients::rule_id::movement_terrain,
            fmt::format("{} starts in {} and may move only {} when leaving; {} is {} away", who(), limited->name,
                        count_of(allowance, "hex", "hexes"), there(), count_of(distance, "hex", "hexes")),
            {{"distance", static_cast<double>(distance), "hexes"}, {"allowed", static_cast<double>(allowance), "hexes"}});
    else
      v.add(ancients::rule_id::movement_allowance,
            fmt::format("{} is {} away; {} moves at most {}", there(), count_of(distance, "hex", "hexes"), c.name,
                        count_of(allowance, "hex", "hexes")),
            {{"distance", static_cast<double>(distance), "hexes"}, {"allowed", static_cast<double>(allowance), "hexes"}});
  }
  if (!v.legal()) return v;
  // In reach by distance, yet not reached: something on the way. Search again
  // without units to tell occupancy from terrain.
  SearchRules free = rules;
  free.occupancy = false;
  search_unit(b, p, unit, free, s);
  if (s.seen(to)) {
    v.add(ancients::rule_id::movement_blocked,
          fmt::format("every route of at most {} from {} to {} passes through a hex held by another unit or an enemy "
                      "leader, or ends its move early on a lone friendly leader",
                      count_of(allowance, "hex", "hexes"), hex_name(b, st.hex), there()),
          {{"allowed", static_cast<double>(allowance), "hexes"}});
  } else {
    v.add(ancients::rule_id::movement_terrain,
          fmt::format("terrain stops or bars every route of at most {} from {} to {}", count_of(allowance, "hex", "hexes"),
                      hex_name(b, st.hex), there()),
          {{"allowed", static_cast<double>(allowance), "hexes"}});
  }
  return v;
}

std::string battle_reason(const Battle& b, const Position& p, int unit, const Destination& d) {
  (void)p;
  const UnitClass& c = b.unit_class(unit);
  switch (d.no_battle) {
    case NoBattle::war_machine_moved: return fmt::format("a {} may not battle when it moves", c.name);
    case NoBattle::auxilia_two_hexes: return "auxilia may battle after moving 1 hex, not 2";
    case NoBattle::terrain: {
      const TerrainType* t = b.terrain_at(d.hex);
      return fmt::format("{} may not battle on the turn it enters {}", c.name, t ? t->name : "this terrain");
    }
    default: break;
  }
  if (d.close_combat_compulsory) return "a warrior that moves 2 hexes must close combat";
  return fmt::format("{} may battle after moving {} hex{}", c.name, d.hexes, d.hexes == 1 ? "" : "es");
}

void leader_destinations(const Battle& b, const Position& p, int leader, PathScratch& s, std::vector<Destination>& out) {
  out.clear();
  search_leader(b, p, leader, true, s);
  for (int i = 1; i < s.visited; ++i) {
    int h = s.queue[static_cast<std::size_t>(i)];
    auto hi = static_cast<std::size_t>(h);
    if (!(s.flags[hi] & kEndable)) continue;
    Destination d;
    d.hex = h;
    d.hexes = s.dist[hi];
    d.may_battle = false;  // a lone leader does not battle; joining a unit is reported below
    d.no_battle = NoBattle::none;
    out.push_back(d);
  }
}

std::vector<int> leader_route(const Battle& b, const Position& p, int leader, int to, PathScratch& s) {
  search_leader(b, p, leader, true, s);
  auto t = static_cast<std::size_t>(to);
  if (to == p.leaders[static_cast<std::size_t>(leader)].hex || !s.seen(to) || !(s.flags[t] & kEndable)) return {};
  return route_from(s, to);
}

Verdict check_leader_move(const Battle& b, const Position& p, int leader, ColRow to_cr) {
  Verdict v;
  const LeaderSpec& l = b.leaders[static_cast<std::size_t>(leader)];
  const LeaderState& st = p.leaders[static_cast<std::size_t>(leader)];
  std::string who = "leader " + l.id;
  if (!b.board.on_board(to_cr)) {
    v.add(ancients::rule_id::leader_off_board,
          fmt::format("{} would leave the board at {}: leaders leave only by evading or escaping, which movement does not allow",
                      who, format_hex(to_cr)));
    return v;
  }
  const int to = b.board.index(to_cr);
  const std::string there = hex_name(b, to);
  if (to == st.hex) {
    v.add(ancients::rule_id::leader_allowance, fmt::format("{} is already on {}: staying is not a move", who, there));
    return v;
  }
  const int ou = p.unit_on(to), ol = p.leader_on(to);
  if (ou >= 0 && spec(b, ou).side != l.side)
    v.add(ancients::rule_id::leader_blocked, fmt::format("enemy unit {} holds {}", spec(b, ou).id, there));
  if (ol >= 0 && b.leaders[static_cast<std::size_t>(ol)].side != l.side)
    v.add(ancients::rule_id::leader_blocked, fmt::format("enemy leader {} holds {}", b.leaders[static_cast<std::size_t>(ol)].id, there));
  else if (ol >= 0)
    v.add(ancients::rule_id::leader_one_per_hex,
          fmt::format("friendly leader {} already holds {}: a leader may not end on another leader",
                      b.leaders[static_cast<std::size_t>(ol)].id, there));
  if (const TerrainType* t = b.terrain_at(to); t && t->blocks_leaders)
    v.add(ancients::rule_id::movement_terrain, fmt::format("{} is {}, which leaders cannot enter", there, t->name));
  const int distance = hex_distance(b.board.axial(st.hex), b.board.axial(to));
  if (distance > kLeaderAllowance)
    v.add(ancients::rule_id::leader_allowance, fmt::format("{} is {} away; a lone leader moves at most {}", there, count_of(distance, "hex", "hexes"),
                      count_of(kLeaderAllowance, "hex", "hexes")),
          {{"distance", static_cast<double>(distance), "hexes"}, {"allowed", kLeaderAllowance, "hexes"}});
  if (!v.legal()) return v;
  PathScratch s;
  search_leader(b, p, leader, true, s);
  if (s.seen(to) && (s.flags[static_cast<std::size_t>(to)] & kEndable)) return v;
  search_leader(b, p, leader, false, s);
  if (s.seen(to))
    v.add(ancients::rule_id::leader_blocked,
          fmt::format("every route of at most {} from {} to {} passes through an enemy unit or leader",
                      count_of(kLeaderAllowance, "hex", "hexes"),
                      hex_name(b, st.hex), there));
  else
    v.add(ancients::rule_id::movement_terrain,
          fmt::format("impassable terrain bars every route of at most {} from {} to {}",
                      count_of(kLeaderAllowance, "hex", "hexes"),
                      hex_name(b, st.hex), there));
  return v;
}

nlohmann::json destination_json(const Battle& b, const Position& p, int unit, const Destination& d) {
  nlohmann::json j{{"hex", hex_json(b.board, d.hex)}, {"hexes", d.hexes}};
  if (unit >= 0) {
    j["may_battle"] = d.may_battle;
    j["close_combat_compulsory"] = d.close_combat_compulsory;
    j["battle_reason"] = battle_reason(b, p, unit, d);
    j["stops"] = d.stops;
    if (d.attaches_leader >= 0) j["leader_attaches"] = b.leaders[static_cast<std::size_t>(d.attaches_leader)].id;
  } else {
    int ou = p.unit_on(d.hex);
    if (ou >= 0) j["attaches_to"] = b.units[static_cast<std::size_t>(ou)].id;
  }
  return j;
}

}  // namespace referee::ancients
