#include <gtest/gtest.h>

#include "referee/ancients/hex.hpp"

namespace referee::ancients {
namespace {

TEST(AncientsHex, StandardBoardHas113HexesInAlternatingRows) {
  BoardGeometry b;
  EXPECT_EQ(b.hex_count(), 5 * 13 + 4 * 12);
  EXPECT_TRUE(b.on_board({12, 0}));
  EXPECT_FALSE(b.on_board({12, 1}));  // odd rows hold 12 hexes
  EXPECT_TRUE(b.on_board({11, 1}));
  EXPECT_FALSE(b.on_board({0, 9}));
  EXPECT_FALSE(b.on_board({-1, 4}));
}

TEST(AncientsHex, OffsetAndAxialRoundTrip) {
  for (int row = 0; row < 9; ++row)
    for (int col = 0; col < 13; ++col) EXPECT_EQ(to_col_row(to_axial({col, row})), (ColRow{col, row}));
  // Odd rows are set half a hex right: 3,1 touches 3,0 and 4,0 above it, 3,2 and 4,2 below.
  BoardGeometry b;
  int h = b.index({3, 1});
  for (ColRow n : {ColRow{3, 0}, ColRow{4, 0}, ColRow{2, 1}, ColRow{4, 1}, ColRow{3, 2}, ColRow{4, 2}})
    EXPECT_TRUE(b.adjacent(h, b.index(n))) << format_hex(n);
  EXPECT_FALSE(b.adjacent(h, b.index({2, 0})));
  // Even row 2: 3,2 touches 2,1 and 3,1 above.
  int e = b.index({3, 2});
  EXPECT_TRUE(b.adjacent(e, b.index({2, 1})));
  EXPECT_TRUE(b.adjacent(e, b.index({3, 1})));
  EXPECT_FALSE(b.adjacent(e, b.index({4, 1})));
}

TEST(AncientsHex, DistanceCountsHexSteps) {
  EXPECT_EQ(hex_distance(to_axial({6, 8}), to_axial({6, 0})), 8);
  EXPECT_EQ(hex_distance(to_axial({0, 0}), to_axial({12, 0})), 12);
  EXPECT_EQ(hex_distance(to_axial({3, 1}), to_axial({4, 2})), 1);
}

TEST(AncientsHex, SectionLinesRunThroughColumnsFourAndEight) {
  BoardGeometry b;
  EXPECT_EQ(b.section_mask(b.index({4, 0})), 0b011);  // cut by the left line: left and centre
  EXPECT_EQ(b.section_mask(b.index({8, 2})), 0b110);
  EXPECT_EQ(b.section_mask(b.index({3, 1})), 0b001);  // odd rows: 0-3 left, 4-7 centre, 8-11 right
  EXPECT_EQ(b.section_mask(b.index({4, 1})), 0b010);
  EXPECT_EQ(b.section_mask(b.index({7, 1})), 0b010);
  EXPECT_EQ(b.section_mask(b.index({8, 1})), 0b100);
  EXPECT_EQ(b.section_mask(b.index({0, 0})), 0b001);
  EXPECT_EQ(b.section_mask(b.index({12, 8})), 0b100);
  // Side 1 sits opposite: its left is the board's right.
  EXPECT_EQ(board_section(1, 0), 2);
  EXPECT_EQ(board_section(0, 0), 0);
}

}  // namespace
}  // namespace referee::ancients
