#include "referee/core/game.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "referee/core/errors.hpp"

namespace referee {

void GameRegistry::add(GameType type) {
  if (type.name.empty() || !type.load) throw std::logic_error("a game type needs a name and a loader");
  if (find(type.name)) throw std::logic_error("game type registered twice: " + type.name);
  types_.push_back(std::move(type));
}

const GameType* GameRegistry::find(std::string_view name) const {
  for (const GameType& t : types_)
    if (t.name == name) return &t;
  return nullptr;
}

const GameType& GameRegistry::at(std::string_view name, const std::string& field) const {
  if (const GameType* t = find(name)) return *t;
  std::string known;
  for (const GameType& t : types_) known += (known.empty() ? "" : ", ") + t.name;
  throw InputError(field, "unknown system \"" + std::string(name) + "\" (known: " + known + ")");
}

std::vector<std::string> GameRegistry::names() const {
  std::vector<std::string> out;
  for (const GameType& t : types_) out.push_back(t.name);
  return out;
}

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

std::int64_t gcd64(std::int64_t a, std::int64_t b) {
  while (b) {
    const std::int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

}  // namespace

std::string to_string(Information i) { return i == Information::perfect ? "perfect" : "imperfect"; }

std::string to_string(Chances::Kind k) {
  switch (k) {
    case Chances::Kind::NoDice: return "no dice";
    case Chances::Kind::Outcomes: return "outcomes";
    case Chances::Kind::NotEnumerable: return "not enumerable";
  }
  return "?";
}

Chances enumerate_chance(const GameState& state, const Json& action,
                         const std::function<std::string(const Outcome&)>& label, const std::string& path,
                         std::size_t max_leaves) {
  if (!state.validate(action, path).legal()) return Chances::no_dice();
  const auto too_many = [&] {
    return Chances::not_enumerable("more than " + std::to_string(max_leaves) + " sequences of die faces");
  };
  struct Leaf {
    std::string label;
    std::int64_t weight;  // 1 / weight is its chance
  };
  std::vector<Leaf> leaves;
  std::vector<int> prefix;
  std::vector<int> sides_at;  // sides of the die at each prefix position
  std::size_t runs = 0;
  // Depth-first over face sequences, in lexicographic order.
  for (;;) {
    if (++runs > 4 * max_leaves) return too_many();
    std::unique_ptr<GameState> probe = state.clone();
    PrefixDice dice(prefix);
    bool complete = true;
    try {
      const Outcome o = probe->apply(action, dice, path);
      // The product cannot overflow: each die was admitted below only while it fitted.
      std::int64_t weight = 1;
      for (std::size_t i = 0; i < prefix.size(); ++i) weight *= sides_at[i];
      leaves.push_back({label(o), weight});
      if (leaves.size() > max_leaves) return too_many();
    } catch (const PrefixDice::Beyond& b) {
      // A sequence of dice whose sample space no longer fits in 64 bits (a
      // Combat phase may roll forty dice; 6^25 does not fit) is too many to
      // enumerate: the caller states the chances its own way.
      std::int64_t space = 1;
      for (int sides : sides_at) space *= sides;
      if (b.sides <= 0 || space > std::numeric_limits<std::int64_t>::max() / b.sides)
        return Chances::not_enumerable("the sample space of its dice does not fit in 64 bits");
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
      if (prefix.empty()) break;
      ++prefix.back();
    }
  }
  if (leaves.size() == 1 && leaves[0].weight == 1) return Chances::no_dice();
  std::int64_t denom = 1;
  for (const Leaf& l : leaves) {
    const std::int64_t step = l.weight / gcd64(denom, l.weight);
    if (denom > std::numeric_limits<std::int64_t>::max() / step)
      return Chances::not_enumerable("no common denominator of its chances fits in 64 bits");
    denom *= step;
  }
  std::vector<ChanceOutcome> out;
  for (const Leaf& l : leaves) {
    auto it = std::find_if(out.begin(), out.end(), [&](const ChanceOutcome& c) { return c.label == l.label; });
    if (it == out.end()) {
      out.push_back({l.label, {0, denom}, Json::object()});
      it = out.end() - 1;
    }
    it->chance.successes += denom / l.weight;
  }
  return Chances::of(std::move(out));
}

Json game_result(bool over, std::optional<int> winner, const std::string& reason) {
  return {{"over", over}, {"winner", winner ? Json(*winner) : Json(nullptr)}, {"reason", reason}};
}

Json to_json_value(const ChanceOutcome& c) {
  Json j{{"label", c.label}, {"chance", c.chance}};
  if (!c.detail.empty()) j["detail"] = c.detail;
  return j;
}

Json to_json_value(const QueryInfo& q) { return {{"name", q.name}, {"summary", q.summary}, {"args", q.args}}; }


}  // namespace referee
