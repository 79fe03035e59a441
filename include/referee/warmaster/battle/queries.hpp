// The questions a board asks of a Warmaster position, JSON in and JSON out:
// reach, route, line of sight, distance, a move check and the odds of an
// order. The command line's `reach`, `los`, `distance`, `route` and `check`
// and the game interface's named queries all answer through these, so a
// board and the command line can never disagree.
#pragma once

#include <string>
#include <vector>

#include "referee/core/game.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/battle/battle_state.hpp"
#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/model/settings.hpp"

namespace referee::warmaster {

// The queries, their summaries and arguments (for Game::queries()).
std::vector<QueryInfo> query_catalogue();

// Answers query `name` with `args` (an object) on the state's battlefield.
// Unknown names, unknown ids and bad arguments are InputErrors naming the
// field under `path`. `text`, when given, receives the readable answer
// (what --explain prints).
Json answer_query(const WarmasterState& s, const std::string& name, const Json& args, const std::string& path,
                  std::string* text = nullptr);

// The same on a bare battlefield (no game state: order odds are not asked).
Json answer_query(const Battlefield& bf, const Settings& settings, const std::string& name, const Json& args,
                  const std::string& path, std::string* text = nullptr);

// An order's number needed, penalties and chance, as JSON and as text.
Json order_target_json(const OrderTarget& t);
std::string order_target_text(const OrderTarget& t);

}  // namespace referee::warmaster
