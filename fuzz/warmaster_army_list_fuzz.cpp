// Feeds arbitrary bytes to the army list parser, and, when they parse, uses
// the list as a battle's inline army_list for a small battle whose unit names
// each troop in turn; a list that parses writes and reads back the same.
// Every failure must be an InputError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/model/army_list.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"

using namespace referee;
using namespace referee::warmaster;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  Json j;
  try {
    j = parse_json_text(text, "fuzz");
  } catch (const InputError&) {
    return 0;
  }
  ArmyList list;
  try {
    list = parse_army_list(j);
  } catch (const InputError&) {
    return 0;
  }
  if (!(parse_army_list(to_json(list)) == list)) __builtin_trap();  // round trip
  Json battle = Json::parse(R"({"armies": [
      {"name": "a", "units": [{"id": "u", "troop": "?", "stands": [{"x": 50, "y": 20}]}]},
      {"name": "b", "units": [{"id": "v", "type": "infantry", "stands": [{"x": 50, "y": 90, "facing": 180}]}]}]})");
  battle["army_list"] = j;
  for (std::size_t k = 0; k < list.troops.size() && k < 8; ++k) {
    battle["armies"][0]["units"][0]["troop"] = list.troops[k].id;
    try {
      const Battlefield bf = parse_battlefield(battle);
      if (bf.units[0].attacks != list.troops[k].attacks) __builtin_trap();
    } catch (const InputError&) {
    }
  }
  return 0;
}
