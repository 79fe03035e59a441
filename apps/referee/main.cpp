// referee: JSON in, JSON out, for every ruling of every rule system.
//   referee <system> <question> [options]
// Exit codes: 0 answered (a move may still be illegal: that is an answer),
// 2 bad input or usage (an unusable output path included), 1 an internal error
// or standard output that could not be written (docs/input-limits.md).
// The systems are the built-in ones (src/games/builtin.cpp); run.cpp is the
// program over any registry.
#include "commands.hpp"
#include "referee/games/builtin.hpp"

int main(int argc, char** argv) { return referee::cli::run(argc, argv, referee::builtin_games()); }
