#include "blightmeer_values.hpp"

#include <limits>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "cli_values.hpp"
#include "referee/core/errors.hpp"

namespace referee::cli {

blightmeer::Vec3 parse_point(const std::string& text, const std::string& field) {
  std::vector<double> v;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) {
    try {
      v.push_back(parse_finite(part, field));
    } catch (const InputError&) {
      throw InputError(field, fmt::format("\"{}\" is not a number (expected x,y or x,y,z)", part));
    }
  }
  if (v.size() != 2 && v.size() != 3) throw InputError(field, fmt::format("expected x,y or x,y,z, got \"{}\"", text));
  return {v[0], v[1], v.size() == 3 ? v[2] : std::numeric_limits<double>::quiet_NaN()};
}

}  // namespace referee::cli
