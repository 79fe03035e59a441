// Route planning under the gap rule (docs/rulings.md#warmaster-transit-planned-routes, docs/rulings.md#warmaster-transit-model).
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
// For speed the buffers are reused (the caller's TransitScratch), corner
// points are cached there by polygon, and gap pairs are sorted out by cheap distance
// bounds before exact closest points; none of this changes a node or an edge.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>

#include "referee/warmaster/movement/transit.hpp"
#include "referee/warmaster/movement/transit_kernels.hpp"
#include "movement/transit_scene.hpp"

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

struct LocalScene {
  const TransitScene::Impl* m = nullptr;
  const std::vector<int>& obstacles;  // blocking obstacles near the search
  const std::vector<int>& gates;      // gates near the search
  const std::vector<Aabb>& gate_boxes; // their bounds, in the same order

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
    for (std::size_t i = 0; i < gates.size(); ++i)
      if (gate_boxes[i].overlaps(box) && passes_gate(seg, m->gates[gates[i]].line, tol)) return false;
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
    // A waypoint on a closed gap; the box test (a little wider) only spares
    // the distance for gates that are clearly apart.
    for (std::size_t i = 0; i < gates.size(); ++i)
      if (gate_boxes[i].inflated(2 * tol + 1e-9).contains(p) && dist(p, m->gates[gates[i]].line) <= 2 * tol) return false;
    return true;
  }
};

struct Candidate {
  Vec2 at;
  Vec2 radial;  // corner points: unit vector from the corner they wrap; else zero
};

// Unit vector, or zero.
inline Vec2 unit(Vec2 v) {
  double l2 = length_squared(v);
  return l2 > 0 ? v / std::sqrt(l2) : Vec2{0, 0};
}

// Points on the circumscribed polygon of each convex corner's arc.
// Their positions feed exact ties: the corner points of stands in a line lie
// on one straight line, and which of them a route lists (and so on which leg
// it turns) depends on the last bit. So they are computed exactly as they
// always were; rotating by fixed steps instead moves them by rounding only,
// but that flips such ties.
void corner_nodes(const Polygon& poly, double r, std::vector<Candidate>& out) {
  const auto& p = poly.points;  // counter-clockwise
  std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i) {
    Vec2 prev = p[i == 0 ? n - 1 : i - 1], cur = p[i], next = p[i + 1 == n ? 0 : i + 1];
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
      Vec2 at = cur + Vec2{std::cos(a), std::sin(a)} * radius;
      out.push_back({at, unit(at - cur)});
    }
  }
}

// corner_nodes is a pure function of the polygon and r, and most obstacles
// (stands that have not moved, terrain) come back in call after call, so
// the answers are kept (in the caller's scratch) in a direct-mapped table keyed by the
// polygon's exact coordinates: a hit gives the very same points, and the
// trigonometry is paid once per shape.
class CornerCache {
 public:
  void append(const Polygon& poly, double r, std::vector<Candidate>& out) {
    Slot& slot = slots_[hash(poly, r) & (kSlots - 1)];
    if (!(slot.filled && slot.r == r && slot.points == poly.points)) {
      slot.nodes.clear();
      corner_nodes(poly, r, slot.nodes);
      slot.points = poly.points;
      slot.r = r;
      slot.filled = true;
    }
    out.insert(out.end(), slot.nodes.begin(), slot.nodes.end());
  }

 private:
  static constexpr std::size_t kSlots = 1024;
  struct Slot {
    std::vector<Vec2> points;
    double r = 0;
    bool filled = false;
    std::vector<Candidate> nodes;
  };
  static std::uint64_t bits(double d) {
    std::uint64_t u;
    std::memcpy(&u, &d, sizeof u);
    return u;
  }
  static std::size_t hash(const Polygon& poly, double r) {
    std::uint64_t h = bits(r) * 0x9E3779B97F4A7C15ull;
    for (Vec2 v : poly.points) {
      h = (h ^ bits(v.x)) * 0x100000001B3ull;
      h = (h ^ bits(v.y)) * 0x100000001B3ull;
      h ^= h >> 29;
    }
    return static_cast<std::size_t>(h ^ (h >> 32));
  }
  std::vector<Slot> slots_ = std::vector<Slot>(kSlots);
};

// Lower and upper bounds on the distance between two obstacles, each a few
// operations: a gap pair outside [lo, hi] needs no exact closest points. The
// lower bound is the separation of their boxes; the upper one (rectangles)
// is the distance from the point of `a` nearest b's centre to `b`.
inline double box_gap(const Aabb& a, const Aabb& b) {
  double dx = std::max({a.min.x - b.max.x, b.min.x - a.max.x, 0.0});
  double dy = std::max({a.min.y - b.max.y, b.min.y - a.max.y, 0.0});
  return std::sqrt(dx * dx + dy * dy);
}
inline Vec2 clamp_into(const OrientedRect& r, Vec2 p) {
  Vec2 l = r.rot.apply_inverse(p - r.center);
  l.x = std::clamp(l.x, -r.half.x, r.half.x);
  l.y = std::clamp(l.y, -r.half.y, r.half.y);
  return r.center + r.rot.apply(l);
}
inline double rect_gap_upper(const OrientedRect& a, const OrientedRect& b) {
  Vec2 p = clamp_into(a, b.center);
  return dist(p, clamp_into(b, p));
}

}  // namespace

// Buffers for the search, kept between calls in the caller's TransitScratch
// so that a route costs no allocation once they have grown. shortest_route
// never re-enters itself.
struct RouteScratch {
  using Item = std::pair<double, int>;
  std::vector<int> near, obstacles, gates;
  std::vector<Aabb> gate_boxes;
  std::vector<Candidate> cand;
  std::vector<Vec2> nodes, radial;
  std::vector<double> g, h;
  std::vector<int> prev, expanded, live;
  std::vector<char> closed, verified, node_ok;
  std::vector<char> dead;  // closed, or its disc known not to fit: never relaxed again
  struct Packed {          // what relaxing an edge reads of its far node, together
    Vec2 at, radial;
    double h;
  };
  std::vector<Packed> packed;
  // Edge answers: a hash table (open addressing) of the edges tested, which
  // are few. A slot is current when its stamp is this call's, so the table
  // is never cleared per call.
  struct MemoSlot {
    std::uint64_t key = 0;
    std::uint32_t stamp = 0;
    bool clear = false;
  };
  std::vector<MemoSlot> memo = std::vector<MemoSlot>(64);
  std::size_t memo_used = 0;
  std::uint32_t stamp = 0;
  std::vector<Item> open, parents;
  std::vector<Vec2> centres;
  std::vector<std::array<Vec2, 4>> c_from, c_to;
  CornerCache corners;
};

void RouteScratchDelete::operator()(RouteScratch* s) const { delete s; }

namespace {

// The blocking obstacles and the gates that meet `region`, the only ones a
// route within it can meet. The scene's gates there must be found already
// (ensure_gates).
void gather_near(const TransitScene::Impl& m, const Aabb& region, RouteScratch& S) {
  S.near.clear();
  S.obstacles.clear();
  S.gates.clear();
  S.gate_boxes.clear();
  m.query(region, S.near);
  for (int k : S.near)
    if (m.obstacles[k].blocks) S.obstacles.push_back(k);
  for (std::size_t g = 0; g < m.gates.size(); ++g) {
    Aabb box = m.gates[g].line.bounds();
    if (!box.overlaps(region)) continue;
    S.gates.push_back(static_cast<int>(g));
    S.gate_boxes.push_back(box);
  }
}

// The route's poses over its centres. Facings: every pose keeps the start
// facing until one leg turns to the final facing; the leg chosen is where
// the turn costs least (docs/rulings.md#warmaster-reach-facing). Each
// centre's corners under either facing are computed once; the sums are
// route_distance's, term for term.
std::vector<Pose> posed_route(const TransitScene::Impl& m, const Pose& from, const Pose& to,
                              const std::vector<Vec2>& centres, RouteScratch& S) {
  const std::size_t k = centres.size();
  const Vec2 half{m.width / 2, m.depth / 2};
  const Rot rot_from = Rot::from_degrees(from.facing_deg), rot_to = Rot::from_degrees(to.facing_deg);
  auto& c_from = S.c_from;
  auto& c_to = S.c_to;
  c_from.resize(k);
  c_to.resize(k);
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
  best.reserve(k);
  for (std::size_t i = 0; i < k; ++i) best.push_back({centres[i], i < best_turn ? from.facing_deg : to.facing_deg});
  best.front() = from;
  best.back() = to;
  return best;
}

// Gap middles: the middle of every gap between two blocking obstacles near
// the search that the disc passes but where corner points would not fit
// (from 2r to 6r). Only pairs whose distance can lie in [2r - 2tol, 6r] need
// their exact closest points; cheap bounds (with a margin far above
// rounding) settle the rest.
void gap_middles(const TransitScene::Impl& m, RouteScratch& S) {
  const double gap_lo = 2 * m.r - 2 * m.tol, gap_hi = 6 * m.r;
  for (std::size_t i = 0; i < S.obstacles.size(); ++i)
    for (std::size_t j = i + 1; j < S.obstacles.size(); ++j) {
      const TransitObstacle& oi = m.obstacles[S.obstacles[i]];
      const TransitObstacle& oj = m.obstacles[S.obstacles[j]];
      if (!oi.box.inflated(gap_hi).overlaps(oj.box) ||
          length_squared(oi.centre - oj.centre) > (oi.radius + oj.radius + gap_hi) * (oi.radius + oj.radius + gap_hi))
        continue;
      if (box_gap(oi.box, oj.box) > gap_hi + 1e-9) continue;
      if (oi.rect && oj.rect && rect_gap_upper(*oi.rect, *oj.rect) < gap_lo - 1e-9) continue;
      ClosestPoints cp = (oi.rect && oj.rect) ? referee::closest_points(*oi.rect, *oj.rect) : closest_points(oi.poly, oj.poly);
      if (cp.distance >= gap_lo && cp.distance <= gap_hi) S.cand.push_back({(cp.on_a + cp.on_b) / 2, {0, 0}});
    }
}

// The graph's nodes (file comment): 0 the start, 1 the goal, then the
// candidates (corner points, gap middles, the free ends of gates that end on
// enterable terrain) that a route no longer than max_length can pass, in the
// order found. Their clearance is checked lazily, when first reached.
void graph_nodes(const TransitScene::Impl& m, Vec2 a, Vec2 b, double max_length, RouteScratch& S) {
  auto& cand = S.cand;
  cand.clear();
  for (int k : S.obstacles) S.corners.append(m.obstacles[k].poly, m.r + 4 * m.tol, cand);
  gap_middles(m, S);
  for (int g : S.gates) {
    const auto& gate = m.gates[g];
    if (gate.b < 0 || m.obstacles[gate.b].blocks) continue;
    Vec2 dir = normalized(gate.line.b - gate.line.a);
    cand.push_back({gate.line.b + dir * (4 * m.tol), {0, 0}});
  }
  S.nodes.assign({a, b});
  S.radial.assign({{0, 0}, {0, 0}});  // unit vector from the pivot, or zero
  for (const Candidate& c : cand)
    if (dist(c.at, a) + dist(c.at, b) <= max_length) {
      S.nodes.push_back(c.at);
      S.radial.push_back(c.radial);
    }
}

// A shortest path leaves and meets a corner point nearly along the arc's
// tangent (within half an arc step, 15 degrees, when the corner is far);
// an edge that runs steeply towards or away from the corner it wraps is
// never on one. The bound is loose (about 49 degrees off the tangent).
constexpr double kTaut = 0.75;

// Lazy A* over the graph's nodes with flat arrays (costs, predecessors,
// closed flags). An edge's clearance is tested only when the node it leads
// to is popped, not when it is relaxed: most relaxed edges are never needed.
// If the popped node's edge is blocked, its best clear edge from the closed
// set is found and the node goes back on the queue with that (higher) cost
// (repair). Costs only rise on repair and the heuristic is consistent, so
// the route is still the shortest in the graph. The arrays are the
// scratch's; run() leaves prev with the route when closed[1] is set.
class LazyAStar {
 public:
  using Item = RouteScratch::Item;
  LazyAStar(const TransitScene::Impl& m, const LocalScene& local, double max_length, RouteScratch& S)
      : local_(local), S_(S), n_(S.nodes.size()), lim_(max_length + m.tol) {}
  // Searches from node 0 until node 1 is closed or nothing is left.
  void run();

 private:
  void start();
  // |dot(d / |d|, radial)| <= kTaut at both ends, squared so that no root is needed.
  bool taut(int u, int v) const {
    Vec2 d = S_.nodes[v] - S_.nodes[u];
    double lim = kTaut * kTaut * length_squared(d);
    double a = dot(d, S_.radial[u]), c = dot(d, S_.radial[v]);
    return a * a <= lim && c * c <= lim;
  }
  // Is the node's disc clear? Tested once, when first needed.
  bool usable(std::size_t v) {
    auto& node_ok = S_.node_ok;
    if (node_ok[v] == 0) {
      node_ok[v] = local_.point_clear(S_.nodes[v]) ? 1 : 2;
      if (node_ok[v] == 2) S_.dead[v] = 1;
    }
    return node_ok[v] == 1;
  }
  RouteScratch::MemoSlot& memo_slot(std::uint64_t key);
  bool clear_edge(int w, int v);
  bool edge_ok(int w, int v) { return taut(w, v) && clear_edge(w, v); }
  // The queue is a binary heap on a reused vector (what std::priority_queue
  // does); items are (f, node), so equal costs pop in node order.
  void push(Item it) {
    S_.open.push_back(it);
    std::push_heap(S_.open.begin(), S_.open.end(), std::greater<Item>{});
  }
  void repair(int u);
  void relax(int u);

  const LocalScene& local_;
  RouteScratch& S_;
  const std::size_t n_;
  const double lim_;  // the longest route searched, and the tolerance
  std::uint32_t stamp_ = 0;
};

void LazyAStar::start() {
  S_.g.assign(n_, kInf);
  S_.prev.assign(n_, -1);
  S_.closed.assign(n_, 0);
  S_.dead.assign(n_, 0);  // closed, or its disc known not to fit: never relaxed again
  S_.verified.assign(n_, 0);
  S_.node_ok.assign(n_, 0);  // 0 unknown, 1 clear, 2 blocked
  S_.node_ok[0] = S_.node_ok[1] = 1;
  const Vec2 b = S_.nodes[1];
  S_.h.resize(n_);
  for (std::size_t v = 0; v < n_; ++v) S_.h[v] = dist(S_.nodes[v], b);
  S_.packed.resize(n_);
  for (std::size_t v = 0; v < n_; ++v) S_.packed[v] = {S_.nodes[v], S_.radial[v], S_.h[v]};
  // Every node but the start is tested clear before it is expanded, and a
  // node is tested before any edge to it. An edge's answer is kept: a node
  // repaired more than once would otherwise test the same parents again.
  if (++S_.stamp == 0) {  // stamps used up: start again from a clean table
    std::fill(S_.memo.begin(), S_.memo.end(), RouteScratch::MemoSlot{});
    S_.stamp = 1;
  }
  S_.memo_used = 0;
  stamp_ = S_.stamp;
  S_.open.clear();
  S_.expanded.clear();  // closed nodes whose disc is clear, in the order expanded
  // Nodes that may still be relaxed (not closed, not known blocked); the
  // order they are visited in does not matter, so dead ones are swapped out.
  S_.live.resize(n_ - 1);
  for (std::size_t v = 1; v < n_; ++v) S_.live[v - 1] = static_cast<int>(v);
  S_.g[0] = 0;
  S_.verified[0] = 1;
  push({S_.g[0] + S_.h[0], 0});
}

RouteScratch::MemoSlot& LazyAStar::memo_slot(std::uint64_t key) {
  const std::size_t mask = S_.memo.size() - 1;
  std::size_t i = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 20) & mask;
  while (S_.memo[i].stamp == stamp_ && S_.memo[i].key != key) i = (i + 1) & mask;
  return S_.memo[i];
}

// The edge's clearance by the transit model, kept in the memo table.
bool LazyAStar::clear_edge(int w, int v) {
  const std::uint64_t key = static_cast<std::uint64_t>(w) * n_ + static_cast<std::uint64_t>(v);
  RouteScratch::MemoSlot* e = &memo_slot(key);
  if (e->stamp == stamp_) return e->clear;
  const bool clear = local_.segment_clear(S_.nodes[w], S_.nodes[v], w != 0);
  if (2 * (S_.memo_used + 1) > S_.memo.size()) {  // keep the load under a half: grow and re-insert
    std::vector<RouteScratch::MemoSlot> old(S_.memo.size() * 2);
    old.swap(S_.memo);
    for (const auto& slot : old)
      if (slot.stamp == stamp_) memo_slot(slot.key) = slot;
    e = &memo_slot(key);
  }
  *e = {key, stamp_, clear};
  ++S_.memo_used;
  return clear;
}

// The popped node's edge is blocked: its best clear edge from a closed
// node, tested taut first, then clear, cheapest first; back on the queue
// with that cost, or left unreached when there is none.
void LazyAStar::repair(int u) {
  auto& g = S_.g;
  auto& prev = S_.prev;
  auto& parents = S_.parents;
  parents.clear();
  for (int w : S_.expanded)
    if (w != prev[u] && taut(w, u)) {
      double cost = g[w] + dist(S_.nodes[w], S_.nodes[u]);
      if (cost + S_.h[u] <= lim_) parents.push_back({cost, w});
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
    S_.verified[u] = 1;
    push({g[u] + S_.h[u], u});
  }
}

// Relaxes every live node from the expanded node u: taut(u, v) and
// dist(nodes[u], nodes[v]) written out over the packed node data, term for
// term. Relaxed edges are taut already; their clearance waits for the pop.
void LazyAStar::relax(int u) {
  auto& g = S_.g;
  auto& prev = S_.prev;
  auto& verified = S_.verified;
  auto& dead = S_.dead;
  auto& live = S_.live;
  const auto& packed = S_.packed;
  const double gu = g[u], lim = lim_;
  const Vec2 pu = S_.nodes[u], ru = S_.radial[u];
  for (std::size_t i = 0; i < live.size();) {
    const int v = live[i];
    if (dead[v]) {
      live[i] = live.back();
      live.pop_back();
      continue;
    }
    ++i;
    const RouteScratch::Packed& pv = packed[static_cast<std::size_t>(v)];
    if (gu + pv.h > lim) continue;
    const Vec2 d = pv.at - pu;
    const double l2 = length_squared(d), taut_lim = kTaut * kTaut * l2;
    const double da = dot(d, ru), dc = dot(d, pv.radial);
    if (!(da * da <= taut_lim && dc * dc <= taut_lim)) continue;  // cheap, and spares the queue
    double tentative = gu + std::sqrt(l2);
    if (tentative >= g[v] || tentative + pv.h > lim) continue;
    g[v] = tentative;
    prev[v] = u;
    verified[v] = 0;
    push({tentative + pv.h, v});
  }
}

void LazyAStar::run() {
  start();
  auto& open = S_.open;
  auto& g = S_.g;
  auto& h = S_.h;
  auto& closed = S_.closed;
  auto& dead = S_.dead;
  auto& verified = S_.verified;
  while (!open.empty()) {
    std::pop_heap(open.begin(), open.end(), std::greater<Item>{});
    auto [f, u] = open.back();
    open.pop_back();
    // An entry is current only if it carries the node's present cost. One
    // with a higher f was overtaken by a cheaper relaxation; one with a lower
    // f predates a repair that raised the cost, and popping it would close
    // the node too early, before cheaper clear parents are expanded.
    if (closed[u] || g[u] == kInf || std::abs(f - (g[u] + h[u])) > 1e-12) continue;  // done, or a stale entry
    if (!verified[u]) {
      if (!usable(static_cast<std::size_t>(u))) {
        closed[u] = dead[u] = 1;  // its disc does not fit: never a waypoint
        continue;
      }
      if (!edge_ok(S_.prev[u], u)) {
        repair(u);
        continue;
      }
      verified[u] = 1;
    }
    closed[u] = dead[u] = 1;
    S_.expanded.push_back(u);
    if (u == 1) break;
    relax(u);
  }
}

// The search itself, over the scene's obstacles and gates near `region`
// (found already): the straight line when it is clear, else lazy A* over
// the visibility graph.
std::optional<std::vector<Pose>> route_within(const TransitScene::Impl& m, const Pose& from, const Pose& to,
                                              double max_length, const Aabb& region, RouteScratch& S) {
  const Vec2 a = from.position, b = to.position;
  gather_near(m, region, S);
  const LocalScene local{&m, S.obstacles, S.gates, S.gate_boxes};
  if (local.segment_clear(a, b, false)) {
    S.centres.assign({a, b});
    return posed_route(m, from, to, S.centres, S);
  }
  if (!local.point_clear(b)) return std::nullopt;
  graph_nodes(m, a, b, max_length, S);
  LazyAStar(m, local, max_length, S).run();
  if (!S.closed[1] || S.prev[1] < 0) return std::nullopt;
  auto& centres = S.centres;
  centres.clear();
  for (int v = 1; v >= 0; v = S.prev[v]) centres.push_back(S.nodes[v]);
  std::reverse(centres.begin(), centres.end());
  return posed_route(m, from, to, centres, S);
}

}  // namespace

std::optional<std::vector<Pose>> TransitScene::shortest_route(const Pose& from, const Pose& to, double max_length) {
  return shortest_route(from, to, max_length, max_length);
}

// With read_length > max_length, the obstacles, gates and candidate points
// are those of the search bounded by read_length, in the same order; only
// the nodes beyond max_length are left out (their order kept) and A* prunes
// at max_length. Until the goal is popped, at a cost m <= max_length, the
// wider search pops the same entries in the same order (ties go by node
// order, which is kept; nodes and entries beyond max_length are popped only
// after every entry of cost m), so both give the same route. When the
// shortest route is longer than max_length, this search gives none.
// Only what lies within read_length/2 of the midpoint of start and goal
// (and the disc's radius) can be on such a route: the gates there are found
// first, then the search only reads.
std::optional<std::vector<Pose>> TransitScene::shortest_route(const Pose& from, const Pose& to, double max_length,
                                                              double read_length) {
  Impl& m = *impl_;
  Vec2 a = from.position, b = to.position;
  double straight = distance(a, b);
  if (!(max_length >= straight)) return std::nullopt;
  read_length = std::max(read_length, max_length);
  if (!m.scratch->route) m.scratch->route.reset(new RouteScratch);
  Vec2 mid = (a + b) / 2;
  double reach = read_length / 2;
  Aabb region = Aabb{mid, mid}.inflated(reach + m.r);
  m.ensure_gates(region);
  return route_within(m, from, to, max_length, region, *m.scratch->route);
}

}  // namespace referee::warmaster
