// The built-in opponent (opponent.hpp): legal actions only, games played to
// their end on every bundled battle, a clear margin over the random player,
// and the obvious best attack taken.
#include <gtest/gtest.h>

#include <array>

#include "referee/ancients/battle.hpp"
#include "referee/ancients/game_interface.hpp"
#include "referee/ancients/opponent.hpp"
#include "referee/core/dice.hpp"
#include "referee/core/files.hpp"
#include "test_support.hpp"

namespace referee::ancients {
namespace {

using namespace testing;

std::string bundled_file(const std::string& name) {
  return std::string(REFEREE_SOURCE_DIR) + "/scenarios/ancients/" + name + ".json";
}

// Every bundled battle, the empty board included (it ends when the cards run out).
const std::array<const char*, 4> kBattles{"centre_clash", "lines_engaged", "river_crossing", "empty_board"};

// The opponent against the random player, every action checked against the
// rules before it is applied, until the game ends.
TEST(AncientsOpponent, PlaysOnlyLegalActionsToTheEndOfEveryBundledBattle) {
  for (const char* name : kBattles) {
    const Battle b = load_battle(bundled_file(name));
    for (int g = 0; g < 6; ++g) {
      AncientsState s = AncientsState::initial(b);
      SeededDice dice(100 + static_cast<std::uint64_t>(g));
      Rng rng[2] = {Rng(7 + static_cast<std::uint64_t>(g)), Rng(70 + static_cast<std::uint64_t>(g))};
      const int me = g % 2;
      int actions = 0, mine = 0;
      while (!game_over(b, s) && actions < 5000) {
        const int p = acting_side(b, s);
        const std::optional<Action> a = p == me ? opponent_action(b, s, rng[p]) : random_action(b, s, rng[p]);
        ASSERT_TRUE(a.has_value()) << name << " game " << g;
        const Verdict v = validate(b, s, *a);
        ASSERT_TRUE(v.legal()) << name << " game " << g << ": " << action_json(b, *a).dump();
        do_apply(b, s, *a, dice, false);
        ++actions;
        mine += p == me;
      }
      EXPECT_TRUE(game_over(b, s)) << name << " game " << g;
      if (!game_over(b, AncientsState::initial(b))) {
        EXPECT_GT(mine, 0) << name;
      }
      Rng rng2(1);
      EXPECT_FALSE(opponent_action(b, s, rng2).has_value()) << "nothing once the game is over";
    }
  }
}

// The same Rng gives the same choice: the opponent is deterministic given it.
TEST(AncientsOpponent, IsDeterministicGivenItsRng) {
  const Battle b = load_battle(bundled_file("centre_clash"));
  AncientsState s1 = AncientsState::initial(b), s2 = s1;
  SeededDice d1(5), d2(5);
  Rng r1(3), r2(3);
  for (int i = 0; i < 200 && !game_over(b, s1); ++i) {
    const Action a1 = *opponent_action(b, s1, r1), a2 = *opponent_action(b, s2, r2);
    ASSERT_EQ(a1, a2) << "action " << i;
    do_apply(b, s1, a1, d1, false);
    do_apply(b, s2, a2, d2, false);
  }
}

// A small seeded arena through the game interface (GameType::opponent, as
// `referee ancients arena` plays it): 20 games a side, held to the issue's
// bar of 90% (18 of 20). Measured, with the discards reshuffled
// (docs/rulings.md#ancients-reshuffle): the opponent won 20 of 20 on every
// battle and side but lines engaged as side 1 (19, the random player won
// one game of the 120).
TEST(AncientsOpponent, BeatsTheRandomPlayerClearlyInASeededArena) {
  const GameType type = game_type();
  ASSERT_TRUE(type.opponent);
  for (const auto& [name, at_least] :
       {std::pair<const char*, int>{"centre_clash", 18}, {"lines_engaged", 18}, {"river_crossing", 18}}) {
    const std::shared_ptr<const Game> game = type.load(load_json_file(bundled_file(name)), name, Json::object());
    for (int me = 0; me < 2; ++me) {
      int won = 0, lost = 0;
      for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        SeededDice dice(seed * 1000 + static_cast<std::uint64_t>(me));
        Rng rng[2] = {Rng(seed * 7 + 1), Rng(seed * 7 + 2)};
        std::unique_ptr<GameState> s = game->new_initial_state();
        while (!s->is_terminal()) {
          const int p = s->current_player();
          const std::optional<Json> a = p == me ? type.opponent(*s, rng[p]) : s->sample_action(rng[p]);
          ASSERT_TRUE(a.has_value());
          ASSERT_TRUE(s->apply(*a, dice, "action", false).applied()) << a->dump();
        }
        const Json r = s->result();
        if (!r["winner"].is_null()) (r["winner"].get<int>() == me ? won : lost) += 1;
      }
      EXPECT_GE(won, at_least) << name << " side " << me;
      EXPECT_LE(lost, 2) << name << " side " << me;
    }
  }
}

nlohmann::json with_blocks(nlohmann::json u, int n) {
  u["blocks"] = n;
  return u;
}

// Side 0 needs one more banner. Its heavy infantry can battle a full light
// infantry unit or a heavy infantry unit down to its last block: the
// opponent takes the elimination that wins.
TEST(AncientsOpponent, TakesTheAttackThatWinsTheLastBanner) {
  nlohmann::json j = battle_json({unit("a1", "heavy_infantry", 0, 2, 5), unit("a2", "heavy_infantry", 0, 8, 5),
                                  unit("t1", "light_infantry", 1, 2, 4),
                                  with_blocks(unit("t2", "heavy_infantry", 1, 8, 4), 1)});
  j["victory_banners"] = 2;
  const Battle b = parse_battle(j, "test");
  AncientsState s = AncientsState::initial(b);
  s.phase = Phase::battle;
  s.card = b.find_card("order-three-center");
  for (const char* id : {"a1", "a2"}) {
    const int u = b.find_unit(id);
    s.orders.push_back({false, u});
    s.position.units[static_cast<std::size_t>(u)].ordered = true;
  }
  s.banners[0] = 1;
  const int a1 = b.find_unit("a1"), a2 = b.find_unit("a2"), t1 = b.find_unit("t1"), t2 = b.find_unit("t2");
  ASSERT_TRUE(b.board.adjacent(s.position.units[static_cast<std::size_t>(a1)].hex, s.position.units[static_cast<std::size_t>(t1)].hex));
  ASSERT_TRUE(b.board.adjacent(s.position.units[static_cast<std::size_t>(a2)].hex, s.position.units[static_cast<std::size_t>(t2)].hex));
  // 5 dice, 2 faces of 6 hit heavy infantry: 1 - (4/6)^5 = 0.868 to eliminate
  // it at once, worth the game; the light infantry's 4 blocks rarely all go.
  EXPECT_GT(attack_value(b, s, a2, t2, true), 0.868);
  EXPECT_LT(attack_value(b, s, a1, t1, true), 0.5);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    Rng rng(seed);
    const std::optional<Action> a = opponent_action(b, s, rng);
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(a->type, Action::Type::battle);
    EXPECT_EQ(a->piece.index, a2);
    EXPECT_EQ(a->target, t2);
  }
}

}  // namespace
}  // namespace referee::ancients
