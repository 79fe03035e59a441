// The web board of each system, the server's own table by system name (the
// engine's registry knows no board): /api/systems names each system's
// module, the shell (web/app/shell.js) imports it, and the front end serves
// it, from web/app (built into the server) or from the files a build of the
// program adds (a test system's board).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace referee::server {

// A file of a board that is not in web/app: its path under the board's root
// and its content.
struct BoardFile {
  std::string path;  // "tictactoe.js"
  std::string content;
};
using BoardFiles = std::vector<BoardFile>;

// The ES module of `system`'s board, by its path under the board's root:
// web/app/warmaster.js is served as warmaster.js. The module registers the
// board with the shell.
inline std::string board_module(std::string_view system) { return std::string(system) + ".js"; }

}  // namespace referee::server
