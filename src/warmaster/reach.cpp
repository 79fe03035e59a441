// Reach: a grid Dijkstra over the transit disc's clearance space, and
// marching squares for its boundary. The method is described in reach.hpp.
#include "referee/warmaster/reach.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "referee/core/errors.hpp"
#include "referee/core/ruling.hpp"
#include "referee/core/svg.hpp"
#include "referee/warmaster/movement.hpp"
#include "referee/warmaster/transit.hpp"
#include "referee/warmaster/transit_kernels.hpp"
#include "referee/warmaster/troops.hpp"
#include "transit_scene.hpp"

namespace referee::warmaster {

const char* to_string(ReachKind k) {
  switch (k) {
    case ReachKind::Ordered: return "ordered";
    case ReachKind::HalfPace: return "half_pace";
    case ReachKind::Charge: return "charge";
    case ReachKind::Evade: return "evade";
    case ReachKind::Character: return "character";
  }
  return "ordered";
}

std::optional<ReachKind> reach_kind_from_string(const std::string& s) {
  for (ReachKind k : {ReachKind::Ordered, ReachKind::HalfPace, ReachKind::Charge, ReachKind::Evade,
                      ReachKind::Character})
    if (s == to_string(k)) return k;
  return std::nullopt;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The grid: samples at origin + (i, j) * h, with a one-sample border that is
// always blocked so every contour closes.
struct Grid {
  Vec2 origin;
  double h = 0.5;
  int nx = 0, ny = 0;
  std::size_t at(int i, int j) const { return static_cast<std::size_t>(j) * nx + i; }
  Vec2 point(int i, int j) const { return origin + Vec2{i * h, j * h}; }
};

// Marching squares on f (>= 0 inside), rings with the inside on their left.
std::vector<Polygon> contours(const Grid& g, const std::vector<double>& f) {
  auto edge_h = [&](int i, int j) { return 2 * static_cast<int>(g.at(i, j)); };      // (i,j)-(i+1,j)
  auto edge_v = [&](int i, int j) { return 2 * static_cast<int>(g.at(i, j)) + 1; };  // (i,j)-(i,j+1)
  auto edge_point = [&](int id) {
    int cell = id / 2;
    int i = cell % g.nx, j = cell / g.nx;
    int i2 = (id % 2 == 0) ? i + 1 : i, j2 = (id % 2 == 0) ? j : j + 1;
    double f0 = f[g.at(i, j)], f1 = f[g.at(i2, j2)];
    double t = f0 / (f0 - f1);
    return g.point(i, j) + (g.point(i2, j2) - g.point(i, j)) * t;
  };
  std::vector<int> next(static_cast<std::size_t>(2 * g.nx * g.ny), -1);
  std::vector<int> starts;
  auto seg = [&](int from, int to) {
    next[static_cast<std::size_t>(from)] = to;
    starts.push_back(from);
  };
  for (int j = 0; j + 1 < g.ny; ++j)
    for (int i = 0; i + 1 < g.nx; ++i) {
      double bl = f[g.at(i, j)], br = f[g.at(i + 1, j)], tr = f[g.at(i + 1, j + 1)], tl = f[g.at(i, j + 1)];
      int c = (bl >= 0) | ((br >= 0) << 1) | ((tr >= 0) << 2) | ((tl >= 0) << 3);
      int B = edge_h(i, j), T = edge_h(i, j + 1), L = edge_v(i, j), R = edge_v(i + 1, j);
      bool centre_in = (bl + br + tr + tl) / 4 >= 0;
      switch (c) {
        case 1: seg(B, L); break;
        case 2: seg(R, B); break;
        case 4: seg(T, R); break;
        case 8: seg(L, T); break;
        case 14: seg(L, B); break;
        case 13: seg(B, R); break;
        case 11: seg(R, T); break;
        case 7: seg(T, L); break;
        case 3: seg(R, L); break;
        case 12: seg(L, R); break;
        case 6: seg(T, B); break;
        case 9: seg(B, T); break;
        case 5:
          if (centre_in) { seg(B, R); seg(T, L); } else { seg(B, L); seg(T, R); }
          break;
        case 10:
          if (centre_in) { seg(L, B); seg(R, T); } else { seg(R, B); seg(L, T); }
          break;
        default: break;
      }
    }
  std::vector<Polygon> rings;
  for (int s : starts) {
    if (next[static_cast<std::size_t>(s)] < 0) continue;
    Polygon ring;
    int e = s;
    while (e >= 0 && next[static_cast<std::size_t>(e)] >= 0) {
      ring.points.push_back(edge_point(e));
      int n = next[static_cast<std::size_t>(e)];
      next[static_cast<std::size_t>(e)] = -1;
      e = n;
    }
    if (ring.points.size() >= 3) rings.push_back(std::move(ring));
  }
  return rings;
}

}  // namespace

ReachAnswer reach(const Battlefield& bf, const ReachRequest& req, const Settings& settings) {
  ReachAnswer ans;
  ans.mover = req.mover;
  ans.kind = req.kind;
  std::optional<TransitScene> scene;
  double full = 0;
  if (req.kind == ReachKind::Character) {
    const Character* c = bf.find_character(req.mover);
    if (!c) throw InputError("unit", "no character '" + req.mover + "' on the battlefield");
    scene.emplace(bf, *c, settings);
    ans.starts.push_back(c->pose);
    full = c->flying ? kFlyingCharacterPace : kCharacterPace;
    ans.pace = c->flying ? "character, flying" : "character";
    ans.allowance = full;
  } else {
    const Unit* u = bf.find_unit(req.mover);
    if (!u) throw InputError("unit", "no unit '" + req.mover + "' on the battlefield");
    if (u->stands.empty()) throw InputError("unit", "unit '" + req.mover + "' has no stands on the table");
    TransitOptions o;
    o.evading = req.kind == ReachKind::Evade;
    scene.emplace(bf, *u, settings, o);
    for (const Stand& s : u->stands) ans.starts.push_back(s.pose);
    full = full_pace(*u);
    switch (req.kind) {
      case ReachKind::Ordered: {
        Formation f = classify_formation(*u, settings);
        if (u->fortified) {
          ans.allowance = full / 2;
          ans.pace = "half pace (fortified)";
        } else if (f == Formation::Irregular) {
          ans.allowance = full / 2;
          ans.pace = "half pace (irregular formation)";
        } else {
          ans.allowance = full;
          ans.pace = std::string("full pace (") + to_string(f) + ")";
        }
        break;
      }
      case ReachKind::HalfPace:
        ans.allowance = full / 2;
        ans.pace = "half pace (failed first order)";
        break;
      case ReachKind::Charge:
      case ReachKind::Evade:
        ans.allowance = full;
        ans.pace = std::string("full pace (") + to_string(req.kind) + ")";
        break;
      case ReachKind::Character: break;
    }
  }
  if (req.allowance) {
    if (!(*req.allowance >= 0) || *req.allowance > 1000) throw InputError("allowance", "must be between 0 and 1000 cm");
    ans.allowance = *req.allowance;
    ans.pace = "given";
  }
  if (!(req.cell > 0.01) || req.cell > 50) throw InputError("cell", "must be between 0.01 and 50 cm");
  const TransitScene::Impl& m = scene->impl();
  ans.clearance = m.r;

  // The grid over the move's bounding box, clipped to where a centre may be.
  Aabb box{ans.starts[0].position, ans.starts[0].position};
  for (const Pose& p : ans.starts) box = box.merged(Aabb{p.position, p.position});
  box = box.inflated(ans.allowance);
  box.min.x = std::max(box.min.x, m.r);
  box.min.y = std::max(box.min.y, m.r);
  box.max.x = std::min(box.max.x, m.table_w - m.r);
  box.max.y = std::min(box.max.y, m.table_h - m.r);
  Grid g;
  g.h = req.cell;
  double w = std::max(0.0, box.max.x - box.min.x), hgt = std::max(0.0, box.max.y - box.min.y);
  g.h = std::max(g.h, std::sqrt(w * hgt / 40000.0));
  ans.cell = g.h;
  g.origin = box.min - Vec2{g.h, g.h};
  g.nx = static_cast<int>(std::floor(w / g.h)) + 3;
  g.ny = static_cast<int>(std::floor(hgt / g.h)) + 3;
  std::size_t cells = static_cast<std::size_t>(g.nx) * g.ny;
  std::vector<char> blocked(cells, 0);
  for (int i = 0; i < g.nx; ++i) blocked[g.at(i, 0)] = blocked[g.at(i, g.ny - 1)] = 1;
  for (int j = 0; j < g.ny; ++j) blocked[g.at(0, j)] = blocked[g.at(g.nx - 1, j)] = 1;
  auto cell_range = [&](const Aabb& b, int& i0, int& i1, int& j0, int& j1) {
    i0 = std::max(1, static_cast<int>(std::ceil((b.min.x - g.origin.x) / g.h)));
    i1 = std::min(g.nx - 2, static_cast<int>(std::floor((b.max.x - g.origin.x) / g.h)));
    j0 = std::max(1, static_cast<int>(std::ceil((b.min.y - g.origin.y) / g.h)));
    j1 = std::min(g.ny - 2, static_cast<int>(std::floor((b.max.y - g.origin.y) / g.h)));
  };
  Aabb grid_box{g.origin, g.point(g.nx - 1, g.ny - 1)};
  std::vector<int> near;
  m.query(grid_box.inflated(m.r), near);
  for (int k : near) {
    const TransitObstacle& o = m.obstacles[k];
    if (!o.blocks) continue;
    int i0, i1, j0, j1;
    cell_range(o.box.inflated(m.r), i0, i1, j0, j1);
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        std::size_t c = g.at(i, j);
        if (!blocked[c] && fast_distance(g.point(i, j), o.poly) < m.r - m.tol) blocked[c] = 1;
      }
  }
  const double band = 1.5 * g.h;
  m.ensure_gates(grid_box.inflated(m.r));
  for (const TransitGateData& gate : m.gates) {
    Aabb gb = gate.line.bounds().inflated(band);
    if (!gb.overlaps(grid_box)) continue;
    ans.gates.push_back(gate.line);
    int i0, i1, j0, j1;
    cell_range(gb, i0, i1, j0, j1);
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i)
        if (distance(g.point(i, j), gate.line) <= band) blocked[g.at(i, j)] = 1;
  }

  // Dijkstra, 16 neighbours, flat arrays; seeded around each stand's centre.
  std::vector<double> dist(cells, kInf);
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  for (const Pose& p : ans.starts) {
    int ci = static_cast<int>(std::lround((p.position.x - g.origin.x) / g.h));
    int cj = static_cast<int>(std::lround((p.position.y - g.origin.y) / g.h));
    for (int j = cj - 2; j <= cj + 2; ++j)
      for (int i = ci - 2; i <= ci + 2; ++i) {
        if (i < 1 || j < 1 || i > g.nx - 2 || j > g.ny - 2) continue;
        std::size_t c = g.at(i, j);
        if (blocked[c]) continue;
        double d = distance(p.position, g.point(i, j));
        if (d < dist[c]) {
          dist[c] = d;
          open.push({d, static_cast<int>(c)});
        }
      }
  }
  struct Step {
    int di, dj;
    double len;
  };
  std::vector<Step> steps;
  for (int di = -2; di <= 2; ++di)
    for (int dj = -2; dj <= 2; ++dj) {
      if ((di == 0 && dj == 0) || (std::abs(di) == 2 && (std::abs(dj) == 2 || dj == 0)) ||
          (std::abs(dj) == 2 && di == 0))
        continue;
      steps.push_back({di, dj, std::hypot(di, dj) * g.h});
    }
  while (!open.empty()) {
    auto [d, c] = open.top();
    open.pop();
    if (d > dist[static_cast<std::size_t>(c)] || d > ans.allowance) continue;
    int i = c % g.nx, j = c / g.nx;
    for (const Step& s : steps) {
      int ni = i + s.di, nj = j + s.dj;
      if (ni < 0 || nj < 0 || ni >= g.nx || nj >= g.ny) continue;
      std::size_t n = g.at(ni, nj);
      if (blocked[n]) continue;
      // No cutting corners: the cells the step passes beside must be free.
      int hi = s.di / (std::abs(s.di) == 2 ? 2 : 1), hj = s.dj / (std::abs(s.dj) == 2 ? 2 : 1);
      if (std::abs(s.di) + std::abs(s.dj) > 1) {
        if (blocked[g.at(i + hi, j)] || blocked[g.at(i, j + hj)] || blocked[g.at(i + hi, j + hj)]) continue;
      }
      double nd = d + s.len;
      if (nd < dist[n] && nd <= ans.allowance) {
        dist[n] = nd;
        open.push({nd, static_cast<int>(n)});
      }
    }
  }

  std::vector<double> f(cells);
  for (std::size_t c = 0; c < cells; ++c) f[c] = dist[c] == kInf ? -g.h : std::max(ans.allowance - dist[c], -g.h);
  // Exactly zero would put a contour point on a sample; nudge inside values.
  for (double& v : f)
    if (v == 0) v = 1e-9;
  ans.boundary = contours(g, f);
  for (const Polygon& p : ans.boundary) ans.area += p.signed_area();
  return ans;
}

void to_json(nlohmann::json& j, const ReachAnswer& a) {
  auto r2 = [](double v) { return std::round(v * 100) / 100; };
  nlohmann::json rings = nlohmann::json::array();
  for (const Polygon& p : a.boundary) {
    nlohmann::json ring = nlohmann::json::array();
    for (Vec2 v : p.points) ring.push_back({r2(v.x), r2(v.y)});
    rings.push_back(std::move(ring));
  }
  nlohmann::json starts = nlohmann::json::array();
  for (const Pose& p : a.starts) starts.push_back({{"x", p.position.x}, {"y", p.position.y}, {"facing", p.facing_deg}});
  nlohmann::json gates = nlohmann::json::array();
  for (const Segment& s : a.gates) gates.push_back({{r2(s.a.x), r2(s.a.y)}, {r2(s.b.x), r2(s.b.y)}});
  j = {{"rule", "warmaster.movement.reach"},
       {"mover", a.mover},
       {"kind", to_string(a.kind)},
       {"allowance", a.allowance},
       {"pace", a.pace},
       {"area", r2(a.area)},
       {"cell", a.cell},
       {"clearance", a.clearance},
       {"meaning", "where a stand's centre can be moved to, keeping its facing, by a path the gap rule allows"},
       {"starts", starts},
       {"boundary", rings},
       {"gates", gates}};
}

std::string explain(const ReachAnswer& a) {
  int outer = 0, holes = 0;
  for (const Polygon& p : a.boundary) (p.signed_area() > 0 ? outer : holes)++;
  return fmt::format(
      "{} ({}, {} {}): its stands' centres can reach {:.1f} cm^2 in {} region(s) with {} hole(s), keeping their "
      "facing; {} closed enemy gap(s) nearby. Grid {} cm, transit disc radius {}.\n",
      a.mover, to_string(a.kind), a.pace, format_measure(a.allowance, "cm"), a.area, outer, holes, a.gates.size(),
      a.cell, format_measure(a.clearance, "cm"));
}

namespace {
std::string terrain_colour(TerrainKind k) {
  switch (k) {
    case TerrainKind::Wood: return "#3b7a3b";
    case TerrainKind::OpenHill: return "#c8b88a";
    case TerrainKind::SteepHill: return "#8a7650";
    case TerrainKind::Village:
    case TerrainKind::Building: return "#9a6b4f";
    case TerrainKind::Marsh:
    case TerrainKind::BrokenGround: return "#7f8f6a";
    case TerrainKind::GrownField: return "#d9c96b";
    case TerrainKind::ShallowRiver:
    case TerrainKind::Ford: return "#7fb2d9";
    case TerrainKind::DeepRiver: return "#3f6fa8";
    case TerrainKind::Bridge: return "#a08060";
    case TerrainKind::LowObstacle: return "#6b5a3a";
    case TerrainKind::HighObstacle:
    case TerrainKind::FortificationWall:
    case TerrainKind::Impassable: return "#555555";
  }
  return "#888888";
}
}  // namespace

std::string reach_svg(const Battlefield& bf, const ReachAnswer& a) {
  SvgWriter svg(bf.table(), 5.0);
  svg.title(fmt::format("{}: reach ({})", a.mover, to_string(a.kind)));
  svg.rect(bf.table(), {"#e8efd8", "#333", 0.3, 1.0, ""});
  for (const TerrainFeature& f : bf.terrain) {
    svg.begin_group("terrain-" + f.id);
    svg.title(f.id + " (" + to_string(f.kind) + ")");
    for (const Polygon& p : f.pieces) svg.polygon(p, {terrain_colour(f.kind), "#222", 0.15, 0.85, ""});
    svg.end_group();
  }
  // The reach area: one path, even-odd, so holes stay holes.
  if (!a.boundary.empty()) {
    std::string d;
    for (const Polygon& p : a.boundary) {
      for (std::size_t i = 0; i < p.points.size(); ++i) {
        Vec2 q = svg.to_pixels(p.points[i]);
        d += fmt::format("{}{:.1f},{:.1f} ", i == 0 ? "M" : "L", q.x, q.y);
      }
      d += "Z ";
    }
    svg.raw(fmt::format(R"(<path d="{}" fill="#3a7bd5" fill-opacity="0.35" stroke="#1d4f9a" stroke-width="1" )"
                        R"(fill-rule="evenodd"><title>{}</title></path>)",
                        d, xml_escape(explain(a))));
  }
  for (const Unit& u : bf.units) {
    bool mover = u.id == a.mover;
    std::string fill = mover ? "#ffd400" : (u.side == 0 ? "#4a6fd1" : "#c94040");
    svg.begin_group("unit-" + u.id);
    svg.title(u.id + " (" + to_string(u.type) + ")");
    for (std::size_t s = 0; s < u.stands.size(); ++s) {
      OrientedRect r = u.footprint(s);
      svg.oriented_rect(r, {fill, "#111", 0.12, 1.0, ""});
      Segment fe = r.front_edge();
      svg.line(fe.a, fe.b, {"none", "#fff", 0.3, 1.0, ""});
    }
    svg.end_group();
  }
  for (const Character& c : bf.characters)
    svg.circle(c.pose.position, c.base_diameter / 2, {c.side == 0 ? "#9fb4ff" : "#ff9f9f", "#111", 0.12, 1.0, ""});
  for (const Segment& s : a.gates) svg.line(s.a, s.b, {"none", "#e00000", 0.35, 1.0, R"(stroke-dasharray="2,1")"});
  return svg.finish();
}

}  // namespace referee::warmaster
