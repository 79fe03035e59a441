// referee ancients <question>: orders, destinations, route, render; play, replay,
// state and query are the generic ones (game_commands.cpp).
// Every answer is worked out in full before anything is written, so bad
// input (exit 2) never leaves a file behind.
#include <fmt/format.h>

#include "cli_support.hpp"
#include "ancients_values.hpp"
#include "cli_values.hpp"
#include "system_commands.hpp"
#include "referee/ancients/turn.hpp"
#include "referee/ancients/game_interface.hpp"
#include "referee/ancients/queries.hpp"
#include "referee/core/match.hpp"
#include "referee/ancients/movement.hpp"
#include "referee/ancients/orders.hpp"
#include "referee/ancients/render.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/files.hpp"
#include "referee/core/json_io.hpp"

namespace referee::cli {

namespace {

using namespace referee::ancients;

struct Loaded {
  nlohmann::json json;
  Battle battle;
};

Loaded load(const std::string& path, std::uint64_t max_bytes) {
  nlohmann::json j = load_json_file(path, max_bytes);
  Battle b = naming_source(path, [&] { return parse_battle(j, path); });
  return {std::move(j), std::move(b)};
}


// The position a question is asked in: the battle's start, or the state after
// playing an actions file through the game interface (then "ordered",
// "already moved" and the card's movement options count). An action of the
// file that is refused is an error naming it: the question would be asked
// of a position the file did not mean.
struct Situation {
  std::unique_ptr<Match> match;
  ancients::AncientsState start;
  const ancients::AncientsState& state() const { return match ? *typed_state<ancients::System>(match->state()) : start; }
  bool in_game() const { return match != nullptr; }
};

Situation situation(const Loaded& l, const std::string& battle_path, const std::string& actions,
                    std::uint64_t max_bytes) {
  Situation s{nullptr, ancients::AncientsState::initial(l.battle)};
  if (actions.empty()) return s;
  // A question is asked of the battle as its file lists it: the hands and
  // decks in the file's order, not a deal shuffled with dice no one gave
  // (docs/rulings.md#ancients-deal).
  const nlohmann::json listed{{"deal", "as_listed"}};
  s.match = std::make_unique<Match>(ancients::game_type().load(l.json, battle_path, listed), DiceSource{}, battle_path,
                                    listed);
  nlohmann::json list = load_json_file(actions, max_bytes);
  std::string path = actions;
  if (list.is_object()) {
    JsonReader r(list, actions);
    r.allow_only({"actions", "description"});
    path = r.path_of("actions");
    list = r.at("actions").require_array().json();
  }
  JsonReader(list, path).require_array();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = fmt::format("{}[{}]", path, i);
    const Outcome o = s.match->play(list[i], where);
    if (!o.applied()) throw InputError(where, explain(o.verdict));
  }
  return s;
}

// Asks the library's query and writes its answer.
void ask(std::uint64_t max_bytes, const std::string& battle, const std::string& actions, const std::string& name,
         const nlohmann::json& args, const OutputOptions& out, const std::string& svg = "") {
  Loaded l = load(battle, max_bytes);
  const Situation sit = situation(l, battle, actions, max_bytes);
  std::string text;
  std::vector<Destination> dests;
  nlohmann::json j;
  try {
    j = answer_query(l.battle, sit.state(), sit.in_game(), name, args, "", &text, &dests);
  } catch (const InputError& e) {
    // The query names its arguments ("unit", "to[1]"); the user typed options.
    const std::string& field = e.field();
    const std::string root = field.substr(0, field.find_first_of(".["));
    if (!args.contains(root)) throw;
    throw InputError("--" + root, e.problem());
  }
  std::string picture;
  if (!svg.empty()) {
    const int u = l.battle.find_unit(args.at("unit").get<std::string>());
    const Position& p = sit.state().position;
    RenderOptions ro;
    ro.destinations = dests;
    ro.destinations_of_unit = u >= 0;
    ro.selected_hex = u >= 0 ? p.units[static_cast<std::size_t>(u)].hex
                             : p.leaders[static_cast<std::size_t>(l.battle.find_leader(args.at("unit").get<std::string>()))].hex;
    ro.title = fmt::format("{}: {} destinations", args.at("unit").get<std::string>(), dests.size());
    picture = render_board(l.battle, p, ro);
  }
  OutputSet outputs;
  if (!svg.empty()) outputs.add(svg, picture);
  outputs.add_answer(out, j, text);
  outputs.commit();
}

void add_orders(CLI::App& parent, std::uint64_t max_bytes) {
  struct Opts {
    std::string battle, card;
    int side = 0;
    OutputOptions out;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand("orders", "Play a command card: which units and leaders it may order, and how many");
  cmd->add_option("--battle", o->battle, "Battle file (JSON)")->required();
  cmd->add_option("--side", o->side, "The player playing the card (0 bottom, 1 top)")->required()->check(CLI::Range(0, 1));
  cmd->add_option("--card", o->card, "Command card id, such as order-three-center")->required();
  add_output_options(cmd, o->out);
  cmd->callback(
      [o, max_bytes] { ask(max_bytes, o->battle, "", "orders", {{"card", o->card}, {"side", o->side}}, o->out); });
}

void add_destinations(CLI::App& parent, std::uint64_t max_bytes) {
  struct Opts {
    std::string battle, unit, card, svg, actions;
    OutputOptions out;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand("destinations", "Every legal destination of a unit or lone leader");
  cmd->add_option("--battle", o->battle, "Battle file (JSON)")->required();
  cmd->add_option("--unit", o->unit, "Unit (or leader) id")->required();
  cmd->add_option("--card", o->card, "The card it is ordered under (light foot pass through friends under some)");
  cmd->add_option("--actions", o->actions, "Ask after playing these actions (the piece must then be ordered)");
  cmd->add_option("--svg", o->svg, "Also draw the board with the destinations highlighted");
  add_output_options(cmd, o->out);
  cmd->callback([o, max_bytes] {
    nlohmann::json args{{"unit", o->unit}};
    if (!o->card.empty()) args["card"] = o->card;
    ask(max_bytes, o->battle, o->actions, "destinations", args, o->out, o->svg);
  });
}

void add_route(CLI::App& parent, std::uint64_t max_bytes) {
  struct Opts {
    std::string battle, unit, to, card, actions;
    OutputOptions out;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand("route", "Is a move of a unit (or lone leader) to a hex legal? With every violation");
  cmd->add_option("--battle", o->battle, "Battle file (JSON)")->required();
  cmd->add_option("--unit", o->unit, "Unit (or leader) id")->required();
  cmd->add_option("--to", o->to, "Destination hex as COL,ROW")->required();
  cmd->add_option("--card", o->card, "The card it is ordered under");
  cmd->add_option("--actions", o->actions, "Ask after playing these actions (orders and earlier moves count)");
  add_output_options(cmd, o->out);
  cmd->callback([o, max_bytes] {
    const ColRow to = parse_col_row(o->to, "--to");
    nlohmann::json args{{"unit", o->unit}, {"to", {to.col, to.row}}};
    if (!o->card.empty()) args["card"] = o->card;
    ask(max_bytes, o->battle, o->actions, "route", args, o->out);
  });
}

void add_render(CLI::App& parent, std::uint64_t max_bytes) {
  struct Opts {
    std::string battle, out, actions;
    bool sections = false, no_labels = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand("render", "Draw the battle as SVG, at its start or after a list of actions");
  cmd->add_option("--battle", o->battle, "Battle file (JSON)")->required();
  cmd->add_option("--actions", o->actions,
                  "Draw the position after these actions, played as `play` plays them (a list, or {\"actions\": [...]})");
  cmd->add_option("-o,--out", o->out, "SVG file (default: standard output)");
  cmd->add_flag("--sections", o->sections, "Tint the three sections");
  cmd->add_flag("--no-labels", o->no_labels, "Leave out the col,row labels");
  cmd->callback([o, max_bytes] {
    Loaded l = load(o->battle, max_bytes);
    // The actions go through the game interface, so a refused one is an
    // error naming its index (exit 2) and nothing is drawn.
    const Situation sit = situation(l, o->battle, o->actions, max_bytes);
    RenderOptions ro;
    ro.shade_sections = o->sections;
    ro.hex_labels = !o->no_labels;
    ro.title = l.battle.name;
    if (sit.in_game())
      ro.title += fmt::format(" after {}", count_of(static_cast<double>(sit.match->log().entries.size()), "action", "actions"));
    std::string svg = render_board(l.battle, sit.state().position, ro);
    emit_file(o->out.empty() ? "-" : o->out, svg);
  });
}

}  // namespace

void add_ancients_commands(CLI::App& ancients, std::uint64_t max_bytes) {
  add_orders(ancients, max_bytes);
  add_destinations(ancients, max_bytes);
  add_route(ancients, max_bytes);
  add_render(ancients, max_bytes);
}

CommandLineEntry ancients_command_line() {
  return {"Commands & Colors: Ancients: hex movement, leaders, command cards, battles",
          {{"--listed-deal", "Deal the hands and decks in the order the battle lists them, not shuffled "
                             "(docs/rulings.md#ancients-deal)",
            "deal", "as_listed"}},
          &add_ancients_commands,
          {}};
}

}  // namespace referee::cli
