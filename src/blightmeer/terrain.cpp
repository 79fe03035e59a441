#include <algorithm>
#include <cmath>
#include <span>

#include "referee/blightmeer/model.hpp"
#include "referee/blightmeer/route.hpp"

namespace referee::blightmeer {

const char* to_string(Armour a) {
  switch (a) {
    case Armour::light: return "light";
    case Armour::heavy: return "heavy";
    case Armour::mithril: return "mithril";
    default: return "none";
  }
}

const char* to_string(RegionKind k) {
  switch (k) {
    case RegionKind::impassable: return "impassable";
    case RegionKind::shallow_water: return "shallow_water";
    case RegionKind::deep_water: return "deep_water";
    default: return "difficult";
  }
}

int SurfaceGrid::cx(double x) const {
  const double c = std::floor(x / kCell);
  return c < 0 ? 0 : c >= nx - 1 ? nx - 1 : static_cast<int>(c);
}
int SurfaceGrid::cy(double y) const {
  const double c = std::floor(y / kCell);
  return c < 0 ? 0 : c >= ny - 1 ? ny - 1 : static_cast<int>(c);
}

void Terrain::index_surfaces() {
  for (auto& s : surfaces) s.box = s.footprint.bounds();
  SurfaceGrid& g = surface_grid;
  g = SurfaceGrid{};
  if (surfaces.size() <= SurfaceGrid::kIndexFrom) return;
  g.nx = std::max(1, static_cast<int>(std::ceil(width / SurfaceGrid::kCell)));
  g.ny = std::max(1, static_cast<int>(std::ceil(depth / SurfaceGrid::kCell)));
  const std::size_t cells = static_cast<std::size_t>(g.nx) * static_cast<std::size_t>(g.ny);
  std::vector<int> counts(cells + 1, 0);
  auto for_cells = [&](const Aabb& b, auto&& f) {
    for (int j = g.cy(b.min.y); j <= g.cy(b.max.y); ++j)
      for (int i = g.cx(b.min.x); i <= g.cx(b.max.x); ++i) f(static_cast<std::size_t>(j) * g.nx + i);
  };
  auto is_big = [&](const Aabb& b) {
    return (g.cx(b.max.x) - g.cx(b.min.x) + 1) * (g.cy(b.max.y) - g.cy(b.min.y) + 1) > SurfaceGrid::kBigCells;
  };
  for (const Surface& s : surfaces)
    if (!is_big(s.box)) for_cells(s.box, [&](std::size_t c) { ++counts[c + 1]; });
  for (std::size_t c = 0; c < cells; ++c) counts[c + 1] += counts[c];
  g.start = counts;
  g.ids.resize(static_cast<std::size_t>(counts[cells]));
  for (std::size_t k = 0; k < surfaces.size(); ++k) {
    const int id = static_cast<int>(k);
    if (is_big(surfaces[k].box)) g.big.push_back(id);
    else for_cells(surfaces[k].box, [&](std::size_t c) { g.ids[static_cast<std::size_t>(counts[c]++)] = id; });
  }
  g.count = surfaces.size();
  g.built = true;
}

void Terrain::compile(double max_reach) {
  index_surfaces();
  for (auto& r : regions) r.box = r.area.bounds();
  for (auto& l : low_terrain) l.box = l.area.bounds();
  nav = std::make_shared<const NavGraph>(build_nav_graph(*this, max_reach));
}

bool Terrain::on_table(Vec2 p) const {
  return p.x >= -kEps && p.y >= -kEps && p.x <= width + kEps && p.y <= depth + kEps;
}

// The highest footprint holding p; among equally high ones the first listed.
int Terrain::surface_at(Vec2 p) const {
  int best = -1;
  double h = 0;
  auto consider = [&](int i) {
    const Surface& s = surfaces[static_cast<std::size_t>(i)];
    if ((s.height > h || (s.height == h && best >= 0 && i < best)) && s.box.contains(p) && contains(s.footprint, p)) {
      best = i;
      h = s.height;
    }
  };
  const SurfaceGrid& g = surface_grid;
  if (!g.built || g.count != surfaces.size()) {
    for (std::size_t i = 0; i < surfaces.size(); ++i) consider(static_cast<int>(i));
    return best;
  }
  const std::size_t c = static_cast<std::size_t>(g.cy(p.y)) * g.nx + g.cx(p.x);
  for (int k = g.start[c]; k < g.start[c + 1]; ++k) consider(g.ids[static_cast<std::size_t>(k)]);
  for (int i : g.big) consider(i);
  return best;
}

double Terrain::level_at(Vec2 p) const {
  int s = surface_at(p);
  return s < 0 ? 0.0 : surfaces[static_cast<std::size_t>(s)].height;
}

bool Terrain::in_impassable(Vec2 p) const {
  for (const Region& r : regions)
    if (r.kind == RegionKind::impassable && r.box.contains(p) && contains(r.area, p)) return true;
  return false;
}

unsigned Terrain::regions_at(Vec2 p, double level) const {
  unsigned bits = 0;
  for (const Region& r : regions) {
    if (r.kind == RegionKind::impassable || std::abs(r.level - level) > kEps) continue;
    if (!r.box.contains(p) || !contains(r.area, p)) continue;
    bits |= r.kind == RegionKind::difficult ? kDifficult : r.kind == RegionKind::shallow_water ? kShallow : kDeep;
  }
  return bits;
}

int Terrain::ladder_index(const std::string& id) const {
  for (std::size_t i = 0; i < ladders.size(); ++i)
    if (ladders[i].id == id) return static_cast<int>(i);
  return -1;
}

namespace {
// Parameter along a->b where it crosses c->d, if the two properly meet
// (collinear overlaps are skipped: the level samples on either side decide).
bool crossing(Vec2 a, Vec2 b, Vec2 c, Vec2 d, double& t) {
  Vec2 r = b - a, s = d - c;
  double den = cross(r, s);
  if (std::abs(den) < 1e-12) return false;
  double tt = cross(c - a, s) / den;
  double u = cross(c - a, r) / den;
  if (tt < -1e-12 || tt > 1 + 1e-12 || u < -1e-12 || u > 1 + 1e-12) return false;
  t = std::clamp(tt, 0.0, 1.0);
  return true;
}
}  // namespace

// The level profile under a segment: every point where the line crosses a
// footprint side splits it into pieces of constant level, so sampling each
// crossing and each piece's midpoint gives the exact lowest and highest level
// and the first drop (used for walks, climbs and both kinds of jump).
Terrain::Scan Terrain::scan(Vec2 a, Vec2 b, double level) const {
  Scan out;
  Aabb box = Aabb::of_points(std::array<Vec2, 2>{a, b});
  double ts_buf[64];
  std::vector<double> ts_more;
  int n = 0;
  auto push = [&](double t) {
    if (n < 64) ts_buf[n++] = t; else ts_more.push_back(t);
  };
  push(0);
  push(1);
  // The surfaces near the line (any order: the crossings are sorted below).
  std::vector<int> near;
  const SurfaceGrid& g = surface_grid;
  const bool indexed = g.built && g.count == surfaces.size();
  if (indexed) {
    for (int j = g.cy(box.min.y); j <= g.cy(box.max.y); ++j)
      for (int i = g.cx(box.min.x); i <= g.cx(box.max.x); ++i) {
        const std::size_t c = static_cast<std::size_t>(j) * g.nx + i;
        near.insert(near.end(), g.ids.begin() + g.start[c], g.ids.begin() + g.start[c + 1]);
      }
    std::sort(near.begin(), near.end());
    near.erase(std::unique(near.begin(), near.end()), near.end());
    near.insert(near.end(), g.big.begin(), g.big.end());
  }
  const std::size_t n_near = indexed ? near.size() : surfaces.size();
  for (std::size_t q = 0; q < n_near; ++q) {
    const Surface& s = surfaces[indexed ? static_cast<std::size_t>(near[q]) : q];
    if (!s.box.overlaps(box)) continue;
    const auto& pts = s.footprint.points;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      double t;
      if (crossing(a, b, pts[i], pts[(i + 1) % pts.size()], t)) {
        push(t);
        if (!s.climbable) out.unclimbable_wall = true;
      }
    }
  }
  // Crossings stay on the stack unless a line cuts more than 64 sides.
  std::span<double> ts(ts_buf, static_cast<std::size_t>(n));
  std::vector<double> all;
  if (!ts_more.empty()) {
    all.assign(ts_buf, ts_buf + n);
    all.insert(all.end(), ts_more.begin(), ts_more.end());
    ts = all;
  }
  std::sort(ts.begin(), ts.end());
  double start = level_at(a);
  out.min_level = out.max_level = start;
  auto sample = [&](double t, double from_t) {
    double l = level_at(a + (b - a) * t);
    out.min_level = std::min(out.min_level, l);
    out.max_level = std::max(out.max_level, l);
    if (out.first_drop_t < 0 && l < start - kEps) out.first_drop_t = from_t;
  };
  for (std::size_t i = 0; i < ts.size(); ++i) {
    sample(ts[i], ts[i]);
    if (i + 1 < ts.size() && ts[i + 1] - ts[i] > 1e-9) sample((ts[i] + ts[i + 1]) / 2, ts[i]);
  }
  out.leaves_table = !on_table(a) || !on_table(b);
  Segment seg{a, b};
  for (const Region& r : regions) {
    if (!r.box.overlaps(box)) continue;
    if (r.kind == RegionKind::impassable) {
      if (intersects(seg, r.area)) out.impassable = true;
      continue;
    }
    if (std::abs(r.level - level) > kEps || !intersects(seg, r.area)) continue;
    if (r.kind == RegionKind::difficult) out.bits |= kDifficult;
    if (r.kind == RegionKind::shallow_water) out.bits |= kShallow;
    if (r.kind == RegionKind::deep_water) {
      out.bits |= kDeep;
      auto t = raycast(seg, r.area);
      double tt = t ? *t : 0.0;
      if (out.deep_entry_t < 0 || tt < out.deep_entry_t) out.deep_entry_t = tt;
    }
  }
  if (level < kEps)
    for (const LowTerrain& l : low_terrain)
      if (l.box.overlaps(box) && intersects(seg, l.area)) out.bits |= kLow;
  return out;
}

int State::find(const std::string& id) const {
  for (std::size_t i = 0; i < units.size(); ++i)
    if (units[i].id == id) return static_cast<int>(i);
  return -1;
}

}  // namespace referee::blightmeer
