// The web board's API: the one game interface (core/game.hpp, core/match.hpp)
// over HTTP, and nothing system-specific beyond the systems' named queries.
//
// Api::handle is a plain function of a request, with no sockets in it, so the
// tests and the fuzz target drive it directly; http_server.cpp only hands it
// what cpp-httplib received. Every route is documented in docs/api.md.
//
// Safety, for a server that may be exposed on purpose (--host):
//   - a game is reached only through its id, 128 random bits from the
//     operating system (std::random_device), so one client cannot act on
//     another's game without being given its id;
//   - bodies over Limits::max_body_bytes are refused with 413 before they are
//     parsed, and every body goes through the same strict JSON readers as
//     files (depth-limited, unknown fields refused), answering 400 with the
//     field and the problem;
//   - games live in memory only; at most Limits::max_games, the least
//     recently used one dropped first, each with at most
//     Limits::max_log_entries actions; nothing on disk is read or written.
// Concurrency: the store has one mutex, and each game its own, so requests
// on different games run in parallel and requests on one game in turn.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/core/game.hpp"
#include "referee/core/match.hpp"

namespace referee::server {

using Json = nlohmann::json;

struct Request {
  std::string method;  // "GET", "POST", "DELETE"
  std::string path;    // "/api/games/ab12.../apply", without the query string
  std::string body;
};

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

struct Limits {
  std::size_t max_games = 500;
  std::size_t max_body_bytes = 1 << 20;  // 1 MiB: a battle or a long log fits many times over
  std::size_t max_log_entries = 20000;   // per game: a whole battle takes a few hundred
  std::size_t max_opponent_actions = 500;  // per /opponent request: a guard far above one player's turn
};

// A battle offered in the menu: a bundled one, or one given with --battle.
struct Battle {
  std::string id;      // "warmaster/default"
  std::string system;  // "warmaster"
  std::string title;   // "Warmaster: the default battle"
  Json scenario;       // the parsed battle file
};

// 32 hex digits from std::random_device.
std::string random_game_id();

class Api {
 public:
  // `battles[0]` is the battle the board opens on.
  Api(const GameRegistry& registry, std::vector<Battle> battles, Limits limits = {},
      std::function<std::string()> new_id = random_game_id);

  Response handle(const Request& request);

  std::size_t game_count() const;
  const Limits& limits() const { return limits_; }

 private:
  struct Slot {
    std::mutex mutex;
    std::unique_ptr<Match> match;
    std::string battle;  // the battle's id or name, for people
    // The built-in opponent's choices are drawn from this seed (the game's
    // dice seed) and the log position, so a game replays the same and an
    // undone choice is chosen again.
    std::uint64_t opponent_seed = 1;
    std::chrono::steady_clock::time_point used;
  };

  Response route(const Request& request);
  Response create_game(const Json& body);
  Response import_log(const std::string& body);
  Response game_route(const std::string& method, const std::vector<std::string>& parts, const std::string& body);
  Response battles_route(const std::vector<std::string>& parts);
  Response rules_route(const std::vector<std::string>& parts);
  Response opponent_route(const std::string& id, Slot& slot, const std::string& body);
  std::shared_ptr<Slot> find_game(const std::string& id);
  std::string store(std::unique_ptr<Match> match, std::string battle);
  Json view(const std::string& id, const Slot& slot) const;

  const GameRegistry& registry_;
  std::vector<Battle> battles_;
  Limits limits_;
  std::function<std::string()> new_id_;
  mutable std::mutex store_mutex_;
  std::map<std::string, std::shared_ptr<Slot>> games_;
};

// {"error": {"status": 400, "field": "...", "problem": "...", "message": "..."}}
Response error_response(int status, const std::string& field, const std::string& problem);

}  // namespace referee::server
