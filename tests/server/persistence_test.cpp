// Games kept on disk (docs/api.md, "What the games may take"; game_store.hpp):
// every answered change survives the server, a restarted server serves every
// game again with its seats, its redo and its version, a game pushed out of
// memory comes back from disk, and a store that cannot write refuses the
// change with 503 while the game stays as it was last kept.
#include <gtest/gtest.h>

#include <filesystem>

#include "api.hpp"
#include "seats.hpp"
#include "support/as_nobody.hpp"
#include "support/temp_dir.hpp"
#include "http_server.hpp"
#include "referee/games/builtin.hpp"

namespace referee::server {
namespace persistence_test {

namespace fs = std::filesystem;
using test_support::TempDir;

std::unique_ptr<Api> open_api(const TempDir& dir, Limits limits = {}, StoreOptions options = {}) {
  return std::make_unique<Api>(builtin_games(), bundled_battle_list(builtin_games()), limits, random_game_id,
                               std::shared_ptr<GameStore>(GameStore::open(dir / "data", options)));
}

const Json& kOrder = kFirstOrder;

TEST(ServerStore, AGameOutlivesItsServerWithItsSeatsAndItsVersion) {
  TempDir dir;
  std::string base, a, b, invite, log_before;
  Json before;
  {
    auto api = open_api(dir);
    const Json g = answer_of(send_as(*api, "POST", "/api/games", {{"seats", {0}}, {"seed", 11}}), 201);
    base = "/api/games/" + g["id"].get<std::string>();
    a = g["seat_tokens"][0]["token"];
    invite = g["invitations"][0]["token"];
    b = answer_of(send_as(*api, "POST", base + "/join", Json::object(), "", invite), 200)["seat_tokens"][0]["token"];
    ASSERT_EQ(answer_of(send_as(*api, "POST", base + "/apply", {{"action", kOrder}}, a), 200)["rolls"].size(), 2u);
    answer_of(send_as(*api, "POST", base + "/apply", {{"action", kEndPhase}}, a), 200);
    before = answer_of(send_as(*api, "GET", base, nullptr, a), 200);
    log_before = send_as(*api, "GET", base + "/log", nullptr).body;
    ASSERT_EQ(before["position"], 2);
    ASSERT_EQ(before["version"], 3);
  }
  // A new server on the same directory.
  auto api = open_api(dir);
  EXPECT_EQ(api->game_count(), 0u);
  const Json after = answer_of(send_as(*api, "GET", base, nullptr, a), 200);
  EXPECT_EQ(after["state"], before["state"]);
  EXPECT_EQ(after["position"], 2);
  EXPECT_EQ(after["version"], 3);
  EXPECT_EQ(after["you"], Json::array({0}));
  EXPECT_EQ(after["seats"][1]["held"], true);
  EXPECT_EQ(send_as(*api, "GET", base + "/log", nullptr).body, log_before);
  // The seats hold: B acts for the Orcs only, the invitation stays used.
  EXPECT_EQ(answer_of(send_as(*api, "GET", base, nullptr, b), 200)["you"], Json::array({1}));
  EXPECT_EQ(send_as(*api, "POST", base + "/join", Json::object(), "", invite).status, 409);
  EXPECT_EQ(send_as(*api, "POST", base + "/apply", {{"action", kEndPhase}}, b).status, 403);
  // The game plays on from where it was, and its version goes on.
  const Json next = answer_of(send_as(*api, "POST", base + "/apply", {{"action", before["legal_actions"][0]}}, a), 200);
  EXPECT_EQ(next["game"]["position"], 3);
  EXPECT_EQ(next["game"]["version"], 4);
}

// The log a restarted server serves is the log the first one answered,
// entry for entry, rolls included, and nothing twice.
TEST(ServerStore, TheStoredLogIsWhatThePlayersWereTold) {
  TempDir dir;
  std::string base, seat;
  std::vector<Json> told;
  {
    auto api = open_api(dir);
    const Json g = answer_of(send_as(*api, "POST", "/api/games", {{"battle", "warmaster/pitched-battle"}, {"opponent_sides", {1}}}), 201);
    base = "/api/games/" + g["id"].get<std::string>();
    seat = g["seat_tokens"][0]["token"];
    for (int i = 0; i < 6; ++i) {
      const Json view = answer_of(send_as(*api, "GET", base, nullptr, seat), 200);
      const Json out = view["current_player"] == 1
                           ? answer_of(send_as(*api, "POST", base + "/opponent", {{"until", "action"}}, seat), 200)
                           : answer_of(send_as(*api, "POST", base + "/apply", {{"action", view["legal_actions"].back()}}, seat), 200);
      for (const Json& e : out["entries"]) told.push_back(e);
    }
  }
  auto api = open_api(dir);
  const Json stored = answer_of(send_as(*api, "GET", base + "/entries/0", nullptr), 200);
  ASSERT_EQ(stored["entries"].size(), told.size());
  for (std::size_t k = 0; k < told.size(); ++k) EXPECT_EQ(stored["entries"][k], told[k]) << k;
}

TEST(ServerStore, UndoneEntriesStayRedoableAcrossARestart) {
  TempDir dir;
  std::string base, both;
  {
    auto api = open_api(dir);
    const Json g = answer_of(send_as(*api, "POST", "/api/games", Json::object()), 201);
    base = "/api/games/" + g["id"].get<std::string>();
    both = g["seat_tokens"][0]["token"].get<std::string>() + "," + g["seat_tokens"][1]["token"].get<std::string>();
    answer_of(send_as(*api, "POST", base + "/apply", {{"action", kOrder}}, both), 200);
    answer_of(send_as(*api, "POST", base + "/apply", {{"action", kEndPhase}}, both), 200);
    EXPECT_EQ(answer_of(send_as(*api, "POST", base + "/undo", Json::object(), both), 200)["position"], 1);
  }
  {
    auto api = open_api(dir);
    const Json g = answer_of(send_as(*api, "GET", base, nullptr), 200);
    EXPECT_EQ(g["position"], 1);
    EXPECT_EQ(g["can_redo"], true);
    EXPECT_EQ(answer_of(send_as(*api, "POST", base + "/redo", Json::object(), both), 200)["position"], 2);
    answer_of(send_as(*api, "POST", base + "/undo", Json::object(), both), 200);
    // Playing after an undo drops what was undone, on disk too.
    answer_of(send_as(*api, "POST", base + "/undo", Json::object(), both), 200);
    answer_of(send_as(*api, "POST", base + "/apply", {{"action", kEndPhase}}, both), 200);
  }
  auto api = open_api(dir);
  const Json g = answer_of(send_as(*api, "GET", base, nullptr), 200);
  EXPECT_EQ(g["position"], 1);
  EXPECT_EQ(g["history_size"], 2);
  EXPECT_EQ(g["can_redo"], false);
}

TEST(ServerStore, AGamePushedOutOfMemoryComesBackFromDisk) {
  TempDir dir;
  Limits limits;
  limits.max_games = 2;
  auto api = open_api(dir, limits);
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(answer_of(send_as(*api, "POST", "/api/games", {{"seed", i}}), 201)["id"]);
  EXPECT_EQ(api->game_count(), 2u);
  for (const std::string& id : ids) EXPECT_EQ(answer_of(send_as(*api, "GET", "/api/games/" + id, nullptr), 200)["dice"]["seed"],
                                              static_cast<int>(&id - ids.data()));
  EXPECT_LE(api->game_count(), 2u);
  // Deleted is gone, from disk too.
  const Json g = answer_of(send_as(*api, "POST", "/api/games", Json::object()), 201);
  const std::string base = "/api/games/" + g["id"].get<std::string>();
  EXPECT_EQ(send_as(*api, "DELETE", base, nullptr, g["seat_tokens"][0]["token"]).status, 200);
  EXPECT_EQ(send_as(*api, "GET", base, nullptr).status, 404);
  auto again = open_api(dir);
  EXPECT_EQ(send_as(*again, "GET", base, nullptr).status, 404);
  EXPECT_EQ(send_as(*again, "GET", "/api/games/" + ids[0], nullptr).status, 200);
}

// A store that cannot take the change (here: full, --data-max-mb) refuses it
// with 503 naming `data`; the game stays as last kept, on disk and in what
// the server answers next, and nobody is told of a change that was not kept.
TEST(ServerStore, AFullStoreRefusesTheChangeAndKeepsTheLastGoodState) {
  TempDir dir;
  {
    auto probe = GameStore::open(dir / "data");
  }
  const std::uint64_t size = fs::file_size(fs::path(dir / "data") / "games.sqlite3");
  StoreOptions tight;
  tight.max_bytes = size + 16 * 4096;
  auto api = open_api(dir, {}, tight);
  const Json g = answer_of(send_as(*api, "POST", "/api/games", Json::object()), 201);
  const std::string base = "/api/games/" + g["id"].get<std::string>();
  const std::string both = g["seat_tokens"][0]["token"].get<std::string>() + "," + g["seat_tokens"][1]["token"].get<std::string>();
  Response watcher = send_as(*api, "GET", base + "/events", nullptr);
  ASSERT_TRUE(watcher.stream);
  watcher.stream->take();
  Json last_good;
  Response r;
  int answered = 0;
  for (int i = 0; i < 2000; ++i) {
    const Json view = answer_of(send_as(*api, "GET", base, nullptr), 200);
    if (view["terminal"].get<bool>()) break;
    r = send_as(*api, "POST", base + "/apply", {{"action", view["legal_actions"][0]}}, both);
    if (r.status != 200) break;
    ++answered;
    last_good = Json::parse(r.body)["game"];
  }
  ASSERT_EQ(r.status, 503) << "the store never filled";
  ASSERT_GT(answered, 0);
  const Json e = Json::parse(r.body);
  EXPECT_EQ(e["error"]["field"], "data");
  EXPECT_NE(e["error"]["problem"].get<std::string>().find("full"), std::string::npos) << e;
  EXPECT_EQ(r.retry_after, 60);
  const Json now = answer_of(send_as(*api, "GET", base, nullptr), 200);
  EXPECT_EQ(now["position"], last_good["position"]);
  EXPECT_EQ(now["state"], last_good["state"]);
  // Viewers heard of every kept change and of nothing else.
  const std::string events = watcher.stream->take();
  EXPECT_NE(events.find("id: " + std::to_string(answered) + "\n"), std::string::npos);
  EXPECT_EQ(events.find("id: " + std::to_string(answered + 1) + "\n"), std::string::npos);
  auto again = open_api(dir);
  EXPECT_EQ(answer_of(send_as(*again, "GET", base, nullptr), 200)["position"], last_good["position"]);
}

// A data directory the server cannot write (here: one root owns, the server
// running as nobody) still serves every game to watch, and refuses each
// change with 503 naming `data` and saying why; nothing changes.
TEST(ServerStore, AReadOnlyDataDirectoryServesGamesAndRefusesChanges) {
  TempDir dir;
  std::string base, seat;
  int position = 0;
  {
    auto api = open_api(dir);
    const Json g = answer_of(send_as(*api, "POST", "/api/games", Json::object()), 201);
    base = "/api/games/" + g["id"].get<std::string>();
    seat = g["seat_tokens"][0]["token"].get<std::string>() + "," + g["seat_tokens"][1]["token"].get<std::string>();
    position = answer_of(send_as(*api, "POST", base + "/apply", {{"action", kOrder}}, seat), 200)["game"]["position"];
  }
  // Readable by all, writable by its owner only (root): and, when not root,
  // by no one.
  fs::permissions(fs::path(dir / ""), fs::perms(0755));
  for (const auto& f : fs::directory_iterator(fs::path(dir / "data"))) fs::permissions(f.path(), fs::perms(0644));
  fs::permissions(fs::path(dir / "data"), test_support::running_as_root() ? fs::perms(0755) : fs::perms(0555));
  const int code = test_support::as_nobody([&] {
    std::unique_ptr<Api> api;
    try {
      api = open_api(dir);
    } catch (const StoreError&) {
      return 1;  // the directory could not even be read
    }
    const Response view = send_as(*api, "GET", base, nullptr, seat);
    if (view.status != 200 || Json::parse(view.body)["position"] != position) return 2;
    const Response apply = send_as(*api, "POST", base + "/apply", {{"action", kEndPhase}}, seat);
    if (apply.status != 503) return 3;
    const Json e = Json::parse(apply.body)["error"];
    if (e["field"] != "data" || e["problem"].get<std::string>().find("read-only") == std::string::npos) return 4;
    if (Json::parse(send_as(*api, "GET", base, nullptr).body)["position"] != position) return 5;
    if (send_as(*api, "POST", "/api/games", Json::object()).status != 503) return 6;
    return 0;
  });
  fs::permissions(fs::path(dir / "data"), fs::perms(0700));
  EXPECT_EQ(code, 0) << "1: not opened; 2: the game not served as kept; 3: the change not refused with 503; "
                        "4: the refusal does not name data and say read-only; 5: the game changed; 6: a new game was made";
  EXPECT_EQ(answer_of(send_as(*open_api(dir), "GET", base, nullptr), 200)["position"], position);
}

// Dice rolled at a real table (a game made with "dice"): the values not yet
// used survive a restart with the game, and the next action rolls them.
TEST(ServerStore, AScriptedGameKeepsTheDiceStillToCome) {
  TempDir dir;
  std::string base, both;
  {
    auto api = open_api(dir);
    const Json g = answer_of(send_as(*api, "POST", "/api/games", {{"dice", {1, 2, 3, 4, 5, 6}}}), 201);
    base = "/api/games/" + g["id"].get<std::string>();
    both = g["seat_tokens"][0]["token"].get<std::string>() + "," + g["seat_tokens"][1]["token"].get<std::string>();
    const Json first = answer_of(send_as(*api, "POST", base + "/apply", {{"action", kOrder}}, both), 200);
    ASSERT_EQ(first["rolls"].size(), 2u);
    EXPECT_EQ(first["rolls"][0]["value"], 1);
    EXPECT_EQ(first["rolls"][1]["value"], 2);
  }
  auto api = open_api(dir);
  // 1 + 2 = 3 passed the order (8 or less needed): the General's next order
  // rolls the script's next two values, 3 and 4.
  const Json view = answer_of(send_as(*api, "GET", base, nullptr, both), 200);
  EXPECT_EQ(view["dice"]["scripted"], true);
  Json order;
  for (const Json& a : view["legal_actions"])
    if (a.value("type", "") == "order") order = a;
  ASSERT_FALSE(order.is_null()) << view["legal_actions"].dump();
  const Json next = answer_of(send_as(*api, "POST", base + "/apply", {{"action", order}}, both), 200);
  ASSERT_EQ(next["rolls"].size(), 2u) << next.dump().substr(0, 400);
  EXPECT_EQ(next["rolls"][0]["value"], 3);
  EXPECT_EQ(next["rolls"][1]["value"], 4);
}

// A stored Ancients game's deal comes back with it: the store keeps the
// start's rolls in the log's header, and the restarted server deals the same
// hands, shows each seat its own, and the game plays on. A game pushed out
// of memory (here: a new server) replays from its log, the deal first.
TEST(ServerStore, AnAncientsDealOutlivesItsServer) {
  TempDir dir;
  std::string base, seat;
  Json whole;
  {
    auto api = open_api(dir);
    const Json g = answer_of(send_as(*api, "POST", "/api/games", {{"battle", "ancients/centre_clash"}}), 201);
    base = "/api/games/" + g["id"].get<std::string>();
    seat = g["seat_tokens"][0]["token"].get<std::string>() + "," + g["seat_tokens"][1]["token"].get<std::string>();
    const Json action = g["legal_actions"][0];
    answer_of(send_as(*api, "POST", base + "/apply", {{"action", action}}, seat), 200);
    whole = answer_of(send_as(*api, "GET", base, nullptr, seat), 200)["state"];
  }
  auto api = open_api(dir);
  const Json after = answer_of(send_as(*api, "GET", base, nullptr, seat), 200);
  EXPECT_EQ(after["state"], whole);
  EXPECT_EQ(after["position"], 1);
  const Json side0 = answer_of(send_as(*api, "GET", base, nullptr, seat.substr(0, 32)), 200);
  EXPECT_EQ(side0["state"]["hands"][0], whole["hands"][0]);
  EXPECT_TRUE(side0["state"]["hands"][1].is_null());
  EXPECT_EQ(answer_of(send_as(*api, "POST", base + "/apply", {{"action", after["legal_actions"][0]}}, seat), 200)["applied"],
            true);
}

}  // namespace persistence_test
}  // namespace referee::server
