// The Ancients command line's own values: the text of one option in, a value
// or an InputError naming the option out (fuzzed with the others in
// fuzz/cli_values_fuzz.cpp).
#pragma once

#include <string>

#include "referee/ancients/hex.hpp"

namespace referee::cli {

// "COL,ROW" as printed on the Ancients board; off-board is allowed (it is a ruling).
ancients::ColRow parse_col_row(const std::string& text, const std::string& field);

}  // namespace referee::cli
