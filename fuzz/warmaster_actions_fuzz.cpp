// Fuzzes Warmaster actions files through play_actions on a bundled battle,
// the settings a log header carries (settings_from_json), and the off-table
// chart with the dice a player types (`leave-table --dice`). Any input must
// give an answer or an InputError/ScriptError, never a crash.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "referee/core/dice.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/battle/command_json.hpp"
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/model/settings.hpp"

using namespace referee;
using namespace referee::warmaster;

namespace {
std::shared_ptr<const BattleGame> game() {
  static std::shared_ptr<const BattleGame> g = [] {
    auto x = std::make_shared<BattleGame>();
    Settings s;
    x->start = parse_battlefield(parse_json_text(fuzz::source_file("scenarios/warmaster/default.json"), "default.json"), &s);
    x->settings = s;
    x->scenario = "default.json";
    return x;
  }();
  return g;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const Json j = parse_json_text(text, "actions.json");
    const Json* list = &j;
    if (j.is_object() && j.contains("actions")) list = &j["actions"];
    if (list->is_array() && list->size() <= 64) (void)play_actions(game(), 1, *list, "actions.json");
    (void)settings_from_json(j, "settings");
  } catch (const InputError&) {
  } catch (const ScriptError&) {
  }
  // The bytes as dice typed at the table.
  try {
    std::vector<int> rolls;
    for (std::size_t i = 0; i < size && i < 8; ++i) rolls.push_back(static_cast<int>(data[i]) - 1);
    ScriptedDice dice(rolls);
    (void)resolve_off_table("emp-halberd-1", size % 4, dice, size % 2 == 1);
  } catch (const InputError&) {
  } catch (const ScriptError&) {
  }
  return 0;
}
