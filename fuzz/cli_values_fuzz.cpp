// Fuzzes the command line's own value parsers (--to x,y[,z], --to x,y,facing,
// COL,ROW, --seed, finite numbers): any text gives a value or an InputError,
// and every value given is finite and reads back as written.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ancients_values.hpp"
#include "blightmeer_values.hpp"
#include "cli_values.hpp"
#include "referee/core/errors.hpp"

using namespace referee;
using namespace referee::cli;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)parse_col_row(text, "--to");
  } catch (const InputError&) {
  }
  try {
    const blightmeer::Vec3 p = parse_point(text, "--to");
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) std::abort();
  } catch (const InputError&) {
  }
  try {
    const Pose p = parse_pose(text, "--to", 10000);
    if (!std::isfinite(p.position.x) || std::abs(p.facing_deg) > 10000) std::abort();
  } catch (const InputError&) {
  }
  try {
    const std::uint64_t seed = parse_seed(text, "--seed");
    // Digits only: the number printed again is the text less its leading zeros.
    const std::size_t first = text.find_first_not_of('0');
    if (std::to_string(seed) != (first == std::string::npos ? "0" : text.substr(first))) std::abort();
  } catch (const InputError&) {
  }
  try {
    if (!std::isfinite(parse_finite(text, "--distance"))) std::abort();
  } catch (const InputError&) {
  }
  return 0;
}
