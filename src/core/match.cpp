#include "referee/core/match.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdint>
#include <iterator>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "referee/core/errors.hpp"

namespace referee {

std::vector<int> parse_dice_script(const std::string& text, const std::string& field) {
  std::vector<int> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string_view item(text.data() + start, end - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    int v = 0;
    auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || p != item.data() + item.size() || v < 1 || v > 1000)
      throw InputError(field, fmt::format("die {}: expected a whole number from 1 to 1000, got \"{}\"", out.size() + 1,
                                          std::string(item)));
    out.push_back(v);
    start = end + 1;
  }
  return out;
}

StreamDice::StreamDice(const DiceSource& source) : rng_(source.seed), script_(source.script) {}

int StreamDice::draw(int sides, const std::string& purpose) {
  if (!script_) return static_cast<int>(rng_.below(static_cast<std::uint64_t>(sides))) + 1;
  if (next_ >= script_->size())
    throw ScriptError(fmt::format("the dice script ran out: roll {} (a d{} for {}) has no value", next_ + 1, sides,
                                  purpose.empty() ? "a roll" : purpose));
  const int v = (*script_)[next_];
  if (v < 1 || v > sides)
    throw ScriptError(fmt::format("dice script value {} ({}) does not fit a d{} (for {})", next_ + 1, v, sides,
                                  purpose.empty() ? "a roll" : purpose));
  ++next_;
  return v;
}

Json refusal_json(const Verdict& v) { return v.violations; }

Match::Match(std::shared_ptr<const Game> game, DiceSource dice, std::string scenario_name, Json settings)
    : game_(std::move(game)), source_(std::move(dice)), dice_(source_) {
  log_.settings = std::move(settings);
  log_.system = game_->system();
  log_.seed = source_.seed;
  log_.scenario = std::move(scenario_name);
  log_.battle = game_->scenario();
  log_.scripted_dice = source_.script.has_value();
  // A start dealt at random rolls here, before the first entry; its rolls
  // are the log's (GameLog::start_rolls), and every snapshot starts after them.
  now_ = {std::shared_ptr<const GameState>(game_->new_initial_state(dice_)), dice_.position()};
  log_.start_rolls = dice_.history();
  kept_.emplace(0, now_);
}

namespace {

// A log entry's size as JSON text, for log_bytes().
std::size_t entry_bytes(const LogEntry& e) {
  auto size = [](const Json& j) { return j.is_null() ? 0 : j.dump(-1, ' ', false, Json::error_handler_t::replace).size(); };
  return 32 + size(e.action) + size(e.result) + size(e.refused) + 24 * e.rolls.size();
}

}  // namespace

Outcome Match::play(const Json& action, const std::string& path) {
  const Snapshot now = now_;
  std::unique_ptr<GameState> next = now.state->clone();
  dice_.set_position(now.dice);
  Outcome out = next->apply(action, dice_, path);
  // Everything that could throw has run: only now is anything recorded.
  log_.entries.resize(cursor_);
  kept_.erase(kept_.upper_bound(cursor_), kept_.end());
  for (std::size_t i = cursor_; i < entry_bytes_.size(); ++i) log_bytes_ -= entry_bytes_[i];
  entry_bytes_.resize(cursor_);
  LogEntry& e = log_.append(action, out.rolls, out.result);
  if (!out.applied()) {
    e.refused = refusal_json(out.verdict);
    e.result = nullptr;
    kept_.emplace(cursor_ + 1, now);
  } else {
    kept_.emplace(cursor_ + 1, Snapshot{std::shared_ptr<const GameState>(std::move(next)), dice_.position()});
  }
  entry_bytes_.push_back(static_cast<std::uint32_t>(std::min<std::size_t>(entry_bytes(e), UINT32_MAX)));
  log_bytes_ += entry_bytes_.back();
  move_to(cursor_ + 1, 1);
  return out;
}

void Match::undo() {
  if (!can_undo()) throw InputError("undo", "nothing to undo");
  materialize(cursor_ - 1, nullptr);
  move_to(cursor_ - 1, interval_);
}

void Match::redo() {
  if (!can_redo()) throw InputError("redo", "nothing to redo");
  materialize(cursor_ + 1, nullptr);
  move_to(cursor_ + 1, interval_);
}

void Match::move_to(std::size_t position, std::size_t window) {
  cursor_ = position;
  now_ = kept_.at(position);
  prune(window);
}

void Match::set_snapshot_interval(std::size_t interval) {
  interval_ = std::max<std::size_t>(1, interval);
  prune(1);
}

void Match::prune(std::size_t window) {
  if (interval_ == 1) return;
  for (auto it = kept_.begin(); it != kept_.end();) {
    const std::size_t p = it->first;
    const std::size_t gap = p > cursor_ ? p - cursor_ : cursor_ - p;
    if (p % interval_ == 0 || gap <= window) ++it;
    else it = kept_.erase(it);
  }
}

Match::Snapshot Match::replay_entry(std::size_t index, const Snapshot& before, StreamDice& dice) const {
  const LogEntry& e = log_.entries[index];
  if (!e.refused.is_null()) return before;
  std::unique_ptr<GameState> next = before.state->clone();
  dice.set_position(before.dice);
  const Outcome out = next->apply(e.action, dice, "action");
  // The same state, action and dice give the same outcome: the log was made so.
  if (!out.applied() || out.rolls.size() != e.rolls.size())
    throw std::logic_error(fmt::format("log entry {} does not replay as it was played", index + 1));
  return {std::shared_ptr<const GameState>(std::move(next)), dice.position()};
}

bool Match::materialize(std::size_t position, const std::chrono::steady_clock::time_point* deadline) {
  auto from = std::prev(kept_.upper_bound(position));  // position 0 is always kept
  std::size_t at = from->first;
  Snapshot s = from->second;
  while (at < position) {
    s = replay_entry(at, s, dice_);
    kept_.emplace(++at, s);
    if (at < position && deadline != nullptr && std::chrono::steady_clock::now() >= *deadline) return false;
  }
  return true;
}

bool Match::prepare(std::size_t position, std::chrono::steady_clock::time_point deadline) {
  if (position >= history_size()) throw std::out_of_range("Match::prepare: no such position");
  return materialize(position, &deadline);
}

std::shared_ptr<const GameState> Match::state_at(std::size_t position) const {
  if (position >= history_size()) throw std::out_of_range("Match::state_at: no such position");
  auto from = std::prev(kept_.upper_bound(position));
  Snapshot s = from->second;
  StreamDice dice(source_);
  for (std::size_t at = from->first; at < position; ++at) s = replay_entry(at, s, dice);
  return s.state;
}

GameLog Match::current_log() const {
  GameLog out = log_;
  out.entries.resize(cursor_);
  return out;
}

namespace {

// Where two results first differ: the path ("rulings[1].rule") and the two
// values there. Objects are walked in key order, arrays in order. A value
// only one side has is null on the other.
struct Difference {
  std::string path;
  Json logged, now;
};

bool is_ruling(const Json& j) { return j.is_object() && j.contains("rule") && j.contains("reason"); }

// With `rulings_only`, only a pair of rulings (objects with "rule" and
// "reason") that differ, or a ruling one side has and the other not, counts:
// so the answer names the rule behind a changed result when there is one.
bool first_difference(const Json& logged, const Json& now, const std::string& path, bool rulings_only,
                      Difference& d) {
  if (logged == now) return false;
  auto found = [&] {
    d = {path, logged, now};
    return true;
  };
  if (is_ruling(logged) || is_ruling(now)) return found();
  auto at = [](const std::string& base, const std::string& key) { return base.empty() ? key : base + "." + key; };
  if (logged.is_object() && now.is_object()) {
    for (auto it = logged.begin(); it != logged.end(); ++it)
      if (first_difference(it.value(), now.contains(it.key()) ? now.at(it.key()) : Json(), at(path, it.key()),
                           rulings_only, d))
        return true;
    for (auto it = now.begin(); it != now.end(); ++it)
      if (!logged.contains(it.key()) && first_difference(Json(), it.value(), at(path, it.key()), rulings_only, d))
        return true;
    return !rulings_only && found();
  }
  if (logged.is_array() && now.is_array()) {
    for (std::size_t i = 0; i < std::max(logged.size(), now.size()); ++i)
      if (first_difference(i < logged.size() ? logged[i] : Json(), i < now.size() ? now[i] : Json(),
                           fmt::format("{}[{}]", path, i), rulings_only, d))
        return true;
    return !rulings_only && found();
  }
  return !rulings_only && found();
}

std::string shorten(const Json& j) {
  std::string s = j.dump();
  return s.size() <= 160 ? s : s.substr(0, 157) + "...";
}

std::string ruling_words(const Json& r) {
  return fmt::format("{}: {}", r.at("rule").get<std::string>(), r.at("reason").get<std::string>());
}

// Names the rule behind a changed result, so a log made before a rule was
// fixed says which rule the engine now applies.
std::string describe_difference(const Json& logged, const Json& now) {
  Difference d;
  if (first_difference(logged, now, "", true, d)) {
    if (is_ruling(d.now) && is_ruling(d.logged))
      return fmt::format(" (first at result.{}): the engine now rules {}; the log has {}", d.path,
                         ruling_words(d.now), ruling_words(d.logged));
    if (is_ruling(d.now))
      return fmt::format(" (first at result.{}): the engine now rules {}, which the log does not have", d.path,
                         ruling_words(d.now));
    return fmt::format(" (first at result.{}): the log has {}, which the engine no longer rules", d.path,
                       ruling_words(d.logged));
  }
  if (!first_difference(logged, now, "", false, d)) return "";
  return fmt::format(" (first at result{}{}): the log has {}, the engine gives {}", d.path.empty() ? "" : ".", d.path,
                     shorten(d.logged), shorten(d.now));
}

// How the rolls a log holds differ from those the engine rolled, or "" when
// they are the same: their number ("the log has 2 rolls`what`, ..."), or the
// first roll that differs.
std::string roll_difference(const std::vector<Roll>& logged, const std::vector<Roll>& rolled, const char* what) {
  if (logged.size() != rolled.size())
    return fmt::format("the log has {} rolls{}, the engine rolled {}", logged.size(), what, rolled.size());
  for (std::size_t i = 0; i < rolled.size(); ++i)
    if (rolled[i].value != logged[i].value || rolled[i].sides != logged[i].sides)
      return fmt::format("roll {} differs: the log has {} on a d{}, the engine rolled {} on a d{}", i + 1,
                         logged[i].value, logged[i].sides, rolled[i].value, rolled[i].sides);
  return "";
}

}  // namespace

Match Match::replay(const GameRegistry& registry, const GameLog& log, const std::string& source_name,
                    const Json* scenario, const std::string& scenario_name,
                    const std::function<void(Match&)>& each_entry, const std::vector<int>* script) {
  const std::string header = source_name + " line 1";
  const GameType& type = registry.at(log.system, header + ": system");
  const Json* battle = scenario ? scenario : (log.battle.is_null() ? nullptr : &log.battle);
  if (!battle)
    throw InputError(header, "the log does not carry its battle: give the battle file on the command line");
  // The battle in a log already has its settings merged in; overrides apply
  // only to a battle the caller gives.
  const Json overrides = scenario ? log.settings : Json::object();
  auto game = type.load(*battle, scenario ? scenario_name : source_name + " (battle)", overrides);
  // A log served while its game is on withholds the seed (docs/api.md, "The
  // dice"): its rolls cannot be checked, so it is not replayed.
  if (log.seed_withheld && !log.scripted_dice)
    throw InputError(header + ".seed", "the seed is withheld while the game is on (the server reveals it when the "
                                       "game ends); this log can be read but not replayed");
  if (log.start_rolls_withheld)
    throw InputError(header + ".start_rolls", "the rolls that dealt the start are withheld while the game is on; this "
                                              "log can be read but not replayed");
  DiceSource dice{log.seed, std::nullopt};
  if (log.scripted_dice) dice.script = script ? *script : log.all_roll_values();
  std::optional<Match> made;
  try {
    made.emplace(game, dice, log.scenario, log.settings);
  } catch (const ScriptError& ex) {
    throw InputError(header + ".start_rolls", std::string("the rolls do not match: ") + ex.what());
  }
  Match& m = *made;
  if (std::string d = roll_difference(log.start_rolls, m.log().start_rolls, " dealing the start"); !d.empty())
    throw InputError(header + ".start_rolls", d);
  for (const LogEntry& e : log.entries) {
    if (each_entry) each_entry(m);
    const std::string where = fmt::format("{} line {}", source_name, e.seq + 1);
    Outcome o;
    try {
      o = m.play(e.action, where + ": action");
    } catch (const ScriptError& ex) {
      throw InputError(where, std::string("the rolls do not match: ") + ex.what());
    }
    const bool refused = !e.refused.is_null();
    if (refused != !o.applied())
      throw InputError(where, refused ? "the log says this action was refused, but the engine applies it now"
                                      : "the engine refuses this action now: " + explain(o.verdict));
    // A changed result names the rule behind it, whether the rolls or the
    // result show it first.
    auto changed = [&] { return refused ? std::string() : describe_difference(e.result, o.result); };
    if (std::string d = roll_difference(e.rolls, o.rolls, ""); !d.empty()) throw InputError(where, d + changed());
    if (refused ? Json(refusal_json(o.verdict)) != e.refused : o.result != e.result)
      throw InputError(where, "replaying this action gives a different result from the one logged" + changed());
  }
  return std::move(*made);
}

}  // namespace referee
