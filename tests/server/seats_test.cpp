// Seats, invitations and live updates (docs/api.md, "Seats" and "Live
// updates"): only a seat's holder acts for its side, a spectator reads, an
// invitation is used once, undo between two players takes back only one's
// own dice-free action, and every viewer hears of every change in order.
#include <gtest/gtest.h>

#include <regex>

#include "api.hpp"
#include "seats.hpp"
#include "http_server.hpp"
#include "referee/games/builtin.hpp"

namespace referee::server {
namespace seats_test {

Api make_api(Limits limits = {}) { return Api(builtin_games(), bundled_battle_list(builtin_games()), limits); }

const Json& kOrder = kFirstOrder;

// A game of the default battle where A takes the Empire (side 0) and invites
// the Orcs' player, who joins.
struct TwoPlayers {
  Api api = make_api();
  std::string base, a, b, invite;
  Json created;
  TwoPlayers() {
    created = answer_of(send_as(api, "POST", "/api/games", {{"seats", {0}}}), 201);
    base = "/api/games/" + created["id"].get<std::string>();
    a = created["seat_tokens"][0]["token"];
    invite = created["invitations"][0]["token"];
  }
  void join() { b = answer_of(send_as(api, "POST", base + "/join", Json::object(), "", invite), 200)["seat_tokens"][0]["token"]; }
  // Plays the phases out as `seat` until it is `side`'s turn.
  void end_phases_until(int side, const std::string& seat) {
    for (int i = 0; i < 40; ++i) {
      const Json g = answer_of(send_as(api, "GET", base, nullptr, seat), 200);
      if (g["current_player"] == side) return;
      // The phase's end, or what the phase must do first (the Shooting
      // phase's "shoot").
      Json action = g["legal_actions"][0];
      for (const Json& a : g["legal_actions"])
        if (a == kEndPhase) action = a;
      const Json out = answer_of(send_as(api, "POST", base + "/apply", {{"action", action}}, seat), 200);
      ASSERT_TRUE(out["applied"].get<bool>()) << out.dump().substr(0, 600);
    }
    FAIL() << "side " << side << " never got the turn";
  }
};

TEST(ServerSeats, TheCreatorHoldsTheSidesTakenAndTheOthersAreInvited) {
  TwoPlayers t;
  ASSERT_EQ(t.created["seat_tokens"].size(), 1u);
  EXPECT_EQ(t.created["seat_tokens"][0]["side"], 0);
  EXPECT_TRUE(std::regex_match(t.a, std::regex("[0-9a-f]{32}")));
  ASSERT_EQ(t.created["invitations"].size(), 1u);
  EXPECT_EQ(t.created["invitations"][0]["side"], 1);
  EXPECT_NE(t.a, t.invite);
  EXPECT_EQ(t.created["you"], Json::array({0}));
  EXPECT_EQ(t.created["seats"][0]["held"], true);
  EXPECT_EQ(t.created["seats"][1]["held"], false);
  EXPECT_EQ(t.created["seats"][1]["invited"], true);
  // A token is given once: no later view carries one.
  const Json again = answer_of(send_as(t.api, "GET", t.base, nullptr, t.a), 200);
  EXPECT_EQ(again.count("seat_tokens"), 0u);
  EXPECT_EQ(again["you"], Json::array({0}));
  EXPECT_EQ(again.dump().find(t.a), std::string::npos);
  EXPECT_EQ(again.dump().find(t.invite), std::string::npos);
  // By default the creator takes every side the built-in opponent does not play.
  const Json hot = answer_of(send_as(t.api, "POST", "/api/games", Json::object()), 201);
  EXPECT_EQ(hot["seat_tokens"].size(), 2u);
  EXPECT_EQ(hot["invitations"].size(), 0u);
  const Json fair = answer_of(send_as(t.api, "POST", "/api/games", {{"battle", "warmaster/pitched-battle"}, {"opponent_sides", {1}}}), 201);
  EXPECT_EQ(fair["seat_tokens"].size(), 1u);
  EXPECT_EQ(fair["invitations"].size(), 0u);
  EXPECT_EQ(fair["seats"][1]["opponent"], true);
  // Bad seats name the field.
  EXPECT_EQ(answer_of(send_as(t.api, "POST", "/api/games", {{"seats", {0, 0}}}), 400)["error"]["field"], "seats[1]");
  EXPECT_EQ(answer_of(send_as(t.api, "POST", "/api/games", {{"seats", {2}}}), 400)["error"]["field"], "seats[0]");
  EXPECT_EQ(answer_of(send_as(t.api, "POST", "/api/games", {{"battle", "warmaster/pitched-battle"}, {"opponent_sides", {1}},
                                                       {"seats", {1}}}),
                    400)["error"]["field"],
            "seats[0]");
}

TEST(ServerSeats, ASpectatorReadsButMayNotAct) {
  TwoPlayers t;
  // Reading needs no seat.
  EXPECT_EQ(send_as(t.api, "GET", t.base, nullptr).status, 200);
  EXPECT_EQ(send_as(t.api, "GET", t.base + "/log", nullptr).status, 200);
  EXPECT_EQ(send_as(t.api, "GET", t.base + "/legal-actions", nullptr).status, 200);
  EXPECT_EQ(send_as(t.api, "POST", t.base + "/validate", {{"action", kOrder}}).status, 200);
  EXPECT_EQ(send_as(t.api, "POST", t.base + "/chance", {{"action", kOrder}}).status, 200);
  EXPECT_EQ(answer_of(send_as(t.api, "GET", t.base, nullptr), 200)["you"], Json::array());
  // Acting does.
  const Json e = answer_of(send_as(t.api, "POST", t.base + "/apply", {{"action", kOrder}}), 403);
  EXPECT_EQ(e["error"]["field"], "seat");
  EXPECT_NE(e["error"]["problem"].get<std::string>().find("side 0"), std::string::npos) << e;
  EXPECT_EQ(send_as(t.api, "POST", t.base + "/undo", Json::object()).status, 403);
  EXPECT_EQ(send_as(t.api, "POST", t.base + "/opponent", Json::object()).status, 403);
  EXPECT_EQ(send_as(t.api, "POST", t.base + "/players", {{"opponent_sides", {1}}}).status, 403);
  EXPECT_EQ(send_as(t.api, "DELETE", t.base, nullptr).status, 403);
  // A made-up token holds nothing; a malformed header is bad input.
  EXPECT_EQ(send_as(t.api, "POST", t.base + "/apply", {{"action", kOrder}}, std::string(32, 'a')).status, 403);
  EXPECT_EQ(answer_of(send_as(t.api, "POST", t.base + "/apply", {{"action", kOrder}}, "not-a-token"), 400)["error"]["field"],
            "X-Referee-Seat");
  EXPECT_EQ(answer_of(send_as(t.api, "GET", t.base, nullptr, "", "", "x1"), 200)["position"], 0);  // ignored off the stream
  // Nothing was played.
  EXPECT_EQ(answer_of(send_as(t.api, "GET", t.base, nullptr), 200)["position"], 0);
  EXPECT_EQ(send_as(t.api, "POST", t.base + "/apply", {{"action", kOrder}}, t.a).status, 200);
}

TEST(ServerSeats, AnInvitationIsUsedOnceAndEachPlayerActsOnlyForTheirSide) {
  TwoPlayers t;
  EXPECT_EQ(answer_of(send_as(t.api, "POST", t.base + "/join", Json::object()), 403)["error"]["field"], "invite");
  EXPECT_EQ(answer_of(send_as(t.api, "POST", t.base + "/join", Json::object(), "", std::string(32, 'b')), 403)["error"]["field"],
            "invite");
  EXPECT_EQ(answer_of(send_as(t.api, "POST", t.base + "/join", Json::object(), "", "short"), 400)["error"]["field"],
            "X-Referee-Invite");
  EXPECT_EQ(answer_of(send_as(t.api, "POST", t.base + "/join", {{"side", 0}}, "", t.invite), 400)["error"]["field"], "side");
  const Json joined = answer_of(send_as(t.api, "POST", t.base + "/join", Json::object(), "", t.invite), 200);
  EXPECT_EQ(joined["side"], 1);
  EXPECT_EQ(joined["game"]["you"], Json::array({1}));
  EXPECT_EQ(joined["game"]["seats"][1]["held"], true);
  EXPECT_EQ(joined["game"]["seats"][1]["invited"], false);
  t.b = joined["seat_tokens"][0]["token"];
  EXPECT_NE(t.b, t.invite);
  const Json again = answer_of(send_as(t.api, "POST", t.base + "/join", Json::object(), "", t.invite), 409);
  EXPECT_EQ(again["error"]["field"], "invite");
  // The Empire moves first: B's token cannot act for it, A's can.
  EXPECT_EQ(answer_of(send_as(t.api, "POST", t.base + "/apply", {{"action", kOrder}}, t.b), 403)["error"]["field"], "seat");
  EXPECT_EQ(answer_of(send_as(t.api, "POST", t.base + "/apply", {{"action", kOrder}}, t.a), 200)["applied"], true);
  t.end_phases_until(1, t.a);
  // Now the Orcs': A is refused, B acts.
  EXPECT_EQ(send_as(t.api, "POST", t.base + "/apply", {{"action", kEndPhase}}, t.a).status, 403);
  EXPECT_EQ(send_as(t.api, "POST", t.base + "/apply", {{"action", kEndPhase}}, t.b).status, 200);
  // B may not hand A's side to the built-in opponent.
  EXPECT_EQ(send_as(t.api, "POST", t.base + "/players", {{"opponent_sides", {0}}}, t.b).status, 403);
  // Both tokens together (one browser) act for both.
  EXPECT_EQ(answer_of(send_as(t.api, "GET", t.base, nullptr, t.a + ", " + t.b), 200)["you"], Json::array({0, 1}));
}

// docs/api.md, "Undo between two players".
TEST(ServerSeats, BetweenTwoPlayersUndoTakesBackOnlyOnesOwnActionWithoutDice) {
  TwoPlayers t;
  t.join();
  // An order rolls 2D6: it stays made.
  const Json order = answer_of(send_as(t.api, "POST", t.base + "/apply", {{"action", kOrder}}, t.a), 200);
  ASSERT_EQ(order["rolls"].size(), 2u);
  const Json e = answer_of(send_as(t.api, "POST", t.base + "/undo", Json::object(), t.a), 409);
  EXPECT_NE(e["error"]["problem"].get<std::string>().find("rolled 2 dice"), std::string::npos) << e;
  // Ending the phase rolls nothing: A may take it back, B may not.
  const Json ended = answer_of(send_as(t.api, "POST", t.base + "/apply", {{"action", kEndPhase}}, t.a), 200);
  ASSERT_EQ(ended["rolls"].size(), 0u);
  EXPECT_EQ(send_as(t.api, "POST", t.base + "/undo", Json::object(), t.b).status, 409);
  EXPECT_EQ(answer_of(send_as(t.api, "POST", t.base + "/undo", Json::object(), t.a), 200)["position"], 1);
  EXPECT_EQ(send_as(t.api, "POST", t.base + "/redo", Json::object(), t.b).status, 409);
  EXPECT_EQ(answer_of(send_as(t.api, "POST", t.base + "/redo", Json::object(), t.a), 200)["position"], 2);
  // One holder of both sides (hot seat) takes back a roll too.
  const Json hot = answer_of(send_as(t.api, "POST", "/api/games", Json::object()), 201);
  const std::string both = hot["seat_tokens"][0]["token"].get<std::string>() + "," + hot["seat_tokens"][1]["token"].get<std::string>();
  const std::string base = "/api/games/" + hot["id"].get<std::string>();
  ASSERT_EQ(answer_of(send_as(t.api, "POST", base + "/apply", {{"action", kOrder}}, both), 200)["rolls"].size(), 2u);
  EXPECT_EQ(answer_of(send_as(t.api, "POST", base + "/undo", Json::object(), both), 200)["position"], 0);
}

// The events of a stream, split: {"id", "event", "data"} each.
std::vector<Json> events_of(const std::string& text) {
  std::vector<Json> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find("\n\n", at);
    if (end == std::string::npos) break;
    Json e = Json::object();
    std::size_t line = at;
    while (line < end) {
      const std::size_t nl = std::min(text.find('\n', line), end);
      const std::string l = text.substr(line, nl - line);
      const std::size_t colon = l.find(": ");
      if (colon != std::string::npos && colon > 0) e[l.substr(0, colon)] = l.substr(colon + 2);
      line = nl + 1;
    }
    if (e.contains("data")) e["data"] = Json::parse(e["data"].get<std::string>());
    if (e.contains("event")) out.push_back(e);  // not the retry line
    at = end + 2;
  }
  return out;
}

TEST(ServerSeats, EveryViewerHearsEveryChangeInOrderAndWhoIsConnected) {
  TwoPlayers t;
  Response watcher = send_as(t.api, "GET", t.base + "/events", nullptr);
  ASSERT_EQ(watcher.status, 200);
  ASSERT_EQ(watcher.content_type, "text/event-stream");
  ASSERT_TRUE(watcher.stream);
  const std::string start = watcher.stream->take();
  EXPECT_EQ(start.rfind("retry: 1000\n\n", 0), 0u) << start;
  std::vector<Json> first = events_of(start);
  ASSERT_GE(first.size(), 2u);
  EXPECT_EQ(first[0]["event"], "game");
  EXPECT_EQ(first[0]["id"], "0");
  EXPECT_EQ(first[0]["data"]["kind"], "sync");
  EXPECT_EQ(first[1]["event"], "presence");
  EXPECT_EQ(first[1]["data"]["spectators"], 1);
  // A's board opens its stream: the watcher hears A is connected.
  Response board_a = send_as(t.api, "GET", t.base + "/events", nullptr, t.a);
  std::vector<Json> seen = events_of(watcher.stream->take());
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0]["data"]["connected"], Json::array({1, 0}));
  EXPECT_EQ(answer_of(send_as(t.api, "GET", t.base, nullptr), 200)["seats"][0]["connected"], 1);
  board_a.stream->take();
  // B joins, A orders and ends the phase: three events, versions 1, 2, 3.
  t.join();
  answer_of(send_as(t.api, "POST", t.base + "/apply", {{"action", kOrder}}, t.a), 200);
  answer_of(send_as(t.api, "POST", t.base + "/apply", {{"action", kEndPhase}}, t.a), 200);
  for (Response* r : {&watcher, &board_a}) {
    seen = events_of(r->stream->take());
    ASSERT_EQ(seen.size(), 3u) << Json(seen).dump(1);
    EXPECT_EQ(seen[0]["id"], "1");
    EXPECT_EQ(seen[0]["data"]["kind"], "join");
    EXPECT_EQ(seen[1]["id"], "2");
    EXPECT_EQ(seen[1]["data"]["kind"], "play");
    EXPECT_EQ(seen[1]["data"]["position"], 1);
    ASSERT_EQ(seen[1]["data"]["entries"].size(), 1u);
    EXPECT_EQ(seen[1]["data"]["entries"][0]["action"], kOrder);
    EXPECT_EQ(seen[1]["data"]["entries"][0]["rolls"].size(), 2u);
    EXPECT_EQ(seen[2]["id"], "3");
    EXPECT_EQ(seen[2]["data"]["position"], 2);
  }
  // A board that saw version 1 resumes with exactly what it missed.
  Response resumed = send_as(t.api, "GET", t.base + "/events", nullptr, t.b, "", "1");
  seen = events_of(resumed.stream->take());
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0]["id"], "2");
  EXPECT_EQ(seen[1]["id"], "3");
  EXPECT_EQ(seen[2]["event"], "presence");
  EXPECT_EQ(seen[2]["data"]["connected"], Json::array({1, 1}));
  // One that is up to date gets no game event; a bad Last-Event-ID is bad input.
  Response current = send_as(t.api, "GET", t.base + "/events", nullptr, "", "", "3");
  seen = events_of(current.stream->take());
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0]["event"], "presence");
  EXPECT_EQ(answer_of(send_as(t.api, "GET", t.base + "/events", nullptr, "", "", "three"), 400)["error"]["field"], "Last-Event-ID");
  // A viewer that goes is no longer counted.
  watcher.stream->take();
  resumed.stream.reset();
  seen = events_of(watcher.stream->take());
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.back()["data"]["connected"], Json::array({1, 0}));
  // An undo is an event too.
  answer_of(send_as(t.api, "POST", t.base + "/undo", Json::object(), t.a), 200);
  seen = events_of(watcher.stream->take());
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0]["data"]["kind"], "undo");
  EXPECT_EQ(seen[0]["data"]["position"], 1);
  EXPECT_EQ(seen[0]["id"], "4");
}

// A viewer that stops reading is cut off rather than held in memory; a
// client address holds a bounded number of streams.
TEST(ServerSeats, StreamsAreBounded) {
  Limits limits;
  limits.max_event_backlog = 2000;
  limits.max_streams_per_client = 3;
  Api api = make_api(limits);
  const Json g = answer_of(send_as(api, "POST", "/api/games", Json::object()), 201);
  const std::string base = "/api/games/" + g["id"].get<std::string>();
  const std::string both = g["seat_tokens"][0]["token"].get<std::string>() + "," + g["seat_tokens"][1]["token"].get<std::string>();
  std::vector<Response> open;
  for (int i = 0; i < 3; ++i) open.push_back(send_as(api, "GET", base + "/events", nullptr));
  EXPECT_EQ(answer_of(send_as(api, "GET", base + "/events", nullptr), 429)["error"]["field"], "client");
  for (int i = 0; i < 20 && !open[0].stream->closed(); ++i)
    answer_of(send_as(api, "POST", base + "/apply", {{"action", kOrder}}, both), 200);
  EXPECT_TRUE(open[0].stream->closed());
  open.clear();
  EXPECT_EQ(send_as(api, "GET", base + "/events", nullptr).status, 200);
}

}  // namespace seats_test
}  // namespace referee::server
