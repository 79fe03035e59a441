// referee warmaster shoot: one Shooting phase on a battlefield, with seeded
// or scripted dice; referee warmaster odds --attacks ...: its exact odds
// (shooting.hpp).
#include <memory>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "commands.hpp"
#include "warmaster_phase_command.hpp"
#include "referee/warmaster/shooting.hpp"

namespace referee::cli {

namespace wm = referee::warmaster;

namespace {

void run_shoot(const PhaseCliOptions& o) {
  const wm::BattlefieldFile bf = wm::load_battlefield_file(o.battle);
  run_phase(
      o, bf, [&](Dice& dice) { return wm::resolve_shooting(bf.battlefield, o.side, dice, bf.settings); },
      [](Json&) {});
}

}  // namespace

void add_warmaster_shooting_commands(CLI::App& warmaster) {
  auto o = std::make_shared<PhaseCliOptions>();
  auto* c = warmaster.add_subcommand("shoot", "One Shooting phase: targets, hits, saves, casualties, drive backs");
  add_phase_options(c, *o, "The side that shoots: 0 or 1");
  add_phase_outputs(c, *o);
  c->callback([o] { run_shoot(*o); });
}

}  // namespace referee::cli
