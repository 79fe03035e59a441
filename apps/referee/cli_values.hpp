// The command line's own value parsers: the text of one option in, a value or
// an InputError naming the option out. Kept apart from CLI11 so that a fuzz
// target (fuzz/cli_values_fuzz.cpp) can call them directly. A system's own values are
// parsed in apps/referee/systems/<system>_values.hpp.
#pragma once

#include <cstdint>
#include <string>

#include "referee/core/geometry.hpp"

namespace referee::cli {

// "x,y,facing" in cm, cm and degrees, each finite and within `limit`.
Pose parse_pose(const std::string& text, const std::string& field, double limit);
// A dice seed: a whole number from 0 to 18446744073709551615, digits only, so
// that "-1" or "1e29" is refused rather than wrapped or rounded.
std::uint64_t parse_seed(const std::string& text, const std::string& field);
// A finite decimal number (no NaN, no infinity).
double parse_finite(const std::string& text, const std::string& field);

}  // namespace referee::cli
