// Golden playthrough: a fixed list of moves on the town, resolved with seed
// 2026, written as text and diffed line by line with the stored file. Any
// change to a ruling, a roll or a reason shows up as a changed line.
// Regenerate with REFEREE_UPDATE_GOLDEN=1 after checking the change is right.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "referee/blightmeer/io.hpp"
#include "referee/core/files.hpp"
#include "referee/core/json_io.hpp"

namespace referee::blightmeer {
namespace {

std::string playthrough() {
  const std::string dir = std::string(REFEREE_SOURCE_DIR);
  Battle b = load_battle(dir + "/scenarios/blightmeer/town.json");
  std::vector<MoveRequest> moves = parse_moves(load_json_file(dir + "/tests/blightmeer/golden/town_moves.json"));
  SeededDice dice(2026);
  std::string out = "# Blightmeer golden playthrough: scenarios/blightmeer/town.json, seed 2026\n";
  int n = 0;
  for (const MoveRequest& m : moves) {
    Resolution r = resolve_move(*b.terrain, b.state, m, dice);
    out += "## move " + std::to_string(++n) + ": " + move_to_json(m).dump() + "\n";
    out += explain_report(r.report);
    out += r.applied ? explain_resolution(r) : "not applied\n";
    for (const Roll& roll : r.rolls) out += "roll: d" + std::to_string(roll.sides) + " = " + std::to_string(roll.value) + " (" + roll.purpose + ")\n";
  }
  out += "## final state\n";
  for (const Unit& u : b.state.units) out += unit_json(u).dump() + "\n";
  return out;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

TEST(BlightmeerGolden, TownPlaythroughMatchesLineByLine) {
  const std::string path = std::string(REFEREE_SOURCE_DIR) + "/tests/blightmeer/golden/town_playthrough.txt";
  std::string got = playthrough();
  if (std::getenv("REFEREE_UPDATE_GOLDEN")) write_file_atomic(path, got);
  std::vector<std::string> want = lines(read_text_file(path));
  std::vector<std::string> have = lines(got);
  for (std::size_t i = 0; i < std::max(want.size(), have.size()); ++i) {
    std::string w = i < want.size() ? want[i] : "<missing>";
    std::string h = i < have.size() ? have[i] : "<missing>";
    EXPECT_EQ(w, h) << "line " << i + 1;
  }
}

}  // namespace
}  // namespace referee::blightmeer
