// Fuzzes Ancients play and replay through the game interface: the input is
// read as an actions file (parse_action, validate, apply on a bundled battle),
// and as a game log whose header carries its own battle (replay_log). Any
// input must give a result or an InputError, never a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "referee/ancients/turn.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/json_io.hpp"

using namespace referee;
using namespace referee::ancients;

namespace {
struct Start {
  Json json;
  Battle battle;
};
const Start& start() {
  static const Start s = [] {
    Json j = parse_json_text(fuzz::source_file("scenarios/ancients/centre_clash.json"), "centre_clash.json");
    Battle b = parse_battle(j, "centre_clash.json");
    return Start{std::move(j), std::move(b)};
  }();
  return s;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const Json actions = parse_json_text(text, "actions.json");
    Playthrough run = play_actions(start().battle, start().json, actions, 7, "fuzz");
    // What play writes, replay must accept and agree with.
    Battle again;
    Playthrough back = replay_log(GameLog::parse_jsonl(run.log.to_jsonl(), "played.log"), again);
    if (state_json(again, back.state) != state_json(start().battle, run.state)) std::abort();
  } catch (const InputError&) {
  }
  try {
    const GameLog log = GameLog::parse_jsonl(text, "fuzz.log");
    if (log.entries.size() <= 64) {
      Battle b;
      (void)replay_log(log, b);
    }
  } catch (const InputError&) {
  }
  return 0;
}
