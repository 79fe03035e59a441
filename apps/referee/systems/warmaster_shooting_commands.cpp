// referee warmaster shoot: one Shooting phase on a battlefield, with seeded
// or scripted dice; referee warmaster odds --attacks ...: its exact odds
// (shooting.hpp).
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "system_commands.hpp"
#include "warmaster_battle_file.hpp"
#include "warmaster_phase_command.hpp"
#include "referee/warmaster/shooting/shooting.hpp"

namespace referee::cli {

namespace wm = referee::warmaster;

namespace {

// --target SHOOTER=TARGET, each a choice between enemies equally close
// (docs/rulings.md#warmaster-shooting-ties).
std::vector<wm::TargetChoice> parse_target_choices(const std::vector<std::string>& given, const wm::Battlefield& bf) {
  std::vector<wm::TargetChoice> out;
  for (const std::string& g : given) {
    const auto eq = g.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == g.size())
      throw InputError("--target", fmt::format("\"{}\": expected SHOOTER=TARGET, two unit ids", g));
    wm::TargetChoice c{g.substr(0, eq), g.substr(eq + 1)};
    for (const std::string* id : {&c.shooter, &c.target})
      if (!bf.find_unit(*id)) throw InputError("--target", fmt::format("\"{}\": no unit \"{}\" in the battle", g, *id));
    out.push_back(std::move(c));
  }
  return out;
}

void run_shoot(const PhaseCliOptions& o, const std::vector<std::string>& targets, std::uint64_t max_bytes) {
  const wm::BattlefieldFile bf = load_warmaster_battle(o.battle, max_bytes);
  const std::vector<wm::TargetChoice> choices = parse_target_choices(targets, bf.battlefield);
  if (!choices.empty()) {
    const Verdict v =
        wm::check_target_choices(wm::shooting_targets(bf.battlefield, o.side, bf.settings), choices);
    if (!v.legal()) throw InputError("--target", v.violations.front().reason);
  }
  run_phase(
      o, bf, [&](Dice& dice) { return wm::resolve_shooting(bf.battlefield, o.side, dice, bf.settings, choices); },
      [](Json&) {});
}

}  // namespace

void add_warmaster_shooting_commands(CLI::App& warmaster, std::uint64_t max_bytes) {
  auto o = std::make_shared<PhaseCliOptions>();
  auto targets = std::make_shared<std::vector<std::string>>();
  auto* c = warmaster.add_subcommand("shoot", "One Shooting phase: targets, hits, saves, casualties, drive backs");
  add_phase_options(c, *o, "The side that shoots: 0 or 1");
  c->add_option("--target", *targets,
                "SHOOTER=TARGET: where enemy units are equally close to a shooter, the one it shoots at "
                "(repeat for several shooters)");
  add_phase_outputs(c, *o);
  c->callback([o, targets, max_bytes] { run_shoot(*o, *targets, max_bytes); });
}

}  // namespace referee::cli
