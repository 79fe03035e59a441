// The hex board of Commands & Colors: Ancients.
//
// Inside the engine a hex is an axial coordinate (q, r) (Red Blob Games' hex
// guide): neighbours and distances are simple sums there. Files and answers
// use the board's printed column and row ("offset" coordinates): rows 0..8
// counted from the far edge of the player seated at the bottom (side 0),
// even rows hold `columns` hexes, odd rows one fewer, set half a hex right
// (the "odd-r" layout). The conversion lives only here, at the boundary.
//
// Every hex also has a flat index (row * columns + col), so per-hex data is a
// plain array and the pathfinder never allocates.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "referee/core/geometry.hpp"

namespace referee::ancients {

struct Axial {
  int q = 0;
  int r = 0;
  bool operator==(const Axial&) const = default;
};

// The printed column and row.
struct ColRow {
  int col = 0;
  int row = 0;
  bool operator==(const ColRow&) const = default;
};

// odd-r offset <-> axial.
constexpr Axial to_axial(ColRow c) { return {c.col - (c.row - (c.row & 1)) / 2, c.row}; }
constexpr ColRow to_col_row(Axial a) { return {a.q + (a.r - (a.r & 1)) / 2, a.r}; }
int hex_distance(Axial a, Axial b);

// The six axial directions, in the order east, north-east, north-west, west,
// south-west, south-east (north = towards row 0).
inline constexpr std::array<Axial, 6> kDirections{{{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}};

std::string format_hex(ColRow c);  // "6,4"

inline constexpr int kMaxColumns = 40;
inline constexpr int kMaxRows = 40;
inline constexpr int kNoHex = -1;
inline constexpr int kSections = 3;  // left, centre, right as seen by side 0

// The board's shape, its neighbour table and its sections. Immutable once built.
class BoardGeometry {
 public:
  // `section_lines` are the two columns (on the full rows) whose hexes are cut
  // by the dotted lines; the standard board uses {4, 8}.
  BoardGeometry(int columns = 13, int rows = 9, std::array<int, 2> section_lines = {4, 8});

  int columns() const { return columns_; }
  int rows() const { return rows_; }
  int cell_count() const { return columns_ * rows_; }  // size of per-hex arrays
  int hex_count() const { return hex_count_; }          // hexes actually on the board
  std::array<int, 2> section_lines() const { return lines_; }

  int row_length(int row) const { return (row & 1) ? columns_ - 1 : columns_; }
  bool on_board(ColRow c) const {
    return c.row >= 0 && c.row < rows_ && c.col >= 0 && c.col < row_length(c.row);
  }
  int index(ColRow c) const { return on_board(c) ? c.row * columns_ + c.col : kNoHex; }
  int index_axial(Axial a) const { return index(to_col_row(a)); }
  ColRow col_row(int index) const { return {index % columns_, index / columns_}; }
  Axial axial(int index) const { return to_axial(col_row(index)); }
  bool valid_index(int index) const { return index >= 0 && index < cell_count() && on_board(col_row(index)); }

  // Neighbour `dir` (0..5) of a hex, or kNoHex past the board edge.
  int neighbour(int index, int dir) const { return neighbours_[static_cast<std::size_t>(index) * 6 + dir]; }
  bool adjacent(int a, int b) const;

  // Bit i set when the hex belongs to board section i (0 = side 0's left).
  // A hex on a dotted line belongs to both sections it touches.
  std::uint8_t section_mask(int index) const { return sections_[static_cast<std::size_t>(index)]; }

  // Centre of a hex in drawing units (hex width 1), y growing towards side 0's
  // home edge reversed so that row 0 is at the top of a picture.
  Vec2 centre(int index) const;

 private:
  int columns_;
  int rows_;
  int hex_count_ = 0;
  std::array<int, 2> lines_;
  std::vector<int> neighbours_;
  std::vector<std::uint8_t> sections_;
};

// Sections are named from each player's own seat, so side 1's "left" is the
// board's right (docs/rulings.md#ancients-board-and-sections).
int board_section(int side, int seat_section);  // seat_section 0 left, 1 centre, 2 right
const char* section_name(int seat_section);

}  // namespace referee::ancients
