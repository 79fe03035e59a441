// Each rule system adds its subcommands under `referee <system> <question>`.
// Every function lives in its own file so the systems grow independently.
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "referee/core/game.hpp"

namespace referee::cli {

void add_warmaster_move_commands(CLI::App& warmaster);     // check, render, leave-table
void add_warmaster_reach_commands(CLI::App& warmaster);    // reach, los, distance, route
void add_warmaster_command_commands(CLI::App& warmaster);  // odds
void add_warmaster_shooting_commands(CLI::App& warmaster); // shoot
void add_warmaster_combat_commands(CLI::App& warmaster);   // combat, combat-odds
void add_ancients_commands(CLI::App& ancients);
void add_blightmeer_commands(CLI::App& blightmeer);
// play, replay, state, query: the same for every system, over the game interface.
void add_game_commands(CLI::App& system, const GameType& type);
// arena: seeded games of the built-in opponent against a random legal player
// (or itself), for a system whose GameType has an opponent; nothing otherwise.
void add_arena_command(CLI::App& system, const GameType& type);
// A picture of a state (SVG text) for the systems that draw one (Warmaster);
// empty for the others. The caption goes under the table.
std::function<std::string(const GameState&, const std::string&)> phase_picture(const GameType& type);
// rules: the rule catalogue of "warmaster", "ancients" or "blightmeer".
void add_rules_command(CLI::App& system_command, const std::string& system);
// serve: the web board.
void add_serve_command(CLI::App& app);

}  // namespace referee::cli
