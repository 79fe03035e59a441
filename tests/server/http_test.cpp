// The web board over real sockets on loopback: the static files built into
// the binary, the API behind cpp-httplib, and what httplib itself must
// refuse (an oversized body, a path that climbs out of the web folder).
#include <gtest/gtest.h>

#include <thread>

#include <httplib.h>

#include "api.hpp"
#include "http_server.hpp"
#include "referee/games/builtin.hpp"

namespace referee::server {
namespace {

class HttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    api_ = std::make_unique<Api>(builtin_games(), bundled_battle_list(builtin_games()), Limits{50, 64 * 1024, 20000});
    http_ = std::make_unique<HttpServer>(*api_, 4);
    port_ = http_->bind("127.0.0.1", 0);
    ASSERT_GT(port_, 0);
    thread_ = std::thread([this] { http_->listen(); });
    http_->wait_until_ready();
  }
  void TearDown() override {
    http_->stop();
    thread_.join();
  }
  httplib::Client client() { return httplib::Client("127.0.0.1", port_); }

  std::unique_ptr<Api> api_;
  std::unique_ptr<HttpServer> http_;
  std::thread thread_;
  int port_ = 0;
};

TEST_F(HttpServerTest, ServesTheBoardFromTheBinary) {
  auto c = client();
  auto page = c.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_EQ(page->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(page->body.find("<script type=\"module\" src=\"app.js\">"), std::string::npos);
  EXPECT_NE(page->get_header_value("Content-Security-Policy").find("default-src 'self'"), std::string::npos);
  for (const char* file : {"/app.js", "/warmaster.js", "/ancients.js", "/blightmeer.js", "/style.css"}) {
    auto r = c.Get(file);
    ASSERT_TRUE(r) << file;
    EXPECT_EQ(r->status, 200) << file;
  }
  EXPECT_EQ(c.Get("/app.js")->get_header_value("Content-Type"), "text/javascript; charset=utf-8");
  auto missing = c.Get("/nothing.js");
  EXPECT_EQ(missing->status, 404);
  EXPECT_EQ(c.Get("/../CMakeLists.txt")->status, 404);
  EXPECT_EQ(c.Get("/%2e%2e/CMakeLists.txt")->status, 404);
}

TEST_F(HttpServerTest, TheApiAnswersAndRefusesOverHttp) {
  auto c = client();
  auto created = c.Post("/api/games", R"({"battle": "ancients/centre_clash", "seed": 5})", "application/json");
  ASSERT_TRUE(created);
  EXPECT_EQ(created->status, 201);
  const Json g = Json::parse(created->body);
  EXPECT_EQ(g["system"], "ancients");
  EXPECT_EQ(created->get_header_value("Cache-Control"), "no-store");

  auto bad = c.Post("/api/games", "{not json", "application/json");
  EXPECT_EQ(bad->status, 400);
  EXPECT_EQ(Json::parse(bad->body)["error"]["field"], "body");

  auto unknown = c.Get("/api/games/ffffffffffffffffffffffffffffffff");
  EXPECT_EQ(unknown->status, 404);
  EXPECT_EQ(Json::parse(unknown->body)["error"]["field"], "game");

  // Over the limit: refused before it is read, with the same error shape.
  auto big = c.Post("/api/games", std::string(100 * 1024, ' '), "application/json");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
  EXPECT_EQ(Json::parse(big->body)["error"]["field"], "body");

  // The server is still there.
  auto again = c.Get("/api/battles");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 200);
}

}  // namespace
}  // namespace referee::server
