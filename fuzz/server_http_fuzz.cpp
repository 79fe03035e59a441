// Fuzzes the web board's HTTP front end (apps/server/http_front.hpp) with raw
// bytes, as they would come off a socket: request parsing (Boost.Beast's
// parser and the front end's own checks), the Host, Origin and Content-Type
// rules, routing, the static files and the API behind them. "{id}" in the
// input stands for a real game's id. Every byte the server writes must be a
// sequence of well-formed answers, each with a documented status, its
// Content-Length and the security headers; a connection never answers more
// requests than it was sent.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "api.hpp"
#include "http_front.hpp"
#include "http_server.hpp"
#include "referee/games/builtin.hpp"

using namespace referee;

namespace {

struct Fixture {
  std::unique_ptr<server::Api> api;
  std::unique_ptr<server::FrontEnd> front;
  std::string id, seat, invite;
  Fixture() {
    server::Limits limits{16, 64 * 1024, 200, 50};
    limits.opponent_seconds = 0.01;
    api = std::make_unique<server::Api>(builtin_games(), server::bundled_battle_list(builtin_games()), limits);
    server::HttpLimits http;
    http.header_bytes = 4096;
    // The fuzzer's requests come from 127.0.0.1, named a trusted proxy, so
    // that their X-Forwarded-For is read (http_front.hpp, request_client).
    server::Audience audience = server::Audience::for_host("127.0.0.1", {"board.example"});
    audience.trusted_proxies = {"127.0.0.1"};
    front = std::make_unique<server::FrontEnd>(*api, std::move(audience), http);
    fresh_game();
  }
  // The Empire's seat is the fuzzer's ("{seat}"); the Orcs' is open ("{invite}").
  void fresh_game() {
    const server::Response r = api->handle({"POST", "/api/games", R"({"seed": 3, "seats": [0]})"});
    const nlohmann::json g = nlohmann::json::parse(r.body);
    id = g["id"];
    seat = g["seat_tokens"][0]["token"];
    invite = g["invitations"][0]["token"];
  }
};

bool documented(int status) {
  switch (status) {
    case 100: case 200: case 201: case 400: case 403: case 404: case 405: case 408: case 409: case 413: case 414:
    case 415: case 421: case 429: case 431: case 501: case 503: case 505:
      return true;
    default:
      return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Fixture f;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  for (const auto& [mark, value] : {std::pair<std::string, std::string>{"{id}", f.id}, {"{seat}", f.seat}, {"{invite}", f.invite}})
    for (auto at = bytes.find(mark); at != std::string::npos; at = bytes.find(mark, at + value.size()))
      bytes.replace(at, mark.size(), value);
  std::string out = server::serve_bytes(*f.front, bytes);
  std::size_t answers = 0;
  while (!out.empty()) {
    const std::size_t end = out.find("\r\n\r\n");
    if (end == std::string::npos || out.rfind("HTTP/1.1 ", 0) != 0 || out.size() < 12) std::abort();
    const int status = std::atoi(out.substr(9, 3).c_str());
    if (!documented(status)) std::abort();
    const std::string head = out.substr(0, end + 2);
    out.erase(0, end + 4);
    if (status == 100) continue;
    ++answers;
    if (head.find("\r\nX-Content-Type-Options: nosniff\r\n") == std::string::npos ||
        head.find("\r\nContent-Security-Policy: ") == std::string::npos)
      std::abort();
    if (head.find("\r\nContent-Type: text/event-stream\r\n") != std::string::npos &&
        head.find("\r\nContent-Length: ") == std::string::npos) {
      // A live-update stream: no length, the rest of the connection is its
      // events, each ending in a blank line; nothing is answered after it.
      if (status != 200 || head.find("\r\nConnection: close\r\n") == std::string::npos) std::abort();
      if (out.empty() || out.size() < 2 || out.compare(out.size() - 2, 2, "\n\n") != 0) std::abort();
      out.clear();
      break;
    }
    const std::size_t cl = head.find("\r\nContent-Length: ");
    if (cl == std::string::npos) std::abort();
    const std::size_t length = std::strtoul(head.c_str() + cl + 18, nullptr, 10);
    // A HEAD's answer has no body: then what follows is the next answer.
    const bool body_follows = out.size() >= length && (length == 0 || out.rfind("HTTP/1.1 ", 0) != 0);
    if (body_follows) out.erase(0, length);
  }
  // Each answer is to a request, and requests start with a line.
  std::size_t lines = 0;
  for (std::size_t at = bytes.find("\r\n"); at != std::string::npos; at = bytes.find("\r\n", at + 2)) ++lines;
  if (answers > lines + 1) std::abort();
  if (f.front->bodies_in_flight.held() != 0 || f.front->answers_in_flight.held() != 0) std::abort();
  if (f.api->handle({"GET", "/api/games/" + f.id, ""}).status == 404) f.fresh_game();
  return 0;
}
