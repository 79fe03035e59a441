// A Warmaster battle and a state of it repeated side by side, for benchmarks
// that measure how a cost grows with the battle: `copies` copies of the
// table in a row (the table `copies` times as wide), each with the same
// terrain, units and characters in the same places and the same state, so
// every unit's surroundings are those it had; only the battle around them
// grows. Copy 0 keeps its ids, copy k's get "@k". Built in code: the file
// format's one General per army (battlefield_json.cpp) guards input files,
// and each copy keeps its own General. An army's break point, when its file
// gives one, counts `copies` times the units.
#pragma once

#include "warmaster_field.hpp"

#include <memory>
#include <string>

#include "referee/core/json_io.hpp"
#include "referee/warmaster/battle/command_json.hpp"
#include "referee/warmaster/battle/battle_state.hpp"

namespace referee::warmaster::bench {

inline std::string tile_tag(int copy) { return copy == 0 ? "" : "@" + std::to_string(copy); }

inline std::shared_ptr<const BattleGame> tiled_game(const BattleGame& base, int copies) {
  auto game = std::make_shared<BattleGame>(base);
  Battlefield& bf = game->start;
  const Battlefield& from = base.start;
  bf.width = from.width * copies;
  bf.units.clear();
  bf.characters.clear();
  std::vector<TerrainFeature> terrain;
  for (int k = 0; k < copies; ++k) {
    const Vec2 shift{from.width * k, 0};
    const std::string tag = tile_tag(k);
    for (const TerrainFeature& f : from.terrain) terrain.push_back(shifted_feature(f, shift, tag));
    for (Unit u : from.units) {
      u.id += tag;
      for (Stand& s : u.stands) s.pose.position += shift;
      bf.units.push_back(std::move(u));
    }
    for (Character c : from.characters) {
      c.id += tag;
      if (!c.joined_unit.empty()) c.joined_unit += tag;
      c.pose.position += shift;
      bf.characters.push_back(std::move(c));
    }
  }
  bf.terrain = CowVector<TerrainFeature>(std::move(terrain));
  for (Army& a : bf.armies) a.break_point *= copies;
  return game;
}

// State `s` of the base game, in every copy of `tiled` (tiled_game(base,
// copies)): through the state's JSON, each unit and character written once
// per copy with its ids tagged and its places shifted. The ids of the phase's
// bookkeeping (units being ordered, a pending move) stay those of copy 0.
inline WarmasterState tiled_state(const WarmasterState& s, std::shared_ptr<const BattleGame> tiled, int copies) {
  const Json j = state_to_json(s);
  const double width = s.battlefield().width;
  auto shift_poses = [](Json& poses, double dx) {
    for (Json& p : poses) p["x"] = p["x"].get<double>() + dx;
  };
  auto tag_ids = [](Json& ids, const std::string& tag) {
    for (Json& id : ids) id = id.get<std::string>() + tag;
  };
  Json out = j;
  out["units"] = Json::array();
  out["characters"] = Json::array();
  for (int k = 0; k < copies; ++k) {
    const std::string tag = tile_tag(k);
    const double dx = width * k;
    for (Json u : j.at("units")) {
      u["id"] = u["id"].get<std::string>() + tag;
      tag_ids(u["brigade_touching"], tag);
      shift_poses(u["stands"], dx);
      shift_poses(u["parked"], dx);
      out["units"].push_back(std::move(u));
    }
    for (Json c : j.at("characters")) {
      c["id"] = c["id"].get<std::string>() + tag;
      if (!c["joined_unit"].get<std::string>().empty()) c["joined_unit"] = c["joined_unit"].get<std::string>() + tag;
      c["pose"]["x"] = c["pose"]["x"].get<double>() + dx;
      c["return_point"][0] = c["return_point"][0].get<double>() + dx;
      out["characters"].push_back(std::move(c));
    }
  }
  return state_from_json(std::move(tiled), out, "state");
}

}  // namespace referee::warmaster::bench
