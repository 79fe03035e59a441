// Views by seat (docs/api.md, "What each viewer sees"): an Ancients game
// played between two seats over real sockets, each seat's every answer read
// (the actions it makes, the game, the log, its entries, a replayed step),
// and a spectator's: none holds the other's hand, a deck's order, a draw of
// the other side or a reshuffle's dice, and the questions that read the
// whole state are the player to play's alone. Once the game is over,
// everything is shown, and the revealed seed replays the log exactly and
// gives the commitment shown from the start. The live updates: each stream
// is told its own seats' view, resumed ones too.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <thread>

#include "api.hpp"
#include "dice_commitment.hpp"
#include "http_server.hpp"
#include "seats.hpp"
#include "referee/core/files.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/match.hpp"
#include "referee/games/builtin.hpp"
#include "support/http_client.hpp"

namespace referee::server {
namespace {

using testing::HttpClient;

// The bundled centre clash, dealt at random as bundled, with a turn limit
// that ends it after ten turns a side (past each side's first reshuffle).
Json short_clash() {
  Json battle = load_json_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/ancients/centre_clash.json");
  EXPECT_EQ(battle.at("deal"), "shuffled");
  battle["turn_limit"] = 20;
  return battle;
}

// Every place in `answer` that would tell `me` (a side, or -1 for a
// spectator) what the rules hide, by its path; `other_hand` is the other
// side's hand at the time (its list must not appear anywhere).
void find_leaks(const Json& j, int me, const Json& other_hand, const std::string& path, std::vector<std::string>& out) {
  if (j.is_object()) {
    if (j.contains("hands") && j["hands"].is_array() && j["hands"].size() == 2) {
      for (int side = 0; side < 2; ++side)
        if (side != me && !j["hands"][static_cast<std::size_t>(side)].is_null())
          out.push_back(path + ".hands[" + std::to_string(side) + "]");
      if (j.contains("decks") && j["decks"] != Json::array({nullptr, nullptr})) out.push_back(path + ".decks");
    }
    if (j.contains("drew") && j.contains("side") && j["side"] != me && !j["drew"].is_null()) out.push_back(path + ".drew");
    if (j.value("for", std::string()) == "reshuffle" && !j["value"].is_null()) out.push_back(path + ".value");
    if (j.contains("start_rolls") && !j["start_rolls"].is_null()) out.push_back(path + ".start_rolls");
    for (auto it = j.begin(); it != j.end(); ++it) find_leaks(it.value(), me, other_hand, path + "." + it.key(), out);
  } else if (j.is_array()) {
    if (other_hand.size() >= 2 && j == other_hand) out.push_back(path + " (the other side's hand)");
    for (std::size_t i = 0; i < j.size(); ++i) find_leaks(j[i], me, other_hand, path + "[" + std::to_string(i) + "]", out);
  }
}

// The leaks of an answer's body: one JSON document, or JSON Lines (a log).
std::vector<std::string> leaks_of(const std::string& body, int me, const Json& other_hand) {
  std::vector<std::string> out;
  std::size_t start = 0, line = 1;
  const bool lines = body.find("\n{") != std::string::npos;
  while (start < body.size()) {
    const std::size_t end = lines ? std::min(body.find('\n', start), body.size()) : body.size();
    if (end > start) find_leaks(Json::parse(body.substr(start, end - start)), me, other_hand, "line " + std::to_string(line), out);
    start = end + 1;
    ++line;
  }
  return out;
}

class SeatViews : public ::testing::Test {
 protected:
  void SetUp() override {
    api_ = std::make_unique<Api>(builtin_games(), bundled_battle_list(builtin_games()));
    http_ = std::make_unique<HttpServer>(*api_, 4, HttpLimits{});
    port_ = http_->bind("127.0.0.1", 0);
    ASSERT_GT(port_, 0);
    thread_ = std::thread([this] { http_->listen(); });
    http_->wait_until_ready();
  }
  void TearDown() override {
    http_->stop();
    thread_.join();
  }
  // An answer over the socket, its status checked.
  std::string call(HttpClient& c, const std::string& method, const std::string& path, const std::string& body,
                   const std::string& seat, int status = 200) {
    const std::string extra = seat.empty() ? std::string() : "X-Referee-Seat: " + seat + "\r\n";
    auto reply = c.request(method, path, body, extra);
    EXPECT_TRUE(reply.has_value()) << method << " " << path;
    if (!reply) return "{}";
    EXPECT_EQ(reply->status, status) << method << " " << path << ": " << reply->body.substr(0, 300);
    return reply->body;
  }

  std::unique_ptr<Api> api_;
  std::unique_ptr<HttpServer> http_;
  std::thread thread_;
  int port_ = 0;
};

TEST_F(SeatViews, TwoSeatsNeverSeeEachOthersCardsAndTheEndShowsAll) {
  HttpClient c(port_);
  const Json created = Json::parse(call(c, "POST", "/api/games",
                                        Json{{"system", "ancients"}, {"scenario", short_clash()}, {"seats", {0}}}.dump(),
                                        "", 201));
  const std::string id = created["id"], base = "/api/games/" + id;
  const std::string commitment = created["dice"]["commitment"];
  std::string seat[2];
  seat[0] = created["seat_tokens"][0]["token"];
  const std::string invite = created["invitations"][0]["token"];
  auto joined = c.request("POST", base + "/join", "{}", "X-Referee-Invite: " + invite + "\r\n");
  ASSERT_TRUE(joined && joined->status == 200);
  seat[1] = Json::parse(joined->body)["seat_tokens"][0]["token"];
  EXPECT_EQ(created["information"], "imperfect");

  // Each seat's own hand, from its own view: what the other must never be shown.
  auto hand_of = [&](int side) { return Json::parse(call(c, "GET", base, "", seat[side]))["state"]["hands"][side]; };
  auto expect_hidden = [&](const std::string& body, int me, const std::string& what) {
    const Json other = me < 0 ? Json::array() : hand_of(1 - me);
    const std::vector<std::string> leaks = leaks_of(body, me, other);
    EXPECT_TRUE(leaks.empty()) << what << " shows side " << me << ": " << leaks.front() << " " << body.substr(0, 300);
  };

  int draws_hidden = 0, reshuffles = 0, steps = 0;
  for (; steps < 400; ++steps) {
    const Json game = Json::parse(call(c, "GET", base, "", seat[0]));
    if (game["terminal"].get<bool>()) break;
    const int me = game["current_player"], other = 1 - me;
    const Json mine = Json::parse(call(c, "GET", base, "", seat[me]));
    ASSERT_FALSE(mine["legal_actions"].empty());
    EXPECT_TRUE(Json::parse(call(c, "GET", base, "", seat[other]))["legal_actions"].empty());
    // A question that reads the whole state: the player to play's alone.
    const std::string validate = Json{{"action", mine["legal_actions"][0]}}.dump();
    call(c, "POST", base + "/validate", validate, seat[me]);
    for (const char* q : {"/validate", "/chance"}) call(c, "POST", base + q, validate, seat[other], 403);
    call(c, "GET", base + "/legal-actions", "", seat[other], 403);
    call(c, "POST", base + "/sample", "{}", "", 403);
    call(c, "POST", base + "/query", R"({"name": "orders", "args": {"card": "order-three-center"}})", seat[other], 403);
    // The end of a step when there is one, else the first action: a game of draws.
    Json action = mine["legal_actions"][0];
    for (const Json& a : mine["legal_actions"])
      if (a["type"] == "end_movement" || a["type"] == "end_battle") action = a;
    const std::string applied = call(c, "POST", base + "/apply", Json{{"action", action}}.dump(), seat[me]);
    const Json out = Json::parse(applied);
    if (out["game"]["terminal"].get<bool>()) break;  // over: everything is shown (below)
    expect_hidden(applied, me, "the answer to the player's action");
    for (const Json& e : out["entries"]) {
      if (e["result"].contains("reshuffled")) ++reshuffles;
      // The player is told their own draw.
      if (e["result"].contains("drew")) {
        EXPECT_FALSE(e["result"]["drew"].is_null());
      }
    }
    // The other seat and a spectator, on every route that shows the game.
    const std::size_t position = out["game"]["position"];
    for (int viewer : {other, -1}) {
      const std::string who = viewer < 0 ? "" : seat[viewer];
      const std::string view = call(c, "GET", base, "", who);
      expect_hidden(view, viewer, "the game");
      expect_hidden(call(c, "GET", base + "/log", "", who), viewer, "the log");
      const std::string entries = call(c, "GET", base + "/entries/" + std::to_string(position - 1), "", who);
      expect_hidden(entries, viewer, "the entries");
      const Json told = Json::parse(entries);
      for (const Json& e : told["entries"]) {
        if (e["result"].contains("drew") && viewer >= 0) draws_hidden += e["result"]["drew"].is_null();
      }
      expect_hidden(call(c, "GET", base + "/replay/" + std::to_string(position), "", who), viewer, "a replayed step");
    }
  }
  const Json over = Json::parse(call(c, "GET", base, "", ""));
  ASSERT_TRUE(over["terminal"].get<bool>()) << steps << " steps";
  EXPECT_GE(draws_hidden, 18);  // ten turns a side, less the last
  EXPECT_GE(reshuffles, 2);     // each side's deck ran out

  // Over: everything is shown, to anyone; the seed replays every roll, the
  // deal's included, and gives the commitment.
  EXPECT_FALSE(over["state"]["hands"][0].is_null());
  EXPECT_FALSE(over["state"]["decks"][1].is_null());
  const std::string text = call(c, "GET", base + "/log", "", "");
  const GameLog log = GameLog::parse_jsonl(text, "log");
  EXPECT_FALSE(log.seed_withheld);
  EXPECT_FALSE(log.start_rolls.empty());
  EXPECT_EQ(log.seed_commitment, commitment);
  EXPECT_TRUE(check_dice_commitment(log, "log"));
  const Match replayed = Match::replay(builtin_games(), log, "log");
  EXPECT_EQ(replayed.state().to_json(), over["state"]);
}

// Live updates: a seat's stream is told its own draws and not the other's,
// a spectator's neither, and a stream that resumes after Last-Event-ID is
// told the events it missed as its own seats see them.
TEST(SeatViewStreams, EachStreamIsToldItsOwnView) {
  Api api(builtin_games(), bundled_battle_list(builtin_games()));
  const Json created = Json::parse(send_as(api, "POST", "/api/games", {{"system", "ancients"}, {"scenario", short_clash()}}).body);
  const std::string base = "/api/games/" + created["id"].get<std::string>();
  const std::string both = created["seat_tokens"][0]["token"].get<std::string>() + "," +
                           created["seat_tokens"][1]["token"].get<std::string>();
  std::string seat[2] = {created["seat_tokens"][0]["token"], created["seat_tokens"][1]["token"]};
  Response streams[3] = {send_as(api, "GET", base + "/events", nullptr, seat[0]),
                         send_as(api, "GET", base + "/events", nullptr, seat[1]),
                         send_as(api, "GET", base + "/events", nullptr, "")};
  for (const Response& r : streams) ASSERT_TRUE(r.stream);
  std::string version;
  // Six turns' draws, by the one board that holds both seats.
  for (int n = 0; n < 40; ++n) {
    const Json game = Json::parse(send_as(api, "GET", base, nullptr, both).body);
    if (game["turn"].get<int>() > 6) break;
    Json action = game["legal_actions"][0];
    for (const Json& a : game["legal_actions"])
      if (a["type"] == "end_movement" || a["type"] == "end_battle") action = a;
    const Json out = Json::parse(send_as(api, "POST", base + "/apply", {{"action", action}}, both).body);
    ASSERT_EQ(out["applied"], true) << out.dump();
    if (n == 1) version = std::to_string(out["game"]["version"].get<std::uint64_t>());
  }
  int told[3] = {0, 0, 0}, hidden[3] = {0, 0, 0};
  auto count = [](const std::string& text, int& seen, int& null) {
    for (std::size_t at = text.find("\"drew\":"); at != std::string::npos; at = text.find("\"drew\":", at + 1))
      (text.compare(at + 7, 4, "null") == 0 ? null : seen)++;
  };
  for (int k = 0; k < 3; ++k) {
    const std::string text = streams[k].stream->take();
    for (std::size_t at = text.find("data: "); at != std::string::npos; at = text.find("data: ", at + 1)) {
      const std::string data = text.substr(at + 6, text.find('\n', at) - at - 6);
      std::vector<std::string> leaks;
      find_leaks(Json::parse(data), k < 2 ? k : -1, Json::array(), "event", leaks);
      EXPECT_TRUE(leaks.empty()) << "stream " << k << ": " << leaks.front();
    }
    count(text, told[k], hidden[k]);
  }
  // Six turns: side 0 drew three times and side 1 twice or three times.
  EXPECT_GE(told[0], 3);
  EXPECT_GE(hidden[0], 2);
  EXPECT_GE(told[1], 2);
  EXPECT_GE(hidden[1], 3);
  EXPECT_EQ(told[2], 0);
  EXPECT_GE(hidden[2], 5);
  // A stream that resumes after an early event: its own view of each missed one.
  const Response resumed = send_as(api, "GET", base + "/events", nullptr, seat[1], "", version);
  ASSERT_TRUE(resumed.stream);
  const std::string missed = resumed.stream->take();
  int seen = 0, null = 0;
  count(missed, seen, null);
  EXPECT_GE(seen + null, 4);
  for (std::size_t at = missed.find("data: "); at != std::string::npos; at = missed.find("data: ", at + 1)) {
    std::vector<std::string> leaks;
    find_leaks(Json::parse(missed.substr(at + 6, missed.find('\n', at) - at - 6)), 1, Json::array(), "event", leaks);
    EXPECT_TRUE(leaks.empty()) << leaks.front();
  }
}

}  // namespace
}  // namespace referee::server
