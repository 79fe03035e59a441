// One client address's share (docs/api.md, "Safety"): new games come from a
// bucket per address, so one address cannot make hundreds of games in
// seconds, and the bytes its games write to the store are bounded, so one
// address cannot fill a shared store; another address is served meanwhile.
// A game reloaded from the store counts against its creator, not a shared
// "stored" client.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

#include "api.hpp"
#include "http_server.hpp"
#include "seats.hpp"
#include "referee/games/builtin.hpp"

namespace referee::server {
namespace {

Response from(Api& api, const std::string& client, const std::string& method, const std::string& path,
              const nlohmann::json& body = nlohmann::json::object()) {
  return api.handle(Request{method, path, body.is_null() ? "" : body.dump(), client});
}

TEST(ClientShare, NewGamesComeFromABucketPerAddress) {
  Limits limits;
  limits.games_burst_per_client = 5;
  limits.games_per_second_per_client = 1e-6;  // no refill within the test
  Api api(builtin_games(), bundled_battle_list(builtin_games()), limits);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(from(api, "10.0.0.1", "POST", "/api/games", {{"seed", i}}).status, 201);
  const Response refused = from(api, "10.0.0.1", "POST", "/api/games");
  EXPECT_EQ(refused.status, 429);
  EXPECT_GT(refused.retry_after, 0);
  const nlohmann::json e = nlohmann::json::parse(refused.body)["error"];
  EXPECT_EQ(e["field"], "client");
  EXPECT_NE(e["problem"].get<std::string>().find("the 5 new games it may make at once"), std::string::npos) << e;
  // Another address is served; the log of its game, imported by the first, is a new game too.
  const Response other = from(api, "10.0.0.2", "POST", "/api/games", {{"seed", 9}});
  EXPECT_EQ(other.status, 201);
  const std::string log = from(api, "10.0.0.2", "GET", "/api/games/" + nlohmann::json::parse(other.body)["id"].get<std::string>() + "/log", nullptr).body;
  EXPECT_EQ(api.handle(Request{"POST", "/api/games/import", log, "10.0.0.1"}).status, 429);
  EXPECT_EQ(api.handle(Request{"POST", "/api/games/import", log, "10.0.0.2"}).status, 201);
}

// The store's share: an address whose games wrote their bytes is refused the
// next change (429 naming client), and its game stays as last kept; another
// address goes on.
TEST(ClientShare, TheBytesAnAddressStoresAreBounded) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("referee-share-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  Limits limits;
  limits.max_stored_bytes_per_client = 100 << 10;  // a new game of the default battle writes some 10 kB
  Api api(builtin_games(), bundled_battle_list(builtin_games()), limits, random_game_id, GameStore::open(dir.string()));
  int created = 0, refused = 0;
  for (int i = 0; i < 25 && refused == 0; ++i) {
    const Response r = from(api, "10.0.0.1", "POST", "/api/games", {{"seed", i}});
    (r.status == 201 ? created : refused)++;
    if (r.status != 201) {
      EXPECT_EQ(r.status, 429) << r.body;
      EXPECT_EQ(nlohmann::json::parse(r.body)["error"]["field"], "client");
    }
  }
  EXPECT_GT(created, 0);
  EXPECT_EQ(refused, 1);
  EXPECT_EQ(from(api, "10.0.0.2", "POST", "/api/games").status, 201);
  std::filesystem::remove_all(dir);
}

// A game reloaded from the store keeps its creator's address (the meta
// holds it): it counts against that client, whose next game then pushes its
// own out first.
TEST(ClientShare, AReloadedGameCountsAgainstItsCreator) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("referee-reload-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::string id;
  {
    Api api(builtin_games(), bundled_battle_list(builtin_games()), Limits{}, random_game_id, GameStore::open(dir.string()));
    id = nlohmann::json::parse(from(api, "10.0.0.1", "POST", "/api/games", {{"seed", 1}}).body)["id"];
  }
  Limits limits;
  limits.max_games_per_client = 1;
  Api api(builtin_games(), bundled_battle_list(builtin_games()), limits, random_game_id, GameStore::open(dir.string()));
  EXPECT_EQ(from(api, "10.0.0.2", "GET", "/api/games/" + id, nullptr).status, 200);  // reloaded by a viewer
  EXPECT_EQ(api.game_count(), 1u);
  // Its creator's next game pushes it out of memory (one game per client here); a viewer's would not.
  EXPECT_EQ(from(api, "10.0.0.1", "POST", "/api/games").status, 201);
  EXPECT_EQ(api.game_count(), 1u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace referee::server
