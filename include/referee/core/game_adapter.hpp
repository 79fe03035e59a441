// The one adapter from a system's typed API to the game interface
// (game.hpp): SystemState and SystemGame implement every override once, over
// a `System` description, so the three systems differ only in what is theirs.
//
// The apply contract, as OpenSpiel's ApplyAction and DoApplyAction: apply()
// parses the action once, checks it once (System::check) and, when it is
// legal, hands the checked action to System::do_apply, which trusts it and
// never checks again. A refused action rolls nothing, leaves the state as it
// was, and its Outcome carries the verdict and a null result.
//
// What a System provides (static members; `C` is its Context, `S` its State):
//   using Context, State, Action, Checked;  Checked has a `Verdict verdict`
//   static constexpr std::string_view name;
//   players(const C&) -> std::vector<std::string>
//   initial(const std::shared_ptr<const C>&) -> S
//   from_json(const std::shared_ptr<const C>&, const Json&, path) -> S
//   to_json(const C&, const S&) -> Json
//   side(const C&, const S&), turn(const S&) -> int;  phase(const S&) -> std::string
//   over(const C&, const S&) -> bool;  result(const C&, const S&) -> Json (once over)
//   parse(const C&, const S&, const Json&, path) -> Action   (InputError on bad input)
//   check(const C&, const S&, const Action&, bool describe) -> Checked
//   do_apply(const C&, S&, Checked&&, Dice&, bool describe) -> Json (a legal action)
//   legal(const C&, const S&) -> std::vector<Action>;  action_json(const C&, const Action&) -> Json
//   sample(const C&, const S&, Rng&) -> std::optional<Json>
//   chances(const GameState&, const C&, const S&, const Action&, const Json& action, path) -> Chances
//   query(const C&, const S&, name, args, path) -> Json
//   queries() -> std::vector<QueryInfo>;  rules() -> std::span<const RuleInfo>
//   static constexpr Information information;   said by every system
// and, under Information::imperfect only (the adapter answers the whole
// state and entry to every viewer of a perfect-information system):
//   view(const C&, const S&, int viewer) -> Json
//   entry_view(const C&, const Json& entry, int viewer) -> Json
// and, for a system whose start may be dealt at random:
//   initial(const std::shared_ptr<const C>&, Dice&) -> S
//
// The list above is the concept RuleSystem below, which the compiler checks:
// each system's game_interface.hpp asserts it of its System, so a member
// missing or of the wrong type is an error naming the requirement, not a
// page of template errors at the first use.
//
// Threads: a SystemGame is immutable and may be shared by threads; each
// SystemState belongs to one thread at a time (clone it for another).
#pragma once

#include <concepts>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "referee/core/game.hpp"

namespace referee {

// What a rule system provides to the adapter (the list at the top).
template <class S>
concept RuleSystem =
    requires(const typename S::Context& c, typename S::State& state, const typename S::State& s,
             const std::shared_ptr<const typename S::Context>& shared, const Json& j, const std::string& path,
             const typename S::Action& a, typename S::Checked&& checked, Dice& dice, Rng& rng, bool describe,
             const GameState& self) {
      { S::name } -> std::convertible_to<std::string_view>;
      { S::information } -> std::convertible_to<Information>;
      { S::players(c) } -> std::same_as<std::vector<std::string>>;
      { S::initial(shared) } -> std::same_as<typename S::State>;
      { S::from_json(shared, j, path) } -> std::same_as<typename S::State>;
      { S::to_json(c, s) } -> std::same_as<Json>;
      { S::side(c, s) } -> std::convertible_to<int>;
      { S::turn(s) } -> std::convertible_to<int>;
      { S::phase(s) } -> std::convertible_to<std::string>;
      { S::over(c, s) } -> std::convertible_to<bool>;
      { S::result(c, s) } -> std::same_as<Json>;
      { S::parse(c, s, j, path) } -> std::same_as<typename S::Action>;
      { S::check(c, s, a, describe) } -> std::same_as<typename S::Checked>;
      { S::check(c, s, a, describe).verdict } -> std::convertible_to<Verdict>;
      { S::do_apply(c, state, std::move(checked), dice, describe) } -> std::same_as<Json>;
      { S::legal(c, s) } -> std::same_as<std::vector<typename S::Action>>;
      { S::action_json(c, a) } -> std::same_as<Json>;
      { S::sample(c, s, rng) } -> std::same_as<std::optional<Json>>;
      { S::chances(self, c, s, a, j, path) } -> std::same_as<Chances>;
      { S::query(c, s, path, j, path) } -> std::same_as<Json>;
      { S::queries() } -> std::same_as<std::vector<QueryInfo>>;
      { S::rules() } -> std::same_as<std::span<const RuleInfo>>;
    } &&
    // What a viewer may know: said by a system that hides part of the game.
    (S::information == Information::perfect ||
     requires(const typename S::Context& c, const typename S::State& s, const Json& j, int viewer) {
       { S::view(c, s, viewer) } -> std::same_as<Json>;
       { S::entry_view(c, j, viewer) } -> std::same_as<Json>;
     });

template <RuleSystem System>
class SystemState final : public GameState {
 public:
  using Context = typename System::Context;
  using State = typename System::State;

  SystemState(std::shared_ptr<const Context> c, State s) : c_(std::move(c)), s_(std::move(s)) {}
  const State& typed() const { return s_; }
  const Context& context() const { return *c_; }

  std::unique_ptr<GameState> clone() const override { return std::make_unique<SystemState>(*this); }
  Json to_json() const override { return System::to_json(*c_, s_); }
  Json view(int viewer) const override {
    if constexpr (System::information == Information::perfect) {
      (void)viewer;
      return System::to_json(*c_, s_);
    } else {
      return System::view(*c_, s_, viewer);
    }
  }
  int current_player() const override { return System::over(*c_, s_) ? -1 : System::side(*c_, s_); }
  int turn() const override { return System::turn(s_); }
  std::string phase() const override { return System::phase(s_); }
  bool is_terminal() const override { return System::over(*c_, s_); }
  Json result() const override {
    if (!System::over(*c_, s_)) return game_result(false, std::nullopt, "");
    return System::result(*c_, s_);
  }

  Verdict validate(const Json& action, const std::string& path) const override {
    return System::check(*c_, s_, System::parse(*c_, s_, action, path), true).verdict;
  }

  Outcome apply(const Json& action, Dice& dice, const std::string& path, bool describe) override {
    auto checked = System::check(*c_, s_, System::parse(*c_, s_, action, path), describe);
    Outcome out;
    if (!checked.verdict.legal()) {
      out.verdict = std::move(checked.verdict);
      return out;
    }
    const std::size_t mark = dice.history().size();
    out.result = System::do_apply(*c_, s_, std::move(checked), dice, describe);
    out.rolls = dice.since(mark);
    return out;
  }

  std::vector<Json> legal_actions() const override {
    std::vector<Json> out;
    for (const auto& a : System::legal(*c_, s_)) out.push_back(System::action_json(*c_, a));
    return out;
  }
  std::optional<Json> sample_action(Rng& rng) const override {
    if (System::over(*c_, s_)) return std::nullopt;
    return System::sample(*c_, s_, rng);
  }
  Chances chance_outcomes(const Json& action, const std::string& path) const override {
    return System::chances(*this, *c_, s_, System::parse(*c_, s_, action, path), action, path);
  }
  Json query(const std::string& name, const Json& args, const std::string& path) const override {
    return System::query(*c_, s_, name, args, path);
  }

 private:
  std::shared_ptr<const Context> c_;
  State s_;
};

template <RuleSystem System>
class SystemGame final : public Game {
 public:
  using Context = typename System::Context;

  SystemGame(std::shared_ptr<const Context> c, Json scenario) : c_(std::move(c)), scenario_(std::move(scenario)) {}
  const Context& context() const { return *c_; }

  std::string system() const override { return std::string(System::name); }
  std::vector<std::string> players() const override { return System::players(*c_); }
  const Json& scenario() const override { return scenario_; }
  std::unique_ptr<GameState> new_initial_state() const override {
    return std::make_unique<SystemState<System>>(c_, System::initial(c_));
  }
  std::unique_ptr<GameState> new_initial_state(Dice& dice) const override {
    if constexpr (requires { System::initial(c_, dice); })
      return std::make_unique<SystemState<System>>(c_, System::initial(c_, dice));
    else
      return new_initial_state();
  }
  Information information() const override { return System::information; }
  Json entry_view(const Json& entry, int viewer) const override {
    if constexpr (System::information == Information::perfect) {
      (void)viewer;
      return entry;
    } else {
      return System::entry_view(*c_, entry, viewer);
    }
  }
  std::unique_ptr<GameState> state_from_json(const Json& j, const std::string& path) const override {
    return std::make_unique<SystemState<System>>(c_, System::from_json(c_, j, path));
  }
  std::vector<QueryInfo> queries() const override { return System::queries(); }
  std::span<const RuleInfo> rules() const override { return System::rules(); }

 private:
  std::shared_ptr<const Context> c_;
  Json scenario_;
};

// The system's typed state behind an interface state, or null when the state
// belongs to another system.
template <RuleSystem System>
const typename System::State* typed_state(const GameState& s) {
  const auto* t = dynamic_cast<const SystemState<System>*>(&s);
  return t ? &t->typed() : nullptr;
}

// The system's loaded battle (its Context) behind a Game, or null.
template <RuleSystem System>
const typename System::Context* typed_context(const Game& g) {
  const auto* t = dynamic_cast<const SystemGame<System>*>(&g);
  return t ? &t->context() : nullptr;
}

}  // namespace referee
