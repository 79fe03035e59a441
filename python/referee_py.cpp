// `import referee`: the one game interface (core/game.hpp, core/match.hpp)
// in Python, for every system of the registry (games/builtin.hpp). Nothing
// here names a system: a system added to the registry appears in Python as
// it is. The API follows OpenSpiel's pyspiel where the interface does (a
// Game makes States; a State is cloned, asked for its legal actions and
// applies actions); actions, states, results and query answers are the
// interface's JSON as Python dicts and lists.
//
// The GIL is released around every engine call that can take long (apply,
// validate, legal actions, sampling, queries, chances, replay, playouts), so
// Python threads run games in parallel. A Game may be shared by threads; a
// State, Dice, Rng or Match belongs to one thread at a time.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json_py.hpp"
#include "referee/core/chance_steps.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/files.hpp"
#include "referee/core/game.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/json_io.hpp"
#include "referee/core/match.hpp"
#include "referee/core/simulate.hpp"
#include "referee/games/builtin.hpp"

namespace referee::py {

namespace {

using pb::arg;
using namespace pybind11::literals;

// The exception types, made once when the module loads.
PyObject* input_error_type = nullptr;
PyObject* illegal_action_type = nullptr;
PyObject* script_error_type = nullptr;

// A Game with what it was loaded from, which a Match records in its log.
struct PyGame {
  std::shared_ptr<const Game> game;
  const GameType* type = nullptr;
  Json settings = Json::object();
  std::string source;
};

struct PyState {
  std::shared_ptr<const PyGame> game;
  std::unique_ptr<GameState> state;
};

struct PyDice {
  DiceSource source;
  StreamDice dice;
  explicit PyDice(DiceSource s) : source(s), dice(source) {}
};

struct PyMatch {
  std::shared_ptr<const PyGame> game;
  Match match;
};

std::shared_ptr<PyGame> make_game(const GameType& type, const Json& scenario, const std::string& source,
                                        const Json& settings) {
  auto g = std::make_shared<PyGame>();
  g->type = &type;
  g->settings = settings;
  g->source = source;
  {
    pb::gil_scoped_release unlocked;
    g->game = naming_source(source, [&] { return type.load(scenario, source, settings); });
  }
  return g;
}

Json settings_json(const pb::object& settings) {
  if (settings.is_none()) return Json::object();
  Json s = to_json(settings, "settings");
  if (!s.is_object()) throw InputError("settings", "expected a dict of setting: value");
  return s;
}

pb::object ruling_list(const Verdict& v) { return pb::cast(v.violations); }

std::vector<std::string> rule_ids(const Verdict& v) {
  std::vector<std::string> ids;
  for (const Ruling& r : v.violations) ids.push_back(r.rule);
  return ids;
}

// Raises referee.IllegalAction for a refused action, with its rulings.
[[noreturn]] void raise_illegal(const Outcome& o) {
  pb::object type = pb::reinterpret_borrow<pb::object>(illegal_action_type);
  pb::object e = type(explain(o.verdict));
  e.attr("rulings") = ruling_list(o.verdict);
  e.attr("rule_ids") = pb::cast(rule_ids(o.verdict));
  e.attr("outcome") = pb::cast(o);
  PyErr_SetObject(illegal_action_type, e.ptr());
  throw pb::error_already_set();
}

pb::object chances_py(const Chances& c) {
  pb::dict d("kind"_a = to_string(c.kind));
  if (c.kind == Chances::Kind::Outcomes) {
    pb::list l;
    for (const ChanceOutcome& o : c.outcomes) l.append(from_json(to_json_value(o)));
    d["outcomes"] = l;
  }
  if (c.kind == Chances::Kind::NotEnumerable) d["why"] = c.why;
  return d;
}

pb::list queries_py(const std::vector<QueryInfo>& qs) {
  pb::list l;
  for (const QueryInfo& q : qs) l.append(from_json(to_json_value(q)));
  return l;
}

pb::list rules_py(std::span<const RuleInfo> rules) {
  pb::list l;
  for (const RuleInfo& r : rules) l.append(pb::dict("id"_a = r.id, "text"_a = r.text, "fires"_a = r.fires));
  return l;
}

std::string battle_path(const std::string& file) { return std::string(REFEREE_SOURCE_DIR) + "/" + file; }

pb::dict battle_py(const std::string& system, const BattleInfo& b) {
  return pb::dict("system"_a = system, "name"_a = b.name, "title"_a = b.title, "file"_a = b.file,
                  "path"_a = b.file.empty() ? std::string() : battle_path(b.file), "opponent_sides"_a = b.opponent_sides);
}

pb::dict system_py(const GameType& t) {
  pb::list battles;
  for (const BattleInfo& b : t.battles) battles.append(battle_py(t.name, b));
  return pb::dict("name"_a = t.name, "title"_a = t.title, "summary"_a = t.summary, "queries"_a = queries_py(t.queries),
                  "battles"_a = battles, "has_opponent"_a = static_cast<bool>(t.opponent));
}

std::shared_ptr<PyGame> load_bundled(const std::string& system, const std::string& name, const pb::object& settings) {
  const GameType& type = builtin_games().at(system, "system");
  for (const BattleInfo& b : type.battles)
    if (b.name == name) {
      const Json scenario = b.text.empty() ? load_json_file(battle_path(b.file)) : parse_json_text(b.text, b.name);
      return make_game(type, scenario, b.file.empty() ? b.name : b.file, settings_json(settings));
    }
  std::string known;
  for (const BattleInfo& b : type.battles) known += (known.empty() ? "" : ", ") + b.name;
  throw InputError("name", "no bundled " + system + " battle \"" + name + "\" (bundled: " + known + ")");
}

PyState make_state(const std::shared_ptr<const PyGame>& g, std::unique_ptr<GameState> s) { return PyState{g, std::move(s)}; }

Outcome apply_action(PyState& s, const pb::handle& action, PyDice& dice, bool check, bool describe) {
  const Json a = to_json(action, "action");
  Outcome o;
  {
    pb::gil_scoped_release unlocked;
    o = s.state->apply(a, dice.dice, "action", describe);
  }
  if (check && !o.applied()) raise_illegal(o);
  return o;
}

// Plays from `s` until the end or `max_actions`: the built-in opponent for
// the sides in `opponent_sides`, random legal actions (sample_action) for
// the others, each side drawing from `rng`. Returns the actions applied.
int playout(PyState& s, Rng& rng, PyDice& dice, int max_actions, const std::vector<int>& opponent_sides) {
  const GameType& type = *s.game->type;
  if (!opponent_sides.empty() && !type.opponent)
    throw InputError("opponent_sides", type.title + " has no built-in opponent");
  int n = 0;
  std::optional<Outcome> refused;
  {
    pb::gil_scoped_release unlocked;
    GameState& st = *s.state;
    while (!st.is_terminal() && n < max_actions) {
      const int p = st.current_player();
      bool opponent = false;
      for (int side : opponent_sides) opponent = opponent || side == p;
      const std::optional<Json> a = opponent ? type.opponent(st, rng) : st.sample_action(rng);
      if (!a) break;
      Outcome o = st.apply(*a, dice.dice, "action", false);
      if (!o.applied()) {  // never expected: both players return legal actions
        refused = std::move(o);
        break;
      }
      ++n;
    }
  }
  if (refused) raise_illegal(*refused);
  return n;
}

// A player of referee.simulate(): "random", "opponent", or a Python function
// called as fn(state, rng) with a copy of the state and the side's own Rng
// (valid during the call only), which returns an action or None.
Player simulation_player(const std::shared_ptr<const PyGame>& game, const pb::handle& p, int side) {
  const std::string field = "players[" + std::to_string(side) + "]";
  if (pb::isinstance<pb::str>(p)) return named_player(*game->type, p.cast<std::string>(), field);
  if (!PyCallable_Check(p.ptr()))
    throw InputError(field, "expected \"random\", \"opponent\" or a function (state, rng) -> action");
  auto fn = std::make_shared<pb::object>(pb::reinterpret_borrow<pb::object>(p));
  return [game, fn, field](const GameState& s, Rng& rng) -> std::optional<Json> {
    pb::gil_scoped_acquire locked;
    pb::object a = (*fn)(make_state(game, s.clone()), pb::cast(&rng, pb::return_value_policy::reference));
    if (a.is_none()) return std::nullopt;
    return to_json(a, field);
  };
}

// Games start, start + 1, ... start + count - 1 of a simulation, each as its
// JSON line (simulate_one), played without the GIL but while a Python player
// chooses.
std::vector<std::string> simulate_lines(const std::shared_ptr<PyGame>& game, const pb::sequence& players,
                                        std::uint64_t seed, std::uint64_t start, std::uint64_t count,
                                        const std::string& mode, int max_actions) {
  if (pb::len(players) != 2) throw InputError("players", "expected two players, one a side");
  const Player ps[2] = {simulation_player(game, players[0], 0), simulation_player(game, players[1], 1)};
  SimulationSpec spec;
  spec.mode = simulation_mode(mode, "mode");
  spec.seed = seed;
  spec.max_actions = max_actions;
  std::vector<std::string> lines;
  lines.reserve(count);
  pb::gil_scoped_release unlocked;
  for (std::uint64_t i = start; i < start + count; ++i)
    lines.push_back(simulate_one(*game->type, *game->game, ps, spec, i).dump());
  return lines;
}

void add_simulation(pb::module_& m) {
  m.def("_simulate_lines", &simulate_lines, arg("game"), arg("players"), arg("seed"), arg("start"), arg("count"),
        arg("mode") = "game", arg("max_actions") = 20000,
        "Games start .. start + count - 1 of a simulation from master seed `seed` (game i plays with "
        "simulation_game_seed(seed, i)), "
        "each as one JSON line. referee.simulate() cuts a run into such tasks.");
  m.def("_simulation_summary",
        [](const std::vector<std::string>& lines, const std::vector<std::string>& names) {
          std::vector<Json> parsed;
          parsed.reserve(lines.size());
          for (const std::string& l : lines) parsed.push_back(parse_json_text(l, "line"));
          return from_json(simulation_summary(parsed, names));
        },
        arg("lines"), arg("names"), "The summary of a simulation's JSON lines (core/simulate.hpp).");
  m.def("_summary_svg",
        [](const pb::handle& summary, const std::string& title) {
          return summary_svg(to_json(summary, "summary"), title);
        },
        arg("summary"), arg("title"), "A bar chart of a summary as SVG text.");
  m.def("_dump_json",
        [](const pb::handle& value) {
          return to_json(value, "value").dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
        },
        arg("value"), "JSON text as the command line writes it (two-space indent), so both write the same bytes.");
  m.def("simulation_game_seed", &simulation_game_seed, arg("master"), arg("index"),
        "The seed game `index` of a run from master seed `master` plays with (its dict's \"seed\"; "
        "`referee <system> arena --seed` that number --games 1 replays it). Runs from different master seeds "
        "share no game.");
  m.def("wilson_interval", &wilson_interval, arg("successes"), arg("n"),
        "The 95% Wilson score interval (low, high) of `successes` out of `n`.");
}

std::string repr_ruling(const Ruling& r) { return "<Ruling " + explain(r) + ">"; }

// A viewer of `g`'s states: a player's index, or -1 (kSpectator); else an
// InputError naming `viewer`.
int checked_viewer(const Game& g, int viewer) {
  if (viewer < kSpectator || viewer >= static_cast<int>(g.players().size()))
    throw InputError("viewer", "expected a player's index, or -1 for a spectator");
  return viewer;
}

}  // namespace

void translate(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const InputError& e) {
    pb::object type = pb::reinterpret_borrow<pb::object>(input_error_type);
    pb::object err = type(e.what());
    err.attr("field") = e.field();
    err.attr("problem") = e.problem();
    PyErr_SetObject(input_error_type, err.ptr());
  } catch (const ScriptError& e) {
    PyErr_SetString(script_error_type, e.what());
  }
}

}  // namespace referee::py

using namespace referee;
using namespace referee::py;

PYBIND11_MODULE(_referee, m) {
  m.doc() = "The referee rules engine: every registered rule system through one game interface.";

  input_error_type = PyErr_NewExceptionWithDoc(
      "referee.InputError",
      "Bad input: a battle, action, state, log or argument that cannot be used. `field` is the path of what "
      "is wrong (\"armies[0].units[2].stands[1].x\", named after the file where there is one), `problem` what "
      "is wrong with it.",
      PyExc_ValueError, nullptr);
  illegal_action_type = PyErr_NewExceptionWithDoc(
      "referee.IllegalAction",
      "An action the rules forbid, refused with its rulings: `rule_ids` (the rule ids, in order), `rulings` "
      "(list of Ruling) and `outcome` (the refused Outcome). The state is unchanged. Raised by apply() and "
      "play() unless they are given check=False, when they return the refused Outcome instead.",
      PyExc_Exception, nullptr);
  script_error_type = PyErr_NewExceptionWithDoc(
      "referee.ScriptError",
      "Scripted dice ran out, or a scripted value does not fit the die the engine asked for.", PyExc_RuntimeError,
      nullptr);
  m.attr("InputError") = pb::handle(input_error_type);
  m.attr("IllegalAction") = pb::handle(illegal_action_type);
  m.attr("ScriptError") = pb::handle(script_error_type);
  pb::register_exception_translator(&translate);

  // --- Values.
  pb::class_<Figure>(m, "Figure", "A measured figure of a ruling: name, value and unit (\"cm\", \"hexes\", \"\").")
      .def_readonly("name", &Figure::name, "What was measured: \"moved\", \"allowed\", \"gap\".")
      .def_readonly("value", &Figure::value, "The value, in `unit`.")
      .def_readonly("unit", &Figure::unit, "\"cm\", \"in\", \"hexes\", or \"\" for counts.")
      .def("__repr__", [](const Figure& f) { return "<Figure " + f.name + " " + format_measure(f.value, f.unit) + ">"; });
  pb::class_<Ruling>(m, "Ruling", "Which rule decided, why, and the measured figures.")
      .def_readonly("rule", &Ruling::rule, "The rule id, \"warmaster.movement.gap\" (Game.rules() gives its text).")
      .def_readonly("reason", &Ruling::reason, "Why, in words, with the figures.")
      .def_readonly("figures", &Ruling::figures, "The measured figures (list of Figure).")
      .def("to_dict", [](const Ruling& r) { return from_json(Json(r)); }, "The ruling as the engine's JSON.")
      .def("__str__", [](const Ruling& r) { return explain(r); })
      .def("__repr__", &repr_ruling);
  pb::class_<Roll>(m, "Roll", "One die rolled: its sides, the value and what it was rolled for.")
      .def_readonly("sides", &Roll::sides, "Faces of the die (6 for a D6).")
      .def_readonly("value", &Roll::value, "The value rolled, 1 to sides.")
      .def_readonly("purpose", &Roll::purpose, "What it was rolled for: \"order test\", \"hit\".")
      .def("__repr__", [](const Roll& r) { return "<Roll d" + std::to_string(r.sides) + "=" + std::to_string(r.value) +
                                                   (r.purpose.empty() ? "" : " " + r.purpose) + ">"; });
  pb::class_<Outcome>(m, "Outcome", "What applying an action did: applied or refused (with rulings), the dice, the result.")
      .def_property_readonly("applied", &Outcome::applied, "True when the action was applied; False when refused.")
      .def_property_readonly("rulings", [](const Outcome& o) { return o.verdict.violations; },
                             "Why the action was refused (list of Ruling); empty when applied.")
      .def_property_readonly("rule_ids", [](const Outcome& o) { return rule_ids(o.verdict); },
                             "The refusing rulings' rule ids, in order; empty when applied.")
      .def_readonly("rolls", &Outcome::rolls, "Every die rolled, in order (none when refused).")
      .def_property_readonly("result", [](const Outcome& o) { return from_json(o.result); },
                             "What happened, as the system describes it (None when refused or with describe=False).")
      .def("__bool__", &Outcome::applied)
      .def("__repr__", [](const Outcome& o) {
        return o.applied() ? "<Outcome applied, " + std::to_string(o.rolls.size()) + " rolls>"
                           : "<Outcome refused: " + explain(o.verdict) + ">";
      });

  pb::class_<DeclaredAction>(
      m, "Declaration",
      "An action declared as an explicit chance step (State.declare): every outcome of the dice it would roll, "
      "each a sequence of die faces with its exact chance, to be resolved with the one a search chooses or "
      "samples (State.resolve).")
      .def_property_readonly("action", [](const DeclaredAction& d) { return from_json(d.action); },
                             "The action declared.")
      .def_property_readonly("kind", [](const DeclaredAction& d) { return to_string(d.kind); },
                             "\"no dice\", \"outcomes\" or \"not enumerable\".")
      .def_property_readonly("refused", &DeclaredAction::refused, "Whether the action is refused now.")
      .def_property_readonly("rulings", [](const DeclaredAction& d) { return ruling_list(d.verdict); },
                             "Why it is refused (empty when legal).")
      .def_property_readonly("why", [](const DeclaredAction& d) { return d.why; },
                             "Why the outcomes cannot be listed (kind \"not enumerable\").")
      .def_property_readonly(
          "outcomes",
          [](const DeclaredAction& d) {
            pb::list l;
            for (const ChanceStep& s : d.outcomes)
              l.append(pb::make_tuple(pb::cast(s.rolls), s.chance.successes, s.chance.outcomes));
            return l;
          },
          "The outcomes (kind \"outcomes\"): (rolls, successes, outcomes) for each, its chance being successes / "
          "outcomes over one denominator, summing to exactly one.")
      .def("sample",
           [](const DeclaredAction& d, Rng& rng) { return sample_outcome(d, rng); },
           arg("rng"), "An outcome's index drawn with its exact chance (0 for an action that rolls no dice).");

  pb::class_<Rng>(m, "Rng",
                  "The engine's own random generator (xoshiro256**): the same seed gives the same numbers on "
                  "every platform. sample_action() and the playouts draw their choices from one.")
      .def(pb::init<std::uint64_t>(), arg("seed") = 0, "A generator seeded with `seed` (0 to 2**64-1).")
      .def("next", &Rng::next, "The next 64-bit number.")
      .def("below", [](Rng& r, std::uint64_t bound) {
             if (bound == 0) throw InputError("bound", "must be at least 1");
             return r.below(bound);
           }, arg("bound"), "A whole number in [0, bound), without bias.")
      .def("__copy__", [](const Rng& r) { return r; })
      .def("__deepcopy__", [](const Rng& r, const pb::object&) { return r; }, arg("memo"));

  pb::class_<PyDice>(m, "Dice",
                     "The dice an action rolls through: seeded (the same seed, the same rolls everywhere) or "
                     "scripted (the values rolled at a real table, used in order; ScriptError when they run out "
                     "or a value does not fit the die).")
      .def(pb::init([](std::uint64_t seed, const std::optional<std::vector<int>>& script) {
             return std::make_unique<PyDice>(DiceSource{seed, script});
           }),
           arg("seed") = 0, arg("script") = pb::none(),
           "Dice drawn from `seed`, or, when `script` is given, the values in `script`, in order.")
      .def_property_readonly("seed", [](const PyDice& d) { return d.source.seed; }, "The seed.")
      .def_property_readonly("script", [](const PyDice& d) { return d.source.script; }, "The scripted values, or None.")
      .def_property_readonly("scripted_left", [](const PyDice& d) { return d.dice.scripted_left(); },
                             "How many scripted values are still to be used (0 for seeded dice).")
      .def_property_readonly("history", [](const PyDice& d) { return d.dice.history(); },
                             "Every die rolled so far, in order (list of Roll).")
      .def("roll", [](PyDice& d, int sides, const std::string& purpose) {
             if (sides < 1) throw InputError("sides", "must be at least 1");
             return d.dice.roll(sides, purpose);
           }, arg("sides") = 6, arg("purpose") = "", "Rolls one die of `sides` faces (recorded in history).");

  // --- Games.
  pb::class_<PyGame, std::shared_ptr<PyGame>>(
      m, "Game",
      "A rule system's game made from a battle (a scenario): immutable, shared by any number of states and "
      "threads. Made by load(), loads() or load_bundled().")
      .def_property_readonly("system", [](const PyGame& g) { return g.game->system(); },
                             "The system's registry name: \"warmaster\", \"ancients\", \"blightmeer\".")
      .def_property_readonly("title", [](const PyGame& g) { return g.type->title; }, "The system's title.")
      .def_property_readonly("players", [](const PyGame& g) { return g.game->players(); },
                             "The players' names (armies, sides), in the order current_player() counts.")
      .def_property_readonly("scenario", [](const PyGame& g) { return from_json(g.game->scenario()); },
                             "The scenario as loaded, with the settings in force (a dict).")
      .def_property_readonly("settings", [](const PyGame& g) { return from_json(g.settings); },
                             "The setting overrides it was loaded with (a dict).")
      .def_property_readonly("source", [](const PyGame& g) { return g.source; },
                             "Where the battle came from (its file), as errors and logs name it.")
      .def_property_readonly("has_opponent", [](const PyGame& g) { return static_cast<bool>(g.type->opponent); },
                             "Whether the system has a built-in opponent (State.opponent_action).")
      .def("new_initial_state",
           [](const std::shared_ptr<PyGame>& g, PyDice* dice) {
             return make_state(g, dice ? g->game->new_initial_state(dice->dice) : g->game->new_initial_state());
           },
           arg("dice") = pb::none(),
           "The state at the start of the battle. With `dice`, the start as a game begins it: a battle dealt at "
           "random (an Ancients battle with \"deal\": \"shuffled\") rolls its deal through them; without, the "
           "start as the battle lists it.")
      .def_property_readonly("information", [](const PyGame& g) { return to_string(g.game->information()); },
                             "\"perfect\" (every viewer may see the whole state) or \"imperfect\" (a player sees "
                             "part of it: State.view).")
      .def("entry_view",
           [](const PyGame& g, const pb::object& entry, int viewer) {
             return from_json(g.game->entry_view(to_json(entry, "entry"), checked_viewer(*g.game, viewer)));
           },
           arg("entry"), arg("viewer"),
           "What `viewer` (a player's index, or -1 for a spectator) may read of one log entry (a dict, a line "
           "of the log): the entry itself under perfect information.")
      .def("state_from_json",
           [](const std::shared_ptr<PyGame>& g, const pb::object& state) {
             const Json j = to_json(state, "state");
             std::unique_ptr<GameState> s;
             {
               pb::gil_scoped_release unlocked;
               s = g->game->state_from_json(j, "state");
             }
             return make_state(g, std::move(s));
           },
           arg("state"), "Resumes a saved state (State.to_json()); InputError naming the field when it is wrong.")
      .def("queries", [](const PyGame& g) { return queries_py(g.game->queries()); },
           "The named queries State.query() answers: a list of {name, summary, args}.")
      .def("rules", [](const PyGame& g) { return rules_py(g.game->rules()); },
           "Every rule id the system can cite: a list of {id, text, fires}.")
      .def("__repr__", [](const PyGame& g) { return "<Game " + g.game->system() + " " + g.source + ">"; });

  pb::class_<PyState>(m, "State",
                      "A position in a game: cloned cheaply and independently, asked for its legal actions, and "
                      "changed only by apply(). Belongs to one thread at a time (clone it for another).")
      .def_property_readonly("game", [](const PyState& s) { return std::const_pointer_cast<PyGame>(s.game); },
                             "The Game it belongs to.")
      .def("clone", [](const PyState& s) { return make_state(s.game, s.state->clone()); },
           "An independent copy: applying actions to it never changes this state.")
      .def("__copy__", [](const PyState& s) { return make_state(s.game, s.state->clone()); })
      .def("__deepcopy__", [](const PyState& s, const pb::object&) { return make_state(s.game, s.state->clone()); },
           arg("memo"))
      .def("to_json", [](const PyState& s) { return from_json(s.state->to_json()); },
           "The whole state as a dict, enough for Game.state_from_json() to resume play exactly.")
      .def("view",
           [](const PyState& s, int viewer) {
             return from_json(s.state->view(checked_viewer(*s.game->game, viewer)));
           },
           arg("viewer"),
           "The state as `viewer` (a player's index, or -1 for a spectator) may know it (OpenSpiel's information "
           "state): to_json() under perfect information; under imperfect, what the rules hide from that viewer "
           "is null, with its size beside it (an Ancients hand: hand_sizes). For showing, not for resuming.")
      .def("__eq__", [](const PyState& a, const PyState& b) {
             return a.game->game->system() == b.game->game->system() && a.state->to_json() == b.state->to_json();
           }, "The same system and the same state (compared as to_json()).")
      .def("current_player", [](const PyState& s) { return s.state->current_player(); },
           "Whose turn: 0 or 1 (an index into Game.players); -1 once the game is over.")
      .def("turn", [](const PyState& s) { return s.state->turn(); }, "The turn number.")
      .def("phase", [](const PyState& s) { return s.state->phase(); },
           "The system's name for the step of the turn (\"orders\", \"movement\").")
      .def("is_terminal", [](const PyState& s) { return s.state->is_terminal(); }, "Whether the game is over.")
      .def("result", [](const PyState& s) { return from_json(s.state->result()); },
           "{\"over\": bool, \"winner\": player index or None, \"reason\": str}.")
      .def("validate",
           [](const PyState& s, const pb::object& action) {
             const Json a = to_json(action, "action");
             Verdict v;
             {
               pb::gil_scoped_release unlocked;
               v = s.state->validate(a, "action");
             }
             return v.violations;
           },
           arg("action"),
           "The rulings that forbid `action` now (list of Ruling); empty when it is legal. Never changes the "
           "state. A malformed action (wrong shape, unknown id) raises InputError naming the field.")
      .def("is_legal",
           [](const PyState& s, const pb::object& action) {
             const Json a = to_json(action, "action");
             pb::gil_scoped_release unlocked;
             return s.state->validate(a, "action").legal();
           },
           arg("action"), "Whether `action` is legal now.")
      .def("apply", &apply_action, arg("action"), arg("dice"), pb::kw_only(), arg("check") = true,
           arg("describe") = true,
           "Validates and applies `action` (a dict, the system's action JSON), rolling through `dice`. Returns "
           "the Outcome. A refused action leaves the state unchanged and rolls nothing: with check=True (the "
           "default) it raises IllegalAction carrying the rule ids, with check=False the refused Outcome is "
           "returned (outcome.applied is False, outcome.rulings says why). describe=False may leave "
           "outcome.result None, for simulations that keep no log.")
      .def("legal_actions",
           [](const PyState& s) {
             std::vector<Json> actions;
             {
               pb::gil_scoped_release unlocked;
               actions = s.state->legal_actions();
             }
             pb::list l;
             for (const Json& a : actions) l.append(from_json(a));
             return l;
           },
           "Every legal action where actions are discrete (orders, ends of steps); continuous ones (positions) "
           "are reached by sample_action().")
      .def("sample_action",
           [](const PyState& s, Rng& rng) {
             std::optional<Json> a;
             {
               pb::gil_scoped_release unlocked;
               a = s.state->sample_action(rng);
             }
             return a ? from_json(*a) : pb::none();
           },
           arg("rng"), "A legal action drawn with `rng`, continuous ones included; None once the game is over.")
      .def("chance_outcomes",
           [](const PyState& s, const pb::object& action) {
             const Json a = to_json(action, "action");
             Chances c;
             {
               pb::gil_scoped_release unlocked;
               c = s.state->chance_outcomes(a, "action");
             }
             return chances_py(c);
           },
           arg("action"),
           "What the dice of `action` can do: {\"kind\": \"no dice\"}, {\"kind\": \"outcomes\", \"outcomes\": "
           "[{label, chance: {fraction, value}, detail}]} with exact chances summing to one, or {\"kind\": \"not "
           "enumerable\", \"why\": ...}.")
      .def("declare",
           [](const PyState& s, const pb::object& action, std::size_t max_outcomes) {
             const Json a = to_json(action, "action");
             pb::gil_scoped_release unlocked;
             return declare(*s.state, a, "action", max_outcomes);
           },
           arg("action"), arg("max_outcomes") = 4096,
           "`action` as an explicit chance step: a Declaration listing every outcome of its dice with its exact "
           "chance (at most `max_outcomes`; past that, kind \"not enumerable\" says why). The state never changes.")
      .def("resolve",
           [](const PyState& s, const DeclaredAction& d, std::size_t k) {
             std::optional<Resolved> r;
             {
               pb::gil_scoped_release unlocked;
               try {
                 r = resolve(*s.state, d, k);
               } catch (const std::logic_error& e) {
                 throw InputError("outcome", e.what());
               }
             }
             return pb::make_tuple(make_state(s.game, std::move(r->state)), r->outcome);
           },
           arg("declaration"), arg("k"),
           "The declared action applied with outcome `k` (0 for one that rolls no dice): (new State, Outcome), "
           "exactly what apply() gives with dice that rolled those faces. This state is left as it was. A "
           "declaration made on another state, a refused one or a `k` out of range raise InputError.")
      .def("query",
           [](const PyState& s, const std::string& name, const pb::object& args) {
             const Json a = args.is_none() ? Json::object() : to_json(args, "args");
             Json answer;
             {
               pb::gil_scoped_release unlocked;
               answer = s.state->query(name, a, "args");
             }
             return from_json(answer);
           },
           arg("name"), arg("args") = pb::none(),
           "A named query (Game.queries(): reach, routes, destinations, odds) answered on this state; unknown "
           "names and bad arguments raise InputError.")
      .def("opponent_action",
           [](const PyState& s, Rng& rng) {
             const GameType& type = *s.game->type;
             if (!type.opponent) throw InputError("opponent", type.title + " has no built-in opponent");
             std::optional<Json> a;
             {
               pb::gil_scoped_release unlocked;
               a = type.opponent(*s.state, rng);
             }
             return a ? from_json(*a) : pb::none();
           },
           arg("rng"),
           "The action the built-in opponent chooses for the current player, drawing ties from `rng`; None once "
           "the game is over. InputError for a system without one (Game.has_opponent).")
      .def("playout", &playout, arg("rng"), arg("dice"), arg("max_actions") = 100000,
           arg("opponent_sides") = std::vector<int>{},
           "Plays on in C++ (without the GIL) to the end or `max_actions`: the built-in opponent for the sides "
           "in `opponent_sides`, random legal actions drawn with `rng` for the others, dice from `dice`. "
           "Returns how many actions were applied.")
      .def("__repr__", [](const PyState& s) {
        return "<State " + s.game->game->system() + " turn " + std::to_string(s.state->turn()) + ", " +
               s.state->phase() + ", player " + std::to_string(s.state->current_player()) + ">";
      });

  // --- Matches: a game being played, with its log.
  pb::class_<PyMatch>(m, "Match",
                      "A game being played: the Game, its current state, its dice (seeded or scripted) and the log "
                      "of everything asked, refusals included, with undo and redo; saved as a JSON Lines log that "
                      "replay() plays back exactly.")
      .def(pb::init([](const std::shared_ptr<PyGame>& game, std::uint64_t seed,
                       const std::optional<std::vector<int>>& script) {
             return std::make_unique<PyMatch>(
                 PyMatch{game, Match(game->game, DiceSource{seed, script}, game->source, game->settings)});
           }),
           arg("game"), arg("seed") = 0, arg("script") = pb::none(),
           "A match from the start of `game`, its dice drawn from `seed` or, when `script` is given, the "
           "values in `script`, in order.")
      .def_property_readonly("game", [](const PyMatch& m) { return std::const_pointer_cast<PyGame>(m.game); },
                             "The Game.")
      .def_property_readonly("state", [](const PyMatch& m) { return make_state(m.game, m.match.state().clone()); },
                             "A copy of the current state (changing it does not change the match).")
      .def("play",
           [](PyMatch& m, const pb::object& action, bool check) {
             const Json a = to_json(action, "action");
             Outcome o;
             {
               pb::gil_scoped_release unlocked;
               o = m.match.play(a, "action");
             }
             if (check && !o.applied()) raise_illegal(o);
             return o;
           },
           arg("action"), pb::kw_only(), arg("check") = true,
           "Validates and applies `action` and records it in the log. A refusal is recorded too (with its "
           "rulings) and leaves the state as it was; then, with check=True (the default), IllegalAction is "
           "raised, and with check=False the refused Outcome is returned. Bad input (InputError) and scripted "
           "dice that run out (ScriptError) record nothing.")
      .def("undo", [](PyMatch& m) {
             if (!m.match.can_undo()) throw InputError("undo", "nothing to undo");
             pb::gil_scoped_release unlocked;
             m.match.undo();
           }, "Steps back over the last entry of the log (refusals included).")
      .def("redo", [](PyMatch& m) {
             if (!m.match.can_redo()) throw InputError("redo", "nothing to redo");
             pb::gil_scoped_release unlocked;
             m.match.redo();
           }, "Steps forward again over an undone entry.")
      .def_property_readonly("can_undo", [](const PyMatch& m) { return m.match.can_undo(); },
                             "Whether there is an entry to undo.")
      .def_property_readonly("can_redo", [](const PyMatch& m) { return m.match.can_redo(); },
                             "Whether there is an undone entry to redo.")
      .def_property_readonly("position", [](const PyMatch& m) { return m.match.position(); },
                             "Entries of the log played up to now (undo moves it back).")
      .def("log", [](const PyMatch& m) { return m.match.current_log().to_jsonl(); },
           "The log as played up to the current position, as JSON Lines text (a header, then one line per entry).")
      .def("entries",
           [](const PyMatch& m) {
             pb::list l;
             for (const LogEntry& e : m.match.current_log().entries) l.append(from_json(e.to_json()));
             return l;
           },
           "The log's entries as dicts: {seq, action, rolls, result} or {seq, action, rolls, refused}.")
      .def("save",
           [](const PyMatch& m, const pb::object& path) {
             const std::string file = pb::str(pb::module_::import("os").attr("fspath")(path));
             write_file_atomic(file, m.match.current_log().to_jsonl());
           },
           arg("path"), "Writes the log to `path` (str or os.PathLike; JSON Lines), replacing it whole or not at all.")
      .def("__repr__", [](const PyMatch& m) {
        return "<Match " + m.match.game().system() + ", " + std::to_string(m.match.position()) + " entries>";
      });

  // --- The registry.
  m.def("systems", [] { return builtin_games().names(); },
        "The registered systems' names: \"warmaster\", \"ancients\", \"blightmeer\".");
  m.def("system_info", [](const std::string& name) { return system_py(builtin_games().at(name, "system")); },
        arg("system"),
        "A system's entry: {name, title, summary, queries, battles, has_opponent}; InputError for an unknown one.");
  m.def("bundled_battles",
        [](const std::optional<std::string>& system) {
          pb::list l;
          for (const GameType& t : builtin_games().types())
            if (!system || *system == t.name)
              for (const BattleInfo& b : t.battles) l.append(battle_py(t.name, b));
          if (system && l.empty()) builtin_games().at(*system, "system");  // an unknown name is an error
          return l;
        },
        arg("system") = pb::none(),
        "The battles that ship with referee (all systems, or one): a list of {system, name, title, file, path, "
        "opponent_sides}, `path` the file in the source tree the module was built from.");
  m.def("load",
        [](const std::string& system, const pb::object& path, const pb::object& settings) {
          const std::string file = pb::str(pb::module_::import("os").attr("fspath")(path));
          const GameType& type = builtin_games().at(system, "system");
          Json scenario;
          {
            pb::gil_scoped_release unlocked;
            scenario = load_json_file(file);
          }
          return make_game(type, scenario, file, settings_json(settings));
        },
        arg("system"), arg("path"), arg("settings") = pb::none(),
        "Loads a battle file of `system`. `settings` overrides the battle's settings (a dict; unknown keys are "
        "errors). Raises InputError naming the file and the field when the file is wrong.");
  m.def("loads",
        [](const std::string& system, const pb::object& scenario, const pb::object& settings, const std::string& source) {
          const GameType& type = builtin_games().at(system, "system");
          const Json j = pb::isinstance<pb::str>(scenario) ? parse_json_text(scenario.cast<std::string>(), source)
                                                            : to_json(scenario, source);
          return make_game(type, j, source, settings_json(settings));
        },
        arg("system"), arg("scenario"), arg("settings") = pb::none(), arg("source") = "scenario",
        "Loads a battle of `system` from JSON text or from a dict; `source` names it in errors.");
  m.def("load_bundled", &load_bundled, arg("system"), arg("name") = "default", arg("settings") = pb::none(),
        "Loads a battle that ships with referee by its short name (bundled_battles()).");
  m.def("replay",
        [](const std::string& log, const std::string& source, const std::optional<std::vector<int>>& script) {
          pb::gil_scoped_release unlocked;
          const GameLog l = GameLog::parse_jsonl(log, source);
          Match match = Match::replay(builtin_games(), l, source, nullptr, "", {}, script ? &*script : nullptr);
          const GameType& type = builtin_games().at(l.system, "system");
          auto g = std::make_shared<PyGame>(PyGame{match.game_ptr(), &type, l.settings, l.scenario});
          return std::make_unique<PyMatch>(PyMatch{std::move(g), std::move(match)});
        },
        arg("log"), arg("source") = "log", arg("script") = pb::none(),
        "Plays a log (JSON Lines text, Match.log()) from the start and checks every entry: the rolls, the "
        "results and the refusals must be what the engine gives now. Returns the Match at its end. A log that "
        "does not match raises InputError naming its line. `script`: for a log of dice rolled at a table, the "
        "whole script when it was kept (the values still to come stay).");
  add_simulation(m);
  m.attr("SOURCE_DIR") = REFEREE_SOURCE_DIR;
}
