#include "dice_sequences.hpp"

#include <limits>
#include <memory>
#include <numeric>

namespace referee::chance_detail {

namespace {

// Plays back a fixed prefix of faces; the first die beyond it stops the run
// and reports how many sides it has.
class PrefixDice final : public Dice {
 public:
  explicit PrefixDice(const std::vector<int>& prefix) : prefix_(prefix) {}
  struct Beyond {
    int sides;
  };

 protected:
  int draw(int sides, const std::string&) override {
    if (next_ < prefix_.size()) return prefix_[next_++];
    throw Beyond{sides};
  }

 private:
  const std::vector<int>& prefix_;
  std::size_t next_ = 0;
};

}  // namespace

std::optional<std::string> for_each_dice_sequence(const GameState& state, const Json& action, const std::string& path,
                                                  std::size_t max_sequences, bool describe,
                                                  const std::function<void(const DiceSequence&)>& visit) {
  const std::string too_many = "more than " + std::to_string(max_sequences) + " sequences of die faces";
  std::vector<int> prefix;
  std::vector<int> sides_at;  // sides of the die at each prefix position
  std::size_t runs = 0, sequences = 0;
  // Depth-first over face sequences, in lexicographic order.
  for (;;) {
    if (++runs > 4 * max_sequences) return too_many;
    std::unique_ptr<GameState> probe = state.clone();
    PrefixDice dice(prefix);
    bool complete = true;
    try {
      const Outcome o = probe->apply(action, dice, path, describe);
      if (++sequences > max_sequences) return too_many;
      // The product cannot overflow: each die was admitted below only while it fitted.
      std::int64_t weight = 1;
      for (std::size_t i = 0; i < prefix.size(); ++i) weight *= sides_at[i];
      visit(DiceSequence{prefix, sides_at, weight, o});
    } catch (const PrefixDice::Beyond& b) {
      // A sequence of dice whose sample space no longer fits in 64 bits (a
      // Combat phase may roll forty dice; 6^25 does not fit) is too many to
      // enumerate: the caller states the chances its own way.
      std::int64_t space = 1;
      for (int sides : sides_at) space *= sides;
      if (b.sides <= 0 || space > std::numeric_limits<std::int64_t>::max() / b.sides)
        return std::string("the sample space of its dice does not fit in 64 bits");
      prefix.push_back(1);
      sides_at.push_back(b.sides);
      complete = false;
    }
    if (complete) {
      // Next sequence: bump the last face that can go up, dropping the rest.
      while (!prefix.empty() && prefix.back() == sides_at.back()) {
        prefix.pop_back();
        sides_at.pop_back();
      }
      if (prefix.empty()) return std::nullopt;
      ++prefix.back();
    }
  }
}

std::optional<std::int64_t> common_denominator(const std::vector<std::int64_t>& weights) {
  std::int64_t denom = 1;
  for (std::int64_t w : weights) {
    const std::int64_t step = w / std::gcd(denom, w);
    if (denom > std::numeric_limits<std::int64_t>::max() / step) return std::nullopt;
    denom *= step;
  }
  return denom;
}

}  // namespace referee::chance_detail
