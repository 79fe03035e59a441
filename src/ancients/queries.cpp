#include "referee/ancients/queries.hpp"
#include "referee/ancients/rule_ids.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "referee/ancients/battle.hpp"
#include "referee/ancients/orders.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"

namespace referee::ancients {

namespace {

struct Piece {
  bool leader = false;
  int index = -1;
};

Piece find_piece(const Battle& b, const JsonReader& r, std::string_view key) {
  const std::string id = r.string(key);
  const int u = b.find_unit(id);
  if (u >= 0) return {false, u};
  const int l = b.find_leader(id);
  if (l >= 0) return {true, l};
  r.fail(key, "no unit or leader \"" + id + "\" in the battle");
}

Action move_action(const Piece& piece, ColRow to) {
  Action a;
  a.type = Action::Type::move;
  a.piece = {piece.leader, piece.index};
  a.to = to;
  return a;
}

int card_of(const Battle& b, const JsonReader& r, std::string_view key) {
  const std::string id = r.string(key);
  const int c = b.find_card(id);
  if (c < 0) r.fail(key, "unknown command card \"" + id + "\"");
  return c;
}

// The movement options in force: the card played this turn, or the one the
// question names.
MoveOptions options_for(const Battle& b, const AncientsState& s, bool in_game, const JsonReader& r) {
  MoveOptions o = in_game ? s.plan.move : MoveOptions{};
  if (r.has("card")) o.light_pass_through = b.cards[static_cast<std::size_t>(card_of(b, r, "card"))].light_pass_through;
  return o;
}

int piece_hex(const Position& p, const Piece& piece) {
  return piece.leader ? p.leaders[static_cast<std::size_t>(piece.index)].hex : p.units[static_cast<std::size_t>(piece.index)].hex;
}

// In a game, keep only the destinations the game allows now (the piece must
// be ordered, not yet moved, and a leader may have to detach); when none is
// left, say why.
Verdict game_filter(const Battle& b, const AncientsState& s, const Piece& piece, std::vector<Destination>& dests) {
  if (dests.empty()) {
    // Nothing offered: ask the game about a step to a neighbouring hex, which
    // names the reason (already moved, not ordered, stopped by a leader...).
    const int from = piece_hex(s.position, piece);
    for (int dir = 0; dir < 6; ++dir) {
      const int n = b.board.neighbour(from, dir);
      if (n >= 0) return validate(b, s, move_action(piece, b.board.col_row(n)));
    }
    return {};
  }
  std::vector<Destination> kept;
  Verdict first;
  for (const Destination& d : dests) {
    Verdict v = validate(b, s, move_action(piece, b.board.col_row(d.hex)));
    if (v.legal()) kept.push_back(d);
    else if (first.legal()) first = v;
  }
  dests = kept;
  return kept.empty() ? first : Verdict{};
}

Json orders_query(const Battle& b, const AncientsState& s, const JsonReader& r, std::string* text) {
  r.allow_only({"card", "side"});
  const int card = card_of(b, r, "card");
  const int side = r.integer_or("side", s.side, 0, 1);
  const std::string& id = card_id(b, card);
  const auto& hand = s.hands[static_cast<std::size_t>(side)];
  const bool in_hand = std::find(hand.begin(), hand.end(), card) != hand.end();
  // Command is the cards held, counting the one being played.
  const int command = static_cast<int>(hand.size()) + (in_hand ? 0 : 1);
  const OrderPlan plan = plan_orders(b, s.position, side, card, command);
  Json j = plan_json(b, s.position, plan);
  j["in_hand"] = in_hand;
  if (text) {
    *text = plan_text(b, s.position, plan);
    if (!in_hand) *text += fmt::format("note: {} does not hold {}; command counted as if it did\n", b.army(side), id);
  }
  return j;
}

Json destinations_query(const Battle& b, const AncientsState& s, bool in_game, const JsonReader& r, std::string* text,
                        std::vector<Destination>* out) {
  r.allow_only({"unit", "card"});
  const Piece piece = find_piece(b, r, "unit");
  const std::string id = r.string("unit");
  const Position& p = s.position;
  const MoveOptions mo = options_for(b, s, in_game, r);
  PathScratch scratch;
  std::vector<Destination> dests;
  Json list = Json::array();
  Json j = Json::object();
  std::string t;
  Verdict why;
  const int from = piece_hex(p, piece);
  if (!piece.leader) {
    unit_destinations(b, p, piece.index, mo, scratch, dests);
    if (in_game) why = game_filter(b, s, piece, dests);
    const UnitClass& c = b.unit_class(piece.index);
    const TerrainType* limited = nullptr;
    const int allowance = unit_allowance(b, p, piece.index, &limited);
    j.update({{"unit", id}, {"class", c.id}, {"from", hex_json(b.board, from)}, {"allowance", allowance},
              {"rule", ancients::rule_id::movement_allowance}});
    if (limited) j["allowance_limited_by"] = limited->id;
    const int leader = p.leader_of(piece.index);
    if (leader >= 0) j["attached_leader"] = b.leaders[static_cast<std::size_t>(leader)].id;
    t = fmt::format("{} {} at {} moves up to {} hex{}\n", c.name, id, format_hex(b.board.col_row(from)), allowance,
                    allowance == 1 ? "" : "es");
    for (const Destination& d : dests) {
      list.push_back(destination_json(b, p, piece.index, d));
      t += fmt::format("  {}: {} hex{}, {}{}\n", format_hex(b.board.col_row(d.hex)), d.hexes, d.hexes == 1 ? "" : "es",
                       battle_reason(b, p, piece.index, d),
                       d.attaches_leader >= 0 ? ", leader " + b.leaders[static_cast<std::size_t>(d.attaches_leader)].id + " attaches" : "");
    }
  } else {
    leader_destinations(b, p, piece.index, scratch, dests);
    if (in_game) why = game_filter(b, s, piece, dests);
    j.update({{"leader", id}, {"from", hex_json(b.board, from)}, {"allowance", kLeaderAllowance},
              {"rule", ancients::rule_id::leader_allowance}});
    t = fmt::format("leader {} at {} moves up to {} alone\n", id, format_hex(b.board.col_row(from)),
                    count_of(kLeaderAllowance, "hex", "hexes"));
    for (const Destination& d : dests) {
      list.push_back(destination_json(b, p, -1, d));
      const int u = p.unit_on(d.hex);
      t += fmt::format("  {}: {} hex{}{}\n", format_hex(b.board.col_row(d.hex)), d.hexes, d.hexes == 1 ? "" : "es",
                       u >= 0 ? ", attaches to " + b.units[static_cast<std::size_t>(u)].id : "");
    }
  }
  j["destinations"] = list;
  j["count"] = list.size();
  if (!why.legal()) {
    j["violations"] = why.violations;
    t += "cannot move now: " + explain(why) + "\n";
  }
  if (text) *text = t;
  if (out) *out = std::move(dests);
  return j;
}

Json route_query(const Battle& b, const AncientsState& s, bool in_game, const JsonReader& r, std::string* text) {
  r.allow_only({"unit", "to", "card"});
  const Piece piece = find_piece(b, r, "unit");
  const std::string id = r.string("unit");
  JsonReader to_r = r.at("to");
  to_r.require_array();
  if (to_r.size() != 2) to_r.fail("expected [col, row]");
  // Off the board is allowed here: it is a ruling, not bad input.
  const ColRow to{to_r.at(std::size_t{0}).as_integer(-1000, 1000), to_r.at(std::size_t{1}).as_integer(-1000, 1000)};
  const Position& p = s.position;
  const MoveOptions mo = options_for(b, s, in_game, r);
  const Verdict v = in_game ? validate(b, s, move_action(piece, to))
                    : piece.leader ? check_leader_move(b, p, piece.index, to)
                                   : check_unit_move(b, p, piece.index, to, mo);
  Json j = v;
  j[piece.leader ? "leader" : "unit"] = id;
  j["from"] = hex_json(b.board, piece_hex(p, piece));
  j["to"] = {to.col, to.row};
  std::string t = explain(v);
  if (v.legal()) {
    PathScratch scratch;
    const int hex = b.board.index(to);
    const std::vector<int> path = piece.leader ? leader_route(b, p, piece.index, hex, scratch)
                                               : unit_route(b, p, piece.index, hex, mo, scratch);
    Json pj = Json::array();
    for (int h : path) pj.push_back(hex_json(b.board, h));
    j["path"] = pj;
    j["hexes"] = static_cast<int>(path.size()) - 1;
    if (!piece.leader) {
      std::vector<Destination> dests;
      unit_destinations(b, p, piece.index, mo, scratch, dests);
      for (const Destination& d : dests)
        if (d.hex == hex) {
          j["may_battle"] = d.may_battle;
          j["close_combat_compulsory"] = d.close_combat_compulsory;
          j["battle_reason"] = battle_reason(b, p, piece.index, d);
          t = fmt::format("legal: {}; {}", count_of(d.hexes, "hex", "hexes"), battle_reason(b, p, piece.index, d));
        }
    } else {
      t = fmt::format("legal: {}", count_of(static_cast<double>(path.size() - 1), "hex", "hexes"));
    }
  }
  if (text) *text = t + "\n";
  return j;
}

int unit_of(const Battle& b, const JsonReader& r, std::string_view key) {
  const std::string id = r.string(key);
  const int u = b.find_unit(id);
  if (u < 0) r.fail(key, "no unit \"" + id + "\" in the battle");
  return u;
}

Action battle_action(int unit, int target, bool leader) {
  Action a;
  a.type = Action::Type::battle;
  a.piece = {false, unit};
  a.target = target;
  a.target_leader = leader;
  return a;
}

// Why `u` may not battle `target` now, as the game's refusal gives it: in a
// game, validate's verdict on the battle action (the phase, the side to play,
// an unordered unit, one that battled or may not battle after its move); at
// the start asked from the command line, the battle's geometry alone.
Verdict battle_refusal(const Battle& b, const AncientsState& s, bool in_game, int u, int target, bool leader) {
  if (in_game) return validate(b, s, battle_action(u, target, leader));
  Verdict v;
  const char* rule = nullptr;
  const std::string why = leader ? why_not_leader_target(b, s.position, u, target, &rule)
                                 : why_not_target(b, s.position, u, target, &rule);
  if (!why.empty()) v.add(rule, why);
  return v;
}

Json refusal_json(const Battle& b, const Verdict& v, int u, const std::string& target, std::string* text) {
  Json j = v;
  j["attacker"] = unit_id(b, u);
  j["target"] = target;
  if (text) *text = explain(v) + "\n";
  return j;
}

// A lone leader as the target: killed on any helmet, 6^n - 5^n of the 6^n rolls.
Json leader_odds(const Battle& b, const AncientsState& s, bool in_game, int u, int l, std::string* text) {
  if (const Verdict v = battle_refusal(b, s, in_game, u, l, true); !v.legal())
    return refusal_json(b, v, u, leader_id(b, l), text);
  const int n = dice_against_leader(b, s.position, u, l);
  std::uint64_t all = 1, none = 1;
  for (int i = 0; i < n; ++i) all *= 6, none *= 5;
  const double p = static_cast<double>(all - none) / static_cast<double>(all);
  if (text) *text = fmt::format("{} at lone leader {}: {} dice, P(killed) {:.4f}\n", unit_id(b, u), leader_id(b, l), n, p);
  return {{"attacker", unit_id(b, u)}, {"target", leader_id(b, l)}, {"legal", true}, {"dice", n}, {"hit_faces", {"leader"}},
          {"rolls", all}, {"eliminate", {{"rolls", all - none}, {"probability", p}}}, {"rule", ancients::rule_id::battle_odds}};
}

// The exact odds of `unit` battling `target` now (ancients.battle.odds), or
// the game's refusal of that battle (docs/rulings.md#ancients-attack-odds);
// `evading` asks for the roll against a target that evades, refused when the
// game would not offer it the evasion.
Json odds_query(const Battle& b, const AncientsState& s, bool in_game, const JsonReader& r, std::string* text) {
  r.allow_only({"unit", "target", "evading"});
  const int u = unit_of(b, r, "unit");
  if (const int l = b.find_leader(r.string("target")); l >= 0) return leader_odds(b, s, in_game, u, l, text);
  const int t = unit_of(b, r, "target");
  const bool evading = r.boolean_or("evading", false);
  const Position& p = s.position;
  if (!in_game && p.units[static_cast<std::size_t>(u)].hex < 0)
    r.fail("unit", "unit " + unit_id(b, u) + " has been eliminated");
  if (const Verdict v = battle_refusal(b, s, in_game, u, t, false); !v.legal())
    return refusal_json(b, v, u, unit_id(b, t), text);
  if (evading) {
    const char* rule = nullptr;
    if (const std::string why = why_not_evade(b, p, u, t, &rule); !why.empty()) {
      Verdict v;
      v.add(rule, why);
      Json j = refusal_json(b, v, u, unit_id(b, t), text);
      j["evading"] = true;
      return j;
    }
  }
  const bool close = b.board.adjacent(p.units[static_cast<std::size_t>(u)].hex, p.units[static_cast<std::size_t>(t)].hex);
  const AttackPlan plan = plan_attack(b, p, u, t, close, false, evading);
  const AttackOdds o = attack_odds(b, p, plan);
  Json j = odds_json(b, plan, o);
  j["legal"] = true;
  if (text)
    *text = fmt::format("{} {} at {}: {} dice, hits on {}; P(at least one hit) {:.4f}, expected hits {:.3f}, "
                        "P(eliminated) {:.4f}, P(retreats) {:.4f}, P(may retreat by choice) {:.4f}\n",
                        close ? "close combat" : "ranged combat", unit_id(b, u), unit_id(b, t), o.dice, j["hit_faces"].dump(),
                        static_cast<double>(o.at_least_one_hit) / static_cast<double>(o.outcomes), o.expected_hits,
                        static_cast<double>(o.eliminate) / static_cast<double>(o.outcomes),
                        static_cast<double>(o.retreat) / static_cast<double>(o.outcomes),
                        static_cast<double>(o.retreat_by_choice) / static_cast<double>(o.outcomes));
  return j;
}

// Every battle the unit may fight now, with the odds of each: in a game, the
// targets validate accepts, and when the unit may battle nothing now the
// game's reason (`violations`).
Json targets_query(const Battle& b, const AncientsState& s, bool in_game, const JsonReader& r, std::string* text) {
  r.allow_only({"unit"});
  const int u = unit_of(b, r, "unit");
  Json list = Json::array();
  std::string t;
  const Verdict why = in_game ? validate_battler(b, s, u) : Verdict{};
  const std::vector<Target> all = why.legal() && s.position.units[static_cast<std::size_t>(u)].hex >= 0
                                      ? battle_targets(b, s.position, u)
                                      : std::vector<Target>{};
  for (const Target& tg : all) {
    if (in_game && !validate(b, s, battle_action(u, tg.unit, tg.leader)).legal()) continue;
    if (tg.leader) {
      const int n = dice_against_leader(b, s.position, u, tg.unit);
      std::uint64_t rolls = 1, none = 1;
      for (int i = 0; i < n; ++i) rolls *= 6, none *= 5;
      list.push_back({{"leader", leader_id(b, tg.unit)}, {"combat", tg.close ? "close" : "ranged"}, {"distance", tg.distance},
                      {"dice", n}, {"eliminate", static_cast<double>(rolls - none) / static_cast<double>(rolls)}});
      t += fmt::format("  leader {} ({}, {} dice)\n", leader_id(b, tg.unit), tg.close ? "close" : "ranged", n);
      continue;
    }
    const AttackPlan plan = plan_attack(b, s.position, u, tg.unit, tg.close, false, false);
    const AttackOdds o = attack_odds(b, s.position, plan);
    list.push_back({{"target", unit_id(b, tg.unit)}, {"combat", tg.close ? "close" : "ranged"}, {"distance", tg.distance},
                    {"dice", o.dice}, {"eliminate", static_cast<double>(o.eliminate) / static_cast<double>(o.outcomes)},
                    {"retreat", static_cast<double>(o.retreat) / static_cast<double>(o.outcomes)},
                    {"retreat_by_choice", static_cast<double>(o.retreat_by_choice) / static_cast<double>(o.outcomes)},
                    {"at_least_one_hit", static_cast<double>(o.at_least_one_hit) / static_cast<double>(o.outcomes)},
                    {"expected_hits", o.expected_hits}});
    t += fmt::format("  {} ({}, {} dice)\n", unit_id(b, tg.unit), tg.close ? "close" : "ranged", o.dice);
  }
  Json j{{"unit", unit_id(b, u)}, {"targets", list}, {"rule", ancients::rule_id::battle_target}};
  if (!why.legal()) {
    j["violations"] = why.violations;
    t += "may battle nothing now: " + explain(why) + "\n";
  }
  if (text) *text = fmt::format("unit {} may battle {}\n", unit_id(b, u), count_of(static_cast<double>(list.size()), "target", "targets")) + t;
  return j;
}

// --- Questions an analyst asks directly -----------------------------------------

// A hex as [col, row], or a unit or leader id standing for its hex.
int hex_arg(const Battle& b, const Position& p, const JsonReader& r, std::string_view key) {
  JsonReader h = r.at(key);
  if (h.json().is_string()) {
    const Piece piece = find_piece(b, r, key);
    const int at = piece_hex(p, piece);
    if (at < 0) r.fail(key, fmt::format("\"{}\" is not on the board", r.string(key)));
    return at;
  }
  h.require_array();
  if (h.size() != 2) h.fail("expected [col, row] or a unit or leader id");
  const ColRow c{h.at(std::size_t{0}).as_integer(-1000, 1000), h.at(std::size_t{1}).as_integer(-1000, 1000)};
  const int hex = b.board.index(c);
  if (hex < 0) h.fail(fmt::format("{} is not a hex of the board", format_hex(c)));
  return hex;
}

// A hex between two in the line of sight: what stands on it, and whether it blocks.
Json sight_hex_json(const Battle& b, const Position& p, int hex) {
  Json j{{"hex", hex_json(b.board, hex)}, {"blocks", blocks_sight(b, p, hex)}};
  if (const int u = p.unit_on(hex); u >= 0) j["unit"] = unit_id(b, u);
  if (const TerrainType* t = b.terrain_at(hex)) {
    j["terrain"] = t->id;
    j["terrain_blocks_sight"] = t->blocks_sight;
  }
  return j;
}

// Line of sight between two hexes (ancients.battle.sight,
// docs/rulings.md#ancients-line-of-sight): the hexes strictly between on each
// side of the line, what stands on each, and the blocking hex when blocked.
Json sight_query(const Battle& b, const AncientsState& s, const JsonReader& r, std::string* text) {
  r.allow_only({"from", "to"});
  const Position& p = s.position;
  const int from = hex_arg(b, p, r, "from"), to = hex_arg(b, p, r, "to");
  const std::array<std::vector<int>, 2> sides = sight_hexes(b, from, to);
  int blocker = -1;
  const bool visible = line_of_sight(b, p, from, to, &blocker);
  Json between = Json::array(), other = Json::array();
  for (int h : sides[0]) between.push_back(sight_hex_json(b, p, h));
  for (int h : sides[1]) other.push_back(sight_hex_json(b, p, h));
  const bool along_edge = sides[0] != sides[1];
  Json j{{"rule", ancients::rule_id::battle_sight},
         {"from", hex_json(b.board, from)},
         {"to", hex_json(b.board, to)},
         {"distance", hex_distance(b.board.axial(from), b.board.axial(to))},
         {"visible", visible},
         {"along_edge", along_edge},
         {"between", between}};
  if (along_edge) j["other_side"] = other;
  std::string why;
  if (!visible) {
    Json by = sight_hex_json(b, p, blocker);
    by.erase("blocks");
    j["blocked_by"] = by;
    why = by.contains("unit") ? fmt::format("unit {}", by["unit"].get<std::string>())
                              : fmt::format("terrain {}", by.value("terrain", std::string("?")));
  }
  if (text)
    *text = fmt::format("{} to {} ({}): {}{}\n", format_hex(b.board.col_row(from)), format_hex(b.board.col_row(to)),
                        count_of(j["distance"].get<int>(), "hex", "hexes"),
                        visible ? "in sight"
                                : fmt::format("blocked at {} by {}", format_hex(b.board.col_row(blocker)), why),
                        along_edge ? " (the line runs along hex edges: blocked only where both sides are)" : "");
  return j;
}

Json path_options_json(const Battle& b, const std::vector<RetreatOption>& options) {
  Json list = Json::array();
  for (const RetreatOption& o : options) {
    Json path = Json::array();
    for (int h : o.path) path.push_back(hex_json(b.board, h));
    Json x{{"end", hex_json(b.board, o.end)}, {"hexes", o.hexes}, {"blocks_lost", o.lost}, {"path", path}};
    if (o.attaches_leader >= 0) x["attaches_leader"] = leader_id(b, o.attaches_leader);
    list.push_back(std::move(x));
  }
  return list;
}

int on_board_unit(const Battle& b, const Position& p, const JsonReader& r, std::string_view key) {
  const int u = unit_of(b, r, key);
  if (p.units[static_cast<std::size_t>(u)].hex < 0) r.fail(key, "unit " + unit_id(b, u) + " has been eliminated");
  return u;
}

// The retreat paths of a unit for N flags (ancients.flag.retreat): its
// class's hexes per flag, and the paths the game would offer, with the
// blocks each loses for hexes it cannot retreat; and, since a flag it may
// ignore (support, an attached leader) is its owner's choice, the choices
// the game would offer it (flag_choices: each end hex, the flags ignored to
// reach it, its own hex when it holds).
Json retreats_query(const Battle& b, const AncientsState& s, const JsonReader& r, std::string* text) {
  r.allow_only({"unit", "flags"});
  const Position& p = s.position;
  const int u = on_board_unit(b, p, r, "unit");
  const int flags = r.integer("flags", 1, 12);
  const int per = combat_profile(b.units[static_cast<std::size_t>(u)].cls).retreat_per_flag;
  bool supported = false;
  const int ignorable = ignorable_flags(b, p, u, &supported);
  const std::vector<RetreatOption> options = retreat_options(b, p, u, flags * per);
  Json j{{"rule", ancients::rule_id::flag_retreat},
         {"unit", unit_id(b, u)},
         {"from", hex_json(b.board, p.units[static_cast<std::size_t>(u)].hex)},
         {"flags", flags},
         {"hexes_per_flag", per},
         {"hexes", flags * per},
         {"may_ignore", ignorable},
         {"supported", supported},
         {"options", path_options_json(b, options)}};
  const std::vector<FlagChoice> offered = flag_choices(b, p, u, flags, ignorable);
  Json choices = Json::array();
  for (const FlagChoice& c : offered) {
    Json x = path_options_json(b, {c.option})[0];
    x["flags_ignored"] = c.ignored;
    if (c.hexes == 0) x["holds"] = true;
    choices.push_back(std::move(x));
  }
  j["choices"] = std::move(choices);
  if (text) {
    std::string t = fmt::format("{} retreats {} for {} ({} a flag; it may ignore {}):\n", unit_id(b, u),
                                count_of(flags * per, "hex", "hexes"), count_of(flags, "flag", "flags"),
                                count_of(per, "hex", "hexes"), count_of(ignorable, "flag", "flags"));
    for (const RetreatOption& o : options)
      t += fmt::format("  to {}: {}{}\n", format_hex(b.board.col_row(o.end)), count_of(o.hexes, "hex", "hexes"),
                       o.lost ? fmt::format(", {} lost", count_of(o.lost, "block", "blocks")) : std::string());
    if (ignorable > 0) {
      t += "its owner's choices:\n";
      for (const FlagChoice& c : offered)
        t += fmt::format("  {} {}: {} ignored, {}{}\n", c.hexes == 0 ? "holds on" : "ends on",
                         format_hex(b.board.col_row(c.option.end)), count_of(c.ignored, "flag", "flags"),
                         count_of(c.option.hexes, "hex", "hexes"),
                         c.option.lost ? fmt::format(", {} lost", count_of(c.option.lost, "block", "blocks")) : std::string());
    }
    *text = t;
  }
  return j;
}

// Whether a unit may evade an attacker's close combat now, and where to
// (ancients.evade.eligible, ancients.evade.move): the game's own test
// (why_not_evade), its reason and rule when it may not.
Json evasion_query(const Battle& b, const AncientsState& s, const JsonReader& r, std::string* text) {
  r.allow_only({"unit", "attacker"});
  const Position& p = s.position;
  const int u = on_board_unit(b, p, r, "unit");
  const int a = on_board_unit(b, p, r, "attacker");
  if (b.units[static_cast<std::size_t>(a)].side == b.units[static_cast<std::size_t>(u)].side)
    r.fail("attacker", "unit " + unit_id(b, a) + " is on the same side");
  const char* rule = ancients::rule_id::evade_eligible;
  std::vector<RetreatOption> options;
  const std::string why = why_not_evade(b, p, a, u, &rule, &options);
  Json j{{"rule", why.empty() ? ancients::rule_id::evade_move : rule},
         {"unit", unit_id(b, u)},
         {"attacker", unit_id(b, a)},
         {"class_may_evade", may_evade(b, u, a)},
         {"may_evade", why.empty()}};
  if (why.empty()) j["options"] = path_options_json(b, options);
  else j["reason"] = why;
  if (text) {
    std::string t = why.empty() ? fmt::format("{} may evade {}:\n", unit_id(b, u), unit_id(b, a))
                                : fmt::format("{} may not evade {}: {} ({})\n", unit_id(b, u), unit_id(b, a), why, rule);
    for (const RetreatOption& o : options)
      t += fmt::format("  to {}: {}\n", format_hex(b.board.col_row(o.end)), count_of(o.hexes, "hex", "hexes"));
    *text = t;
  }
  return j;
}

}  // namespace

std::vector<QueryInfo> query_catalogue() {
  return {
      {"orders", "Which units and leaders a command card may order, and how many",
       {{"card", "card id, such as order-three-center"}, {"side", "the player playing it (default: whose turn)"}}},
      {"destinations", "Every legal destination of a unit or lone leader, each marked can battle, no battle or must battle",
       {{"unit", "unit or leader id"}, {"card", "the card it is ordered under (default: the card played)"}}},
      {"route", "Is a move of a unit (or lone leader) to a hex legal? Every violation, or the path",
       {{"unit", "unit or leader id"}, {"to", "[col, row]"}, {"card", "the card it is ordered under"}}},
      {"odds", "The exact odds of a unit battling a target now: dice, the faces that hit, the distribution of hits and "
               "flags, the chance of eliminating it or making it retreat; or, legal false, the game's refusal of that battle",
       {{"unit", "the attacking unit"}, {"target", "the enemy unit"}, {"evading", "true: the roll against a target that evades"}}},
      {"targets", "Every enemy unit a unit may battle now (close or ranged), with the dice and odds of each; none, with the "
                  "game's reason, when the unit may not battle now",
       {{"unit", "unit id"}}},
      {"sight", "Line of sight between two hexes: the hexes between, what stands on each, and the unit or terrain "
                "that blocks it",
       {{"from", "[col, row], or a unit or leader id for its hex"}, {"to", "[col, row], or a unit or leader id"}}},
      {"retreats", "The retreat paths of a unit for N flags, with the blocks each loses, and the flags it may ignore",
       {{"unit", "unit id"}, {"flags", "flags to retreat, 1 to 12"}}},
      {"evasion", "Whether a unit may evade an attacker's close combat now, where to, or why not",
       {{"unit", "the unit attacked"}, {"attacker", "the enemy unit attacking it"}}},
  };
}

Json answer_query(const Battle& b, const AncientsState& s, bool in_game, const std::string& name, const Json& args,
                  const std::string& path, std::string* text, std::vector<Destination>* destinations_out) {
  JsonReader r(args, path);
  r.require_object();
  if (name == "orders") return orders_query(b, s, r, text);
  if (name == "destinations") return destinations_query(b, s, in_game, r, text, destinations_out);
  if (name == "route") return route_query(b, s, in_game, r, text);
  if (name == "odds") return odds_query(b, s, in_game, r, text);
  if (name == "targets") return targets_query(b, s, in_game, r, text);
  if (name == "sight") return sight_query(b, s, r, text);
  if (name == "retreats") return retreats_query(b, s, r, text);
  if (name == "evasion") return evasion_query(b, s, r, text);
  throw InputError("query", fmt::format("unknown Ancients query \"{}\" (known: orders, destinations, route, odds, "
                                        "targets, sight, retreats, evasion)",
                                        name));
}

}  // namespace referee::ancients
