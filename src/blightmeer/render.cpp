#include <algorithm>

#include <fmt/format.h>

#include "referee/blightmeer/io.hpp"
#include "referee/core/svg.hpp"

namespace referee::blightmeer {

namespace {
// Higher surfaces are drawn darker so the heights read at a glance; every
// surface also carries its height as a label.
std::string surface_fill(double h, double max_h) {
  double f = max_h > 0 ? h / max_h : 0;
  int g = static_cast<int>(215 - 120 * f);
  return fmt::format("rgb({},{},{})", g, g - 10, g - 25);
}

Vec2 centroid(const Polygon& p) {
  Vec2 c{0, 0};
  for (Vec2 q : p.points) c += q;
  return c / static_cast<double>(p.points.size());
}
}  // namespace

std::string render_svg(const Terrain& t, const State& s, const ReachAnswer* reach) {
  SvgWriter w(t.table(), 20.0, 1.0);
  w.rect(t.table(), {"#e8e4c9", "#555", 0.05, 1.0, {}});
  // Regions on the ground first; regions lying on a surface after the surfaces, so they show on its roof.
  auto draw_regions = [&](bool raised) {
    for (const Region& r : t.regions) {
      if ((r.level > kEps && r.kind != RegionKind::impassable) != raised) continue;
      SvgStyle st{"#9c8a5a", "#6b5a30", 0.05, 0.6, {}};
      if (r.kind == RegionKind::impassable) st = {"#3d3d3d", "#000", 0.05, 0.85, {}};
      if (r.kind == RegionKind::shallow_water) st = {"#8ec5e8", "#4a8fbf", 0.05, 0.8, {}};
      if (r.kind == RegionKind::deep_water) st = {"#2f6fb0", "#1d4a78", 0.05, 0.85, {}};
      if (raised) st.extra = "stroke-dasharray=\"3,2\"";
      w.polygon(r.area, st);
      std::string label = r.id + " (" + to_string(r.kind) + (raised ? fmt::format(" at {:.1f}\")", r.level) : ")");
      w.text(centroid(r.area), label, 0.5, r.kind == RegionKind::deep_water ? "white" : "black");
    }
  };
  w.begin_group("regions");
  draw_regions(false);
  for (const LowTerrain& l : t.low_terrain) {
    w.polygon(l.area, {"#b9c98f", "#6f7f45", 0.05, 0.8, "stroke-dasharray=\"4,3\""});
    w.text(centroid(l.area), fmt::format("{} {:.1f}\"", l.id, l.height), 0.5);
  }
  w.end_group();
  w.begin_group("surfaces");
  double max_h = 0;
  for (const Surface& sf : t.surfaces) max_h = std::max(max_h, sf.height);
  std::vector<const Surface*> order;
  for (const Surface& sf : t.surfaces) order.push_back(&sf);
  std::stable_sort(order.begin(), order.end(), [](const Surface* a, const Surface* b) { return a->height < b->height; });
  for (const Surface* sf : order) {
    w.polygon(sf->footprint, {surface_fill(sf->height, max_h), sf->climbable ? "#333" : "#a00", sf->railing ? 0.2 : 0.08,
                              1.0, {}});
    w.text(centroid(sf->footprint) + Vec2{0, 0.4}, sf->id, 0.6);
    w.text(centroid(sf->footprint) - Vec2{0, 0.4}, fmt::format("{:.1f}\"", sf->height), 0.7, "#202060");
  }
  w.begin_group("raised-regions");
  draw_regions(true);
  w.end_group();
  w.end_group();
  if (reach) {
    w.begin_group("reach");
    const char* colours[4] = {"#2ca02c", "#e0c020", "#f07f10", "#d62728"};
    for (const ReachCell& c : reach->cells) {
      Aabb box{{c.p.x - 0.5, c.p.y - 0.5}, {c.p.x + 0.5, c.p.y + 0.5}};
      w.rect(box, {colours[std::clamp(c.checks, 0, 3)], "none", 0, 0.45, {}});
    }
    w.end_group();
  }
  w.begin_group("ladders");
  for (const Ladder& l : t.ladders) {
    w.line(l.bottom.xy(), l.top.xy(), {"none", "#7a4a10", 0.25, 1.0, {}});
    w.circle(l.bottom.xy(), 0.15, {"#7a4a10", "none", 0, 1.0, {}});
    w.text((l.bottom.xy() + l.top.xy()) / 2 + Vec2{0.9, 0}, fmt::format("{} {:.0f}-{:.0f}\"", l.id, l.bottom.z, l.top.z), 0.45, "#7a4a10");
  }
  w.end_group();
  w.begin_group("units");
  for (const Unit& u : s.units) {
    if (u.incapacitated) continue;
    bool mover = reach && reach->unit == u.id;
    std::string fill = mover ? "#ffffff" : (u.side == s.units.front().side ? "#c03030" : "#3050c0");
    w.circle(u.pos.xy(), u.radius(), {fill, "black", mover ? 0.12 : 0.05, 1.0, {}});
    w.text(u.pos.xy() + Vec2{0, u.radius() + 0.35}, fmt::format("{} z{:.0f}", u.id, u.pos.z), 0.5);
  }
  w.end_group();
  if (reach) {
    const char* names[4] = {"no check", "1 check", "2 checks", "3+ checks"};
    const char* colours[4] = {"#2ca02c", "#e0c020", "#f07f10", "#d62728"};
    for (int k = 0; k < 4; ++k) {
      Vec2 at{1.5 + 7.5 * k, -0.6};
      w.rect({{at.x - 0.4, at.y - 0.3}, {at.x + 0.2, at.y + 0.3}}, {colours[k], "none", 0, 0.7, {}});
      w.text(at + Vec2{2.6, 0}, names[k], 0.6);
    }
  }
  return w.finish();
}

}  // namespace referee::blightmeer
