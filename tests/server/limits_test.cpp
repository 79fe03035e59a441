// What one client may take of the server (api.hpp, "Safety"): games, engine
// time, memory, and how long a request holds a game; and that a game whose
// history keeps only some of its states undoes, redoes and replays as one
// that keeps them all.
#include <gtest/gtest.h>

#include <malloc.h>

#include <atomic>
#include <iostream>
#include <thread>

#include "../../bench/warmaster_field.hpp"
#include "api.hpp"
#include "seats.hpp"
#include "http_server.hpp"
#include "referee/games/builtin.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"

namespace referee::server {
namespace {

Api make_api(Limits limits = {}) { return Api(builtin_games(), bundled_battle_list(builtin_games()), limits); }

// Every test acts as its games' creator (seats.hpp).
SeatBook book;

Response call(Api& api, const std::string& method, const std::string& path, const Json& body = nullptr,
              const std::string& client = "127.0.0.1") {
  Request request{method, path, body.is_null() ? "" : body.dump(), client};
  request.seat = book.header_for(path);
  Response r = api.handle(request);
  if (r.content_type == "application/json") book.remember(Json::parse(r.body, nullptr, false));
  return r;
}

Json json_of(const Response& r, int status) {
  EXPECT_EQ(r.status, status) << r.body.substr(0, 300);
  return Json::parse(r.body);
}

std::string create(Api& api, const std::string& client = "127.0.0.1", const Json& body = Json::object()) {
  return json_of(call(api, "POST", "/api/games", body, client), 201)["id"];
}

bool exists(Api& api, const std::string& id) { return call(api, "GET", "/api/games/" + id).status == 200; }

// A 1,000-unit Warmaster battle (bench/warmaster_field.hpp, ten tables'
// worth), with a General on each side so that the opponent has a turn to play.
Json big_battle() {
  Json j = warmaster::to_json(warmaster::bench::make_tiled_field(100, 5, 2));
  j["armies"][0]["characters"] = Json::array({{{"id", "s-general"}, {"name", "S"}, {"role", "general"}, {"command", 9}, {"x", 450}, {"y", 60}}});
  j["armies"][1]["characters"] = Json::array({{{"id", "n-general"}, {"name", "N"}, {"role", "general"}, {"command", 9}, {"x", 450}, {"y", 180}}});
  return j;
}

// --max-games 1 and many clients creating and importing at once: each one's
// new game may be dropped by another's before it is answered. It used to be
// looked up again by id, found gone, and dereferenced (a crash).
TEST(ServerLimits, CreateAndImportSurviveTheirGameBeingDroppedAtOnce) {
  Limits limits;
  limits.max_games = 1;
  limits.games_burst_per_client = 1e9;  // 800 new games from one address, at once
  Api api = make_api(limits);
  const std::string log = call(api, "GET", "/api/games/" + create(api, "127.0.0.1", {{"seed", 1}}) + "/log").body;
  std::atomic<int> created = 0, other = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i) {
        const Response r = (t + i) % 2 ? api.handle({"POST", "/api/games/import", log, "c"})
                                       : api.handle({"POST", "/api/games", "{}", "c"});
        (r.status == 201 && Json::parse(r.body).contains("state") ? created : other)++;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(created.load(), 800);
  EXPECT_EQ(other.load(), 0);
  EXPECT_EQ(api.game_count(), 1u);
}

// A client that floods the store drops its own games, not another client's.
TEST(ServerLimits, AFloodingClientDropsItsOwnGames) {
  Limits limits;
  limits.max_games = 4;
  limits.max_games_per_client = 3;
  Api api = make_api(limits);
  const std::string player = create(api, "10.0.0.2");
  std::string last;
  for (int i = 0; i < 20; ++i) last = create(api, "10.0.0.66");
  EXPECT_TRUE(exists(api, player));
  EXPECT_TRUE(exists(api, last));
  EXPECT_EQ(api.game_count(), 4u);  // the player's one and the flooder's three
  // When the store is full, the client holding the most gives up its least recently used.
  const std::string second = create(api, "10.0.0.3");
  EXPECT_TRUE(exists(api, player));
  EXPECT_TRUE(exists(api, second));
  EXPECT_EQ(api.game_count(), 4u);
}

TEST(ServerLimits, EngineTimeIsBudgetedPerClient) {
  Limits limits;
  limits.engine_seconds_burst = 1e-9;
  limits.engine_seconds_per_second = 1e-9;
  Api api = make_api(limits);
  EXPECT_EQ(call(api, "GET", "/api/systems", nullptr, "10.0.0.9").status, 200);  // spends more than a nanosecond
  const Response r = call(api, "GET", "/api/systems", nullptr, "10.0.0.9");
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(Json::parse(r.body)["error"]["field"], "client");
  EXPECT_GE(r.retry_after, 1);
  ASSERT_TRUE(api.admit("10.0.0.9").has_value());
  EXPECT_FALSE(api.admit("10.0.0.10").has_value());
  EXPECT_EQ(call(api, "GET", "/api/systems", nullptr, "10.0.0.10").status, 200);
}

// Games are dropped to keep their estimated memory within the store's
// budget, and one game may not outgrow its own.
TEST(ServerLimits, GamesStayWithinTheirMemoryBudget) {
  Api probe = make_api();
  create(probe);
  const std::size_t one = probe.memory_estimate();
  ASSERT_GT(one, 10000u);
  Limits limits;
  limits.max_memory_bytes = 3 * one + one / 2;
  Api api = make_api(limits);
  for (int i = 0; i < 10; ++i) create(api, i % 2 ? "a" : "b");
  EXPECT_EQ(api.game_count(), 3u);
  EXPECT_LE(api.memory_estimate(), limits.max_memory_bytes);

  Limits small;
  small.max_game_bytes = one / 2;
  Api tight = make_api(small);
  EXPECT_EQ(json_of(call(tight, "POST", "/api/games", Json::object()), 413)["error"]["field"], "scenario");
  small.max_game_bytes = one + 1;
  Api full = make_api(small);
  const std::string id = create(full);
  const Json bad = {{"type", "order"}, {"character", "orc-warboss"}, {"unit", "orc-boyz-1"}};
  Response r = call(full, "POST", "/api/games/" + id + "/apply", {{"action", bad}});
  for (int i = 0; i < 50 && r.status == 200; ++i) r = call(full, "POST", "/api/games/" + id + "/apply", {{"action", bad}});
  EXPECT_EQ(json_of(r, 409)["error"]["field"], "game");
}

// The history of a 1,000-unit battle: each entry used to keep a whole state
// (some 210 kB here); now every k-th state is kept (k = 16 here) and the rest
// replayed.
TEST(ServerLimits, HistoryMemoryGrowsWithTheLogNotTheBattle) {
  Limits limits;
  Api api = make_api(limits);
  const std::string id = create(api, "c", {{"system", "warmaster"}, {"scenario", big_battle()}});
  const std::string base = "/api/games/" + id;
  call(api, "POST", base + "/opponent", {{"until", "action"}});
  const std::size_t before = mallinfo2().uordblks;
  const int n = 32;
  for (int i = 0; i < n; ++i) ASSERT_EQ(call(api, "POST", base + "/opponent", {{"until", "action"}}).status, 200);
  const std::size_t after = mallinfo2().uordblks;
  const double per_entry = (static_cast<double>(after) - static_cast<double>(before)) / n;
  std::cout << "history: " << per_entry << " bytes kept per entry\n";
  EXPECT_LT(per_entry, 80e3) << "bytes kept per history entry";
  // And it still undoes to the start and back.
  const Json end = json_of(call(api, "GET", base), 200)["state"];
  for (int i = 0; i <= n; ++i) ASSERT_EQ(call(api, "POST", base + "/undo", Json::object()).status, 200);
  EXPECT_EQ(json_of(call(api, "GET", base), 200)["position"], 0);
  for (int i = 0; i <= n; ++i) ASSERT_EQ(call(api, "POST", base + "/redo", Json::object()).status, 200);
  EXPECT_EQ(json_of(call(api, "GET", base), 200)["state"], end);
}

// One /opponent request plays at most Limits::opponent_seconds (and at least
// one action); the board asks again while it is the opponent's turn.
TEST(ServerLimits, TheOpponentStopsAtItsTimeLimit) {
  Limits limits;
  limits.opponent_seconds = 0;
  Api api = make_api(limits);
  const std::string id = create(api, "c", {{"battle", "warmaster/pitched-battle"}});
  const Json out = json_of(call(api, "POST", "/api/games/" + id + "/opponent", {{"until", "player"}}), 200);
  EXPECT_EQ(out["actions"].size(), 1u);
  EXPECT_EQ(out["stopped"], "time limit");
  EXPECT_EQ(out["game"]["current_player"], out["player"]);
  const Json next = json_of(call(api, "POST", "/api/games/" + id + "/opponent", {{"until", "player"}}), 200);
  EXPECT_EQ(next["actions"].size(), 1u);
  EXPECT_EQ(next["game"]["position"], 2);
}

TEST(ServerLimits, AnImportThatTakesTooLongIsRefused) {
  Api api = make_api();
  const std::string id = create(api, "c", {{"battle", "warmaster/pitched-battle"}, {"seed", 1}});
  for (int i = 0; i < 3; ++i) call(api, "POST", "/api/games/" + id + "/opponent", {{"until", "action"}});
  const std::string log = call(api, "GET", "/api/games/" + id + "/log").body;
  Limits limits;
  limits.import_seconds = 0;
  Api strict = make_api(limits);
  EXPECT_EQ(json_of(strict.handle({"POST", "/api/games/import", log, "c"}), 413)["error"]["field"], "log");
  EXPECT_EQ(api.handle({"POST", "/api/games/import", log, "c"}).status, 201);
}

// A game that keeps every 8th state (its snapshot interval forced by a tiny
// size per entry) answers undo, redo and replay exactly as one that keeps all.
TEST(ServerLimits, ASparseHistoryUndoesRedoesAndReplaysAsAFullOne) {
  Limits sparse_limits;
  sparse_limits.snapshot_bytes_per_entry = 1;
  Api full = make_api(), sparse = make_api(sparse_limits);
  const Json battle = {{"battle", "warmaster/pitched-battle"}, {"seed", 8}};
  const std::string a = "/api/games/" + create(full, "c", battle), b = "/api/games/" + create(sparse, "c", battle);
  std::vector<Json> states{json_of(call(full, "GET", a), 200)["state"]};
  for (int i = 0; i < 30; ++i) {
    const Json x = json_of(call(full, "POST", a + "/opponent", {{"until", "action"}}), 200);
    const Json y = json_of(call(sparse, "POST", b + "/opponent", {{"until", "action"}}), 200);
    ASSERT_EQ(x["game"]["state"], y["game"]["state"]);
    states.push_back(x["game"]["state"]);
  }
  for (int step = 0; step <= 30; step += 3)
    EXPECT_EQ(json_of(call(sparse, "GET", b + "/replay/" + std::to_string(step)), 200)["state"], states[step]) << step;
  for (int p = 29; p >= 0; --p)
    ASSERT_EQ(json_of(call(sparse, "POST", b + "/undo", Json::object()), 200)["state"], states[p]) << p;
  for (int p = 1; p <= 30; ++p)
    ASSERT_EQ(json_of(call(sparse, "POST", b + "/redo", Json::object()), 200)["state"], states[p]) << p;
  EXPECT_EQ(call(sparse, "GET", b + "/log").body, call(full, "GET", a + "/log").body);
}

TEST(ServerLimits, EveryRouteListsItsMethods) {
  Api api = make_api();
  const std::string id = create(api);
  EXPECT_EQ(Api::allowed_methods("/api/systems"), "GET, HEAD");
  EXPECT_EQ(Api::allowed_methods("/api/games"), "POST");
  EXPECT_EQ(Api::allowed_methods("/api/games/" + id), "GET, HEAD, DELETE");
  EXPECT_EQ(Api::allowed_methods("/api/games/" + id + "/replay/3"), "GET, HEAD");
  EXPECT_EQ(Api::allowed_methods("/api/games/" + id + "/nothing"), "");
  EXPECT_EQ(Api::allowed_methods("/app.js"), "");
  const Response r = call(api, "OPTIONS", "/api/games/" + id + "/undo");
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.allow, "POST");
  EXPECT_EQ(call(api, "HEAD", "/api/games/" + id).status, 200);
}

}  // namespace
}  // namespace referee::server
