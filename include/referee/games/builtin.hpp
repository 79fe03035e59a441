// The three rule systems, registered by name: "warmaster", "ancients",
// "blightmeer". Adding a system is: implement the interface of
// core/game.hpp in its own folder, and add its game_type() here
// (docs/architecture.md).
#pragma once

#include <string>
#include <vector>

#include "referee/core/game.hpp"

namespace referee {

const GameRegistry& builtin_games();

// A battle that ships with referee: its system, a short name, and its file
// under the source tree's scenarios/ folder.
struct BundledBattle {
  std::string system;
  std::string name;
  std::string file;  // relative to the repository root, "scenarios/warmaster/default.json"
  std::string title;
};
// Every bundled battle of every system, the default Warmaster battle first.
const std::vector<BundledBattle>& bundled_battles();

}  // namespace referee
