#include "referee/core/json_io.hpp"

#include <charconv>
#include <cmath>
#include <fmt/format.h>

#include "referee/core/files.hpp"

namespace referee {

namespace {
std::string type_name(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::discarded: return "nothing";
    default: return "a number";
  }
}

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
  return s;
}
}  // namespace

std::size_t json_nesting_depth(std::string_view text, std::size_t limit, std::size_t* line) {
  std::size_t depth = 0, deepest = 0, line_no = 1;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (c == '\n') ++line_no;
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '[':
      case '{':
        if (++depth > deepest) {
          deepest = depth;
          if (deepest > limit) {
            if (line) *line = line_no;
            return deepest;
          }
        }
        break;
      case ']':
      case '}':
        // Unbalanced closers are the parser's to report.
        if (depth > 0) --depth;
        break;
      default: break;
    }
  }
  return deepest;
}

InputError in_source(const std::string& source, const InputError& e) {
  const std::string& f = e.field();
  if (source.empty()) return e;
  if (f.size() >= source.size() && f.compare(0, source.size(), source) == 0 &&
      (f.size() == source.size() || std::string_view(" :.[").find(f[source.size()]) != std::string_view::npos))
    return e;
  return InputError(f.empty() ? source : source + ": " + f, e.problem());
}

Json parse_json_text(std::string_view text, const std::string& source_name, std::size_t max_depth) {
  // Counted before parsing: nlohmann::json copies, compares and prints values
  // recursively, so a value nested tens of thousands deep overflows the stack
  // in whatever touches it next.
  std::size_t line = 0;
  if (json_nesting_depth(text, max_depth, &line) > max_depth)
    throw InputError(source_name, fmt::format("nested deeper than {} levels{} (the limit for any input)", max_depth,
                                              text.find('\n') == std::string_view::npos ? std::string()
                                                                                      : fmt::format(" at line {}", line)));
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    // nlohmann reports a byte offset; turn it into line and column for people.
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    std::string what = e.what();
    auto pos = what.find("syntax error");
    throw InputError(source_name, fmt::format("not valid JSON at line {}, column {}: {}", line, col,
                                              pos == std::string::npos ? what : what.substr(pos)));
  } catch (const Json::exception& e) {
    // e.g. "number overflow parsing '1e400'" (out_of_range, not parse_error).
    std::string what = e.what();
    auto pos = what.find("] ");
    throw InputError(source_name, "not valid JSON: " + (pos == std::string::npos ? what : what.substr(pos + 2)));
  }
}

Json load_json_file(const std::string& path, std::uint64_t max_bytes) {
  return parse_json_text(read_text_file(path, max_bytes), path);
}

std::string JsonReader::path_of(std::string_view key) const {
  if (path_.empty()) return std::string(key);
  std::string path;
  path.reserve(path_.size() + 1 + key.size());
  path.append(path_).append(1, '.').append(key);
  return path;
}

JsonReader& JsonReader::require_object() {
  if (!j_->is_object()) fail("expected an object, got " + type_name(*j_));
  return *this;
}

JsonReader& JsonReader::require_array() {
  if (!j_->is_array()) fail("expected an array, got " + type_name(*j_));
  return *this;
}

void JsonReader::allow_only(std::initializer_list<std::string_view> keys) const {
  if (!j_->is_object()) fail("expected an object, got " + type_name(*j_));
  for (auto it = j_->begin(); it != j_->end(); ++it) {
    bool known = false;
    for (auto k : keys) known = known || it.key() == k;
    if (!known) {
      std::vector<std::string> names(keys.begin(), keys.end());
      fail(it.key(), "unknown field (expected one of: " + join(names) + ")");
    }
  }
}

bool JsonReader::has(std::string_view key) const { return j_->is_object() && j_->contains(key); }

JsonReader JsonReader::at(std::string_view key) const {
  if (!j_->is_object()) fail("expected an object, got " + type_name(*j_));
  auto it = j_->find(key);
  if (it == j_->end()) fail(key, "missing field");
  return {*it, path_of(key)};
}

std::optional<JsonReader> JsonReader::find(std::string_view key) const {
  if (!j_->is_object()) fail("expected an object, got " + type_name(*j_));
  auto it = j_->find(key);
  if (it == j_->end() || it->is_null()) return std::nullopt;
  return JsonReader{*it, path_of(key)};
}

std::size_t JsonReader::size() const {
  if (!j_->is_array()) fail("expected an array, got " + type_name(*j_));
  return j_->size();
}

JsonReader JsonReader::at(std::size_t index) const {
  if (index >= size()) fail(fmt::format("has no element {}", index));
  // The path as fmt would write "{}[{}]", without its formatting machinery:
  // a move's hex is read by index on every action applied.
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, index).ptr;
  std::string path;
  path.reserve(path_.size() + static_cast<std::size_t>(end - digits) + 2);
  path.append(path_).append(1, '[').append(digits, end).append(1, ']');
  return {(*j_)[index], std::move(path)};
}

std::vector<JsonReader> JsonReader::items() const {
  std::vector<JsonReader> out;
  std::size_t n = size();
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(at(i));
  return out;
}

std::vector<JsonReader> JsonReader::items(std::string_view key) const { return at(key).items(); }

double JsonReader::as_number(double lo, double hi) const {
  if (!j_->is_number()) fail("expected a number, got " + type_name(*j_));
  double v = j_->get<double>();
  if (!std::isfinite(v)) fail("not a finite number");
  if (v < lo || v > hi) fail(fmt::format("{:g} is out of range [{:g}, {:g}]", v, lo, hi));
  return v;
}

double JsonReader::number(std::string_view key, double lo, double hi) const { return at(key).as_number(lo, hi); }

double JsonReader::number_or(std::string_view key, double fallback, double lo, double hi) const {
  auto f = find(key);
  return f ? f->as_number(lo, hi) : fallback;
}

int JsonReader::as_integer(int lo, int hi) const {
  if (!j_->is_number_integer() && !(j_->is_number() && std::floor(j_->get<double>()) == j_->get<double>()))
    fail("expected a whole number, got " + (j_->is_number() ? fmt::format("{}", j_->get<double>()) : type_name(*j_)));
  double v = j_->get<double>();
  if (!std::isfinite(v) || v < lo || v > hi) fail(fmt::format("{:g} is out of range [{}, {}]", v, lo, hi));
  return static_cast<int>(v);
}

int JsonReader::integer(std::string_view key, int lo, int hi) const { return at(key).as_integer(lo, hi); }

int JsonReader::integer_or(std::string_view key, int fallback, int lo, int hi) const {
  auto f = find(key);
  return f ? f->as_integer(lo, hi) : fallback;
}

std::string JsonReader::as_string() const {
  if (!j_->is_string()) fail("expected a string, got " + type_name(*j_));
  return j_->get<std::string>();
}

std::string JsonReader::string(std::string_view key) const { return at(key).as_string(); }

std::string JsonReader::id(std::string_view key) const {
  JsonReader f = at(key);
  std::string v = f.as_string();
  if (v.empty()) f.fail("must not be empty");
  for (char c : v) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f)
      f.fail(fmt::format("contains the control character U+{:04X}; ids are printed in answers and pictures", u));
  }
  return v;
}

std::string JsonReader::string_or(std::string_view key, std::string fallback) const {
  auto f = find(key);
  return f ? f->as_string() : fallback;
}

bool JsonReader::boolean_or(std::string_view key, bool fallback) const {
  auto f = find(key);
  if (!f) return fallback;
  if (!f->json().is_boolean()) f->fail("expected true or false, got " + type_name(f->json()));
  return f->json().get<bool>();
}

std::string JsonReader::one_of(std::string_view key, const std::vector<std::string>& names) const {
  JsonReader f = at(key);
  std::string v = f.as_string();
  for (const auto& n : names)
    if (n == v) return v;
  f.fail("unknown value \"" + v + "\" (expected one of: " + join(names) + ")");
}

std::string JsonReader::one_of_or(std::string_view key, const std::vector<std::string>& names,
                                  std::string fallback) const {
  return has(key) && !j_->at(key).is_null() ? one_of(key, names) : fallback;
}

Vec2 JsonReader::vec2(double limit) const {
  if (j_->is_array()) {
    if (j_->size() != 2) fail(fmt::format("expected [x, y], got {} values", j_->size()));
    return {at(std::size_t{0}).as_number(-limit, limit), at(std::size_t{1}).as_number(-limit, limit)};
  }
  JsonReader self = *this;
  self.require_object();
  return {number("x", -limit, limit), number("y", -limit, limit)};
}

}  // namespace referee
