// The commands every system has, written once over the game interface and
// the registry (core/game.hpp): main.cpp adds them under each registered
// system, and `serve` once. A system's own questions come from the command
// line's table of systems (systems/system_commands.hpp), by its name.
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "boards.hpp"
#include "referee/core/game.hpp"

namespace referee::cli {

// The whole program over `registry`: parses the command line, runs the
// command, and returns the exit code (main.cpp passes the built-in systems;
// the tests' build passes one more, with the files of its board that are not
// in web/app: server/boards.hpp).
int run(int argc, char** argv, const GameRegistry& registry, const server::BoardFiles& board_files = {});

// Every command reads its files up to `max_input_bytes` (core/files.hpp),
// which run() reads once from REFEREE_MAX_INPUT_BYTES.

// play, replay, state, query: the same for every system, over the game
// interface; `registry` opens the logs a replay reads.
void add_game_commands(CLI::App& system, const GameType& type, const GameRegistry& registry,
                       std::uint64_t max_input_bytes);
// arena: seeded games of the built-in opponent against a random legal player
// (or itself), for a system whose GameType has an opponent; nothing otherwise.
void add_arena_command(CLI::App& system, const GameType& type, std::uint64_t max_input_bytes);
// simulate: N seeded games (or first phases) with chosen players over worker
// processes, or a Dask cluster through the Python module.
void add_simulate_command(CLI::App& system, const GameType& type, std::uint64_t max_input_bytes);
// rules: the system's rule catalogue (GameType::rules); nothing for a system without one.
void add_rules_command(CLI::App& system_command, const GameType& type);
// serve: the web board, for every system of `registry`.
void add_serve_command(CLI::App& app, const GameRegistry& registry, std::uint64_t max_input_bytes,
                       const server::BoardFiles& board_files = {});
// games: list, export or delete the games serve keeps in its data directory.
void add_games_command(CLI::App& app);

}  // namespace referee::cli
