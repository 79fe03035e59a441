// Fuzzes the Blightmeer SVG renderer on any battlefield the parser accepts:
// no crash, and the picture holds no character XML forbids.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.hpp"
#include "referee/blightmeer/io.hpp"
#include "referee/core/errors.hpp"

namespace bm = referee::blightmeer;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const bm::Battle b = bm::parse_battle_text(std::string_view(reinterpret_cast<const char*>(data), size), "battle.json");
    referee::fuzz::require_xml_characters(bm::render_svg(*b.terrain, b.state));
  } catch (const referee::InputError&) {
  }
  return 0;
}
