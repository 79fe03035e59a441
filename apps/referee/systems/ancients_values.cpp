#include "ancients_values.hpp"

#include <stdexcept>

#include "referee/core/errors.hpp"

namespace referee::cli {

ancients::ColRow parse_col_row(const std::string& text, const std::string& field) {
  auto comma = text.find(',');
  try {
    if (comma == std::string::npos) throw std::invalid_argument("comma");
    std::size_t used = 0;
    int col = std::stoi(text.substr(0, comma), &used);
    if (used != comma) throw std::invalid_argument("col");
    std::string rest = text.substr(comma + 1);
    int row = std::stoi(rest, &used);
    if (used != rest.size()) throw std::invalid_argument("row");
    return {col, row};
  } catch (const std::exception&) {
    throw InputError(field, "expected COL,ROW such as 6,4, got \"" + text + "\"");
  }
}

}  // namespace referee::cli
