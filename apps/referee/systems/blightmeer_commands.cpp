// referee blightmeer <question>: check, route, reach, resolve, render; play,
// replay, state and query are the generic ones (game_commands.cpp).
// Every answer is worked out in full before anything is written, so bad input
// (an InputError: exit 2) leaves no file behind.
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "blightmeer_values.hpp"
#include "cli_values.hpp"
#include "system_commands.hpp"
#include "referee/blightmeer/io.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/files.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/json_io.hpp"
#include "referee/core/match.hpp"

namespace referee::cli {

namespace bm = referee::blightmeer;

namespace {

struct ResolveOptions {
  std::string battle, move, out, dice;
  std::uint64_t seed = 1;
  bool explain = false;
};

void add_blightmeer_check(CLI::App& app, std::uint64_t max_bytes) {
  auto* cmd = app.add_subcommand("check", "Is a move legal? Inches spent, violations, every check and its chance");
  auto battle = std::make_shared<std::string>();
  auto move = std::make_shared<std::string>();
  auto out = std::make_shared<OutputOptions>();
  cmd->add_option("--battle", *battle, "Battlefield JSON file")->required();
  cmd->add_option("--move", *move, "Move request JSON file")->required();
  add_output_options(cmd, *out);
  cmd->callback([=] {
    bm::Battle b = bm::load_battle(*battle, max_bytes);
    const nlohmann::json mj = load_json_file(*move, max_bytes);
    bm::MoveRequest m = naming_source(*move, [&] { return bm::parse_move(mj); });
    // The move names its unit: an unknown one is an error in the move file.
    bm::MoveReport r = naming_source(*move, [&] { return bm::check_move(*b.terrain, b.state, m); });
    emit(*out, bm::report_json(r), bm::explain_report(r));
  });
}

void add_blightmeer_route(CLI::App& app, std::uint64_t max_bytes) {
  auto* cmd = app.add_subcommand("route", "Cheapest route to a point: risk-free, and with checks");
  auto battle = std::make_shared<std::string>();
  auto unit = std::make_shared<std::string>();
  auto to = std::make_shared<std::string>();
  auto run = std::make_shared<bool>(false);
  auto svg = std::make_shared<std::string>();
  auto out = std::make_shared<OutputOptions>();
  cmd->add_option("--battle", *battle, "Battlefield JSON file")->required();
  cmd->add_option("--unit", *unit, "Unit id")->required();
  cmd->add_option("--to", *to, "Destination x,y[,z] in inches")->required();
  cmd->add_flag("--run", *run, "Run (1.5 x Move)");
  cmd->add_option("--svg", *svg, "Also draw the route (the risk-free one, else the one with checks) turn by turn");
  add_output_options(cmd, *out);
  cmd->callback([=] {
    bm::Battle b = bm::load_battle(*battle, max_bytes);
    bm::Vec3 p = parse_point(*to, "--to");
    bm::RouteAnswer a = bm::best_route(*b.terrain, b.state, *unit, p, *run);
    const bm::RouteOption* drawn = a.safe.found ? &a.safe : &a.risky;
    std::string picture = svg->empty() ? std::string() : bm::render_svg(*b.terrain, b.state, nullptr, drawn);
    OutputSet outputs;
    if (!svg->empty()) outputs.add(*svg, picture);
    outputs.add_answer(*out, bm::route_json(a), bm::explain_route(a));
    outputs.commit();
  });
}

void add_blightmeer_reach(CLI::App& app, std::uint64_t max_bytes) {
  auto* cmd = app.add_subcommand("reach", "Where a unit can get this turn, split by the checks needed");
  auto battle = std::make_shared<std::string>();
  auto unit = std::make_shared<std::string>();
  auto svg = std::make_shared<std::string>();
  auto run = std::make_shared<bool>(false);
  auto out = std::make_shared<OutputOptions>();
  cmd->add_option("--battle", *battle, "Battlefield JSON file")->required();
  cmd->add_option("--unit", *unit, "Unit id")->required();
  cmd->add_option("--svg", *svg, "Also draw the reach from above as SVG");
  cmd->add_flag("--run", *run, "Run (1.5 x Move)");
  add_output_options(cmd, *out);
  cmd->callback([=] {
    bm::Battle b = bm::load_battle(*battle, max_bytes);
    bm::ReachAnswer a = bm::unit_reach(*b.terrain, b.state, *unit, *run);
    nlohmann::json j = bm::reach_json(a);
    std::string text = bm::explain_reach(a);
    std::string picture = svg->empty() ? std::string() : bm::render_svg(*b.terrain, b.state, &a);
    OutputSet outputs;
    if (!svg->empty()) outputs.add(*svg, picture);
    outputs.add_answer(*out, j, text);
    outputs.commit();
  });
}

void add_blightmeer_resolve(CLI::App& app, std::uint64_t max_bytes) {
  auto* cmd = app.add_subcommand("resolve", "Roll the checks of a move (or several, in order) and apply it; no turn rules (use play for a game)");
  auto o = std::make_shared<ResolveOptions>();
  cmd->add_option("--battle", o->battle, "Battlefield JSON file")->required();
  cmd->add_option("--move", o->move, "Move request JSON file: one move, or {\"moves\": [...]}")->required();
  cmd->add_option("--seed", o->seed, "Dice seed (default 1)")->check(seed_number());
  cmd->add_option("--dice", o->dice, "Scripted dice instead of the seed: the values rolled at the table, in order");
  cmd->add_option("-o,--out", o->out, "Write the answer here instead of standard output");
  cmd->add_flag("--explain", o->explain, "Readable text instead of JSON");
  cmd->callback([=] {
    bm::Battle b = bm::load_battle(o->battle, max_bytes);
    const nlohmann::json mj = load_json_file(o->move, max_bytes);
    std::vector<bm::MoveRequest> moves = naming_source(o->move, [&] { return bm::parse_moves(mj); });
    DiceSource source{o->seed, std::nullopt};
    if (!o->dice.empty()) source.script = parse_dice_script(o->dice, "--dice");
    StreamDice dice(source);
    nlohmann::json results = nlohmann::json::array();
    std::string text;
    for (const bm::MoveRequest& m : moves) {
      bm::Resolution r = naming_source(o->move, [&] { return bm::resolve_move(*b.terrain, b.state, m, dice); });
      results.push_back(bm::resolution_json(r));
      text += bm::explain_resolution(r);
    }
    nlohmann::json answer{{"seed", o->seed}, {"results", results}, {"state", bm::state_json(b.state)}};
    if (source.script) answer["dice"] = *source.script;
    emit({o->out, o->explain}, answer, text);
  });
}

void add_blightmeer_render(CLI::App& app, std::uint64_t max_bytes) {
  auto* cmd = app.add_subcommand("render", "Draw the battlefield from above as SVG, heights marked");
  auto battle = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>("-");
  cmd->add_option("--battle", *battle, "Battlefield JSON file")->required();
  cmd->add_option("-o,--out", *out, "SVG file to write (default: standard output)");
  cmd->callback([=] {
    bm::Battle b = bm::load_battle(*battle, max_bytes);
    emit_file(*out, bm::render_svg(*b.terrain, b.state));
  });
}

}  // namespace

void add_blightmeer_commands(CLI::App& app, std::uint64_t max_bytes) {
  add_blightmeer_check(app, max_bytes);
  add_blightmeer_route(app, max_bytes);
  add_blightmeer_reach(app, max_bytes);
  add_blightmeer_resolve(app, max_bytes);
  add_blightmeer_render(app, max_bytes);
}

CommandLineEntry blightmeer_command_line() {
  return {"Blightmeer: 3D skirmish movement in inches", {}, &add_blightmeer_commands, {}};
}

}  // namespace referee::cli
