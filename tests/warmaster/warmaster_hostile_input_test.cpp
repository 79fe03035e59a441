// Hostile Warmaster files through the library's own loaders: nesting past the
// limit, ids with control characters, and errors that name the file.
#include <gtest/gtest.h>

#include "referee/core/json_io.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "support/input_error.hpp"
#include "support/temp_dir.hpp"

namespace warmaster_hostile_test {

using namespace referee;
using namespace referee::warmaster;
using referee::test_support::error_of;
using referee::test_support::nested_arrays;
using referee::test_support::TempDir;

const std::string kDefault = std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/default.json";

TEST(WarmasterHostileInput, DeepBattlefieldAndMoveFilesAreRefused) {
  TempDir dir;
  const BattlefieldFile bf = load_battlefield_file(kDefault);
  for (std::size_t depth : {std::size_t{87000}, std::size_t{12000}}) {
    const std::string path = dir.put("deep.json", R"({"name":"x","armies":)" + nested_arrays(depth) + "}");
    EXPECT_EQ(error_of([&] { load_battlefield_file(path); }),
              path + ": nested deeper than 256 levels (the limit for any input)");
    EXPECT_EQ(error_of([&] { load_move_request_file(path, bf.battlefield); }),
              path + ": nested deeper than 256 levels (the limit for any input)");
  }
}

TEST(WarmasterHostileInput, ErrorsNameTheFile) {
  TempDir dir;
  const BattlefieldFile bf = load_battlefield_file(kDefault);
  const std::string empty = dir.put("empty.json", "{}");
  EXPECT_EQ(error_of([&] { load_battlefield_file(empty); }).rfind(empty + ": ", 0), 0u);
  const std::string array = dir.put("move.json", "[]");
  EXPECT_EQ(error_of([&] { load_move_request_file(array, bf.battlefield); }),
            array + ": expected an object, got an array");
}

TEST(WarmasterHostileInput, AnIdWithAControlCharacterIsRefused) {
  TempDir dir;
  Json j = load_json_file(kDefault);
  j["armies"][0]["units"][0]["id"] = "halberd\x01";
  const std::string path = dir.put("ctrl.json", j.dump());
  EXPECT_EQ(error_of([&] { load_battlefield_file(path); }),
            path + ": armies[0].units[0].id: contains the control character U+0001; ids are printed in answers and pictures");
}

}  // namespace warmaster_hostile_test
