// The move request file (docs/warmaster-format.md) and the answer of
// `referee warmaster check`: parsing with a clear InputError naming the item,
// and writing back. A request is checked against the battlefield it moves on.
#pragma once

#include <cstdint>
#include <string>

#include "referee/core/files.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/movement/movement.hpp"

namespace referee::warmaster {

// A move request (docs/warmaster-format.md), checked against the battlefield:
// the mover exists, stand indices are in range and listed once, the order
// lists each moving stand once.
MoveRequest parse_move_request(const Json& j, const Battlefield& bf);
MoveRequest load_move_request_file(const std::string& path, const Battlefield& bf,
                                   std::uint64_t max_bytes = kDefaultMaxInputBytes);
Json to_json(const MoveRequest& req);

// The answer of `referee warmaster check`: legal, violations, formation,
// pace, allowance, order, routes, leaves_table.
Json to_json(const MoveAnswer& answer);
std::string explain(const MoveAnswer& answer, const MoveRequest& req);

}  // namespace referee::warmaster
