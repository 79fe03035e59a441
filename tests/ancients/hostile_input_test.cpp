// Hostile Ancients files through the library: nesting past the limit, a
// battle that is not an object, an actions file without its list, and ids
// with control characters. Every one is an InputError naming the file.
#include <gtest/gtest.h>

#include "referee/ancients/turn.hpp"
#include "referee/ancients/model.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/json_io.hpp"
#include "support/input_error.hpp"
#include "support/temp_dir.hpp"

namespace ancients_hostile_test {

using namespace referee;
using namespace referee::ancients;
using referee::test_support::error_of;
using referee::test_support::nested_arrays;
using referee::test_support::TempDir;

const std::string kBattle = std::string(REFEREE_SOURCE_DIR) + "/scenarios/ancients/centre_clash.json";

TEST(AncientsHostileInput, DeepBattleAndLogAreRefused) {
  TempDir dir;
  for (std::size_t depth : {std::size_t{87000}, std::size_t{12000}}) {
    const std::string path = dir.put("deep.json", R"({"units":)" + nested_arrays(depth) + "}");
    EXPECT_EQ(error_of([&] { load_battle(path); }), path + ": nested deeper than 256 levels (the limit for any input)");
    const std::string log = R"({"format":"referee-log/1","system":"ancients","seed":1,"scenario":"x"})"
                            "\n{\"seq\":1,\"action\":{},\"rolls\":[],\"result\":" + nested_arrays(depth) + "}\n";
    EXPECT_EQ(error_of([&] { GameLog::parse_jsonl(log, "game.log"); }),
              "game.log line 2: nested deeper than 256 levels (the limit for any input)");
  }
}

TEST(AncientsHostileInput, ABattleThatIsNotAnObjectNamesTheFile) {
  TempDir dir;
  const std::string path = dir.put("n.json", "42");
  EXPECT_EQ(error_of([&] { load_battle(path); }), path + ": expected an object, got a number");
}

TEST(AncientsHostileInput, AnActionsObjectWithoutItsListIsAnInputError) {
  const Json battle_json = load_json_file(kBattle);
  const Battle b = parse_battle(battle_json, kBattle);
  EXPECT_EQ(error_of([&] { play_actions(b, battle_json, Json::object(), 0, "x"); }), "actions: missing field");
}

TEST(AncientsHostileInput, AnIdWithAControlCharacterIsRefused) {
  TempDir dir;
  Json j = load_json_file(kBattle);
  j["units"][0]["id"] = "a\x01";
  const std::string path = dir.put("ctrl.json", j.dump());
  EXPECT_EQ(error_of([&] { load_battle(path); }),
            path + ": units[0].id: contains the control character U+0001; ids are printed in answers and pictures");
}

}  // namespace ancients_hostile_test
