// referee <system> play | replay | state | query: written once, over the
// game interface (core/game.hpp), for every registered system.
//
// One policy for illegal actions everywhere: an action that breaks a rule is
// refused with its rule ids and reasons, the state is left as it was, the
// refusal is recorded in the log, and play goes on; `play` then exits 3 so a
// script notices. Malformed input (a bad file, an unknown id) is exit 2 and
// nothing is written.
#include <array>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "dice_commitment.hpp"
#include "cli_support.hpp"
#include "commands.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/files.hpp"
#include "referee/core/game.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/json_io.hpp"
#include "referee/core/match.hpp"
#include "system_commands.hpp"

namespace referee::cli {

namespace {

// How a game is set up: the battle, its settings, and the dice.
struct SetupOptions {
  std::string battle;
  std::vector<std::string> settings;  // key=value, value in JSON (true, 3, "x")
  std::uint64_t seed = 1;
  std::string dice;                   // scripted values "3,4,6"
  // The system's flags that set a setting (CommandLineEntry::setting_flags),
  // each with whether it was given.
  std::vector<const CommandLineEntry::SettingFlag*> flags;
  std::deque<bool> given;
  std::uint64_t max_input_bytes = kDefaultMaxInputBytes;  // of every file read (core/files.hpp)
};

void add_setup_options(CLI::App* cmd, SetupOptions& o, const GameType& type, bool battle_required,
                       std::uint64_t max_input_bytes) {
  o.max_input_bytes = max_input_bytes;
  auto* b = cmd->add_option("--battle", o.battle, "Battle file (JSON)");
  if (battle_required) b->required();
  cmd->add_option("--setting", o.settings, "Override a setting of the battle: key=value (value in JSON); repeatable");
  cmd->add_option("--seed", o.seed, "Dice seed (default 1)")->check(seed_number());
  cmd->add_option("--dice", o.dice, "Scripted dice instead of the seed: the values rolled at the table, in order, e.g. 3,4,6");
  for (const CommandLineEntry::SettingFlag& f : command_line_of(type.name).setting_flags) {
    o.flags.push_back(&f);
    cmd->add_flag(f.flag, o.given.emplace_back(false), f.help);
  }
}

Json settings_overrides(const SetupOptions& o) {
  Json s = Json::object();
  for (const std::string& kv : o.settings) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError("--setting", "expected key=value, got \"" + kv + "\"");
    const std::string key = kv.substr(0, eq), text = kv.substr(eq + 1);
    try {
      s[key] = parse_json_text(text, "--setting " + key);
    } catch (const InputError&) {
      s[key] = text;  // a bare word is a string
    }
  }
  for (std::size_t i = 0; i < o.flags.size(); ++i)
    if (o.given[i]) s[o.flags[i]->setting] = o.flags[i]->value;
  return s;
}

DiceSource dice_source(const SetupOptions& o) {
  DiceSource d{o.seed, std::nullopt};
  if (!o.dice.empty()) d.script = parse_dice_script(o.dice, "--dice");
  return d;
}

// An action file is an array of actions, or {"actions": [...]}. Errors name
// the file first: "moves.json: actions[3].unit: ...".
struct ActionList {
  Json json;
  std::string path;  // of the list inside the file: "actions", or "" for a bare array
  std::string file;
};
ActionList load_actions(const std::string& file, std::uint64_t max_bytes) {
  const Json j = load_json_file(file, max_bytes);
  return naming_source(file, [&] {
    if (j.is_object()) {
      JsonReader r(j, "");
      r.allow_only({"actions", "description"});
      JsonReader list = r.at("actions");
      list.require_array();
      return ActionList{list.json(), list.path(), file};
    }
    JsonReader(j, "").require_array();
    return ActionList{j, "", file};
  });
}

struct Played {
  Json refused = Json::array();
  std::string text;
};

// Plays every action of the list through `m`; refusals are recorded and play goes on.
Played play_list(Match& m, const ActionList& actions) {
  Played p;
  for (std::size_t i = 0; i < actions.json.size(); ++i) {
    const std::string where = fmt::format("{}[{}]", actions.path, i);
    const Outcome o = naming_source(actions.file, [&] { return m.play(actions.json[i], where); });
    if (!o.applied()) {
      p.refused.push_back({{"index", i}, {"violations", o.verdict.violations}});
      p.text += fmt::format("action {} refused: {}\n", i, explain(o.verdict));
    } else if (o.result.is_object()) {
      // An action that ends a phase says what it did ("text", a Shooting
      // phase's report) and what comes next ("next"), so that the game reads
      // phase by phase.
      const auto said = [&](const char* key) {
        const auto it = o.result.find(key);
        return it != o.result.end() && it->is_string() ? it->get<std::string>() : std::string();
      };
      if (const std::string t = said("text"); !t.empty()) p.text += fmt::format("action {}:\n{}", i, t);
      if (const std::string n = said("next"); !n.empty()) p.text += fmt::format("action {}: now {}\n", i, n);
      if (const std::string b = said("battle_over"); !b.empty()) p.text += fmt::format("action {}: {}\n", i, b);
    }
  }
  return p;
}

Json summary_json(const Match& m) {
  const GameState& s = m.state();
  return {{"system", m.game().system()}, {"turn", s.turn()},     {"phase", s.phase()},
          {"player", s.current_player()}, {"over", s.is_terminal()}, {"result", s.result()}};
}

std::string summary_text(const Match& m) {
  const GameState& s = m.state();
  const std::vector<std::string> players = m.game().players();
  if (s.is_terminal()) {
    const Json r = s.result();
    return fmt::format("the game is over after turn {}: {}{}\n", s.turn(), r.at("reason").get<std::string>(),
                       r.at("winner").is_null() ? std::string()
                                                : "; winner " + players.at(r.at("winner").get<std::size_t>()));
  }
  const int p = s.current_player();
  return fmt::format("turn {}, {} to play ({}), {} step\n", s.turn(), p,
                     p >= 0 && static_cast<std::size_t>(p) < players.size() ? players[static_cast<std::size_t>(p)] : "",
                     s.phase());
}

// A match from a battle and actions, or from a log (which carries its battle).
// A log of a game played with secret dice (docs/api.md, "The dice") carries
// the commitment it showed from its start: its revealed seed and salt must
// give it; `committed`, when given, gets the header of such a log.
Match open_match(const GameRegistry& registry, const GameType& type, const SetupOptions& setup, const std::string& actions, const std::string& log,
                 Played* played, GameLog* committed = nullptr) {
  if (!log.empty()) {
    if (!actions.empty()) throw InputError("--actions", "give --actions or --log, not both");
    const GameLog l = GameLog::parse_jsonl(read_text_file(log, setup.max_input_bytes), log);
    if (server::check_dice_commitment(l, log) && committed) {
      committed->seed = l.seed;
      committed->seed_commitment = l.seed_commitment;
      committed->seed_salt = l.seed_salt;
    }
    if (l.system != type.name)
      throw InputError(log + " line 1: system", fmt::format("a {} log, not {}", l.system, type.name));
    if (!setup.battle.empty()) {
      const Json battle = load_json_file(setup.battle, setup.max_input_bytes);
      return Match::replay(registry, l, log, &battle, setup.battle);
    }
    return Match::replay(registry, l, log);
  }
  if (setup.battle.empty()) throw InputError("--battle", "a battle file is needed (or --log)");
  const Json overrides = settings_overrides(setup);
  Match m(type.load(load_json_file(setup.battle, setup.max_input_bytes), setup.battle, overrides), dice_source(setup),
          setup.battle, overrides);
  if (!actions.empty()) {
    Played p = play_list(m, load_actions(actions, setup.max_input_bytes));
    if (played) *played = std::move(p);
  }
  return m;
}

// Who plays each side: `--opponent` names the sides the built-in opponent
// plays ("0", "1", "both", or a side's name); the others play from the plan
// file, then from standard input with --interactive.
std::array<bool, 2> opponent_sides(const std::vector<std::string>& given, const GameType& type,
                                   const std::vector<std::string>& players) {
  std::array<bool, 2> sides{false, false};
  if (given.empty()) return sides;
  if (!type.opponent) throw InputError("--opponent", fmt::format("{} has no built-in opponent yet", type.title));
  for (const std::string& g : given) {
    if (g == "both") {
      sides = {true, true};
      continue;
    }
    bool found = false;
    for (std::size_t i = 0; i < 2 && i < players.size(); ++i)
      if (g == std::to_string(i) || g == players[i]) sides[i] = found = true;
    if (!found)
      throw InputError("--opponent", fmt::format("\"{}\" is not a side: give 0, 1, both, \"{}\" or \"{}\"", g,
                                                 players.empty() ? "" : players[0], players.size() < 2 ? "" : players[1]));
  }
  return sides;
}

// One line for an action that was applied: who did what, and what the dice said.
std::string narrate(const Json& action, const Outcome& o) {
  std::string type = action.value("type", std::string("action"));
  for (char& c : type)
    if (c == '_') c = ' ';
  std::string who;
  const auto add = [&](const std::string& s) { who += (who.empty() ? "" : ", ") + s; };
  if (action.contains("character") && action["character"].is_string()) add(action["character"].get<std::string>());
  if (action.contains("unit") && action["unit"].is_string()) add(action["unit"].get<std::string>());
  if (action.contains("units") && action["units"].is_array())
    for (const Json& u : action["units"])
      if (u.is_string()) add(u.get<std::string>());
  if (action.contains("moves") && action["moves"].is_array() && who.empty())
    for (const Json& m : action["moves"])
      if (m.is_object() && m.contains("unit") && m["unit"].is_string()) add(m["unit"].get<std::string>());
  std::string line = type + (who.empty() ? "" : " " + who);
  const Json& r = o.result;
  if (r.is_object() && r.contains("passed") && r.contains("needed") && r["passed"].is_boolean()) {
    int total = 0;
    for (const Roll& roll : o.rolls) total += roll.value;
    line += fmt::format(": {} ({} rolled, {} or less needed)", r["passed"].get<bool>() ? "passed" : "failed", total,
                        r["needed"].dump());
  } else if (r.is_object() && r.contains("outcome") && r["outcome"].is_string()) {
    line += ": " + r["outcome"].get<std::string>();
  } else if (!o.rolls.empty()) {
    line += ": rolled";
    for (const Roll& roll : o.rolls) line += fmt::format(" {}", roll.value);
  }
  return line;
}

std::string file_slug(const std::string& s) {
  std::string out;
  for (char c : s) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (keep) out += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "side" : out;
}

// The options of `play`.
struct PlayOptions {
  SetupOptions setup;
  std::string actions, out, svg_dir;
  std::vector<std::string> opponent;
  std::uint64_t opponent_seed = 0;
  bool opponent_seed_given = false;
  bool interactive = false;
  std::size_t max_actions = 100000;
  bool explain = false;
};

void add_play_options(CLI::App* cmd, const std::shared_ptr<PlayOptions>& o, const GameType& type,
                      std::uint64_t max_bytes) {
  add_setup_options(cmd, o->setup, type, true, max_bytes);
  cmd->add_option("--actions", o->actions, "Plan file (JSON): an array of actions, or {\"actions\": [...]}");
  cmd->add_option("--opponent", o->opponent,
                  "The built-in opponent plays this side: 0, 1, both, or a side's name; repeatable");
  cmd->add_option("--opponent-seed", o->opponent_seed,
                  "Seed of the opponent's own choices (default: the dice seed), so a game replays the same")
      ->check(seed_number())
      ->each([o](const std::string&) { o->opponent_seed_given = true; });
  cmd->add_flag("--interactive", o->interactive,
                "Sides the opponent does not play take their actions from standard input, one JSON action a line, "
                "once the plan file is used up");
  cmd->add_option("--max-actions", o->max_actions, "Stop after this many actions (default 100000)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{10000000}));
  cmd->add_option("-o,--out", o->out, "Write the game log (JSON Lines) here; the summary goes to standard output");
  if (command_line_of(type.name).picture)
    cmd->add_option("--svg-dir", o->svg_dir, "Write a picture of the battle after each phase into this folder");
  cmd->add_flag("--explain", o->explain, "Print the summary as readable text: a narrative of the game");
}

// What `play` keeps as the game goes on: the sides' names, the narrative and
// refusals, and the pictures taken after each phase.
struct PlayRecord {
  Played played;
  std::vector<std::string> players;
  decltype(CommandLineEntry::picture) picture;
  std::vector<std::pair<std::string, std::string>> pictures;  // file name, SVG

  std::string side_name(int p) const {
    return p >= 0 && static_cast<std::size_t>(p) < players.size() ? players[static_cast<std::size_t>(p)]
                                                                   : std::string("-");
  }
};

enum class PlayFrom { Opponent, Plan, Player };
enum class TypedAction { got, skip, stop };

// An action typed on standard input: 'legal' lists them, a blank or malformed
// line is skipped, 'quit' or the end of the input stops play.
TypedAction read_typed_action(const GameState& s, const std::string& prompt, std::size_t& line_no, Json& action,
                              std::string& where) {
  std::cerr << prompt << std::flush;
  std::string line;
  if (!std::getline(std::cin, line) || line == "quit") return TypedAction::stop;
  ++line_no;
  if (line.empty()) return TypedAction::skip;
  if (line == "legal") {
    for (const Json& a : s.legal_actions()) std::cerr << "  " << a.dump() << "\n";
    return TypedAction::skip;
  }
  try {
    action = parse_json_text(line, fmt::format("input line {}", line_no));
    (void)s.validate(action, "action");
  } catch (const InputError& e) {
    std::cerr << e.what() << "\n";
    return TypedAction::skip;
  }
  where = fmt::format("input line {}", line_no);
  return TypedAction::got;
}

// What became of an action side `p` chose in `phase` of `turn`: a refusal, or
// a line of the narrative and, when it ended the phase, a picture.
void record_play_outcome(const Match& m, const Outcome& out, const Json& action, const std::string& where,
                         PlayFrom from, int p, int turn, const std::string& phase, PlayRecord& rec) {
  Played& played = rec.played;
  if (!out.applied()) {
    played.refused.push_back(
        {{"index", m.log().entries.size() - 1}, {"from", where}, {"violations", out.verdict.violations}});
    played.text += fmt::format("{} refused: {}\n", where, explain(out.verdict));
    if (from == PlayFrom::Opponent)
      throw std::logic_error("the built-in opponent chose an action the rules refuse: " + explain(out.verdict));
    return;
  }
  played.text += fmt::format("turn {}, {}: {}\n", turn, rec.side_name(p), narrate(action, out));
  if (out.result.is_object()) {
    if (const auto t = out.result.find("text"); t != out.result.end() && t->is_string())
      played.text += t->get<std::string>();
    if (const auto b = out.result.find("battle_over"); b != out.result.end() && b->is_string())
      played.text += b->get<std::string>() + "\n";
  }
  const GameState& after = m.state();
  if (rec.picture && (after.turn() != turn || after.current_player() != p || after.phase() != phase))
    rec.pictures.emplace_back(
        fmt::format("{:03}-turn{}-{}-{}.svg", rec.pictures.size(), turn, file_slug(rec.side_name(p)), file_slug(phase)),
        rec.picture(after, fmt::format("turn {}, {}: after the {}", turn, rec.side_name(p), phase)));
}

// Plays until the game ends: the opponent's sides by the built-in opponent, the
// others from the plan file and then, with --interactive, from standard input.
void play_live(Match& m, const PlayOptions& o, const GameType& type, const std::array<bool, 2>& bot, PlayRecord& rec) {
  const ActionList plan = o.actions.empty() ? ActionList{Json::array(), "actions", ""}
                                            : load_actions(o.actions, o.setup.max_input_bytes);
  std::size_t next = 0, line_no = 0;
  Rng rng(o.opponent_seed_given ? o.opponent_seed : o.setup.seed);
  while (!m.state().is_terminal() && m.log().entries.size() < o.max_actions) {
    const GameState& s = m.state();
    const int p = s.current_player();
    const int turn = s.turn();
    const std::string phase = s.phase();
    Json action;
    std::string where;
    PlayFrom from = PlayFrom::Plan;
    if (p >= 0 && p < 2 && bot[static_cast<std::size_t>(p)]) {
      std::optional<Json> a = type.opponent(s, rng);
      if (!a) break;
      action = std::move(*a);
      where = fmt::format("opponent[{}]", m.log().entries.size());
      from = PlayFrom::Opponent;
    } else if (next < plan.json.size()) {
      where = fmt::format("{}[{}]", plan.path, next);
      action = plan.json[next++];
    } else if (o.interactive) {
      const std::string prompt =
          fmt::format("turn {}, {} (side {}), {}: your action as JSON ('legal' lists them, 'quit' ends)> ", turn,
                      rec.side_name(p), p, phase);
      const TypedAction typed = read_typed_action(s, prompt, line_no, action, where);
      if (typed == TypedAction::stop) break;
      if (typed == TypedAction::skip) continue;
      from = PlayFrom::Player;
    } else {
      break;
    }
    const Outcome out = from == PlayFrom::Plan ? naming_source(o.actions, [&] { return m.play(action, where); })
                                               : m.play(action, where);
    record_play_outcome(m, out, action, where, from, p, turn, phase, rec);
  }
}

// The log, the summary and the pictures, all written or none.
void write_play_outputs(const Match& m, const PlayOptions& o, PlayRecord& rec) {
  const Played& played = rec.played;
  Json answer = summary_json(m);
  answer["actions"] = m.log().entries.size();
  answer["refused"] = played.refused;
  answer["state"] = m.state().to_json();
  if (rec.picture) answer["pictures"] = rec.pictures.size();
  const std::string text = played.text + fmt::format("{} actions, {} refused; log of {} entries\n",
                                                     m.log().entries.size(), played.refused.size(),
                                                     m.log().entries.size()) +
                           summary_text(m);
  // The log goes to -o, or to standard output with the summary on standard error.
  const std::string summary = o.explain ? text : dump_answer(answer) + "\n";
  OutputSet outputs;
  outputs.add(o.out.empty() ? "-" : o.out, m.log().to_jsonl());
  if (!o.out.empty()) outputs.add("-", summary);
  if (rec.picture) {
    std::error_code ec;
    std::filesystem::create_directories(o.svg_dir, ec);
    if (ec) throw InputError("--svg-dir", fmt::format("cannot make the folder: {}", ec.message()));
    for (auto& [name, svg] : rec.pictures)
      outputs.add((std::filesystem::path(o.svg_dir) / name).string(), std::move(svg));
  }
  outputs.commit();
  if (o.out.empty()) std::cerr << summary << std::flush;
}

void run_play(const PlayOptions& o, const GameType& type, const GameRegistry& registry) {
  if (o.actions.empty() && o.opponent.empty() && !o.interactive)
    throw InputError("--actions", "give a plan file, --opponent or --interactive: nothing would be played");
  PlayRecord rec;
  const bool plain = o.opponent.empty() && !o.interactive;
  Match m = open_match(registry, type, o.setup, plain ? o.actions : std::string(), "", plain ? &rec.played : nullptr);
  rec.players = m.game().players();
  const std::array<bool, 2> bot = opponent_sides(o.opponent, type, rec.players);
  if (!o.svg_dir.empty()) rec.picture = command_line_of(type.name).picture;
  if (rec.picture) rec.pictures.emplace_back("000-start.svg", rec.picture(m.state(), "the battle before turn 1"));
  if (!plain) play_live(m, o, type, bot, rec);
  write_play_outputs(m, o, rec);
  if (!rec.played.refused.empty()) std::exit(3);
}

void add_play(CLI::App& parent, const GameType& type, const GameRegistry& registry, std::uint64_t max_bytes) {
  auto o = std::make_shared<PlayOptions>();
  auto* cmd = parent.add_subcommand(
      "play", "Play a game: actions from a plan file, from you (--interactive), or from the built-in opponent "
              "(--opponent); write the game log (refused plan actions are logged; exit 3)");
  add_play_options(cmd, o, type, max_bytes);
  cmd->callback([o, &type, &registry] { run_play(*o, type, registry); });
}

void add_replay(CLI::App& parent, const GameType& type, const GameRegistry& registry, std::uint64_t max_bytes) {
  struct Opts {
    std::string log, battle;
    OutputOptions out;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand("replay", "Replay a game log, check every roll and result, print the final state");
  cmd->add_option("--log", o->log, "Game log (JSON Lines)")->required();
  cmd->add_option("--battle", o->battle,
                  "Battle file, for a log that does not carry its battle (a log never makes referee open a file)");
  add_output_options(cmd, o->out);
  cmd->callback([o, &type, &registry, max_bytes] {
    SetupOptions setup;
    setup.battle = o->battle;
    setup.max_input_bytes = max_bytes;
    // A game played with secret dice: the replay shows that every roll came
    // from the seed its commitment names.
    GameLog header;
    const Match m = open_match(registry, type, setup, "", o->log, nullptr, &header);
    const bool committed = !header.seed_commitment.empty();
    Json answer = summary_json(m);
    answer["entries"] = m.log().entries.size();
    answer["consistent"] = true;
    std::string dice_text;
    if (committed) {
      answer["dice"] = {{"seed", header.seed}, {"commitment", header.seed_commitment}, {"matches_commitment", true}};
      dice_text = fmt::format("the dice: seed {} and salt {} give the commitment {}, and every roll came from that seed\n",
                              header.seed, header.seed_salt, header.seed_commitment);
    }
    answer["state"] = m.state().to_json();
    emit(o->out, answer,
         fmt::format("{} entries replayed, every roll and result matches\n", m.log().entries.size()) + dice_text +
             summary_text(m));
  });
}

void add_state(CLI::App& parent, const GameType& type, const GameRegistry& registry, std::uint64_t max_bytes) {
  struct Opts {
    SetupOptions setup;
    std::string actions, log, query, args;
    bool legal = false;
    CommandLineEntry::StateAddition system_options;  // what the system's own options add
    OutputOptions out;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand("state", "The state after some actions (or a log): whose turn, legal actions and their odds");
  add_setup_options(cmd, o->setup, type, false, max_bytes);
  cmd->add_option("--actions", o->actions, "Actions applied first (refused ones are reported and skipped)");
  cmd->add_option("--log", o->log, "Resume from a game log instead (it carries its battle)");
  cmd->add_flag("--legal", o->legal, "List the legal actions, each with the exact chance of its outcomes where it rolls dice");
  cmd->add_option("--query", o->query, "Also answer this named query (see `query --list`)");
  cmd->add_option("--args", o->args, "The query's arguments (JSON object)");
  if (const CommandLineEntry& cl = command_line_of(type.name); cl.state_options)
    o->system_options = cl.state_options(*cmd);
  add_output_options(cmd, o->out);
  cmd->callback([o, &type, &registry] {
    Played played;
    const Match m = open_match(registry, type, o->setup, o->actions, o->log, &played);
    const GameState& s = m.state();
    Json answer = summary_json(m);
    answer["state"] = s.to_json();
    answer["refused"] = played.refused;
    std::string text = played.text + summary_text(m);
    if (o->legal) {
      Json legal = Json::array();
      for (const Json& a : s.legal_actions()) {
        Json item{{"action", a}};
        const std::vector<ChanceOutcome> odds = s.chance_outcomes(a).outcomes;
        text += "  " + a.dump() + "\n";
        if (!odds.empty()) {
          Json oj = Json::array();
          for (const ChanceOutcome& c : odds) {
            oj.push_back(to_json_value(c));
            text += fmt::format("      {}: {} ({:.1f}%)\n", c.label, c.chance.fraction(), 100 * c.chance.value());
          }
          item["odds"] = oj;
        }
        legal.push_back(item);
      }
      answer["legal"] = legal;
    }
    if (!o->query.empty()) {
      const Json args = o->args.empty() ? Json::object() : parse_json_text(o->args, "--args");
      answer["query"] = s.query(o->query, args, "--args");
    }
    if (o->system_options) o->system_options(s, answer, text);
    emit(o->out, answer, text);
  });
}

void add_query(CLI::App& parent, const GameType& type, const GameRegistry& registry, std::uint64_t max_bytes) {
  struct Opts {
    SetupOptions setup;
    std::string name, actions, log, args;
    bool list = false;
    OutputOptions out;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand("query", "Answer a named query (reach, route, odds...) on the state after some actions");
  cmd->add_option("name", o->name, "The query's name");
  cmd->add_flag("--list", o->list, "List the queries and their arguments");
  add_setup_options(cmd, o->setup, type, false, max_bytes);
  cmd->add_option("--actions", o->actions, "Actions applied first");
  cmd->add_option("--log", o->log, "Ask on the state a game log reaches (it carries its battle)");
  cmd->add_option("--args", o->args, "The query's arguments (JSON object), e.g. '{\"unit\": \"emp-knights\"}'");
  add_output_options(cmd, o->out);
  cmd->callback([o, &type, &registry] {
    if (o->list || o->name.empty()) {
      if (!o->list) throw InputError("name", "which query? (--list shows them)");
      std::string text;
      Json list = Json::array();
      for (const QueryInfo& q : type.queries) {
        list.push_back(to_json_value(q));
        text += fmt::format("{}: {}\n", q.name, q.summary);
        for (const auto& [k, v] : q.args.items()) text += fmt::format("    {}: {}\n", k, v.get<std::string>());
      }
      emit(o->out, list, text);
      return;
    }
    const Match m = open_match(registry, type, o->setup, o->actions, o->log, nullptr);
    const Json args = o->args.empty() ? Json::object() : parse_json_text(o->args, "--args");
    const Json answer = m.state().query(o->name, args, "--args");
    emit(o->out, answer, answer.dump(2) + "\n");
  });
}

}  // namespace

void add_game_commands(CLI::App& system, const GameType& type, const GameRegistry& registry,
                       std::uint64_t max_input_bytes) {
  add_play(system, type, registry, max_input_bytes);
  add_replay(system, type, registry, max_input_bytes);
  add_state(system, type, registry, max_input_bytes);
  add_query(system, type, registry, max_input_bytes);
}

}  // namespace referee::cli
