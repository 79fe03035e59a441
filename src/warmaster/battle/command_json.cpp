#include "referee/warmaster/battle/command_json.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "referee/core/dice.hpp"
#include "battle/command_internal.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/combat/combat.hpp"

namespace referee::warmaster {

namespace {
std::vector<std::string> action_type_names() {
  return {"off_table_return", "home_back", "initiative", "order", "move", "end_orders", "character_move", "end_phase",
          "shoot"};
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

namespace parse_action_parts {

// An initiative action: the unit, charge or evade, its target, the enemies
// ignored and burst through, and the move when the player gives it.
void parse_initiative_action(JsonReader& r, const Battlefield& bf, Action& a) {
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
}

// A shoot action: the target choices, each naming known units.
void parse_shoot_action(JsonReader& r, const Battlefield& bf, Action& a) {
  r.allow_only({"type", "targets"});
  if (auto t = r.find("targets")) {
    // The player's choices where enemies are equally close
    // (docs/rulings.md#warmaster-shooting-ties): [{"shooter", "target"}].
    t->require_array();
    if (t->size() > bf.units.size()) t->fail(fmt::format("at most one choice per unit ({})", bf.units.size()));
    for (JsonReader c : t->items()) {
      c.require_object();
      c.allow_only({"shooter", "target"});
      TargetChoice tc{c.string("shooter"), c.string("target")};
      if (!bf.find_unit(tc.shooter)) c.fail("shooter", fmt::format("no unit \"{}\" in this battle", tc.shooter));
      if (!bf.find_unit(tc.target)) c.fail("target", fmt::format("no unit \"{}\" in this battle", tc.target));
      a.targets.push_back(std::move(tc));
    }
  }
}

}  // namespace parse_action_parts

Action parse_action(const Json& j, const WarmasterState& state, const std::string& path) {
  const Battlefield& bf = state.battlefield();
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
    case ActionType::Initiative:
      parse_action_parts::parse_initiative_action(r, bf, a);
      break;
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
    case ActionType::EndPhase:
      r.allow_only({"type", "decisions"});
      if (auto d = r.find("decisions")) {
        // Decisions are about the fights of a Combat phase
        // (docs/rulings.md#warmaster-combat-decisions); given with another
        // phase's end_phase they are a mistake to point out, not to drop.
        if (state.phase() != Phase::Combat)
          d->fail(fmt::format("decisions are given only with the end_phase of the Combat phase; this is the {} phase",
                              to_string(state.phase())));
        a.decisions = combat_decisions_from_json(d->json(), bf, d->path());
      }
      break;
    case ActionType::EndOrders:
      r.allow_only({"type"});
      break;
    case ActionType::Shoot:
      parse_action_parts::parse_shoot_action(r, bf, a);
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
    case ActionType::EndPhase:
      if (!a.decisions.empty()) j["decisions"] = combat_decisions_to_json(a.decisions);
      break;
    case ActionType::EndOrders: break;
    case ActionType::Shoot:
      if (!a.targets.empty()) {
        Json t = Json::array();
        for (const TargetChoice& c : a.targets) t.push_back({{"shooter", c.shooter}, {"target", c.target}});
        j["targets"] = t;
      }
      break;
  }
  return j;
}

namespace {
Json id_array(const Battlefield& bf, const std::vector<int>& units) {
  Json ids = Json::array();
  for (int ui : units) ids.push_back(bf.units[static_cast<std::size_t>(ui)].id);
  return ids;
}

Json poses_json(const std::vector<Stand>& stands) {
  Json out = Json::array();
  for (const Stand& x : stands) out.push_back(pose_json(x.pose));
  return out;
}
}  // namespace

// Everything later play depends on is written, so that state_from_json
// resumes the game exactly; the move index is not state and is built anew
// (the touching units and initiative targets are the caller's MoveScratch's).
Json state_to_json(const WarmasterState& s) {
  const Battlefield& bf = s.battlefield();
  const BattleStateAccess::Read p = BattleStateAccess::read(s);
  Json j;
  j["turn"] = s.turn();
  j["side"] = s.side();
  j["phase"] = to_string(s.phase());
  j["step"] = to_string(s.step());
  j["orders_begun"] = s.orders_begun();
  j["general_failed"] = s.general_failed();
  j["active_character"] = s.active_character();
  j["battle_over"] = s.battle_over();
  if (s.battle_over()) {
    j["battle_over_reason"] = s.battle_over_reason();
    j["winner"] = s.winner() < 0 ? Json(nullptr) : Json(s.winner());
  }
  j["ordering"] = id_array(bf, *p.family);
  j["last_ordered"] = id_array(bf, *p.last_group);
  if (const auto& pm = s.pending()) {
    Json pj{{"source", pm->source}, {"move", pm->kind ? to_string(*pm->kind) : "none"}};
    pj["units"] = id_array(bf, pm->units);
    if (pm->source == "home back") {
      pj["distance"] = pm->dice_distance;
      pj["toward"] = pm->homing_on;
    }
    j["pending"] = pj;
  } else {
    j["pending"] = nullptr;
  }
  Json units = Json::array();
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const Unit& u = bf.units[i];
    const UnitStatus& st = s.units()[i];
    const Json touching =
        i < p.brigade_touching->size() ? id_array(bf, (*p.brigade_touching)[i]) : Json::array();
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
                     {"brigade_touching", touching},
                     {"stands", poses_json(u.stands)},
                     {"parked", poses_json(st.parked)}});
    // Written only when a blunder left one, so states without stay as they were.
    if (st.blunder_penalty > 0) units.back()["blunder_penalty"] = st.blunder_penalty;
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
                     {"first_order_given", st.first_order_given},
                     {"lost", st.lost},
                     {"returns_next_turn", st.returns_next_turn},
                     {"return_point", {st.return_point.x, st.return_point.y}},
                     {"returned", st.frozen},
                     {"joined_unit", c.joined_unit},
                     {"pose", pose_json(c.pose)}});
    if (st.slain) chars.back()["slain"] = true;
  }
  j["characters"] = chars;
  return j;
}

namespace {
bool required_bool(const JsonReader& r, std::string_view key) {
  const JsonReader f = r.at(key);
  if (!f.json().is_boolean()) f.fail("expected true or false");
  return f.json().get<bool>();
}

// Facings are taken as written (a battle built in code may give -90 for
// 270), within ten turns either way.
Pose read_pose(const JsonReader& r) {
  JsonReader p = r;
  p.require_object();
  p.allow_only({"x", "y", "facing"});
  Pose out;
  out.position = {p.number("x", -1e5, 1e5), p.number("y", -1e5, 1e5)};
  out.facing_deg = p.number("facing", -3600.0, 3600.0);
  return out;
}

std::vector<Stand> read_stands(const JsonReader& r, std::string_view key, std::size_t expected) {
  JsonReader list = r.at(key);
  list.require_array();
  std::vector<Stand> out;
  if (list.size() != 0 && list.size() != expected)
    list.fail(fmt::format("expected {} stands (the unit's stands less those lost) or none, got {}", expected,
                          list.size()));
  for (const JsonReader& e : list.items()) out.push_back(Stand{read_pose(e)});
  return out;
}

int read_unit_ref(const JsonReader& e, const Battlefield& bf) {
  const std::string id = e.as_string();
  for (std::size_t i = 0; i < bf.units.size(); ++i)
    if (bf.units[i].id == id) return static_cast<int>(i);
  e.fail(fmt::format("no unit \"{}\" in this battle", id));
}

std::vector<int> read_unit_refs(const JsonReader& r, std::string_view key, const Battlefield& bf,
                                std::size_t at_most) {
  JsonReader list = r.at(key);
  list.require_array();
  if (list.size() > at_most) list.fail(fmt::format("at most {} units", at_most));
  std::vector<int> out;
  for (const JsonReader& e : list.items()) {
    const int ui = read_unit_ref(e, bf);
    if (std::find(out.begin(), out.end(), ui) != out.end()) e.fail("a unit is listed twice");
    out.push_back(ui);
  }
  return out;
}

std::string read_character_ref(const JsonReader& r, std::string_view key, const Battlefield& bf) {
  const std::string id = r.string(key);
  if (!id.empty() && !bf.find_character(id)) r.fail(key, fmt::format("no character \"{}\" in this battle", id));
  return id;
}

// One unit's status (`u`), its stands and flags written into `mu`, its
// place in the battle's start `su`.
UnitStatus read_unit_status(const JsonReader& u, const Unit& su, const Battlefield& start, Unit& mu) {
  UnitStatus st;
  if (u.string("id") != su.id) u.fail("id", fmt::format("expected unit \"{}\" here (units in the battle's order)", su.id));
  if (u.integer("side", 0, 1) != su.side) u.fail("side", fmt::format("unit {} is on side {}", su.id, su.side));
  st.orders = u.integer("orders", 0, 3);
  st.ordered_by = read_character_ref(u, "ordered_by", start);
  if ((st.orders > 0) != !st.ordered_by.empty())
    u.fail("ordered_by", "names the character who gave the unit's orders, and only when it has had some");
  st.used_initiative = required_bool(u, "used_initiative");
  st.charged = required_bool(u, "charged");
  st.moved = required_bool(u, "moved");
  st.finished = required_bool(u, "finished");
  st.homed_back = required_bool(u, "homed_back");
  st.near_enemy_at_start = required_bool(u, "near_enemy_at_start");
  mu.engaged = required_bool(u, "engaged");
  mu.confused = required_bool(u, "confused");
  const int total = static_cast<int>(su.stands.size()) + su.stands_lost;
  mu.stands_lost = u.integer("stands_lost", 0, total);
  st.off_table = required_bool(u, "off_table");
  st.returns_next_turn = required_bool(u, "returns_next_turn");
  st.destroyed = required_bool(u, "destroyed");
  st.frozen = required_bool(u, "frozen");
  if (u.has("blunder_penalty")) st.blunder_penalty = u.integer("blunder_penalty", 1, 1000);
  if (st.off_table && st.destroyed) u.fail("destroyed", "a unit is either off the table or destroyed, not both");
  const std::size_t expected = static_cast<std::size_t>(total - mu.stands_lost);
  mu.stands = read_stands(u, "stands", expected);
  st.parked = read_stands(u, "parked", expected);
  if (mu.stands.empty() != (st.off_table || st.destroyed))
    u.fail("stands", mu.stands.empty() ? "a unit on the table needs its stands"
                                       : "a unit off the table or destroyed has no stands on it");
  if (st.off_table && st.parked.empty() && expected > 0)
    u.fail("parked", "a unit off the table keeps the stands where it left");
  if (!st.off_table && !st.destroyed && !st.parked.empty())
    u.fail("parked", "only a unit that left the table has stands parked where it left");
  return st;
}

// One character's status (`c`), its pose and the unit it joined written into `mc`.
CharacterStatus read_character_status(const JsonReader& c, const Character& sc, const Battlefield& start, Character& mc) {
  CharacterStatus st;
  if (c.string("id") != sc.id)
    c.fail("id", fmt::format("expected character \"{}\" here (characters in the battle's order)", sc.id));
  if (c.integer("side", 0, 1) != sc.side) c.fail("side", fmt::format("{} is on side {}", sc.id, sc.side));
  if (c.string("role") != to_string(sc.role)) c.fail("role", fmt::format("{} is a {}", sc.id, to_string(sc.role)));
  st.orders_issued = c.integer("orders_issued", 0, 1000);
  st.failed = required_bool(c, "failed");
  st.finished = required_bool(c, "finished");
  st.moved = required_bool(c, "moved");
  st.first_order_given = required_bool(c, "first_order_given");
  st.lost = required_bool(c, "lost");
  st.returns_next_turn = required_bool(c, "returns_next_turn");
  st.return_point = c.at("return_point").vec2(1e5);
  st.frozen = required_bool(c, "returned");
  if (st.returns_next_turn && !st.lost) c.fail("returns_next_turn", "only a lost character rolls to return");
  st.slain = c.boolean_or("slain", false);
  if (st.slain && !st.lost) c.fail("slain", "a slain character is lost");
  if (st.slain && st.returns_next_turn) c.fail("returns_next_turn", "a slain character never returns");
  mc.joined_unit = c.string("joined_unit");
  if (!mc.joined_unit.empty() && !start.find_unit(mc.joined_unit))
    c.fail("joined_unit", fmt::format("no unit \"{}\" in this battle", mc.joined_unit));
  mc.pose = read_pose(c.at("pose"));
  return st;
}

// The move an order or a home back allows and is not yet made, or none (null).
std::optional<PendingMove> read_pending(const JsonReader& pm, const Battlefield& start) {
  if (pm.json().is_null()) return std::nullopt;
  JsonReader q = pm;
  q.require_object();
  PendingMove m;
  m.source = q.one_of("source", {"order", "home back"});
  if (m.source == "order") q.allow_only({"source", "move", "units"});
  else q.allow_only({"source", "move", "units", "distance", "toward"});
  const std::string kind = q.one_of("move", {"ordered", "half_pace", "dice", "none"});
  if (kind != "none") m.kind = move_kind_from_string(kind);
  if ((m.source == "home back") != (kind == "dice"))
    q.fail("move", m.source == "order" ? "an order allows an ordered or half-pace move, or none"
                                       : "a home back allows the distance rolled (\"dice\")");
  m.units = read_unit_refs(q, "units", start, 4);
  if (m.units.empty()) q.fail("units", "a pending move has at least one unit");
  if (m.source == "home back") {
    if (m.units.size() != 1) q.fail("units", "a home back moves one unit");
    m.dice_distance = q.number("distance", 10.0, 60.0);
    m.homing_on = read_character_ref(q, "toward", start);
    if (m.homing_on.empty()) q.fail("toward", "names the character homed on");
  }
  return m;
}
}  // namespace

WarmasterState state_from_json(std::shared_ptr<const BattleGame> game, const Json& j, const std::string& path) {
  const Battlefield& start = game->start;
  JsonReader r(j, path);
  r.require_object();
  r.allow_only({"turn", "side", "phase", "step", "orders_begun", "general_failed", "active_character", "battle_over",
                "battle_over_reason", "winner", "ordering", "last_ordered", "pending", "units", "characters"});
  WarmasterState s(game);
  BattleStateAccess::Write p = BattleStateAccess::write(s);
  Battlefield bf = start;

  *p.turn = r.integer("turn", 1, 1000);
  *p.side = r.integer("side", 0, 1);
  const std::string phase = r.one_of("phase", {"command", "shooting", "combat"});
  *p.phase = phase == "command" ? Phase::Command : phase == "shooting" ? Phase::Shooting : Phase::Combat;
  const std::string step = r.one_of("step", {"initiative", "orders", "characters"});
  *p.step = step == "initiative" ? CommandStep::Initiative : step == "orders" ? CommandStep::Orders
                                                                              : CommandStep::Characters;
  if (*p.phase != Phase::Command && *p.step != CommandStep::Characters)
    r.fail("step", "after the Command phase the step is \"characters\", its last");
  *p.orders_begun = required_bool(r, "orders_begun");
  *p.general_failed = required_bool(r, "general_failed");
  *p.active_character = read_character_ref(r, "active_character", start);
  const bool over = required_bool(r, "battle_over");
  if (over != r.has("battle_over_reason"))
    r.fail("battle_over_reason", over ? "required when the battle is over" : "given, but the battle is not over");
  *p.battle_over_reason = over ? r.string("battle_over_reason") : std::string();
  if (over && p.battle_over_reason->empty()) r.fail("battle_over_reason", "must not be empty");
  if (over != r.has("winner"))
    r.fail("winner", over ? "required when the battle is over (null for a draw)" : "given, but the battle is not over");
  *p.winner = -1;
  if (over && !r.at("winner").json().is_null()) *p.winner = r.integer("winner", 0, 1);

  // The units, in the battle's order, with their stands.
  JsonReader units = r.at("units");
  units.require_array();
  if (units.size() != start.units.size())
    units.fail(fmt::format("expected {} units (the battle's), got {}", start.units.size(), units.size()));
  std::vector<UnitStatus> statuses(start.units.size());
  std::vector<std::vector<int>> touching(start.units.size());
  bool any_touching = false;
  for (std::size_t i = 0; i < start.units.size(); ++i) {
    JsonReader u = units.at(i);
    u.require_object();
    u.allow_only({"id", "side", "orders", "ordered_by", "used_initiative", "charged", "moved", "finished",
                  "homed_back", "near_enemy_at_start", "engaged", "confused", "stands_lost", "off_table",
                  "returns_next_turn", "destroyed", "frozen", "brigade_touching", "stands", "parked",
                  "blunder_penalty"});
    statuses[i] = read_unit_status(u, start.units[i], start, bf.units[i]);
    touching[i] = read_unit_refs(u, "brigade_touching", start, start.units.size());
    for (int n : touching[i])
      if (n == static_cast<int>(i)) u.fail("brigade_touching", "a unit does not touch itself");
    any_touching |= !touching[i].empty();
  }
  // The flags must be what the stands say (docs/rulings.md#warmaster-engaged).
  {
    std::vector<std::optional<bool>> given;
    for (const Unit& u : bf.units) given.push_back(u.engaged);
    if (const auto wrong = check_engaged_flags(bf, given, game->settings.contact_tolerance))
      units.at(wrong->unit).fail("engaged", wrong->reason);
  }
  if (any_touching && !*p.orders_begun)
    units.fail("the units touching when ordered movement began are known only once an order is given");
  *p.units = std::move(statuses);
  if (*p.orders_begun) *p.brigade_touching = std::move(touching);
  else p.brigade_touching->clear();

  JsonReader chars = r.at("characters");
  chars.require_array();
  if (chars.size() != start.characters.size())
    chars.fail(fmt::format("expected {} characters (the battle's), got {}", start.characters.size(), chars.size()));
  std::vector<CharacterStatus> cstat(start.characters.size());
  for (std::size_t i = 0; i < start.characters.size(); ++i) {
    JsonReader c = chars.at(i);
    c.require_object();
    c.allow_only({"id", "side", "role", "orders_issued", "failed", "finished", "moved", "first_order_given", "lost",
                  "returns_next_turn", "return_point", "returned", "joined_unit", "pose", "slain"});
    cstat[i] = read_character_status(c, start.characters[i], start, bf.characters[i]);
  }
  *p.characters = std::move(cstat);

  p.family->clear();
  p.last_group->clear();
  *p.family = read_unit_refs(r, "ordering", start, 4);
  *p.last_group = read_unit_refs(r, "last_ordered", start, 4);

  *p.pending = read_pending(r.at("pending"), start);
  BattleStateAccess::set_battlefield(s, std::make_shared<Battlefield>(std::move(bf)));
  return s;
}

Json legal_actions_json(const WarmasterState& s) {
  Json out = Json::array();
  for (const Action& a : s.legal_actions()) out.push_back(to_json(a));
  return out;
}

PlayReport play_actions(std::shared_ptr<const BattleGame> game, std::uint64_t seed, const Json& actions,
                        const std::string& path) {
  PlayReport rep;
  rep.log.system = "warmaster";
  rep.log.seed = seed;
  rep.log.scenario = game->scenario;
  to_json(rep.log.settings, game->settings);
  WarmasterState state(game);
  SeededDice dice(seed);
  if (!actions.is_array()) throw InputError(path, "expected an array of actions");
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const Action a = parse_action(actions[i], state, fmt::format("{}[{}]", path, i));
    ActionOutcome o = state.apply(a, dice);
    if (!o.verdict.legal()) rep.refused.emplace_back(static_cast<int>(i), o.verdict);
    rep.log.append(to_json(a), o.rolls, o.result);
  }
  rep.final_state = state_to_json(state);
  return rep;
}

WarmasterState replay_log(std::shared_ptr<const BattleGame> game, const GameLog& log, const std::string& source_name) {
  WarmasterState state(game);
  SeededDice dice(log.seed);
  for (const LogEntry& e : log.entries) {
    // One entry per line after the header line.
    const std::string where = fmt::format("{} line {}", source_name, e.seq + 1);
    const Action a = parse_action(e.action, state, where + ": action");
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
