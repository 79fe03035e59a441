// The turn engine: a golden playthrough diffed line by line, replay, and a
// random simulation of many legal turns that checks the invariants.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "referee/core/dice.hpp"
#include "referee/core/files.hpp"
#include "test_support.hpp"

namespace referee::ancients {
namespace {

using namespace testing;

std::string source(const std::string& rel) { return std::string(REFEREE_SOURCE_DIR) + "/" + rel; }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(AncientsGame, GoldenPlaythroughMatchesLineByLine) {
  const std::string scenario = "scenarios/ancients/centre_clash.json";
  nlohmann::json battle_json = listed_deal(load_json_file(source(scenario)));
  Battle b = parse_battle(battle_json, scenario);
  nlohmann::json actions = load_json_file(source("tests/ancients/data/golden_actions.json"));
  Playthrough run = play_actions(b, battle_json, actions, 7, scenario);
  std::string got = run.log.to_jsonl();
  const std::string golden_path = source("tests/ancients/data/golden_playthrough.jsonl");
  if (std::getenv("REFEREE_UPDATE_GOLDEN")) write_file_atomic(golden_path, got);
  auto want = lines_of(read_text_file(golden_path));
  auto have = lines_of(got);
  ASSERT_EQ(have.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(have[i], want[i]) << "line " << i + 1;
  // The worked example's outcome: Caesar rides with the heavy cavalry next to the warriors.
  EXPECT_EQ(run.state.position.leaders[0].attached, b.find_unit("a_hc1"));
}

TEST(AncientsGame, ReplayRebuildsTheSameStateAndRefusesATamperedLog) {
  const std::string scenario = "scenarios/ancients/centre_clash.json";
  nlohmann::json battle_json = listed_deal(load_json_file(source(scenario)));
  Battle b = parse_battle(battle_json, scenario);
  Playthrough run = play_actions(b, battle_json, load_json_file(source("tests/ancients/data/golden_actions.json")), 7, scenario);
  GameLog parsed = GameLog::parse_jsonl(run.log.to_jsonl(), "log");
  Battle rb;
  Playthrough again = replay_log(parsed, rb);
  EXPECT_EQ(state_json(rb, again.state), state_json(b, run.state));
  parsed.entries[2].result["hexes"] = 2;
  EXPECT_THROW(replay_log(parsed, rb), InputError);
}

TEST(AncientsGame, AnIllegalActionIsRefusedNamingIt) {
  const std::string scenario = "scenarios/ancients/centre_clash.json";
  nlohmann::json battle_json = listed_deal(load_json_file(source(scenario)));
  Battle b = parse_battle(battle_json, scenario);
  nlohmann::json actions = {{"actions",
                             {{{"type", "play_card"}, {"card", "order-three-center"}},
                              {{"type", "order"}, {"units", {"a_hi1"}}},
                              {{"type", "move"}, {"unit", "a_hi1"}, {"to", {6, 4}}}}}};
  try {
    play_actions(b, battle_json, actions, 1, scenario);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "actions[2]");
    EXPECT_NE(e.problem().find("ancients.movement.allowance"), std::string::npos) << e.problem();
  }
}

// Invariants of every reachable state.
void check_invariants(const Battle& b, const AncientsState& s) {
  const Position& p = s.position;
  int units_seen = 0, leaders_seen = 0;
  for (int h = 0; h < b.board.cell_count(); ++h) {
    int u = p.unit_on(h), l = p.leader_on(h);
    if (u >= 0) {
      ++units_seen;
      ASSERT_EQ(p.units[static_cast<std::size_t>(u)].hex, h);
      ASSERT_TRUE(b.board.valid_index(h));
    }
    if (l >= 0) {
      ++leaders_seen;
      ASSERT_EQ(p.leaders[static_cast<std::size_t>(l)].hex, h);
      if (u >= 0) {
        ASSERT_EQ(b.units[static_cast<std::size_t>(u)].side, b.leaders[static_cast<std::size_t>(l)].side);
      }
    }
  }
  // One unit per hex; only eliminated units (and killed or escaped leaders) are off the board.
  int units_on = 0, leaders_on = 0;
  for (const UnitState& u : p.units) {
    units_on += u.hex >= 0;
    ASSERT_EQ(u.hex < 0, u.blocks == 0);
  }
  for (const LeaderState& l : p.leaders) leaders_on += l.hex >= 0;
  ASSERT_EQ(units_seen, units_on);
  ASSERT_EQ(leaders_seen, leaders_on);
  ASSERT_EQ(static_cast<int>(b.units.size()) - units_on + static_cast<int>(b.leaders.size()) - leaders_on >=
                s.banners[0] + s.banners[1],
            true);  // every banner is a piece gone
  for (const LeaderState& l : p.leaders)
    if (l.attached >= 0) {
      ASSERT_EQ(p.units[static_cast<std::size_t>(l.attached)].hex, l.hex);
    }
}

// Plays random legal turns: random card, random orders that the card allows,
// random moves among the offered destinations. Every offered destination must
// validate, and random hexes that validate must have been offered.
int simulate(const std::string& scenario, std::uint64_t seed) {
  nlohmann::json battle_json = load_json_file(source(scenario));
  Battle b = parse_battle(battle_json, scenario);
  // The bundled battles deal at random: the deal's rolls go in the log's
  // header, and the replay deals the same hands and decks from them.
  SeededDice dice(seed);
  AncientsState s = AncientsState::dealt(b, dice);
  Rng rng(seed);
  GameLog log;
  log.system = "ancients";
  log.settings = {{"battle", battle_json}};
  log.start_rolls = dice.history();
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng.below(n)); };
  auto step = [&](const Action& a) {
    AncientsState before = s;
    Verdict v = validate(b, s, a);
    EXPECT_EQ(state_json(b, before), state_json(b, s));
    ASSERT_TRUE(v.legal()) << explain(v) << " " << action_json(b, a).dump();
    const std::size_t mark = dice.history().size();
    nlohmann::json result = apply(b, s, a, dice);
    log.append(action_json(b, a), dice.since(mark), result);
    SCOPED_TRACE(fmt::format("action {}: {} -> {}", log.entries.size(), action_json(b, a).dump(), result.dump()));
    check_invariants(b, s);
  };
  for (int turn = 0; turn < 40 && !game_over(b, s); ++turn) {
    auto& hand = s.hands[static_cast<std::size_t>(s.side)];
    if (hand.empty()) break;
    Action play;
    play.type = Action::Type::play_card;
    play.card = hand[pick(hand.size())];
    step(play);
    // Orders: try candidates in random order, keep those the card still allows.
    std::vector<OrderItem> cands;
    for (int u : s.plan.units) cands.push_back({false, u});
    for (int l : s.plan.leaders) cands.push_back({true, l});
    for (std::size_t i = cands.size(); i > 1; --i) std::swap(cands[i - 1], cands[pick(i)]);
    std::vector<OrderItem> chosen;
    for (const OrderItem& c : cands) {
      auto trial = chosen;
      trial.push_back(c);
      if (check_orders(b, s.position, s.plan, trial).legal()) chosen = trial;
    }
    if (!chosen.empty()) {
      Action order;
      order.type = Action::Type::order;
      order.items = chosen;
      step(order);
    }
    for (std::size_t i = chosen.size(); i > 1; --i) std::swap(chosen[i - 1], chosen[pick(i)]);
    for (const OrderItem& it : chosen) {
      PathScratch sc;
      std::vector<Destination> ds;
      if (it.leader) leader_destinations(b, s.position, it.index, sc, ds);
      else unit_destinations(b, s.position, it.index, s.plan.move, sc, ds);
      // Random probes: any hex that validates must be among the destinations.
      for (int probe = 0; probe < 4; ++probe) {
        Action a;
        a.type = Action::Type::move;
        a.piece = it;
        a.to = {static_cast<int>(rng.below(15)) - 1, static_cast<int>(rng.below(11)) - 1};
        if (validate(b, s, a).legal()) {
          int h = b.board.index(a.to);
          EXPECT_TRUE(find_dest(ds, h)) << "validated but not offered: " << format_hex(a.to);
        }
      }
      if (ds.empty() || pick(4) == 0) continue;  // an ordered piece need not move
      Action a;
      a.type = Action::Type::move;
      a.piece = it;
      a.to = b.board.col_row(ds[pick(ds.size())].hex);
      if (!validate(b, s, a).legal()) {
        // Offered destinations are legal whenever the order lets the piece move at all
        // (a detach refused by the card, or a unit stopped by a joining leader).
        Verdict v = validate(b, s, a);
        EXPECT_TRUE(v.has("ancients.leader.detach_card") || v.has("ancients.leader.detach_after_move") ||
                    v.has("ancients.leader.attach_stops") || v.has("ancients.order.once"))
            << explain(v);
        continue;
      }
      step(a);
    }
    if (s.phase == Phase::play_card) continue;  // the card ordered nothing: the turn was skipped
    Action end;
    end.type = Action::Type::end_movement;
    step(end);
    // Battles, chosen at random among the legal actions, until the turn passes.
    while (s.phase == Phase::battle && !game_over(b, s)) {
      const std::vector<Action> legal = legal_actions(b, s);
      step(legal[pick(legal.size())]);
    }
  }
  Battle rb;
  Playthrough again = replay_log(GameLog::parse_jsonl(log.to_jsonl(), "sim"), rb);
  EXPECT_EQ(state_json(rb, again.state), state_json(b, s));
  int moves = 0;
  for (const LogEntry& e : log.entries) moves += e.action.at("type") == "move";
  return moves;
}

// Eighty games in two shards (odd and even seeds), so that ctest can run
// them on both cores: under ASan the whole takes well over a minute.
class AncientsRandomSimShard : public ::testing::TestWithParam<int> {};

TEST_P(AncientsRandomSimShard, RandomSimulationKeepsInvariantsAndReplays) {
  int moves = 0;
  for (std::uint64_t seed = 1 + static_cast<std::uint64_t>(GetParam()); seed <= 40; seed += 2) {
    for (const char* scenario : {"scenarios/ancients/centre_clash.json", "scenarios/ancients/river_crossing.json"}) {
      SCOPED_TRACE(fmt::format("{}, seed {}", scenario, seed));
      moves += simulate(scenario, seed);
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_GT(moves, 400);  // the games really move pieces
  std::cout << "random simulation, shard " << GetParam() << ": " << moves << " moves\n";
}

INSTANTIATE_TEST_SUITE_P(Shards, AncientsRandomSimShard, ::testing::Values(0, 1));

}  // namespace
}  // namespace referee::ancients
