// The questions a board asks of a Blightmeer position, JSON in and out: the
// best route to a point, a unit's reach split by the checks it needs, and a
// move's check. The command line and the game interface answer through these.
#pragma once

#include <string>
#include <vector>

#include "referee/blightmeer/model.hpp"
#include "referee/blightmeer/route.hpp"
#include "referee/core/game.hpp"

namespace referee::blightmeer {

std::vector<QueryInfo> query_catalogue();

// Answers query `name` on the units of `state`. `text` receives the readable
// answer; `reach_out` the reach of a "reach" query (for drawing).
Json answer_query(const Terrain& t, const State& state, const std::string& name, const Json& args,
                  const std::string& path, std::string* text = nullptr, ReachAnswer* reach_out = nullptr);

}  // namespace referee::blightmeer
