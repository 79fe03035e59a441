#include "referee/ancients/hex.hpp"

#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

namespace referee::ancients {

int hex_distance(Axial a, Axial b) {
  int dq = a.q - b.q, dr = a.r - b.r;
  return (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) / 2;
}

std::string format_hex(ColRow c) { return fmt::format("{},{}", c.col, c.row); }

BoardGeometry::BoardGeometry(int columns, int rows, std::array<int, 2> section_lines)
    : columns_(columns), rows_(rows), lines_(section_lines) {
  if (columns < 2 || columns > kMaxColumns || rows < 1 || rows > kMaxRows)
    throw std::invalid_argument("board size out of range");
  neighbours_.assign(static_cast<std::size_t>(cell_count()) * 6, kNoHex);
  sections_.assign(static_cast<std::size_t>(cell_count()), 0);
  for (int row = 0; row < rows_; ++row) {
    for (int col = 0; col < row_length(row); ++col) {
      ColRow c{col, row};
      int i = index(c);
      ++hex_count_;
      Axial a = to_axial(c);
      for (int d = 0; d < 6; ++d)
        neighbours_[static_cast<std::size_t>(i) * 6 + d] = index_axial(Axial{a.q + kDirections[d].q, a.r + kDirections[d].r});
      // Sections by the hex centre, in half-hex units: a line through column L
      // of a full row sits at 2L. Centres on a line belong to both sides.
      int x = 2 * col + (row & 1);
      int l0 = 2 * lines_[0], l1 = 2 * lines_[1];
      std::uint8_t mask = 0;
      if (x <= l0) mask |= 1;
      if (x >= l0 && x <= l1) mask |= 2;
      if (x >= l1) mask |= 4;
      sections_[static_cast<std::size_t>(i)] = mask;
    }
  }
}

bool BoardGeometry::adjacent(int a, int b) const {
  for (int d = 0; d < 6; ++d)
    if (neighbour(a, d) == b) return true;
  return false;
}

Vec2 BoardGeometry::centre(int i) const {
  ColRow c = col_row(i);
  return {c.col + 0.5 * (c.row & 1) + 0.5, (rows_ - 1 - c.row) * std::sqrt(3.0) / 2.0 + 0.6};
}

int board_section(int side, int seat_section) { return side == 0 ? seat_section : kSections - 1 - seat_section; }

const char* section_name(int seat_section) {
  switch (seat_section) {
    case 0: return "left";
    case 1: return "center";
    default: return "right";
  }
}

}  // namespace referee::ancients
