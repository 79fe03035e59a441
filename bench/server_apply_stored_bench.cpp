// An action applied through the web board's API with the game kept on disk
// (SQLite, WAL, synced before the answer: game_store.hpp): what a player
// waits for besides the engine. BM_ServeApplyStored plays the fair battle
// (the Empire at the board, the built-in opponent's turns played between
// timings) and times each of the Empire's actions: the engine, the answer's
// view, and the synced write. BM_ServeApplyInMemory is the same without a
// store, so the difference is the write.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "api.hpp"
#include "http_server.hpp"
#include "referee/games/builtin.hpp"

namespace {

using referee::server::Api;
using referee::server::Request;
using Json = nlohmann::json;

struct Game {
  std::string base, seat;
  Json view;
};

Game new_game(Api& api) {
  const auto r = api.handle({"POST", "/api/games", R"({"battle": "warmaster/pitched-battle", "opponent_sides": [1]})"});
  const Json g = Json::parse(r.body);
  return {"/api/games/" + g["id"].get<std::string>(), g["seat_tokens"][0]["token"], g};
}

Request as(const Game& g, std::string method, std::string path, std::string body) {
  Request r{std::move(method), g.base + path, std::move(body)};
  r.seat = g.seat;
  return r;
}

void play(benchmark::State& state, Api& api) {
  Game g = new_game(api);
  for (auto _ : state) {
    state.PauseTiming();
    // The opponent's turn, and a new game once one is over, are not timed.
    while (g.view["terminal"].get<bool>() || g.view["current_player"] != 0) {
      if (g.view["terminal"].get<bool>()) {
        g = new_game(api);
        continue;
      }
      g.view = Json::parse(api.handle(as(g, "POST", "/opponent", "{}")).body)["game"];
    }
    const std::string body = Json{{"action", g.view["legal_actions"].back()}}.dump();
    state.ResumeTiming();
    const auto r = api.handle(as(g, "POST", "/apply", body));
    state.PauseTiming();
    if (r.status != 200) {
      state.SkipWithError(("apply answered " + std::to_string(r.status) + ": " + r.body.substr(0, 200)).c_str());
      break;
    }
    g.view = Json::parse(r.body)["game"];
    state.ResumeTiming();
  }
}

void BM_ServeApplyStored(benchmark::State& state) {
  std::string tmpl = (std::filesystem::temp_directory_path() / "referee-bench-XXXXXX").string();
  const std::filesystem::path dir = ::mkdtemp(tmpl.data());
  {
    Api api(referee::builtin_games(), referee::server::bundled_battle_list(referee::builtin_games()), {},
            referee::server::random_game_id, referee::server::GameStore::open((dir / "data").string()));
    play(state, api);
  }
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_ServeApplyStored)->Unit(benchmark::kMicrosecond);

void BM_ServeApplyInMemory(benchmark::State& state) {
  Api api(referee::builtin_games(), referee::server::bundled_battle_list(referee::builtin_games()));
  play(state, api);
}
BENCHMARK(BM_ServeApplyInMemory)->Unit(benchmark::kMicrosecond);

}  // namespace
