// The battlefield from above: a 1-inch grid with inch marks, terrain with
// heights, ladders, units with their states, an optional reach overlay, and a
// legend beside the table. Labels go through LabelPlacer, so none covers
// another or a unit's base.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "referee/blightmeer/io.hpp"
#include "referee/core/ruling.hpp"
#include "referee/core/svg.hpp"

namespace referee::blightmeer {

namespace {
constexpr double kPixelsPerInch = 24.0;
constexpr double kLabelSize = 0.5;    // inches
constexpr double kLegendSize = 0.55;  // inches
constexpr double kLegendGap = 1.5;    // between the table and the legend

const char* kSideFill[2] = {"#c03030", "#3050c0"};
const char* kReachColour[4] = {"#2ca02c", "#e0c020", "#f07f10", "#d62728"};
const char* kReachName[4] = {"reachable, no check", "1 check on the way", "2 checks", "3 or more checks"};
const char* kEngaged = "#ff8c00";

// Higher surfaces are drawn darker so the heights read at a glance; every
// surface also carries its height as a label.
std::string surface_fill(double h, double max_h) {
  double f = max_h > 0 ? h / max_h : 0;
  int g = static_cast<int>(215 - 120 * f);
  return fmt::format("rgb({},{},{})", g, g - 10, g - 25);
}

SvgStyle region_style(RegionKind k) {
  switch (k) {
    case RegionKind::impassable: return {"#3d3d3d", "#000", 0.05, 0.85, {}};
    case RegionKind::shallow_water: return {"#8ec5e8", "#4a8fbf", 0.05, 0.8, {}};
    case RegionKind::deep_water: return {"#2f6fb0", "#1d4a78", 0.05, 0.85, {}};
    case RegionKind::difficult: break;
  }
  return {"#9c8a5a", "#6b5a30", 0.05, 0.6, {}};
}
const SvgStyle kLowTerrain{"#b9c98f", "#6f7f45", 0.05, 0.8, "stroke-dasharray=\"4,3\""};

Vec2 centroid(const Polygon& p) {
  Vec2 c{0, 0};
  for (Vec2 q : p.points) c += q;
  return c / static_cast<double>(p.points.size());
}

std::string inches(double v) { return fmt::format("{:g}\"", std::round(v * 10) / 10); }

// The states a player must see on the table, as short marks after the id
// (the legend spells them out).
std::string state_marks(const Unit& u) {
  std::string m;
  if (u.stunned) m += " St";
  if (u.dazed) m += " Dz";
  if (u.staggered) m += " Sg";
  if (u.treasure) m += " T";
  return m;
}

struct PendingLabel {
  Vec2 at;
  std::string text;
  std::string colour;
};

std::vector<std::string> side_names(const State& s) {
  std::vector<std::string> sides;
  for (const Unit& u : s.units)
    if (std::find(sides.begin(), sides.end(), u.side) == sides.end()) sides.push_back(u.side);
  return sides;
}

std::string kind_name(RegionKind k) {
  std::string n = to_string(k);
  std::replace(n.begin(), n.end(), '_', ' ');
  return n;
}

std::string legend_title(const Terrain& t, const ReachAnswer* reach, const RouteOption* route) {
  const std::string name = t.name.empty() ? "Blightmeer" : t.name;
  if (route && route->found)
    return fmt::format("{}: route of {} ({} {} in {})", name, route->report.unit, route->request.run ? "running" : "moving",
                       inches(route->report.spent),
                       count_of(static_cast<double>(split_by_turn(route->report).legs.size()), "turn", "turns"));
  return reach ? fmt::format("{}: reach of {} ({} {})", name, reach->unit, reach->run ? "running" : "moving",
                             inches(reach->allowance))
               : name;
}

// Turn 1 solid, later turns dashed, in colours that read over terrain.
const char* kTurnColour[3] = {"#0b6e4f", "#7b2cbf", "#c2185b"};
const char* turn_colour(int turn) { return kTurnColour[std::clamp(turn, 1, 3) - 1]; }
SvgStyle turn_style(int turn) {
  return {"none", turn_colour(turn), 0.18, 1.0,
          turn == 1 ? std::string("stroke-linecap=\"round\"") : std::string("stroke-dasharray=\"6,3\"")};
}

// The legend: what every colour, border and mark means.
std::vector<LegendEntry> legend_entries(const Terrain& t, const State& s, const ReachAnswer* reach,
                                       const RouteOption* route) {
  const std::vector<std::string> sides = side_names(s);
  double max_h = 0;
  for (const Surface& sf : t.surfaces) max_h = std::max(max_h, sf.height);
  std::vector<LegendEntry> key;
  using Mark = LegendEntry::Mark;
  for (std::size_t k = 0; k < sides.size() && k < 2; ++k)
    key.push_back({Mark::circle, {kSideFill[k], "black", 0.05, 1.0, {}}, "unit of " + sides[k], {}});
  if (reach || route) key.push_back({Mark::circle, {"#ffffff", "black", 0.1, 1.0, {}}, "the unit asked about", {}});
  if (route && route->found) {
    const std::size_t turns = split_by_turn(route->report).legs.size();
    for (std::size_t k = 1; k <= std::min<std::size_t>(turns, 3); ++k)
      key.push_back({Mark::line, turn_style(static_cast<int>(k)), fmt::format("route, turn {}{}", k, k == 3 && turns > 3 ? " and later" : ""), {}});
    key.push_back({Mark::circle, {"#ffffff", kTurnColour[0], 0.08, 1.0, {}}, "where a turn's move stops (T1, T2...)", {}});
  }
  key.push_back({Mark::line, {"none", kEngaged, 0.22, 1.0, {}}, "engaged (in a melee)", {}});
  key.push_back({Mark::glyph, {"#111111", "none", 0, 1.0, {}}, "Stunned", "St"});
  key.push_back({Mark::glyph, {"#111111", "none", 0, 1.0, {}}, "Dazed", "Dz"});
  key.push_back({Mark::glyph, {"#111111", "none", 0, 1.0, {}}, "Staggered", "Sg"});
  key.push_back({Mark::glyph, {"#111111", "none", 0, 1.0, {}}, "carrying Treasure (gold mark)", "T"});
  key.push_back({Mark::glyph, {"#111111", "none", 0, 1.0, {}}, "unit on a level (on 3\": 3\" up)", "on"});
  std::vector<double> heights;
  for (const Surface& sf : t.surfaces)
    if (std::none_of(heights.begin(), heights.end(), [&](double h) { return std::abs(h - sf.height) < 1e-6; }))
      heights.push_back(sf.height);
  std::sort(heights.begin(), heights.end());
  key.push_back({Mark::box, {"#e8e4c9", "#555", 0.03, 1.0, {}}, "ground (level 0\")", {}});
  for (double h : heights)
    key.push_back({Mark::box, {surface_fill(h, max_h), "#333", 0.03, 1.0, {}}, "surface " + inches(h) + " up", {}});
  key.push_back({Mark::line, {"none", "#333", 0.08, 1.0, {}}, "edge that may be climbed", {}});
  key.push_back({Mark::line, {"none", "#a00", 0.08, 1.0, {}}, "edge that may not be climbed", {}});
  key.push_back({Mark::line, {"none", "#333", 0.2, 1.0, {}}, "edge with a railing", {}});
  key.push_back({Mark::line, {"none", "#7a4a10", 0.25, 1.0, {}}, "ladder (dot at its foot)", {}});
  key.push_back({Mark::box, region_style(RegionKind::difficult), "difficult ground", {}});
  key.push_back({Mark::box, region_style(RegionKind::shallow_water), "shallow water", {}});
  key.push_back({Mark::box, region_style(RegionKind::deep_water), "deep water", {}});
  key.push_back({Mark::box, region_style(RegionKind::impassable), "impassable", {}});
  SvgStyle raised = region_style(RegionKind::difficult);
  raised.extra = "stroke-dasharray=\"3,2\"";
  key.push_back({Mark::box, raised, "region on a roof (dashed)", {}});
  key.push_back({Mark::box, kLowTerrain, "low terrain (1\" or less)", {}});
  if (reach) {
    for (int k = 0; k < 4; ++k)
      key.push_back({Mark::box, {kReachColour[k], "none", 0, 0.6, {}}, kReachName[k], {}});
    key.push_back({Mark::glyph, {"#102040", "none", 0, 1.0, {}}, "reachable cell on a level 3\" up", "3"});
  }
  key.push_back({Mark::line, {"none", "#000", 0.05, 0.35, {}}, "grid: 1\" squares, marks every 6\"", {}});
  return key;
}
// Regions on the ground, low terrain, surfaces from the lowest up, and the regions on their roofs.
void draw_terrain(SvgWriter& w, const Terrain& t) {
  // Regions on the ground first; regions lying on a surface after the surfaces, so they show on its roof.
  auto draw_regions = [&](bool raised) {
    for (const Region& r : t.regions) {
      if ((r.level > kEps && r.kind != RegionKind::impassable) != raised) continue;
      SvgStyle st = region_style(r.kind);
      if (raised) st.extra = "stroke-dasharray=\"3,2\"";
      w.polygon(r.area, st);
    }
  };
  w.begin_group("regions");
  draw_regions(false);
  for (const LowTerrain& l : t.low_terrain) w.polygon(l.area, kLowTerrain);
  w.end_group();
  w.begin_group("surfaces");
  double max_h = 0;
  for (const Surface& sf : t.surfaces) max_h = std::max(max_h, sf.height);
  std::vector<const Surface*> order;
  for (const Surface& sf : t.surfaces) order.push_back(&sf);
  std::stable_sort(order.begin(), order.end(), [](const Surface* a, const Surface* b) { return a->height < b->height; });
  for (const Surface* sf : order)
    w.polygon(sf->footprint, {surface_fill(sf->height, max_h), sf->climbable ? "#333" : "#a00", sf->railing ? 0.2 : 0.08,
                              1.0, {}});
  w.begin_group("raised-regions");
  draw_regions(true);
  w.end_group();
  w.end_group();
}

void draw_reach(SvgWriter& w, const ReachAnswer& reach) {
  // Each cell in its class colour, and the level it is on written in it
  // when that is not the ground: a roof cell reads "3" for 3 inches up.
  w.begin_group("reach");
  for (const ReachCell& c : reach.cells) {
    Aabb box{{c.p.x - 0.5, c.p.y - 0.5}, {c.p.x + 0.5, c.p.y + 0.5}};
    w.rect(box, {kReachColour[std::clamp(c.checks, 0, 3)], "none", 0, 0.45, {}});
  }
  w.end_group();
  w.begin_group("reach-levels");
  for (const ReachCell& c : reach.cells)
    if (c.p.z > kEps) w.text(c.p.xy(), fmt::format("{:g}", std::round(c.p.z * 10) / 10), 0.42, "#102040");
  w.end_group();
}

void draw_route(SvgWriter& w, const RouteOption& route, const TurnSplit& split) {
  // Each step split where a turn stops, drawn in that turn's style.
  w.begin_group("route");
  std::size_t leg = 0;
  for (const StepReport& st : route.report.steps) {
    Vec3 from = st.from;
    while (leg + 1 < split.legs.size() && split.legs[leg].last_step == st.index && split.legs[leg].mid_step) {
      w.line(from.xy(), split.legs[leg].stop.xy(), turn_style(split.legs[leg].turn));
      from = split.legs[leg].stop;
      ++leg;
    }
    while (leg + 1 < split.legs.size() && st.index > split.legs[leg].last_step) ++leg;
    const int turn = split.legs.empty() ? 1 : split.legs[std::min(leg, split.legs.size() - 1)].turn;
    w.line(from.xy(), st.to.xy(), turn_style(turn));
  }
  for (const TurnLeg& l : split.legs)
    w.circle(l.stop.xy(), 0.25, {"#ffffff", turn_colour(l.turn), 0.08, 1.0, {}});
  w.end_group();
}

// A line between each pair of engaged units on the table.
void draw_engaged(SvgWriter& w, const State& s) {
  w.begin_group("engaged");
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    const Unit& u = s.units[i];
    for (const std::string& o : u.engaged_with) {
      int j = s.find(o);
      // Each pair once, and only between units still on the table.
      if (j < 0 || static_cast<std::size_t>(j) < i || u.incapacitated || s.units[static_cast<std::size_t>(j)].incapacitated)
        continue;
      w.line(u.pos.xy(), s.units[static_cast<std::size_t>(j)].pos.xy(), {"none", kEngaged, 0.22, 1.0, {}});
    }
  }
  w.end_group();
}

// Each unit on the table: a disc in its side's colour (white for the mover), its states in the tooltip.
void draw_units(SvgWriter& w, const State& s, const ReachAnswer* reach, const RouteOption* route) {
  const std::vector<std::string> sides = side_names(s);
  auto side_index = [&](const std::string& side) {
    return static_cast<int>(std::find(sides.begin(), sides.end(), side) - sides.begin());
  };
  w.begin_group("units");
  for (const Unit& u : s.units) {
    if (u.incapacitated) continue;
    w.begin_group("unit-" + u.id);
    std::string states;
    if (!u.engaged_with.empty()) states += ", engaged";
    if (u.stunned) states += ", Stunned";
    if (u.dazed) states += ", Dazed";
    if (u.staggered) states += ", Staggered";
    if (u.treasure) states += ", carrying Treasure";
    w.title(fmt::format("{} '{}' ({}, at {:.1f}, {:.1f}, {:.1f}{})", u.name, u.id, u.side, u.pos.x, u.pos.y, u.pos.z, states));
    bool mover = (reach && reach->unit == u.id) || (route && route->found && route->report.unit == u.id);
    std::string fill = mover ? "#ffffff" : kSideFill[side_index(u.side) & 1];
    w.circle(u.pos.xy(), u.radius(), {fill, u.engaged_with.empty() ? "black" : kEngaged, mover ? 0.12 : 0.08, 1.0, {}});
    if (u.treasure) {
      std::array<Vec2, 4> d{u.pos.xy() + Vec2{0, 0.22}, u.pos.xy() + Vec2{0.18, 0}, u.pos.xy() + Vec2{0, -0.22},
                            u.pos.xy() + Vec2{-0.18, 0}};
      w.polygon(d, {"#ffd700", "#6b5000", 0.03, 1.0, {}});
    }
    w.end_group();
  }
  w.end_group();
}
}  // namespace

std::string render_svg(const Terrain& t, const State& s, const ReachAnswer* reach, const RouteOption* route) {
  const Aabb table = t.table();
  const std::vector<LegendEntry> key = legend_entries(t, s, reach, route);
  const std::string title = legend_title(t, reach, route);
  const Vec2 legend = legend_size(title, key, kLegendSize);
  const Aabb world{{table.min.x - 1.6, std::min(table.min.y, table.max.y - legend.y) - 1.4},
                   {table.max.x + kLegendGap + legend.x, table.max.y + 1.4}};
  SvgWriter w(world, kPixelsPerInch, 0.3);
  w.rect(table, {"#e8e4c9", "#555", 0.05, 1.0, {}});

  // Labels are placed first (units, then ladders, then terrain: the most
  // needed get the nearest spots) and drawn last, over everything.
  LabelPlacer placer(table);
  for (const Unit& u : s.units)
    if (!u.incapacitated)
      placer.keep_clear({{u.pos.x - u.radius(), u.pos.y - u.radius()}, {u.pos.x + u.radius(), u.pos.y + u.radius()}});
  std::vector<PendingLabel> labels;
  const TurnSplit split = route && route->found ? split_by_turn(route->report) : TurnSplit{};
  // The stops of each turn but the last, then the end: keep their marks clear.
  for (std::size_t k = 0; k < split.legs.size(); ++k) {
    const Vec2 p = split.legs[k].stop.xy();
    placer.keep_clear({{p.x - 0.3, p.y - 0.3}, {p.x + 0.3, p.y + 0.3}});
  }
  auto add_label = [&](Vec2 anchor, std::string text, double gap, std::string colour = "#111111") {
    Vec2 at = placer.place(anchor, text, kLabelSize, gap);
    labels.push_back({at, std::move(text), std::move(colour)});
  };
  for (std::size_t k = 0; k < split.legs.size(); ++k) {
    const TurnLeg& l = split.legs[k];
    const bool last = k + 1 == split.legs.size();
    add_label(l.stop.xy(), last ? fmt::format("end, turn {}", l.turn) : fmt::format("T{} stops", l.turn), 0.35,
              turn_colour(l.turn));
  }
  for (const Unit& u : s.units) {
    if (u.incapacitated) continue;
    std::string text = u.id + (u.pos.z > kEps ? " on " + inches(u.pos.z) : "") + state_marks(u);
    add_label(u.pos.xy(), text, u.radius() + 0.1);
  }
  for (const Ladder& l : t.ladders)
    add_label((l.bottom.xy() + l.top.xy()) / 2, fmt::format("{} {}-{}", l.id, inches(l.bottom.z), inches(l.top.z)), 0.3,
              "#7a4a10");
  for (const Surface& sf : t.surfaces) add_label(centroid(sf.footprint), sf.id + " " + inches(sf.height), 0.0, "#202060");
  for (const LowTerrain& l : t.low_terrain) add_label(centroid(l.area), l.id + " " + inches(l.height), 0.0);
  for (const Region& r : t.regions) {
    bool raised = r.level > kEps && r.kind != RegionKind::impassable;
    add_label(centroid(r.area), r.id + " (" + kind_name(r.kind) + (raised ? " on " + inches(r.level) : "") + ")", 0.0);
  }

  draw_terrain(w, t);
  draw_grid(w, table, 1.0, 6, "\"", 0.5);
  if (reach) draw_reach(w, *reach);
  w.begin_group("ladders");
  for (const Ladder& l : t.ladders) {
    w.line(l.bottom.xy(), l.top.xy(), {"none", "#7a4a10", 0.25, 1.0, {}});
    w.circle(l.bottom.xy(), 0.15, {"#7a4a10", "none", 0, 1.0, {}});
  }
  w.end_group();
  if (route && route->found) draw_route(w, *route, split);
  draw_engaged(w, s);
  draw_units(w, s, reach, route);
  w.begin_group("labels");
  for (const PendingLabel& l : labels) w.label(l.at, l.text, kLabelSize, l.colour);
  w.end_group();

  draw_legend(w, {table.max.x + kLegendGap, table.max.y}, title, key, kLegendSize);
  return w.finish();
}

}  // namespace referee::blightmeer
