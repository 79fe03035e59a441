// SVG pictures of the hex board: terrain, section lines, units and leaders
// with labels, and optionally one piece's destinations highlighted.
#pragma once

#include <string>
#include <vector>

#include "referee/ancients/model.hpp"
#include "referee/ancients/movement.hpp"
#include "referee/ancients/position.hpp"

namespace referee::ancients {

struct RenderOptions {
  bool hex_labels = true;                 // print "col,row" in every hex
  bool shade_sections = false;            // tint the three sections (the docs picture)
  int selected_hex = -1;                  // ring around the moving piece
  std::vector<Destination> destinations;  // highlighted
  bool destinations_of_unit = true;       // battle flags apply (false: a leader's)
  std::string title;
};

std::string render_board(const Battle& b, const Position& p, const RenderOptions& o);

}  // namespace referee::ancients
