// Small battlefields for the rule tests. Every figure in them is chosen so a
// test can state its expected inches and chances from the rule text.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/blightmeer/io.hpp"
#include "referee/blightmeer/move.hpp"

namespace referee::blightmeer::testing {

using nlohmann::json;

// house 3 in (x 10-14, y 10-14) with a ladder on its west side, shed 3 in two
// inches east of it, house2/shed2 half an inch apart, a 6 in tower, a 4.5 in
// hut one inch east of the tower, an unclimbable cliff, a 5 in post between
// shed and cliff, a 3 in jetty by the pond, a 4 in box, mud (difficult), a
// pond (shallow), a lake (deep), a rock (impassable) and a hedge (low).
inline json base_terrain() {
  return json::parse(R"({
    "table": {"width": 36, "depth": 36},
    "surfaces": [
      {"id": "house", "height": 3, "footprint": [[10,10],[14,10],[14,14],[10,14]]},
      {"id": "shed", "height": 3, "footprint": [[16,10],[18,10],[18,14],[16,14]]},
      {"id": "house2", "height": 3, "footprint": [[10,15],[14.5,15],[14.5,18],[10,18]]},
      {"id": "shed2", "height": 3, "footprint": [[15,15],[18,15],[18,18],[15,18]]},
      {"id": "tower", "height": 6, "footprint": [[10,20],[14,20],[14,24],[10,24]]},
      {"id": "hut", "height": 4.5, "footprint": [[15,20],[17,20],[17,24],[15,24]]},
      {"id": "cliff", "height": 3, "footprint": [[20,10],[24,10],[24,14],[20,14]], "climbable": false},
      {"id": "post", "height": 5, "footprint": [[18.5,11],[19,11],[19,13],[18.5,13]]},
      {"id": "jetty", "height": 3, "footprint": [[26,4],[28,4],[28,6],[26,6]]},
      {"id": "box4", "height": 4, "footprint": [[20,30],[24,30],[24,34],[20,34]]}
    ],
    "ladders": [{"id": "house-ladder", "bottom": [9.5, 12, 0], "top": [10.5, 12, 3]}],
    "regions": [
      {"id": "mud", "kind": "difficult", "area": [[0,0],[6,0],[6,6],[0,6]]},
      {"id": "pond", "kind": "shallow_water", "area": [[28,0],[34,0],[34,6],[28,6]]},
      {"id": "lake", "kind": "deep_water", "area": [[28,20],[34,20],[34,30],[28,30]]},
      {"id": "rock", "kind": "impassable", "area": [[2,20],[4,20],[4,22],[2,22]]}
    ],
    "low_terrain": [{"id": "hedge", "height": 0.8, "area": [[0,30],[10,30],[10,30.5],[0,30.5]]}],
    "units": []
  })");
}

// A unit with the Sellsword Captain's figures (Move 6, Agility 8) unless changed.
inline json unit(const std::string& id, double x, double y, double z, const std::string& side = "red") {
  return {{"id", id}, {"side", side}, {"position", {x, y, z}}, {"move", 6}, {"agility", 8}, {"wounds", 1}};
}

inline Battle battle(const std::vector<json>& units, json terrain = base_terrain()) {
  terrain["units"] = units;
  return parse_battle(terrain, "test");
}

inline Step walk(double x, double y) { Step s; s.type = StepType::walk; s.to = {x, y}; return s; }
inline Step climb(double x, double y, double z) { Step s; s.type = StepType::climb; s.to = {x, y}; s.to_z = z; return s; }
inline Step ladder(const std::string& id) { Step s; s.type = StepType::ladder; s.ladder = id; s.has_to = false; return s; }
inline Step jump_down(double x, double y) { Step s; s.type = StepType::jump_down; s.to = {x, y}; return s; }
inline Step jump_across(double x, double y) { Step s; s.type = StepType::jump_across; s.to = {x, y}; return s; }

inline MoveRequest move(const std::string& unit, std::vector<Step> path, bool run = false) {
  MoveRequest m;
  m.unit = unit;
  m.run = run;
  m.path = std::move(path);
  return m;
}

inline MoveReport check(const Battle& b, const MoveRequest& m) { return check_move(*b.terrain, b.state, m); }

inline bool has_note(const MoveReport& r, const std::string& rule) {
  for (const auto& n : r.notes)
    if (n.rule == rule) return true;
  return false;
}

}  // namespace referee::blightmeer::testing
