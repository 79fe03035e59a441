// The web board over real sockets on loopback: the static files built into
// the binary, the API behind the HTTP front end, and what the server must do
// with clients that are slow, that pipeline, that send no body, or that
// never finish. A read that waits longer than the client's deadline fails
// the test: that is how a server that stalls or starves shows here.
#include <gtest/gtest.h>

#include <thread>

#include "api.hpp"
#include "seats.hpp"
#include "http_server.hpp"
#include "referee/games/builtin.hpp"
#include "support/http_client.hpp"

namespace referee::server {
namespace {

using testing::HttpClient;

class HttpServerTest : public ::testing::Test {
 protected:
  void start(HttpLimits limits = {}, Limits api_limits = Limits{50, 64 * 1024, 20000}) {
    api_ = std::make_unique<Api>(builtin_games(), bundled_battle_list(builtin_games()), api_limits);
    http_ = std::make_unique<HttpServer>(*api_, 4, limits);
    port_ = http_->bind("127.0.0.1", 0);
    ASSERT_GT(port_, 0);
    thread_ = std::thread([this] { http_->listen(); });
    http_->wait_until_ready();
  }
  void SetUp() override {}
  void TearDown() override {
    if (!http_) return;
    http_->stop();
    thread_.join();
  }
  // A new game; `seat_` is then the header line of its creator's seats.
  std::string new_game(HttpClient& c) {
    auto created = c.request("POST", "/api/games", "{}");
    EXPECT_TRUE(created && created->status == 201);
    if (!created) return "";
    const Json g = Json::parse(created->body);
    seat_ = seat_header_line(g);
    return g["id"].get<std::string>();
  }

  std::string seat_;

  std::unique_ptr<Api> api_;
  std::unique_ptr<HttpServer> http_;
  std::thread thread_;
  int port_ = 0;
};

TEST_F(HttpServerTest, ServesTheBoardFromTheBinary) {
  start();
  HttpClient c(port_);
  auto page = c.request("GET", "/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_EQ(page->header("content-type"), "text/html; charset=utf-8");
  EXPECT_NE(page->body.find("<script type=\"module\" src=\"app.js\">"), std::string::npos);
  EXPECT_NE(page->header("content-security-policy").find("default-src 'self'"), std::string::npos);
  for (const char* file : {"/app.js", "/warmaster.js", "/ancients.js", "/blightmeer.js", "/style.css"}) {
    auto r = c.request("GET", file);
    ASSERT_TRUE(r) << file;
    EXPECT_EQ(r->status, 200) << file;
  }
  EXPECT_EQ(c.request("GET", "/app.js")->header("content-type"), "text/javascript; charset=utf-8");
  EXPECT_EQ(c.request("GET", "/nothing.js")->status, 404);
  EXPECT_EQ(c.request("GET", "/../CMakeLists.txt")->status, 404);
  EXPECT_EQ(c.request("GET", "/%2e%2e/CMakeLists.txt")->status, 404);
}

TEST_F(HttpServerTest, TheApiAnswersAndRefusesOverHttp) {
  start();
  HttpClient c(port_);
  auto created = c.request("POST", "/api/games", R"({"battle": "ancients/centre_clash", "seed": 5})");
  ASSERT_TRUE(created);
  EXPECT_EQ(created->status, 201);
  EXPECT_EQ(Json::parse(created->body)["system"], "ancients");
  EXPECT_EQ(created->header("cache-control"), "no-store");

  auto bad = c.request("POST", "/api/games", "{not json");
  EXPECT_EQ(bad->status, 400);
  EXPECT_EQ(Json::parse(bad->body)["error"]["field"], "body");

  auto unknown = c.request("GET", "/api/games/ffffffffffffffffffffffffffffffff");
  EXPECT_EQ(unknown->status, 404);
  EXPECT_EQ(Json::parse(unknown->body)["error"]["field"], "game");

  // Over the limit: refused before it is read, with the same error shape,
  // and the connection closes (the unread body is not taken for a request).
  ASSERT_TRUE(c.send(HttpClient::request_text("POST", "/api/games", std::string(100 * 1024, ' '))));
  auto big = c.read_reply();
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
  EXPECT_EQ(Json::parse(big->body)["error"]["field"], "body");
  EXPECT_EQ(big->header("connection"), "close");

  // The server is still there.
  HttpClient again(port_);
  auto battles = again.request("GET", "/api/battles");
  ASSERT_TRUE(battles);
  EXPECT_EQ(battles->status, 200);
}

// What a command-line HTTP client sends for a bare POST: no Content-Length, no body. HTTP/1.1 says such
// a request has no body, so it is answered at once (cpp-httplib waited for
// a body for its 10 s read timeout, then answered 400).
TEST_F(HttpServerTest, ABodilessPostIsAnsweredAtOnce) {
  start();
  HttpClient c(port_, 5);
  const std::string id = new_game(c);
  ASSERT_TRUE(c.send("POST /api/games/" + id + "/undo HTTP/1.1\r\nHost: 127.0.0.1\r\n" + seat_ + "\r\n"));
  auto undo = c.read_reply();
  ASSERT_TRUE(undo) << "no answer within 5 s";
  EXPECT_EQ(undo->status, 409);
  EXPECT_EQ(Json::parse(undo->body)["error"]["field"], "undo");
}

// Requests sent one after another without waiting are answered in order on
// the same connection (cpp-httplib dropped every one after the first).
TEST_F(HttpServerTest, PipelinedRequestsAreAnsweredInOrder) {
  start();
  HttpClient c(port_, 5);
  const std::string id = new_game(c);
  const std::string order = R"({"action": {"type": "order", "character": "emp-general", "unit": "emp-halberd-1"}})";
  ASSERT_TRUE(c.send(HttpClient::request_text("GET", "/api/games/" + id) +
                     HttpClient::request_text("POST", "/api/games/" + id + "/apply", order, seat_) +
                     HttpClient::request_text("HEAD", "/api/systems") +
                     HttpClient::request_text("GET", "/api/games/" + id + "/log")));
  auto view = c.read_reply();
  auto applied = c.read_reply();
  auto head = c.read_reply(true);
  auto log = c.read_reply();
  ASSERT_TRUE(view && applied && head && log);
  EXPECT_EQ(Json::parse(view->body)["position"], 0);
  EXPECT_EQ(Json::parse(applied->body)["game"]["position"], 1);
  EXPECT_EQ(head->status, 200);
  EXPECT_GT(std::stoul(head->header("content-length")), 100u);
  EXPECT_EQ(log->header("content-type"), "application/x-ndjson");
}

// Two hundred connections that send a byte now and then hold no worker: a
// normal request is answered while they hang on (cpp-httplib gave each a
// worker thread, so they starved the pool).
TEST_F(HttpServerTest, SlowConnectionsDoNotStarveANormalRequest) {
  start();
  std::vector<std::unique_ptr<HttpClient>> slow;
  for (int i = 0; i < 200; ++i) {
    slow.push_back(std::make_unique<HttpClient>(port_, 5));
    ASSERT_TRUE(slow.back()->connect());
    ASSERT_TRUE(slow.back()->send(i % 2 ? "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{" : "GE"));
  }
  HttpClient c(port_, 5);
  auto r = c.request("GET", "/api/battles");
  ASSERT_TRUE(r) << "no answer within 5 s";
  EXPECT_EQ(r->status, 200);
  const std::string id = new_game(c);
  EXPECT_FALSE(id.empty());
  for (auto& s : slow) s->send("T");
  auto again = c.request("GET", "/api/games/" + id);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 200);
}

// A request that does not arrive in time is cut off with 408 (a header that
// never ends, a body that never comes); a connection that says nothing is
// closed when idle.
TEST_F(HttpServerTest, SlowRequestsAreCutOffWith408) {
  HttpLimits limits;
  limits.header_seconds = 0.3;
  limits.body_seconds = 0.3;
  limits.idle_seconds = 0.3;
  start(limits);
  HttpClient header(port_, 10), body(port_, 10), idle(port_, 10);
  ASSERT_TRUE(header.send("GET /api/battles HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "));
  ASSERT_TRUE(body.send("POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{}"));
  ASSERT_TRUE(idle.connect());
  auto h = header.read_reply();
  ASSERT_TRUE(h);
  EXPECT_EQ(h->status, 408);
  EXPECT_TRUE(header.closed_by_server());
  auto b = body.read_reply();
  ASSERT_TRUE(b);
  EXPECT_EQ(b->status, 408);
  EXPECT_TRUE(idle.closed_by_server());
  EXPECT_EQ(idle.read_to_end(), "");
}

// A body announced and then not sent is cut off with 408 once it has not
// moved for HttpLimits::body_stall_seconds, long before the body's own
// deadline, and what it held of the bodies' budget is free again: another
// body as large is read. Once, 130 such bodies held the budget for 30 s.
TEST_F(HttpServerTest, ABodyThatStopsComingIsCutOff) {
  HttpLimits limits;
  limits.body_seconds = 600;  // far longer than the clients wait
  limits.body_stall_seconds = 0.3;
  limits.bodies_in_flight = 100000;  // room for one 60 kB body at a time
  start(limits);
  const std::string head = "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           "Content-Length: 60000\r\n\r\n";
  HttpClient stalled(port_, 10);
  ASSERT_TRUE(stalled.send(head + "{"));
  auto cut = stalled.read_reply();
  ASSERT_TRUE(cut) << "the stalled body was not cut off within 10 s";
  EXPECT_EQ(cut->status, 408);
  EXPECT_TRUE(stalled.closed_by_server());
  HttpClient next(port_, 10);
  ASSERT_TRUE(next.send(head + "{}" + std::string(59998, ' ')));
  auto created = next.read_reply();
  ASSERT_TRUE(created);
  EXPECT_EQ(created->status, 201) << created->body;
}

// When every connection is taken, one that has sent nothing for a while
// makes room for a new client.
TEST_F(HttpServerTest, AFullServerDropsItsIdlestConnectionForANewOne) {
  HttpLimits limits;
  limits.max_connections = 8;
  start(limits);
  std::vector<std::unique_ptr<HttpClient>> idle;
  for (int i = 0; i < 8; ++i) {
    idle.push_back(std::make_unique<HttpClient>(port_, 5));
    ASSERT_TRUE(idle.back()->connect());
  }
  while (http_->connections() < 8) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // idle long enough to be dropped
  HttpClient c(port_, 5);
  auto r = c.request("GET", "/api/systems");
  ASSERT_TRUE(r) << "no answer within 5 s";
  EXPECT_EQ(r->status, 200);
}

// A client that posts with no Content-Length and then closes its side gets
// its (body-less) request answered and the rest refused, instead of the
// server reading until the end.
TEST_F(HttpServerTest, AHalfClosedPostWithoutALengthIsAnswered) {
  start();
  HttpClient c(port_, 5);
  ASSERT_TRUE(c.send("POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\r\n" +
                     std::string(200000, 'x')));
  c.shutdown_send();
  auto first = c.read_reply();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, 201);
  auto second = c.read_reply();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->status, 414);  // the rest read as a request line with no end
  EXPECT_TRUE(c.closed_by_server());
}

// Live updates over a real socket: the stream's head, then each change of
// the game pushed as it is made, while the stream's connection holds no
// worker; the keep-alive ping; and the viewer's going is noticed.
TEST_F(HttpServerTest, ALiveUpdateStreamHearsEachChangeAsItIsMade) {
  HttpLimits limits;
  limits.ping_seconds = 0.3;
  start(limits);
  HttpClient c(port_, 5);
  const std::string id = new_game(c);
  HttpClient watcher(port_, 5);
  ASSERT_TRUE(watcher.send("GET /api/games/" + id + "/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  const auto head = watcher.read_through("\r\n\r\n");
  ASSERT_TRUE(head);
  EXPECT_NE(head->find("200 OK"), std::string::npos);
  EXPECT_NE(head->find("Content-Type: text/event-stream"), std::string::npos);
  EXPECT_EQ(head->find("Content-Length"), std::string::npos);
  ASSERT_TRUE(watcher.read_through("event: presence"));
  ASSERT_TRUE(watcher.read_through("\n\n"));
  // Each action reaches the watcher, in order, while the player's own
  // connection goes on being answered.
  const std::string order = R"({"action": {"type": "order", "character": "emp-general", "unit": "emp-halberd-1"}})";
  for (int k = 1; k <= 3; ++k) {
    auto applied = c.request("POST", "/api/games/" + id + "/apply", k == 1 ? order : R"({"action": {"type": "end_phase"}})",
                             seat_);
    ASSERT_TRUE(applied);
    ASSERT_EQ(applied->status, 200) << applied->body;
    const auto event = watcher.read_through("\n\n");
    ASSERT_TRUE(event) << "no event within 5 s";
    EXPECT_EQ(event->rfind("id: " + std::to_string(k) + "\nevent: game\ndata: ", 0), 0u) << *event;
    EXPECT_NE(event->find("\"position\":" + std::to_string(k)), std::string::npos) << *event;
  }
  // Nothing happens for a while: a ping comes.
  const auto ping = watcher.read_through("\n\n");
  ASSERT_TRUE(ping);
  EXPECT_EQ(*ping, ": ping\n\n");
  // The watcher goes: the server forgets it, and the view says so.
  const auto connected = [&] {
    auto g = c.request("GET", "/api/games/" + id);
    return g ? Json::parse(g->body)["spectators"].get<int>() : -1;
  };
  EXPECT_EQ(connected(), 1);
  watcher.close();
  for (int i = 0; i < 100 && connected() != 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(connected(), 0);
}

}  // namespace
}  // namespace referee::server
