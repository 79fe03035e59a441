// referee warmaster shoot: one Shooting phase on a battlefield, with seeded
// or scripted dice; referee warmaster odds --attacks ...: its exact odds
// (shooting.hpp).
#include <memory>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "commands.hpp"
#include "referee/core/match.hpp"
#include "referee/warmaster/battlefield_json.hpp"
#include "referee/warmaster/shooting.hpp"

namespace referee::cli {

namespace wm = referee::warmaster;

namespace {

struct ShootOptions {
  std::string battle, dice, after;
  int side = 0;
  std::uint64_t seed = 1;
  OutputOptions out;
};

void run_shoot(const ShootOptions& o) {
  wm::BattlefieldFile bf = wm::load_battlefield_file(o.battle);
  DiceSource source{o.seed, std::nullopt};
  if (!o.dice.empty()) source.script = parse_dice_script(o.dice, "--dice");
  StreamDice dice(source);
  wm::ShootingResult r;
  try {
    r = wm::resolve_shooting(bf.battlefield, o.side, dice, bf.settings);
  } catch (const ScriptError& e) {
    throw InputError("--dice", e.what());
  }
  Json j = r;
  j["side"] = o.side;
  Json rolls = Json::array();
  for (const Roll& x : dice.history()) rolls.push_back(x);
  j["rolls"] = rolls;
  // Everything is worked out; now write.
  OutputSet outputs;
  if (!o.after.empty()) outputs.add(o.after, wm::to_json(r.after, &bf.settings).dump(2) + "\n");
  outputs.add_answer(o.out, j, wm::explain(r));
  outputs.commit();
}

}  // namespace

void add_warmaster_shooting_commands(CLI::App& warmaster) {
  auto o = std::make_shared<ShootOptions>();
  auto* c = warmaster.add_subcommand("shoot", "One Shooting phase: targets, hits, saves, casualties, drive backs");
  c->add_option("--battle", o->battle, "Battlefield JSON")->required();
  c->add_option("--side", o->side, "The side that shoots: 0 or 1")->check(CLI::Range(0, 1));
  c->add_option("--seed", o->seed, "Dice seed (default 1)")->check(seed_number());
  c->add_option("--dice", o->dice, "Scripted dice instead of the seed, in the order rolled, e.g. 4,6,2");
  c->add_option("--after", o->after, "Also write the battlefield after the phase (JSON)");
  add_output_options(c, o->out);
  c->callback([o] { run_shoot(*o); });
}

}  // namespace referee::cli
