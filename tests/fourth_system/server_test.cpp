// The tests' fourth system, tic-tac-toe, registered with one line
// (fixtures/tictactoe/with_tictactoe.hpp), is found by the server that `referee serve`
// builds from the registry: /api/systems (with its board module), its
// battle in /api/battles, its static rule catalogue, a game played over
// the API, and its board's module served beside the web shell.
#include <gtest/gtest.h>

#include "api.hpp"
#include "http_front.hpp"
#include "http_server.hpp"
#include "server/seats.hpp"
#include "fixtures/tictactoe/with_tictactoe.hpp"
#include "tictactoe_board_js.hpp"

namespace referee::server {
namespace {

class FourthSystem : public ::testing::Test {
 protected:
  FourthSystem()
      : systems_(testing_games::with_tictactoe()),
        api_(systems_, bundled_battle_list(systems_)),
        front_(api_, Audience::for_host("127.0.0.1", {}), {}, {{board_module("tictactoe"), kTicTacToeBoardJs}}) {}

  // As the game's creator (server/seats.hpp).
  Json call(const std::string& method, const std::string& path, const Json& body = Json::object(), int status = 200) {
    Request request{method, path, method == "GET" ? "" : body.dump(), "127.0.0.1"};
    request.seat = seats_.header_for(path);
    const Response r = api_.handle(request);
    EXPECT_EQ(r.status, status) << method << " " << path << ": " << r.body;
    const Json j = Json::parse(r.body);
    seats_.remember(j);
    return j;
  }
  // A file of the board, as a browser asks for it.
  std::string file(const std::string& path) {
    return serve_bytes(front_, "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: close\r\n\r\n");
  }

  GameRegistry systems_;
  SeatBook seats_;
  Api api_;
  FrontEnd front_;
};

TEST_F(FourthSystem, IsListedWithItsBoardAfterTheThreeRealSystems) {
  const Json systems = call("GET", "/api/systems");
  ASSERT_EQ(systems.size(), 4u);
  EXPECT_EQ(systems[0]["name"], "warmaster");
  EXPECT_EQ(systems[0]["board"], "warmaster.js");
  EXPECT_EQ(systems[3]["name"], "tictactoe");
  EXPECT_EQ(systems[3]["title"], "Tic-tac-toe");
  EXPECT_EQ(systems[3]["board"], "tictactoe.js");
  EXPECT_EQ(systems[3]["opponent"], false);
  EXPECT_EQ(systems[3]["queries"][0]["name"], "free_cells");
}

TEST_F(FourthSystem, ItsBattleIsInTheMenuAndPlays) {
  const Json battles = call("GET", "/api/battles");
  EXPECT_EQ(battles["default"], "warmaster/default");
  EXPECT_EQ(battles["battles"].back()["id"], "tictactoe/empty");
  EXPECT_EQ(battles["battles"].back()["title"], "Tic-tac-toe: an empty board");
  EXPECT_EQ(call("GET", "/api/battles/tictactoe/empty")["name"], "An empty board");

  const Json game = call("POST", "/api/games", {{"battle", "tictactoe/empty"}, {"dice", {5}}}, 201);
  EXPECT_EQ(game["system"], "tictactoe");
  const std::string id = game["id"];
  // 5 on the toss: O starts.
  EXPECT_EQ(call("POST", "/api/games/" + id + "/apply", {{"action", {{"type", "toss"}}}})["game"]["current_player"], 1);
  const Json refused =
      call("POST", "/api/games/" + id + "/validate", {{"action", {{"type", "toss"}}}});
  EXPECT_EQ(refused["violations"][0]["rule"], "tictactoe.toss");
  EXPECT_EQ(call("POST", "/api/games/" + id + "/query", {{"name", "free_cells"}, {"args", Json::object()}})["free"].size(),
            9u);
}

TEST_F(FourthSystem, ItsRuleCatalogueNeedsNoGame) {
  const Json rules = call("GET", "/api/rules/tictactoe");
  ASSERT_EQ(rules.size(), 3u);
  EXPECT_EQ(call("GET", "/api/rules/tictactoe/tictactoe.occupied")["text"], "Mark an empty cell.");
}

TEST_F(FourthSystem, ItsBoardModuleIsServedBesideTheShell) {
  const std::string board = file("/tictactoe.js");
  EXPECT_EQ(board.rfind("HTTP/1.1 200", 0), 0u) << board.substr(0, 200);
  EXPECT_NE(board.find("Content-Type: text/javascript"), std::string::npos);
  EXPECT_NE(board.find("registerBoard('tictactoe'"), std::string::npos);
  EXPECT_EQ(file("/shell.js").rfind("HTTP/1.1 200", 0), 0u);
  EXPECT_EQ(file("/nothing.js").rfind("HTTP/1.1 404", 0), 0u);
}

}  // namespace
}  // namespace referee::server
