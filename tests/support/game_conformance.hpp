// The generic tests every registered system passes (OpenSpiel's
// RandomSimTest): random legal play with invariants after every action,
// validate never changing the state, clones independent, the state's JSON
// round trip, refusals leaving the state alone, chance outcomes summing to
// one, each action agreeing with its explicit chance step, and the game log
// replaying to the same state.
#pragma once

#include <functional>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "referee/core/chance_steps.hpp"
#include "referee/core/game.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/match.hpp"

namespace referee::conformance {

struct Options {
  int max_actions = 400;          // per game; a game may stop here before its end
  int legal_checked = 8;          // how many listed legal actions to validate after each action
  bool round_trip_every = true;   // state JSON round trip after every action (else every 10th)
  bool chance_steps = true;       // each action checked against its explicit chance step
  // Extra invariants of one system, run after every applied action.
  std::function<void(const GameState&)> invariant;
};

struct Stats {
  int actions = 0;
  int refusals_tested = 0;
  int chance_actions = 0;
  bool finished = false;
  Json result;  // the game's result where it stopped
  std::set<std::string> rules_seen;
};

inline std::set<std::string> rule_ids(const Game& g) {
  std::set<std::string> ids;
  for (const RuleInfo& r : g.rules()) ids.insert(std::string(r.id));
  return ids;
}

inline void expect_rules_known(const Verdict& v, const std::set<std::string>& known, Stats& st,
                               const std::string& where) {
  for (const Ruling& r : v.violations) {
    st.rules_seen.insert(r.rule);
    EXPECT_TRUE(known.count(r.rule)) << where << ": rule id " << r.rule << " is not in the catalogue";
    EXPECT_FALSE(r.reason.empty()) << where << ": " << r.rule << " has no reason";
  }
}

// The action just played, as an explicit chance step (chance_steps.hpp):
// declared on the state before it, its outcomes' chances sum to exactly one
// over one denominator, the rolls the match made are one of them, and
// resolving with that one gives the state, rolls and result the match got.
// `max_outcomes` bounds the work (an action with more is said to be
// unlistable, with a reason).
inline void expect_chance_step(const GameState& before, const Json& action, const Outcome& played,
                               const GameState& after, const std::string& where, std::size_t max_outcomes = 64) {
  const DeclaredAction d = declare(before, action, "action", max_outcomes);
  ASSERT_FALSE(d.refused()) << where << ": a played action declared as refused";
  if (d.kind == Chances::Kind::NotEnumerable) {
    EXPECT_FALSE(d.why.empty()) << where;
    return;
  }
  std::size_t k = 0;
  if (d.is_chance()) {
    const std::int64_t denom = d.outcomes.front().chance.outcomes;
    std::int64_t sum = 0;
    k = d.outcomes.size();
    for (std::size_t i = 0; i < d.outcomes.size(); ++i) {
      EXPECT_EQ(d.outcomes[i].chance.outcomes, denom) << where;
      sum += d.outcomes[i].chance.successes;
      if (d.outcomes[i].rolls == played.rolls) k = i;
    }
    EXPECT_EQ(sum, denom) << where << ": the declared chances of " << action.dump();
    ASSERT_LT(k, d.outcomes.size()) << where << ": the rolls played are no declared outcome of " << action.dump();
  } else {
    EXPECT_TRUE(played.rolls.empty()) << where << ": declared with no dice, but it rolled";
  }
  const Resolved r = resolve(before, d, k);
  EXPECT_EQ(r.outcome.rolls, played.rolls) << where;
  EXPECT_EQ(r.outcome.result, played.result) << where << ": resolving gave another result";
  EXPECT_EQ(r.state->to_json(), after.to_json()) << where << ": resolving gave another state";
}

// Plays one random game through a Match (so the log is the real one) and
// checks every property on the way. Returns what it saw.
inline Stats random_game(const GameRegistry& registry, std::shared_ptr<const Game> game, std::uint64_t seed,
                         const Options& o = {}) {
  Stats st;
  const std::set<std::string> known = rule_ids(*game);
  Match match(game, DiceSource{seed, std::nullopt}, "conformance");
  Rng rng(seed ^ 0x9e3779b97f4a7c15ull);
  for (int i = 0; i < o.max_actions; ++i) {
    const GameState& s = match.state();
    const std::string where = game->system() + " seed " + std::to_string(seed) + " action " + std::to_string(i);
    if (s.is_terminal()) {
      st.finished = true;
      st.result = s.result();
      EXPECT_EQ(s.current_player(), -1) << where;
      EXPECT_TRUE(s.result().at("over").get<bool>()) << where;
      EXPECT_FALSE(s.sample_action(rng).has_value()) << where << ": an action after the end";
      break;
    }
    EXPECT_GE(s.current_player(), 0) << where;
    EXPECT_LT(s.current_player(), static_cast<int>(game->players().size())) << where;
    const Json before = s.to_json();

    // Listed legal actions validate, and validating changes nothing.
    const std::vector<Json> legal = s.legal_actions();
    for (std::size_t k = 0; k < legal.size() && static_cast<int>(k) < o.legal_checked; ++k) {
      const std::size_t pick = legal.size() <= static_cast<std::size_t>(o.legal_checked) ? k : rng.below(legal.size());
      const Verdict v = s.validate(legal[pick]);
      EXPECT_TRUE(v.legal()) << where << ": listed action " << legal[pick].dump() << " refused: " << explain(v);
    }
    EXPECT_EQ(s.to_json(), before) << where << ": validate changed the state";

    std::optional<Json> a = s.sample_action(rng);
    if (!a) {
      ADD_FAILURE() << where << ": the game is not over but no action can be sampled";
      break;
    }
    const Verdict v = s.validate(*a);
    EXPECT_TRUE(v.legal()) << where << ": sampled action " << a->dump() << " refused: " << explain(v);
    EXPECT_EQ(s.to_json(), before) << where << ": validate changed the state";

    // Chance made explicit: outcomes are exclusive and sum to one.
    const Chances chances = s.chance_outcomes(*a);
    const std::vector<ChanceOutcome>& outcomes = chances.outcomes;
    EXPECT_EQ(chances.kind == Chances::Kind::Outcomes, !outcomes.empty()) << where << ": " << to_string(chances.kind);
    EXPECT_EQ(chances.kind == Chances::Kind::NotEnumerable, !chances.why.empty()) << where << ": a reason is given";
    if (!outcomes.empty()) {
      ++st.chance_actions;
      long double sum = 0;
      for (const ChanceOutcome& c : outcomes) {
        EXPECT_GE(c.chance.successes, 0) << where;
        EXPECT_GT(c.chance.outcomes, 0) << where;
        sum += static_cast<long double>(c.chance.successes) / static_cast<long double>(c.chance.outcomes);
      }
      EXPECT_NEAR(static_cast<double>(sum), 1.0, 1e-12) << where << ": chances of " << a->dump();
    }

    // A clone is independent of the state it came from.
    std::unique_ptr<GameState> copy = s.clone();
    const Outcome out = match.play(*a, where);
    EXPECT_TRUE(out.applied()) << where << ": " << explain(out.verdict);
    EXPECT_EQ(copy->to_json(), before) << where << ": applying changed a clone";
    expect_rules_known(out.verdict, known, st, where);
    ++st.actions;
    // (Not where the system already said its dice cannot be listed: a search
    // through every sequence up to the limit would only say so again.)
    if (o.chance_steps && out.applied() && chances.kind != Chances::Kind::NotEnumerable)
      expect_chance_step(*copy, *a, out, match.state(), where);

    const GameState& after = match.state();
    if (o.invariant) o.invariant(after);

    // The state's JSON resumes exactly.
    if (o.round_trip_every || i % 10 == 0) {
      const Json j = after.to_json();
      std::unique_ptr<GameState> back = game->state_from_json(j, "state");
      EXPECT_EQ(back->to_json(), j) << where << ": state JSON round trip";
      EXPECT_EQ(back->current_player(), after.current_player()) << where;
      EXPECT_EQ(back->is_terminal(), after.is_terminal()) << where;
      // What each viewer may know: the whole state under perfect
      // information; under imperfect, every part of the state still there
      // (what is hidden null, not gone), and each log entry keeps its
      // number and its action, which every viewer sees.
      const int players = static_cast<int>(game->players().size());
      const Json entry = match.log().entries.back().to_json();
      for (int viewer = kSpectator; viewer < players; ++viewer) {
        const Json seen = after.view(viewer);
        if (game->information() == Information::perfect) {
          EXPECT_EQ(seen, j) << where << ": a view of a game that hides nothing";
          EXPECT_EQ(game->entry_view(entry, viewer), entry) << where;
        } else {
          for (auto it = j.begin(); it != j.end(); ++it) EXPECT_TRUE(seen.contains(it.key())) << where << ": " << it.key();
        }
        const Json e = game->entry_view(entry, viewer);
        EXPECT_EQ(e.at("seq"), entry.at("seq")) << where;
        EXPECT_EQ(e.at("action"), entry.at("action")) << where;
      }
    }

    // The same action again is often illegal now (a unit moved, a card
    // played): then apply must refuse it, roll nothing and change nothing.
    const Verdict again = after.validate(*a);
    expect_rules_known(again, known, st, where + " (again)");
    if (!again.legal()) {
      std::unique_ptr<GameState> probe = after.clone();
      const Json j = probe->to_json();
      StreamDice dice(DiceSource{seed + 1, std::nullopt});
      const Outcome refused = probe->apply(*a, dice);
      EXPECT_FALSE(refused.applied()) << where << ": validate refused but apply applied";
      EXPECT_TRUE(refused.rolls.empty()) << where << ": a refused action rolled dice";
      EXPECT_TRUE(dice.history().empty()) << where << ": a refused action rolled dice";
      EXPECT_EQ(probe->to_json(), j) << where << ": a refused action changed the state";
      ++st.refusals_tested;
      // Now and then the refusal goes into the log too, so the replay below
      // checks refusals as well.
      if (i % 5 == 0) {
        const std::size_t entries = match.log().entries.size();
        const Outcome logged = match.play(*a, where + " (again)");
        EXPECT_FALSE(logged.applied()) << where;
        EXPECT_EQ(match.state().to_json(), j) << where << ": a refusal changed the match's state";
        EXPECT_EQ(match.log().entries.size(), entries + 1) << where << ": the refusal is not in the log";
        EXPECT_FALSE(match.log().entries.back().refused.is_null()) << where;
      }
    }
  }

  // Undo goes back, redo forward, to the same states.
  if (match.history_size() > 2) {
    const Json last = match.state().to_json();
    match.undo();
    match.undo();
    match.redo();
    match.redo();
    EXPECT_EQ(match.state().to_json(), last) << "undo and redo";
  }

  // The log replays to the same state, through its text form.
  const GameLog log = match.current_log();
  const std::string text = log.to_jsonl();
  const GameLog parsed = GameLog::parse_jsonl(text, "conformance.log");
  EXPECT_EQ(parsed.to_jsonl(), text) << "log text round trip";
  Match replayed = Match::replay(registry, parsed, "conformance.log");
  EXPECT_EQ(replayed.state().to_json(), match.state().to_json()) << "replay of the log";
  return st;
}

}  // namespace referee::conformance
