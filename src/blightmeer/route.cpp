#include "referee/blightmeer/route.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>

#include <fmt/format.h>

#include "referee/core/errors.hpp"

namespace referee::blightmeer {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// What one unit may do on the shared graph. Blocking units and occupied
// landing spots are marked on the grid once per question.
struct UnitView {
  const Terrain& t;
  const State& s;
  const NavGraph& g;
  int self = -1;
  const Unit* u = nullptr;
  bool sinks = false;
  std::vector<const Unit*> blockers;   // enemies, and allies that cannot be passed
  std::vector<std::uint8_t> near;      // node may have a walk edge that touches a blocker
  std::vector<std::uint8_t> occupied;  // a unit stands on this node

  UnitView(const Terrain& tt, const State& ss, const std::string& id) : t(tt), s(ss), g(*tt.nav) {
    self = s.find(id);
    if (self < 0) throw InputError("unit", fmt::format("no unit \"{}\" on the battlefield", id));
    u = &s.units[static_cast<std::size_t>(self)];
    sinks = armour_sinks(t.settings, u->armour);
    near.assign(g.nodes.size() + 2, 0);
    occupied.assign(g.nodes.size() + 2, 0);
    for (std::size_t i = 0; i < s.units.size(); ++i) {
      const Unit& o = s.units[i];
      if (static_cast<int>(i) == self || o.incapacitated) continue;
      bool blocks = o.side != u->side || !o.engaged_with.empty() || o.disabled();
      if (blocks) blockers.push_back(&o);
      mark(o, blocks);
    }
  }

  void mark(const Unit& o, bool blocks) {
    const double touch = u->radius() + o.radius();
    const double reach = touch + 2.4;
    const int grid = g.nx * g.ny;
    if (grid == 0) return;
    auto consider = [&](int n) {
      const Vec3 p = g.nodes[static_cast<std::size_t>(n)].p;
      if (std::isnan(p.z) || std::abs(p.z - o.pos.z) >= 0.5) return;
      double d = distance(p.xy(), o.pos.xy());
      if (d < touch - kEps) occupied[static_cast<std::size_t>(n)] = 1;
      if (blocks && d < reach) near[static_cast<std::size_t>(n)] = 1;
    };
    // Only the square around the unit: its cells, and the other nodes by the cell they lie in.
    const int i0 = g.cell_of(o.pos.x - reach - 1, g.nx), i1 = g.cell_of(o.pos.x + reach + 1, g.nx);
    const int j0 = g.cell_of(o.pos.y - reach - 1, g.ny), j1 = g.cell_of(o.pos.y + reach + 1, g.ny);
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        const int c = j * g.nx + i;
        consider(c);
        for (int k = g.extra_first[static_cast<std::size_t>(c)]; k < g.extra_first[static_cast<std::size_t>(c) + 1]; ++k)
          consider(g.extra[static_cast<std::size_t>(k)]);
      }
  }

  bool walk_blocked(Vec3 a, Vec3 b) const {
    Segment seg{a.xy(), b.xy()};
    for (const Unit* o : blockers)
      if (std::abs(o->pos.z - a.z) < 0.5 && distance(o->pos.xy(), seg) < u->radius() + o->radius() - kEps) return true;
    return false;
  }

  // Can the unit take this edge, and does it need a check?
  bool usable(int from, const NavEdge& e, Vec3 a, Vec3 b, bool& needs_check) const {
    needs_check = false;
    if (sinks && (e.bits & kDeep)) return false;
    switch (e.kind) {
      case EdgeKind::walk:
        // The question's own start and destination nodes are not marked: always test them.
        if ((near[static_cast<std::size_t>(from)] || near[static_cast<std::size_t>(e.to)] ||
             from >= static_cast<int>(g.nodes.size()) || e.to >= static_cast<int>(g.nodes.size())) &&
            walk_blocked(a, b))
          return false;
        return true;
      case EdgeKind::ladder: needs_check = u->animal; break;
      case EdgeKind::jump_across:
        if (e.measure > u->jump_across_reach + kEps || e.rise > 1 + kEps) return false;
        needs_check = !(e.measure <= t.settings.free_jump_gap + kEps);
        break;
      default: needs_check = true;
    }
    return !occupied[static_cast<std::size_t>(e.to)];
  }
};

// The question's own nodes: the unit's start (index N) and, for a route, the
// destination (N + 1). Their edges are found with the same rules as the graph's.
struct Extras {
  std::vector<NavEdge> from_start;
  std::vector<std::vector<NavEdge>> to_goal;  // per node: its edges to the destination
  std::vector<int> goal_from;                 // nodes that have one
};

void nodes_around(const NavGraph& g, Vec2 c, double r, const std::function<void(int)>& f) {
  if (g.nx <= 0 || g.ny <= 0) return;
  const int i0 = g.cell_of(c.x - r, g.nx), i1 = g.cell_of(c.x + r, g.nx);
  const int j0 = g.cell_of(c.y - r, g.ny), j1 = g.cell_of(c.y + r, g.ny);
  for (int j = j0; j <= j1; ++j)
    for (int i = i0; i <= i1; ++i)
      if (g.valid(j * g.nx + i)) f(j * g.nx + i);
  // Ladder ends and boundary nodes, by the cell they lie in.
  for (int j = j0; j <= j1; ++j)
    for (int i = i0; i <= i1; ++i) {
      const auto c0 = static_cast<std::size_t>(j * g.nx + i);
      for (int k = g.extra_first[c0]; k < g.extra_first[c0 + 1]; ++k) {
        const int n = g.extra[static_cast<std::size_t>(k)];
        if (distance(g.nodes[static_cast<std::size_t>(n)].p.xy(), c) <= r) f(n);
      }
    }
}

Extras make_extras(const UnitView& v, Vec3 start, const Vec3* goal) {
  Extras x;
  const NavGraph& g = v.g;
  const int N = static_cast<int>(g.nodes.size());
  const double r = std::max({2.3, v.t.settings.jump_down_range, g.max_reach});
  // Straight walks from the start and to the destination reach every ladder
  // end and boundary node within kEndpointWalk, so a short leg that ends
  // where a climb or a jump starts is never a grid zig-zag; cells are joined
  // within 2.3 in as the grid's own walks are (plain walks are straightened
  // afterwards).
  const int grid = g.nx * g.ny;
  auto walk_to = [&](int n) { return n < grid ? 2.3 : kEndpointWalk; };
  // A boundary node changes level only across its own side: a climb or jump
  // from the start (or to the destination) that would cross it the wrong way
  // has a cheaper twin at another node, and is not scanned for.
  auto crosses_right_way = [&](int n, Vec3 q) {
    const NavNode& nd = g.nodes[static_cast<std::size_t>(n)];
    if (nd.kind == NodeKind::cell || nd.kind == NodeKind::ladder_end || std::abs(q.z - nd.p.z) < kEps) return true;
    const double side = dot(q.xy() - nd.p.xy(), nd.out);  // > 0: q lies on the foot's side
    if (nd.kind == NodeKind::top) return q.z > nd.p.z || side > 0;
    return q.z < nd.p.z || side < 0;
  };
  nodes_around(g, start.xy(), r, [&](int n) {
    if (crosses_right_way(n, start))
      edges_between(v.t, start, g.nodes[static_cast<std::size_t>(n)].p, n, walk_to(n), x.from_start);
  });
  if (goal) {
    x.to_goal.resize(static_cast<std::size_t>(N + 1));
    nodes_around(g, goal->xy(), r, [&](int n) {
      auto& list = x.to_goal[static_cast<std::size_t>(n)];
      if (!crosses_right_way(n, *goal)) return;
      edges_between(v.t, g.nodes[static_cast<std::size_t>(n)].p, *goal, N + 1, walk_to(n), list);
      if (!list.empty()) x.goal_from.push_back(n);
    });
    edges_between(v.t, start, *goal, N + 1, 1e9, x.to_goal[static_cast<std::size_t>(N)]);
  }
  return x;
}

Vec3 node_pos(const UnitView& v, int n, Vec3 start, Vec3 goal) {
  const int N = static_cast<int>(v.g.nodes.size());
  if (n == N) return start;
  if (n == N + 1) return goal;
  return v.g.nodes[static_cast<std::size_t>(n)].p;
}

// Calls f(edge) for every edge out of node n.
template <class F>
void for_edges(const UnitView& v, const Extras& x, int n, F&& f) {
  const int N = static_cast<int>(v.g.nodes.size());
  if (n < N) {
    for (int k = v.g.first[static_cast<std::size_t>(n)]; k < v.g.first[static_cast<std::size_t>(n) + 1]; ++k)
      f(v.g.edges[static_cast<std::size_t>(k)]);
  } else if (n == N) {
    for (const NavEdge& e : x.from_start) f(e);
  }
  if (!x.to_goal.empty() && n <= N)
    for (const NavEdge& e : x.to_goal[static_cast<std::size_t>(n)]) f(e);
}

struct Pred {
  int state = -1;
  EdgeKind kind = EdgeKind::walk;
  int ladder = -1;
};

// Dijkstra over (node, crossed-difficult) states with flat arrays. Crossing
// difficult ground or water the first time adds the 2-inch penalty once
// (blightmeer.terrain.difficult), so comparing costs with the penalty in them
// is the same as comparing against the reduced allowance.
struct RouteSearch {
  std::vector<double> cost;
  std::vector<Pred> pred;
  int goal_state = -1;
};

// A* in fact: every edge costs at least the horizontal distance it covers
// (walks and jumps exactly that, climbs and ladders more), so the straight
// line to the destination is a consistent lower bound and the search still
// returns the cheapest route while looking at far fewer states.
RouteSearch search_route(const UnitView& v, const Extras& x, Vec3 start, Vec3 goal, bool allow_checks) {
  const int N = static_cast<int>(v.g.nodes.size());
  RouteSearch r;
  r.cost.assign(static_cast<std::size_t>(2 * (N + 2)), kInf);
  r.pred.assign(r.cost.size(), Pred{});
  using QE = std::pair<double, int>;  // (cost so far + straight line to the goal, state)
  std::priority_queue<QE, std::vector<QE>, std::greater<QE>> q;
  auto h = [&](const Vec3& p) { return distance(p.xy(), goal.xy()); };
  r.cost[static_cast<std::size_t>(2 * N)] = 0;
  q.push({h(start), 2 * N});
  while (!q.empty()) {
    const double f = q.top().first;
    const int st = q.top().second;
    q.pop();
    int n = st / 2, flag = st % 2;
    Vec3 a = node_pos(v, n, start, goal);
    const double c = r.cost[static_cast<std::size_t>(st)];
    if (f > c + h(a) + 1e-9) continue;  // a stale entry
    if (n == N + 1) {
      r.goal_state = st;
      break;
    }
    for_edges(v, x, n, [&](const NavEdge& e) {
      bool check;
      Vec3 b = node_pos(v, e.to, start, goal);
      if (!v.usable(n, e, a, b, check) || (check && !allow_checks)) return;
      int nflag = flag | (slows(e.bits) ? 1 : 0);
      double nc = c + e.cost + (nflag && !flag ? 2.0 : 0.0);
      int ns = 2 * e.to + nflag;
      if (nc < r.cost[static_cast<std::size_t>(ns)] - 1e-9) {
        r.cost[static_cast<std::size_t>(ns)] = nc;
        r.pred[static_cast<std::size_t>(ns)] = {st, e.kind, e.ladder};
        q.push({nc + h(b), ns});
      }
    });
  }
  return r;
}

struct Hop {
  EdgeKind kind;
  int ladder;
  Vec3 to;
};

// Grid walks zig-zag; a straight walk between two points of a run is shorter
// and is used when it is still a legal walk that touches no new slow ground
// and no blocking unit (string pulling, greedy from each anchor).
std::vector<Hop> smooth(const UnitView& v, Vec3 start, const std::vector<Hop>& hops) {
  std::vector<Hop> out;
  Vec3 anchor = start;
  std::size_t i = 0;
  while (i < hops.size()) {
    if (hops[i].kind != EdgeKind::walk) {
      out.push_back(hops[i]);
      anchor = hops[i].to;
      ++i;
      continue;
    }
    unsigned bits = 0;
    Vec3 prev = anchor;
    std::size_t best = i;
    unsigned run_bits = v.t.scan(prev.xy(), hops[i].to.xy(), prev.z).bits;
    for (std::size_t k = i + 1; k < hops.size() && hops[k].kind == EdgeKind::walk; ++k) {
      run_bits |= v.t.scan(hops[k - 1].to.xy(), hops[k].to.xy(), anchor.z).bits;
      auto sc = v.t.scan(anchor.xy(), hops[k].to.xy(), anchor.z);
      bool ok = !sc.impassable && !sc.leaves_table && sc.min_level > anchor.z - kEps && sc.max_level < anchor.z + kEps &&
                (sc.bits & ~run_bits & (kDifficult | kShallow | kDeep)) == 0 && !v.walk_blocked(anchor, hops[k].to);
      if (!ok) break;
      best = k;
      bits = sc.bits;
    }
    (void)bits;
    out.push_back(hops[best]);
    anchor = hops[best].to;
    i = best + 1;
  }
  return out;
}

// The hops of a search as a move request (a walk that goes nowhere is dropped).
MoveRequest to_request(const UnitView& v, Vec3 start, const std::vector<Hop>& hops, bool run) {
  MoveRequest m;
  m.unit = v.u->id;
  m.run = run;
  Vec3 at = start;
  for (const Hop& h : hops) {
    bool same = distance(h.to.xy(), at.xy()) < 1e-9 && std::abs(h.to.z - at.z) < kEps;
    at = h.to;
    if (same && h.kind == EdgeKind::walk) continue;
    Step s;
    s.to = h.to.xy();
    s.to_z = h.to.z;
    switch (h.kind) {
      case EdgeKind::walk: s.type = StepType::walk; s.to_z.reset(); break;
      case EdgeKind::climb: s.type = StepType::climb; break;
      case EdgeKind::ladder:
        s.type = StepType::ladder;
        s.ladder = v.t.ladders[static_cast<std::size_t>(h.ladder)].id;
        s.has_to = false;
        s.to_z.reset();
        break;
      case EdgeKind::jump_down: s.type = StepType::jump_down; break;
      case EdgeKind::jump_across: s.type = StepType::jump_across; break;
    }
    m.path.push_back(s);
  }
  return m;
}

RouteOption make_option(const UnitView& v, const RouteSearch& r, Vec3 start, Vec3 goal, bool run) {
  RouteOption o;
  if (r.goal_state < 0) return o;
  o.found = true;
  o.search_cost = r.cost[static_cast<std::size_t>(r.goal_state)];
  std::vector<Hop> hops;
  for (int st = r.goal_state; r.pred[static_cast<std::size_t>(st)].state >= 0; st = r.pred[static_cast<std::size_t>(st)].state) {
    const Pred& p = r.pred[static_cast<std::size_t>(st)];
    hops.push_back({p.kind, p.ladder, node_pos(v, st / 2, start, goal)});
  }
  std::reverse(hops.begin(), hops.end());
  hops = smooth(v, start, hops);
  o.request = to_request(v, start, hops, run);
  o.report = check_move(v.t, v.s, o.request);
  return o;
}

Vec3 checked_destination(const Terrain& t, Vec3 to) {
  if (!std::isfinite(to.x) || !std::isfinite(to.y) || std::isinf(to.z)) throw InputError("to", "not a finite position");
  if (!t.on_table(to.xy())) throw InputError("to", fmt::format("({:.1f}, {:.1f}) is off the table", to.x, to.y));
  if (t.in_impassable(to.xy())) throw InputError("to", "the destination is in impassable terrain");
  double lvl = t.level_at(to.xy());
  if (std::isnan(to.z)) to.z = lvl;
  if (std::abs(to.z - lvl) > kPlaceTolerance)
    throw InputError("to", fmt::format("height {:.1f} in is not a level at ({:.1f}, {:.1f}); the level there is {:.1f} in",
                                       to.z, to.x, to.y, lvl));
  to.z = lvl;
  return to;
}

}  // namespace

namespace {

// Where on the segment a + t (b - a), t in [lo, hi] within [0, 1], the walk
// p -> e -> q is shortest: |p - e| + |e - q| is convex in t, so it is the
// line's own minimiser (where p -> q meets the line, or p -> q reflected in
// it when both lie on one side) clamped to the interval.
double best_on_segment(Vec2 a, Vec2 b, Vec2 p, Vec2 q, double lo = 0, double hi = 1) {
  const Vec2 d = b - a;
  const double len2 = dot(d, d);
  const double tp = dot(p - a, d) / len2, tq = dot(q - a, d) / len2;
  const double sp = std::abs(cross(d, p - a)), sq = std::abs(cross(d, q - a));
  const double t = sp + sq < 1e-15 ? (tp + tq) / 2 : tp + (tq - tp) * sp / (sp + sq);
  return std::clamp(t, lo, hi);
}

// Golden-section search for the least of a convex function on [lo, hi].
template <class F>
double golden_min(double lo, double hi, F&& f, int iterations = 64) {
  constexpr double r = 0.6180339887498949;
  double x1 = hi - r * (hi - lo), x2 = lo + r * (hi - lo);
  double f1 = f(x1), f2 = f(x2);
  for (int i = 0; i < iterations && hi - lo > 1e-13; ++i) {
    if (f1 <= f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - r * (hi - lo);
      f1 = f(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + r * (hi - lo);
      f2 = f(x2);
    }
  }
  return f1 <= f2 ? x1 : x2;
}

// The lips of the shortest walk p -> e1, jump e1 -> e2 (at most `len`), walk
// e2 -> q, with e1 on side s1 and e2 on side s2. The feasible set is convex and
// the length convex in (e1, e2), so its least over e2 for a given e1 (the
// closed form above, on the part of s2 within `len` of e1) is convex in e1's
// place along s1, found by golden section on the part of s1 within `len` of s2.
bool best_lips(const NavPortal& s1, const NavPortal& s2, Vec2 p, Vec2 q, double len, Vec2& e1, Vec2& e2) {
  const Vec2 u1 = s1.b - s1.a, u2 = s2.b - s2.a;
  const Segment seg2{s2.a, s2.b};
  auto at1 = [&](double t) { return s1.a + u1 * t; };
  auto gap = [&](double t) { return distance(at1(t), seg2); };
  const double tmin = golden_min(0, 1, gap);
  if (gap(tmin) > len) return false;
  auto edge = [&](double in, double outside) {  // gap(in) <= len < gap(outside)
    for (int i = 0; i < 60; ++i) {
      const double m = (in + outside) / 2;
      (gap(m) <= len ? in : outside) = m;
    }
    return in;
  };
  const double lo = gap(0) <= len ? 0 : edge(tmin, 0), hi = gap(1) <= len ? 1 : edge(tmin, 1);
  // The part of s2 within `len` of a: a quadratic in t2.
  auto window = [&](Vec2 a, double& l2, double& h2) {
    const double A = dot(u2, u2), B = dot(u2, s2.a - a), C = length_squared(s2.a - a) - len * len;
    const double disc = B * B - A * C;
    if (disc < 0) {
      l2 = h2 = std::clamp(-B / A, 0.0, 1.0);
      return;
    }
    const double r = std::sqrt(disc);
    l2 = std::clamp((-B - r) / A, 0.0, 1.0);
    h2 = std::clamp((-B + r) / A, 0.0, 1.0);
    if (l2 > h2) l2 = h2 = std::clamp(-B / A, 0.0, 1.0);
  };
  auto second = [&](Vec2 a) {
    double l2, h2;
    window(a, l2, h2);
    return s2.a + u2 * best_on_segment(s2.a, s2.b, a, q, l2, h2);
  };
  const double t1 = golden_min(lo, hi, [&](double t) {
    const Vec2 a = at1(t), b = second(a);
    return distance(p, a) + distance(a, b) + distance(b, q);
  });
  e1 = at1(t1);
  e2 = second(e1);
  return true;
}

struct ReachPred {
  int state = -1;
  EdgeKind kind = EdgeKind::walk;
  int ladder = -1;
};

// A cell state set after the search: from an anchor state (the start, a
// ladder end or a boundary node), up to three hops.
struct Finish {
  int anchor = -1;
  int count = 0;
  Hop hops[3];
};

// Offsets that put a point on a side firmly on one side of it: inside a
// footprint by as little as the boundary nodes' tops, outside by a little more.
constexpr double kLipIn = 1e-7;
constexpr double kLipOut = 1e-6;

// A straight walk on one level, as check_move judges it: the level stays the
// same, nothing impassable, on the table, no blocking unit, and no deep water
// for a unit whose armour sinks. Adds the regions crossed to `bits`.
bool straight_walk(const UnitView& v, Vec3 from, Vec2 to, unsigned& bits) {
  if (distance(from.xy(), to) < 1e-12) return true;
  auto sc = v.t.scan(from.xy(), to, from.z);
  if (sc.impassable || sc.leaves_table || sc.min_level < from.z - kEps || sc.max_level > from.z + kEps) return false;
  if ((v.sinks && (sc.bits & kDeep)) || v.walk_blocked(from, {to.x, to.y, from.z})) return false;
  bits |= sc.bits;
  return true;
}

// One exact crossing: a straight walk from an anchor to `from` on the
// anchor's level, a climb, jump down or jump across to `to`, and a straight
// walk to the target.
struct Crossing {
  Hop hops[3];
  int checks = 1;
  double cost = 0;    // inches, without any difficult-ground penalty
  unsigned bits = 0;  // regions crossed
};

// check_move's rules for that move, given that the anchor pa was reached legally.
bool test_crossing(const UnitView& v, Vec3 pa, Vec2 from, Vec2 to, EdgeKind kind, Vec3 pm, Crossing& out) {
  const Terrain& t = v.t;
  const Settings& st = t.settings;
  if (std::abs(t.level_at(from) - pa.z) > kEps) return false;
  const double lz = t.level_at(to);
  if (t.in_impassable(to) || (kind != EdgeKind::walk && std::abs(lz - pm.z) > kEps)) return false;
  const double hop = distance(from, to);
  unsigned bits = 0;
  if (!straight_walk(v, pa, from, bits)) return false;
  int checks = 1;
  double vertical = 0;
  if (kind == EdgeKind::climb) {
    if (lz < pa.z + kEps || hop > st.climb_leeway + kEps) return false;
    auto sc = t.scan(from, to, lz);
    if (sc.impassable || sc.unclimbable_wall || sc.leaves_table) return false;
    vertical = lz - pa.z;
  } else if (kind == EdgeKind::jump_down) {
    if (lz > pa.z - kEps || hop > st.jump_down_range + kEps) return false;
    auto sc = t.scan(from, to, lz);
    if (sc.impassable || sc.leaves_table || sc.max_level > pa.z + kEps) return false;
  } else {
    if (lz - pa.z > 1 + kEps || hop > v.u->jump_across_reach + kEps) return false;
    auto sc = t.scan(from, to, lz);
    if (sc.impassable || sc.leaves_table || sc.max_level > std::max(pa.z, lz) + kEps) return false;
    if (hop <= st.free_jump_gap + kEps) checks = 0;
  }
  const unsigned landing = t.regions_at(to, lz);
  if (v.sinks && (landing & kDeep)) return false;
  bits |= landing;
  const Vec3 at{to.x, to.y, lz};
  if (overlapping_unit(v.s, v.self, at, v.u->radius()) >= 0 || !straight_walk(v, at, pm.xy(), bits)) return false;
  out.hops[0] = {EdgeKind::walk, -1, {from.x, from.y, pa.z}};
  out.hops[1] = {kind, -1, at};
  out.hops[2] = {EdgeKind::walk, -1, pm};
  out.checks = checks;
  // Summed in path order, as check_move sums its steps.
  out.cost = distance(pa.xy(), from) + (hop + vertical) + distance(to, pm.xy());
  out.bits = bits;
  return true;
}

// Calls f(crossing) for the shortest legal crossing from pa to pm over each
// footprint side (a climb up onto its surface or a jump down off it) and over
// each pair of facing sides (a jump across, free within the free gap, or a
// jump down onto a lower roof), skipping those whose straight-line bound
// exceeds r or that need more than max_checks checks (0 or 1).
template <class F>
void exact_crossings(const UnitView& v, Vec3 pa, Vec3 pm, double r, int max_checks, F&& f) {
  const NavGraph& g = v.g;
  const Terrain& t = v.t;
  const Vec2 p = pa.xy(), q = pm.xy();
  if (distance(p, q) > r || max_checks < 0) return;
  auto height = [&](const NavPortal& s) { return t.surfaces[static_cast<std::size_t>(s.surface)].height; };
  auto bound = [&](const NavPortal& s) { const Segment seg{s.a, s.b}; return distance(p, seg) + distance(q, seg); };
  Crossing c;
  if (max_checks >= 1)
    for (const NavPortal& s : g.portals) {
      const double h = height(s);
      const bool up = h > pa.z + kEps && std::abs(pm.z - h) < kEps;
      if (!up && !(std::abs(h - pa.z) < kEps && pm.z < pa.z - kEps)) continue;
      if (bound(s) + (up ? h - pa.z : 0) > r) continue;
      // The crossing point, kept off the corners; `from` on pa's side of the side, `to` on pm's.
      const double len = distance(s.a, s.b), margin = std::min(0.5, kLipOut / len);
      const Vec2 e = s.a + (s.b - s.a) * best_on_segment(s.a, s.b, p, q, margin, 1 - margin);
      const Vec2 from = up ? e + s.out * kLipOut : e - s.out * kLipIn;
      const Vec2 to = up ? e - s.out * kLipIn : e + s.out * kLipOut;
      if (test_crossing(v, pa, from, to, up ? EdgeKind::climb : EdgeKind::jump_down, pm, c)) f(c);
    }
  if (pa.z < kEps || pm.z < kEps) return;
  const Settings& st = t.settings;
  const double jump_reach = std::min(v.u->jump_across_reach, std::max(g.max_reach, st.jump_across_reach));
  for (const auto& [i1, i2] : g.jump_pairs) {
    const NavPortal& s1 = g.portals[static_cast<std::size_t>(i1)];
    const NavPortal& s2 = g.portals[static_cast<std::size_t>(i2)];
    if (std::abs(height(s1) - pa.z) > kEps || std::abs(height(s2) - pm.z) > kEps) continue;
    if (distance(p, Segment{s1.a, s1.b}) + closest_points(Segment{s1.a, s1.b}, Segment{s2.a, s2.b}).distance +
            distance(q, Segment{s2.a, s2.b}) > r)
      continue;
    struct Way {
      double len;
      EdgeKind kind;
      int checks;
    };
    Way ways[3];
    int n = 0;
    if (pm.z - pa.z <= 1 + kEps) {
      ways[n++] = {st.free_jump_gap, EdgeKind::jump_across, 0};
      if (jump_reach > st.free_jump_gap) ways[n++] = {jump_reach, EdgeKind::jump_across, 1};
    }
    if (pm.z < pa.z - kEps) ways[n++] = {st.jump_down_range, EdgeKind::jump_down, 1};
    for (int w = 0; w < n; ++w) {
      if (ways[w].checks > max_checks) continue;
      // The lips move kLipIn into their footprints, so the jump is at most
      // 2 kLipIn longer than solved for: within check_move's tolerance.
      Vec2 e1, e2;
      if (!best_lips(s1, s2, p, q, ways[w].len + 2 * kLipIn, e1, e2)) continue;
      if (test_crossing(v, pa, e1 - s1.out * kLipIn, e2 - s2.out * kLipIn, ways[w].kind, pm, c)) f(c);
    }
  }
}

}  // namespace

RouteAnswer best_route(const Terrain& t, const State& s, const std::string& unit, Vec3 to, bool run) {
  UnitView v(t, s, unit);
  Vec3 goal = checked_destination(t, to);
  Vec3 start = v.u->pos;
  Extras x = make_extras(v, start, &goal);
  RouteAnswer a;
  a.unit = unit;
  a.to = goal;
  a.run = run;
  a.safe = make_option(v, search_route(v, x, start, goal, false), start, goal, run);
  RouteSearch any = search_route(v, x, start, goal, true);
  if (any.goal_state >= 0 && (!a.safe.found || any.cost[static_cast<std::size_t>(any.goal_state)] < a.safe.search_cost - 1e-6))
    a.risky = make_option(v, any, start, goal, run);
  // The search crosses a side only at its boundary nodes: the exact crossing
  // from the start straight to the destination replaces an option it beats.
  auto spent = [](const RouteOption& o) { return o.report.spent + o.report.allowance.penalty; };
  exact_crossings(v, start, goal, kInf, 1, [&](const Crossing& c) {
    RouteOption o;
    o.found = true;
    o.request = to_request(v, start, {c.hops, c.hops + 3}, run);
    o.report = check_move(t, s, o.request);
    o.search_cost = spent(o);
    RouteOption& slot = c.checks == 0 ? a.safe : a.risky;
    if (o.report.complete && (!slot.found || spent(o) < spent(slot) - 1e-9)) slot = std::move(o);
  });
  if (a.risky.found && a.safe.found && spent(a.risky) >= spent(a.safe) - 1e-6) a.risky = RouteOption{};
  return a;
}

TurnSplit split_by_turn(const MoveReport& r) {
  TurnSplit out;
  const double full = r.allowance.base * r.allowance.multiplier;
  TurnLeg leg;
  leg.allowance = full;
  leg.stop = r.steps.empty() ? r.final_pos : r.steps.front().from;
  leg.first_step = r.steps.empty() ? 0 : r.steps.front().index;
  auto close = [&](Vec3 stop, int last, bool mid) {
    leg.stop = stop;
    leg.last_step = last;
    leg.mid_step = mid;
    out.legs.push_back(leg);
    TurnLeg next;
    next.turn = leg.turn + 1;
    next.allowance = full;
    next.first_step = mid ? last : last + 1;
    next.stop = stop;
    leg = next;
  };
  for (const StepReport& st : r.steps) {
    double left = st.cost;
    Vec3 from = st.from;
    while (true) {
      // Difficult ground or water in this turn's part costs the turn 2 in.
      const double budget = leg.allowance - (slows(st.bits) ? 2.0 : 0.0);
      if (leg.spent + left <= budget + kEps) {
        leg.spent += left;
        if (slows(st.bits)) leg.allowance = budget;
        leg.stop = st.to;
        leg.last_step = st.index;
        break;
      }
      const double room = budget - leg.spent;
      if (st.type == StepType::walk && room > kEps) {
        // Stop part-way along the walk, where this turn's inches run out.
        const double f = room / left;
        const Vec3 stop{from.x + (st.to.x - from.x) * f, from.y + (st.to.y - from.y) * f, st.to.z};
        leg.spent += room;
        if (slows(st.bits)) leg.allowance = budget;
        close(stop, st.index, true);
        left -= room;
        from = stop;
        continue;
      }
      if (leg.spent <= kEps) {  // a whole turn cannot hold this step
        out.possible = false;
        out.blocking_step = st.index;
        out.legs.push_back(leg);
        return out;
      }
      close(from, st.index - 1, false);
    }
  }
  if (leg.spent > kEps || out.legs.empty()) {
    leg.last_step = std::max(leg.last_step, leg.first_step);
    out.legs.push_back(leg);
  }
  return out;
}

// Reach: Dijkstra over (node, crossed-difficult, checks so far) with checks
// capped at 3, pruned at the allowance. A node's class is the fewest checks
// among the states that fit the allowance. Then two finishing passes from the
// start, the ladder ends and every boundary node a climb, ladder or jump
// landed on (the anchors): straight walks to the cells around, and exact
// crossings (a climb up or a jump down across one side, or a jump across
// between two facing sides, each at the exact point, between straight walks)
// to cells the search left out or reached with more checks. Every crossing is
// tested with the rules check_move applies, so each cell's move is one check
// accepts.
namespace {

// A state of the search: node n, whether the move crossed difficult ground
// (`flag`), and the checks so far (k, at most 3).
int reach_state(int n, int flag, int k) { return (n * 2 + flag) * 4 + k; }

class ReachSearch {
 public:
  ReachSearch(const Terrain& t, const State& s, const std::string& unit, bool run, bool with_moves)
      : v_(t, s, unit),
        start_(v_.u->pos),
        x_(make_extras(v_, start_, nullptr)),
        g_(v_.g),
        n_(static_cast<int>(g_.nodes.size())),
        run_(run),
        with_moves_(with_moves),
        allowance_(base_allowance(*v_.u, run).total),
        budget_(allowance_ + 1e-6),
        // The search runs a little past the allowance: a cell a straight walk
        // reaches within the allowance is reached by a grid walk within this
        // (16-neighbour walks are at most about 3% longer, and a boundary node is
        // joined to the cells within kBoundaryWalk), so cells beyond it need no
        // straight walk tried.
        search_budget_(budget_ * 1.03 + 0.5) {}

  ReachAnswer answer(const Terrain& t, const std::string& unit) {
    search();
    classify();
    straight_walks();
    crossings_from_anchors();
    ReachAnswer a;
    a.unit = unit;
    a.run = run_;
    a.allowance = allowance_;
    for (const Surface& sf : t.surfaces) a.surface_ids.push_back(sf.id);
    report(t, a);
    return a;
  }

 private:
  double& cost(int st) { return cost_[static_cast<std::size_t>(st)]; }

  // The graph search from the start.
  void search() {
    const auto states = static_cast<std::size_t>((n_ + 1) * 8);
    cost_.assign(states, kInf);
    pred_.assign(with_moves_ ? states : 0, ReachPred{});
    fin_.assign(with_moves_ ? states : 0, -1);
    using QE = std::pair<double, int>;
    std::priority_queue<QE, std::vector<QE>, std::greater<QE>> q;
    // The search's own view of the costs: a pointer the compiler may keep in
    // a register (a member vector is read again after every store).
    double* const cost_of = cost_.data();
    cost_of[reach_state(n_, 0, 0)] = 0;
    q.push({0, reach_state(n_, 0, 0)});
    // Nodes reached by a climb, a jump or a ladder: where a straight walk may start.
    landed_.assign(static_cast<std::size_t>(n_ + 1), 0);
    landed_[static_cast<std::size_t>(n_)] = 1;
    while (!q.empty()) {
      const double c = q.top().first;
      const int st = q.top().second;
      q.pop();
      if (c > cost_of[st]) continue;
      int k = st % 4, flag = (st / 4) % 2, n = st / 8;
      Vec3 pa = node_pos(v_, n, start_, start_);
      for_edges(v_, x_, n, [&](const NavEdge& e) {
        bool check;
        Vec3 pb = node_pos(v_, e.to, start_, start_);
        if (!v_.usable(n, e, pa, pb, check)) return;
        int nflag = flag | (slows(e.bits) ? 1 : 0);
        double nc = c + e.cost + (nflag && !flag ? 2.0 : 0.0);
        if (nc > search_budget_) return;
        int nk = std::min(3, k + (check ? 1 : 0));
        // Skip a state another state of the node beats on checks and on cost
        // (a state that has not paid the difficult-ground penalty may still pay it).
        for (int f2 = 0; f2 < 2; ++f2)
          for (int k2 = 0; k2 <= nk; ++k2)
            if (cost_of[reach_state(e.to, f2, k2)] + (f2 < nflag ? 2.0 : 0.0) <= nc + 1e-9) return;
        int ns = reach_state(e.to, nflag, nk);
        cost_of[ns] = nc;
        if (with_moves_) pred_[static_cast<std::size_t>(ns)] = {st, e.kind, e.ladder};
        if (e.kind != EdgeKind::walk) landed_[static_cast<std::size_t>(e.to)] = 1;
        q.push({nc, ns});
      });
    }
  }

  // The cheapest class at each cell so far (4: none within the budget), and
  // the fewest checks with which the search reached it at all.
  void classify() {
    const int grid = g_.nx * g_.ny;
    cls_.assign(static_cast<std::size_t>(grid), 4);
    seen_.assign(static_cast<std::size_t>(grid), 4);
    // Raw pointers: a byte stored may alias any member, so the compiler would
    // read each vector's data pointer again after every store.
    const double* cost_of = cost_.data();
    std::uint8_t* cls = cls_.data();
    std::uint8_t* seen = seen_.data();
    const double budget = budget_, search_budget = search_budget_;
    for (int n = 0; n < grid; ++n)
      for (int k = 3; k >= 0; --k) {
        const double c = std::min(cost_of[reach_state(n, 0, k)], cost_of[reach_state(n, 1, k)]);
        if (c <= budget) cls[n] = static_cast<std::uint8_t>(k);
        if (c <= search_budget) seen[n] = static_cast<std::uint8_t>(k);
      }
  }

  // Sets a cell's state when it is cheaper, and remembers how.
  void settle(int m, int nflag, int k, double nc, const Finish& f) {
    double& slot = cost(reach_state(m, nflag, k));
    if (nc >= slot) return;
    slot = nc;
    cls_[static_cast<std::size_t>(m)] = std::min(cls_[static_cast<std::size_t>(m)], static_cast<std::uint8_t>(k));
    if (!with_moves_) return;
    fin_[static_cast<std::size_t>(reach_state(m, nflag, k))] = static_cast<int>(finishes_.size());
    finishes_.push_back(f);
  }

  // Finish with straight walks from the start and every boundary node reached
  // by a climb or a jump to the cells around, where that puts a cell in reach or in a class with
  // fewer checks: the grid's own walks zig-zag, and a leg after a climb or a
  // jump is walked straight. Costs already found are not lowered.
  void straight_walks() {
    for (int n = g_.boundary; n <= n_; ++n) {
      double cmin = kInf;
      int kmin = 4;
      for (int st = reach_state(n, 0, 0); st < reach_state(n, 0, 0) + 8; ++st)
        if (cost(st) <= budget_) {
          cmin = std::min(cmin, cost(st));
          kmin = std::min(kmin, st % 4);
        }
      // Nearer cells are joined to boundary nodes in the graph already.
      const double near_r = n < n_ ? kBoundaryWalk : 2.3;
      const double r = budget_ - cmin;
      if (kmin == 4 || r <= near_r || !landed_[static_cast<std::size_t>(n)]) continue;
      const Vec3 pa = node_pos(v_, n, start_, start_);
      const int i0 = g_.cell_of(pa.x - r, g_.nx), i1 = g_.cell_of(pa.x + r, g_.nx);
      const int j0 = g_.cell_of(pa.y - r, g_.ny), j1 = g_.cell_of(pa.y + r, g_.ny);
      // Most cells are settled already: they are passed over here, in the loop.
      const std::uint8_t* cls = cls_.data();
      const std::uint8_t* seen = seen_.data();
      for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i) {
          const int m = j * g_.nx + i;
          if (cls[m] <= kmin || seen[m] > cls[m] - 1) continue;
          walk_straight_to(n, pa, cmin, near_r, m);
        }
    }
  }
  // A straight walk from boundary node n (at pa, reached for cmin) to cell m.
  void walk_straight_to(int n, Vec3 pa, double cmin, double near_r, int m) {
    const Vec3 pb = g_.nodes[static_cast<std::size_t>(m)].p;
    if (!(std::abs(pb.z - pa.z) <= kEps)) return;  // other levels, and NaN for impassable cells
    const double d = distance(pa.xy(), pb.xy());
    if (d <= near_r || cmin + d > budget_) return;
    unsigned bits = 0;
    if (!straight_walk(v_, pa, pb.xy(), bits)) return;
    for (int st = reach_state(n, 0, 0); st < reach_state(n, 0, 0) + 8; ++st) {
      const double c = cost(st);
      const int k = st % 4, flag = (st / 4) % 2;
      if (c > budget_ || k >= cls_[static_cast<std::size_t>(m)]) continue;
      const int nflag = flag | (slows(bits) ? 1 : 0);
      const double nc = c + d + (nflag && !flag ? 2.0 : 0.0);
      if (nc > budget_) continue;
      settle(m, nflag, k, nc, Finish{st, 1, {{EdgeKind::walk, -1, pb}, {}, {}}});
    }
  }

  // Exact crossings from the anchors, tried only for a cell they could put in
  // reach or in a class with fewer checks.
  void crossings_from_anchors() {
    const int grid = g_.nx * g_.ny;
    for (int n = grid; n <= n_ && grid > 0 && !g_.portals.empty(); ++n) {
      if (!landed_[static_cast<std::size_t>(n)]) continue;
      const Vec3 pa = node_pos(v_, n, start_, start_);
      for (int st = reach_state(n, 0, 0); st < reach_state(n, 0, 0) + 8; ++st) {
        const double c = cost(st);
        if (c > budget_) continue;
        const double r = budget_ - c;
        const int i0 = g_.cell_of(pa.x - r, g_.nx), i1 = g_.cell_of(pa.x + r, g_.nx);
        const int j0 = g_.cell_of(pa.y - r, g_.ny), j1 = g_.cell_of(pa.y + r, g_.ny);
        const int k = st % 4;
        const std::uint8_t* cls = cls_.data();
        for (int j = j0; j <= j1; ++j)
          for (int i = i0; i <= i1; ++i) {
            const int m = j * g_.nx + i;
            if (cls[m] <= k || !g_.valid(m)) continue;
            cross_to(st, c, pa, r, m);
          }
      }
    }
  }
  // Exact crossings from anchor state st (at pa, cost c, r left) to cell m.
  void cross_to(int st, double c, Vec3 pa, double r, int m) {
    const int k = st % 4, flag = (st / 4) % 2;
    const int have = cls_[static_cast<std::size_t>(m)];
    const Vec3 pm = g_.nodes[static_cast<std::size_t>(m)].p;
    exact_crossings(v_, pa, pm, r, have == 4 ? 1 : have - 1 - k, [&](const Crossing& cr) {
      const int nk = std::min(3, k + cr.checks);
      if (nk >= cls_[static_cast<std::size_t>(m)]) return;
      const int nflag = flag | (slows(cr.bits) ? 1 : 0);
      const double nc = c + cr.cost + (nflag && !flag ? 2.0 : 0.0);
      if (nc > budget_) return;
      settle(m, nflag, nk, nc, Finish{st, 3, {cr.hops[0], cr.hops[1], cr.hops[2]}});
    });
  }

  // The move that reaches state `st`, hop by hop.
  MoveRequest move_to(int st) const {
    std::vector<Hop> hops;
    while (st >= 0) {
      if (const int f = fin_[static_cast<std::size_t>(st)]; f >= 0) {
        const Finish& fr = finishes_[static_cast<std::size_t>(f)];
        for (int h = fr.count - 1; h >= 0; --h) hops.push_back(fr.hops[h]);
        st = fr.anchor;
        continue;
      }
      const ReachPred& p = pred_[static_cast<std::size_t>(st)];
      if (p.state < 0) break;
      hops.push_back({p.kind, p.ladder, node_pos(v_, st / 8, start_, start_)});
      st = p.state;
    }
    std::reverse(hops.begin(), hops.end());
    return to_request(v_, start_, hops, run_);
  }

  // Cells and ladder ends; boundary nodes are waypoints, not places to report.
  void report(const Terrain& t, ReachAnswer& a) {
    for (int n = 0; n < g_.boundary; ++n) {
      if (!g_.valid(n) || v_.occupied[static_cast<std::size_t>(n)]) continue;
      for (int k = 0; k < 4; ++k) {
        const int s0 = reach_state(n, 0, k), s1 = reach_state(n, 1, k);
        const int best = cost(s0) <= cost(s1) ? s0 : s1;
        const double c = cost(best);
        if (c <= budget_) {
          const Vec3 at = g_.nodes[static_cast<std::size_t>(n)].p;
          a.cells.push_back({at, k, c, at.z > kEps ? t.surface_at(at.xy()) : -1, {}});
          if (with_moves_) a.cells.back().move = move_to(best);
          ++a.counts[k];
          break;
        }
      }
    }
  }

  UnitView v_;
  Vec3 start_;
  Extras x_;
  const NavGraph& g_;
  int n_;  // the graph's nodes; node n_ is the start
  bool run_, with_moves_;
  double allowance_, budget_, search_budget_;
  std::vector<double> cost_;  // per state
  std::vector<ReachPred> pred_;
  std::vector<int> fin_;  // per state: the finish that set it, or -1
  std::vector<Finish> finishes_;
  std::vector<std::uint8_t> landed_;
  std::vector<std::uint8_t> cls_, seen_;  // per cell
};

}  // namespace

ReachAnswer unit_reach(const Terrain& t, const State& s, const std::string& unit, bool run, bool with_moves) {
  ReachSearch search(t, s, unit, run, with_moves);
  return search.answer(t, unit);
}

}  // namespace referee::blightmeer
