// What each player may know of the command cards: the deal shuffled with the
// dice (docs/rulings.md#ancients-deal), a player's view of the state and of a
// log entry (docs/rulings.md#ancients-hidden-cards), and a game through the
// interface whose deal replays from its log.
#include <gtest/gtest.h>

#include <string>

#include "../support/input_error.hpp"
#include "referee/ancients/game_interface.hpp"
#include "referee/core/dice.hpp"
#include "referee/core/files.hpp"
#include "referee/core/match.hpp"
#include "test_support.hpp"

namespace referee::ancients {
namespace hidden_cards_test {

using namespace testing;
using test_support::error_of;

// Side 0 lists hand [a b] and deck [c d]; side 1 hand [e] and deck [f g].
nlohmann::json small_battle(const std::string& deal) {
  nlohmann::json j = battle_json({unit("u0", "medium_infantry", 0, 6, 6), unit("u1", "medium_infantry", 1, 6, 2)});
  j["players"] = {{{"hand", {"order-one-left", "order-one-center"}}, {"deck", {"order-one-right", "order-two-left"}}},
                  {{"hand", {"order-two-center"}}, {"deck", {"order-two-right", "order-three-left"}}}};
  if (!deal.empty()) j["deal"] = deal;
  return j;
}

std::vector<std::string> ids(const Battle& b, const std::vector<CardIndex>& cards) {
  std::vector<std::string> out;
  for (const CardIndex c : cards) out.push_back(card_id(b, c));
  return out;
}

TEST(AncientsDeal, AsListedRollsNothingAndKeepsTheFilesOrder) {
  const Battle b = parse_battle(small_battle(""), "test");
  EXPECT_EQ(b.deal, Deal::as_listed);
  ScriptedDice dice({});
  const AncientsState s = AncientsState::dealt(b, dice);
  EXPECT_TRUE(dice.history().empty());
  EXPECT_EQ(ids(b, s.hands[0]), (std::vector<std::string>{"order-one-left", "order-one-center"}));
  EXPECT_EQ(ids(b, s.decks[1]), (std::vector<std::string>{"order-two-right", "order-three-left"}));
}

TEST(AncientsDeal, ShuffledDealsEachSidesCardsWithTheFisherYatesDice) {
  const Battle b = parse_battle(small_battle("shuffled"), "test");
  // Side 0's four cards a b c d: a d4 (1: swap card 3 with card 0) gives
  // d b c a, a d3 (2: swap card 2 with card 1) d c b a, a d2 (2: card 1
  // stays); the hand is the front two, d c, the deck b a. Side 1's three
  // cards e f g: a d3 (3: card 2 stays), a d2 (1: swap card 1 with card 0)
  // gives f e g; the hand f, the deck e g.
  ScriptedDice dice({1, 2, 2, 3, 1});
  const AncientsState s = AncientsState::dealt(b, dice);
  EXPECT_EQ(dice.remaining(), 0u);
  ASSERT_EQ(dice.history().size(), 5u);
  EXPECT_EQ(dice.history()[0].sides, 4);
  EXPECT_EQ(dice.history()[3].sides, 3);
  for (const Roll& r : dice.history()) EXPECT_EQ(r.purpose, "deal");
  EXPECT_EQ(ids(b, s.hands[0]), (std::vector<std::string>{"order-two-left", "order-one-right"}));
  EXPECT_EQ(ids(b, s.decks[0]), (std::vector<std::string>{"order-one-center", "order-one-left"}));
  EXPECT_EQ(ids(b, s.hands[1]), (std::vector<std::string>{"order-two-right"}));
  EXPECT_EQ(ids(b, s.decks[1]), (std::vector<std::string>{"order-two-center", "order-three-left"}));
}

TEST(AncientsDeal, TheFieldAndTheSettingAreReadStrictly) {
  nlohmann::json j = small_battle("");
  j["deal"] = "random";
  EXPECT_EQ(error_of([&] { parse_battle(j, "b.json"); }),
            "deal: unknown value \"random\" (expected one of: as_listed, shuffled)");
  const nlohmann::json bad{{"deal", "cut"}};
  EXPECT_EQ(error_of([&] { load_game(small_battle(""), "b.json", bad); }),
            "settings.deal: unknown value \"cut\" (expected one of: as_listed, shuffled)");
  EXPECT_EQ(error_of([&] { load_game(small_battle(""), "b.json", {{"turns", 3}}); }),
            "settings.turns: unknown field (expected one of: deal)");
  // The setting overrides the battle's, and the scenario the game carries
  // (what a log keeps) says which deal is in force.
  const auto game = load_game(small_battle("shuffled"), "b.json", {{"deal", "as_listed"}});
  EXPECT_EQ(game->scenario().at("deal"), "as_listed");
  SeededDice dice(5);
  (void)game->new_initial_state(dice);
  EXPECT_TRUE(dice.history().empty());
}

TEST(AncientsHiddenCards, APlayerSeesTheirHandAndCountsOfTheRest) {
  const auto game = load_game(small_battle(""), "b.json", nlohmann::json::object());
  const auto state = game->new_initial_state();
  EXPECT_EQ(game->information(), Information::imperfect);
  const Json mine = state->view(0);
  EXPECT_EQ(mine.at("hands")[0], (Json{"order-one-left", "order-one-center"}));
  EXPECT_TRUE(mine.at("hands")[1].is_null());
  EXPECT_EQ(mine.at("decks"), (Json{nullptr, nullptr}));
  EXPECT_EQ(mine.at("hand_sizes"), (Json{2, 1}));
  EXPECT_EQ(mine.at("deck_sizes"), (Json{2, 2}));
  EXPECT_EQ(mine.at("hidden"), (Json{"hands[1]", "decks[0]", "decks[1]"}));
  const Json theirs = state->view(1);
  EXPECT_TRUE(theirs.at("hands")[0].is_null());
  EXPECT_EQ(theirs.at("hands")[1], (Json{"order-two-center"}));
  const Json watcher = state->view(kSpectator);
  EXPECT_EQ(watcher.at("hands"), (Json{nullptr, nullptr}));
  EXPECT_EQ(watcher.at("hidden"), (Json{"hands[0]", "hands[1]", "decks[0]", "decks[1]"}));
  // Everything else is the whole state's.
  Json whole = state->to_json();
  for (const char* key : {"units", "leaders", "discards", "banners", "side", "turn", "phase"})
    EXPECT_EQ(mine.at(key), whole.at(key)) << key;
}

TEST(AncientsHiddenCards, ADrawIsItsDrawersAndAReshufflesDiceAreNobodys) {
  const Json entry = {{"seq", 9},
                      {"action", {{"type", "end_movement"}}},
                      {"rolls", {{{"die", "d3"}, {"value", 2}, {"for", "reshuffle"}}, {{"die", "d2"}, {"value", 1}, {"for", "reshuffle"}}}},
                      {"result", {{"side", 0}, {"card", "order-one-left"}, {"drew", "order-two-left"}, {"next_side", 1},
                                  {"reshuffled", {{"rule", "ancients.card.reshuffle"}, {"cards", 3}}}}}};
  const auto game = load_game(small_battle(""), "b.json", nlohmann::json::object());
  const Json drawer = game->entry_view(entry, 0);
  EXPECT_EQ(drawer.at("result").at("drew"), "order-two-left");
  EXPECT_FALSE(drawer.at("result").contains("drew_hidden"));
  for (const Json& roll : drawer.at("rolls")) EXPECT_TRUE(roll.at("value").is_null());
  const Json other = game->entry_view(entry, 1);
  EXPECT_TRUE(other.at("result").at("drew").is_null());
  EXPECT_EQ(other.at("result").at("drew_hidden"), true);
  EXPECT_EQ(other.at("result").at("card"), "order-one-left");  // the card played is seen by all
  EXPECT_TRUE(game->entry_view(entry, kSpectator).at("result").at("drew").is_null());
  // A draw nested in a skipped turn is hidden too; a battle's dice are seen.
  const Json skipped = {{"seq", 3},
                        {"action", {{"type", "play_card"}, {"card", "order-one-left"}}},
                        {"rolls", {{{"die", "d6"}, {"value", 5}, {"for", "battle"}}}},
                        {"result", {{"turn_skipped", {{"side", 1}, {"drew", "order-two-right"}}}}}};
  const Json seen = game->entry_view(skipped, 0);
  EXPECT_TRUE(seen.at("result").at("turn_skipped").at("drew").is_null());
  EXPECT_EQ(seen.at("rolls")[0].at("value"), 5);
}

// A game made through Match deals with its dice: the log's header keeps the
// deal's rolls, a replay deals the same hands, and a log whose deal was
// changed is refused naming start_rolls.
TEST(AncientsDeal, AMatchDealsWithItsDiceAndItsLogReplaysTheDeal) {
  const std::string file = std::string(REFEREE_SOURCE_DIR) + "/scenarios/ancients/centre_clash.json";
  const Json battle = load_json_file(file);
  ASSERT_EQ(battle.at("deal"), "shuffled");
  GameRegistry registry;
  registry.add(game_type());
  const auto game = registry.at("ancients").load(battle, "centre_clash", Json::object());
  const Battle& b = *typed_context<System>(*game);
  const std::size_t cards0 = b.players[0].hand.size() + b.players[0].deck.size();
  const std::size_t cards1 = b.players[1].hand.size() + b.players[1].deck.size();
  Match a(game, DiceSource{11, std::nullopt}, "centre_clash");
  Match c(game, DiceSource{12, std::nullopt}, "centre_clash");
  ASSERT_EQ(a.log().start_rolls.size(), cards0 - 1 + cards1 - 1);
  EXPECT_NE(a.state().to_json().at("hands"), c.state().to_json().at("hands"));
  EXPECT_EQ(a.state().to_json().at("hands")[0].size(), b.players[0].hand.size());
  // Play a few actions, then replay the log.
  Rng rng(3);
  for (int i = 0; i < 12; ++i) a.play(*a.state().sample_action(rng));
  const GameLog log = GameLog::parse_jsonl(a.log().to_jsonl(), "game.log");
  EXPECT_EQ(log.start_rolls, a.log().start_rolls);
  const Match again = Match::replay(registry, log, "game.log");
  EXPECT_EQ(again.state().to_json(), a.state().to_json());
  GameLog changed = log;
  changed.start_rolls[0].value = changed.start_rolls[0].value == 1 ? 2 : 1;
  EXPECT_NE(error_of([&] { Match::replay(registry, changed, "game.log"); }).find("game.log line 1.start_rolls: roll 1 differs"),
            std::string::npos);
  GameLog withheld = log;
  withheld.start_rolls_withheld = true;
  EXPECT_EQ(GameLog::parse_jsonl(withheld.to_jsonl(), "w.log").start_rolls_withheld, true);
  EXPECT_NE(error_of([&] { Match::replay(registry, withheld, "w.log"); }).find("w.log line 1.start_rolls: "),
            std::string::npos);
}

}  // namespace hidden_cards_test
}  // namespace referee::ancients
