#include "referee/ancients/render.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "referee/core/ruling.hpp"
#include "referee/core/svg.hpp"

namespace referee::ancients {

namespace {

constexpr double kPixelsPerHex = 104.0;
const double kRadius = 1.0 / std::sqrt(3.0);  // pointy-top hex, 1 unit across the flats
// Heights within a hex (world y points up the picture): coordinates at the
// top, the unit box in the middle, a leader's name or the terrain at the bottom.
constexpr double kCoordY = 0.36, kBottomY = -0.37, kBoxHalfW = 0.36, kBoxHalfH = 0.22;
constexpr double kCoordSize = 0.12, kBottomSize = 0.12, kLegendSize = 0.15;

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
const char* kLeaderFill = "#f4d03f";
const char* kBattleFill = "#7dd87d";
const char* kNoBattleFill = "#f0a35e";
const char* kLeaderDestFill = "#f5d76e";
const char* kCompulsory = "#b00020";
const char* kSection = "#5a4a2a";
const std::array<const char*, 3> tints{"#f3e6e6", "#eef0e2", "#e4ebf5"};  // left, centre, right section
const char* kShared = "#d9d2c0";

// The mark on a destination hex: hexes moved, then whether it may battle.
std::string destination_mark(const Destination& d, bool of_unit) {
  std::string m = fmt::format("{}", d.hexes);
  if (of_unit) m += d.may_battle ? (d.close_combat_compulsory ? " CC!" : " B") : " no B";
  return m;
}

std::string side_name(const Battle& b, int side) {
  const std::string& player = b.players[static_cast<std::size_t>(side & 1)].name;
  const char* seat = side == 0 ? "bottom" : "top";
  // A player named after the seat ("bottom (side 0)") adds nothing.
  const bool says_more = !player.empty() && player.find(seat) == std::string::npos;
  return fmt::format("side {} ({}{}{})", side, seat, says_more ? ", " : "", says_more ? player : "");
}

struct Text {
  Vec2 at;
  std::string s;
  double size;
  std::string fill;
  bool boxed = false;
};


// The legend, under the board: sides, pieces, destination marks, terrain.
std::vector<LegendEntry> board_legend(const Battle& b, const RenderOptions& o) {
  const BoardGeometry& g = b.board;
  using Mark = LegendEntry::Mark;
  std::vector<LegendEntry> key;
  for (int side = 0; side < 2; ++side)
    if (std::any_of(b.units.begin(), b.units.end(), [&](const UnitSpec& u) { return u.side == side; }))
      key.push_back({Mark::box, style(side_colour(side), "#222222", 0.01), "unit of " + side_name(b, side) + ": class [blocks], id", {}});
  if (!b.leaders.empty())
    key.push_back({Mark::box, style(kLeaderFill, "#222222", 0.015), "leader: its name on a gold tag, under its unit", {}});
  if (o.shade_sections) {
    key.push_back({Mark::box, style(tints[0], "#8a8170", 0.01), "left section (side 0's left)", {}});
    key.push_back({Mark::box, style(tints[1], "#8a8170", 0.01), "centre section", {}});
    key.push_back({Mark::box, style(tints[2], "#8a8170", 0.01), "right section", {}});
    key.push_back({Mark::box, style(kShared, "#8a8170", 0.01), "hex cut by a line: in both sections", {}});
  }
  if (o.selected_hex >= 0) key.push_back({Mark::box, style("none", "#ffd400", 0.05), "the piece asked about", {}});
  key.push_back({Mark::line, style("none", kSection, 0.02, 1.0, "stroke-dasharray=\"6,5\""), "section line (hexes cut belong to both)", {}});
  if (!o.destinations.empty()) {
    if (o.destinations_of_unit) {
      key.push_back({Mark::box, style(kBattleFill, "#2d5a27", 0.02, 0.75), "\"2 B\": 2 hexes moved, may battle", {}});
      key.push_back({Mark::box, style(kBattleFill, kCompulsory, 0.03, 0.75), "\"2 CC!\": must close combat (warrior)", {}});
      key.push_back({Mark::box, style(kNoBattleFill, "#2d5a27", 0.02, 0.75), "\"1 no B\": may move, may not battle", {}});
    } else {
      key.push_back({Mark::box, style(kLeaderDestFill, "#2d5a27", 0.02, 0.75), "\"2\": the leader may move there (2 hexes)", {}});
    }
  }
  key.push_back({Mark::glyph, style("#6b6455", "none", 0), "column,row of the hex (as actions name it)", "7,5"});
  std::vector<const TerrainType*> terrains;
  for (int i = 0; i < g.cell_count(); ++i)
    if (g.valid_index(i))
      if (const TerrainType* t = b.terrain_at(i); t && std::find(terrains.begin(), terrains.end(), t) == terrains.end())
        terrains.push_back(t);
  for (const TerrainType* t : terrains) key.push_back({Mark::box, style(t->fill, "#8a8170", 0.01), t->name, {}});
  return key;
}

// The hexes, tinted by section or terrain, and the destinations asked for.
void draw_hexes(SvgWriter& svg, const Battle& b, const RenderOptions& o) {
  const BoardGeometry& g = b.board;
  svg.begin_group("hexes");
  for (int i = 0; i < g.cell_count(); ++i) {
    if (!g.valid_index(i)) continue;
    Vec2 c = g.centre(i);
    std::string fill = "#f7f3e8";
    if (o.shade_sections) {
      std::uint8_t m = g.section_mask(i);
      fill = (m & (m - 1)) ? kShared : tints[m == 1 ? 0 : m == 2 ? 1 : 2];
    }
    if (const TerrainType* t = b.terrain_at(i)) fill = t->fill;
    auto pts = hex_corners(c);
    svg.polygon(pts, style(fill, "#8a8170", 0.02));
  }
  svg.end_group();

  if (!o.destinations.empty()) {
    svg.begin_group("destinations");
    for (const Destination& d : o.destinations) {
      if (!g.valid_index(d.hex)) continue;
      Vec2 c = g.centre(d.hex);
      bool battle = o.destinations_of_unit && d.may_battle;
      std::string fill = !o.destinations_of_unit ? kLeaderDestFill : battle ? kBattleFill : kNoBattleFill;
      auto pts = hex_corners(c, 0.92);
      svg.polygon(pts, style(fill, d.close_combat_compulsory ? kCompulsory : "#2d5a27", d.close_combat_compulsory ? 0.05 : 0.03, 0.75));
    }
    svg.end_group();
  }
}

// Each unit: a box in its side's colour with its class, blocks and id.
void draw_units(SvgWriter& svg, const Battle& b, const Position& p, const RenderOptions& o) {
  const BoardGeometry& g = b.board;
  svg.begin_group("units");
  for (std::size_t u = 0; u < b.units.size(); ++u) {
    const UnitState& us = p.units[u];
    if (!g.valid_index(us.hex)) continue;
    Vec2 c = g.centre(us.hex);
    const UnitClass& cls = b.unit_class(static_cast<int>(u));
    std::array<Vec2, 4> box{Vec2{c.x - kBoxHalfW, c.y - kBoxHalfH}, Vec2{c.x + kBoxHalfW, c.y - kBoxHalfH},
                            Vec2{c.x + kBoxHalfW, c.y + kBoxHalfH}, Vec2{c.x - kBoxHalfW, c.y + kBoxHalfH}};
    svg.begin_group("unit-" + b.units[u].id);
    // The tooltip carries the name; the box the id that actions use.
    const std::string name = b.units[u].label.empty() ? cls.name : b.units[u].label + ", " + cls.name;
    svg.title(fmt::format("{} ({}, side {}, {})", name, b.units[u].id, b.units[u].side,
                          count_of(us.blocks, "block", "blocks")));
    const bool selected = us.hex == o.selected_hex;
    svg.polygon(box, style(side_colour(b.units[u].side), selected ? "#ffd400" : "#222222", selected ? 0.06 : 0.015));
    svg.text({c.x, c.y + 0.09}, fmt::format("{} [{}]", cls.badge, us.blocks), 0.15, "white");
    svg.text({c.x, c.y - 0.1}, b.units[u].id, 0.13, "white");
    svg.end_group();
  }
  svg.end_group();
}

// Each leader: its name on a gold tag where the layout put it.
void draw_leaders(SvgWriter& svg, const Battle& b, const Position& p, const RenderOptions& o,
                  const std::vector<Vec2>& leader_label) {
  const BoardGeometry& g = b.board;
  svg.begin_group("leaders");
  for (std::size_t l = 0; l < b.leaders.size(); ++l) {
    const LeaderState& ls = p.leaders[l];
    if (!g.valid_index(ls.hex)) continue;
    const LeaderSpec& spec = b.leaders[l];
    const std::string name = spec.name.empty() ? spec.id : spec.name;
    svg.begin_group("leader-" + spec.id);
    svg.title(fmt::format("leader {} ({}, side {}){}", name, spec.id, spec.side,
                          ls.attached >= 0 ? " with unit " + b.units[static_cast<std::size_t>(ls.attached)].id : ", alone"));
    {
      const Aabb box = text_box(leader_label[l], name, kBottomSize);
      const bool selected = ls.hex == o.selected_hex && ls.attached < 0;
      svg.raw(fmt::format(R"(<g class="label" data-box="{:.3f} {:.3f} {:.3f} {:.3f}">)", box.min.x, box.min.y, box.max.x,
                          box.max.y));
      svg.rect(box, style(kLeaderFill, selected ? "#ffd400" : side_colour(spec.side), selected ? 0.04 : 0.015));
      svg.text(leader_label[l], name, kBottomSize, "#222222");
      svg.raw("</g>");
    }
    svg.end_group();
  }
  svg.end_group();
}

}  // namespace

std::string render_board(const Battle& b, const Position& p, const RenderOptions& o) {
  const BoardGeometry& g = b.board;
  const double height = (g.rows() - 1) * std::sqrt(3.0) / 2.0 + 1.2;

  const std::vector<LegendEntry> key = board_legend(b, o);
  // As many columns as fit the board's width, each as wide as the widest entry.
  const std::string legend_title = o.title.empty() ? std::string("Key") : o.title;
  const double one_column = legend_size("", key, kLegendSize, 1).x;
  const int columns = std::clamp(static_cast<int>(g.columns() / one_column), 1, 3);
  const double column_width = std::max(one_column, (g.columns() - 0.2) / columns);
  const Vec2 legend = legend_size(legend_title, key, kLegendSize, columns, column_width);

  const Aabb board{{-0.3, -0.3}, {g.columns() + 0.3, height + 0.3}};
  SvgWriter svg({{0, -0.5 - legend.y}, {static_cast<double>(g.columns()), height}}, kPixelsPerHex, 0.3);
  svg.rect({{-0.3, -0.8 - legend.y}, {g.columns() + 0.3, height + 0.3}}, style("#fbf8f0", "none", 0.0));

  // Every text is laid out first, so the section lines can stop short of them
  // and leader names can keep off the unit boxes.
  std::vector<Text> texts;
  LabelPlacer placer(board);
  std::vector<Aabb> unit_boxes;
  for (std::size_t u = 0; u < b.units.size(); ++u) {
    if (!g.valid_index(p.units[u].hex)) continue;
    Vec2 c = g.centre(p.units[u].hex);
    unit_boxes.push_back({{c.x - kBoxHalfW, c.y - kBoxHalfH}, {c.x + kBoxHalfW, c.y + kBoxHalfH}});
    placer.keep_clear(unit_boxes.back());
  }
  std::vector<int> leader_on(static_cast<std::size_t>(g.cell_count()), -1);
  for (std::size_t l = 0; l < b.leaders.size(); ++l)
    if (g.valid_index(p.leaders[l].hex)) leader_on[static_cast<std::size_t>(p.leaders[l].hex)] = static_cast<int>(l);
  std::vector<bool> destination(static_cast<std::size_t>(g.cell_count()), false);
  for (const Destination& d : o.destinations)
    if (g.valid_index(d.hex)) destination[static_cast<std::size_t>(d.hex)] = true;
  for (int i = 0; i < g.cell_count(); ++i) {
    if (!g.valid_index(i)) continue;
    Vec2 c = g.centre(i);
    if (o.hex_labels) {
      Vec2 at{c.x, c.y + kCoordY};
      placer.keep_clear(text_box(at, format_hex(g.col_row(i)), kCoordSize));
      texts.push_back({at, format_hex(g.col_row(i)), kCoordSize, destination[static_cast<std::size_t>(i)] ? "#1d2b1a" : "#6b6455"});
    }
    const TerrainType* t = b.terrain_at(i);
    if (t && leader_on[static_cast<std::size_t>(i)] < 0 && !destination[static_cast<std::size_t>(i)]) {
      Vec2 at{c.x, c.y + kBottomY};
      placer.keep_clear(text_box(at, t->name, kBottomSize));
      texts.push_back({at, t->name, kBottomSize, "#33302a"});
    }
  }
  std::vector<Text> marks;
  for (const Destination& d : o.destinations) {
    if (!g.valid_index(d.hex)) continue;
    Vec2 c = g.centre(d.hex);
    std::string m = destination_mark(d, o.destinations_of_unit);
    placer.keep_clear(text_box(c, m, 0.17));
    marks.push_back({c, m, 0.17, "#1d2b1a"});
  }
  // Leader names: under the box of the unit they are with, or in the middle
  // of their hex when alone; the placer moves one that would cover a unit.
  std::vector<Vec2> leader_label(b.leaders.size());
  for (std::size_t l = 0; l < b.leaders.size(); ++l) {
    if (!g.valid_index(p.leaders[l].hex)) continue;
    Vec2 c = g.centre(p.leaders[l].hex);
    const std::string name = b.leaders[l].name.empty() ? b.leaders[l].id : b.leaders[l].name;
    const bool alone = p.unit_on(p.leaders[l].hex) < 0;
    leader_label[l] = placer.place({c.x, alone ? c.y : c.y + kBottomY}, name, kBottomSize);
    texts.push_back({leader_label[l], name, kBottomSize, "#222222", true});
  }

  draw_hexes(svg, b, o);

  // The dotted section lines run through the centres of columns L on the full
  // rows; they break where they would cross a text.
  std::vector<Aabb> keep_off = unit_boxes;
  for (const Text& t : texts) keep_off.push_back(text_box(t.at, t.s, t.size).inflated(0.02));
  for (const Text& t : marks) keep_off.push_back(text_box(t.at, t.s, t.size).inflated(0.02));
  svg.begin_group("sections");
  for (int line : g.section_lines()) {
    double x = line + 0.5;
    for (const Segment& s : segment_outside({x, -0.1}, {x, height - 0.1}, keep_off))
      svg.line(s.a, s.b, style("none", kSection, 0.03, 1.0, "stroke-dasharray=\"6,5\""));
  }
  svg.end_group();

  svg.begin_group("hex-labels");
  for (const Text& t : texts)
    if (!t.boxed) svg.text(t.at, t.s, t.size, t.fill);
  for (const Text& t : marks) svg.text(t.at, t.s, t.size, t.fill);
  svg.end_group();

  draw_units(svg, b, p, o);
  draw_leaders(svg, b, p, o, leader_label);

  draw_legend(svg, {0, -0.55}, legend_title, key, kLegendSize, columns, column_width);
  return svg.finish();
}

}  // namespace referee::ancients
