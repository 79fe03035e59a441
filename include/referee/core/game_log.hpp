// The replayable action log, shared by every rule system. It is JSON Lines:
// a header line, then one line per action with the rolls it used. One line
// per entry means a corrupt log is refused with the line that is wrong.
//
//   {"format":"referee-log/1","system":"warmaster","seed":42,"scenario":"..."}
//   {"seq":1,"action":{...},"rolls":[{"die":"d6","value":4,"for":"order test"}],"result":{...}}
//   {"seq":2,"action":{...},"rolls":[],"refused":[{"rule":"...","reason":"...","figures":[...]}]}
//
// The header may carry the battle itself ("battle"), so that a replay never
// opens a file the log names, and "dice":"scripted" when the rolls were
// entered by hand rather than drawn from the seed.
//
// A game served to players with secret dice (docs/api.md, "The dice") has a
// header with "seed_commitment" (the SHA-256 of the seed and the game's
// salt) and, while the game is on, "seed": null; once it is over, the seed
// and "seed_salt" too, so that a replay can check the commitment.
//
// A battle whose start is dealt at random has the deal's rolls in the
// header ("start_rolls"), as an entry has its own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/core/dice.hpp"

namespace referee {

inline constexpr const char* kLogFormat = "referee-log/1";

struct LogEntry {
  int seq = 0;
  nlohmann::json action;   // what was asked, as the system's own action JSON
  std::vector<Roll> rolls; // every die rolled while applying it, in order
  nlohmann::json result;   // the outcome, for people reading the log and for checking a replay
  nlohmann::json refused;  // null when applied; else the rulings that refused the action
  bool operator==(const LogEntry&) const = default;
  // The entry as one line of the log ("result" and "refused" only when set).
  nlohmann::json to_json() const;
};

struct GameLog {
  std::string system;      // "warmaster", "ancients", "blightmeer"
  std::uint64_t seed = 0;
  std::string scenario;    // the scenario file or name the game started from
  nlohmann::json settings = nlohmann::json::object();
  std::vector<LogEntry> entries;
  nlohmann::json battle;   // the scenario as loaded; null in logs that only name it
  bool scripted_dice = false;
  // Secret dice: the commitment to the seed (64 hex digits, empty for a log
  // without one), the salt it was made with (32 hex digits, once revealed),
  // and whether the seed is withheld ("seed": null; `seed` is then 0).
  std::string seed_commitment;
  std::string seed_salt;
  bool seed_withheld = false;
  // The rolls that dealt the start, before the first entry (a battle dealt
  // at random: Game::new_initial_state(Dice&)); empty when the start rolls
  // none. Withheld ("start_rolls": null) in a log served while the game is
  // on under imperfect information: they give every hand.
  std::vector<Roll> start_rolls;
  bool start_rolls_withheld = false;

  LogEntry& append(nlohmann::json action, std::vector<Roll> rolls, nlohmann::json result);
  std::string to_jsonl() const;
  // Throws InputError("line N", problem) for the first bad line.
  static GameLog parse_jsonl(std::string_view text, const std::string& source_name);
  // Every roll in the log, in order: feed to ScriptedDice to replay a game
  // played with physical dice.
  std::vector<int> all_roll_values() const;
};

}  // namespace referee
