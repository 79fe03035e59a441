// The complete battlefield example in docs/blightmeer.md must load, and the
// move request example must be judged on it.
#include <gtest/gtest.h>

#include "doc_blocks.hpp"
#include "referee/blightmeer/io.hpp"
#include "referee/core/files.hpp"
#include "referee/core/json_io.hpp"

namespace referee::blightmeer {
namespace {

TEST(BlightmeerDocs, ExamplesLoadAndAreJudged) {
  auto blocks = testing::doc_json_blocks(read_text_file(std::string(REFEREE_SOURCE_DIR) + "/docs/blightmeer.md"));
  ASSERT_GE(blocks.size(), 2u);
  Battle b = parse_battle_text(blocks[0], "docs example");
  EXPECT_EQ(b.state.units.size(), 5u);
  EXPECT_EQ(b.terrain->surfaces.size(), 2u);
  MoveRequest m = parse_move(parse_json_text(blocks[1], "docs move"));
  MoveReport r = check_move(*b.terrain, b.state, m);
  // 1.58 + 2 + 2.69 in of the Wood Elf's 7; one jump down, Agility 6: 15/20.
  EXPECT_TRUE(r.verdict.legal()) << explain(r.verdict);
  EXPECT_NEAR(r.spent, 6.27, 0.01);
  ASSERT_EQ(r.checks.size(), 1u);
  EXPECT_EQ(r.checks[0].chance.fraction(), "15/20");
}

}  // namespace
}  // namespace referee::blightmeer
