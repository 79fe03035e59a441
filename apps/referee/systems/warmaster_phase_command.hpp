// What `referee warmaster shoot` and `combat` share: one phase resolved on a
// battlefield file with seeded or scripted dice, the rolls listed in the
// answer, and the battlefield after it written only once all is worked out.
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "cli_support.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/match.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"

namespace referee::cli {

struct PhaseCliOptions {
  std::string battle, dice, after;
  int side = 0;
  std::uint64_t seed = 1;
  OutputOptions out;
};

// --battle, --side (its help: `side_help`), --seed, --dice; then the
// command's own options; then add_phase_outputs for --after and -o/--explain.
inline void add_phase_options(CLI::App* c, PhaseCliOptions& o, const std::string& side_help) {
  c->add_option("--battle", o.battle, "Battlefield JSON")->required();
  c->add_option("--side", o.side, side_help)->check(CLI::Range(0, 1));
  c->add_option("--seed", o.seed, "Dice seed (default 1)")->check(seed_number());
  c->add_option("--dice", o.dice, "Scripted dice instead of the seed, in the order rolled, e.g. 4,6,2");
}
inline void add_phase_outputs(CLI::App* c, PhaseCliOptions& o) {
  c->add_option("--after", o.after, "Also write the battlefield after the phase (JSON)");
  add_output_options(c, o.out);
}

// `resolve(battlefield file, dice)` returns the phase's report: a value with
// a JSON form, an `after` battlefield and warmaster::explain. `extra` adds
// the command's own fields to the answer. A dice script that runs out is
// bad input naming --dice.
template <class Resolve, class Extra>
void run_phase(const PhaseCliOptions& o, const warmaster::BattlefieldFile& bf, Resolve&& resolve, Extra&& extra) {
  DiceSource source{o.seed, std::nullopt};
  if (!o.dice.empty()) source.script = parse_dice_script(o.dice, "--dice");
  StreamDice dice(source);
  auto report = [&] {
    try {
      return resolve(dice);
    } catch (const ScriptError& e) {
      throw InputError("--dice", e.what());
    }
  }();
  nlohmann::json j = report;
  j["side"] = o.side;
  extra(j);
  nlohmann::json rolls = nlohmann::json::array();
  for (const Roll& x : dice.history()) rolls.push_back(x);
  j["rolls"] = rolls;
  OutputSet outputs;
  if (!o.after.empty()) outputs.add(o.after, warmaster::to_json(report.after, &bf.settings).dump(2) + "\n");
  outputs.add_answer(o.out, j, explain(report));  // found by ADL: the report's own explain
  outputs.commit();
}

}  // namespace referee::cli
