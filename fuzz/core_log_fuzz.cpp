// Fuzzes the game log's header and lines (GameLog::parse_jsonl), shared by
// every system: any input gives a log or an InputError, and a log read back
// from what it writes is the same log.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "referee/core/errors.hpp"
#include "referee/core/game_log.hpp"

using namespace referee;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  GameLog log;
  try {
    log = GameLog::parse_jsonl(text, "fuzz.log");
  } catch (const InputError&) {
    return 0;
  }
  const std::string written = log.to_jsonl();
  try {
    const GameLog back = GameLog::parse_jsonl(written, "written.log");
    if (back.system != log.system || back.seed != log.seed || back.scenario != log.scenario ||
        back.entries.size() != log.entries.size() || back.to_jsonl() != written)
      std::abort();
  } catch (const InputError&) {
    std::abort();  // what the log writes, it must read
  }
  return 0;
}
