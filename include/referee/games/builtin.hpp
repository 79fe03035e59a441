// The three rule systems, registered by name: "warmaster", "ancients",
// "blightmeer". Each is one entry of the registry (core/game.hpp's
// GameType), and every front end (the command line, the server, the web
// board) reads the systems from the registry alone: adding a system is
// its folder and one line in builtin.cpp (docs/architecture.md, "Adding a
// system").
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
// The battles of every system of `registry` (GameType::battles), in the
// registry's order: the default Warmaster battle first.
std::vector<BundledBattle> bundled_battles(const GameRegistry& registry);
// Those of builtin_games().
const std::vector<BundledBattle>& bundled_battles();

}  // namespace referee
