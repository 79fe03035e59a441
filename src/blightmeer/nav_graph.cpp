#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include "referee/blightmeer/route.hpp"

namespace referee::blightmeer {

namespace {
enum : unsigned { kWalkEdge = 1, kClimbEdge = 2, kJumpDownEdge = 4, kJumpAcrossEdge = 8, kAllEdges = 15 };

// The 16 neighbours: orthogonal, diagonal and knight's moves, so grid routes
// stay within about 3% of a straight line before smoothing.
constexpr int kOffsets[16][2] = {{1, 0},  {0, 1},  {-1, 0}, {0, -1}, {1, 1},   {1, -1},  {-1, 1},  {-1, -1},
                                 {2, 1},  {1, 2},  {-2, 1}, {-1, 2}, {2, -1},  {1, -2},  {-2, -1}, {-1, -2}};
constexpr double kWalkMax = 2.3;  // longer than sqrt(5)

void edges_of_kinds(const Terrain& t, Vec3 a, Vec3 b, int to, double max_walk, double reach, unsigned kinds,
                    std::vector<NavEdge>& out) {
  const Settings& s = t.settings;
  double d = distance(a.xy(), b.xy());
  double za = a.z, zb = b.z;
  if (d < 1e-9) {
    // The same spot (a destination on a ladder's end): a free step.
    if (std::abs(za - zb) < kEps && (kinds & kWalkEdge)) {
      NavEdge e;
      e.to = to;
      e.kind = EdgeKind::walk;
      out.push_back(e);
    }
    return;
  }
  bool same = std::abs(za - zb) < kEps;
  if (same) {
    // Only scan when a walk or a jump across is geometrically possible.
    bool can_walk = (kinds & kWalkEdge) && d <= max_walk + kEps;
    bool can_jump = (kinds & kJumpAcrossEdge) && za > kEps && d <= reach + kEps;
    if (!can_walk && !can_jump) return;
    auto sc = t.scan(a.xy(), b.xy(), za);
    if (sc.impassable || sc.leaves_table) return;
    if ((kinds & kWalkEdge) && d <= max_walk + kEps && sc.min_level > za - kEps && sc.max_level < za + kEps) {
      NavEdge e;
      e.to = to;
      e.cost = d;
      e.kind = EdgeKind::walk;
      e.bits = static_cast<std::uint8_t>(sc.bits);
      out.push_back(e);
    }
    if ((kinds & kJumpAcrossEdge) && za > kEps && d <= reach + kEps && sc.min_level < za - kEps &&
        sc.max_level < za + kEps) {
      NavEdge e;
      e.to = to;
      e.cost = d;
      e.measure = d;
      e.kind = EdgeKind::jump_across;
      e.bits = static_cast<std::uint8_t>(t.regions_at(b.xy(), zb));
      out.push_back(e);
    }
    return;
  }
  bool can_climb = (kinds & kClimbEdge) && d <= s.climb_leeway + kEps;
  bool can_drop = (kinds & kJumpDownEdge) && zb < za && d <= s.jump_down_range + kEps;
  bool can_jump = (kinds & kJumpAcrossEdge) && za > kEps && zb > kEps && zb - za <= 1 + kEps && d <= reach + kEps;
  if (!can_climb && !can_drop && !can_jump) return;
  auto sc = t.scan(a.xy(), b.xy(), zb);
  if (sc.impassable || sc.leaves_table) return;
  auto landing_bits = static_cast<std::uint8_t>(t.regions_at(b.xy(), zb));
  if ((kinds & kClimbEdge) && d <= s.climb_leeway + kEps && !sc.unclimbable_wall) {
    NavEdge e;
    e.to = to;
    e.cost = d + std::abs(zb - za);
    e.kind = EdgeKind::climb;
    e.bits = landing_bits;
    out.push_back(e);
  }
  if ((kinds & kJumpDownEdge) && zb < za && d <= s.jump_down_range + kEps && sc.max_level < za + kEps) {
    NavEdge e;
    e.to = to;
    e.cost = d;
    e.measure = za - zb;
    e.kind = EdgeKind::jump_down;
    e.bits = landing_bits;
    out.push_back(e);
  }
  if ((kinds & kJumpAcrossEdge) && za > kEps && zb > kEps && zb - za <= 1 + kEps && d <= reach + kEps &&
      sc.min_level < std::min(za, zb) - kEps && sc.max_level < std::max(za, zb) + kEps) {
    NavEdge e;
    e.to = to;
    e.cost = d;
    e.measure = d;
    e.rise = static_cast<float>(zb - za);
    e.kind = EdgeKind::jump_across;
    e.bits = landing_bits;
    out.push_back(e);
  }
}

// Pairs of boundary nodes along every footprint side where the level changes:
// the top on the side (a hair inside, so it reads the upper level) and the
// foot kFootGap outside. Samples include both ends of the side, so a side
// whose length is a whole number of quarter inches is sampled at every
// quarter inch from its corner.
bool add_boundary_nodes(const Terrain& t, NavGraph& g) {
  constexpr double kInside = 1e-7;
  // None on a table whose sides are too long in all for kMaxBoundarySamples,
  // so loading stays quick at the caps (its routes use the grid alone).
  double perimeter = 0;
  for (const Surface& s : t.surfaces)
    for (std::size_t i = 0; i < s.footprint.points.size(); ++i)
      perimeter += distance(s.footprint.points[i], s.footprint.points[(i + 1) % s.footprint.points.size()]);
  const bool sampled = perimeter / kBoundaryStep <= kMaxBoundarySamples;
  for (const Surface& s : sampled ? std::span<const Surface>(t.surfaces) : std::span<const Surface>()) {
    const auto& pts = s.footprint.points;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const Vec2 a = pts[i], b = pts[(i + 1) % pts.size()];
      const double len = distance(a, b);
      if (len < 1e-9) continue;
      const Vec2 d = (b - a) / len;
      const Vec2 n{d.y, -d.x};
      const int steps = std::max(1, static_cast<int>(std::ceil(len / kBoundaryStep - 1e-9)));
      for (int k = 0; k <= steps; ++k) {
        const Vec2 q = a + (b - a) * (static_cast<double>(k) / steps);
        const double l1 = t.level_at(q + n * kFootGap), l2 = t.level_at(q - n * kFootGap);
        if (std::abs(l1 - l2) < kEps) continue;
        const Vec2 out = l1 < l2 ? n : Vec2{-n.x, -n.y};
        const Vec2 top = q - out * kInside, foot = q + out * kFootGap;
        if (!t.on_table(top) || !t.on_table(foot) || t.in_impassable(top) || t.in_impassable(foot)) continue;
        const double lt = t.level_at(top), lf = t.level_at(foot);
        if (lt < lf + kEps) continue;
        g.nodes.push_back({{top.x, top.y, lt}, true, NodeKind::top, out});
        g.nodes.push_back({{foot.x, foot.y, lf}, false, NodeKind::foot, out});
      }
    }
  }
  // Bucket every non-grid node by its cell for the searches around a point.
  const int cells = g.nx * g.ny;
  g.extra_first.assign(static_cast<std::size_t>(cells) + 1, 0);
  const int grid = cells;
  auto cell = [&](int n) {
    const Vec3 p = g.nodes[static_cast<std::size_t>(n)].p;
    return g.cell_of(p.y, g.ny) * g.nx + g.cell_of(p.x, g.nx);
  };
  if (cells == 0) return sampled;
  for (int n = grid; n < static_cast<int>(g.nodes.size()); ++n) ++g.extra_first[static_cast<std::size_t>(cell(n)) + 1];
  for (int c = 0; c < cells; ++c) g.extra_first[static_cast<std::size_t>(c) + 1] += g.extra_first[static_cast<std::size_t>(c)];
  g.extra.resize(static_cast<std::size_t>(g.extra_first.back()));
  std::vector<int> fill(g.extra_first.begin(), g.extra_first.end() - 1);
  for (int n = grid; n < static_cast<int>(g.nodes.size()); ++n) g.extra[static_cast<std::size_t>(fill[static_cast<std::size_t>(cell(n))]++)] = n;
  return sampled;
}

// Every footprint side as a portal, with its outward normal from the
// footprint's winding; and the pairs of sides of two raised surfaces that face
// each other within `reach` (a jump across or down between them).
void add_portals(const Terrain& t, double reach, NavGraph& g) {
  for (std::size_t si = 0; si < t.surfaces.size(); ++si) {
    const auto& pts = t.surfaces[si].footprint.points;
    const double wind = t.surfaces[si].footprint.signed_area() > 0 ? 1.0 : -1.0;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const Vec2 a = pts[i], b = pts[(i + 1) % pts.size()];
      const double len = distance(a, b);
      if (len < 1e-9) continue;
      const Vec2 d = (b - a) / len;
      g.portals.push_back({a, b, Vec2{d.y, -d.x} * wind, static_cast<int>(si)});
    }
  }
  const int n = static_cast<int>(g.portals.size());
  for (int i = 0; i < n; ++i) {
    const NavPortal& p = g.portals[static_cast<std::size_t>(i)];
    if (t.surfaces[static_cast<std::size_t>(p.surface)].height < kEps) continue;
    for (int j = 0; j < n; ++j) {
      const NavPortal& q = g.portals[static_cast<std::size_t>(j)];
      if (q.surface == p.surface || t.surfaces[static_cast<std::size_t>(q.surface)].height < kEps) continue;
      // Some of q in front of p, and some of p in front of q.
      if (std::max(dot(q.a - p.a, p.out), dot(q.b - p.a, p.out)) <= 0) continue;
      if (std::max(dot(p.a - q.a, q.out), dot(p.b - q.a, q.out)) <= 0) continue;
      if (closest_points(Segment{p.a, p.b}, Segment{q.a, q.b}).distance > reach + kEps) continue;
      g.jump_pairs.emplace_back(i, j);
    }
  }
}

// A walk is the same both ways: its reverse is added without a second scan.
void add_walk_both(const Terrain& t, const NavGraph& g, int a, int b, double max_walk,
                   std::vector<std::vector<NavEdge>>& adj) {
  auto& la = adj[static_cast<std::size_t>(a)];
  const std::size_t before = la.size();
  edges_of_kinds(t, g.nodes[static_cast<std::size_t>(a)].p, g.nodes[static_cast<std::size_t>(b)].p, b, max_walk, 0,
                 kWalkEdge, la);
  if (la.size() > before) {
    NavEdge back = la.back();
    back.to = a;
    adj[static_cast<std::size_t>(b)].push_back(back);
  }
}

void link_boundary_nodes(const Terrain& t, const NavGraph& g, double reach, std::vector<std::vector<NavEdge>>& adj) {
  const int grid = g.nx * g.ny;
  const int total = static_cast<int>(g.nodes.size());
  const double jump_reach = std::min(reach, t.settings.jump_across_reach);
  auto node = [&](int n) -> const NavNode& { return g.nodes[static_cast<std::size_t>(n)]; };
  // Calls f on grid cells and on non-grid nodes within r of p.
  auto around = [&](Vec2 p, double r, bool cells, bool extras, auto&& f) {
    if (grid == 0) return;
    const int i0 = g.cell_of(p.x - r, g.nx), i1 = g.cell_of(p.x + r, g.nx);
    const int j0 = g.cell_of(p.y - r, g.ny), j1 = g.cell_of(p.y + r, g.ny);
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        const int c = j * g.nx + i;
        if (cells && g.valid(c) && distance(node(c).p.xy(), p) <= r + kEps) f(c);
        if (extras)
          for (int k = g.extra_first[static_cast<std::size_t>(c)]; k < g.extra_first[static_cast<std::size_t>(c) + 1]; ++k) {
            const int m = g.extra[static_cast<std::size_t>(k)];
            if (m >= g.boundary && distance(node(m).p.xy(), p) <= r + kEps) f(m);
          }
      }
  };
  for (int b = g.boundary; b < total; ++b) {
    const NavNode& nb = node(b);
    auto& out = adj[static_cast<std::size_t>(b)];
    const Vec3 p = nb.p;
    if (nb.kind == NodeKind::top) {
      // Its own foot: climb down, jump down; and the climb back up.
      const Vec3 f = node(b + 1).p;
      edges_of_kinds(t, p, f, b + 1, 0, 0, kClimbEdge | kJumpDownEdge, out);
      edges_of_kinds(t, f, p, b, 0, 0, kClimbEdge, adj[static_cast<std::size_t>(b) + 1]);
    }
    // Straight walks to the cells around (both ways), and to the boundary nodes near it.
    around(p.xy(), kBoundaryWalk, true, false, [&](int c) {
      if (std::abs(node(c).p.z - p.z) < kEps) add_walk_both(t, g, b, c, kBoundaryWalk, adj);
    });
    around(p.xy(), kBoundaryLink, false, true, [&](int m) {
      if (m > b && std::abs(node(m).p.z - p.z) < kEps) add_walk_both(t, g, b, m, kBoundaryLink, adj);
    });
    if (nb.kind != NodeKind::top) continue;
    // Jumps across to the tops across a gap, each facing the other. (A jump
    // down lands at the own foot and walks on: the same inches as landing
    // further out; the cells' own jumps still go over things.)
    around(p.xy(), jump_reach, false, true, [&](int m) {
      const NavNode& nm = node(m);
      if (nm.kind != NodeKind::top) return;
      const Vec2 d = nm.p.xy() - p.xy();
      if (dot(d, nb.out) <= 0 || dot(d, nm.out) >= 0) return;
      edges_of_kinds(t, p, nm.p, m, 0, jump_reach, kJumpAcrossEdge, out);
    });
  }
}
}  // namespace

void edges_between(const Terrain& t, Vec3 a, Vec3 b, int to, double max_walk, std::vector<NavEdge>& out) {
  double reach = t.nav ? t.nav->max_reach : 6.0;
  edges_of_kinds(t, a, b, to, max_walk, reach, kAllEdges, out);
}

NavGraph build_nav_graph(const Terrain& t, double max_reach) {
  NavGraph g;
  g.max_reach = max_reach;
  g.nx = std::max(0, static_cast<int>(std::floor(t.width + kEps)));
  g.ny = std::max(0, static_cast<int>(std::floor(t.depth + kEps)));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const int grid = g.nx * g.ny;
  g.nodes.resize(static_cast<std::size_t>(grid));
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      Vec2 p{i + 0.5, j + 0.5};
      NavNode& n = g.nodes[static_cast<std::size_t>(j * g.nx + i)];
      n.p = {p.x, p.y, t.in_impassable(p) ? nan : t.level_at(p)};
    }
  auto at = [&](int i, int j) -> const NavNode* {
    if (i < 0 || j < 0 || i >= g.nx || j >= g.ny) return nullptr;
    const NavNode& n = g.nodes[static_cast<std::size_t>(j * g.nx + i)];
    return std::isnan(n.p.z) ? nullptr : &n;
  };
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      NavNode& n = g.nodes[static_cast<std::size_t>(j * g.nx + i)];
      if (std::isnan(n.p.z) || n.p.z < kEps) continue;
      for (int k = 0; k < 8; ++k) {
        const NavNode* m = at(i + kOffsets[k][0], j + kOffsets[k][1]);
        if (m && m->p.z < n.p.z - kEps) n.edge = true;
      }
    }
  for (const Ladder& l : t.ladders) {
    g.nodes.push_back({l.bottom, false, NodeKind::ladder_end, {}});
    g.nodes.push_back({l.top, false, NodeKind::ladder_end, {}});
  }
  g.boundary = static_cast<int>(g.nodes.size());
  const bool sampled = add_boundary_nodes(t, g);
  std::vector<std::vector<NavEdge>> adj(g.nodes.size());
  const double reach = std::max(max_reach, t.settings.jump_across_reach);
  if (sampled) add_portals(t, std::max(reach, t.settings.jump_down_range), g);
  const int jr = static_cast<int>(std::ceil(std::max(reach, t.settings.jump_down_range)));
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      const int u = j * g.nx + i;
      const NavNode& a = g.nodes[static_cast<std::size_t>(u)];
      if (std::isnan(a.p.z)) continue;
      for (const auto& off : kOffsets) {
        const NavNode* b = at(i + off[0], j + off[1]);
        if (b) edges_of_kinds(t, a.p, b->p, (j + off[1]) * g.nx + i + off[0], kWalkMax, reach,
                              kWalkEdge | kClimbEdge, adj[static_cast<std::size_t>(u)]);
      }
      if (!a.edge) continue;
      for (int dj = -jr; dj <= jr; ++dj)
        for (int di = -jr; di <= jr; ++di) {
          const NavNode* b = at(i + di, j + dj);
          if (!b || (di == 0 && dj == 0)) continue;
          // Jumps across land on another edge; jumps down land anywhere lower.
          unsigned kinds = kJumpDownEdge | (b->edge ? kJumpAcrossEdge : 0u);
          edges_of_kinds(t, a.p, b->p, (j + dj) * g.nx + i + di, 0, reach, kinds, adj[static_cast<std::size_t>(u)]);
        }
    }
  for (std::size_t li = 0; li < t.ladders.size(); ++li) {
    const int ends[2] = {grid + static_cast<int>(2 * li), grid + static_cast<int>(2 * li + 1)};
    for (int e : ends) {
      Vec3 p = g.nodes[static_cast<std::size_t>(e)].p;
      int ci = static_cast<int>(std::floor(p.x)), cj = static_cast<int>(std::floor(p.y));
      for (int dj = -2; dj <= 2; ++dj)
        for (int di = -2; di <= 2; ++di) {
          const NavNode* b = at(ci + di, cj + dj);
          if (!b) continue;
          int v = (cj + dj) * g.nx + ci + di;
          edges_of_kinds(t, p, b->p, v, kWalkMax, reach, kWalkEdge, adj[static_cast<std::size_t>(e)]);
          edges_of_kinds(t, b->p, p, e, kWalkMax, reach, kWalkEdge, adj[static_cast<std::size_t>(v)]);
        }
    }
    const Ladder& l = t.ladders[li];
    double cost = distance(l.bottom.xy(), l.top.xy()) + std::abs(l.top.z - l.bottom.z);
    for (int k = 0; k < 2; ++k) {
      NavEdge e;
      e.to = ends[1 - k];
      e.cost = cost;
      e.kind = EdgeKind::ladder;
      e.ladder = static_cast<int>(li);
      e.bits = static_cast<std::uint8_t>(t.regions_at(g.nodes[static_cast<std::size_t>(e.to)].p.xy(),
                                                      g.nodes[static_cast<std::size_t>(e.to)].p.z));
      adj[static_cast<std::size_t>(ends[k])].push_back(e);
    }
  }
  link_boundary_nodes(t, g, reach, adj);
  g.first.assign(g.nodes.size() + 1, 0);
  for (std::size_t n = 0; n < adj.size(); ++n) g.first[n + 1] = g.first[n] + static_cast<int>(adj[n].size());
  g.edges.reserve(static_cast<std::size_t>(g.first.back()));
  for (auto& list : adj) g.edges.insert(g.edges.end(), list.begin(), list.end());
  return g;
}

}  // namespace referee::blightmeer
