// Each rule system's part of the command line: the questions of its own
// under `referee <system> <question>`, the flags that set its settings, and
// options of its own on `state`. Its registry entry (src/games/builtin.cpp)
// carries them (GameType::command_line); the program itself (main.cpp, the
// generic commands) reads them from the registry and names no system.
// Every function lives in its own file so the systems grow independently.
#pragma once

#include <cstdint>

#include "referee/core/game.hpp"

namespace referee::cli {

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
