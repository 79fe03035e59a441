// Fuzzes the battlefield parser (and, when a file parses, one move check,
// reach and route on it): any input must give a battlefield or an InputError,
// never a crash, an assert or undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <cmath>
#include <string_view>

#include "referee/blightmeer/io.hpp"
#include "referee/core/errors.hpp"

namespace bm = referee::blightmeer;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    bm::Battle b = bm::parse_battle_text(text, "fuzz");
    if (!b.state.units.empty()) {
      const bm::Unit& u = b.state.units.front();
      bm::MoveRequest m;
      m.unit = u.id;
      bm::Step s;
      s.to = {u.pos.x + 2, u.pos.y + 1};
      m.path.push_back(s);
      s.type = bm::StepType::jump_down;
      s.to = {u.pos.x + 3, u.pos.y + 1};
      m.path.push_back(s);
      (void)bm::check_move(*b.terrain, b.state, m);
      if (size < 4000) {
        (void)bm::unit_reach(*b.terrain, b.state, u.id, false);
        (void)bm::best_route(*b.terrain, b.state, u.id, {b.terrain->width / 2, b.terrain->depth / 2, std::nan("")}, false);
      }
    }
  } catch (const referee::InputError&) {
  }
  return 0;
}
