// A game being played: the Game, its current state, the dice, and the log of
// everything asked, refusals included, with undo and redo. The command line
// and the web board play through this one class (boardgame.io's lesson: a
// replayable log, undo, and the dice's state kept with the game).
//
// Dice are seeded (our own generator, the same rolls everywhere) or scripted
// (the values rolled at a real table, in order). Their position is part of
// each snapshot, so an undone action that rolled gives the same rolls when
// it is made again, and a replay rolls exactly what the log recorded.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "referee/core/dice.hpp"
#include "referee/core/game.hpp"
#include "referee/core/game_log.hpp"

namespace referee {

// Where the dice come from.
struct DiceSource {
  std::uint64_t seed = 0;
  std::optional<std::vector<int>> script;  // scripted values, used in order
  bool operator==(const DiceSource&) const = default;
};

// Parses "3,4,6,1" (a --dice option); errors name `field`.
std::vector<int> parse_dice_script(const std::string& text, const std::string& field = "--dice");

// Dice that draw from a seed or a script, and whose position can be saved
// and restored: a plain value. With the same seed it rolls what SeededDice
// rolls.
class StreamDice final : public Dice {
 public:
  explicit StreamDice(const DiceSource& source);
  struct Position {
    Rng rng;
    std::size_t next_scripted = 0;
    bool operator==(const Position&) const = default;
  };
  Position position() const { return {rng_, next_}; }
  void set_position(const Position& p) { rng_ = p.rng; next_ = p.next_scripted; }
  bool scripted() const { return script_.has_value(); }
  std::size_t scripted_left() const { return script_ ? script_->size() - next_ : 0; }

 protected:
  int draw(int sides, const std::string& purpose) override;

 private:
  Rng rng_;
  std::optional<std::vector<int>> script_;
  std::size_t next_ = 0;
};

class Match {
 public:
  // `scenario_name` is for people (a file name); the scenario itself travels
  // in the log, from game->scenario(), with the settings in force merged in.
  // `settings` are the overrides the game was loaded with, recorded in the
  // log's header so a replay on a battle file given by hand applies them too.
  Match(std::shared_ptr<const Game> game, DiceSource dice, std::string scenario_name,
        Json settings = Json::object());

  const Game& game() const { return *game_; }
  std::shared_ptr<const Game> game_ptr() const { return game_; }
  const GameState& state() const { return *snapshots_[cursor_].state; }
  const GameLog& log() const { return log_; }
  const DiceSource& dice_source() const { return source_; }

  // Validates and applies; a refusal leaves the state as it was and is
  // recorded in the log too (with "refused" and its rulings). Bad input
  // (InputError) and a dice script that runs out (ScriptError) record nothing.
  Outcome play(const Json& action, const std::string& path = "action");

  // Steps back over the last entry of the log (refusals included) and
  // forward again. Playing after an undo drops what was undone.
  bool can_undo() const { return cursor_ > 0; }
  bool can_redo() const { return cursor_ + 1 < snapshots_.size(); }
  void undo();
  void redo();
  std::size_t position() const { return cursor_; }
  std::size_t history_size() const { return snapshots_.size(); }

  // The log as played up to the current position (what undo left standing).
  GameLog current_log() const;

  // Plays a log from the start and checks every entry: the rolls, the result
  // and any refusal must be what the engine gives now. The scenario comes
  // from the log's header ("battle"), or from `scenario` when the caller
  // gives one (a log written before logs carried their battle). A log that
  // does not match is refused naming its line (the header is line 1).
  static Match replay(const GameRegistry& registry, const GameLog& log, const std::string& source_name,
                      const Json* scenario = nullptr, const std::string& scenario_name = "");

 private:
  struct Snapshot {
    std::shared_ptr<const GameState> state;
    StreamDice::Position dice;
  };
  std::shared_ptr<const Game> game_;
  DiceSource source_;
  StreamDice dice_;
  GameLog log_;
  std::vector<Snapshot> snapshots_;  // snapshots_[i]: after the first i log entries
  std::size_t cursor_ = 0;
};

// Every log entry's JSON for a refused action: {"refused": [rulings]}.
Json refusal_json(const Verdict& v);

}  // namespace referee
