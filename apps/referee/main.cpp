// referee: JSON in, JSON out, for every ruling of every rule system.
//   referee <system> <question> [options]
// Exit codes: 0 answered (a move may still be illegal: that is an answer),
// 2 bad input or usage (an unusable output path included), 1 an internal error
// or standard output that could not be written (docs/input-limits.md).
#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli_support.hpp"
#include "commands.hpp"
#include "referee/core/errors.hpp"
#include "referee/games/builtin.hpp"

int main(int argc, char** argv) {
  CLI::App app{"referee: a rules engine for tabletop miniature wargames"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "referee 0.1.0");

  auto* warmaster = app.add_subcommand("warmaster", "Warmaster: movement, initiative, orders (cm, 40x20 mm stands)");
  warmaster->require_subcommand(1);
  referee::cli::add_warmaster_move_commands(*warmaster);
  referee::cli::add_warmaster_reach_commands(*warmaster);
  referee::cli::add_warmaster_command_commands(*warmaster);
  referee::cli::add_warmaster_shooting_commands(*warmaster);
  referee::cli::add_warmaster_combat_commands(*warmaster);
  referee::cli::add_game_commands(*warmaster, referee::builtin_games().at("warmaster"));
  referee::cli::add_arena_command(*warmaster, referee::builtin_games().at("warmaster"));
  referee::cli::add_rules_command(*warmaster, "warmaster");

  auto* ancients = app.add_subcommand("ancients", "Commands & Colors: Ancients: hex movement, leaders, command cards");
  ancients->require_subcommand(1);
  referee::cli::add_ancients_commands(*ancients);
  referee::cli::add_game_commands(*ancients, referee::builtin_games().at("ancients"));
  referee::cli::add_arena_command(*ancients, referee::builtin_games().at("ancients"));
  referee::cli::add_rules_command(*ancients, "ancients");

  auto* blightmeer = app.add_subcommand("blightmeer", "Blightmeer: 3D skirmish movement in inches");
  blightmeer->require_subcommand(1);
  referee::cli::add_blightmeer_commands(*blightmeer);
  referee::cli::add_game_commands(*blightmeer, referee::builtin_games().at("blightmeer"));
  referee::cli::add_arena_command(*blightmeer, referee::builtin_games().at("blightmeer"));
  referee::cli::add_rules_command(*blightmeer, "blightmeer");

  referee::cli::add_serve_command(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  } catch (const referee::InputError& e) {
    std::cerr << "referee: error: " << e.what() << "\n";
    return 2;
  } catch (const referee::ScriptError& e) {
    std::cerr << "referee: error: " << e.what() << "\n";
    return 2;
  } catch (const referee::cli::OutputFailure& e) {
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
