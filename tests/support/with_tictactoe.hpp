// The built-in systems and the tests' fourth, tic-tac-toe: what adding a
// system takes is the one line below (docs/architecture.md, "Adding a
// system"). The test build of the program (referee_with_tictactoe.cpp) and
// the server test (tests/fourth_system) use this registry and nothing else.
#pragma once

#include <string>

#include "referee/games/builtin.hpp"
#include "support/tictactoe.hpp"

namespace referee::testing_games {

inline GameRegistry with_tictactoe(std::string board_js = {}) {
  GameRegistry systems = builtin_games();
  systems.add(tictactoe_type(std::move(board_js)));  // the one line
  return systems;
}

}  // namespace referee::testing_games
