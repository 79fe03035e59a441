// Pictures of a Warmaster battlefield (SVG, the table seen from above):
// terrain coloured by kind, stands with a mark on their front edge, unit
// labels, characters, the table edge and, for a checked move, each stand's
// route and final pose.
#pragma once

#include <string>

#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/movement/movement.hpp"

namespace referee::warmaster {

// What a picture shows beyond the battlefield itself.
struct RenderOptions {
  const MoveAnswer* answer = nullptr;  // a checked move: its routes, green when legal, red when not
  std::string mover;                   // the unit or character the move is for
  std::string caption;                 // the key's title ("turn 2, Orcs: after the shooting phase"); the battle's name when empty
};
// The table with a 10 cm grid marked every 20 cm, placed labels (a unit's
// state after its id), and a key beside the table: the sides, front edges,
// characters, confused units and each kind of terrain present.
std::string render_svg(const Battlefield& bf, const RenderOptions& o);

// `answer` (optional) draws the routes measured for the move; its verdict
// colours them (green legal, red illegal).
std::string render_svg(const Battlefield& bf, const MoveAnswer* answer = nullptr, const std::string& mover = {});

// Fill colour of a terrain kind in pictures.
const char* terrain_colour(TerrainKind k);

}  // namespace referee::warmaster
