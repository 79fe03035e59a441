// Blightmeer's JSON: the battlefield file, move requests, and the answers.
// Every input error names the field ("units[2].position: (3.0, 4.0, 1.0) is
// in mid-air: the level there is 0.0 in"). docs/blightmeer.md documents the formats.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/blightmeer/model.hpp"
#include "referee/blightmeer/move.hpp"
#include "referee/blightmeer/resolve.hpp"
#include "referee/blightmeer/route.hpp"
#include "referee/core/files.hpp"

namespace referee::blightmeer {

// Parses and validates a battlefield, then compiles its navigation graph.
Battle parse_battle(const nlohmann::json& j, const std::string& source);
Battle parse_battle_text(std::string_view text, const std::string& source);
Battle load_battle(const std::string& path, std::uint64_t max_bytes = kDefaultMaxInputBytes);  // core/files.hpp

MoveRequest parse_move(const nlohmann::json& j, const std::string& path = "");
// One move object, or {"moves": [ ... ]}.
std::vector<MoveRequest> parse_moves(const nlohmann::json& j);
nlohmann::json move_to_json(const MoveRequest& m);

nlohmann::json vec3_json(Vec3 p);
nlohmann::json unit_json(const Unit& u);
nlohmann::json state_json(const State& s);
nlohmann::json report_json(const MoveReport& r);
nlohmann::json resolution_json(const Resolution& r);
nlohmann::json route_json(const RouteAnswer& a);
nlohmann::json reach_json(const ReachAnswer& a);

std::string explain_report(const MoveReport& r);
std::string explain_resolution(const Resolution& r);
std::string explain_route(const RouteAnswer& a);
std::string explain_reach(const ReachAnswer& a);

// Pictures seen from above, heights marked (render.cpp): optionally a reach
// overlay, and a route drawn turn by turn with where each turn's move stops.
std::string render_svg(const Terrain& t, const State& s, const ReachAnswer* reach = nullptr,
                       const RouteOption* route = nullptr);

}  // namespace referee::blightmeer
