#include "referee/warmaster/command_json.hpp"

#include <fmt/format.h>

#include "referee/core/dice.hpp"
#include "referee/warmaster/battlefield_json.hpp"

namespace referee::warmaster {

namespace {
std::vector<std::string> action_type_names() {
  return {"off_table_return", "home_back", "initiative", "order", "move", "end_orders", "character_move", "end_phase"};
}

std::vector<std::string> id_list(const JsonReader& r, std::string_view key) {
  std::vector<std::string> out;
  if (auto l = r.find(key)) {
    if (l->size() > 64) l->fail("at most 64 ids");
    for (const JsonReader& e : l->items()) out.push_back(e.as_string());
  }
  return out;
}

// The movement engine's move request parser reads from its own root; its
// errors are given the path of the action they sit in.
MoveRequest parse_move_at(const Json& j, const Battlefield& bf, const std::string& path) {
  try {
    return parse_move_request(j, bf);
  } catch (const InputError& e) {
    throw InputError(e.field().empty() ? path : path + "." + e.field(), e.problem());
  }
}

Json pose_json(const Pose& p) { return Json{{"x", p.position.x}, {"y", p.position.y}, {"facing", p.facing_deg}}; }
}  // namespace

Action parse_action(const Json& j, const Battlefield& bf, const std::string& path) {
  JsonReader r(j, path);
  r.require_object();
  Action a;
  a.type = *action_type_from_string(r.one_of("type", action_type_names()));
  switch (a.type) {
    case ActionType::OffTableReturn:
      r.allow_only({"type", "unit", "character"});
      if (r.has("character")) {
        if (r.has("unit")) r.fail("unit", "an off_table_return names a unit or a character, not both");
        a.character = r.string("character");
      } else {
        a.unit = r.string("unit");
      }
      break;
    case ActionType::HomeBack:
      r.allow_only({"type", "unit", "character"});
      a.unit = r.string("unit");
      a.character = r.string("character");
      break;
    case ActionType::Initiative: {
      r.allow_only({"type", "unit", "kind", "target", "ignore", "burst_through", "move"});
      a.unit = r.string("unit");
      a.charge = r.one_of("kind", {"charge", "evade"}) == "charge";
      a.target = r.string("target");
      a.ignore = id_list(r, "ignore");
      a.burst_through = id_list(r, "burst_through");
      if (auto m = r.find("move")) {
        m->require_object();
        Json mj = m->json();
        if (!mj.contains("unit")) mj["unit"] = a.unit;
        if (!mj.contains("kind")) mj["kind"] = a.charge ? "charge" : "evade";
        a.moves.push_back(parse_move_at(mj, bf, r.path_of("move")));
        if (a.moves[0].mover != a.unit) m->fail("unit", "the move must be of the unit using initiative");
      }
      break;
    }
    case ActionType::Order:
      r.allow_only({"type", "character", "units", "unit"});
      a.character = r.string("character");
      if (r.has("unit") == r.has("units")) r.fail("an order names one \"unit\" or a brigade of \"units\"");
      a.units = r.has("unit") ? std::vector<std::string>{r.string("unit")} : id_list(r, "units");
      break;
    case ActionType::Move: {
      r.allow_only({"type", "moves"});
      if (auto ms = r.find("moves")) {
        ms->require_array();
        if (ms->size() > 4) ms->fail("an order moves at most four units");
        std::size_t k = 0;
        for (const JsonReader& m : ms->items()) {
          JsonReader mr = m;
          mr.require_object();
          a.moves.push_back(parse_move_at(m.json(), bf, fmt::format("{}.moves[{}]", path, k++)));
        }
      }
      break;
    }
    case ActionType::CharacterMove: {
      r.allow_only({"type", "character", "stands", "join"});
      a.character = r.string("character");
      a.join = r.string_or("join", "");
      Json mj{{"character", a.character}, {"kind", "character"}, {"stands", r.at("stands").json()}};
      a.moves.push_back(parse_move_at(mj, bf, path));
      break;
    }
    case ActionType::EndOrders:
    case ActionType::EndPhase:
      r.allow_only({"type"});
      break;
  }
  return a;
}

Json to_json(const Action& a) {
  Json j{{"type", to_string(a.type)}};
  switch (a.type) {
    case ActionType::OffTableReturn:
      if (a.character.empty()) j["unit"] = a.unit;
      else j["character"] = a.character;
      break;
    case ActionType::HomeBack:
      j["unit"] = a.unit;
      j["character"] = a.character;
      break;
    case ActionType::Initiative:
      j["unit"] = a.unit;
      j["kind"] = a.charge ? "charge" : "evade";
      j["target"] = a.target;
      if (!a.ignore.empty()) j["ignore"] = a.ignore;
      if (!a.burst_through.empty()) j["burst_through"] = a.burst_through;
      if (!a.moves.empty()) j["move"] = to_json(a.moves[0]);
      break;
    case ActionType::Order:
      j["character"] = a.character;
      j["units"] = a.units;
      break;
    case ActionType::Move: {
      Json ms = Json::array();
      for (std::size_t k = 0; k < a.moves.size(); ++k) {
        ms.push_back(to_json(a.moves[k]));
      }
      j["moves"] = ms;
      break;
    }
    case ActionType::CharacterMove:
      j["character"] = a.character;
      if (!a.moves.empty()) j["stands"] = to_json(a.moves[0])["stands"];
      if (!a.join.empty()) j["join"] = a.join;
      break;
    case ActionType::EndOrders:
    case ActionType::EndPhase: break;
  }
  return j;
}

Json state_to_json(const CommandState& s) {
  const Battlefield& bf = s.battlefield();
  Json j;
  j["turn"] = s.turn();
  j["side"] = s.side();
  j["phase"] = "command";
  j["step"] = to_string(s.step());
  j["orders_begun"] = s.orders_begun();
  j["general_failed"] = s.general_failed();
  j["active_character"] = s.active_character();
  j["battle_over"] = s.battle_over();
  if (s.battle_over()) j["battle_over_reason"] = s.battle_over_reason();
  if (const auto& p = s.pending()) {
    Json pj{{"source", p->source}, {"move", p->kind ? to_string(*p->kind) : "none"}};
    Json ids = Json::array();
    for (int ui : p->units) ids.push_back(bf.units[static_cast<std::size_t>(ui)].id);
    pj["units"] = ids;
    if (p->source == "home back") {
      pj["distance"] = p->dice_distance;
      pj["toward"] = p->homing_on;
    }
    j["pending"] = pj;
  } else {
    j["pending"] = nullptr;
  }
  Json units = Json::array();
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const Unit& u = bf.units[i];
    const UnitStatus& st = s.units()[i];
    Json stands = Json::array();
    for (const Stand& x : u.stands) stands.push_back(pose_json(x.pose));
    units.push_back({{"id", u.id},
                     {"side", u.side},
                     {"orders", st.orders},
                     {"ordered_by", st.ordered_by},
                     {"used_initiative", st.used_initiative},
                     {"charged", st.charged},
                     {"moved", st.moved},
                     {"finished", st.finished},
                     {"homed_back", st.homed_back},
                     {"near_enemy_at_start", st.near_enemy_at_start},
                     {"engaged", u.engaged},
                     {"confused", u.confused},
                     {"stands_lost", u.stands_lost},
                     {"off_table", st.off_table},
                     {"returns_next_turn", st.returns_next_turn},
                     {"destroyed", st.destroyed},
                     {"frozen", st.frozen},
                     {"stands", stands}});
  }
  j["units"] = units;
  Json chars = Json::array();
  for (std::size_t i = 0; i < bf.characters.size(); ++i) {
    const Character& c = bf.characters[i];
    const CharacterStatus& st = s.characters()[i];
    chars.push_back({{"id", c.id},
                     {"side", c.side},
                     {"role", to_string(c.role)},
                     {"orders_issued", st.orders_issued},
                     {"failed", st.failed},
                     {"finished", st.finished},
                     {"moved", st.moved},
                     {"joined_unit", c.joined_unit},
                     {"pose", pose_json(c.pose)}});
    // Only when set, so older golden files stay as they were.
    if (st.lost) {
      chars.back()["lost"] = true;
      chars.back()["return_point"] = {st.return_point.x, st.return_point.y};
    }
    if (st.returns_next_turn) chars.back()["returns_next_turn"] = true;
    if (st.frozen) chars.back()["returned"] = true;
  }
  j["characters"] = chars;
  return j;
}

Json legal_actions_json(const CommandState& s) {
  Json out = Json::array();
  for (const Action& a : s.legal_actions()) out.push_back(to_json(a));
  return out;
}

PlayReport play_actions(std::shared_ptr<const CommandGame> game, std::uint64_t seed, const Json& actions,
                        const std::string& path) {
  PlayReport rep;
  rep.log.system = "warmaster";
  rep.log.seed = seed;
  rep.log.scenario = game->scenario;
  to_json(rep.log.settings, game->settings);
  CommandState state(game);
  SeededDice dice(seed);
  if (!actions.is_array()) throw InputError(path, "expected an array of actions");
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const Action a = parse_action(actions[i], state.battlefield(), fmt::format("{}[{}]", path, i));
    ActionOutcome o = state.apply(a, dice);
    if (!o.verdict.legal()) rep.refused.emplace_back(static_cast<int>(i), o.verdict);
    rep.log.append(to_json(a), o.rolls, o.result);
  }
  rep.final_state = state_to_json(state);
  return rep;
}

CommandState replay_log(std::shared_ptr<const CommandGame> game, const GameLog& log, const std::string& source_name) {
  CommandState state(game);
  SeededDice dice(log.seed);
  for (const LogEntry& e : log.entries) {
    // One entry per line after the header line.
    const std::string where = fmt::format("{} line {}", source_name, e.seq + 1);
    const Action a = parse_action(e.action, state.battlefield(), where + ": action");
    ActionOutcome o = state.apply(a, dice);
    if (o.rolls != e.rolls)
      throw InputError(where, fmt::format("the rolls do not match seed {}: the log has {} dice, the engine rolled {}",
                                          log.seed, e.rolls.size(), o.rolls.size()));
    if (o.result != e.result)
      throw InputError(where, fmt::format("the result does not match what the engine rules now ({})",
                                          o.verdict.legal() ? "applied" : "refused"));
  }
  return state;
}

}  // namespace referee::warmaster
