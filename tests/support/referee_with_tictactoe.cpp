// A test build of `referee`: the same program (apps/referee/run.cpp) over the
// built-in systems and the tests' fourth, tic-tac-toe, with its web board
// (tests/support/tictactoe_board.js, built in by CMake as kTicTacToeBoardJs).
#include "commands.hpp"
#include "support/with_tictactoe.hpp"
#include "tictactoe_board_js.hpp"

int main(int argc, char** argv) {
  static const referee::GameRegistry systems = referee::testing_games::with_tictactoe(kTicTacToeBoardJs);
  return referee::cli::run(argc, argv, systems);
}
