// The command phase in JSON (docs/warmaster-command.md): actions as players
// write them, the state as the engine shows it, and the game log (core
// game_log.hpp) with play and replay.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "referee/core/game_log.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/battle/battle_state.hpp"

namespace referee::warmaster {

// Parses one action for `state` (ids are checked against its battlefield, and
// a Combat phase's "decisions" are refused with any other phase's end_phase);
// errors name `path` and the field ("actions[3].units[0]: ...").
Action parse_action(const Json& j, const WarmasterState& state, const std::string& path);
Json to_json(const Action& a);

// Everything later play depends on (the flags, the units being ordered, the
// units touching when ordered movement began, every stand and character
// pose), so that state_from_json resumes the game exactly.
Json state_to_json(const WarmasterState& s);
// The inverse of state_to_json for a state of `game`: strict (unknown fields,
// unknown ids, wrong counts of units or stands and out-of-range values are
// InputErrors naming the field under `path`).
WarmasterState state_from_json(std::shared_ptr<const BattleGame> game, const Json& j, const std::string& path);
// The legal actions in a compact form (moves of a pending order are listed
// with their stands).
Json legal_actions_json(const WarmasterState& s);

// Playing a list of actions (a JSON array) from a fresh state. Each action is
// parsed against the battlefield as it stands when its turn comes (a move's
// facing defaults to the stand's facing then). A malformed action is an
// InputError naming `path`[i]; an illegal one is refused and logged.
struct PlayReport {
  GameLog log;
  std::vector<std::pair<int, Verdict>> refused;  // index in the list, why
  Json final_state;
};
PlayReport play_actions(std::shared_ptr<const BattleGame> game, std::uint64_t seed, const Json& actions,
                        const std::string& path);

// Replays a log with its seed, checking every entry: the rolls and the
// result must be the ones the engine produces now. A log that does not match
// is refused naming its line (the header is line 1).
WarmasterState replay_log(std::shared_ptr<const BattleGame> game, const GameLog& log, const std::string& source_name);

}  // namespace referee::warmaster
