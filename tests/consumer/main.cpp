// Links every installed library through find_package(referee) and checks one
// answer from each against the rule texts. Exits 1 on a wrong answer.
#include <cstdio>
#include <string>

#include "referee/ancients/hex.hpp"
#include "referee/blightmeer/checks.hpp"
#include "referee/core/chance.hpp"
#include "referee/warmaster/command/orders.hpp"

namespace {
int failures = 0;
void expect(const std::string& what, const std::string& got, const std::string& want) {
  std::printf("%s: %s\n", what.c_str(), got.c_str());
  if (got != want) {
    std::printf("  expected %s\n", want.c_str());
    ++failures;
  }
}
}  // namespace

int main() {
  // 2D6 totals of 7 or less: 1+2+3+4+5+6 ways.
  expect("core: 2D6 <= 7", referee::chance_2d6_at_most(7).fraction(), "21/36");

  // Command 9, unit 25 cm away: -1 for over 20 cm, so 8 or less on 2D6.
  referee::warmaster::OrderFactors order;
  order.command = 9;
  order.distance = 25;
  const auto target = referee::warmaster::order_target(order);
  expect("warmaster: Command 9 at 25 cm", std::to_string(target.needed) + ", " + target.chance.fraction(),
         "8, 26/36");

  // Column 0 row 0 to column 3 row 2: two steps down-right, two east.
  using referee::ancients::ColRow;
  expect("ancients: hexes from 0,0 to 3,2",
         std::to_string(referee::ancients::hex_distance(referee::ancients::to_axial(ColRow{0, 0}),
                                                        referee::ancients::to_axial(ColRow{3, 2}))),
         "4");

  // Stat 8 with Advantage fails only when both d20 show 1-7: 400 - 7*7.
  expect("blightmeer: stat 8 with Advantage",
         referee::blightmeer::check_chance(8, referee::blightmeer::Edge::advantage).fraction(), "351/400");

  return failures == 0 ? 0 : 1;
}
