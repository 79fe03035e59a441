#include <algorithm>
#include <cmath>
#include <limits>

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
      e.cost = static_cast<float>(d);
      e.kind = EdgeKind::walk;
      e.bits = static_cast<std::uint8_t>(sc.bits);
      out.push_back(e);
    }
    if ((kinds & kJumpAcrossEdge) && za > kEps && d <= reach + kEps && sc.min_level < za - kEps &&
        sc.max_level < za + kEps) {
      NavEdge e;
      e.to = to;
      e.cost = static_cast<float>(d);
      e.measure = static_cast<float>(d);
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
    e.cost = static_cast<float>(d + std::abs(zb - za));
    e.kind = EdgeKind::climb;
    e.bits = landing_bits;
    out.push_back(e);
  }
  if ((kinds & kJumpDownEdge) && zb < za && d <= s.jump_down_range + kEps && sc.max_level < za + kEps) {
    NavEdge e;
    e.to = to;
    e.cost = static_cast<float>(d);
    e.measure = static_cast<float>(za - zb);
    e.kind = EdgeKind::jump_down;
    e.bits = landing_bits;
    out.push_back(e);
  }
  if ((kinds & kJumpAcrossEdge) && za > kEps && zb > kEps && zb - za <= 1 + kEps && d <= reach + kEps &&
      sc.min_level < std::min(za, zb) - kEps && sc.max_level < std::max(za, zb) + kEps) {
    NavEdge e;
    e.to = to;
    e.cost = static_cast<float>(d);
    e.measure = static_cast<float>(d);
    e.rise = static_cast<float>(zb - za);
    e.kind = EdgeKind::jump_across;
    e.bits = landing_bits;
    out.push_back(e);
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
    g.nodes.push_back({l.bottom, false});
    g.nodes.push_back({l.top, false});
  }
  std::vector<std::vector<NavEdge>> adj(g.nodes.size());
  const double reach = std::max(max_reach, t.settings.jump_across_reach);
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
    float cost = static_cast<float>(distance(l.bottom.xy(), l.top.xy()) + std::abs(l.top.z - l.bottom.z));
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
  g.first.assign(g.nodes.size() + 1, 0);
  for (std::size_t n = 0; n < adj.size(); ++n) g.first[n + 1] = g.first[n] + static_cast<int>(adj[n].size());
  g.edges.reserve(static_cast<std::size_t>(g.first.back()));
  for (auto& list : adj) g.edges.insert(g.edges.end(), list.begin(), list.end());
  return g;
}

}  // namespace referee::blightmeer
