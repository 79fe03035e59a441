// A game's seats: who holds which side, by the tokens a request carries
// (X-Referee-Seat), and what a seat's holder may do. Pure functions over a
// game's seats (no lock of their own): the caller holds the game's mutex.
//
// Tokens are 128 random bits from the operating system, 32 hex digits, and
// are compared in time that does not depend on where they differ, so that
// timing a refusal tells a client nothing about a token it does not hold.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "referee/core/match.hpp"

namespace referee::server {

// Each side's seat: its holder's token ("" while nobody holds it) and its
// open invitation ("" when none); the invitation a join used, so that a
// second join with it is told so.
struct Seat {
  std::string token, invite, used_invite;
};

// 32 hex digits from std::random_device: a seat's token, an invitation's.
std::string new_token();

// Whether `t` has a token's form (32 lowercase hex digits).
bool is_token(std::string_view t);

// Compares a token in time that does not depend on where they differ.
bool same_token(std::string_view a, std::string_view b);

// X-Referee-Seat: at most 8 tokens, comma-separated; anything else is an
// InputError naming the header.
std::vector<std::string> seat_tokens_of(std::string_view header);

// The sides whose seat's token is among the header's (ascending); a
// malformed header is an InputError.
std::vector<int> held_sides(const std::vector<Seat>& seats, std::string_view seat_header);

// "side 1 (Orcs of the Red Fang)", for refusals.
std::string side_words(const Match& m, int side);

// Why a request holding `held` may not `what` for `side` (the 403's problem
// under "seat"), or nothing when it holds that side's seat.
std::optional<std::string> unless_held(const Match& m, const std::vector<int>& held, int side, const std::string& what);

// Why the request holding `you` may not undo (or redo, `undo` false) the
// entry at `entry` (the 409's problem under "undo" or "redo"), or nothing.
// Who may (docs/api.md, "Undo between two players"): the holder of every
// side the built-in opponent does not play (one board, hot seat) steps over
// any entry; between two players, each steps back over (or forward again to)
// only an entry of a side they hold that rolled no dice, so that no one
// can take back a roll or the other's move. `actors` is the side that made
// each log entry.
std::optional<std::string> undo_refusal(const Match& m, const std::vector<Seat>& seats,
                                        const std::vector<int>& opponent_sides, const std::vector<int>& actors,
                                        const std::vector<int>& you, std::size_t entry, bool undo);

}  // namespace referee::server
