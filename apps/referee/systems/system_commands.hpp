// Each rule system's part of the command line: the questions of its own
// under `referee <system> <question>`, the flags that set its settings,
// options of its own on `state`, and its picture. The engine's registry
// (src/games/builtin.cpp) knows nothing of them: the command line keeps its
// own table by system name (command_lines.cpp), and the program itself
// (run.cpp, the generic commands) asks it by the name of each registered
// system, so a system with no row gets the commands every system has.
// Every function lives in its own file so the systems grow independently.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "referee/core/game.hpp"

namespace referee::cli {

// A system's part of `referee <system> ...` beyond play, replay, state,
// query, arena, simulate and rules.
struct CommandLineEntry {
  std::string summary;  // the line `referee --help` shows for the system; empty: its title and summary
  // Flags of play, state and query that set one of the battle's settings:
  // `--first-turn-bonus` sets "first_turn_command_bonus" to true.
  struct SettingFlag {
    std::string flag;
    std::string help;
    std::string setting;
    Json value;
  };
  std::vector<SettingFlag> setting_flags = {};
  // Adds the system's own questions (`referee warmaster reach ...`), which
  // read their files up to `max_input_bytes` (core/files.hpp).
  std::function<void(CLI::App& system_command, std::uint64_t max_input_bytes)> commands = {};
  // Adds the system's own options to `state`, and returns what they add to
  // its answer (a JSON member and a line of text) once the state is known.
  using StateAddition = std::function<void(const GameState& state, Json& answer, std::string& text)>;
  std::function<StateAddition(CLI::App& state_command)> state_options = {};
  // A picture of a state as SVG text, with `caption` under the table (play
  // and arena --svg-dir); empty for systems that draw none.
  std::function<std::string(const GameState& state, const std::string& caption)> picture = {};
};

// The row of `system` (a registry name); an empty entry for a system the
// table does not name.
const CommandLineEntry& command_line_of(std::string_view system);

CommandLineEntry warmaster_command_line();
CommandLineEntry ancients_command_line();
CommandLineEntry blightmeer_command_line();

// The questions each adds (declared here for the files that define them),
// which read their files up to `max_bytes` (core/files.hpp).
void add_warmaster_move_commands(CLI::App& warmaster, std::uint64_t max_bytes);     // check, render, leave-table
void add_warmaster_reach_commands(CLI::App& warmaster, std::uint64_t max_bytes);    // reach, los, distance, route
void add_warmaster_command_commands(CLI::App& warmaster, std::uint64_t max_bytes);  // odds
void add_warmaster_shooting_commands(CLI::App& warmaster, std::uint64_t max_bytes); // shoot
void add_warmaster_combat_commands(CLI::App& warmaster, std::uint64_t max_bytes);   // combat, combat-odds
void add_ancients_commands(CLI::App& ancients, std::uint64_t max_bytes);
void add_blightmeer_commands(CLI::App& blightmeer, std::uint64_t max_bytes);

}  // namespace referee::cli
