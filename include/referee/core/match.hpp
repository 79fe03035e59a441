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

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
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
  const GameState& state() const { return *now_.state; }
  const GameLog& log() const { return log_; }
  const DiceSource& dice_source() const { return source_; }

  // Validates and applies; a refusal leaves the state as it was and is
  // recorded in the log too (with "refused" and its rulings). Bad input
  // (InputError) and a dice script that runs out (ScriptError) record nothing.
  Outcome play(const Json& action, const std::string& path = "action");

  // Steps back over the last entry of the log (refusals included) and
  // forward again. Playing after an undo drops what was undone.
  bool can_undo() const { return cursor_ > 0; }
  bool can_redo() const { return cursor_ < log_.entries.size(); }
  void undo();
  void redo();
  std::size_t position() const { return cursor_; }
  std::size_t history_size() const { return log_.entries.size() + 1; }

  // The log as played up to the current position (what undo left standing).
  GameLog current_log() const;

  // --- How much of the history is kept as states.
  // A state is kept for the start, every `interval`-th position, the current
  // position and the one before it, and, after an undo or redo, the
  // `interval` positions either side of the current one; any other is made
  // again when undo, redo or state_at needs it, by replaying the log from the
  // nearest kept state before it (at most `interval` - 1 entries, each
  // applied with the dice where they stood, so it gives exactly the state
  // played). 1, the default, keeps every state.
  // A server sets it from a state's size, so a game's memory grows with the
  // log (what changed) rather than with the battle's size per entry.
  void set_snapshot_interval(std::size_t interval);
  std::size_t snapshot_interval() const { return interval_; }
  std::size_t snapshots_kept() const { return kept_.size(); }
  // The log's entries as JSON text, summed: what the history holds besides
  // its kept states.
  std::size_t log_bytes() const { return log_bytes_; }
  // The state after the first `position` entries (0 is the start), made from
  // the nearest kept state; the game does not move. `position` must be at
  // most history_size() - 1.
  std::shared_ptr<const GameState> state_at(std::size_t position) const;
  // Replays towards `position` (and keeps the states made) until `deadline`;
  // true when its state is kept, so that undo or redo to it replays nothing.
  // Lets a caller that holds a lock release it between steps.
  bool prepare(std::size_t position, std::chrono::steady_clock::time_point deadline);

  // Plays a log from the start and checks every entry: the rolls, the result
  // and any refusal must be what the engine gives now. The scenario comes
  // from the log's header ("battle"), or from `scenario` when the caller
  // gives one (a log written before logs carried their battle). A log that
  // does not match is refused naming its line (the header is line 1).
  // `each_entry`, when given, is called with the match before each entry is
  // played; it may throw to give up (a caller bounding the work) or set the
  // snapshot interval before the history grows. `script`, for a log of dice
  // rolled at a table, is the whole script when the caller kept it (a log
  // holds only the values used so far): the values still to come then stay.
  static Match replay(const GameRegistry& registry, const GameLog& log, const std::string& source_name,
                      const Json* scenario = nullptr, const std::string& scenario_name = "",
                      const std::function<void(Match&)>& each_entry = {}, const std::vector<int>* script = nullptr);

 private:
  struct Snapshot {
    std::shared_ptr<const GameState> state;
    StreamDice::Position dice;
  };
  // The state after log entry `index`, from the one before it.
  Snapshot replay_entry(std::size_t index, const Snapshot& before, StreamDice& dice) const;
  // Makes and keeps the states from the nearest kept one up to `position`,
  // stopping early at `deadline` when one is given.
  bool materialize(std::size_t position, const std::chrono::steady_clock::time_point* deadline);
  // Forgets the states the interval does not keep, but those within
  // `window` of the current position.
  void prune(std::size_t window);
  // Makes `position` current; `window`: after play, only the state before it
  // is kept near it (an undo is likely); after undo or redo, the `interval`
  // either side (the states replayed to get there, which the next undo or
  // redo steps through).
  void move_to(std::size_t position, std::size_t window);

  std::shared_ptr<const Game> game_;
  DiceSource source_;
  StreamDice dice_;
  GameLog log_;
  std::map<std::size_t, Snapshot> kept_;  // position (after that many log entries) -> its state
  Snapshot now_;                          // kept_[cursor_]
  std::size_t cursor_ = 0;
  std::size_t interval_ = 1;
  std::vector<std::uint32_t> entry_bytes_;  // per log entry
  std::size_t log_bytes_ = 0;
};

// Every log entry's JSON for a refused action: {"refused": [rulings]}.
Json refusal_json(const Verdict& v);

}  // namespace referee
