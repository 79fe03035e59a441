// referee <system> arena: seeded games between the built-in opponent and a
// random legal player (GameState::sample_action), through the game
// interface only, for every system whose GameType has an opponent. It
// measures the opponent: wins per side, draws, mean turns.
//
// Game g (0-based) plays with seed S + g (core/simulate.hpp: its dice and
// each side's choices come from streams of that number), so a game is
// replayed exactly by its seed, and is game g of `simulate --seed S`.
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "commands.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/files.hpp"
#include "referee/core/game.hpp"
#include "referee/core/json_io.hpp"
#include "referee/core/simulate.hpp"
#include "system_commands.hpp"

namespace referee::cli {

void add_arena_command(CLI::App& system, const GameType& type, std::uint64_t max_input_bytes) {
  if (!type.opponent) return;
  struct Opts {
    std::string battle, side0 = "opponent", side1 = "random", svg_dir;
    int games = 20;
    std::uint64_t seed = 1;
    int max_actions = 20000;
    OutputOptions out;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = system.add_subcommand(
      "arena", "Play seeded games between the built-in opponent and a random legal player; print wins per side");
  cmd->add_option("--battle", o->battle, "Battle file (JSON)")->required();
  cmd->add_option("--games", o->games, "Number of games (default 20)")->check(CLI::Range(1, 100000));
  cmd->add_option("--seed", o->seed, "First seed: game g uses seed + g (default 1)")->check(seed_number());
  cmd->add_option("--side0", o->side0, "Who plays side 0: opponent or random (default opponent)");
  cmd->add_option("--side1", o->side1, "Who plays side 1: opponent or random (default random)");
  cmd->add_option("--max-actions", o->max_actions, "Actions after which a game is abandoned (default 20000)")
      ->check(CLI::Range(1, 10000000));
  if (command_line_of(type.name).picture)
    cmd->add_option("--svg-dir", o->svg_dir,
                    "Write a picture of each game's end into this folder (game-SEED.svg), to see how it was won");
  add_output_options(cmd, o->out);
  cmd->callback([o, &type, max_input_bytes] {
    const auto picture = o->svg_dir.empty() ? decltype(CommandLineEntry::picture){} : command_line_of(type.name).picture;
    std::vector<std::pair<std::string, std::string>> pictures;  // file name, SVG
    const Player players[2] = {named_player(type, o->side0, "--side0"), named_player(type, o->side1, "--side1")};
    const Json battle = load_json_file(o->battle, max_input_bytes);
    const std::shared_ptr<const Game> game = type.load(battle, o->battle, Json::object());
    int wins[2] = {0, 0}, draws = 0, unfinished = 0, refused = 0;
    std::map<std::string, long long> audits;  // the system's checks: times each saw its rule broken
    long long turns = 0, actions = 0;
    Json per_game = Json::array();
    const auto t0 = std::chrono::steady_clock::now();
    for (int g = 0; g < o->games; ++g) {
      const std::uint64_t seed = o->seed + static_cast<std::uint64_t>(g);
      const PlayedGame played = play_seeded(type, *game, players, seed, o->max_actions, SimulationMode::Game, true);
      const GameState* const s = played.state.get();
      const int n = played.actions;
      const Json& refusal = played.refusal;
      if (!refusal.is_null()) ++refused;
      for (const auto& [check, times] : played.audits) audits[check] += times;
      actions += n;
      const Json r = s->result();
      int winner = -1;
      if (!s->is_terminal()) ++unfinished;
      else if (r.at("winner").is_null()) ++draws;
      else ++wins[winner = r.at("winner").get<int>()];
      turns += s->turn();
      per_game.push_back({{"seed", seed}, {"winner", winner < 0 ? Json(nullptr) : Json(winner)},
                          {"turn", s->turn()}, {"reason", r.at("reason")}});
      if (!refusal.is_null()) per_game.back()["refused"] = refusal;
      if (picture)
        pictures.emplace_back(fmt::format("game-{}.svg", seed),
                              picture(*s, fmt::format("seed {}, turn {}: {}", seed, s->turn(),
                                                      r.at("reason").get<std::string>())));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::vector<std::string> names = game->players();
    Json answer = {{"system", type.name},
                   {"battle", o->battle},
                   {"games", o->games},
                   {"seed", o->seed},
                   {"players", {o->side0, o->side1}},
                   {"armies", names},
                   {"wins", {wins[0], wins[1]}},
                   {"draws", draws},
                   {"unfinished", unfinished},
                   {"refused", refused},
                   {"win_rate", {static_cast<double>(wins[0]) / o->games, static_cast<double>(wins[1]) / o->games}},
                   {"mean_turns", static_cast<double>(turns) / o->games},
                   {"mean_actions", static_cast<double>(actions) / o->games},
                   {"seconds", seconds},
                   {"per_game", per_game}};
    if (type.audit) answer["audits"] = audits;
    std::string text = fmt::format("{} games on {}, seeds {} to {}\n", o->games, o->battle, o->seed,
                                   o->seed + static_cast<std::uint64_t>(o->games) - 1);
    for (int side = 0; side < 2; ++side)
      text += fmt::format("side {} ({}, {}): {} wins ({:.1f}%)\n", side, names.at(static_cast<std::size_t>(side)),
                          side == 0 ? o->side0 : o->side1, wins[side], 100.0 * wins[side] / o->games);
    text += fmt::format("draws {}, unfinished {}, refused actions {}; mean turns {:.2f}, mean actions {:.1f}; {:.1f} s\n",
                        draws, unfinished, refused, static_cast<double>(turns) / o->games,
                        static_cast<double>(actions) / o->games, seconds);
    if (type.audit) {
      text += "checks over every action:";
      if (audits.empty()) text += " none broken";
      for (const auto& [check, times] : audits) text += fmt::format(" {} {};", check, times);
      text += "\n";
    }
    if (picture) {
      std::error_code ec;
      std::filesystem::create_directories(o->svg_dir, ec);
      if (ec) throw InputError("--svg-dir", fmt::format("cannot make the folder: {}", ec.message()));
      OutputSet outputs;
      for (auto& [name, svg] : pictures) outputs.add((std::filesystem::path(o->svg_dir) / name).string(), std::move(svg));
      outputs.commit();
    }
    emit(o->out, answer, text);
  });
}

}  // namespace referee::cli
