// One game interface for every rule system (OpenSpiel's spiel.h is the
// model): an immutable Game built from a scenario, a cloneable GameState,
// validation apart from application, legal actions, explicit chance, named
// queries, and a registry by name.
//
// The interface is a layer over each system's typed API, as OpenSpiel's
// ChessState sits over ChessBoard. It speaks JSON at its edges, the same
// action and state JSON the systems already read and write, so the command
// line, the web server and the Python bindings need to learn one API. Hot
// paths (simulations, benchmarks) keep calling the typed API directly.
//
// Policy for illegal actions, the same in every system: apply() refuses the
// action with its rulings and leaves the state exactly as it was; Match (see
// match.hpp) records the refusal in the game log. Malformed actions (not
// JSON of the right shape, an unknown unit id) are bad input: an InputError
// naming the field, never a ruling.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/core/chance.hpp"
#include "referee/core/dice.hpp"
#include "referee/core/rule_catalogue.hpp"
#include "referee/core/ruling.hpp"

namespace referee {

using Json = nlohmann::json;

// What applying an action did.
struct Outcome {
  Verdict verdict;          // empty when applied; the reasons when refused
  std::vector<Roll> rolls;  // every die rolled, in order (none when refused)
  Json result;              // what happened, for people and for checking a replay
  bool applied() const { return verdict.legal(); }
};

// One outcome of the dice an action rolls, with its exact probability. The
// outcomes of one action are exclusive and their chances sum to one.
struct ChanceOutcome {
  std::string label;  // "passed (7 or less)", "check 1 (climb) fails: stops at the foot"
  Chance chance;
  Json detail = Json::object();
};

// What the dice of an action can do, said explicitly: it rolls none, these
// outcomes (exclusive, their chances sum to one), or they cannot be listed,
// and why (too many dice to enumerate; where the exact odds are given instead).
struct Chances {
  enum class Kind { NoDice, Outcomes, NotEnumerable };
  Kind kind = Kind::NoDice;
  std::vector<ChanceOutcome> outcomes;  // Kind::Outcomes only
  std::string why;                      // Kind::NotEnumerable only

  static Chances no_dice() { return {}; }
  static Chances of(std::vector<ChanceOutcome> o) { return {Kind::Outcomes, std::move(o), {}}; }
  static Chances not_enumerable(std::string why) { return {Kind::NotEnumerable, {}, std::move(why)}; }
};
std::string to_string(Chances::Kind k);  // "no dice", "outcomes", "not enumerable"

// A question a board asks (reach, route, odds...). `args` documents the
// arguments object: {"unit": "unit id", "to": "[x, y]"}.
struct QueryInfo {
  std::string name;
  std::string summary;
  Json args = Json::object();
};

// Who looks at a state: a player (an index into Game::players()), or a
// spectator, who holds no seat.
inline constexpr int kSpectator = -1;

// What the rules hide from a player (OpenSpiel's information state). Under
// perfect information every viewer may see the whole state (Warmaster,
// Blightmeer); under imperfect information a player sees only part of it
// (an Ancients hand is its holder's, and nobody sees a deck's order), so
// GameState::view answers each viewer what it may know.
enum class Information { perfect, imperfect };
std::string to_string(Information i);  // "perfect", "imperfect"

class GameState {
 public:
  virtual ~GameState() = default;

  // An independent copy: applying actions to it never changes this one.
  virtual std::unique_ptr<GameState> clone() const = 0;
  // The whole state, enough for Game::state_from_json to resume play exactly.
  virtual Json to_json() const = 0;
  // The state as `viewer` (a player, or kSpectator) may know it: to_json()
  // under perfect information; under imperfect, the same JSON with what the
  // rules hide from that viewer left out (null) and its size said instead.
  // A view is for showing, not for resuming play.
  virtual Json view(int viewer) const = 0;

  // Whose turn: 0 or 1 (an index into Game::players()); -1 once the game is over.
  virtual int current_player() const = 0;
  virtual int turn() const = 0;
  // The system's own name for the step of the turn ("orders", "movement").
  virtual std::string phase() const = 0;
  virtual bool is_terminal() const = 0;
  // {"over": bool, "winner": player index or null, "reason": "..."}.
  virtual Json result() const = 0;

  // Is the action legal now? Never changes the state. `path` names the
  // action in errors ("actions[3]").
  virtual Verdict validate(const Json& action, const std::string& path = "action") const = 0;
  // Validates once, then applies, rolling through `dice`. A refused action
  // rolls nothing and leaves the state unchanged. describe=false may leave
  // Outcome::result empty, for simulations that keep no log. The systems'
  // states implement it once, in SystemState (game_adapter.hpp): the action
  // is parsed and checked once and the system's do_apply is handed a legal
  // action, as OpenSpiel's ApplyAction hands DoApplyAction one.
  virtual Outcome apply(const Json& action, Dice& dice, const std::string& path = "action",
                        bool describe = true) = 0;

  // Every legal action where actions are discrete. Where a system's actions
  // are continuous (positions), this lists the discrete ones (orders, ends
  // of steps) and sample_action reaches the rest.
  virtual std::vector<Json> legal_actions() const = 0;
  // A legal action drawn at random with `rng`, continuous ones included;
  // nullopt when there is none (the game is over). Every action returned
  // validates.
  virtual std::optional<Json> sample_action(Rng& rng) const = 0;
  // The outcomes of the dice the action would roll, with exact chances, or
  // that it rolls none (a refused action rolls none), or that they cannot
  // be listed and why.
  virtual Chances chance_outcomes(const Json& action, const std::string& path = "action") const = 0;

  // A named query (Game::queries()) answered on this state. Unknown names
  // and bad arguments are InputErrors.
  virtual Json query(const std::string& name, const Json& args, const std::string& path = "args") const = 0;
};

class Game {
 public:
  virtual ~Game() = default;

  // The registry name: "warmaster", "ancients", "blightmeer".
  virtual std::string system() const = 0;
  // The players' names (armies, sides), in the order current_player() counts.
  virtual std::vector<std::string> players() const = 0;
  // The scenario as loaded, with the settings in force: logs carry it, so a
  // replay never has to open a file a log names.
  virtual const Json& scenario() const = 0;
  // The start as the battle lists it, rolling nothing.
  virtual std::unique_ptr<GameState> new_initial_state() const = 0;
  // The start as a game begins it: a battle whose start is dealt at random
  // (an Ancients battle with "deal": "shuffled") rolls the deal through
  // `dice` (an explicit chance at the start, as OpenSpiel's first chance
  // node); any other start is new_initial_state() and rolls nothing. Match
  // starts every game so, and keeps the rolls (GameLog::start_rolls).
  virtual std::unique_ptr<GameState> new_initial_state(Dice& dice) const = 0;
  // Whether the rules hide part of a state from a player (Information).
  virtual Information information() const = 0;
  // What `viewer` (a player, or kSpectator) may read of one log entry (a
  // LogEntry's JSON line): the entry itself under perfect information; under
  // imperfect, what the rules hide from that viewer left out (a card drawn
  // is its drawer's; a shuffle's dice are nobody's while the game is on).
  virtual Json entry_view(const Json& entry, int viewer) const = 0;
  // The rolls that dealt the start (GameLog::start_rolls) are nobody's under
  // imperfect information while the game is on: they give every hand and
  // every deck's order.
  // Resumes a saved state (GameState::to_json); errors name the field under `path`.
  virtual std::unique_ptr<GameState> state_from_json(const Json& j, const std::string& path = "state") const = 0;
  virtual std::vector<QueryInfo> queries() const = 0;
  // Every rule id the system can cite, with its text (rule_catalogue.hpp).
  virtual std::span<const RuleInfo> rules() const = 0;
};

// A battle that ships with a system: its short name, its file under the
// source tree (the server has the files of scenarios/ built in), and its
// title in the menu. `text`, when not empty, is the file's content, for a
// system whose battles are not files of scenarios/ (the tests' own).
struct BattleInfo {
  std::string name;   // "default"
  std::string file;   // "scenarios/warmaster/default.json", relative to the repository root
  std::string title;  // "Warmaster: the default battle"
  std::string text = {};
  // The sides the built-in opponent plays when a newcomer opens this battle
  // without choosing (the board's first visit, or the battle chosen from a
  // menu); the first bundled battle that names some is the one a front end
  // opens on. Empty: both sides played by people (hot-seat).
  std::vector<int> opponent_sides = {};
};

// How a system is made from a scenario. `settings` are overrides merged into
// the scenario's own (an object; unknown keys are errors); `source` names the
// scenario in errors.
struct GameType {
  std::string name;       // "warmaster"
  std::string title;      // "Warmaster"
  std::string summary;    // one line
  std::function<std::shared_ptr<const Game>(const Json& scenario, const std::string& source, const Json& settings)>
      load;
  std::vector<QueryInfo> queries;  // what Game::queries() answers, known before any battle is loaded
  // The built-in opponent, for systems that have one (empty otherwise): the
  // action it chooses for the current player of `state`, drawn with `rng`
  // where it breaks ties or varies its play; nullopt once the game is over.
  // It plays through this interface, so every action it returns validates.
  std::function<std::optional<Json>(const GameState& state, Rng& rng)> opponent = {};
  // Checks a system makes over games it plays (the arena reports them): from
  // the state before an applied action, the action's outcome (described) and
  // the state after it, each check's name and the times it saw the rule
  // broken in this action. Empty for systems with none.
  std::function<std::vector<std::pair<std::string, int>>(const GameState& before, const Outcome& outcome,
                                                         const GameState& after)>
      audit = {};

  // What is known without loading a battle:
  // Every rule id the system can cite, with its text: the static catalogue
  // Game::rules() returns too.
  std::function<std::span<const RuleInfo>()> rules = {};
  std::vector<BattleInfo> battles = {};  // the battles it ships with, the menu's order
};
// Systems by name. A plain value: builtin_games() (games.hpp) holds the
// three real systems; tests build their own with extra ones.
class GameRegistry {
 public:
  // Throws std::logic_error on a duplicate name: registering twice is a bug.
  void add(GameType type);
  const GameType* find(std::string_view name) const;
  // InputError naming `field` and listing the known systems.
  const GameType& at(std::string_view name, const std::string& field = "system") const;
  std::vector<std::string> names() const;
  const std::vector<GameType>& types() const { return types_; }

 private:
  std::vector<GameType> types_;
};

// Chance by enumeration: applies `action` to clones of `state` once for
// every sequence of die faces it can roll (a die asked for beyond the
// sequence so far branches over its faces), and sums the exact chance of
// each label that `label` gives an outcome. Exact for any system whose
// apply() rolls through the Dice it is given. No dice when the action rolls
// none or is refused; not enumerable (saying which limit) when more than
// `max_leaves` sequences would be needed, or when the dice of one sequence
// have more outcomes than 64 bits count (a system then states its chances
// itself).
Chances enumerate_chance(
    const GameState& state, const Json& action, const std::function<std::string(const Outcome&)>& label,
    const std::string& path = "action", std::size_t max_leaves = 4096);

// {"over": false, "winner": null, "reason": ""} and the like.
Json game_result(bool over, std::optional<int> winner, const std::string& reason);
Json to_json_value(const ChanceOutcome& c);
Json to_json_value(const QueryInfo& q);

}  // namespace referee
