// A test build of `referee`: the same program (apps/referee/run.cpp) over the
// built-in systems and the tests' fourth, tic-tac-toe
// (tests/fixtures/tictactoe), with its web board (board.js there, built in by
// CMake as kTicTacToeBoardJs) served as tictactoe.js.
#include "commands.hpp"
#include "fixtures/tictactoe/with_tictactoe.hpp"
#include "tictactoe_board_js.hpp"

int main(int argc, char** argv) {
  static const referee::GameRegistry systems = referee::testing_games::with_tictactoe();
  return referee::cli::run(argc, argv, systems, {{referee::server::board_module("tictactoe"), kTicTacToeBoardJs}});
}
