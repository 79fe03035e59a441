// Fuzzes the Warmaster SVG renderer on any battlefield the parser accepts:
// no crash, and the picture holds no character XML forbids.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/battle/render.hpp"

using namespace referee;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const Json j = parse_json_text(std::string_view(reinterpret_cast<const char*>(data), size), "battle.json");
    const warmaster::Battlefield bf = warmaster::parse_battlefield(j);
    fuzz::require_xml_characters(warmaster::render_svg(bf));
  } catch (const InputError&) {
  }
  return 0;
}
