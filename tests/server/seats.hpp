// The seat tokens a test's games were made with (docs/api.md, "Seats"):
// remembered from the answers that give them, and sent with every later
// request on that game, as the board does, so that a test acts as the
// game's creator unless it says otherwise.
#pragma once

#include <map>
#include <mutex>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "api.hpp"

namespace referee::server {

// A request with the headers a board sends: its seat tokens, an invitation,
// the last event it saw.
inline Response send_as(Api& api, const std::string& method, const std::string& path, const nlohmann::json& body,
                        const std::string& seat = "", const std::string& invite = "", const std::string& last_event_id = "") {
  Request r{method, path, body.is_null() ? "" : body.dump(), "127.0.0.1"};
  r.seat = seat;
  r.invite = invite;
  r.last_event_id = last_event_id;
  return api.handle(r);
}

// An answer's JSON, its status checked.
inline nlohmann::json answer_of(const Response& r, int status) {
  EXPECT_EQ(r.status, status) << r.body.substr(0, 400);
  return nlohmann::json::parse(r.body);
}

// The X-Referee-Seat header line (with its CRLF) of a new game's answer.
inline std::string seat_header_line(const nlohmann::json& created) {
  std::string line = "X-Referee-Seat: ";
  for (const auto& t : created["seat_tokens"]) line += t["token"].get<std::string>() + ",";
  line.back() = '\r';
  return line + "\n";
}

// The Warmaster default battle's first order (the Empire's General orders
// the Halberdiers: 2D6) and the end of a phase (no dice).
inline const nlohmann::json kFirstOrder = {{"type", "order"}, {"character", "emp-general"}, {"unit", "emp-halberd-1"}};
inline const nlohmann::json kEndPhase = {{"type", "end_phase"}};

class SeatBook {
 public:
  // Keeps the tokens of an answer that carries `seat_tokens`.
  void remember(const nlohmann::json& answer) {
    if (!answer.is_object() || !answer.contains("seat_tokens")) return;
    const nlohmann::json& game = answer.contains("game") ? answer["game"] : answer;
    if (!game.contains("id")) return;
    std::lock_guard lock(mutex_);
    std::string& header = tokens_[game["id"].get<std::string>()];
    for (const auto& t : answer["seat_tokens"]) {
      if (!header.empty()) header += ",";
      header += t["token"].get<std::string>();
    }
  }
  // The X-Referee-Seat header for a request on `path` (/api/games/{id}/...).
  std::string header_for(const std::string& path) const {
    const std::string prefix = "/api/games/";
    if (path.rfind(prefix, 0) != 0) return "";
    const std::string id = path.substr(prefix.size(), path.find('/', prefix.size()) - prefix.size());
    std::lock_guard lock(mutex_);
    auto it = tokens_.find(id);
    return it == tokens_.end() ? "" : it->second;
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::string> tokens_;
};

}  // namespace referee::server
