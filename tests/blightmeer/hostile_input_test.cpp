// Hostile Blightmeer files through the library: nesting past the limit, a
// battlefield without its fields, and ids with control characters. Every one
// is an InputError naming the file.
#include <gtest/gtest.h>

#include "referee/blightmeer/io.hpp"
#include "referee/core/json_io.hpp"
#include "support/input_error.hpp"
#include "support/temp_dir.hpp"

namespace blightmeer_hostile_test {

using namespace referee;
namespace bm = referee::blightmeer;
using referee::test_support::error_of;
using referee::test_support::nested_arrays;
using referee::test_support::TempDir;

const std::string kTown = std::string(REFEREE_SOURCE_DIR) + "/scenarios/blightmeer/town.json";

TEST(BlightmeerHostileInput, DeepBattlefieldAndMovesAreRefused) {
  TempDir dir;
  for (std::size_t depth : {std::size_t{87000}, std::size_t{12000}}) {
    const std::string text = R"({"units":)" + nested_arrays(depth) + "}";
    const std::string path = dir.put("deep.json", text);
    EXPECT_EQ(error_of([&] { bm::load_battle(path); }), path + ": nested deeper than 256 levels (the limit for any input)");
    EXPECT_EQ(error_of([&] { bm::parse_battle_text(text, "b.json"); }),
              "b.json: nested deeper than 256 levels (the limit for any input)");
  }
}

TEST(BlightmeerHostileInput, ErrorsNameTheFile) {
  TempDir dir;
  const std::string path = dir.put("empty.json", "{}");
  EXPECT_EQ(error_of([&] { bm::load_battle(path); }).rfind(path + ": ", 0), 0u);
}

TEST(BlightmeerHostileInput, AnIdWithAControlCharacterIsRefused) {
  TempDir dir;
  Json j = load_json_file(kTown);
  j["units"][0]["id"] = "captain\x01";
  const std::string path = dir.put("ctrl.json", j.dump());
  EXPECT_EQ(error_of([&] { bm::load_battle(path); }),
            path + ": units[0].id: contains the control character U+0001; ids are printed in answers and pictures");
}

}  // namespace blightmeer_hostile_test
