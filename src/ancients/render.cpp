#include "referee/ancients/render.hpp"

#include <array>
#include <cmath>

#include <fmt/format.h>

#include "referee/core/svg.hpp"

namespace referee::ancients {

namespace {

const double kRadius = 1.0 / std::sqrt(3.0);  // pointy-top hex, 1 unit across the flats

std::array<Vec2, 6> hex_corners(Vec2 c, double scale = 1.0) {
  std::array<Vec2, 6> pts;
  for (int k = 0; k < 6; ++k) {
    double a = (30.0 + 60.0 * k) * 3.14159265358979323846 / 180.0;
    pts[static_cast<std::size_t>(k)] = {c.x + kRadius * scale * std::cos(a), c.y + kRadius * scale * std::sin(a)};
  }
  return pts;
}

SvgStyle style(std::string fill, std::string stroke, double width, double opacity = 1.0, std::string extra = {}) {
  return SvgStyle{std::move(fill), std::move(stroke), width, opacity, std::move(extra)};
}

const char* side_colour(int side) { return side == 0 ? "#c0392b" : "#2e6db4"; }

}  // namespace

std::string render_board(const Battle& b, const Position& p, const RenderOptions& o) {
  const BoardGeometry& g = b.board;
  const double height = (g.rows() - 1) * std::sqrt(3.0) / 2.0 + 1.2;
  SvgWriter svg({{0, -0.5}, {static_cast<double>(g.columns()), height}}, 64.0, 0.3);
  svg.rect({{-0.3, -0.8}, {g.columns() + 0.3, height + 0.3}}, style("#fbf8f0", "none", 0.0));
  if (!o.title.empty()) svg.text({g.columns() / 2.0, -0.3}, o.title, 0.28);
  static const std::array<const char*, 3> tints{"#f3e6e6", "#eef0e2", "#e4ebf5"};

  svg.begin_group("hexes");
  for (int i = 0; i < g.cell_count(); ++i) {
    if (!g.valid_index(i)) continue;
    Vec2 c = g.centre(i);
    std::string fill = "#f7f3e8";
    if (o.shade_sections) {
      std::uint8_t m = g.section_mask(i);
      fill = (m & (m - 1)) ? "#d9d2c0" : tints[m == 1 ? 0 : m == 2 ? 1 : 2];
    }
    if (const TerrainType* t = b.terrain_at(i)) fill = t->fill;
    auto pts = hex_corners(c);
    svg.polygon(pts, style(fill, "#8a8170", 0.02));
    if (const TerrainType* t = b.terrain_at(i)) svg.text({c.x, c.y - 0.36}, t->name, 0.12, "#33302a");
    if (o.hex_labels && p.unit_on(i) < 0) svg.text({c.x, c.y + 0.32}, format_hex(g.col_row(i)), 0.13, "#6b6455");
  }
  svg.end_group();

  // The dotted section lines run through the centres of columns L on the full rows.
  svg.begin_group("sections");
  for (int line : g.section_lines()) {
    double x = line + 0.5;
    svg.line({x, -0.1}, {x, height - 0.1}, style("none", "#5a4a2a", 0.03, 1.0, "stroke-dasharray=\"6,5\""));
  }
  svg.end_group();

  if (!o.destinations.empty()) {
    svg.begin_group("destinations");
    for (const Destination& d : o.destinations) {
      Vec2 c = g.centre(d.hex);
      bool battle = o.destinations_of_unit && d.may_battle;
      std::string fill = !o.destinations_of_unit ? "#f5d76e" : battle ? "#7dd87d" : "#f0a35e";
      auto pts = hex_corners(c, 0.92);
      svg.polygon(pts, style(fill, d.close_combat_compulsory ? "#b00020" : "#2d5a27", 0.04, 0.75));
      std::string label = fmt::format("{}", d.hexes);
      if (o.destinations_of_unit) label += battle ? (d.close_combat_compulsory ? " CC!" : " B") : " no B";
      svg.text({c.x, c.y - 0.18}, label, 0.15, "#1d2b1a");
    }
    svg.end_group();
  }

  svg.begin_group("units");
  for (std::size_t u = 0; u < b.units.size(); ++u) {
    const UnitState& us = p.units[u];
    Vec2 c = g.centre(us.hex);
    const UnitClass& cls = b.unit_class(static_cast<int>(u));
    std::array<Vec2, 4> box{Vec2{c.x - 0.3, c.y - 0.2}, Vec2{c.x + 0.3, c.y - 0.2}, Vec2{c.x + 0.3, c.y + 0.2},
                            Vec2{c.x - 0.3, c.y + 0.2}};
    svg.begin_group("unit-" + b.units[u].id);
    svg.title(fmt::format("{} {} (side {}, {} blocks)", cls.name, b.units[u].id, b.units[u].side, us.blocks));
    svg.polygon(box, style(side_colour(b.units[u].side), us.hex == o.selected_hex ? "#ffd400" : "#222222",
                           us.hex == o.selected_hex ? 0.06 : 0.02));
    svg.text({c.x, c.y + 0.07}, cls.badge, 0.16, "white");
    std::string label = b.units[u].label.empty() ? b.units[u].id : b.units[u].label;
    svg.text({c.x, c.y - 0.1}, fmt::format("{} [{}]", label, us.blocks), 0.11, "white");
    svg.end_group();
  }
  svg.end_group();

  svg.begin_group("leaders");
  for (std::size_t l = 0; l < b.leaders.size(); ++l) {
    const LeaderState& ls = p.leaders[l];
    Vec2 c = g.centre(ls.hex);
    Vec2 at = ls.attached >= 0 ? Vec2{c.x + 0.3, c.y + 0.22} : c;
    svg.begin_group("leader-" + b.leaders[l].id);
    svg.title(fmt::format("leader {} (side {}){}", b.leaders[l].id, b.leaders[l].side,
                          ls.attached >= 0 ? " attached to " + b.units[static_cast<std::size_t>(ls.attached)].id : ""));
    svg.circle(at, 0.13, style("#f4d03f", side_colour(b.leaders[l].side), ls.hex == o.selected_hex && ls.attached < 0 ? 0.06 : 0.04));
    svg.text(at, b.leaders[l].id, 0.1, "#222222");
    svg.end_group();
  }
  svg.end_group();
  return svg.finish();
}

}  // namespace referee::ancients
