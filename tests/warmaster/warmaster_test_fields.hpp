// Small builders for Warmaster test battlefields (C++ directly, no files).
#pragma once

#include <string>
#include <vector>

#include "referee/warmaster/model/model.hpp"

namespace referee::warmaster::testing {

inline Battlefield empty_field() {
  Battlefield bf;
  bf.name = "test";
  bf.armies = {{"South"}, {"North"}};
  return bf;
}

inline TerrainFeature area(const std::string& id, TerrainKind kind, std::vector<Vec2> pts) {
  TerrainFeature f;
  f.id = id;
  f.kind = kind;
  f.pieces.push_back(Polygon{std::move(pts)});
  f.bounds = f.pieces[0].bounds();
  return f;
}

inline Unit infantry(const std::string& id, int side, std::vector<Pose> poses) {
  Unit u;
  u.id = id;
  u.name = id;
  u.side = side;
  u.type = TroopType::Infantry;
  for (const Pose& p : poses) u.stands.push_back({p});
  return u;
}

inline Unit cavalry(const std::string& id, int side, std::vector<Pose> poses) {
  Unit u = infantry(id, side, std::move(poses));
  u.type = TroopType::Cavalry;
  u.width = 2;
  u.depth = 4;
  return u;
}

}  // namespace referee::warmaster::testing
