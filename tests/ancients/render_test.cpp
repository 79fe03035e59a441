#include <gtest/gtest.h>

#include "referee/ancients/render.hpp"
#include "test_support.hpp"

namespace referee::ancients {
namespace {

using namespace testing;

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(AncientsRender, DrawsEveryHexUnitLeaderAndDestination) {
  Battle b = load_scenario("centre_clash.json");
  Position p = Position::initial(b);
  RenderOptions o;
  o.destinations = destinations(b, p, "a_hc1");
  std::string svg = render_board(b, p, o);
  EXPECT_EQ(count(svg, "<g id=\"unit-"), 30);
  EXPECT_EQ(count(svg, "<g id=\"leader-"), 4);
  EXPECT_EQ(o.destinations.size(), 11u);
  // 113 hexes + 11 highlighted destinations + 30 unit boxes + 1 background.
  EXPECT_EQ(count(svg, "<polygon"), 113 + 11 + 30 + 1);
  EXPECT_NE(svg.find(">7,5<"), std::string::npos);  // hexes carry their col,row
}

}  // namespace
}  // namespace referee::ancients
