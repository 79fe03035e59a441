// referee warmaster combat: one Combat phase on a battlefield, with seeded or
// scripted dice and the players' decisions; referee warmaster combat-odds:
// the exact odds of one exchange (combat.hpp).
#include <memory>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "system_commands.hpp"
#include "warmaster_battle_file.hpp"
#include "warmaster_phase_command.hpp"
#include "referee/warmaster/combat/combat.hpp"

namespace referee::cli {

namespace wm = referee::warmaster;

namespace {

struct CombatCliOptions {
  PhaseCliOptions phase;
  std::string options;
  std::vector<std::string> charged;
};

void run_combat(const CombatCliOptions& o, std::uint64_t max_bytes) {
  const wm::BattlefieldFile bf = load_warmaster_battle(o.phase.battle, max_bytes);
  wm::CombatOptions options;
  if (!o.options.empty()) {
    const Json j = load_json_file(o.options, max_bytes);
    options = naming_source(o.options, [&] { return wm::combat_options_from_json(j, bf.battlefield); });
  }
  for (const std::string& id : o.charged) {
    if (!bf.battlefield.find_unit(id))
      throw InputError("--charged", fmt::format("no unit \"{}\" in {}", id, o.phase.battle));
    if (std::find(options.charged.begin(), options.charged.end(), id) == options.charged.end())
      options.charged.push_back(id);
  }
  run_phase(
      o.phase, bf, [&](Dice& dice) { return wm::resolve_combat(bf.battlefield, o.phase.side, dice, options, bf.settings); },
      [&](Json& j) { j["options"] = options; });
}

struct CombatOddsCliOptions {
  wm::CombatOddsRequest q;
  std::string a_position = "open", b_position = "open";
  OutputOptions out;
};

void run_combat_odds(CombatOddsCliOptions o) {
  for (auto [text, field, into] : {std::tuple{&o.a_position, "--a-position", &o.q.a.position},
                                   std::tuple{&o.b_position, "--b-position", &o.q.b.position}}) {
    auto p = wm::position_from_string(*text);
    if (!p) throw InputError(field, "expected open, defended or fortified, not \"" + *text + "\"");
    *into = *p;
  }
  const wm::CombatOdds odds = wm::combat_odds(o.q);
  emit(o.out, Json(odds), wm::explain(odds));
}

}  // namespace

void add_warmaster_combat_commands(CLI::App& warmaster, std::uint64_t max_bytes) {
  auto o = std::make_shared<CombatCliOptions>();
  auto* c = warmaster.add_subcommand(
      "combat", "One Combat phase: engagements, attacks, hits, results, retreats, pursuits, fall backs");
  add_phase_options(c, o->phase, "The side whose turn it is (rolls first): 0 or 1");
  c->add_option("--charged", o->charged, "A unit that charged this turn (+1 in the open); repeat for more");
  c->add_option("--options", o->options,
                "Combat options JSON: {\"charged\": [...], \"decisions\": [{\"unit\", \"choice\", \"distance\"}]}");
  add_phase_outputs(c, o->phase);
  c->callback([o, max_bytes] { run_combat(*o, max_bytes); });

  auto q = std::make_shared<CombatOddsCliOptions>();
  auto* d = warmaster.add_subcommand("combat-odds",
                                     "Exact odds of one combat exchange: hits each side scores, win, draw, lose");
  d->add_option("--a-dice", q->q.a.dice, "Side a's dice (Attacks x stands fighting, after modifiers)")
      ->check(CLI::Range(0, 60));
  d->add_option("--a-position", q->a_position, "Side a's position (b hits it on 4+, 5+ or 6): open, defended, fortified");
  d->add_option("--a-armour", q->q.a.armour, "Side a's armour save (0: none)")->check(CLI::Range(0, 6));
  d->add_option("--a-support", q->q.a.support, "Side a's supporting stands")->check(CLI::Range(0, 100));
  d->add_option("--b-dice", q->q.b.dice, "Side b's dice")->check(CLI::Range(0, 60));
  d->add_option("--b-position", q->b_position, "Side b's position: open, defended, fortified");
  d->add_option("--b-armour", q->q.b.armour, "Side b's armour save (0: none)")->check(CLI::Range(0, 6));
  d->add_option("--b-support", q->q.b.support, "Side b's supporting stands")->check(CLI::Range(0, 100));
  add_output_options(d, q->out);
  d->callback([q] { run_combat_odds(*q); });
}

}  // namespace referee::cli
