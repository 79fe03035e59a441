// The HTTP front end (http_front.hpp) given raw bytes, as a hostile client or
// a hostile web page in the player's browser would send them: who may be
// served (Host), who may change things (Origin, Content-Type), the bounds on
// every part of a request, HTTP's framing, and the methods of every route.
#include <gtest/gtest.h>

#include "api.hpp"
#include "seats.hpp"
#include "http_front.hpp"
#include "http_server.hpp"
#include "referee/games/builtin.hpp"

namespace referee::server {
namespace {

struct Answer {
  int status = 0;
  std::string head;  // status line and headers
  std::string body;
  bool has(std::string_view header_line) const { return head.find(std::string(header_line) + "\r\n") != std::string::npos; }
  std::string header(std::string_view name) const {
    const std::string key = "\r\n" + std::string(name) + ": ";
    const std::size_t at = head.find(key);
    if (at == std::string::npos) return "";
    const std::size_t start = at + key.size();
    return head.substr(start, head.find("\r\n", start) - start);
  }
};

// Splits what the server wrote into answers; a HEAD's has no body.
std::vector<Answer> answers(std::string wrote, bool last_is_head = false) {
  std::vector<Answer> out;
  while (!wrote.empty()) {
    const std::size_t end = wrote.find("\r\n\r\n");
    if (end == std::string::npos || wrote.rfind("HTTP/1.1 ", 0) != 0) {
      ADD_FAILURE() << "not an HTTP answer: " << wrote.substr(0, 200);
      break;
    }
    Answer a;
    a.head = wrote.substr(0, end + 2);
    a.status = std::stoi(wrote.substr(9, 3));
    wrote.erase(0, end + 4);
    if (a.status == 100) continue;
    const std::string length = a.header("Content-Length");
    const std::size_t n = length.empty() || (last_is_head && wrote.empty()) ? 0 : std::stoul(length);
    a.body = wrote.substr(0, n);
    wrote.erase(0, n);
    out.push_back(std::move(a));
  }
  return out;
}

class FrontTest : public ::testing::Test {
 protected:
  FrontTest()
      : api_(builtin_games(), bundled_battle_list(builtin_games()), limits()),
        front_(api_, Audience::for_host("127.0.0.1", {"board.example"})) {}
  static Limits limits() {
    Limits l;
    l.max_body_bytes = 64 * 1024;
    return l;
  }
  std::vector<Answer> send(const std::string& bytes, bool last_is_head = false) {
    return answers(serve_bytes(front_, bytes), last_is_head);
  }
  Answer one(const std::string& bytes) {
    auto all = send(bytes);
    EXPECT_EQ(all.size(), 1u) << bytes.substr(0, 300);
    return all.empty() ? Answer{} : all.front();
  }
  static std::string post(const std::string& path, const std::string& body, const std::string& headers,
                          const std::string& host = "127.0.0.1:8080") {
    return "POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\n" + headers + "Content-Length: " +
           std::to_string(body.size()) + "\r\n\r\n" + body;
  }
  static std::string get(const std::string& path, const std::string& headers = "", const std::string& method = "GET") {
    return method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n" + headers + "\r\n";
  }
  // A new game; `seat_` is then the header line of its creator's seats.
  // A fixed seed: the log of a game with secret dice cannot be imported until it is over.
  std::string new_game() {
    const Answer a = one(post("/api/games", R"({"seed": 1})", "Content-Type: application/json\r\n"));
    EXPECT_EQ(a.status, 201) << a.body;
    if (a.status != 201) return "";
    const Json g = Json::parse(a.body);
    seat_ = seat_header_line(g);
    return g["id"].get<std::string>();
  }

  std::string seat_;

  Api api_;
  FrontEnd front_;
};

const std::string kJson = "Content-Type: application/json\r\n";

// DNS rebinding: a page of evil.example whose name now points at 127.0.0.1
// sends Host: evil.example. Only this server's own names are answered.
TEST_F(FrontTest, OnlyItsOwnHostNamesAreServed) {
  for (const std::string host : {"evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.1.evil",
                                 "localhost:80:80", "localhost:http", "127.0.0.2", "0.0.0.0"}) {
    const Answer a = one("GET /api/systems HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
    EXPECT_EQ(a.status, 421) << host;
    EXPECT_EQ(Json::parse(a.body)["error"]["field"], "Host");
    EXPECT_EQ(one(post("/api/games", "{}", kJson, host)).status, 421) << host;
    EXPECT_EQ(one("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n").status, 421) << host;
  }
  for (const std::string host : {"127.0.0.1", "127.0.0.1:8080", "localhost", "LOCALHOST:9", "[::1]:8080", "board.example"})
    EXPECT_EQ(one("GET /api/systems HTTP/1.1\r\nHost: " + host + "\r\n\r\n").status, 200) << host;
  // The target's own authority counts (absolute-form), not a Host beside it.
  EXPECT_EQ(one("GET http://evil.example/api/systems HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status, 421);
  EXPECT_EQ(one("GET http://localhost:8080/api/systems HTTP/1.1\r\nHost: evil.example\r\n\r\n").status, 200);
  // HTTP/1.1 needs a Host, once.
  EXPECT_EQ(one("GET /api/systems HTTP/1.1\r\n\r\n").status, 400);
  EXPECT_EQ(one("GET /api/systems HTTP/1.1\r\nHost: \r\n\r\n").status, 400);
  EXPECT_EQ(one("GET /api/systems HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n").status, 400);
  // Listening on every address: any address names this server, names still do not.
  Audience any = Audience::for_host("0.0.0.0");
  EXPECT_TRUE(any.admits("192.168.1.20:8080"));
  EXPECT_TRUE(any.admits("[fe80::1]"));
  EXPECT_FALSE(any.admits("evil.example"));
  EXPECT_FALSE(Audience::for_host("127.0.0.1").admits("192.168.1.20"));
  EXPECT_TRUE(Audience::for_host("::1").admits("[::1]:80"));
}

// A page on another site may not change anything: its fetch or form sends
// its Origin, or a content type a form can send without asking the server.
TEST_F(FrontTest, CrossSiteRequestsChangeNothing) {
  const std::size_t before = api_.game_count();
  // A no-cors fetch with a text/plain JSON body; a form with enctype=text/plain.
  EXPECT_EQ(one(post("/api/games", "{}", "Content-Type: text/plain;charset=UTF-8\r\n")).status, 415);
  EXPECT_EQ(one(post("/api/games", R"({"a": "=b"})", "Content-Type: text/plain\r\nOrigin: null\r\n")).status, 403);
  EXPECT_EQ(one(post("/api/games", "battle=x", "Content-Type: application/x-www-form-urlencoded\r\n")).status, 415);
  EXPECT_EQ(one(post("/api/games", "--b--", "Content-Type: multipart/form-data; boundary=b\r\n")).status, 415);
  EXPECT_EQ(one(post("/api/games", "{}", "")).status, 415);  // a body with no type
  EXPECT_EQ(one(post("/api/games/import", "{}", "Content-Type: text/plain\r\n")).status, 415);
  // JSON from another origin, or marked cross-site by the browser.
  EXPECT_EQ(one(post("/api/games", "{}", kJson + "Origin: http://evil.example\r\n")).status, 403);
  EXPECT_EQ(one(post("/api/games", "{}", kJson + "Origin: http://127.0.0.1:8081\r\n")).status, 403);
  EXPECT_EQ(one(post("/api/games", "{}", kJson + "Origin: https://127.0.0.1:8081\r\n")).status, 403);
  EXPECT_EQ(one(post("/api/games", "{}", kJson + "Origin: https://evil.example\r\n")).status, 403);
  EXPECT_EQ(one(post("/api/games", "{}", kJson + "Sec-Fetch-Site: cross-site\r\n")).status, 403);
  EXPECT_EQ(one(post("/api/games", "{}", kJson + "Sec-Fetch-Site: same-site\r\n")).status, 403);
  EXPECT_EQ(one(post("/api/games", "{}", kJson + "Origin: http://127.0.0.1:8080\r\nOrigin: http://127.0.0.1:8080\r\n")).status, 403);
  const std::string id = new_game();
  const std::string del = "DELETE /api/games/" + id + " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nOrigin: http://evil.example\r\n\r\n";
  EXPECT_EQ(one(del).status, 403);
  EXPECT_EQ(api_.game_count(), before + 1);
  // The board itself: same origin, JSON (a log as JSON Lines), or no page at all.
  EXPECT_EQ(one(post("/api/games", "{}", kJson + "Origin: http://127.0.0.1:8080\r\nSec-Fetch-Site: same-origin\r\n")).status, 201);
  EXPECT_EQ(one(post("/api/games", "{}", "Content-Type: Application/JSON; charset=utf-8\r\n")).status, 201);
  const Answer log = one(get("/api/games/" + id + "/log"));
  EXPECT_EQ(one(post("/api/games/import", log.body, "Content-Type: application/x-ndjson\r\n")).status, 201);
  EXPECT_EQ(one(post("/api/games/" + id + "/undo", "", seat_)).status, 409);  // a bare POST: no body, no type
  EXPECT_EQ(one("DELETE /api/games/" + id + " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n" + seat_ + "\r\n").status, 200);
  // Behind a proxy that ends TLS (docs/deploy.md) the board's page is
  // https://<Host>: only the holder of the name's certificate serves that.
  EXPECT_EQ(one(post("/api/games", "{}", kJson + "Origin: https://127.0.0.1:8080\r\n")).status, 201);
  EXPECT_EQ(one(post("/api/games", "{}", kJson + "Origin: https://board.example\r\n", "board.example")).status, 201);
  // Reading is not changing: a GET needs no Origin check.
  EXPECT_EQ(one(get("/api/battles", "Origin: http://evil.example\r\n")).status, 200);
}

// Serving HTTPS itself, the server's pages are https:// only: an http://
// page of its name and port is someone else's (a network in between).
TEST(AudienceTest, OwnOriginIsHttpsWhenServingTls) {
  Audience plain = Audience::for_host("127.0.0.1");
  EXPECT_TRUE(plain.own_origin("http://127.0.0.1:8080", "127.0.0.1:8080"));
  EXPECT_TRUE(plain.own_origin("HTTPS://127.0.0.1:8080", "127.0.0.1:8080"));
  EXPECT_FALSE(plain.own_origin("https://127.0.0.1:8081", "127.0.0.1:8080"));
  EXPECT_FALSE(plain.own_origin("ftp://127.0.0.1:8080", "127.0.0.1:8080"));
  EXPECT_FALSE(plain.own_origin("https://127.0.0.1:8080/", "127.0.0.1:8080"));
  EXPECT_FALSE(plain.own_origin("null", "127.0.0.1:8080"));
  Audience tls = plain;
  tls.tls = true;
  EXPECT_TRUE(tls.own_origin("https://127.0.0.1:8443", "127.0.0.1:8443"));
  EXPECT_TRUE(tls.own_origin("https://Club.Example.org", "club.example.org"));
  EXPECT_FALSE(tls.own_origin("http://127.0.0.1:8443", "127.0.0.1:8443"));
  EXPECT_FALSE(tls.own_origin("https://evil.example", "127.0.0.1:8443"));
}

TEST_F(FrontTest, EveryRouteAnswersOnlyItsMethodsWithAllow) {
  const std::string id = new_game();
  struct Case {
    std::string method, path, allow;
  };
  const std::vector<Case> cases = {
      {"OPTIONS", "/api/systems", "GET, HEAD"},      {"TRACE", "/api/battles", "GET, HEAD"},
      {"PUT", "/api/games", "POST"},                 {"PATCH", "/api/games/" + id, "GET, HEAD, DELETE"},
      {"GET", "/api/games/" + id + "/apply", "POST"}, {"OPTIONS", "/", "GET, HEAD"},
      {"POST", "/app.js", "GET, HEAD"},              {"FOO", "/api/games/" + id + "/log", "GET, HEAD"},
      {"CONNECT", "/api/games/import", "POST"},      {"DELETE", "/api/rules/warmaster", "GET, HEAD"},
  };
  for (const Case& c : cases) {
    const Answer a = one(c.method + " " + c.path + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
    EXPECT_EQ(a.status, 405) << c.method << " " << c.path;
    EXPECT_EQ(a.header("Allow"), c.allow) << c.method << " " << c.path;
    EXPECT_EQ(Json::parse(a.body)["error"]["field"], "method");
  }
  // HEAD is GET without the body, on every GET route and file.
  for (const std::string& path : std::vector<std::string>{"/api/systems", "/api/games/" + id, "/", "/app.js", "/api/rules/ancients"}) {
    const auto both = send(get(path) + get(path, "", "HEAD"), true);
    ASSERT_EQ(both.size(), 2u) << path;
    EXPECT_EQ(both[1].status, 200) << path;
    EXPECT_EQ(both[1].header("Content-Length"), both[0].header("Content-Length")) << path;
    EXPECT_EQ(both[1].body, "") << path;
  }
  EXPECT_EQ(one(get("/api/nowhere")).status, 404);
  EXPECT_EQ(one("OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n").status, 405);
}

TEST_F(FrontTest, ContentLengthIsDigitsGivenOnce) {
  for (const std::string value : {"abc", "0x10", " 2", "+2", "-1", "2, 2", "2 2", "1e1", "99999999999999999999"}) {
    const Answer a = one("POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: " +
                         value + "\r\n\r\n{}");
    EXPECT_EQ(a.status, 400) << "'" << value << "'";
    EXPECT_TRUE(a.has("Connection: close")) << value;
  }
  const std::string twice = "POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n";
  EXPECT_EQ(one(twice + "Content-Length: 2\r\n\r\n{}").status, 400);
  EXPECT_EQ(one(twice + "Content-Length: 3\r\n\r\n{} ").status, 400);
  EXPECT_EQ(one(twice + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n").status, 400);
  EXPECT_EQ(one(twice + "\r\n{}").status, 201);
  // Folded header lines are refused, not joined.
  EXPECT_EQ(one("GET /api/systems HTTP/1.1\r\nHost: localhost\r\nX-A: a\r\n b\r\n\r\n").status, 400);
}

TEST_F(FrontTest, ChunkedBodiesAreBoundedAsOthers) {
  const std::string head = "POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
  EXPECT_EQ(one(head + "1\r\n{\r\n1\r\n}\r\n0\r\n\r\n").status, 201);
  // 64 KiB is the limit here: a chunk past it is refused when its size is read.
  std::string big = head;
  for (int i = 0; i < 20; ++i) big += "1000\r\n" + std::string(4096, ' ') + "\r\n";
  const Answer a = one(big + "0\r\n\r\n");
  EXPECT_EQ(a.status, 413);
  EXPECT_EQ(Json::parse(a.body)["error"]["field"], "body");
  EXPECT_EQ(one(head + "ffffffffffffffff\r\n").status, 413);
  // A chunk line with no end is not held without bound.
  EXPECT_EQ(one(head + "1;" + std::string(200000, 'x')).status, 400);
  EXPECT_EQ(one("POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n{}").status, 501);
  EXPECT_EQ(one("POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n").status, 501);
  // Content-Length past the limit: 413 before the body is read.
  const Answer early = one("POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 268435456\r\n\r\n{");
  EXPECT_EQ(early.status, 413);
  EXPECT_TRUE(early.has("Connection: close"));
}

TEST_F(FrontTest, HeadersAndLinesAreBounded) {
  // A million headers, a header line with no end, a request line with no end.
  std::string many = "GET /api/systems HTTP/1.1\r\nHost: localhost\r\n";
  for (int i = 0; i < 1000000; ++i) many += "a:b\r\n";
  EXPECT_EQ(one(many + "\r\n").status, 431);
  EXPECT_EQ(one("GET /api/systems HTTP/1.1\r\nHost: localhost\r\nX-Long: " + std::string(1 << 20, 'a')).status, 431);
  EXPECT_EQ(one("GET /" + std::string(1 << 20, 'a')).status, 414);
  // 101 short fields is past the count, though within the bytes.
  std::string fields = "GET /api/systems HTTP/1.1\r\nHost: localhost\r\n";
  for (int i = 0; i < 100; ++i) fields += "x" + std::to_string(i) + ": 1\r\n";
  EXPECT_EQ(one(fields + "\r\n").status, 431);
  EXPECT_EQ(one("GET /api/systems HTTP/2.0\r\nHost: localhost\r\n\r\n").status, 505);
  EXPECT_EQ(one("GET /api/systems\r\n\r\n").status, 400);
  EXPECT_EQ(one("GET /api/%zz HTTP/1.1\r\nHost: localhost\r\n\r\n").status, 400);
  EXPECT_EQ(one("GET /api/%00 HTTP/1.1\r\nHost: localhost\r\n\r\n").status, 400);
}

// A request line is a method, a target and a version, one space between
// each, ended by CRLF. One that is not is malformed: 400 naming the request
// line and what is wrong with it, not 505 (Beast read a space in the path,
// or a bare LF, as a bad version). Only a well-formed version this server
// does not speak is 505.
TEST_F(FrontTest, AMalformedRequestLineIs400NamingIt) {
  struct Case {
    std::string bytes, says;
  };
  const std::vector<Case> cases = {
      {"GET /a b HTTP/1.1\r\nHost: localhost\r\n\r\n", "more than two spaces"},
      {"GET /api/systems HTTP/1.1 \r\nHost: localhost\r\n\r\n", "more than two spaces"},
      {"GET /api/systems HTTP/1.1\nHost: localhost\r\n\r\n", "bare LF"},
      {"GET /api/systems HTTP/1.1\nHost: localhost\n\n", "bare LF"},
      {"GET /api/systems HTTP/1.1x\r\nHost: localhost\r\n\r\n", "\"HTTP/1.1x\" is not an HTTP version"},
      {"GET /api/systems\r\n\r\n", "a method, a target and a version"},
  };
  for (const Case& c : cases) {
    const Answer a = one(c.bytes);
    EXPECT_EQ(a.status, 400) << c.bytes;
    EXPECT_TRUE(a.has("Connection: close")) << c.bytes;
    ASSERT_TRUE(Json::accept(a.body)) << a.body;
    const Json error = Json::parse(a.body)["error"];
    EXPECT_EQ(error["field"], "request line") << c.bytes;
    EXPECT_NE(error["problem"].get<std::string>().find(c.says), std::string::npos) << error.dump();
  }
  // A bare LF is refused as soon as the line has come: the server does not
  // wait for a CRLF CRLF that such a client never sends.
  HttpConnection c(front_, "127.0.0.1");
  c.receive("GET /api/systems HTTP/1.1\n");
  ASSERT_EQ(c.step(), HttpConnection::Step::write);
  EXPECT_EQ(answers(c.output()).at(0).status, 400);
  EXPECT_EQ(one("GET /api/systems HTTP/1.2\r\nHost: localhost\r\n\r\n").status, 505);
  EXPECT_EQ(one("GET /api/systems HTTP/2.0\r\nHost: localhost\r\n\r\n").status, 505);
  EXPECT_EQ(one("GET /a%20b HTTP/1.1\r\nHost: localhost\r\n\r\n").status, 404);
}

// A Range header is ignored: the answer is whole, once (cpp-httplib answered
// 300 overlapping ranges of a 1 MiB view with 292 MiB).
TEST_F(FrontTest, RangeIsIgnored) {
  const std::string id = new_game();
  std::string ranges = "Range: bytes=0-";
  for (int i = 0; i < 299; ++i) ranges += ",0-";
  const Answer whole = one(get("/api/games/" + id));
  const Answer ranged = one(get("/api/games/" + id, ranges + "\r\n"));
  EXPECT_EQ(ranged.status, 200);
  EXPECT_EQ(ranged.body, whole.body);
  const Answer file = one(get("/app.js", ranges + "\r\n"));
  EXPECT_EQ(file.status, 200);
  EXPECT_EQ(file.header("Content-Length"), std::to_string(file.body.size()));
}

TEST_F(FrontTest, EveryAnswerCarriesTheSecurityHeaders) {
  const std::string id = new_game();
  const std::string wrote = serve_bytes(front_, get("/") + get("/nothing.js") + get("/api/games/" + id + "/log") +
                                                    get("/api/systems", "Range: bytes=0-1\r\n", "TRACE") +
                                                    "GET /api/systems HTTP/1.1\r\nHost: evil.example\r\n\r\n");
  const auto all = answers(wrote);
  ASSERT_EQ(all.size(), 5u);
  for (const Answer& a : all) {
    EXPECT_TRUE(a.has("X-Content-Type-Options: nosniff")) << a.head;
    EXPECT_NE(a.header("Content-Security-Policy").find("default-src 'self'"), std::string::npos) << a.head;
    EXPECT_TRUE(a.has("Cross-Origin-Resource-Policy: same-origin")) << a.head;
  }
  for (const std::string& bad : {std::string("\x01\x02garbage\r\n\r\n"), std::string("GET / HTTP/1.1\r\nHost: localhost\r\nX\r\n\r\n")}) {
    const Answer a = one(bad);
    EXPECT_EQ(a.status, 400);
    EXPECT_TRUE(a.has("X-Content-Type-Options: nosniff"));
    EXPECT_TRUE(Json::accept(a.body));
  }
}

TEST_F(FrontTest, ExpectContinueIsAnsweredBeforeTheBody) {
  const std::string wrote = serve_bytes(
      front_, "POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n{}");
  EXPECT_EQ(wrote.rfind("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\n", 0), 0u) << wrote.substr(0, 80);
  const std::string refused = serve_bytes(
      front_, "POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 999999\r\n\r\n");
  EXPECT_EQ(refused.rfind("HTTP/1.1 413", 0), 0u);
}

// Bytes held for bodies being read, across connections, are bounded: past
// the bound a request is asked to come back.
TEST_F(FrontTest, BodiesInFlightAreBounded) {
  HttpLimits tight;
  tight.bodies_in_flight = 100;
  FrontEnd front(api_, Audience::for_host("127.0.0.1"), tight);
  HttpConnection slow(front, "127.0.0.1");
  slow.receive("POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 90\r\n\r\n{");
  EXPECT_EQ(slow.step(), HttpConnection::Step::read);
  EXPECT_EQ(front.bodies_in_flight.held(), 90u);
  const auto a = answers(serve_bytes(front, post("/api/games", std::string(20, ' ') + "{}", kJson)));
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].status, 503);
  EXPECT_EQ(a[0].header("Retry-After"), "1");
  EXPECT_EQ(answers(serve_bytes(front, post("/api/games", "{}", kJson)))[0].status, 201);
}

// One address cannot take the whole of the bodies' budget: it may hold at
// most its share (HttpLimits::client_share, a quarter), so another address
// is still read. Once, 130 connections that each announced a 1 MiB body
// and sent nothing had every other address answered 503 for 30 s. Behind a
// trusted proxy the share is each forwarded address's.
TEST_F(FrontTest, OneAddressCannotHoldEveryonesBodyBudget) {
  Limits small;
  small.max_body_bytes = 100;  // an address's share is at least one body of the largest
  Api api(builtin_games(), bundled_battle_list(builtin_games()), small);
  HttpLimits tight;
  tight.bodies_in_flight = 400;  // a quarter: 100 bytes for each address
  Audience audience = Audience::for_host("127.0.0.1");
  audience.trusted_proxies = {"10.0.0.1"};
  FrontEnd front(api, audience, tight);
  const std::string body = std::string(58, ' ') + "{}";
  for (const std::string& via : {std::string(), std::string("10.0.0.1")}) {
    auto head = [&](const std::string& client) {
      return "POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
             (via.empty() ? std::string() : "X-Forwarded-For: " + client + "\r\n") + "Content-Length: 60\r\n\r\n{";
    };
    auto peer = [&](const std::string& client) { return via.empty() ? client : via; };
    std::vector<std::unique_ptr<HttpConnection>> hog;
    int refused = 0;
    for (int i = 0; i < 10; ++i) {
      hog.push_back(std::make_unique<HttpConnection>(front, peer("203.0.113.66")));
      hog.back()->receive(head("203.0.113.66"));
      if (hog.back()->step() != HttpConnection::Step::write) continue;
      const Answer a = answers(hog.back()->output()).at(0);
      EXPECT_EQ(a.status, 429) << a.body;  // the address's own doing
      EXPECT_EQ(Json::parse(a.body)["error"]["field"], "client");
      EXPECT_EQ(a.header("Retry-After"), "1");
      ++refused;
    }
    EXPECT_EQ(refused, 9) << "one body of 60 bytes fits in a share of 100 (via " << via << ")";
    EXPECT_EQ(front.bodies_in_flight.held_by("203.0.113.66"), 60u);
    // Another address is served while the first holds all it may.
    const std::string other = post("/api/games", body, kJson + (via.empty() ? "" : "X-Forwarded-For: 198.51.100.7\r\n"));
    const auto a = answers(serve_bytes(front, other, peer("198.51.100.7")));
    ASSERT_EQ(a.size(), 1u);
    EXPECT_EQ(a[0].status, 201) << a[0].body;
  }
  EXPECT_EQ(front.bodies_in_flight.held(), 0u);  // the hogs have gone, and given back what they held
  // The whole is still bounded: four addresses at their share fill it, and a fifth is asked to come back.
  std::vector<std::unique_ptr<HttpConnection>> full;
  for (int i = 1; i <= 4; ++i) {
    full.push_back(std::make_unique<HttpConnection>(front, "192.0.2." + std::to_string(i)));
    full.back()->receive("POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{");
    EXPECT_EQ(full.back()->step(), HttpConnection::Step::read) << i;
  }
  const auto fifth = answers(serve_bytes(front, post("/api/games", "{}", kJson), "192.0.2.5"));
  ASSERT_EQ(fifth.size(), 1u);
  EXPECT_EQ(fifth[0].status, 503);
  EXPECT_EQ(Json::parse(fifth[0].body)["error"]["field"], "server");
}

// Nor the whole of the answers' budget: an address whose answers go unread
// is refused once it holds its share, and another address is still served.
// Once, 608 unread answers of about 1 MB had 2 of 54 other requests
// answered 503.
TEST_F(FrontTest, UnreadAnswersOfOneAddressDoNotRefuseAnother) {
  const std::size_t one_answer = answers(serve_bytes(front_, get("/api/battles"))).at(0).body.size();
  HttpLimits tight;
  tight.answers_in_flight = 3 * one_answer;  // a quarter: less than one answer for each address
  FrontEnd front(api_, Audience::for_host("127.0.0.1"), tight);
  std::vector<std::unique_ptr<HttpConnection>> unread;
  int refused = 0;
  for (int i = 0; i < 8; ++i) {
    auto c = std::make_unique<HttpConnection>(front, "203.0.113.66");
    c->receive(get("/api/battles"));
    HttpConnection::Step s = c->step();
    while (s == HttpConnection::Step::handle) {
      c->answer(api_.handle(c->take_job()));
      s = c->step();
    }
    ASSERT_EQ(s, HttpConnection::Step::write);
    refused += answers(c->output()).at(0).status == 429;
    unread.push_back(std::move(c));  // never written: its client does not read
  }
  EXPECT_EQ(refused, 7);
  const auto a = answers(serve_bytes(front, get("/api/battles"), "198.51.100.7"));
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].status, 200) << a[0].body;
}


// Behind a reverse proxy every request comes from the proxy's address. Given
// --trusted-proxy, the last address of X-Forwarded-For (the one the proxy
// added) is the client for the per-client bounds; the same header from any
// other peer is ignored, and addresses before the last (the client's own
// claims) never count.
TEST(TrustedProxyTest, TheProxysLastForwardedAddressIsTheClient) {
  Limits limits;
  limits.max_games_per_client = 2;  // a client's third game drops its least recently used
  Api api(builtin_games(), bundled_battle_list(builtin_games()), limits);
  Audience audience = Audience::for_host("127.0.0.1");
  audience.trusted_proxies = {"10.0.0.1"};
  FrontEnd front(api, audience);
  auto send = [&](const std::string& peer, const std::string& forwarded, const std::string& method = "POST",
                  const std::string& path = "/api/games") {
    const std::string xff = forwarded.empty() ? "" : "X-Forwarded-For: " + forwarded + "\r\n";
    const std::string bytes = method == "POST"
                                  ? "POST " + path + " HTTP/1.1\r\nHost: localhost\r\n" + xff +
                                        "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
                                  : method + " " + path + " HTTP/1.1\r\nHost: localhost\r\n" + xff + "\r\n";
    const auto a = answers(serve_bytes(front, bytes, peer));
    return a.empty() ? Answer{} : a.front();
  };
  auto create = [&](const std::string& peer, const std::string& forwarded) {
    const Answer a = send(peer, forwarded);
    EXPECT_EQ(a.status, 201) << a.body;
    return a.status == 201 ? Json::parse(a.body)["id"].get<std::string>() : std::string();
  };
  auto kept = [&](const std::string& id) { return send("127.0.0.1", "", "GET", "/api/games/" + id).status == 200; };

  // Two members through the proxy: two games each, all kept.
  const std::string a1 = create("10.0.0.1", "203.0.113.5"), a2 = create("10.0.0.1", "203.0.113.5");
  const std::string b1 = create("10.0.0.1", "198.51.100.7"), b2 = create("10.0.0.1", "198.51.100.7");
  EXPECT_TRUE(kept(a1) && kept(a2) && kept(b1) && kept(b2));
  // The first member's third game, its address after a forged one: only its own oldest goes.
  const std::string a3 = create("10.0.0.1", "192.0.2.99, 203.0.113.5");
  EXPECT_FALSE(kept(a1));
  EXPECT_TRUE(kept(a2) && kept(a3) && kept(b1) && kept(b2));
  // Several header lines are one list: the last line's address counts.
  const Answer lines = answers(serve_bytes(front,
      "POST /api/games HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: 203.0.113.5\r\nX-Forwarded-For: 198.51.100.7\r\n"
      "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", "10.0.0.1")).at(0);
  EXPECT_EQ(lines.status, 201);
  EXPECT_FALSE(kept(b1));
  EXPECT_TRUE(kept(a2) && kept(a3) && kept(b2));

  // Not the trusted proxy: the header names nobody, and the peer is the client.
  const std::string c1 = create("10.0.0.9", "203.0.113.1");
  create("10.0.0.9", "203.0.113.2");
  create("10.0.0.9", "203.0.113.3");
  EXPECT_FALSE(kept(c1));

  // The trusted proxy naming no address is refused, naming the header.
  const Answer bad = send("10.0.0.1", "203.0.113.5, not-an-address");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(Json::parse(bad.body)["error"]["field"], "X-Forwarded-For") << bad.body;
  EXPECT_NE(bad.body.find("not-an-address"), std::string::npos) << bad.body;
  // Bracketed IPv6 and IPv4-mapped forms are the same client as the plain ones.
  EXPECT_EQ(canonical_address("::ffff:203.0.113.5"), "203.0.113.5");
  EXPECT_EQ(send("10.0.0.1", "[2001:db8::1]").status, 201);
  EXPECT_EQ(canonical_address("2001:db8:0::1"), "2001:db8::1");
  EXPECT_EQ(canonical_address("example.org"), "");
}

}  // namespace
}  // namespace referee::server
