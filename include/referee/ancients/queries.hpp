// The questions a board asks of an Ancients position, JSON in and out: the
// orders a card allows, a piece's destinations, and whether a move to a hex
// is legal with its path. The command line and the game interface answer
// through these.
#pragma once

#include <string>
#include <vector>

#include "referee/ancients/turn.hpp"
#include "referee/ancients/movement.hpp"
#include "referee/core/game.hpp"

namespace referee::ancients {

std::vector<QueryInfo> query_catalogue();

// Answers query `name` on state `s`. `in_game` says whether the game's own
// conditions apply (the piece must be ordered and not yet moved); at the
// start of a battle asked from the command line they do not. `text`, when
// given, receives the readable answer. `destinations_out`, when given,
// receives the destinations of a "destinations" query (for drawing).
Json answer_query(const Battle& b, const AncientsState& s, bool in_game, const std::string& name, const Json& args,
                  const std::string& path, std::string* text = nullptr,
                  std::vector<Destination>* destinations_out = nullptr);

}  // namespace referee::ancients
