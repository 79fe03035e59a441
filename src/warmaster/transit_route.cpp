// Route planning under the gap rule (README readings 4 and 5).
//
// A visibility graph over the obstacles inflated by the transit disc's
// radius r, searched with A* (flat arrays of costs and predecessors, as in
// Wesnoth's pathfinder):
// - Nodes: the start and goal centres; at every convex corner of a blocking
//   obstacle, points on the circumscribed polygon of the corner's arc of
//   radius r (so straight lines between them keep at least r clear); the
//   middle of every passable gap narrower than 2r + 4r between two blocking
//   obstacles (where corner points would not fit); and the free ends of gates
//   that end on enterable terrain. Nodes whose disc is not clear are dropped.
// - Edges: straight centre segments that the transit model accepts (no
//   obstacle within r, no gate crossed, the table edge kept), tested lazily
//   only when A* pops the node they lead to (lazy A*).
// - Only what lies within max_length/2 of the midpoint of start and goal can
//   be on a route no longer than max_length, so the search reads the spatial
//   index for that disc and nothing else.
// Shortest paths among inflated convex obstacles bend only on their
// boundaries, so the circumscribed corners give a route within a few tenths
// of a percent of the true shortest one, and never one that clips an obstacle.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <queue>

#include "referee/warmaster/transit.hpp"
#include "referee/warmaster/transit_kernels.hpp"
#include "transit_scene.hpp"

namespace referee::warmaster {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Hot-loop distance: sqrt of the squared length (std::hypot is far slower
// and its overflow care is not needed at table scale).
inline double dist(Vec2 a, Vec2 b) { return std::sqrt(length_squared(b - a)); }
inline double dist(Vec2 p, const Segment& s) {
  Vec2 ab = s.b - s.a, ap = p - s.a;
  double l2 = length_squared(ab);
  double t = l2 > 0 ? std::clamp(dot(ap, ab) / l2, 0.0, 1.0) : 0.0;
  return std::sqrt(length_squared(ap - ab * t));
}
inline Vec2 unit(Vec2 v) {
  double l2 = length_squared(v);
  return l2 > 0 ? v / std::sqrt(l2) : Vec2{0, 0};
}

struct LocalScene {
  const TransitScene::Impl* m = nullptr;
  std::vector<int> obstacles;  // blocking obstacles near the search
  std::vector<int> gates;      // gates near the search

  // `from_clear`: a is a node whose disc is known clear (point_clear), so
  // the "started too close, moving away" exception cannot apply.
  // Both ends are then also known to keep the table edge (point_clear).
  bool segment_clear(Vec2 a, Vec2 b, bool from_clear) const {
    const double r = m->r, tol = m->tol;
    if (!from_clear)
      for (Vec2 p : {a, b})
        if (p.x < r - tol || p.y < r - tol || p.x > m->table_w - r + tol || p.y > m->table_h - r + tol) return false;
    Segment seg{a, b};
    Aabb box{{std::min(a.x, b.x), std::min(a.y, b.y)}, {std::max(a.x, b.x), std::max(a.y, b.y)}};
    for (int g : gates) {
      const auto& gate = m->gates[g];
      if (gate.line.bounds().overlaps(box) && passes_gate(seg, gate.line, tol)) return false;
    }
    Aabb wide = box.inflated(r);
    for (int k : obstacles) {
      const TransitObstacle& o = m->obstacles[k];
      if (!o.box.overlaps(wide) || dist(o.centre, seg) >= o.radius + r) continue;
      if (!o.within(seg, r - tol)) continue;
      if (!from_clear) {
        double d0 = fast_distance(a, o.poly);
        if (d0 < r - tol && fast_distance(seg, o.poly) >= d0 - tol) continue;  // started too close, moving away
      }
      return false;
    }
    return true;
  }
  bool point_clear(Vec2 p) const {
    const double r = m->r, tol = m->tol;
    if (p.x < r - tol || p.y < r - tol || p.x > m->table_w - r + tol || p.y > m->table_h - r + tol) return false;
    for (int k : obstacles) {
      const TransitObstacle& o = m->obstacles[k];
      if (o.box.inflated(r).contains(p) && fast_distance(p, o.poly) < r - tol) return false;
    }
    for (int g : gates)
      if (dist(p, m->gates[g].line) <= 2 * tol) return false;  // a waypoint on a closed gap
    return true;
  }
};

struct Candidate {
  Vec2 at;
  Vec2 pivot;          // the obstacle corner it wraps, for corner points
  bool has_pivot = false;
};

// Points on the circumscribed polygon of each convex corner's arc.
void corner_nodes(const Polygon& poly, double r, std::vector<Candidate>& out) {
  const auto& p = poly.points;  // counter-clockwise
  std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i) {
    Vec2 prev = p[(i + n - 1) % n], cur = p[i], next = p[(i + 1) % n];
    if (cross(cur - prev, next - cur) <= 0) continue;  // reflex or flat: paths never bend there
    Vec2 e_in = cur - prev, e_out = next - cur;
    Vec2 n_in = normalized(Vec2{e_in.y, -e_in.x}), n_out = normalized(Vec2{e_out.y, -e_out.x});
    double a0 = std::atan2(n_in.y, n_in.x), a1 = std::atan2(n_out.y, n_out.x);
    while (a1 < a0) a1 += 2 * kPi;
    double sweep = a1 - a0;
    int steps = std::max(1, static_cast<int>(std::ceil(sweep / (kPi / 6))));
    double radius = r / std::cos(sweep / steps / 2);
    for (int k = 0; k < steps; ++k) {
      double a = a0 + sweep * (k + 0.5) / steps;
      out.push_back({cur + Vec2{std::cos(a), std::sin(a)} * radius, cur, true});
    }
  }
}

}  // namespace

std::optional<std::vector<Pose>> TransitScene::shortest_route(const Pose& from, const Pose& to,
                                                              double max_length) const {
  const Impl& m = *impl_;
  Vec2 a = from.position, b = to.position;
  double straight = distance(a, b);
  if (!(max_length >= straight)) return std::nullopt;

  LocalScene local;
  local.m = &m;
  Vec2 mid = (a + b) / 2;
  double reach = max_length / 2;
  Aabb region = Aabb{mid, mid}.inflated(reach + m.r);
  std::vector<int> near;
  m.query(region, near);
  for (int k : near)
    if (m.obstacles[k].blocks) local.obstacles.push_back(k);
  m.ensure_gates(region);
  for (std::size_t g = 0; g < m.gates.size(); ++g)
    if (m.gates[g].line.bounds().overlaps(region)) local.gates.push_back(static_cast<int>(g));

  auto finish = [&](const std::vector<Vec2>& centres) {
    // Facings: every pose keeps the start facing until one leg turns to the
    // final facing; choose the leg where the turn costs least (reading 4).
    // Each centre's corners under either facing are computed once; the sums
    // are route_distance's, term for term.
    const std::size_t k = centres.size();
    const Vec2 half{m.width / 2, m.depth / 2};
    const Rot rot_from = Rot::from_degrees(from.facing_deg), rot_to = Rot::from_degrees(to.facing_deg);
    std::vector<std::array<Vec2, 4>> c_from(k), c_to(k);
    for (std::size_t i = 0; i < k; ++i) {
      c_from[i] = OrientedRect{centres[i], half, rot_from}.corners();
      c_to[i] = OrientedRect{centres[i], half, rot_to}.corners();
    }
    std::size_t best_turn = 1;
    double best_d = kInf;
    for (std::size_t turn = 1; turn < k; ++turn) {
      std::array<double, 4> total{0, 0, 0, 0};
      for (std::size_t i = 1; i < k; ++i) {
        const auto& c0 = i - 1 < turn ? c_from[i - 1] : c_to[i - 1];
        const auto& c1 = i < turn ? c_from[i] : c_to[i];
        for (int q = 0; q < 4; ++q) total[q] += distance(c0[q], c1[q]);
      }
      double d = *std::max_element(total.begin(), total.end());
      if (d < best_d) {
        best_d = d;
        best_turn = turn;
      }
    }
    std::vector<Pose> best;
    for (std::size_t i = 0; i < k; ++i) best.push_back({centres[i], i < best_turn ? from.facing_deg : to.facing_deg});
    best.front() = from;
    best.back() = to;
    return best;
  };

  if (local.segment_clear(a, b, false)) return finish({a, b});
  if (!local.point_clear(b)) return std::nullopt;

  // Nodes: 0 start, 1 goal, then candidates.
  std::vector<Candidate> cand;
  for (int k : local.obstacles) corner_nodes(m.obstacles[k].poly, m.r + 4 * m.tol, cand);
  for (std::size_t i = 0; i < local.obstacles.size(); ++i)
    for (std::size_t j = i + 1; j < local.obstacles.size(); ++j) {
      const TransitObstacle& oi = m.obstacles[local.obstacles[i]];
      const TransitObstacle& oj = m.obstacles[local.obstacles[j]];
      if (!oi.box.inflated(6 * m.r).overlaps(oj.box) ||
          length_squared(oi.centre - oj.centre) > (oi.radius + oj.radius + 6 * m.r) * (oi.radius + oj.radius + 6 * m.r))
        continue;
      ClosestPoints cp = (oi.rect && oj.rect) ? referee::closest_points(*oi.rect, *oj.rect) : closest_points(oi.poly, oj.poly);
      if (cp.distance >= 2 * m.r - 2 * m.tol && cp.distance <= 6 * m.r) cand.push_back({(cp.on_a + cp.on_b) / 2, {}, false});
    }
  for (int g : local.gates) {
    const auto& gate = m.gates[g];
    if (gate.b < 0 || m.obstacles[gate.b].blocks) continue;
    Vec2 dir = normalized(gate.line.b - gate.line.a);
    cand.push_back({gate.line.b + dir * (4 * m.tol), {}, false});
  }
  std::vector<Vec2> nodes{a, b};
  std::vector<Vec2> radial{{0, 0}, {0, 0}};  // unit vector from the pivot, or zero
  for (const Candidate& c : cand)
    if (dist(c.at, a) + dist(c.at, b) <= max_length) {  // clearance checked lazily, when first reached
      nodes.push_back(c.at);
      radial.push_back(c.has_pivot ? unit(c.at - c.pivot) : Vec2{0, 0});
    }
  // A shortest path leaves and meets a corner point nearly along the arc's
  // tangent (within half an arc step, 15 degrees, when the corner is far);
  // an edge that runs steeply towards or away from the corner it wraps is
  // never on one. The bound is loose (about 49 degrees off the tangent).
  constexpr double kTaut = 0.75;
  // |dot(d / |d|, radial)| <= kTaut, squared so that no root is needed.
  auto taut = [&](int u, int v) {
    Vec2 d = nodes[v] - nodes[u];
    double lim = kTaut * kTaut * length_squared(d);
    double a = dot(d, radial[u]), c = dot(d, radial[v]);
    return a * a <= lim && c * c <= lim;
  };

  // Lazy A* with flat arrays (costs, predecessors, closed flags). An edge's
  // clearance is tested only when the node it leads to is popped, not when
  // it is relaxed: most relaxed edges are never needed. If the popped node's
  // edge is blocked, its best clear edge from the closed set is found and the
  // node goes back on the queue with that (higher) cost. Costs only rise on
  // repair and the heuristic is consistent, so the route is still the
  // shortest in the graph.
  std::size_t n = nodes.size();
  std::vector<double> g(n, kInf);
  std::vector<int> prev(n, -1);
  std::vector<char> closed(n, 0), verified(n, 0);
  std::vector<char> node_ok(n, 0);  // 0 unknown, 1 clear, 2 blocked
  node_ok[0] = node_ok[1] = 1;
  auto usable = [&](std::size_t v) {
    if (node_ok[v] == 0) node_ok[v] = local.point_clear(nodes[v]) ? 1 : 2;
    return node_ok[v] == 1;
  };
  std::vector<double> h(n);
  for (std::size_t v = 0; v < n; ++v) h[v] = dist(nodes[v], b);
  // Every node but the start is tested clear before it is expanded, and a
  // node is tested before any edge to it. An edge's answer is kept: a node
  // repaired more than once would otherwise test the same parents again.
  std::vector<char> edge_memo(n * n, 0);  // 0 untested, 1 clear, 2 blocked
  auto clear_edge = [&](int w, int v) {
    char& e = edge_memo[static_cast<std::size_t>(w) * n + static_cast<std::size_t>(v)];
    if (e == 0) e = local.segment_clear(nodes[w], nodes[v], w != 0) ? 1 : 2;
    return e == 1;
  };
  auto edge_ok = [&](int w, int v) { return taut(w, v) && clear_edge(w, v); };
  // Relaxed edges are taut already; a repair tests taut first, then clearance.
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  std::vector<Item> parents;
  std::vector<int> expanded;  // closed nodes whose disc is clear, in the order expanded
  g[0] = 0;
  verified[0] = 1;
  open.push({straight, 0});
  while (!open.empty()) {
    auto [f, u] = open.top();
    open.pop();
    if (closed[u] || g[u] == kInf || f > g[u] + h[u] + 1e-12) continue;  // done, or a stale entry
    if (!verified[u]) {
      if (!usable(static_cast<std::size_t>(u))) {
        closed[u] = 1;  // its disc does not fit: never a waypoint
        continue;
      }
      if (!edge_ok(prev[u], u)) {
        // Repair: the best clear edge from a closed node.
        parents.clear();
        for (int w : expanded)
          if (w != prev[u] && taut(w, u)) {
            double cost = g[w] + dist(nodes[w], nodes[u]);
            if (cost + h[u] <= max_length + m.tol) parents.push_back({cost, w});
          }
        std::sort(parents.begin(), parents.end());
        g[u] = kInf;
        prev[u] = -1;
        for (const auto& [cost, w] : parents) {
          if (clear_edge(w, u)) {
            g[u] = cost;
            prev[u] = w;
            break;
          }
        }
        if (prev[u] >= 0) {
          verified[u] = 1;
          open.push({g[u] + h[u], u});
        }
        continue;
      }
      verified[u] = 1;
    }
    closed[u] = 1;
    expanded.push_back(u);
    if (u == 1) break;
    for (std::size_t v = 1; v < n; ++v) {
      if (closed[v] || node_ok[v] == 2) continue;
      if (g[u] + h[v] > max_length + m.tol) continue;
      if (!taut(u, static_cast<int>(v))) continue;  // cheap, and spares the queue
      double tentative = g[u] + dist(nodes[u], nodes[v]);
      if (tentative >= g[v] || tentative + h[v] > max_length + m.tol) continue;
      g[v] = tentative;
      prev[v] = u;
      verified[v] = 0;
      open.push({tentative + h[v], static_cast<int>(v)});
    }
  }
  if (!closed[1] || prev[1] < 0) return std::nullopt;
  std::vector<Vec2> centres;
  for (int v = 1; v >= 0; v = prev[v]) centres.push_back(nodes[v]);
  std::reverse(centres.begin(), centres.end());
  return finish(centres);
}

}  // namespace referee::warmaster
