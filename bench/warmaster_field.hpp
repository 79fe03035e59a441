// A deterministic Warmaster battlefield for benchmarks (and tests that want a
// busy table): 180 x 120 cm, `units` units of 3 stands in legal, non-overlapping
// line or column formations on two sides, and `features` terrain features of
// mixed kinds. The same arguments always give the same battlefield (core Rng,
// fixed seed), so benchmark numbers compare across commits.
//
// Side 0 deploys in y in [2, 56] facing 0 (north), side 1 in y in [64, 118]
// facing 180. Terrain is placed first; units never overlap terrain, each other,
// or come within 1 cm of another unit, and stay 1 cm inside the table.
#pragma once

#include <algorithm>
#include <cmath>
#include <iterator>
#include <cstdint>
#include <string>
#include <vector>

#include "referee/core/dice.hpp"
#include "referee/core/geometry.hpp"
#include "referee/warmaster/model/model.hpp"

namespace referee::warmaster::bench {

inline double uniform(Rng& rng, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(rng.next() >> 11) * (1.0 / 9007199254740992.0);
}

// A convex polygon of `n` points around `c`, radii in [rmin, rmax].
inline Polygon random_blob(Rng& rng, Vec2 c, double rmin, double rmax, int n) {
  std::vector<Vec2> pts;
  for (int i = 0; i < n; ++i) {
    double a = 2 * kPi * (i + uniform(rng, -0.3, 0.3)) / n;
    double r = uniform(rng, rmin, rmax);
    pts.push_back(c + Vec2{std::cos(a), std::sin(a)} * r);
  }
  Polygon hull = convex_hull(pts);
  if (hull.signed_area() < 0) std::reverse(hull.points.begin(), hull.points.end());
  return hull;
}

inline Battlefield make_field(int units, int features = 20, std::uint64_t seed = 20261121) {
  Rng rng(seed);
  Battlefield bf;
  bf.name = "bench field";
  bf.armies = {{"South"}, {"North"}};

  const TerrainKind kinds[] = {TerrainKind::Wood,       TerrainKind::OpenHill,    TerrainKind::Village,
                               TerrainKind::Marsh,      TerrainKind::SteepHill,   TerrainKind::GrownField,
                               TerrainKind::Building,   TerrainKind::BrokenGround, TerrainKind::LowObstacle,
                               TerrainKind::DeepRiver};
  for (int i = 0; i < features; ++i) {
    TerrainFeature f;
    f.kind = kinds[rng.below(std::size(kinds))];
    f.id = std::string(to_string(f.kind)) + "-" + std::to_string(i + 1);
    Vec2 c{uniform(rng, 10, 170), uniform(rng, 8, 112)};
    if (f.kind == TerrainKind::LowObstacle || f.kind == TerrainKind::DeepRiver) {
      // A short straight linear feature: one quad.
      double a = uniform(rng, 0, kPi), len = uniform(rng, 10, 25), w = f.kind == TerrainKind::DeepRiver ? 3.0 : 1.0;
      Vec2 d{std::cos(a), std::sin(a)};
      Vec2 n = perp(d);
      f.line = {c - d * (len / 2), c + d * (len / 2)};
      f.width = w;
      Polygon q{{f.line[0] - n * (w / 2), f.line[1] - n * (w / 2), f.line[1] + n * (w / 2), f.line[0] + n * (w / 2)}};
      if (q.signed_area() < 0) std::reverse(q.points.begin(), q.points.end());
      f.pieces.push_back(q);
    } else {
      double size = f.kind == TerrainKind::Building ? 3.0 : 6.0;
      f.pieces.push_back(random_blob(rng, c, size * 0.7, size * 1.5, 7));
    }
    f.bounds = f.pieces[0].bounds();
    for (const auto& p : f.pieces) f.bounds = f.bounds.merged(p.bounds());
    bf.terrain.push_back(std::move(f));
  }

  std::vector<OrientedRect> placed;
  int made = 0;
  for (int attempt = 0; made < units && attempt < units * 400; ++attempt) {
    int side = made % 2;
    Unit u;
    u.side = side;
    u.id = (side == 0 ? "south-" : "north-") + std::to_string(made / 2 + 1);
    u.name = u.id;
    u.type = rng.below(4) == 0 ? TroopType::Cavalry : TroopType::Infantry;
    if (u.type == TroopType::Cavalry) { u.width = 2; u.depth = 4; }
    bool column = rng.below(4) == 0;
    double facing = side == 0 ? 0.0 : 180.0;
    facing += uniform(rng, -25, 25);
    Rot rot = Rot::from_degrees(facing);
    Vec2 c{uniform(rng, 8, 172), side == 0 ? uniform(rng, 8, 52) : uniform(rng, 68, 112)};
    for (int s = 0; s < 3; ++s) {
      // Line: stands side by side along the right axis. Column: one behind another.
      Vec2 local = column ? Vec2{0, -u.depth * (s - 1)} : Vec2{u.width * (s - 1), 0};
      u.stands.push_back({{c + rot.apply(local), facing}});
    }
    bool ok = true;
    for (std::size_t s = 0; s < u.stands.size() && ok; ++s) {
      OrientedRect r = u.footprint(s);
      Aabb b = r.bounds();
      if (b.min.x < 1 || b.min.y < 1 || b.max.x > bf.width - 1 || b.max.y > bf.height - 1) ok = false;
      for (const auto& o : placed)
        if (ok && distance(r, o) < 1.0) ok = false;
      for (const auto& f : bf.terrain)
        for (const auto& p : f.pieces)
          if (ok && (distance(r, p) < 0.5)) ok = false;
    }
    if (!ok) continue;
    for (std::size_t s = 0; s < u.stands.size(); ++s) placed.push_back(u.footprint(s));
    bf.units.push_back(std::move(u));
    ++made;
  }
  return bf;
}

// A copy of terrain feature `f` moved by `shift`, its id tagged.
inline TerrainFeature shifted_feature(TerrainFeature f, Vec2 shift, const std::string& tag) {
  f.id += tag;
  for (Polygon& p : f.pieces)
    for (Vec2& v : p.points) v += shift;
  for (Vec2& v : f.line) v += shift;
  f.bounds = {f.bounds.min + shift, f.bounds.max + shift};
  return f;
}

// make_field(units, features, seed) repeated `nx` x `ny` times on a table
// nx * 180 by ny * 120 cm, each copy shifted by whole tables: a big battle in
// which every unit of the first copy keeps its id and its surroundings (tiles
// only add units and terrain beyond its table's edges). Copies' ids get
// "@col,row". Built in code, so the file format's caps (battlefield_json.hpp,
// kMaxUnits = 1000) do not apply: they guard untrusted input, not the engine.
inline Battlefield make_tiled_field(int units, int nx, int ny, int features = 20, std::uint64_t seed = 20261121) {
  const Battlefield base = make_field(units, features, seed);
  Battlefield bf = base;
  bf.width = base.width * nx;
  bf.height = base.height * ny;
  std::vector<TerrainFeature> terrain;
  bf.units.clear();
  for (int row = 0; row < ny; ++row) {
    for (int col = 0; col < nx; ++col) {
      const Vec2 shift{base.width * col, base.height * row};
      const std::string tag = (col == 0 && row == 0) ? "" : "@" + std::to_string(col) + "," + std::to_string(row);
      for (const TerrainFeature& f : base.terrain) terrain.push_back(shifted_feature(f, shift, tag));
      for (Unit u : base.units) {
        u.id += tag;
        u.name = u.id;
        for (Stand& s : u.stands) s.pose.position += shift;
        bf.units.push_back(std::move(u));
      }
    }
  }
  bf.terrain = CowVector<TerrainFeature>(std::move(terrain));
  return bf;
}

}  // namespace referee::warmaster::bench
