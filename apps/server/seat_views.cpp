#include "seat_views.hpp"

#include <fmt/format.h>

#include "seats.hpp"

namespace referee::server {

int viewer_of(const Match& m, const std::vector<int>& sides) {
  const GameState& s = m.state();
  if (m.game().information() == Information::perfect || s.is_terminal()) return kWholeGame;
  const std::size_t players = m.game().players().size();
  if (sides.size() == players) return kWholeGame;  // held_sides lists each side once
  if (sides.size() == 1) return sides.front();
  return kSpectator;
}

nlohmann::json state_for(const GameState& s, int viewer) { return viewer == kWholeGame ? s.to_json() : s.view(viewer); }

nlohmann::json entry_for(const Game& g, const LogEntry& e, int viewer) {
  return viewer == kWholeGame ? e.to_json() : g.entry_view(e.to_json(), viewer);
}

nlohmann::json entries_for(const Match& m, std::size_t from, std::size_t to, int viewer) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t k = from; k < to && k < m.position(); ++k) out.push_back(entry_for(m.game(), m.log().entries[k], viewer));
  return out;
}

std::string log_for(const Game& g, GameLog log, int viewer) {
  if (viewer == kWholeGame) return log.to_jsonl();
  if (g.information() == Information::imperfect && !log.start_rolls.empty()) {
    log.start_rolls.clear();
    log.start_rolls_withheld = true;
  }
  std::vector<LogEntry> entries = std::move(log.entries);
  log.entries.clear();
  std::string out = log.to_jsonl();
  constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
  for (const LogEntry& e : entries) out += g.entry_view(e.to_json(), viewer).dump(-1, ' ', false, kReplace) + "\n";
  return out;
}

std::optional<std::string> question_refusal(const Match& m, int viewer) {
  const GameState& s = m.state();
  if (viewer == kWholeGame || m.game().information() == Information::perfect || s.is_terminal()) return std::nullopt;
  if (viewer == s.current_player()) return std::nullopt;
  return fmt::format("{} hides part of the game from each player (a hand of cards), and this question reads the whole "
                     "of it: only the player of {} may ask it now, and this request holds {}",
                     m.game().system(), side_words(m, s.current_player()),
                     viewer == kSpectator ? std::string("no seat that sees it") : fmt::format("the seat of side {}", viewer));
}

}  // namespace referee::server
