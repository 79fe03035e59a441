// Fuzzes a --dice script (parse_dice_script, core/match.hpp), which the
// command line and the web board's `dice` read: any text gives the values
// or an InputError naming the field, and the values read are exactly the
// script's, each from 1 to 1000, one per comma-separated item; written back
// they read the same.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "referee/core/errors.hpp"
#include "referee/core/match.hpp"

using namespace referee;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<int> values;
  try {
    values = parse_dice_script(text, "--dice");
  } catch (const InputError& e) {
    if (e.field() != "--dice") std::abort();
    return 0;
  }
  std::size_t commas = 0;
  for (char c : text) commas += c == ',';
  if (values.size() != commas + 1) std::abort();
  std::string again;
  for (int v : values) {
    if (v < 1 || v > 1000) std::abort();
    again += (again.empty() ? "" : ",") + std::to_string(v);
  }
  if (parse_dice_script(again) != values) std::abort();
  // A script plays as it reads: each value once, in order, then it runs out.
  StreamDice dice(DiceSource{0, values});
  for (int v : values)
    if (dice.roll(1000, "fuzz") != v) std::abort();
  try {
    dice.roll(6, "past the end");
    std::abort();
  } catch (const ScriptError&) {
  }
  return 0;
}
