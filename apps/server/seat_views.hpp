// What each viewer of a game is answered (docs/api.md, "What each viewer
// sees"): under imperfect information (an Ancients hand, a deck's order) a
// seat gets its own view of the state and of every log entry, and anyone
// else a spectator's, on every route and stream; the whole game once it is
// over, for a game whose rules hide nothing, or for a request that holds
// every seat (one board, hot seat). Pure functions: the caller holds the
// game's mutex.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/core/match.hpp"

namespace referee::server {

// The viewer an answer is for: a player's index, core's kSpectator (-1), or
// the whole game.
inline constexpr int kWholeGame = -2;

// The viewer a request holding `sides` is: the whole game when nothing is
// hidden from it (see above); the side it holds when it holds one; a
// spectator when it holds none (or, in a game of more than two players,
// some but not all).
int viewer_of(const Match& m, const std::vector<int>& sides);

// The state as `viewer` may know it (GameState::view, or the whole state).
nlohmann::json state_for(const GameState& s, int viewer);

// Log entry `e` as `viewer` may read it (Game::entry_view).
nlohmann::json entry_for(const Game& g, const LogEntry& e, int viewer);

// The entries of steps [from, to) of the game as played so far, as `viewer` may read them.
nlohmann::json entries_for(const Match& m, std::size_t from, std::size_t to, int viewer);

// The log as JSON Lines as `viewer` may read it: every entry through
// entry_for and, for anyone but the whole game's viewer under imperfect
// information, the rolls that dealt the start withheld.
std::string log_for(const Game& g, GameLog log, int viewer);

// Why a request that is `viewer` may not ask a question that reads the whole
// state now (validate, chance, sample, query, legal actions: an answer can
// tell a hidden card), or nothing when it may: under imperfect information,
// while the game is on, only the player to play (or the whole game's viewer)
// asks.
std::optional<std::string> question_refusal(const Match& m, int viewer);

}  // namespace referee::server
