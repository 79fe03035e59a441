// The program: one subcommand per registered system, each with the system's
// own questions (its row in the command line's table, command_lines.cpp),
// the commands every system has, and `serve`. It names no system: the
// registry holds them.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli_support.hpp"
#include "commands.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/files.hpp"
#include "system_commands.hpp"

namespace referee::cli {

int run(int argc, char** argv, const GameRegistry& registry, const server::BoardFiles& board_files) {
  // The size limit of every file read: the environment is read here only,
  // and the limit passed down to the commands.
  std::uint64_t max_input_bytes = kDefaultMaxInputBytes;
  try {
    max_input_bytes = max_input_bytes_from(std::getenv(kMaxInputBytesVariable));
  } catch (const InputError& e) {
    std::cerr << "referee: error: " << e.what() << "\n";
    return 2;
  }
  CLI::App app{"referee: a rules engine for tabletop miniature wargames"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "referee 0.1.0");

  for (const GameType& type : registry.types()) {
    const CommandLineEntry& cl = command_line_of(type.name);
    auto* system = app.add_subcommand(type.name, cl.summary.empty() ? type.title + ": " + type.summary : cl.summary);
    system->require_subcommand(1);
    if (cl.commands) cl.commands(*system, max_input_bytes);
    add_game_commands(*system, type, registry, max_input_bytes);
    add_arena_command(*system, type, max_input_bytes);
    add_simulate_command(*system, type, max_input_bytes);
    add_rules_command(*system, type);
  }
  add_serve_command(app, registry, max_input_bytes, board_files);
  add_games_command(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  } catch (const InputError& e) {
    std::cerr << "referee: error: " << e.what() << "\n";
    return 2;
  } catch (const ScriptError& e) {
    std::cerr << "referee: error: " << e.what() << "\n";
    return 2;
  } catch (const OutputFailure& e) {
    std::cerr << "referee: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "referee: internal error: " << e.what() << "\n";
    return 1;
  }
  // Anything written to standard output must have arrived (a full disk, a closed pipe).
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::cerr << "referee: error: cannot write to standard output\n";
    return 1;
  }
  return 0;
}

}  // namespace referee::cli
