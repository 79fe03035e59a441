// referee warmaster odds | play | replay | state: the Command phase
// (docs/warmaster-command.md). Exit codes: 0 answered, 2 bad input,
// 3 (play) when any action was refused.
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "commands.hpp"
#include "referee/core/files.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/battlefield_json.hpp"
#include "referee/warmaster/command_json.hpp"
#include "referee/warmaster/orders.hpp"

namespace referee::cli {

using namespace referee::warmaster;

namespace {

struct OddsOptions {
  OutputOptions out;
  int command = 0;
  double distance = 0;
  bool dense = false;
  bool enemy_near = false;
  int order = 1;
  int lost = 0;
  bool bonus = false;
  std::string battle, character;
  std::vector<std::string> units;
  int sequence = 0;
  bool table = false;
  double max_distance = 100;
  std::string plot;
};

struct GameOptions {
  OutputOptions out;
  std::string battle;
  std::uint64_t seed = 1;
  std::string actions;
  std::string log;
  bool legal = false;
  std::string ask_character;
  std::vector<std::string> ask_units;
  bool first_turn_bonus = false;
  bool failed_first_no_move = false;
};

Json chance_json(const Chance& c) {
  Json j;
  to_json(j, c);
  return j;
}

Json target_json(const OrderTarget& t) {
  Json pen = Json::array();
  for (const CommandPenalty& p : t.penalties)
    pen.push_back({{"rule", p.rule}, {"name", p.name}, {"value", p.value}, {"reason", p.reason}});
  return Json{{"command", t.command},
              {"effective_command", t.effective_command},
              {"penalties", pen},
              {"total_penalty", t.total_penalty},
              {"needed", t.needed},
              {"chance", chance_json(t.chance)}};
}

std::string target_text(const OrderTarget& t) {
  std::string s = fmt::format("Command {}", t.command);
  if (t.effective_command != t.command) s += fmt::format(" (+1 first order of the first turn: {})", t.effective_command);
  s += "\n";
  for (const CommandPenalty& p : t.penalties) s += fmt::format("  {:+d}  {}: {}  [{}]\n", p.value, p.name, p.reason, p.rule);
  if (t.penalties.empty()) s += "  no penalties\n";
  s += fmt::format("needs {} or less on 2D6: chance {} ({:.1f}%)\n", t.needed, t.chance.fraction(),
                   100.0 * t.chance.value());
  return s;
}

std::shared_ptr<const CommandGame> load_game(const std::string& battle, const GameOptions* o,
                                             const Json* log_settings = nullptr) {
  BattlefieldFile f = load_battlefield_file(battle);
  auto g = std::make_shared<CommandGame>();
  g->start = std::move(f.battlefield);
  g->settings = log_settings ? settings_from_json(*log_settings, "settings") : f.settings;
  if (o && o->first_turn_bonus) g->settings.first_turn_command_bonus = true;
  if (o && o->failed_first_no_move) g->settings.failed_first_order_moves_half_pace = false;
  g->scenario = battle;
  return g;
}

// An action file is an array of actions, or {"actions": [...]}.
struct ActionList {
  Json json;
  std::string path;
};
ActionList read_action_list(const Json& j, const std::string& file) {
  if (j.is_object()) {
    JsonReader r(j, file);
    r.allow_only({"actions", "description"});
    JsonReader list = r.at("actions");
    list.require_array();
    return {list.json(), list.path()};
  }
  JsonReader r(j, file);
  r.require_array();
  return {j, file};
}

ActionList load_actions(const std::string& file) {
  const Json j = load_json_file(file);
  return naming_source(file, [&] { return read_action_list(j, file); });
}

void run_odds(const OddsOptions& o) {
  OrderFactors f;
  if (!o.battle.empty()) {
    if (o.character.empty() || o.units.empty())
      throw InputError("--battle", "give --character and at least one --unit with --battle");
    BattlefieldFile bf = load_battlefield_file(o.battle);
    const Character* c = bf.battlefield.find_character(o.character);
    if (!c) throw InputError("--character", fmt::format("no character \"{}\" in {}", o.character, o.battle));
    std::vector<const Unit*> units;
    for (const std::string& id : o.units) {
      const Unit* u = bf.battlefield.find_unit(id);
      if (!u) throw InputError("--unit", fmt::format("no unit \"{}\" in {}", id, o.battle));
      units.push_back(u);
    }
    f = order_factors(bf.battlefield, *c, units, o.order - 1, o.bonus);
  } else {
    if (o.command == 0) throw InputError("--command", "give the character's Command value (or --battle)");
    f.command = o.command;
    f.distance = o.distance;
    f.dense = o.dense;
    f.enemy_near = o.enemy_near;
    f.previous_orders = o.order - 1;
    f.stands_lost = o.lost;
    f.first_turn_bonus = o.bonus;
  }
  const OrderTarget t = order_target(f);
  Json answer = target_json(t);
  answer["distance"] = f.distance;
  std::string text = target_text(t);
  if (o.sequence > 0) {
    std::vector<int> needed;
    for (int k = 0; k < o.sequence; ++k) {
      OrderFactors g = f;
      g.previous_orders = f.previous_orders + k;
      g.first_turn_bonus = f.first_turn_bonus && k == 0;
      needed.push_back(order_needed(g));
    }
    Json seq = Json::array();
    text += fmt::format("\nA sequence of {} orders (needs {}):\n", o.sequence, fmt::join(needed, ", "));
    for (const SequenceOutcome& s : sequence_odds(needed)) {
      seq.push_back({{"succeeded", s.succeeded}, {"all_succeed", s.all_succeed}, {"description", s.description},
                     {"chance", chance_json(s.chance)}});
      text += fmt::format("  {:<55} {:>12}  {:5.1f}%\n", s.description, s.chance.fraction(), 100 * s.chance.value());
    }
    answer["sequence"] = seq;
    answer["sequence_needed"] = needed;
  }
  const int commands[] = {8, 9, 10};
  if (o.table) {
    Json rows = Json::array();
    text += "\nSuccess against distance (other penalties as asked):\n  distance      penalty  Command 8   Command 9   Command 10\n";
    for (const DistanceRow& r : distance_table(commands, o.max_distance, f)) {
      Json row{{"from_cm", r.from_cm}, {"to_cm", r.to_cm}, {"penalty", r.penalty}};
      Json per = Json::object();
      std::string line = fmt::format("  {:>5.0f}-{:<5.0f} cm  {:>3}", r.from_cm, r.to_cm, r.penalty);
      for (std::size_t k = 0; k < 3; ++k) {
        per[std::to_string(commands[k])] = {{"needed", r.needed[k]}, {"chance", chance_json(r.chance[k])}};
        line += fmt::format("     {:>2}: {:>5}", r.needed[k], r.chance[k].fraction());
      }
      row["commands"] = per;
      rows.push_back(row);
      text += line + "\n";
    }
    answer["table"] = rows;
  }
  std::string svg;
  if (!o.plot.empty()) svg = distance_plot_svg(commands, o.max_distance, f);
  // Everything is worked out; now write.
  OutputSet outputs;
  if (!o.plot.empty()) outputs.add(o.plot, svg);
  outputs.add_answer(o.out, answer, text);
  outputs.commit();
}

void run_play(const GameOptions& o) {
  auto game = load_game(o.battle, &o);
  const ActionList actions = load_actions(o.actions);
  const PlayReport rep = play_actions(game, o.seed, actions.json, actions.path);
  Json refused = Json::array();
  std::string text;
  for (const auto& [i, v] : rep.refused) {
    refused.push_back({{"index", i}, {"violations", v.violations}});
    text += fmt::format("action {} refused: {}\n", i, explain(v));
  }
  text += fmt::format("{} actions, {} refused; log of {} entries\n", actions.json.size(), rep.refused.size(),
                      rep.log.entries.size());
  Json answer{{"actions", actions.json.size()}, {"refused", refused}, {"state", rep.final_state}};
  // -o is the game log; the summary goes to standard output, or to standard
  // error when the log itself is written to standard output.
  const std::string summary = o.out.explain ? text : dump_answer(answer) + "\n";
  OutputSet outputs;
  outputs.add(o.out.out.empty() ? "-" : o.out.out, rep.log.to_jsonl());
  if (!o.out.out.empty()) outputs.add("-", summary);
  outputs.commit();
  if (o.out.out.empty()) std::cerr << summary << std::flush;
  if (!rep.refused.empty()) std::exit(3);
}

void run_replay(const GameOptions& o) {
  const std::string text = read_text_file(o.log);
  const GameLog log = GameLog::parse_jsonl(text, o.log);
  if (log.system != "warmaster") throw InputError(o.log + " line 1", "not a Warmaster log (system \"" + log.system + "\")");
  const std::string battle = o.battle.empty() ? log.scenario : o.battle;
  if (battle.empty()) throw InputError("--battle", "the log names no battle: give --battle");
  auto game = load_game(battle, nullptr, &log.settings);
  const CommandState s = replay_log(game, log, o.log);
  Json state = state_to_json(s);
  emit(o.out, state, fmt::format("replayed {} entries: turn {}, side {}, {} step\n", log.entries.size(), s.turn(),
                                 s.side(), to_string(s.step())));
}

void run_state(const GameOptions& o) {
  auto game = load_game(o.battle, &o);
  CommandState s(game);
  SeededDice dice(o.seed);
  Json refused = Json::array();
  if (!o.actions.empty()) {
    const ActionList actions = load_actions(o.actions);
    for (std::size_t i = 0; i < actions.json.size(); ++i) {
      const Action a = parse_action(actions.json[i], s.battlefield(), fmt::format("{}[{}]", actions.path, i));
      ActionOutcome r = s.apply(a, dice);
      if (!r.verdict.legal()) refused.push_back({{"index", i}, {"violations", r.verdict.violations}});
    }
  }
  Json answer{{"state", state_to_json(s)}, {"refused", refused}};
  std::string text = fmt::format("turn {}, side {} ({}), {} step\n", s.turn(), s.side(),
                                 s.side() < static_cast<int>(s.battlefield().armies.size())
                                     ? s.battlefield().armies[static_cast<std::size_t>(s.side())].name
                                     : "",
                                 to_string(s.step()));
  if (o.legal) {
    answer["legal"] = legal_actions_json(s);
    for (const Json& a : answer["legal"]) text += "  " + a.dump() + "\n";
  }
  if (!o.ask_character.empty()) {
    const CommandState::OrderQuestion q = s.ask_order(o.ask_character, o.ask_units);
    Json ask = target_json(q.target);
    ask["distance"] = q.factors.distance;
    ask["legal"] = q.verdict.legal();
    ask["violations"] = q.verdict.violations;
    answer["order"] = ask;
    text += target_text(q.target);
    if (!q.verdict.legal()) text += "but the order is not allowed now:\n" + explain(q.verdict) + "\n";
  }
  emit(o.out, answer, text);
}

}  // namespace

void add_warmaster_command_commands(CLI::App& warmaster) {
  auto odds = std::make_shared<OddsOptions>();
  auto* c = warmaster.add_subcommand("odds", "What an order needs: penalties, number needed, exact chance");
  c->add_option("--command", odds->command, "The character's Command value")->check(CLI::Range(2, 12));
  c->add_option("--distance", odds->distance, "Distance from character to unit, cm")
      ->check(finite_number())
      ->check(CLI::Range(0.0, 10000.0));
  c->add_flag("--dense", odds->dense, "The unit is at least partly in dense terrain");
  c->add_flag("--enemy-near", odds->enemy_near, "An enemy unit is 20 cm or less from the unit");
  c->add_option("--order", odds->order, "Which order this is for the unit this phase (1, 2, 3)")->check(CLI::Range(1, 3));
  c->add_option("--lost", odds->lost, "Stands the unit has lost")->check(CLI::Range(0, 100));
  c->add_flag("--first-turn-bonus", odds->bonus, "Optional rule: +1 on the character's first order of the first turn");
  c->add_option("--battle", odds->battle, "Measure on this battlefield file instead");
  c->add_option("--character", odds->character, "The character giving the order (with --battle)");
  c->add_option("--unit", odds->units, "The unit ordered; repeat for a brigade (with --battle)");
  c->add_option("--sequence", odds->sequence, "Odds of each outcome of N successive orders to the unit")
      ->check(CLI::Range(1, 3));
  c->add_flag("--table", odds->table, "Success against distance for Command 8, 9 and 10");
  c->add_option("--max-distance", odds->max_distance, "Table and plot range, cm")
      ->check(finite_number())
      ->check(CLI::Range(20.0, 400.0));
  c->add_option("--plot", odds->plot, "Write an SVG plot of success against distance");
  add_output_options(c, odds->out);
  c->callback([odds] { run_odds(*odds); });

  auto play = std::make_shared<GameOptions>();
  auto* p = warmaster.add_subcommand("play", "Apply a list of command-phase actions and write the game log");
  p->add_option("--battle", play->battle, "Battlefield file")->required();
  p->add_option("--seed", play->seed, "Dice seed")->check(seed_number());
  p->add_option("--actions", play->actions, "Action list (JSON)")->required();
  p->add_flag("--first-turn-bonus", play->first_turn_bonus, "Optional rule: +1 Command on first orders of turn 1");
  p->add_flag("--failed-first-order-no-move", play->failed_first_no_move,
              "Older printings: a failed first order allows no move");
  p->add_option("-o,--out", play->out.out, "Write the game log (JSON Lines) here; the summary goes to standard output");
  p->add_flag("--explain", play->out.explain, "Print the summary as readable text");
  p->callback([play] { run_play(*play); });

  auto rep = std::make_shared<GameOptions>();
  auto* r = warmaster.add_subcommand("replay", "Replay a game log and print the final state");
  r->add_option("--log", rep->log, "Game log (JSON Lines)")->required();
  r->add_option("--battle", rep->battle, "Battlefield file (default: the one the log names)");
  add_output_options(r, rep->out);
  r->callback([rep] { run_replay(*rep); });

  auto st = std::make_shared<GameOptions>();
  auto* s = warmaster.add_subcommand("state", "Show the command-phase state, its legal actions, and what an order needs");
  s->add_option("--battle", st->battle, "Battlefield file")->required();
  s->add_option("--seed", st->seed, "Dice seed")->check(seed_number());
  s->add_option("--actions", st->actions, "Actions applied first (refused ones are reported and skipped)");
  s->add_flag("--legal", st->legal, "List legal actions");
  s->add_option("--ask", st->ask_character, "What would an order by this character need now?");
  s->add_option("--unit", st->ask_units, "The unit(s) of the order asked about");
  s->add_flag("--first-turn-bonus", st->first_turn_bonus, "Optional rule: +1 Command on first orders of turn 1");
  s->add_flag("--failed-first-order-no-move", st->failed_first_no_move,
              "Older printings: a failed first order allows no move");
  add_output_options(s, st->out);
  s->callback([st] { run_state(*st); });
}

}  // namespace referee::cli
