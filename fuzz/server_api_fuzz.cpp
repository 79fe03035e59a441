// Fuzzes the web board's API (apps/server/api.hpp) the way a hostile client
// would: the first line is "METHOD path" ("{id}" stands for a real game's
// id), the rest the body. The request carries the seat tokens of the game's
// creator (both sides of the fixture game), unless the method starts with '-':
// then it comes from a spectator, who holds none. Every answer must be JSON
// (or the log's JSON Lines) with a status the API documents; a 500 or an
// exception is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "api.hpp"
#include "http_server.hpp"
#include "referee/games/builtin.hpp"

using namespace referee;

namespace {

struct Fixture {
  std::unique_ptr<server::Api> api;
  std::string id;
  std::string seats;  // X-Referee-Seat: the creator's tokens, comma-separated
  Fixture() {
    api = std::make_unique<server::Api>(builtin_games(), server::bundled_battle_list(builtin_games()),
                                        server::Limits{16, 64 * 1024, 200, 50});
    fresh_game();
  }
  void fresh_game() {
    const server::Response r = api->handle({"POST", "/api/games", R"({"seed": 3})"});
    const nlohmann::json answer = nlohmann::json::parse(r.body);
    id = answer["id"];
    seats.clear();
    for (const auto& seat : answer["seat_tokens"]) seats += (seats.empty() ? "" : ",") + seat["token"].get<std::string>();
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Fixture f;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto nl = text.find('\n');
  std::string head = text.substr(0, nl), body = nl == std::string::npos ? "" : text.substr(nl + 1);
  const auto space = head.find(' ');
  if (space == std::string::npos) return 0;
  std::string method = head.substr(0, space);
  const bool spectator = !method.empty() && method.front() == '-';
  if (spectator) method.erase(0, 1);
  std::string path = "/api/" + head.substr(space + 1);
  for (auto at = path.find("{id}"); at != std::string::npos; at = path.find("{id}")) path.replace(at, 4, f.id);
  server::Request request{method, path, body};
  if (!spectator) request.seat = f.seats;
  const server::Response r = f.api->handle(request);
  switch (r.status) {
    case 200: case 201: case 400: case 403: case 404: case 405: case 409: case 413: break;
    default: std::abort();
  }
  if (r.content_type == "application/json") {
    if (!nlohmann::json::accept(r.body)) std::abort();
  } else if (r.content_type != "application/x-ndjson") {
    std::abort();
  }
  // The fixture game may have been deleted or dropped: keep one to act on.
  server::Request view{"GET", "/api/games/" + f.id, ""};
  if (f.api->handle(view).status == 404) f.fresh_game();
  return 0;
}
