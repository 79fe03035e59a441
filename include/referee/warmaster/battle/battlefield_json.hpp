// The Warmaster battlefield file (docs/warmaster-format.md) and the move
// request file: parsing with a clear InputError naming the item, and writing
// back. Parsing validates everything a move check relies on (closed, simple
// terrain rings; stands that do not overlap; unique ids; sane coordinates),
// so the engine never sees a malformed position.
#pragma once

#include <cstddef>
#include <string>

#include "referee/core/json_io.hpp"
#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/movement/move_json.hpp"
#include "referee/warmaster/model/settings.hpp"

namespace referee::warmaster {

// Most a battlefield holds (docs/rulings.md#warmaster-caps): far above any
// real battle (a few dozen units a side), low enough that every question
// about it stays quick. A file over a cap is refused with an InputError
// naming the list and the cap.
inline constexpr std::size_t kMaxUnits = 1000;            // both armies together
inline constexpr std::size_t kMaxCharacters = 200;        // both armies together
inline constexpr std::size_t kMaxTerrainFeatures = 500;

// Default footprint of a stand of this type: {width (frontage), depth}.
Vec2 default_stand_size(TroopType t);

// Parses a battlefield. When `settings` is given, the file's optional
// "settings" object is read into it (fields absent keep their value).
Battlefield parse_battlefield(const Json& j, Settings* settings = nullptr);

struct BattlefieldFile {
  Battlefield battlefield;
  Settings settings;
  // What the battle loads with but a player should know: units deployed in
  // no formation (formation_warnings, docs/rulings.md#warmaster-deployment).
  std::vector<Ruling> warnings;
};
BattlefieldFile load_battlefield_file(const std::string& path,
                                      std::uint64_t max_bytes = kDefaultMaxInputBytes);  // core/files.hpp

Json to_json(const Battlefield& bf, const Settings* settings = nullptr);

// Builds the footprint pieces of a linear feature: one quad per segment of
// the centre line, leaving the gateways open. Interior joints are closed by
// extending each quad by half the width.
std::vector<Polygon> linear_pieces(const std::vector<Vec2>& line, double width,
                                   const std::vector<TerrainFeature::Gateway>& gateways);

}  // namespace referee::warmaster
