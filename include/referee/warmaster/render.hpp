// Pictures of a Warmaster battlefield (SVG, the table seen from above):
// terrain coloured by kind, stands with a mark on their front edge, unit
// labels, characters, the table edge and, for a checked move, each stand's
// route and final pose.
#pragma once

#include <string>

#include "referee/warmaster/model.hpp"
#include "referee/warmaster/movement.hpp"

namespace referee::warmaster {

// `answer` (optional) draws the routes measured for the move; its verdict
// colours them (green legal, red illegal).
std::string render_svg(const Battlefield& bf, const MoveAnswer* answer = nullptr, const std::string& mover = {});

// Fill colour of a terrain kind in pictures.
const char* terrain_colour(TerrainKind k);

}  // namespace referee::warmaster
