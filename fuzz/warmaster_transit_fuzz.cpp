// Fuzzes the transit model, route planner, sight and reach on whatever
// battlefield the parser accepts: nothing may crash or hang, whatever the
// geometry (degenerate polygons, stands on top of each other, huge tables).
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "referee/core/errors.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/movement/reach.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "referee/warmaster/movement/transit.hpp"

using namespace referee;
using namespace referee::warmaster;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 20000) return 0;
  nlohmann::json j = nlohmann::json::parse(data, data + size, nullptr, false);
  if (j.is_discarded()) return 0;
  Battlefield bf;
  Settings settings;
  try {
    bf = parse_battlefield(j, &settings);
  } catch (const InputError&) {
    return 0;
  }
  if (bf.units.empty()) return 0;
  const Unit& u = bf.units.front();
  if (u.stands.empty()) return 0;
  TransitScene scene(bf, u, settings);
  Pose from = u.stands[0].pose;
  Pose to{from.position + Rot::from_degrees(from.facing_deg).forward() * 12.0, from.facing_deg + 45};
  (void)scene.check_leg(from, to, "stand 1");
  (void)scene.shortest_route(from, to, 30);
  (void)scene.gates();
  (void)reach(bf, {u.id, ReachKind::Charge, std::nullopt, 1.0, std::nullopt}, settings);
  if (bf.units.size() > 1) {
    (void)line_of_sight(bf, u, bf.units[1], settings, false);
    (void)unit_distance(u, bf.units[1]);
  }
  for (const Character& c : bf.characters) (void)character_distance(c, u);
  return 0;
}
