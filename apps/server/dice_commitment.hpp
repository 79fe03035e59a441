// Secret dice that either player can check once the game is over
// (docs/api.md, "The dice: secret while the game is on").
//
// A game's seed predicts every roll: anyone holding it and the log can try
// an order on a copy before giving it. So a server draws the seed from the
// operating system's random source and keeps it to itself while the game is
// on; from the start every viewer sees a commitment to it, the SHA-256 of
// the seed and a salt of the game's own (the salt keeps the 64-bit seed from
// being found by trying seeds against the hash). When the game ends the
// seed and the salt are revealed, and `referee <system> replay` checks that
// they match the commitment and that every roll came from that seed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "referee/core/game_log.hpp"

namespace referee::server {

// 64 bits from the operating system's random source (getrandom).
std::uint64_t random_seed();
// A game's salt: 32 hex digits from the operating system's random source.
std::string random_salt();
// The commitment to `seed`: the SHA-256, as 64 lowercase hex digits, of the
// text "referee-dice/1:" + salt + ":" + the seed in decimal. Anyone can
// compute it again, e.g.
//   printf 'referee-dice/1:%s:%s' "$salt" "$seed" | sha256sum
std::string dice_commitment(std::uint64_t seed, std::string_view salt);

// The log as served while the game is on (`secret`: "seed": null beside the
// commitment) or once it is over (the seed, the salt and the commitment),
// for a game whose secret seed was committed to with `salt`; while secret,
// the rolls that dealt the start are withheld too (they give every hand).
void commit_log_header(GameLog& log, std::string_view salt, bool secret);

// For a log whose header carries a commitment: throws InputError naming the
// header's "seed" when the seed is still withheld or the seed and salt do
// not give the commitment. Returns false when the log carries none.
bool check_dice_commitment(const GameLog& log, const std::string& source_name);

}  // namespace referee::server
