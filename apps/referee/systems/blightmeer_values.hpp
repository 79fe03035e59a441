// The Blightmeer command line's own values: the text of one option in, a
// value or an InputError naming the option out (fuzzed with the others in
// fuzz/cli_values_fuzz.cpp).
#pragma once

#include <string>

#include "referee/blightmeer/model.hpp"

namespace referee::cli {

// "x,y" or "x,y,z" in inches (z NaN when left out), every number finite.
blightmeer::Vec3 parse_point(const std::string& text, const std::string& field);

}  // namespace referee::cli
