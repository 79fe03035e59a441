// The typed game API around AncientsState: every legal action listed, and only
// those (checked by brute force over every card, piece and hex); the state
// in JSON read back exactly and playing on as the original; the end of the
// game by turn limit or, without the reshuffle, when a player's cards run
// out (docs/rulings.md#ancients-game-end); the reshuffle of the discards
// (docs/rulings.md#ancients-reshuffle).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <set>

#include <fmt/format.h>

#include "../support/input_error.hpp"
#include "referee/ancients/game_interface.hpp"
#include "referee/core/dice.hpp"
#include "test_support.hpp"

namespace referee::ancients {
namespace ancients_state_test {

using namespace testing;

std::string scenario_path(const std::string& name) {
  return std::string(REFEREE_SOURCE_DIR) + "/scenarios/ancients/" + name;
}

const std::vector<std::string> kScenarios = {"centre_clash.json", "river_crossing.json", "empty_board.json",
                                             "lines_engaged.json"};

std::vector<std::string> dumps(const Battle& b, const std::vector<Action>& actions) {
  std::vector<std::string> out;
  for (const Action& a : actions) out.push_back(action_json(b, a).dump());
  return out;
}

// Every action of the kinds legal_actions lists (orders of one piece), for
// every card, unit, leader and hex on the board: the ones validate accepts.
std::set<std::string> brute_force_legal(const Battle& b, const AncientsState& s) {
  std::set<std::string> out;
  auto consider = [&](const Action& a) {
    if (validate(b, s, a).legal()) out.insert(action_json(b, a).dump());
  };
  for (std::size_t c = 0; c < b.cards.size(); ++c) {
    Action a;
    a.type = Action::Type::play_card;
    a.card = static_cast<int>(c);
    consider(a);
  }
  std::vector<OrderItem> pieces;
  for (std::size_t u = 0; u < b.units.size(); ++u) pieces.push_back({false, static_cast<int>(u)});
  for (std::size_t l = 0; l < b.leaders.size(); ++l) pieces.push_back({true, static_cast<int>(l)});
  for (const OrderItem& it : pieces) {
    Action order;
    order.type = Action::Type::order;
    order.items = {it};
    consider(order);
    for (int h = 0; h < b.board.cell_count(); ++h) {
      if (!b.board.valid_index(h)) continue;
      Action move;
      move.type = Action::Type::move;
      move.piece = it;
      move.to = b.board.col_row(h);
      consider(move);
    }
  }
  for (Action::Type t : {Action::Type::end_movement, Action::Type::end_battle, Action::Type::stand, Action::Type::advance,
                         Action::Type::hold}) {
    Action a;
    a.type = t;
    consider(a);
  }
  // Battles of every unit at every unit and every leader.
  for (std::size_t u = 0; u < b.units.size(); ++u)
    for (std::size_t t = 0; t < b.units.size() + b.leaders.size(); ++t) {
      Action a;
      a.type = Action::Type::battle;
      a.piece = {false, static_cast<int>(u)};
      a.target_leader = t >= b.units.size();
      a.target = static_cast<int>(a.target_leader ? t - b.units.size() : t);
      consider(a);
    }
  for (int h = 0; h < b.board.cell_count(); ++h) {
    if (!b.board.valid_index(h)) continue;
    for (Action::Type t : {Action::Type::evade, Action::Type::retreat}) {
      Action a;
      a.type = t;
      a.to = b.board.col_row(h);
      consider(a);
    }
  }
  return out;
}

void expect_listed_exactly(const Battle& b, const AncientsState& s) {
  const std::vector<std::string> listed = dumps(b, legal_actions(b, s));
  const std::set<std::string> unique(listed.begin(), listed.end());
  ASSERT_EQ(unique.size(), listed.size()) << "an action is listed twice";
  for (const Action& a : legal_actions(b, s)) ASSERT_TRUE(validate(b, s, a).legal()) << action_json(b, a).dump();
  const std::set<std::string> brute = brute_force_legal(b, s);
  for (const std::string& a : brute) EXPECT_TRUE(unique.count(a)) << "legal but not listed: " << a;
  for (const std::string& a : unique) EXPECT_TRUE(brute.count(a)) << "listed but refused: " << a;
}

void expect_round_trip(const Battle& b, const AncientsState& s) {
  const nlohmann::json j = state_json(b, s);
  const AncientsState back = state_from_json(b, j, "state");
  ASSERT_TRUE(back == s) << j.dump();
  ASSERT_EQ(state_json(b, back), j);
  ASSERT_TRUE(state_from_json(b, parse_json_text(j.dump(), "state"), "state") == s);
}

// A uniformly random legal action; false once the game is over. Without
// `battles`, the battle phase is ended at once wherever the rules allow
// (a charging warrior's close combat is compulsory).
bool random_step(const Battle& b, AncientsState& s, Rng& rng, Dice& dice, bool battles = true) {
  const std::vector<Action> legal = legal_actions(b, s);
  if (legal.empty()) return false;
  Action a = legal[static_cast<std::size_t>(rng.below(legal.size()))];
  if (!battles && legal.back().type == Action::Type::end_battle) a = legal.back();
  apply(b, s, a, dice);
  return true;
}

TEST(AncientsLegalActions, ListedExactlyOnTheBundledScenariosAndThroughRandomGames) {
  int states = 0, orders = 0, moves = 0;
  for (const std::string& name : kScenarios) {
    const Battle b = load_battle(scenario_path(name));
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      AncientsState s = AncientsState::initial(b);
      Rng rng(seed);
      SeededDice dice(seed);
      do {
        expect_listed_exactly(b, s);
        ++states;
        for (const Action& a : legal_actions(b, s)) {
          orders += a.type == Action::Type::order;
          moves += a.type == Action::Type::move;
        }
        if (HasFailure()) return;
      } while (random_step(b, s, rng, dice));
      EXPECT_TRUE(game_over(b, s)) << name;
    }
  }
  EXPECT_GT(states, 600);
  EXPECT_GT(orders, 500);
  EXPECT_GT(moves, 2000);
  std::cout << "legal actions checked by brute force in " << states << " states\n";
}

TEST(AncientsLegalActions, OrdersOneAtATimeReachEverySetTheCardAllows) {
  // The Leadership card: the leader first, then each linked unit.
  const Battle b = make_battle({unit("a", "medium_infantry", 0, 6, 6), unit("b", "medium_infantry", 0, 7, 6),
                                unit("c", "medium_infantry", 0, 8, 6), unit("far", "medium_infantry", 0, 1, 6),
                                unit("enemy", "medium_infantry", 1, 6, 2)},
                               {{{"id", "L"}, {"side", 0}, {"attached_to", "a"}}});
  AncientsState s = AncientsState::initial(b);
  apply(b, s, parse_action({{"type", "play_card"}, {"card", "leadership-any-section"}}, b, "action"));
  std::vector<std::string> listed = dumps(b, legal_actions(b, s));
  // Only the leader may be ordered first: a unit alone has no leader to be ordered through.
  EXPECT_EQ(std::count(listed.begin(), listed.end(), R"({"leaders":["L"],"type":"order"})"), 1);
  EXPECT_EQ(std::count_if(listed.begin(), listed.end(), [](const std::string& a) { return a.find("order") != std::string::npos; }), 1);
  apply(b, s, parse_action({{"type", "order"}, {"leaders", {"L"}}}, b, "action"));
  listed = dumps(b, legal_actions(b, s));
  EXPECT_EQ(std::count(listed.begin(), listed.end(), R"({"type":"order","units":["b"]})"), 1);
  EXPECT_EQ(std::count(listed.begin(), listed.end(), R"({"type":"order","units":["c"]})"), 0);  // not linked yet
  EXPECT_EQ(std::count(listed.begin(), listed.end(), R"({"type":"order","units":["far"]})"), 0);
  apply(b, s, parse_action({{"type", "order"}, {"units", {"b"}}}, b, "action"));
  listed = dumps(b, legal_actions(b, s));
  EXPECT_EQ(std::count(listed.begin(), listed.end(), R"({"type":"order","units":["c"]})"), 1);  // linked through b
  // Once a piece moves, no more orders are listed.
  Action move;
  for (const Action& a : legal_actions(b, s))
    if (a.type == Action::Type::move) move = a;
  ASSERT_EQ(move.type, Action::Type::move);
  apply(b, s, move);
  for (const Action& a : legal_actions(b, s)) EXPECT_NE(a.type, Action::Type::order);
}

// --- the end of the game -----------------------------------------------------------

// A bundled scenario with the old reading of an empty deck: no reshuffle.
Battle without_reshuffle(const std::string& name) {
  nlohmann::json j = load_json_file(scenario_path(name));
  j["exhausted_deck"] = "no_reshuffle";
  return parse_battle(j, name);
}

TEST(AncientsGameEnd, TheGameEndsWhenThePlayerToPlayHasNoCardLeft) {
  // Under "no_reshuffle" (docs/rulings.md#ancients-reshuffle).
  // Centre clash: 5 cards in hand and 8 in the deck each, one played and one
  // drawn a turn, side 0 first: side 0's 14th turn (turn 27) has no card.
  // River crossing: 4 + 5 each, side 1 first: turn 19 is side 1's 10th.
  struct Case {
    const char* name;
    int over_at_turn;
    int side;
    const char* army;  // the side's name, as the reason gives it
  };
  for (const Case& c : {Case{"centre_clash.json", 27, 0, "Rome"}, Case{"river_crossing.json", 19, 1, "Cimbri"}}) {
    const Battle b = without_reshuffle(c.name);
    EXPECT_EQ(b.exhausted_deck, ExhaustedDeck::no_reshuffle);
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      AncientsState s = AncientsState::initial(b);
      Rng rng(seed);
      SeededDice dice(seed);
      int actions = 0;
      while (random_step(b, s, rng, dice, false)) ASSERT_LT(++actions, 5000);
      EXPECT_EQ(s.turn, c.over_at_turn) << c.name;
      EXPECT_EQ(s.side, c.side) << c.name;
      EXPECT_EQ(game_over_reason(b, s), fmt::format("{} has no command card left to play", c.army));
      EXPECT_TRUE(s.hands[static_cast<std::size_t>(c.side)].empty());
      EXPECT_TRUE(s.decks[0].empty() && s.decks[1].empty());
      Action end;
      end.type = Action::Type::end_movement;
      EXPECT_TRUE(validate(b, s, end).has("ancients.game.over"));
    }
  }
}

// --- the reshuffle (docs/rulings.md#ancients-reshuffle) ------------------------

TEST(AncientsReshuffle, TheDefaultReshufflesSoTheHandNeverShrinksAndTheTurnLimitEndsTheGame) {
  // The same random games as above, under the default: every draw is made,
  // so each player holds a full hand at every card play, and the game goes on
  // past the old end (turn 27 or 19) to the turn limit (40).
  for (const char* name : {"centre_clash.json", "river_crossing.json"}) {
    const Battle b = load_battle(scenario_path(name));
    EXPECT_EQ(b.exhausted_deck, ExhaustedDeck::reshuffle);
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      AncientsState s = AncientsState::initial(b);
      Rng rng(seed);
      SeededDice dice(seed);
      int actions = 0, reshuffles = 0;
      while (!game_over(b, s)) {
        if (s.phase == Phase::play_card) {
          ASSERT_EQ(s.hands[static_cast<std::size_t>(s.side)].size(),
                    b.players[static_cast<std::size_t>(s.side)].hand.size())
              << name << " turn " << s.turn;
        }
        const std::size_t before = dice.history().size();
        ASSERT_TRUE(random_step(b, s, rng, dice, false));
        for (const Roll& r : dice.since(before)) reshuffles += r.purpose == "reshuffle";
        ASSERT_LT(++actions, 5000);
      }
      EXPECT_EQ(game_over_reason(b, s), "turn limit (40 turns)") << name << " seed " << seed;
      EXPECT_GT(reshuffles, 0);
    }
  }
}

TEST(AncientsReshuffle, ScriptedDiceGiveTheFisherYatesOrder) {
  const Battle b = load_battle(scenario_path("centre_clash.json"));
  AncientsState s = AncientsState::initial(b);
  // Side 0's deck is spent; four cards lie in its discards.
  const std::vector<CardIndex> deck = b.players[0].deck;
  s.decks[0].clear();
  s.discards[0] = {deck[0], deck[1], deck[2], deck[3]};
  const CardIndex played = s.hands[0][0];
  apply(b, s, parse_action({{"type", "play_card"}, {"card", card_id(b, played)}}, b, "action"));
  // The card played joins the discards: five cards, d0 d1 d2 d3 P.
  ASSERT_EQ(s.discards[0], (std::vector<CardIndex>{deck[0], deck[1], deck[2], deck[3], played}));
  Action end;
  end.type = Action::Type::end_movement;
  ASSERT_EQ(s.phase, Phase::movement);
  EXPECT_EQ(reshuffle_dice(b, s, end), 4);
  // Fisher-Yates from the back: a d5 (2: swap card 4 with card 1), a d4 (4:
  // card 3 stays), a d3 (1: swap card 2 with card 0), a d2 (2: card 1 stays).
  // d0 d1 d2 d3 P -> d0 P d2 d3 d1 -> d2 P d0 d3 d1; the draw takes d2.
  ScriptedDice dice({2, 4, 1, 2});
  const nlohmann::json r = apply(b, s, end, dice);
  EXPECT_EQ(dice.remaining(), 0u);
  ASSERT_EQ(dice.history().size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(dice.history()[i].sides, 5 - static_cast<int>(i));
    EXPECT_EQ(dice.history()[i].purpose, "reshuffle");
  }
  EXPECT_EQ(r.at("reshuffled").at("rule"), "ancients.card.reshuffle");
  EXPECT_EQ(r.at("reshuffled").at("cards"), 5);
  EXPECT_EQ(r.at("drew"), card_id(b, deck[2]));
  EXPECT_EQ(s.hands[0].back(), deck[2]);
  EXPECT_EQ(s.decks[0], (std::vector<CardIndex>{played, deck[0], deck[3], deck[1]}));
  EXPECT_TRUE(s.discards[0].empty());
  EXPECT_EQ(s.side, 1);
  // Side 1's deck is not empty: its draws roll nothing.
  apply(b, s, parse_action({{"type", "play_card"}, {"card", card_id(b, s.hands[1][0])}}, b, "action"));
  if (s.phase == Phase::movement) {
    EXPECT_EQ(reshuffle_dice(b, s, end), 0);
  }
}

TEST(AncientsReshuffle, TheGameInterfaceSaysAReshufflesChancesAreNotEnumerable) {
  const nlohmann::json battle = load_json_file(scenario_path("centre_clash.json"));
  const std::shared_ptr<const Game> game = game_type().load(battle, "centre_clash", nlohmann::json::object());
  const Battle b = parse_battle(battle, "centre_clash");
  AncientsState s = AncientsState::initial(b);
  apply(b, s, parse_action({{"type", "play_card"}, {"card", card_id(b, s.hands[0][0])}}, b, "action"));
  ASSERT_EQ(s.phase, Phase::movement);
  const nlohmann::json end = {{"type", "end_movement"}};
  // The deck still holds cards: the draw rolls nothing.
  EXPECT_EQ(game->state_from_json(state_json(b, s))->chance_outcomes(end).kind, Chances::Kind::NoDice);
  // Spent, with three cards on the discard pile beside the one played: a shuffle of four.
  s.decks[0].clear();
  s.discards[0].insert(s.discards[0].begin(), {b.players[0].deck[0], b.players[0].deck[1], b.players[0].deck[2]});
  const Chances c = game->state_from_json(state_json(b, s))->chance_outcomes(end);
  EXPECT_EQ(c.kind, Chances::Kind::NotEnumerable);
  EXPECT_NE(c.why.find("shuffled"), std::string::npos) << c.why;
  Action a;
  a.type = Action::Type::end_movement;
  EXPECT_EQ(reshuffle_dice(b, s, a), 3);
  SeededDice dice(9);
  apply(b, s, a, dice);
  EXPECT_EQ(dice.history().size(), 3u);
}

TEST(AncientsReshuffle, WithoutTheSettingAnEmptyDeckDrawsNothing) {
  const Battle b = without_reshuffle("centre_clash.json");
  AncientsState s = AncientsState::initial(b);
  s.decks[0].clear();
  s.discards[0] = {b.players[0].deck[0], b.players[0].deck[1]};
  apply(b, s, parse_action({{"type", "play_card"}, {"card", card_id(b, s.hands[0][0])}}, b, "action"));
  Action end;
  end.type = Action::Type::end_movement;
  EXPECT_EQ(reshuffle_dice(b, s, end), 0);
  const nlohmann::json r = apply(b, s, end);  // no dice: a reshuffle would throw
  EXPECT_FALSE(r.contains("reshuffled"));
  EXPECT_FALSE(r.contains("drew"));
  EXPECT_EQ(s.hands[0].size(), 4u);
  EXPECT_EQ(s.discards[0].size(), 3u);
}

TEST(AncientsReshuffle, TheSettingIsParsedStrictly) {
  nlohmann::json j = load_json_file(scenario_path("river_crossing.json"));
  j["exhausted_deck"] = "reshuffle";
  EXPECT_EQ(parse_battle(j, "battle").exhausted_deck, ExhaustedDeck::reshuffle);
  j["exhausted_deck"] = nullptr;  // null is the default, as everywhere in the battle file
  EXPECT_EQ(parse_battle(j, "battle").exhausted_deck, ExhaustedDeck::reshuffle);
  for (const nlohmann::json& bad : {nlohmann::json("shuffle"), nlohmann::json("No_Reshuffle"), nlohmann::json(1),
                                    nlohmann::json(false)}) {
    j["exhausted_deck"] = bad;
    try {
      parse_battle(j, "battle");
      ADD_FAILURE() << "exhausted_deck " << bad.dump() << " was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "exhausted_deck") << bad.dump();
    }
  }
}

TEST(AncientsStateJson, TheDiscardsRoundTrip) {
  const Battle b = load_battle(scenario_path("centre_clash.json"));
  AncientsState s = AncientsState::initial(b);
  const std::string played = card_id(b, s.hands[0][1]);
  apply(b, s, parse_action({{"type", "play_card"}, {"card", played}}, b, "action"));
  nlohmann::json j = state_json(b, s);
  EXPECT_EQ(j.at("discards"), nlohmann::json({{played}, nlohmann::json::array()}));
  EXPECT_TRUE(state_from_json(b, j, "state").discards == s.discards);
  expect_round_trip(b, s);
  // A state written before discards were kept reads with none.
  j.erase("discards");
  EXPECT_TRUE(state_from_json(b, j, "state").discards[0].empty());
}

TEST(AncientsGameEnd, TheTurnLimitEndsTheGame) {
  nlohmann::json j = load_json_file(scenario_path("centre_clash.json"));
  EXPECT_EQ(parse_battle(j, "battle").turn_limit, 40);  // the default
  j["turn_limit"] = 3;
  const Battle b = parse_battle(j, "battle");
  EXPECT_EQ(b.turn_limit, 3);
  AncientsState s = AncientsState::initial(b);
  Rng rng(5);
  SeededDice dice(5);
  while (s.turn <= 3) {
    EXPECT_FALSE(game_over(b, s));
    ASSERT_TRUE(random_step(b, s, rng, dice, false));
  }
  EXPECT_EQ(s.turn, 4);
  EXPECT_TRUE(game_over(b, s));
  EXPECT_EQ(game_over_reason(b, s), "turn limit (3 turns)");
  EXPECT_TRUE(legal_actions(b, s).empty());
  const Verdict v = validate(b, s, parse_action({{"type", "play_card"}, {"card", card_id(b, s.hands[0][0])}}, b, "action"));
  ASSERT_TRUE(v.has("ancients.game.over"));
  EXPECT_EQ(v.violations[0].reason, "the game is over: turn limit (3 turns)");
  j["turn_limit"] = 0;
  try {
    parse_battle(j, "battle");
    FAIL() << "turn_limit 0 was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "turn_limit");
  }
}

TEST(AncientsGameEnd, AnEmptyBoardWithNoCardsIsOverAtOnce) {
  const Battle b = load_battle(scenario_path("empty_board.json"));
  const AncientsState s = AncientsState::initial(b);
  EXPECT_TRUE(game_over(b, s));
  EXPECT_TRUE(legal_actions(b, s).empty());
}

// --- the state in JSON ---------------------------------------------------------------

TEST(AncientsStateJson, RoundTripsExactlyThroughRandomGames) {
  int states = 0, mid_movement = 0, pending = 0;
  for (const std::string& name : kScenarios) {
    const Battle b = load_battle(scenario_path(name));
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      AncientsState s = AncientsState::initial(b);
      Rng rng(seed);
      SeededDice dice(seed);
      do {
        expect_round_trip(b, s);
        ++states;
        mid_movement += s.moving;
        pending += s.pending.kind != Pending::Kind::none;
        if (HasFailure()) return;
      } while (random_step(b, s, rng, dice));
    }
  }
  EXPECT_GT(states, 1000);
  EXPECT_GT(mid_movement, 300);
  EXPECT_GT(pending, 20);  // states waiting on an evasion, retreat or momentum choice
}

TEST(AncientsStateJson, AResumedGamePlaysOnExactlyAsTheOriginal) {
  int compared = 0;
  for (const char* name : {"centre_clash.json", "river_crossing.json"}) {
    const Battle b = load_battle(scenario_path(name));
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      AncientsState original = AncientsState::initial(b);
      Rng rng(seed);
      SeededDice dice(seed);
      // Stop after a random number of actions, save, and play on both.
      const int stop = static_cast<int>(rng.below(120));
      for (int k = 0; k < stop && random_step(b, original, rng, dice); ++k) {
      }
      SeededDice dice_resumed(seed + 100), dice_original(seed + 100);
      AncientsState resumed = state_from_json(b, parse_json_text(state_json(b, original).dump(), "saved"), "saved");
      for (;;) {
        const std::vector<Action> legal = legal_actions(b, original);
        ASSERT_EQ(dumps(b, legal_actions(b, resumed)), dumps(b, legal));
        if (legal.empty()) break;
        const Action a = legal[static_cast<std::size_t>(rng.below(legal.size()))];
        ASSERT_EQ(apply(b, resumed, a, dice_resumed), apply(b, original, a, dice_original)) << action_json(b, a).dump();
        ++compared;
      }
      EXPECT_TRUE(resumed == original) << name << " seed " << seed;
      EXPECT_EQ(state_json(b, resumed), state_json(b, original));
      EXPECT_TRUE(game_over(b, resumed));
    }
  }
  EXPECT_GT(compared, 300);
}

class MalformedAncientsState : public ::testing::Test {
 protected:
  void SetUp() override {
    b_ = load_battle(scenario_path("centre_clash.json"));
    AncientsState s = AncientsState::initial(b_);
    // Side 0's first turn, after the card and an order: a plan and orders in the state.
    apply(b_, s, parse_action({{"type", "play_card"}, {"card", "order-three-center"}}, b_, "action"));
    const std::vector<Action> legal = legal_actions(b_, s);
    ASSERT_EQ(legal.front().type, Action::Type::order);
    apply(b_, s, legal.front());
    good_ = state_json(b_, s);
  }
  std::string field_of(const std::function<void(nlohmann::json&)>& edit) const {
    nlohmann::json j = good_;
    edit(j);
    try {
      state_from_json(b_, j, "state");
    } catch (const InputError& e) {
      return e.field();
    }
    return "no error";
  }
  Battle b_;
  nlohmann::json good_;
};

TEST_F(MalformedAncientsState, ErrorsNameTheField) {
  EXPECT_EQ(field_of([](nlohmann::json&) {}), "no error");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["weather"] = "rain"; }), "state.weather");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j.erase("decks"); }), "state.decks");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["turn"] = 0; }), "state.turn");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["side"] = -1; }), "state.side");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["phase"] = "combat"; }), "state.phase");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["banners"] = {0}; }), "state.banners");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["banners"][1] = -1; }), "state.banners[1]");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["pending"] = {{"decision", "momentum"}}; }), "state.pending");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["units"][0]["battled"] = 1; }), "state.units[0].battled");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["units"][0]["at"] = nullptr; }), "state.units[0].blocks");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["card"] = "order-everything"; }), "state.card");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["hands"][1][0] = "joker"; }), "state.hands[1][0]");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["decks"].erase(1); }), "state.decks");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["discards"].erase(1); }), "state.discards");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["discards"][0][0] = "joker"; }), "state.discards[0][0]");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["units"].erase(0); }), "state.units");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["units"][0]["id"] = "ghost"; }), "state.units[0].id");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["units"][0]["class"] = "elephant"; }), "state.units[0].class");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["units"][0]["at"] = {40, 40}; }), "state.units[0].at");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["units"][1]["at"] = j["units"][0]["at"]; }), "state.units[1].at");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["units"][0]["blocks"] = 9; }), "state.units[0].blocks");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["units"][0]["moved"] = 1; }), "state.units[0].moved");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["leaders"][0]["attached_to"] = "ghost"; }),
            "state.leaders[0].attached_to");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["leaders"][1]["at"] = j["leaders"][0]["at"]; }), "state.leaders[1].at");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["plan"]["quota"] = {1, 2}; }), "state.plan.quota");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["plan"]["units"] = {"b_wi1"}; }), "state.plan.units[0]");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["plan"] = nullptr; }), "state.plan");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["orders"].push_back({{"unit", "ghost"}}); }), "state.orders[1].unit");
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["orders"].push_back(j["orders"][0]); }), "state.orders[1]");
  EXPECT_EQ(field_of([](nlohmann::json& j) {
              j["phase"] = "play_card";
              j["card"] = nullptr;
            }),
            "state.plan");
}

TEST_F(MalformedAncientsState, OrderedFlagsMustMatchTheOrders) {
  const std::string ordered = good_.at("orders")[0].at("unit");
  std::size_t index = 0;
  while (good_.at("units")[index].at("id") != ordered) ++index;
  EXPECT_EQ(field_of([](nlohmann::json& j) { j["orders"] = nlohmann::json::array(); }),
            "state.units[" + std::to_string(index) + "].ordered");
}

}  // namespace ancients_state_test
}  // namespace referee::ancients
