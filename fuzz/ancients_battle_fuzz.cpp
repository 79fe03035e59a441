// Fuzzes the battle-file parser, then exercises movement and cards on any
// battle it accepts. Bad input must only ever be an InputError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "referee/ancients/turn.hpp"
#include "referee/ancients/movement.hpp"
#include "referee/ancients/orders.hpp"
#include "referee/ancients/render.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"

using namespace referee;
using namespace referee::ancients;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    Json j = parse_json_text(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    Battle b = parse_battle(j, "fuzz");
    Position p = Position::initial(b);
    PathScratch s;
    std::vector<Destination> out;
    for (std::size_t u = 0; u < b.units.size() && u < 8; ++u) {
      unit_destinations(b, p, static_cast<int>(u), {true}, s, out);
      (void)check_unit_move(b, p, static_cast<int>(u), {3, 3}, {});
    }
    for (std::size_t l = 0; l < b.leaders.size() && l < 4; ++l) {
      leader_destinations(b, p, static_cast<int>(l), s, out);
      (void)check_leader_move(b, p, static_cast<int>(l), {1, 1});
    }
    for (std::size_t c = 0; c < b.cards.size(); ++c) (void)plan_orders(b, p, 0, static_cast<int>(c), 3);
    if (size < 2000) (void)render_board(b, p, {});
  } catch (const InputError&) {
  }
  return 0;
}
