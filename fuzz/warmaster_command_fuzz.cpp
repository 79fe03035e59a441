// Fuzzes the command phase's inputs: a game log (JSON Lines) replayed on a
// small battle, and each line read as an action. Bad input must be an
// InputError (or a ScriptError), never a crash or undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "referee/core/errors.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/battle/command_json.hpp"

namespace {

using namespace referee;
using namespace referee::warmaster;

const char* kBattle = R"({
  "name": "fuzz", "table": {"width": 180, "height": 120},
  "terrain": [{"id": "wood", "kind": "wood", "polygon": [[20, 40], [40, 38], [45, 52], [25, 55], [20, 40]]}],
  "armies": [
    {"name": "South",
     "units": [
       {"id": "a", "type": "infantry", "stands": [{"x": 36, "y": 20}, {"x": 40, "y": 20}, {"x": 44, "y": 20}]},
       {"id": "b", "type": "infantry", "stands": [{"x": 48, "y": 20}, {"x": 52, "y": 20}, {"x": 56, "y": 20}]},
       {"id": "k", "type": "cavalry", "stands": [{"x": 98, "y": 40}, {"x": 100, "y": 40}, {"x": 102, "y": 40}]},
       {"id": "f", "type": "flyer", "stands": [{"x": 170, "y": 3}]}],
     "characters": [{"id": "g", "role": "general", "command": 9, "x": 52, "y": 12},
                    {"id": "h", "role": "hero", "command": 8, "x": 120, "y": 30}]},
    {"name": "North",
     "units": [
       {"id": "w", "type": "cavalry", "stands": [{"x": 102, "y": 58, "facing": 180}, {"x": 100, "y": 58, "facing": 180}, {"x": 98, "y": 58, "facing": 180}]},
       {"id": "o", "type": "infantry", "stands": [{"x": 64, "y": 100, "facing": 180}, {"x": 60, "y": 100, "facing": 180}]}],
     "characters": [{"id": "wb", "role": "general", "command": 9, "x": 100, "y": 110, "facing": 180}]}
  ]
})";

std::shared_ptr<const BattleGame> game() {
  static std::shared_ptr<const BattleGame> g = [] {
    auto x = std::make_shared<BattleGame>();
    Settings s;
    x->start = parse_battlefield(parse_json_text(kBattle, "battle"), &s);
    x->settings = s;
    x->scenario = "fuzz";
    return x;
  }();
  return g;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const GameLog log = GameLog::parse_jsonl(text, "fuzz.log");
    if (log.entries.size() > 64) return 0;
    (void)replay_log(game(), log, "fuzz.log");
  } catch (const InputError&) {
  } catch (const ScriptError&) {
  }
  // Each line on its own, as an action on the starting state.
  try {
    const Json j = parse_json_text(text, "action");
    WarmasterState s(game());
    const Action a = parse_action(j, s, "action");
    ScriptedDice dice({3, 4, 5, 2, 6, 1});
    (void)s.validate(a);
    (void)s.apply(a, dice);
  } catch (const InputError&) {
  } catch (const ScriptError&) {
  }
  return 0;
}
