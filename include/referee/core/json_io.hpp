// Reading JSON input with the path of every field, so each error names the
// item and the problem ("armies[1].units[0].stands[2].x: not a finite number").
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/core/errors.hpp"
#include "referee/core/files.hpp"
#include "referee/core/geometry.hpp"

namespace referee {

using Json = nlohmann::json;

// The deepest nesting of arrays and objects accepted in any input. A real
// battle, action list or log line nests fewer than ten levels; the limit only
// keeps a hostile file from overflowing the stack, since nlohmann::json copies
// and prints values recursively (docs/input-limits.md).
inline constexpr std::size_t kMaxJsonDepth = 256;

// Parses text; a syntax error becomes an InputError naming the source, line and
// column. Text nested deeper than `max_depth` is refused before any value is
// built, with the line where it goes too deep.
Json parse_json_text(std::string_view text, const std::string& source_name, std::size_t max_depth = kMaxJsonDepth);
// Reads (read_text_file: a regular file of at most `max_bytes`) and parses a
// file; every problem is an InputError naming the path.
Json load_json_file(const std::string& path, std::uint64_t max_bytes = kDefaultMaxInputBytes);

// The depth of the deepest array or object in `text` (brackets inside strings do
// not count), stopping once it passes `limit`; `line` gets the line (from 1) where
// the depth first went past it.
std::size_t json_nesting_depth(std::string_view text, std::size_t limit, std::size_t* line = nullptr);

// The error `e`, naming `source` (a file) first unless it already does:
// "armies: missing field" read from default.json becomes
// "default.json: armies: missing field".
InputError in_source(const std::string& source, const InputError& e);

// Runs `read` and names `source` in any InputError it throws.
template <class F>
auto naming_source(const std::string& source, F&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const InputError& e) {
    throw in_source(source, e);
  }
}

// A read-only view of one JSON node and its path. Cheap to copy.
class JsonReader {
 public:
  JsonReader(const Json& j, std::string path) : j_(&j), path_(std::move(path)) {}

  const Json& json() const { return *j_; }
  const std::string& path() const { return path_; }
  std::string path_of(std::string_view key) const;

  [[noreturn]] void fail(const std::string& problem) const { throw InputError(path_, problem); }
  [[noreturn]] void fail(std::string_view key, const std::string& problem) const {
    throw InputError(path_of(key), problem);
  }

  JsonReader& require_object();
  JsonReader& require_array();
  // Unknown keys are errors: a typo such as "facng" must not be silently ignored.
  void allow_only(std::initializer_list<std::string_view> keys) const;

  bool has(std::string_view key) const;
  JsonReader at(std::string_view key) const;  // required
  std::optional<JsonReader> find(std::string_view key) const;
  std::size_t size() const;                   // array length
  JsonReader at(std::size_t index) const;
  std::vector<JsonReader> items() const;      // array elements
  std::vector<JsonReader> items(std::string_view key) const;  // required array field

  // Numbers must be finite; `lo`/`hi` bound them (inclusive).
  double number(std::string_view key, double lo = -1e9, double hi = 1e9) const;
  double number_or(std::string_view key, double fallback, double lo = -1e9, double hi = 1e9) const;
  double as_number(double lo = -1e9, double hi = 1e9) const;
  int integer(std::string_view key, int lo = -1000000000, int hi = 1000000000) const;
  int integer_or(std::string_view key, int fallback, int lo = -1000000000, int hi = 1000000000) const;
  int as_integer(int lo = -1000000000, int hi = 1000000000) const;
  std::string string(std::string_view key) const;
  std::string string_or(std::string_view key, std::string fallback) const;
  std::string as_string() const;
  // An id: a non-empty string without control characters, since ids are
  // printed in answers, logs and SVG pictures (XML allows no control characters).
  std::string id(std::string_view key) const;
  bool boolean_or(std::string_view key, bool fallback) const;
  // A string that must be one of `names`; the error lists them.
  std::string one_of(std::string_view key, const std::vector<std::string>& names) const;
  std::string one_of_or(std::string_view key, const std::vector<std::string>& names, std::string fallback) const;
  // {"x": .., "y": ..} or [x, y]
  Vec2 vec2(double limit = 1e6) const;

 private:
  const Json* j_;
  std::string path_;
};

}  // namespace referee
