#include "referee/core/json_io.hpp"

#include <gtest/gtest.h>

#include "referee/core/game_log.hpp"
#include "support/input_error.hpp"

using namespace referee;
using referee::test_support::error_of;


TEST(JsonReader, NamesTheFieldAndTheProblem) {
  Json j = Json::parse(R"({"units":[{"x":1},{"x":"far"}], "facng": 3})");
  JsonReader r(j, "");
  EXPECT_EQ(error_of([&] { r.items("units")[1].number("x"); }), "units[1].x: expected a number, got a string");
  EXPECT_EQ(error_of([&] { r.items("units")[0].number("y"); }), "units[0].y: missing field");
  EXPECT_EQ(error_of([&] { r.allow_only({"units", "facing"}); }),
            "facng: unknown field (expected one of: units, facing)");
  EXPECT_EQ(error_of([&] { r.items("units")[0].number("x", 2, 5); }), "units[0].x: 1 is out of range [2, 5]");
}

TEST(JsonReader, SyntaxErrorsGiveLineAndColumn) {
  std::string err = error_of([] { parse_json_text("{\n  \"a\": 1,\n  oops\n}", "battle.json"); });
  EXPECT_NE(err.find("battle.json: not valid JSON at line 3"), std::string::npos) << err;
}

TEST(JsonReader, EnumsListTheChoices) {
  Json j = Json::parse(R"({"type":"dragoon"})");
  EXPECT_EQ(error_of([&] { JsonReader(j, "unit").one_of("type", {"infantry", "cavalry"}); }),
            "unit.type: unknown value \"dragoon\" (expected one of: infantry, cavalry)");
}

TEST(GameLog, RoundTripsAndRefusesABadLine) {
  GameLog log{"warmaster", 42, "scenarios/warmaster/default.json", {}, {}, nullptr, false, "", "", false, {}, false};
  log.append({{"type", "order"}, {"unit", "u1"}}, {{6, 3, "order test"}, {6, 4, "order test"}}, {{"success", true}});
  std::string text = log.to_jsonl();
  GameLog back = GameLog::parse_jsonl(text, "game.log");
  EXPECT_EQ(back.entries, log.entries);
  EXPECT_EQ(back.seed, 42u);
  EXPECT_EQ(back.all_roll_values(), (std::vector<int>{3, 4}));

  std::string bad = text + R"({"seq":2,"action":{"type":"order"},"rolls":[{"die":"d6","value":9}]})" + "\n";
  EXPECT_EQ(error_of([&] { GameLog::parse_jsonl(bad, "game.log"); }),
            "game.log line 3.rolls[0].value: 9 is out of range [1, 6]");
  std::string skipped = text + R"({"seq":5,"action":{},"rolls":[]})" + "\n";
  EXPECT_EQ(error_of([&] { GameLog::parse_jsonl(skipped, "game.log"); }), "game.log line 3.seq: expected 2, got 5");
}

// A game served with secret dice withholds its seed while it is on, beside
// the commitment; such a log reads but does not replay.
TEST(GameLog, WithholdsTheSeedBesideItsCommitment) {
  GameLog log{"warmaster", 42, "s", {}, {}, nullptr, false, std::string(64, 'a'), "", true, {}, false};
  const std::string text = log.to_jsonl();
  EXPECT_NE(text.find(R"("seed":null)"), std::string::npos);
  EXPECT_EQ(text.find("seed_salt"), std::string::npos);
  EXPECT_EQ(text.find("42"), std::string::npos);
  const GameLog back = GameLog::parse_jsonl(text, "game.log");
  EXPECT_TRUE(back.seed_withheld);
  EXPECT_EQ(back.seed_commitment, std::string(64, 'a'));
  // A null seed without a commitment is no seed at all.
  EXPECT_EQ(error_of([] { GameLog::parse_jsonl(R"({"format":"referee-log/1","system":"warmaster","seed":null})", "g"); }),
            "g line 1.seed: expected a whole number from 0 to 18446744073709551615, got something else");
  EXPECT_EQ(error_of([] {
              GameLog::parse_jsonl(R"({"format":"referee-log/1","system":"w","seed":1,"seed_commitment":"AB"})", "g");
            }),
            "g line 1.seed_commitment: expected 64 lowercase hex digits");
  // Revealed: the seed and the salt.
  log.seed_withheld = false;
  log.seed_salt = std::string(32, 'b');
  const GameLog revealed = GameLog::parse_jsonl(log.to_jsonl(), "game.log");
  EXPECT_FALSE(revealed.seed_withheld);
  EXPECT_EQ(revealed.seed, 42u);
  EXPECT_EQ(revealed.seed_salt, std::string(32, 'b'));
}
