// Seeded games in bulk, through the game interface only (core/game.hpp): the
// one loop that `referee <system> arena`, `referee <system> simulate` and
// Python's referee.simulate() play, and the figures they draw from it.
//
// A game is a pure function of (battle, players, seed): its dice and each
// side's choices come from streams derived from the seed alone (game_seeds),
// never from the order in which games are played or from which worker plays
// them. A simulation of N games from a master seed S plays game i with the
// seed simulation_game_seed(S, i), so the same run gives the same lines
// however it is cut up, and runs from different master seeds share no game.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "referee/core/dice.hpp"
#include "referee/core/game.hpp"

namespace referee {

// The streams of one game: its dice, and each side's choices.
struct GameSeeds {
  std::uint64_t dice;
  std::uint64_t player[2];
};
GameSeeds game_seeds(std::uint64_t seed);

// A side's player: the action it chooses for the current player of `state`,
// drawing any choice from `rng`; nullopt when it has none.
using Player = std::function<std::optional<Json>(const GameState& state, Rng& rng)>;

// "random" (GameState::sample_action) or "opponent" (the system's built-in
// one); an InputError naming `field` otherwise, or for "opponent" in a
// system without one.
Player named_player(const GameType& type, const std::string& name, const std::string& field);

// How much of a battle one run plays.
enum class SimulationMode {
  Game,   // to the end of the battle (or max_actions)
  Phase,  // the battle's first phase: until phase() (up to any ':') or the player changes
};
SimulationMode simulation_mode(const std::string& name, const std::string& field);  // "game" | "phase"
std::string to_string(SimulationMode m);

// What one game did. `audits`: the system's checks (GameType::audit), the
// times each saw its rule broken, filled only when `audit` was asked.
struct PlayedGame {
  std::unique_ptr<GameState> state;  // where it stopped
  int actions = 0;
  Json refusal;  // the refused action and its rulings, null when none was (never expected)
  std::map<std::string, long long> audits;
  std::map<std::string, int> by_type;  // actions applied, by their "type"
  int passed = 0, failed = 0;          // outcomes whose result says "passed": true or false
};

// Plays one game from the battle's start: side p chooses through players[p]
// with its own stream, the dice roll from theirs (game_seeds(seed)). Stops at
// the end, after `max_actions`, at a refusal or when a player has no action;
// in Phase mode at the end of the first phase. Outcomes are described, to
// count the rolls passed and failed (a few per cent of a game's time).
PlayedGame play_seeded(const GameType& type, const Game& game, const Player (&players)[2], std::uint64_t seed,
                       int max_actions, SimulationMode mode = SimulationMode::Game, bool audit = false);

struct SimulationSpec {
  SimulationMode mode = SimulationMode::Game;
  std::uint64_t seed = 1;  // the master seed: game i plays with simulation_game_seed(seed, i)
  int max_actions = 20000;
};

// The seed game `index` of a run from master seed `master` plays with (its
// line's "seed"; `referee <system> arena --seed` that number --games 1 plays
// the same game): SplitMix64's mixing of the master seed's mixing plus the
// index, so runs from neighbouring master seeds are unrelated.
std::uint64_t simulation_game_seed(std::uint64_t master, std::uint64_t index);

// Game `index` of a simulation as one JSON object (one line of its results):
// index, seed, winner (null: a draw or unfinished), over, reason, turn,
// phase, actions, by_type, passed, failed, and refused when an action was.
Json simulate_one(const GameType& type, const Game& game, const Player (&players)[2], const SimulationSpec& spec,
                  std::uint64_t index);

// The counts a summary is made of, added up line by line; tallies of parts
// of a run merge (a worker's part, sent to the parent, which then need not
// read the lines again).
struct SimulationTally {
  long long games = 0, wins[2] = {0, 0}, draws = 0, unfinished = 0, refused = 0, turns = 0, actions = 0,
            passed = 0, failed = 0;
  void add(const Json& line);
  void merge(const SimulationTally& other);
  Json to_json() const;
  static SimulationTally from_json(const Json& j);  // what to_json wrote
};

// The summary of a simulation's lines: games, wins per side with each side's
// win rate and its 95% Wilson interval, draws, unfinished, refused, mean
// turns and actions, and the passed and failed rolls. `names`: the armies.
Json simulation_summary(const SimulationTally& tally, const std::vector<std::string>& names);
Json simulation_summary(const std::vector<Json>& lines, const std::vector<std::string>& names);

// The 95% Wilson score interval of `successes` out of `n` (n > 0).
std::pair<double, double> wilson_interval(long long successes, long long n);

// A bar chart of a summary (wins of each side, draws, unfinished, with the
// win rates' intervals) as SVG text.
std::string summary_svg(const Json& summary, const std::string& title);

}  // namespace referee
