#include "referee/warmaster/battle/render.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "referee/core/ruling.hpp"
#include "referee/core/svg.hpp"
#include "referee/warmaster/movement/formation_plans.hpp"

namespace referee::warmaster {

namespace {
constexpr double kPixelsPerCm = 6.0;
const char* kSideFill[2] = {"#3b6fb6", "#b63b3b"};
const char* kSideStroke[2] = {"#1d3c66", "#661d1d"};

void draw_stand(SvgWriter& svg, const OrientedRect& r, int side, double opacity, const std::string& extra = {}) {
  svg.oriented_rect(r, {kSideFill[side & 1], kSideStroke[side & 1], 0.12, opacity, extra});
  Segment front = r.front_edge();
  // The front edge: a thick light mark, so facing reads at a glance.
  svg.line(front.a, front.b, {"none", "#ffe680", 0.35, opacity, "stroke-linecap=\"butt\""});
}
}  // namespace

const char* terrain_colour(TerrainKind k) {
  switch (k) {
    case TerrainKind::OpenHill: return "#c9d9a0";
    case TerrainKind::SteepHill: return "#9c8f6a";
    case TerrainKind::Wood: return "#4f8a45";
    case TerrainKind::Village: return "#b59a7a";
    case TerrainKind::BrokenGround: return "#a89f8c";
    case TerrainKind::Marsh: return "#7fa39a";
    case TerrainKind::GrownField: return "#e3d37a";
    case TerrainKind::ShallowRiver: return "#8fc3e8";
    case TerrainKind::DeepRiver: return "#3f7fc0";
    case TerrainKind::Ford: return "#b5dcf2";
    case TerrainKind::Bridge: return "#8a6a4a";
    case TerrainKind::LowObstacle: return "#6b5a3a";
    case TerrainKind::HighObstacle: return "#4a3a2a";
    case TerrainKind::Building: return "#7a5040";
    case TerrainKind::FortificationWall: return "#555555";
    case TerrainKind::Impassable: return "#222222";
  }
  return "#999999";
}

namespace {
constexpr double kLegendSize = 2.2;  // cm of table per text line in the key
constexpr double kLegendGap = 3.0;   // between the table and the key
constexpr double kLabelSize = 1.7;

// A unit's state after its id, as the play sheet's players mark it.
std::string state_marks(const Unit& u) {
  std::string m;
  if (u.engaged) m += " (engaged)";
  if (u.confused) m += " (confused)";
  return m;
}

std::vector<LegendEntry> legend_entries(const Battlefield& bf, const MoveAnswer* answer) {
  std::vector<LegendEntry> key;
  for (std::size_t i = 0; i < bf.armies.size() && i < 2; ++i)
    key.push_back({LegendEntry::Mark::box, {kSideFill[i], kSideStroke[i], 0.12, 1.0, {}},
                   fmt::format("side {}: {}", i, bf.armies[i].name), {}});
  key.push_back({LegendEntry::Mark::line, {"none", "#f0cc40", 0.8, 1.0, {}}, "a stand's front edge", {}});
  key.push_back({LegendEntry::Mark::glyph, {"#333333", "none", 0, 1.0, {}}, "a General (H: Hero, W: Wizard)", "G"});
  bool confused = false;
  for (const Unit& u : bf.units) confused = confused || u.confused;
  if (confused)
    key.push_back({LegendEntry::Mark::box, {"none", "#ff9900", 0.35, 1.0, R"(stroke-dasharray="1.5,1")"},
                   "confused unit", {}});
  std::vector<TerrainKind> kinds;
  for (const TerrainFeature& f : bf.terrain)
    if (std::find(kinds.begin(), kinds.end(), f.kind) == kinds.end()) kinds.push_back(f.kind);
  for (TerrainKind k : kinds)
    key.push_back({LegendEntry::Mark::box, {terrain_colour(k), "#555555", 0.05, 1.0, {}}, to_string(k), {}});
  if (answer) {
    key.push_back({LegendEntry::Mark::line, {"none", "#1a9a3a", 0.35, 1.0, {}}, "the move checked: legal", {}});
    key.push_back({LegendEntry::Mark::line, {"none", "#d02020", 0.35, 1.0, {}}, "the move checked: illegal", {}});
  }
  return key;
}
}  // namespace

namespace render_svg_parts {

// Each unit's stands, their front edges marked, and confused units outlined.
void render_units(SvgWriter& svg, const Battlefield& bf) {
  svg.begin_group("units");
  for (const auto& u : bf.units) {
    svg.begin_group("unit-" + u.id, to_string(u.type));
    svg.title(fmt::format("{} '{}' ({}, {}){}", u.name, u.id, to_string(u.type),
                          count_of(static_cast<double>(u.stands.size()), "stand", "stands"), state_marks(u)));
    for (std::size_t i = 0; i < u.stands.size(); ++i) {
      draw_stand(svg, u.footprint(i), u.side, 1.0);
      if (u.confused)
        svg.oriented_rect(u.footprint(i), {"none", "#ff9900", 0.35, 1.0, R"(stroke-dasharray="1.5,1")"});
    }
    svg.end_group();
  }
  svg.end_group();
}

// Each character: its stand or round base, lettered by its role.
void render_characters(SvgWriter& svg, const Battlefield& bf) {
  svg.begin_group("characters");
  for (const auto& ch : bf.characters) {
    svg.begin_group("character-" + ch.id, to_string(ch.role));
    svg.title(fmt::format("{} '{}' ({}, Command {}{})", ch.name, ch.id, to_string(ch.role), ch.command,
                          ch.flying ? ", flying" : ""));
    if (ch.stand_size) {
      draw_stand(svg, OrientedRect::from_pose(ch.pose, ch.stand_size->x, ch.stand_size->y), ch.side, 1.0);
    } else {
      svg.circle(ch.pose.position, ch.base_diameter / 2, {"#ffffff", kSideStroke[ch.side & 1], 0.25, 1.0, ""});
    }
    std::string letter = ch.role == CharacterRole::General ? "G" : ch.role == CharacterRole::Hero ? "H" : "W";
    svg.text(ch.pose.position, letter, 1.8, kSideStroke[ch.side & 1]);
    svg.end_group();
  }
  svg.end_group();
}

// The move checked: each route's centres, and where it ends, in green when
// legal and red when not.
void render_checked_move(SvgWriter& svg, const Battlefield& bf, const MoveAnswer& answer, const std::string& mover) {
  const Unit* u = bf.find_unit(mover);
  const Character* c = u ? nullptr : bf.find_character(mover);
  const char* colour = answer.verdict.legal() ? "#1a9a3a" : "#d02020";
  svg.begin_group("move", answer.verdict.legal() ? "legal" : "illegal");
  svg.title(answer.verdict.legal() ? "legal move" : explain(answer.verdict));
  for (const auto& r : answer.routes) {
    if (r.poses.size() < 2) continue;
    std::vector<Vec2> centres;
    for (const auto& p : r.poses) centres.push_back(p.position);
    svg.polyline(centres, {"none", colour, 0.25, 1.0, r.planned ? "stroke-dasharray=\"6,3\"" : ""});
    const Pose& end = r.poses.back();
    if (u) {
      svg.oriented_rect(u->footprint_at(end), {"none", colour, 0.25, 1.0, "stroke-dasharray=\"3,2\""});
      Segment front = u->footprint_at(end).front_edge();
      svg.line(front.a, front.b, {"none", colour, 0.4, 1.0, ""});
    } else if (c) {
      svg.circle(end.position, c->base_diameter / 2, {"none", colour, 0.25, 1.0, "stroke-dasharray=\"3,2\""});
    }
  }
  svg.end_group();
}

}  // namespace render_svg_parts

std::string render_svg(const Battlefield& bf, const MoveAnswer* answer, const std::string& mover) {
  return render_svg(bf, RenderOptions{answer, mover, {}});
}

std::string render_svg(const Battlefield& bf, const RenderOptions& o) {
  const MoveAnswer* answer = o.answer;
  const Aabb table = bf.table();
  const std::vector<LegendEntry> key = legend_entries(bf, answer);
  // A caption (the arena's and play's pictures: "seed 9, turn 9: turn limit
  // (8 turns): units lost 0 to 0, a draw") is wrapped to the key's width:
  // on one line it ran past the picture's right edge.
  const std::string title = fit_legend_title(o.caption.empty() ? bf.name : o.caption, key, kLegendSize);
  const Vec2 legend = legend_size(title, key, kLegendSize);
  // The key sits right of the table, the cm marks of the grid below and left of it.
  const Aabb world{{table.min.x - 5.0, std::min(table.min.y, table.max.y - legend.y) - 5.0},
                   {table.max.x + kLegendGap + legend.x + 1.0, table.max.y + 4.0}};
  SvgWriter svg(world, kPixelsPerCm, 1.0);
  svg.begin_group("table");
  svg.rect(table, {"#eef2e0", "#333333", 0.3, 1.0, ""});
  svg.end_group();
  // A 10 cm grid with its distances marked every 20 cm: the table's scale.
  draw_grid(svg, table, 10.0, 2, "cm", 1.6);

  LabelPlacer placer(table);
  for (const Unit& u : bf.units)
    for (std::size_t i = 0; i < u.stands.size(); ++i) placer.keep_clear(u.footprint(i).bounds());
  for (const Character& ch : bf.characters)
    placer.keep_clear({ch.pose.position - Vec2{ch.base_diameter / 2, ch.base_diameter / 2},
                       ch.pose.position + Vec2{ch.base_diameter / 2, ch.base_diameter / 2}});
  struct Pending {
    Vec2 at;
    std::string text, colour;
  };
  std::vector<Pending> labels;

  svg.begin_group("terrain");
  for (const auto& f : bf.terrain) {
    svg.begin_group("terrain-" + f.id, to_string(f.kind));
    svg.title(fmt::format("{} ({})", f.id, to_string(f.kind)));
    for (const auto& p : f.pieces) svg.polygon(p, {terrain_colour(f.kind), terrain_colour(f.kind), 0.05, 1.0, ""});
    svg.end_group();
  }
  svg.end_group();

  render_svg_parts::render_units(svg, bf);
  render_svg_parts::render_characters(svg, bf);

  // Labels: units first (the most needed get the nearest spots), then terrain.
  for (const auto& u : bf.units) {
    if (u.stands.empty()) continue;
    const std::string text = u.id + state_marks(u);
    labels.push_back({placer.place(stands_centre(u), text, kLabelSize, u.depth / 2 + 0.4), text, kSideStroke[u.side & 1]});
  }
  for (const auto& f : bf.terrain) {
    if (!f.line.empty()) continue;
    labels.push_back({placer.place((f.bounds.min + f.bounds.max) / 2, f.id, 1.5), f.id, "#222222"});
  }

  if (answer) render_svg_parts::render_checked_move(svg, bf, *answer, o.mover);

  svg.begin_group("labels");
  for (const Pending& l : labels) svg.label(l.at, l.text, kLabelSize, l.colour);
  svg.end_group();
  draw_legend(svg, {table.max.x + kLegendGap, table.max.y}, title, key, kLegendSize);
  return svg.finish();
}

}  // namespace referee::warmaster
