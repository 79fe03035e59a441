// Fuzzes the web board's game store (apps/server/api.hpp) under concurrency:
// three threads, each playing a third of the input as a list of operations
// (create, delete, apply, undo, redo, opponent, view, import, replay, live
// updates, legal actions; as the creator or as a spectator) on the same few games, from three client addresses, with room
// for two games, a small memory budget and a sparse history (every 8th
// state kept), so that games are dropped while others act on them and undo
// replays. Every answer must be a documented status with a JSON body (a
// log's JSON Lines); a crash, a 500 or an exception is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "api.hpp"
#include "http_server.hpp"
#include "referee/games/builtin.hpp"

using namespace referee;
using nlohmann::json;

namespace {

struct Shared {
  server::Api& api;
  std::mutex mutex;
  std::vector<std::string> ids;
  std::map<std::string, std::string> seats;  // game id -> its creator's X-Referee-Seat
  std::string pick(std::uint8_t b) {
    std::lock_guard lock(mutex);
    return ids.empty() ? std::string(32, '0') : ids[b % ids.size()];
  }
  std::string seat_of(const std::string& id) {
    std::lock_guard lock(mutex);
    auto it = seats.find(id);
    return it == seats.end() ? "" : it->second;
  }
  // A new game's answer: its id and its creator's seat tokens.
  void add(const json& created) {
    std::lock_guard lock(mutex);
    const std::string id = created["id"];
    if (ids.size() >= 8) {
      seats.erase(ids.front());
      ids.erase(ids.begin());
    }
    ids.push_back(id);
    std::string header;
    for (const json& t : created["seat_tokens"]) header += (header.empty() ? "" : ",") + t["token"].get<std::string>();
    seats[id] = header;
  }
};

void check(const server::Response& r) {
  switch (r.status) {
    case 200: case 201: case 400: case 403: case 404: case 405: case 409: case 413: case 429: break;
    default: std::abort();
  }
  if (r.content_type == "application/json") {
    if (!json::accept(r.body)) std::abort();
  } else if (r.content_type != "application/x-ndjson") {
    std::abort();
  }
}

void play(Shared& s, const std::uint8_t* data, std::size_t size) {
  // Warmaster and Ancients battles: the store is the same for every system,
  // and a Blightmeer battle's navigation graph would spend the run loading.
  const std::vector<server::Battle>& battles = []() -> const std::vector<server::Battle>& {
    static const auto b = [] {
      std::vector<server::Battle> out;
      for (server::Battle& x : server::bundled_battle_list(builtin_games()))
        if (x.system != "blightmeer") out.push_back(std::move(x));
      return out;
    }();
    return b;
  }();
  // At most 24 operations a thread: an input is a short burst, run often.
  for (std::size_t i = 0; i + 1 < size && i < 48; i += 2) {
    const std::uint8_t op = data[i], arg = data[i + 1];
    const std::string client = "10.0.0." + std::to_string(op / 10 % 3);
    const std::string id = s.pick(arg);
    const std::string game = "/api/games/" + id;
    // Most requests come from the game's creator; one in eight from a
    // spectator, whom every change refuses.
    const std::string seat = op / 10 % 8 == 7 ? "" : s.seat_of(id);
    auto as_player = [&](std::string method, std::string path, std::string body) {
      server::Request q{std::move(method), std::move(path), std::move(body), client};
      q.seat = seat;
      return s.api.handle(q);
    };
    server::Response r;
    switch (op % 10) {
      case 0:
        r = s.api.handle({"POST", "/api/games", json{{"battle", battles[arg % battles.size()].id}, {"seed", arg}}.dump(), client});
        if (r.status == 201) s.add(json::parse(r.body));
        break;
      case 1: r = as_player("DELETE", game, ""); break;
      case 2: {
        const server::Response sample = s.api.handle({"POST", game + "/sample", json{{"seed", arg}}.dump(), client});
        check(sample);
        if (sample.status != 200 || json::parse(sample.body)["action"].is_null()) continue;
        r = as_player("POST", game + "/apply", json{{"action", json::parse(sample.body)["action"]}}.dump());
        break;
      }
      case 3: r = as_player("POST", game + "/undo", ""); break;
      case 4: r = as_player("POST", game + "/redo", ""); break;
      case 5: r = as_player("POST", game + "/opponent", R"({"until": "action"})"); break;
      case 6: r = s.api.handle({arg % 2 ? "GET" : "HEAD", game, "", client}); break;
      case 7: {
        const server::Response log = s.api.handle({"GET", game + "/log", "", client});
        check(log);
        if (log.status != 200) continue;
        r = s.api.handle({"POST", "/api/games/import", log.body, client});
        if (r.status == 201) s.add(json::parse(r.body));
        break;
      }
      case 8:
        if (arg % 2) {
          r = s.api.handle({"GET", game + "/replay/" + std::to_string(arg % 12), "", client});
        } else {
          // A live-update stream, opened and dropped: its viewer is
          // registered, told of changes while it lives, and forgotten.
          r = as_player("GET", game + "/events", "");
          if (r.stream) {
            if (r.status != 200) std::abort();
            r = {200, "application/json", r.stream->take().empty() ? "" : "{}"};
            if (r.body.empty()) std::abort();  // a new stream starts with at least its retry line
          }
        }
        break;
      default: r = s.api.handle({"GET", game + "/legal-actions", "", client}); break;
    }
    check(r);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const server::Limits limits = [] {
    server::Limits l;
    l.max_games = 2;
    l.max_games_per_client = 2;
    l.max_memory_bytes = 2 << 20;
    l.max_log_entries = 40;
    l.snapshot_bytes_per_entry = 1;
    l.opponent_seconds = 0.01;
    return l;
  }();
  // One store for the whole run, as a server has: games live on from one
  // input to the next.
  static server::Api api(builtin_games(), server::bundled_battle_list(builtin_games()), limits);
  static Shared shared{api, {}, {}, {}};
  const std::size_t third = size / 3 / 2 * 2;
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    const std::size_t start = third * static_cast<std::size_t>(t);
    const std::size_t n = t == 2 ? size - start : third;
    threads.emplace_back([data, start, n] { play(shared, data + start, n); });
  }
  for (auto& th : threads) th.join();
  if (api.game_count() > limits.max_games || api.memory_estimate() > limits.max_memory_bytes + (1 << 20)) std::abort();
  return 0;
}
