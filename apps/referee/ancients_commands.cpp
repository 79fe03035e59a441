// referee ancients <question>: orders, destinations, route, play, replay, render.
// Every answer is worked out in full before anything is written, so bad
// input (exit 2) never leaves a file behind.
#include <fmt/format.h>

#include "cli_support.hpp"
#include "cli_values.hpp"
#include "commands.hpp"
#include "referee/ancients/game.hpp"
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

Loaded load(const std::string& path) {
  nlohmann::json j = load_json_file(path);
  Battle b = naming_source(path, [&] { return parse_battle(j, path); });
  return {std::move(j), std::move(b)};
}

int card_or_fail(const Battle& b, const std::string& id) {
  int c = b.find_card(id);
  if (c < 0) throw InputError("--card", "unknown command card \"" + id + "\"");
  return c;
}

MoveOptions move_options(const Battle& b, const std::string& card) {
  MoveOptions o;
  if (!card.empty()) o.light_pass_through = b.cards[static_cast<std::size_t>(card_or_fail(b, card))].light_pass_through;
  return o;
}

struct Piece {
  bool leader = false;
  int index = -1;
};

// The position a question is asked in: the battle's start, or the state after
// playing an actions file (then "ordered", "already moved" and the card's
// movement options all count).
struct Situation {
  GameState state;
  MoveOptions move;
  bool in_game = false;
};

Situation situation(const Loaded& l, const std::string& actions, const std::string& card) {
  Situation s{GameState::initial(l.battle), {}, false};
  if (!actions.empty()) {
    const nlohmann::json list = load_json_file(actions);
    s.state = naming_source(actions, [&] { return play_actions(l.battle, l.json, list, 0, actions); }).state;
    s.move = s.state.plan.move;
    s.in_game = true;
  }
  if (!card.empty()) s.move = move_options(l.battle, card);
  return s;
}

Action move_action(const Piece& piece, ColRow to) {
  Action a;
  a.type = Action::Type::move;
  a.piece = {piece.leader, piece.index};
  a.to = to;
  return a;
}

Piece find_piece(const Battle& b, const std::string& id) {
  int u = b.find_unit(id);
  if (u >= 0) return {false, u};
  int l = b.find_leader(id);
  if (l >= 0) return {true, l};
  throw InputError("--unit", "no unit or leader \"" + id + "\" in the battle");
}

// In a game, keep only the destinations the game allows now (the piece must be
// ordered, not yet moved, and a leader may have to detach); when none is left,
// say why.
Verdict game_filter(const Battle& b, const Situation& sit, const Piece& piece, std::vector<Destination>& dests) {
  std::vector<Destination> kept;
  Verdict first;
  if (dests.empty()) {
    // Nothing offered: ask the game about a step to a neighbouring hex, which
    // names the reason (already moved, not ordered, stopped by a leader...).
    const Position& p = sit.state.position;
    int from = piece.leader ? p.leaders[static_cast<std::size_t>(piece.index)].hex : p.units[static_cast<std::size_t>(piece.index)].hex;
    for (int dir = 0; dir < 6; ++dir) {
      int n = b.board.neighbour(from, dir);
      if (n >= 0) return validate(b, sit.state, move_action(piece, b.board.col_row(n)));
    }
    return first;
  }
  for (const Destination& d : dests) {
    Verdict v = validate(b, sit.state, move_action(piece, b.board.col_row(d.hex)));
    if (v.legal()) kept.push_back(d);
    else if (first.legal()) first = v;
  }
  dests = kept;
  return kept.empty() ? first : Verdict{};
}

void add_orders(CLI::App& parent) {
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
  cmd->callback([o] {
    Loaded l = load(o->battle);
    const Battle& b = l.battle;
    int card = card_or_fail(b, o->card);
    Position p = Position::initial(b);
    const auto& hand = b.players[static_cast<std::size_t>(o->side)].hand;
    bool in_hand = std::find(hand.begin(), hand.end(), o->card) != hand.end();
    int command = static_cast<int>(hand.size()) + (in_hand ? 0 : 1);
    OrderPlan plan = plan_orders(b, p, o->side, card, command);
    nlohmann::json j = plan_json(b, p, plan);
    j["in_hand"] = in_hand;
    std::string text = plan_text(b, p, plan);
    if (!in_hand) text += fmt::format("note: side {} does not hold {}; command counted as if it did\n", o->side, o->card);
    emit(o->out, j, text);
  });
}

void add_destinations(CLI::App& parent) {
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
  cmd->callback([o] {
    Loaded l = load(o->battle);
    const Battle& b = l.battle;
    Piece piece = find_piece(b, o->unit);
    Situation sit = situation(l, o->actions, o->card);
    const Position& p = sit.state.position;
    MoveOptions mo = sit.move;
    PathScratch s;
    std::vector<Destination> dests;
    nlohmann::json list = nlohmann::json::array();
    nlohmann::json j = nlohmann::json::object();
    std::string text;
    Verdict why;
    int from = 0;
    if (!piece.leader) {
      unit_destinations(b, p, piece.index, mo, s, dests);
      from = p.units[static_cast<std::size_t>(piece.index)].hex;
      if (sit.in_game) why = game_filter(b, sit, piece, dests);
      const UnitClass& c = b.unit_class(piece.index);
      const TerrainType* limited = nullptr;
      int allowance = unit_allowance(b, p, piece.index, &limited);
      j.update({{"unit", o->unit}, {"class", c.id}, {"from", hex_json(b.board, from)}, {"allowance", allowance},
                {"rule", "ancients.movement.allowance"}});
      if (limited) j["allowance_limited_by"] = limited->id;
      int leader = p.leader_of(piece.index);
      if (leader >= 0) j["attached_leader"] = b.leaders[static_cast<std::size_t>(leader)].id;
      text = fmt::format("{} {} at {} moves up to {} hex{}\n", c.name, o->unit, format_hex(b.board.col_row(from)), allowance,
                         allowance == 1 ? "" : "es");
      for (const Destination& d : dests) {
        list.push_back(destination_json(b, p, piece.index, d));
        text += fmt::format("  {}: {} hex{}, {}{}\n", format_hex(b.board.col_row(d.hex)), d.hexes, d.hexes == 1 ? "" : "es",
                            battle_reason(b, p, piece.index, d),
                            d.attaches_leader >= 0 ? ", leader " + b.leaders[static_cast<std::size_t>(d.attaches_leader)].id + " attaches" : "");
      }
    } else {
      leader_destinations(b, p, piece.index, s, dests);
      from = p.leaders[static_cast<std::size_t>(piece.index)].hex;
      if (sit.in_game) why = game_filter(b, sit, piece, dests);
      j.update({{"leader", o->unit}, {"from", hex_json(b.board, from)}, {"allowance", kLeaderAllowance},
                {"rule", "ancients.leader.allowance"}});
      text = fmt::format("leader {} at {} moves up to {} hexes alone\n", o->unit, format_hex(b.board.col_row(from)), kLeaderAllowance);
      for (const Destination& d : dests) {
        list.push_back(destination_json(b, p, -1, d));
        int u = p.unit_on(d.hex);
        text += fmt::format("  {}: {} hex{}{}\n", format_hex(b.board.col_row(d.hex)), d.hexes, d.hexes == 1 ? "" : "es",
                            u >= 0 ? ", attaches to " + b.units[static_cast<std::size_t>(u)].id : "");
      }
    }
    j["destinations"] = list;
    j["count"] = list.size();
    if (!why.legal()) {
      j["violations"] = why.violations;
      text += "cannot move now: " + explain(why) + "\n";
    }
    std::string svg;
    if (!o->svg.empty()) {
      RenderOptions ro;
      ro.destinations = dests;
      ro.destinations_of_unit = !piece.leader;
      ro.selected_hex = from;
      ro.title = fmt::format("{}: {} destinations", o->unit, dests.size());
      svg = render_board(b, p, ro);
    }
    OutputSet outputs;
    if (!o->svg.empty()) outputs.add(o->svg, svg);
    outputs.add_answer(o->out, j, text);
    outputs.commit();
  });
}

void add_route(CLI::App& parent) {
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
  cmd->callback([o] {
    Loaded l = load(o->battle);
    const Battle& b = l.battle;
    Piece piece = find_piece(b, o->unit);
    ColRow to = parse_col_row(o->to, "--to");
    Situation sit = situation(l, o->actions, o->card);
    const Position& p = sit.state.position;
    MoveOptions mo = sit.move;
    Verdict v = sit.in_game ? validate(b, sit.state, move_action(piece, to))
                : piece.leader ? check_leader_move(b, p, piece.index, to)
                               : check_unit_move(b, p, piece.index, to, mo);
    nlohmann::json j = v;
    j[piece.leader ? "leader" : "unit"] = o->unit;
    int from = piece.leader ? p.leaders[static_cast<std::size_t>(piece.index)].hex : p.units[static_cast<std::size_t>(piece.index)].hex;
    j["from"] = hex_json(b.board, from);
    j["to"] = {to.col, to.row};
    std::string text = explain(v);
    if (v.legal()) {
      PathScratch s;
      int hex = b.board.index(to);
      std::vector<int> path = piece.leader ? leader_route(b, p, piece.index, hex, s) : unit_route(b, p, piece.index, hex, mo, s);
      nlohmann::json pj = nlohmann::json::array();
      for (int h : path) pj.push_back(hex_json(b.board, h));
      j["path"] = pj;
      j["hexes"] = static_cast<int>(path.size()) - 1;
      if (!piece.leader) {
        std::vector<Destination> dests;
        unit_destinations(b, p, piece.index, mo, s, dests);
        for (const Destination& d : dests)
          if (d.hex == hex) {
            j["may_battle"] = d.may_battle;
            j["close_combat_compulsory"] = d.close_combat_compulsory;
            j["battle_reason"] = battle_reason(b, p, piece.index, d);
            text = fmt::format("legal: {} hex{}; {}", d.hexes, d.hexes == 1 ? "" : "es", battle_reason(b, p, piece.index, d));
          }
      } else {
        text = fmt::format("legal: {} hexes", path.size() - 1);
      }
    }
    emit(o->out, j, text + "\n");
  });
}

void add_play(CLI::App& parent) {
  struct Opts {
    std::string battle, actions, out;
    std::uint64_t seed = 0;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand("play", "Play actions (cards, orders, moves, end of movement) and write the game log");
  cmd->add_option("--battle", o->battle, "Battle file (JSON)")->required();
  cmd->add_option("--actions", o->actions, "Actions file (JSON)")->required();
  cmd->add_option("--seed", o->seed, "Dice seed, kept in the log")->check(seed_number());
  cmd->add_option("-o,--out", o->out, "Write the log here (default: standard output)");
  cmd->callback([o] {
    Loaded l = load(o->battle);
    nlohmann::json actions = load_json_file(o->actions);
    Playthrough run = naming_source(o->actions, [&] { return play_actions(l.battle, l.json, actions, o->seed, o->battle); });
    emit_file(o->out.empty() ? "-" : o->out, run.log.to_jsonl());
  });
}

void add_replay(CLI::App& parent) {
  struct Opts {
    std::string log;
    OutputOptions out;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand("replay", "Replay a game log, check every result, print the final state");
  cmd->add_option("--log", o->log, "Game log (JSON Lines)")->required();
  add_output_options(cmd, o->out);
  cmd->callback([o] {
    GameLog log = GameLog::parse_jsonl(read_text_file(o->log), o->log);
    Battle b;
    Playthrough run = naming_source(o->log, [&] { return replay_log(log, b); });
    nlohmann::json j{{"entries", log.entries.size()}, {"consistent", true}, {"state", state_json(b, run.state)}};
    std::string text = fmt::format("{} entries replayed, every result matches; turn {}, side {} to play\n", log.entries.size(),
                                   run.state.turn, run.state.side);
    emit(o->out, j, text);
  });
}

void add_render(CLI::App& parent) {
  struct Opts {
    std::string battle, out;
    bool sections = false, no_labels = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand("render", "Draw the battle as SVG");
  cmd->add_option("--battle", o->battle, "Battle file (JSON)")->required();
  cmd->add_option("-o,--out", o->out, "SVG file (default: standard output)");
  cmd->add_flag("--sections", o->sections, "Tint the three sections");
  cmd->add_flag("--no-labels", o->no_labels, "Leave out the col,row labels");
  cmd->callback([o] {
    Loaded l = load(o->battle);
    RenderOptions ro;
    ro.shade_sections = o->sections;
    ro.hex_labels = !o->no_labels;
    ro.title = l.battle.name;
    std::string svg = render_board(l.battle, Position::initial(l.battle), ro);
    emit_file(o->out.empty() ? "-" : o->out, svg);
  });
}

}  // namespace

void add_ancients_commands(CLI::App& ancients) {
  add_orders(ancients);
  add_destinations(ancients);
  add_route(ancients);
  add_play(ancients);
  add_replay(ancients);
  add_render(ancients);
}

}  // namespace referee::cli
