// Fuzzes Blightmeer move files and their resolution on a bundled battlefield:
// parse_moves, check_move and resolve_move with seeded dice, and the input
// read as a game log and replayed as `blightmeer replay` does. Any input must
// give an answer or an InputError, never a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "referee/blightmeer/io.hpp"
#include "referee/blightmeer/resolve.hpp"
#include "referee/core/dice.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/json_io.hpp"

using namespace referee;
namespace bm = referee::blightmeer;

namespace {
const bm::Battle& town() {
  static const bm::Battle b = bm::parse_battle_text(fuzz::source_file("scenarios/blightmeer/town.json"), "town.json");
  return b;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const std::vector<bm::MoveRequest> moves = bm::parse_moves(parse_json_text(text, "moves.json"));
    bm::State state = town().state;
    SeededDice dice(5);
    for (std::size_t i = 0; i < moves.size() && i < 16; ++i) {
      (void)bm::check_move(*town().terrain, state, moves[i]);
      (void)bm::resolve_move(*town().terrain, state, moves[i], dice);
    }
  } catch (const InputError&) {
  }
  try {
    const GameLog log = GameLog::parse_jsonl(text, "fuzz.log");
    bm::State state = town().state;
    SeededDice dice(log.seed);
    for (std::size_t i = 0; i < log.entries.size() && i < 16; ++i) {
      const bm::MoveRequest m = bm::parse_move(log.entries[i].action, "action");
      (void)bm::resolve_move(*town().terrain, state, m, dice);
    }
  } catch (const InputError&) {
  }
  return 0;
}
