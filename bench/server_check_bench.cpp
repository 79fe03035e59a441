// The web board's round trip: a Warmaster move check sent to `referee
// serve`'s HTTP server on loopback and answered (BM_ServeCheckMove, target a
// median of 1 ms), and the same request handed to the API directly, to show
// what HTTP adds.
#include <benchmark/benchmark.h>

#include <memory>

#include <thread>

#include "../tests/support/http_client.hpp"

#include "api.hpp"
#include "http_server.hpp"
#include "referee/games/builtin.hpp"

namespace {

using referee::server::Api;

const char* kCheck =
    R"({"name":"check","args":{"move":{"unit":"emp-halberd-1","stands":[{"stand":0,"to":{"x":56,"y":30}},)"
    R"({"stand":1,"to":{"x":60,"y":30}},{"stand":2,"to":{"x":64,"y":30}}]}}})";

std::string new_game(Api& api) {
  const auto r = api.handle({"POST", "/api/games", "{}"});
  return nlohmann::json::parse(r.body)["id"];
}

void BM_ServeCheckMove(benchmark::State& state) {
  Api api(referee::builtin_games(), referee::server::bundled_battle_list(referee::builtin_games()));
  referee::server::HttpServer http(api, 4);
  const int port = http.bind("127.0.0.1", 0);
  std::thread t([&] { http.listen(); });
  http.wait_until_ready();
  const std::string path = "/api/games/" + new_game(api) + "/query";
  auto client = std::make_unique<referee::testing::HttpClient>(port);
  for (auto _ : state) {
    auto r = client->request("POST", path, kCheck);
    // The server closes a connection after HttpLimits::max_requests_per_connection
    // requests, as a browser would see it: the next request opens another.
    if (r && r->header("connection") == "close") client = std::make_unique<referee::testing::HttpClient>(port);
    if (!r || r->status != 200) {
      state.SkipWithError(r ? ("the check failed: " + std::to_string(r->status) + " " + r->body.substr(0, 200)).c_str() : "the check got no answer");
      break;
    }
    benchmark::DoNotOptimize(r->body.data());
  }
  http.stop();
  t.join();
}
BENCHMARK(BM_ServeCheckMove)->Unit(benchmark::kMicrosecond);

void BM_ServeCheckMoveNoHttp(benchmark::State& state) {
  Api api(referee::builtin_games(), referee::server::bundled_battle_list(referee::builtin_games()));
  const std::string path = "/api/games/" + new_game(api) + "/query";
  for (auto _ : state) {
    auto r = api.handle({"POST", path, kCheck});
    benchmark::DoNotOptimize(r.body.data());
  }
}
BENCHMARK(BM_ServeCheckMoveNoHttp)->Unit(benchmark::kMicrosecond);

}  // namespace
