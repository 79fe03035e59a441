#include "referee/core/dice.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"

namespace referee {

std::uint64_t mix_seed(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

namespace {
// The SplitMix64 generator: each call mixes the next number of its sequence.
std::uint64_t splitmix64(std::uint64_t& x) {
  const std::uint64_t z = mix_seed(x);
  x += 0x9e3779b97f4a7c15ULL;
  return z;
}
std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

Rng::Rng(std::uint64_t seed) {
  for (auto& w : s_) w = splitmix64(seed);
}

std::uint64_t Rng::next() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t Rng::below(std::uint64_t bound) {
  // Reject the lowest (2^64 mod bound) values: what remains is a whole number
  // of copies of [0, bound), so the modulo is unbiased on every platform.
  const std::uint64_t threshold = (0 - bound) % bound;
  for (;;) {
    std::uint64_t r = next();
    if (r >= threshold) return r % bound;
  }
}

void to_json(nlohmann::json& j, const Roll& r) {
  // fmt rather than "d" + std::to_string(): GCC 12 at -O3 reports a false
  // -Wrestrict inside libstdc++ for that concatenation.
  j = nlohmann::json{{"die", fmt::format("d{}", r.sides)}, {"value", r.value}};
  if (!r.purpose.empty()) j["for"] = r.purpose;
}

// Read with JsonReader, so bad JSON is an InputError naming the field, never a
// nlohmann exception (an internal error at the command line).
void from_json(const nlohmann::json& j, Roll& r) {
  JsonReader in(j, "");
  in.require_object();
  std::string die = in.string("die");
  if (die.size() < 2 || die.size() > 4 || die[0] != 'd' || die.find_first_not_of("0123456789", 1) != std::string::npos)
    in.fail("die", "expected a die such as \"d6\", got \"" + die + "\"");
  r.sides = std::stoi(die.substr(1));
  if (r.sides < 2) in.fail("die", "a die needs at least 2 sides");
  r.value = in.integer("value", 1, r.sides);
  r.purpose = in.string_or("for", "");
}

int Dice::roll(int sides, const std::string& purpose) {
  if (sides < 2) throw std::invalid_argument("a die needs at least 2 sides");
  int v = draw(sides, purpose);
  history_.push_back({sides, v, purpose});
  return v;
}

int Dice::roll_sum(int n, int sides, const std::string& purpose) {
  int total = 0;
  for (int i = 0; i < n; ++i) total += roll(sides, purpose);
  return total;
}

std::vector<Roll> Dice::since(std::size_t mark) const {
  if (mark >= history_.size()) return {};
  return {history_.begin() + static_cast<std::ptrdiff_t>(mark), history_.end()};
}

int SeededDice::draw(int sides, const std::string&) {
  return static_cast<int>(rng_.below(static_cast<std::uint64_t>(sides))) + 1;
}

int ScriptedDice::draw(int sides, const std::string& purpose) {
  std::string what = purpose.empty() ? "a d" + std::to_string(sides) : "a d" + std::to_string(sides) + " for " + purpose;
  if (values_.empty()) throw ScriptError("the dice script ran out when the engine asked for " + what);
  int v = values_.front();
  if (v < 1 || v > sides)
    throw ScriptError("the dice script gave " + std::to_string(v) + " when the engine asked for " + what);
  values_.pop_front();
  return v;
}

}  // namespace referee
