// Fair play between two computers (docs/api.md, "The dice" and "Seats"):
// secret dice that nobody can predict while the game is on and that either
// player can check once it is over; a side the built-in opponent plays is
// its alone; an undo between players never takes back the other's move,
// whoever holds the seats now; one server per data directory.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

#include "api.hpp"
#include "http_server.hpp"
#include "data_dir_lock.hpp"
#include "dice_commitment.hpp"
#include "seats.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/match.hpp"
#include "referee/games/builtin.hpp"

namespace referee::server {
namespace {


Api fair_api() { return Api(builtin_games(), bundled_battle_list(builtin_games())); }

// The view's first legal action that ends a step or a phase ("end_orders",
// "end_phase"...), or else the Shooting phase's one "shoot": a game played
// on with these alone reaches its turn limit.
Json an_end(const Json& view) {
  for (const char* kind : {"end", "shoot"})
    for (const Json& a : view["legal_actions"])
      if (a["type"].get<std::string>().rfind(kind, 0) == 0) return a;
  ADD_FAILURE() << "no action ends a step: " << view["legal_actions"].dump();
  return kEndPhase;
}

std::string fair_tokens_of(const Json& created) {
  std::string t;
  for (const Json& s : created["seat_tokens"]) t += (t.empty() ? "" : ",") + s["token"].get<std::string>();
  return t;
}

// The SHA-256 of a known text, so that the commitment's hash is the standard one:
// printf 'referee-dice/1:00000000000000000000000000000000:1' | sha256sum
TEST(DiceCommitment, IsTheSha256OfTheSaltAndTheSeed) {
  EXPECT_EQ(dice_commitment(1, std::string(32, '0')),
            "5d0841cf0793ed0f2542cf75539397aafeb663f9b022adf489716e38072df9b7");
  EXPECT_NE(dice_commitment(1, std::string(32, '0')), dice_commitment(2, std::string(32, '0')));
  EXPECT_NE(random_salt(), random_salt());
  EXPECT_EQ(random_salt().size(), 32u);
}

// A game made without a seed: no viewer learns the seed while it is on, not
// from the view, the log or the replay of a step; two such games do not
// share their dice; once over, the seed and salt are revealed, give the
// commitment shown from the start, and the log replays every roll from them.
TEST(SecretDice, NoSeedWhileTheGameIsOnTheCommittedOneAfter) {
  Api api = fair_api();
  const Json body = {{"battle", "warmaster/default"}, {"settings", {{"turn_limit", 1}}}};
  const Json g = answer_of(send_as(api, "POST", "/api/games", body), 201);
  const Json h = answer_of(send_as(api, "POST", "/api/games", body), 201);
  const std::string base = "/api/games/" + g["id"].get<std::string>(), seat = fair_tokens_of(g);
  const Json dice = g["dice"];
  EXPECT_EQ(dice["fixed"], false);
  EXPECT_TRUE(dice["seed"].is_null());
  EXPECT_TRUE(dice["salt"].is_null());
  const std::string commitment = dice["commitment"];
  EXPECT_EQ(commitment.size(), 64u);
  EXPECT_NE(commitment, h["dice"]["commitment"].get<std::string>());

  // An order rolls; nothing served says the seed.
  const Json applied = answer_of(send_as(api, "POST", base + "/apply", {{"action", kFirstOrder}}, seat), 200);
  EXPECT_EQ(applied["rolls"].size(), 2u);
  const Response log_on = send_as(api, "GET", base + "/log", nullptr, seat);
  EXPECT_EQ(log_on.status, 200);
  const GameLog withheld = GameLog::parse_jsonl(log_on.body, "log");
  EXPECT_TRUE(withheld.seed_withheld);
  EXPECT_EQ(withheld.seed_commitment, commitment);
  EXPECT_TRUE(withheld.seed_salt.empty());
  // Such a log is refused as a replay, naming the seed.
  const Response import_on = api.handle(Request{"POST", "/api/games/import", log_on.body, "127.0.0.1"});
  EXPECT_EQ(import_on.status, 400);
  EXPECT_NE(import_on.body.find("withheld"), std::string::npos) << import_on.body;

  // The turn limit ends the game after both sides' turns.
  Json view;
  for (int i = 0; i < 40; ++i) {
    view = answer_of(send_as(api, "GET", base, nullptr, seat), 200);
    if (view["terminal"].get<bool>()) break;
    EXPECT_TRUE(view["dice"]["seed"].is_null());
    answer_of(send_as(api, "POST", base + "/apply", {{"action", an_end(view)}}, seat), 200);
  }
  ASSERT_TRUE(view["terminal"].get<bool>());
  const std::uint64_t seed = view["dice"]["seed"];
  const std::string salt = view["dice"]["salt"];
  EXPECT_EQ(dice_commitment(seed, salt), commitment);
  // The revealed log checks against the commitment and replays exactly.
  const Response log_over = send_as(api, "GET", base + "/log", nullptr, seat);
  const GameLog revealed = GameLog::parse_jsonl(log_over.body, "log");
  EXPECT_EQ(revealed.seed, seed);
  EXPECT_TRUE(check_dice_commitment(revealed, "log"));
  const Match replayed = Match::replay(builtin_games(), revealed, "log");
  EXPECT_EQ(replayed.log().entries.front().rolls, revealed.entries.front().rolls);
  EXPECT_TRUE(replayed.state().is_terminal());
  // A seed that is not the committed one is caught.
  GameLog forged = revealed;
  forged.seed = seed + 1;
  EXPECT_THROW(check_dice_commitment(forged, "log"), InputError);
  // The revealed game cannot be stepped back into, and its view says so.
  EXPECT_FALSE(view["can_undo"].get<bool>());
  const Json undo = answer_of(send_as(api, "POST", base + "/undo", nullptr, seat), 409);
  EXPECT_NE(undo["error"]["message"].get<std::string>().find("revealed"), std::string::npos);
}

// A seed the creator fixes is for hot seat, tests and replays: every viewer is told it.
TEST(SecretDice, AFixedSeedIsShownToEveryone) {
  Api api = fair_api();
  const Json g = answer_of(send_as(api, "POST", "/api/games", {{"seed", 5}}), 201);
  EXPECT_EQ(g["dice"]["fixed"], true);
  EXPECT_EQ(g["dice"]["seed"], 5);
  EXPECT_FALSE(g["dice"].contains("commitment"));
  const Json seen = answer_of(send_as(api, "GET", "/api/games/" + g["id"].get<std::string>(), nullptr), 200);
  EXPECT_EQ(seen["dice"]["seed"], 5);
}

// "Order Orc Boyz 1" from the player's token in the Orcs' turn, with the
// built-in opponent playing the Orcs: refused, naming the side; the
// opponent's route plays it.
TEST(OpponentSide, IsTheOpponentsAlone) {
  Api api = fair_api();
  const Json g = answer_of(
      send_as(api, "POST", "/api/games", {{"battle", "warmaster/pitched-battle"}, {"seed", 1}, {"opponent_sides", {1}}}), 201);
  const std::string base = "/api/games/" + g["id"].get<std::string>(), seat = fair_tokens_of(g);
  Json view = g;
  for (int i = 0; i < 20 && view["current_player"] == 0; ++i)
    view = answer_of(send_as(api, "POST", base + "/apply", {{"action", an_end(view)}}, seat), 200)["game"];
  ASSERT_EQ(view["current_player"], 1);
  const Json refused = answer_of(send_as(api, "POST", base + "/apply", {{"action", kEndPhase}}, seat), 403);
  EXPECT_EQ(refused["error"]["field"], "seat");
  EXPECT_NE(refused["error"]["message"].get<std::string>().find("played by the built-in opponent"), std::string::npos)
      << refused;
  const Json played = answer_of(send_as(api, "POST", base + "/opponent", {{"until", "action"}}, seat), 200);
  EXPECT_EQ(played["actions"].size(), 1u);
}

// A game between two players: the creator holds the Empire, the Orcs' seat is an invitation.
Json friendly_game(Api& api) {
  const Json body = {{"battle", "warmaster/default"}, {"seed", 1}, {"seats", {0}}, {"opponent_sides", Json::array()}};
  return answer_of(send_as(api, "POST", "/api/games", body), 201);
}

// A rolls an order; B may not undo it; A hands their side to the built-in
// opponent; B still may not: the roll and the move stay A's.
TEST(UndoBetweenPlayers, AHandOverGivesNoPowerOverTheOthersMoves) {
  Api api = fair_api();
  const Json g = friendly_game(api);
  const std::string base = "/api/games/" + g["id"].get<std::string>(), a = fair_tokens_of(g);
  const std::string invite = g["invitations"][0]["token"];
  const std::string b = answer_of(send_as(api, "POST", base + "/join", Json::object(), "", invite), 200)["seat_tokens"][0]["token"];
  answer_of(send_as(api, "POST", base + "/apply", {{"action", kFirstOrder}}, a), 200);
  answer_of(send_as(api, "POST", base + "/undo", nullptr, b), 409);
  answer_of(send_as(api, "POST", base + "/players", {{"opponent_sides", {0}}}, a), 200);
  const Json still = answer_of(send_as(api, "POST", base + "/undo", nullptr, b), 409);
  EXPECT_EQ(still["error"]["field"], "undo");
  EXPECT_EQ(answer_of(send_as(api, "GET", base, nullptr, b), 200)["position"], 1);
}

// Before the friend joins, the creator's own rolled order is not theirs to
// take back either: the side to be joined is another player's.
TEST(UndoBetweenPlayers, ASideStillToBeJoinedIsAnothers) {
  Api api = fair_api();
  const Json g = friendly_game(api);
  const std::string base = "/api/games/" + g["id"].get<std::string>(), a = fair_tokens_of(g);
  answer_of(send_as(api, "POST", base + "/apply", {{"action", kFirstOrder}}, a), 200);
  answer_of(send_as(api, "POST", base + "/undo", nullptr, a), 409);
}

// One server per data directory: the second lock on it is refused, naming
// the holder's pid; the first one's release lets the next take it.
TEST(DataDirLock, OneHolderAtATimeNamedByPid) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("referee-lock-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    const DataDirLock first(dir.string());
    EXPECT_TRUE(first.held());
    // flock locks belong to the open file: a second open in this process conflicts as another process's would.
    try {
      const DataDirLock second(dir.string());
      ADD_FAILURE() << "a second lock was taken";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "--data");
      EXPECT_NE(std::string(e.problem()).find("pid " + std::to_string(::getpid())), std::string::npos) << e.problem();
    }
  }
  const DataDirLock again(dir.string());
  EXPECT_TRUE(again.held());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace referee::server
