// All randomness in referee goes through Dice. The generator is our own
// (xoshiro256** seeded by splitmix64) and integers are drawn by rejection, so
// the same seed gives the same rolls with every compiler and standard library.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace referee {

// SplitMix64's mixing of one number (the step that seeds Rng): neighbouring
// numbers give unrelated ones, so seeds derived from a master seed are too.
std::uint64_t mix_seed(std::uint64_t x);

// xoshiro256**: small, fast, and fully specified, so results never depend on
// the platform. State is four words, cheap to copy with a game state.
class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0);
  std::uint64_t next();
  // Uniform integer in [0, bound) without modulo bias (threshold
  // rejection). bound must be > 0.
  std::uint64_t below(std::uint64_t bound);
  bool operator==(const Rng&) const = default;
  std::array<std::uint64_t, 4> state() const { return s_; }
  void set_state(const std::array<std::uint64_t, 4>& s) { s_ = s; }

 private:
  std::array<std::uint64_t, 4> s_{};
};

struct Roll {
  int sides = 6;
  int value = 1;
  std::string purpose;  // e.g. "order test", "off-table", "injury"
  bool operator==(const Roll&) const = default;
};

void to_json(nlohmann::json& j, const Roll& r);
void from_json(const nlohmann::json& j, Roll& r);

// The one dice interface. Every roll is recorded so a ruling or a log entry
// can show it. Implementations: seeded (play) and scripted (tests, replays of
// physical dice rolled at a real table).
class Dice {
 public:
  virtual ~Dice() = default;
  // One die with `sides` faces, 1..sides.
  int roll(int sides, const std::string& purpose = {});
  int d6(const std::string& purpose = {}) { return roll(6, purpose); }
  int d20(const std::string& purpose = {}) { return roll(20, purpose); }
  // Sum of n dice; each die is recorded.
  int roll_sum(int n, int sides, const std::string& purpose = {});

  const std::vector<Roll>& history() const { return history_; }
  // Rolls made since `mark` (an earlier history().size()).
  std::vector<Roll> since(std::size_t mark) const;

 protected:
  virtual int draw(int sides, const std::string& purpose) = 0;

 private:
  std::vector<Roll> history_;
};

class SeededDice final : public Dice {
 public:
  explicit SeededDice(std::uint64_t seed) : seed_(seed), rng_(seed) {}
  std::uint64_t seed() const { return seed_; }
  const Rng& rng() const { return rng_; }

 protected:
  int draw(int sides, const std::string& purpose) override;

 private:
  std::uint64_t seed_;
  Rng rng_;
};

// Plays back a fixed list of values. Throws ScriptError when the script runs
// out or a value does not fit the die asked for, so a test cannot silently
// consume a wrong roll.
class ScriptedDice final : public Dice {
 public:
  explicit ScriptedDice(std::vector<int> values) : values_(values.begin(), values.end()) {}
  void push(int value) { values_.push_back(value); }
  std::size_t remaining() const { return values_.size(); }

 protected:
  int draw(int sides, const std::string& purpose) override;

 private:
  std::deque<int> values_;
};

}  // namespace referee
