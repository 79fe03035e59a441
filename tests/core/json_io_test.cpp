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
  GameLog log{"warmaster", 42, "scenarios/warmaster/default.json", {}, {}, nullptr, false};
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
