#include "referee/warmaster/render.hpp"

#include <fmt/format.h>

#include "referee/core/ruling.hpp"
#include "referee/core/svg.hpp"

namespace referee::warmaster {

namespace {
constexpr double kPixelsPerCm = 6.0;
const char* kSideFill[2] = {"#3b6fb6", "#b63b3b"};
const char* kSideStroke[2] = {"#1d3c66", "#661d1d"};

Vec2 centroid(const Unit& u) {
  Vec2 c{0, 0};
  for (const auto& s : u.stands) c += s.pose.position;
  return u.stands.empty() ? c : c / static_cast<double>(u.stands.size());
}

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

std::string render_svg(const Battlefield& bf, const MoveAnswer* answer, const std::string& mover) {
  SvgWriter svg(bf.table(), kPixelsPerCm, 4.0);
  svg.begin_group("table");
  svg.rect(bf.table(), {"#eef2e0", "#333333", 0.3, 1.0, ""});
  svg.end_group();

  svg.begin_group("terrain");
  for (const auto& f : bf.terrain) {
    svg.begin_group("terrain-" + f.id, to_string(f.kind));
    svg.title(fmt::format("{} ({})", f.id, to_string(f.kind)));
    for (const auto& p : f.pieces) svg.polygon(p, {terrain_colour(f.kind), terrain_colour(f.kind), 0.05, 1.0, ""});
    Vec2 c = (f.bounds.min + f.bounds.max) / 2;
    if (f.line.empty()) svg.text(c, f.id, 1.6, "#222222");
    svg.end_group();
  }
  svg.end_group();

  svg.begin_group("units");
  for (const auto& u : bf.units) {
    svg.begin_group("unit-" + u.id, to_string(u.type));
    svg.title(fmt::format("{} '{}' ({}, {})", u.name, u.id, to_string(u.type),
                          count_of(static_cast<double>(u.stands.size()), "stand", "stands")));
    for (std::size_t i = 0; i < u.stands.size(); ++i) draw_stand(svg, u.footprint(i), u.side, 1.0);
    Vec2 c = centroid(u);
    double behind = u.side == 0 ? -1 : 1;
    svg.text(c + Vec2{0, behind * (u.depth / 2 + 2.2)}, u.id, 1.7, kSideStroke[u.side & 1]);
    svg.end_group();
  }
  svg.end_group();

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

  if (answer) {
    const Unit* u = bf.find_unit(mover);
    const Character* c = u ? nullptr : bf.find_character(mover);
    const char* colour = answer->verdict.legal() ? "#1a9a3a" : "#d02020";
    svg.begin_group("move", answer->verdict.legal() ? "legal" : "illegal");
    svg.title(answer->verdict.legal() ? "legal move" : explain(answer->verdict));
    for (const auto& r : answer->routes) {
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
  return svg.finish();
}

}  // namespace referee::warmaster
