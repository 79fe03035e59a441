#include "cli_values.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "referee/core/errors.hpp"

namespace referee::cli {

double parse_finite(const std::string& text, const std::string& field) {
  // strtod rather than a stream: it reads "nan" and "inf", which are then refused by name.
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  double d = std::strtod(begin, &end);
  if (text.empty() || end != begin + text.size() || text.find_first_of(" \t\n") != std::string::npos)
    throw InputError(field, fmt::format("\"{}\" is not a number", text));
  if (!std::isfinite(d) || errno == ERANGE)
    throw InputError(field, fmt::format("\"{}\" is not a finite number", text));
  return d;
}

Pose parse_pose(const std::string& text, const std::string& field, double limit) {
  std::stringstream in(text);
  double v[3];
  char comma = 0;
  const std::string expected = "expected x,y,facing (cm, cm, degrees), not \"" + text + "\"";
  if (!(in >> v[0] >> comma) || comma != ',' || !(in >> v[1] >> comma) || comma != ',' || !(in >> v[2]))
    throw InputError(field, expected);
  in >> std::ws;
  if (!in.eof()) throw InputError(field, expected);
  for (double x : v)
    if (!std::isfinite(x) || std::abs(x) > limit) throw InputError(field, "not a sane number in \"" + text + "\"");
  return {{v[0], v[1]}, v[2]};
}

std::uint64_t parse_seed(const std::string& text, const std::string& field) {
  const std::string problem =
      fmt::format("expected a whole number from 0 to {}, got \"{}\"", std::numeric_limits<std::uint64_t>::max(), text);
  if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos)
    throw InputError(field, problem);
  errno = 0;
  unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE) throw InputError(field, problem);
  return static_cast<std::uint64_t>(v);
}

}  // namespace referee::cli
