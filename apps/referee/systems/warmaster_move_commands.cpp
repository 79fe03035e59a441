// referee warmaster check | render | leave-table: checking a move, drawing a
// battlefield, and the off-table chart. Every answer is worked out in full
// before anything is written, so bad input leaves no file behind.
#include <memory>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "system_commands.hpp"
#include "warmaster_battle_file.hpp"
#include "referee/core/dice.hpp"
#include "referee/core/errors.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/battle/render.hpp"

namespace referee::cli {

namespace wm = referee::warmaster;

namespace {

struct CheckArgs {
  std::string battle, move;
  OutputOptions out;
};

struct RenderArgs {
  std::string battle, move, out;
};

struct LeaveTableArgs {
  std::string battle, unit;
  std::uint64_t seed = 0;
  bool seeded = false;
  std::vector<int> dice;
  bool retreat = false;
  OutputOptions out;
};

void run_check(const CheckArgs& a, std::uint64_t max_bytes) {
  wm::BattlefieldFile bf = load_warmaster_battle(a.battle, max_bytes);
  wm::MoveRequest req = wm::load_move_request_file(a.move, bf.battlefield, max_bytes);
  wm::MoveAnswer answer = wm::check_move(bf.battlefield, req, bf.settings);
  Json j = wm::to_json(answer);
  j["mover"] = req.mover;
  j["kind"] = wm::to_string(req.kind);
  emit(a.out, j, wm::explain(answer, req));
}

void run_render(const RenderArgs& a, std::uint64_t max_bytes) {
  wm::BattlefieldFile bf = load_warmaster_battle(a.battle, max_bytes);
  std::string svg;
  if (!a.move.empty()) {
    wm::MoveRequest req = wm::load_move_request_file(a.move, bf.battlefield, max_bytes);
    wm::MoveAnswer answer = wm::check_move(bf.battlefield, req, bf.settings);
    svg = wm::render_svg(bf.battlefield, &answer, req.mover);
  } else {
    svg = wm::render_svg(bf.battlefield);
  }
  emit_file(a.out, svg);
}

void run_leave_table(const LeaveTableArgs& a, std::uint64_t max_bytes) {
  wm::BattlefieldFile bf = load_warmaster_battle(a.battle, max_bytes);
  int lost = 0;
  if (const wm::Unit* u = bf.battlefield.find_unit(a.unit)) {
    lost = u->stands_lost;
  } else if (!bf.battlefield.find_character(a.unit)) {
    throw InputError("--unit", fmt::format("no unit or character \"{}\" on the battlefield", a.unit));
  }
  if (a.seeded == !a.dice.empty()) throw InputError("--seed/--dice", "give exactly one of --seed N or --dice VALUE");
  std::unique_ptr<Dice> dice;
  if (a.seeded) dice = std::make_unique<SeededDice>(a.seed);
  else dice = std::make_unique<ScriptedDice>(a.dice);
  wm::OffTableResult r = wm::resolve_off_table(a.unit, lost, *dice, a.retreat);
  Json j{{"unit", a.unit},
         {"outcome", wm::to_string(r.outcome)},
         {"roll", r.roll},
         {"stands_lost", lost},
         {"result", r.modified},
         {"ruling", r.ruling},
         {"rolls", r.rolls}};
  if (a.seeded) j["seed"] = a.seed;
  emit(a.out, j, explain(r.ruling) + "\n");
}

}  // namespace

void add_warmaster_move_commands(CLI::App& warmaster, std::uint64_t max_bytes) {
  auto check_args = std::make_shared<CheckArgs>();
  auto* check = warmaster.add_subcommand("check", "Check a move: pace, formation, distance, path, terrain, overlap");
  check->add_option("--battle", check_args->battle, "Battlefield JSON (docs/warmaster-format.md)")->required();
  check->add_option("--move", check_args->move, "Move request JSON")->required();
  add_output_options(check, check_args->out);
  check->callback([check_args, max_bytes] { run_check(*check_args, max_bytes); });

  auto render_args = std::make_shared<RenderArgs>();
  auto* render = warmaster.add_subcommand("render", "Draw a battlefield (and a checked move) as SVG");
  render->add_option("--battle", render_args->battle, "Battlefield JSON")->required();
  render->add_option("--move", render_args->move, "Move request JSON: draws its routes");
  render->add_option("-o,--out", render_args->out, "SVG file to write (\"-\" for standard output)")->required();
  render->callback([render_args, max_bytes] { run_render(*render_args, max_bytes); });

  auto leave_args = std::make_shared<LeaveTableArgs>();
  auto* leave = warmaster.add_subcommand("leave-table", "Roll on the chart for a unit or character that left the table");
  leave->add_option("--battle", leave_args->battle, "Battlefield JSON")->required();
  leave->add_option("--unit", leave_args->unit, "Id of the unit (or character) that left")->required();
  leave->add_option("--seed", leave_args->seed, "Seed for the dice")->check(seed_number())->each([leave_args](const std::string&) {
    leave_args->seeded = true;
  });
  leave->add_option("--dice", leave_args->dice, "The die rolled at the table (a dice script)");
  leave->add_flag("--retreat", leave_args->retreat, "It left retreating from combat: destroyed, no roll");
  add_output_options(leave, leave_args->out);
  leave->callback([leave_args, max_bytes] { run_leave_table(*leave_args, max_bytes); });
}

}  // namespace referee::cli
