// The system contract of core/game_adapter.hpp is a concept the compiler
// checks: the three systems satisfy it (each header asserts so), and a
// description missing a member, or giving one of the wrong type, does not.
#include <gtest/gtest.h>

#include "referee/ancients/game_interface.hpp"
#include "referee/blightmeer/game_interface.hpp"
#include "referee/core/game_adapter.hpp"
#include "referee/warmaster/game_interface.hpp"

namespace referee {
namespace rule_system_concept_test {

// The smallest whole description: a counter that ends at 3.
struct Counter {
  struct Context {};
  using State = int;
  struct Action {};
  struct Checked {
    Action action;
    Verdict verdict;
  };
  static constexpr std::string_view name = "counter";
  static constexpr Information information = Information::perfect;
  static std::vector<std::string> players(const Context&) { return {"one", "two"}; }
  static State initial(const std::shared_ptr<const Context>&) { return 0; }
  static State from_json(const std::shared_ptr<const Context>&, const Json& j, const std::string&) { return j.get<int>(); }
  static Json to_json(const Context&, const State& s) { return s; }
  static int side(const Context&, const State& s) { return s % 2; }
  static int turn(const State& s) { return s + 1; }
  static std::string phase(const State&) { return "count"; }
  static bool over(const Context&, const State& s) { return s >= 3; }
  static Json result(const Context&, const State&) { return game_result(true, std::nullopt, "counted"); }
  static Action parse(const Context&, const State&, const Json&, const std::string&) { return {}; }
  static Checked check(const Context&, const State&, const Action& a, bool) { return {a, {}}; }
  static Json do_apply(const Context&, State& s, Checked&&, Dice&, bool) { return ++s; }
  static std::vector<Action> legal(const Context&, const State&) { return {Action{}}; }
  static Json action_json(const Context&, const Action&) { return Json::object(); }
  static std::optional<Json> sample(const Context&, const State&, Rng&) { return Json::object(); }
  static Chances chances(const GameState&, const Context&, const State&, const Action&, const Json&, const std::string&) {
    return Chances::no_dice();
  }
  static Json query(const Context&, const State&, const std::string&, const Json&, const std::string&) { return nullptr; }
  static std::vector<QueryInfo> queries() { return {}; }
  static std::span<const RuleInfo> rules() { return {}; }
};

// Hides something but says nothing of what a viewer sees.
struct SecretCounter : Counter {
  static constexpr Information information = Information::imperfect;
};
struct SaysItsViews : SecretCounter {
  static Json view(const Context&, const State& s, int) { return s; }
  static Json entry_view(const Context&, const Json& e, int) { return e; }
};
// Its do_apply answers an int, not JSON.
struct WrongApply : Counter {
  static int do_apply(const Context&, State& s, Checked&&, Dice&, bool) { return ++s; }
};
// No information said at all.
struct Silent {
  struct Context {};
  using State = int;
  struct Action {};
  struct Checked {
    Verdict verdict;
  };
};

static_assert(RuleSystem<warmaster::System>);
static_assert(RuleSystem<ancients::System>);
static_assert(RuleSystem<blightmeer::System>);
static_assert(RuleSystem<Counter>);
static_assert(!RuleSystem<SecretCounter>);
static_assert(RuleSystem<SaysItsViews>);
static_assert(!RuleSystem<WrongApply>);
static_assert(!RuleSystem<Silent>);

// The smallest system plays through the adapter as the real ones do.
TEST(RuleSystemConcept, TheSmallestDescriptionPlaysThroughTheAdapter) {
  SystemGame<Counter> game(std::make_shared<const Counter::Context>(), Json::object());
  auto state = game.new_initial_state();
  SeededDice dice(1);
  while (!state->is_terminal()) ASSERT_TRUE(state->apply(Json::object(), dice).applied());
  EXPECT_EQ(state->to_json(), 3);
  EXPECT_EQ(state->view(kSpectator), 3);
  EXPECT_EQ(state->result().at("reason"), "counted");
}

}  // namespace rule_system_concept_test
}  // namespace referee
