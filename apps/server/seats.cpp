#include "seats.hpp"

#include <algorithm>
#include <cstdint>
#include <random>

#include <fmt/format.h>

#include "referee/core/errors.hpp"

namespace referee::server {

namespace {

bool contains(const std::vector<int>& sides, int side) { return std::find(sides.begin(), sides.end(), side) != sides.end(); }

}  // namespace

std::string new_token() {
  std::random_device device;
  std::string token;
  for (int i = 0; i < 4; ++i) token += fmt::format("{:08x}", static_cast<std::uint32_t>(device()));
  return token;
}

bool is_token(std::string_view t) {
  return t.size() == 32 && t.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

bool same_token(std::string_view a, std::string_view b) {
  if (a.size() != b.size() || a.empty()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

std::vector<std::string> seat_tokens_of(std::string_view header) {
  std::vector<std::string> out;
  if (header.find_first_not_of(" \t") == std::string_view::npos) return out;
  std::size_t start = 0;
  while (start <= header.size()) {
    std::size_t end = header.find(',', start);
    if (end == std::string_view::npos) end = header.size();
    std::string_view t = header.substr(start, end - start);
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
    if (!is_token(t)) throw InputError("X-Referee-Seat", "expected seat tokens (32 hex digits each) separated by commas");
    out.emplace_back(t);
    if (out.size() > 8) throw InputError("X-Referee-Seat", "more than 8 seat tokens");
    start = end + 1;
  }
  return out;
}

std::vector<int> held_sides(const std::vector<Seat>& seats, std::string_view seat_header) {
  std::vector<int> sides;
  const std::vector<std::string> tokens = seat_tokens_of(seat_header);
  for (std::size_t k = 0; k < seats.size(); ++k)
    for (const std::string& t : tokens)
      if (same_token(t, seats[k].token)) {
        sides.push_back(static_cast<int>(k));
        break;
      }
  return sides;
}

std::string side_words(const Match& m, int side) {
  const std::vector<std::string> players = m.game().players();
  if (side < 0 || static_cast<std::size_t>(side) >= players.size()) return fmt::format("side {}", side);
  return fmt::format("side {} ({})", side, players[static_cast<std::size_t>(side)]);
}

std::optional<std::string> unless_held(const Match& m, const std::vector<int>& held, int side, const std::string& what) {
  if (contains(held, side)) return std::nullopt;
  return fmt::format("only the player of {} may {} now; this request holds {}", side_words(m, side), what,
                     held.empty() ? std::string("no seat of this game (send the seat's token in X-Referee-Seat)")
                                  : fmt::format("the seat of side {}", fmt::join(held, " and ")));
}

std::optional<std::string> undo_refusal(const Match& m, const std::vector<Seat>& seats,
                                        const std::vector<int>& opponent_sides, const std::vector<int>& actors,
                                        const std::vector<int>& you, std::size_t entry, bool undo) {
  const char* what = undo ? "undo" : "redo";
  // One board holds the whole game (hot seat, or against the built-in
  // opponent) when the request holds every side but those the opponent
  // plays without a holder: a side handed to the opponent keeps its old
  // holder's token, so a hand-over does not make the other player master
  // of the first one's moves, and a side still to be joined is another's.
  bool every_side = true;
  for (std::size_t k = 0; k < seats.size(); ++k) {
    const int side = static_cast<int>(k);
    every_side = every_side && (contains(you, side) || (seats[k].token.empty() && contains(opponent_sides, side)));
  }
  if (every_side) return std::nullopt;
  const int actor = entry < actors.size() ? actors[entry] : -1;
  if (!contains(you, actor))
    return fmt::format("between two players each may {} only their own actions; the {} entry was made by {}", what,
                       undo ? "last" : "next", side_words(m, actor));
  if (!m.log().entries[entry].rolls.empty())
    return fmt::format("between two players an action that rolled dice stays made: the {} entry rolled {} dice",
                       undo ? "last" : "next", m.log().entries[entry].rolls.size());
  return std::nullopt;
}

}  // namespace referee::server
