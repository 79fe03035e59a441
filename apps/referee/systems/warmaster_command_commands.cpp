// referee warmaster odds: what an order needs (docs/warmaster-command.md).
// play, replay, state and query are the generic ones (game_commands.cpp).
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "system_commands.hpp"
#include "warmaster_battle_file.hpp"
#include "referee/core/files.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/battle/command_json.hpp"
#include "referee/warmaster/command/orders.hpp"
#include "referee/warmaster/battle/queries.hpp"
#include "referee/warmaster/shooting/shooting.hpp"

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
  // Shooting odds (shooting.hpp): given --attacks.
  int attacks = -1;
  std::string position = "open";
  int armour = 0, hits = 1, stands = 3;
  double pace = 20;
};

// The odds of a shooting exchange: unsaved hits, stands lost, drive backs.
void run_shooting_odds(const OddsOptions& o) {
  ShootingOddsRequest q;
  q.attacks = o.attacks;
  auto pos = position_from_string(o.position);
  if (!pos) throw InputError("--position", "expected open, defended or fortified, not \"" + o.position + "\"");
  q.position = *pos;
  q.armour = o.armour;
  q.hits = o.hits;
  q.stands = o.stands;
  q.pace = o.pace;
  const ShootingOdds odds = shooting_odds(q);
  emit(o.out, Json(odds), explain(odds));
}

void run_odds(const OddsOptions& o, std::uint64_t max_bytes) {
  if (o.attacks >= 0) return run_shooting_odds(o);
  OrderFactors f;
  if (!o.battle.empty()) {
    if (o.character.empty() || o.units.empty())
      throw InputError("--battle", "give --character and at least one --unit with --battle");
    BattlefieldFile bf = load_warmaster_battle(o.battle, max_bytes);
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
  Json answer = order_target_json(t);
  answer["distance"] = f.distance;
  std::string text = order_target_text(t);
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
                     {"chance", Json(s.chance)}});
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
        per[std::to_string(commands[k])] = {{"needed", r.needed[k]}, {"chance", Json(r.chance[k])}};
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

}  // namespace

void add_warmaster_command_commands(CLI::App& warmaster, std::uint64_t max_bytes) {
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
  c->add_option("--attacks", odds->attacks,
                 "Shooting odds instead: the dice rolled (Attacks x stands shooting); with --position, --armour, "
                 "--hits, --stands, --pace")
      ->check(CLI::Range(0, 60));
  c->add_option("--position", odds->position, "Shooting: the target's position, open, defended or fortified");
  c->add_option("--armour", odds->armour, "Shooting: the target's armour save (0: none)")->check(CLI::Range(0, 6));
  c->add_option("--hits", odds->hits, "Shooting: the target's Hits per stand (default 1)")->check(CLI::Range(1, 20));
  c->add_option("--stands", odds->stands, "Shooting: the target's stands (default 3)")->check(CLI::Range(1, 100));
  c->add_option("--pace", odds->pace, "Shooting: the target's full pace in cm, for rout (default 20)")
      ->check(finite_number())
      ->check(CLI::Range(0.1, 1000.0));
  c->add_option("--plot", odds->plot, "Write an SVG plot of success against distance");
  add_output_options(c, odds->out);
  c->callback([odds, max_bytes] { run_odds(*odds, max_bytes); });

}

}  // namespace referee::cli
