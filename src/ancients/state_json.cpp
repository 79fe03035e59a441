// Actions and states as JSON (turn.hpp): parse_action, action_json,
// state_json and its strict inverse, state_from_json. Every error names the
// field under the caller's path.
#include "referee/ancients/turn.hpp"

#include <fmt/format.h>

#include "referee/core/json_io.hpp"

namespace referee::ancients {

Action parse_action(const nlohmann::json& j, const Battle& b, const std::string& path) {
  JsonReader r(j, path);
  r.require_object();
  Action a;
  // Static: building the list of names for every action cost more than the rest of parsing a move.
  static const std::vector<std::string> kTypes{"play_card", "order", "move",    "end_movement", "battle",
                                               "evade",     "stand", "retreat", "advance",      "hold",
                                               "end_battle"};
  std::string type = r.one_of("type", kTypes);
  auto find_unit = [&](const JsonReader& f) {
    std::string id = f.as_string();
    int u = b.find_unit(id);
    if (u < 0) f.fail("unknown unit \"" + id + "\"");
    return u;
  };
  auto find_leader = [&](const JsonReader& f) {
    std::string id = f.as_string();
    int l = b.find_leader(id);
    if (l < 0) f.fail("unknown leader \"" + id + "\"");
    return l;
  };
  if (type == "play_card") {
    r.allow_only({"type", "card"});
    a.type = Action::Type::play_card;
    std::string id = r.string("card");
    a.card = b.find_card(id);
    if (a.card < 0) r.fail("card", "unknown command card \"" + id + "\"");
  } else if (type == "order") {
    r.allow_only({"type", "units", "leaders"});
    a.type = Action::Type::order;
    if (auto us = r.find("units")) {
      us->json().is_array() ? void() : us->fail("expected an array of unit ids");
      for (const JsonReader& u : us->items()) a.items.push_back({false, find_unit(u)});
    }
    if (auto ls = r.find("leaders")) {
      ls->json().is_array() ? void() : ls->fail("expected an array of leader ids");
      for (const JsonReader& l : ls->items()) a.items.push_back({true, find_leader(l)});
    }
    if (a.items.empty()) r.fail("an order needs \"units\" or \"leaders\"");
  } else if (type == "move") {
    r.allow_only({"type", "unit", "leader", "to"});
    a.type = Action::Type::move;
    const bool unit = r.has("unit");
    if (unit == r.has("leader")) r.fail("a move names exactly one of \"unit\" or \"leader\"");
    // A move is parsed with every action applied: a well-formed unit and hex
    // are read straight from the JSON, and readers with their paths are made
    // only to report what is wrong.
    const Json& piece = r.json().at(unit ? "unit" : "leader");
    const int known = !piece.is_string() ? -1
                      : unit             ? b.find_unit(piece.get_ref<const std::string&>())
                                         : b.find_leader(piece.get_ref<const std::string&>());
    if (known >= 0) a.piece = OrderItem{!unit, known};
    else a.piece = unit ? OrderItem{false, find_unit(r.at("unit"))} : OrderItem{true, find_leader(r.at("leader"))};
    const auto to_json = r.json().find("to");
    if (to_json == r.json().end()) r.at("to");  // missing: the error
    const Json& hex = *to_json;
    auto coordinate = [&](std::size_t k) {
      const Json& v = hex[k];
      if (v.is_number_integer() && v.get<long long>() >= -1000 && v.get<long long>() <= 1000)
        return static_cast<int>(v.get<long long>());
      return r.at("to").at(k).as_integer(-1000, 1000);  // the error, with its path
    };
    if (!hex.is_array() || hex.size() != 2) r.at("to").fail("expected a hex as [column, row]");
    a.to = {coordinate(0), coordinate(1)};
  } else if (type == "battle") {
    r.allow_only({"type", "unit", "target"});
    a.type = Action::Type::battle;
    a.piece = {false, find_unit(r.at("unit"))};
    // A unit, or a lone enemy leader (ids are unique among units and leaders).
    const JsonReader t = r.at("target");
    const std::string id = t.as_string();
    a.target = b.find_unit(id);
    if (a.target < 0) {
      a.target = b.find_leader(id);
      a.target_leader = true;
      if (a.target < 0) t.fail("unknown unit or leader \"" + id + "\"");
    }
  } else if (type == "evade" || type == "retreat") {
    r.allow_only({"type", "to"});
    a.type = type == "evade" ? Action::Type::evade : Action::Type::retreat;
    JsonReader to = r.at("to");
    if (!to.json().is_array() || to.size() != 2) to.fail("expected a hex as [column, row]");
    a.to = {to.at(std::size_t{0}).as_integer(-1000, 1000), to.at(std::size_t{1}).as_integer(-1000, 1000)};
  } else {
    r.allow_only({"type"});
    a.type = type == "stand"        ? Action::Type::stand
             : type == "advance"    ? Action::Type::advance
             : type == "hold"       ? Action::Type::hold
             : type == "end_battle" ? Action::Type::end_battle
                                    : Action::Type::end_movement;
  }
  return a;
}

nlohmann::json action_json(const Battle& b, const Action& a) {
  switch (a.type) {
    case Action::Type::play_card: return {{"type", "play_card"}, {"card", b.cards[static_cast<std::size_t>(a.card)].id}};
    case Action::Type::order: {
      nlohmann::json units = nlohmann::json::array(), leaders = nlohmann::json::array();
      for (const OrderItem& it : a.items) (it.leader ? leaders : units).push_back(it.leader ? leader_id(b, it.index) : unit_id(b, it.index));
      nlohmann::json j{{"type", "order"}};
      if (!units.empty()) j["units"] = units;
      if (!leaders.empty()) j["leaders"] = leaders;
      return j;
    }
    case Action::Type::move: {
      nlohmann::json j{{"type", "move"}, {"to", {a.to.col, a.to.row}}};
      j[a.piece.leader ? "leader" : "unit"] = a.piece.leader ? leader_id(b, a.piece.index) : unit_id(b, a.piece.index);
      return j;
    }
    case Action::Type::end_movement: return {{"type", "end_movement"}};
    case Action::Type::battle:
      return {{"type", "battle"},
              {"unit", unit_id(b, a.piece.index)},
              {"target", a.target_leader ? leader_id(b, a.target) : unit_id(b, a.target)}};
    case Action::Type::evade: return {{"type", "evade"}, {"to", {a.to.col, a.to.row}}};
    case Action::Type::retreat: return {{"type", "retreat"}, {"to", {a.to.col, a.to.row}}};
    case Action::Type::stand: return {{"type", "stand"}};
    case Action::Type::advance: return {{"type", "advance"}};
    case Action::Type::hold: return {{"type", "hold"}};
    case Action::Type::end_battle: return {{"type", "end_battle"}};
  }
  return {};
}

std::string phase_name(Phase p) {
  return p == Phase::play_card ? "play_card" : p == Phase::movement ? "movement" : "battle";
}

namespace {
nlohmann::json ids_of_units(const Battle& b, const std::vector<int>& units) {
  nlohmann::json j = nlohmann::json::array();
  for (int u : units) j.push_back(unit_id(b, u));
  return j;
}
nlohmann::json ids_of_leaders(const Battle& b, const std::vector<int>& leaders) {
  nlohmann::json j = nlohmann::json::array();
  for (int l : leaders) j.push_back(leader_id(b, l));
  return j;
}
// Side 0's and side 1's lists of card ids: the state holds indices
// (AncientsState::hands), its JSON the ids.
nlohmann::json card_lists_json(const Battle& b, const std::array<std::vector<CardIndex>, 2>& lists) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& list : lists) {
    nlohmann::json ids = nlohmann::json::array();
    for (const CardIndex c : list) ids.push_back(card_id(b, c));
    j.push_back(std::move(ids));
  }
  return j;
}
}  // namespace

nlohmann::json state_json(const Battle& b, const AncientsState& s) {
  nlohmann::json units = nlohmann::json::array(), leaders = nlohmann::json::array();
  for (std::size_t i = 0; i < b.units.size(); ++i) {
    const UnitState& u = s.position.units[i];
    units.push_back({{"id", b.units[i].id}, {"class", b.unit_class(static_cast<int>(i)).id}, {"side", b.units[i].side},
                     {"at", u.hex < 0 ? nlohmann::json(nullptr) : hex_json(b.board, u.hex)}, {"blocks", u.blocks},
                     {"ordered", u.ordered}, {"moved", u.moved}, {"hexes_moved", u.hexes_moved}, {"may_battle", u.may_battle},
                     {"close_combat_compulsory", u.close_combat_compulsory}, {"moves_no_further", u.frozen},
                     {"battled", u.battled}, {"bonus_close_combat", u.bonus}});
  }
  for (std::size_t i = 0; i < b.leaders.size(); ++i) {
    const LeaderState& l = s.position.leaders[i];
    nlohmann::json j{{"id", b.leaders[i].id}, {"side", b.leaders[i].side},
                     {"at", l.hex < 0 ? nlohmann::json(nullptr) : hex_json(b.board, l.hex)},
                     {"ordered", l.ordered}, {"moved", l.moved}};
    if (l.attached >= 0) j["attached_to"] = unit_id(b, l.attached);
    leaders.push_back(j);
  }
  nlohmann::json orders = nlohmann::json::array();
  for (const OrderItem& it : s.orders)
    orders.push_back(it.leader ? nlohmann::json{{"leader", leader_id(b, it.index)}}
                               : nlohmann::json{{"unit", unit_id(b, it.index)}});
  // The plan is kept as it was when the card was played: pieces have moved
  // since, so it cannot be worked out again from the position.
  nlohmann::json plan = nullptr;
  if (s.phase != Phase::play_card)
    plan = {{"command", s.plan.command},
            {"total", s.plan.total},
            {"quota", s.plan.quota},
            {"fallback", s.plan.fallback},
            {"units", ids_of_units(b, s.plan.units)},
            {"leaders", ids_of_leaders(b, s.plan.leaders)},
            {"light_pass_through", s.plan.move.light_pass_through},
            {"rule", s.plan.rule},
            {"reason", s.plan.reason}};
  nlohmann::json pending = nullptr;
  if (s.pending.kind != Pending::Kind::none) {
    const Pending& pd = s.pending;
    pending = {{"decision", pd.kind == Pending::Kind::evade     ? "evade"
                            : pd.kind == Pending::Kind::retreat ? "retreat"
                                                                : "momentum"},
               {"attacker", unit_id(b, pd.attacker)}, {"defender", unit_id(b, pd.defender)}, {"unit", unit_id(b, pd.unit)},
               {"flags", pd.flags}, {"may_ignore", pd.may_ignore}, {"lost", pd.lost}, {"battle_back", pd.battle_back}, {"bonus", pd.bonus},
               {"close", pd.close}, {"vacated", pd.vacated < 0 ? nlohmann::json(nullptr) : hex_json(b.board, pd.vacated)}};
  }
  nlohmann::json j{{"turn", s.turn}, {"side", s.side}, {"phase", phase_name(s.phase)},
                   {"pending", pending}, {"banners", s.banners},
                   {"card", s.card >= 0 ? nlohmann::json(b.cards[static_cast<std::size_t>(s.card)].id) : nlohmann::json(nullptr)},
                   {"plan", plan}, {"orders", orders}, {"moving", s.moving},
                   {"hands", card_lists_json(b, s.hands)}, {"decks", card_lists_json(b, s.decks)},
                   {"discards", card_lists_json(b, s.discards)}, {"units", units}, {"leaders", leaders}};
  return j;
}

namespace {
bool read_bool(const JsonReader& r, std::string_view key) {
  const JsonReader f = r.at(key);
  if (!f.json().is_boolean()) f.fail("expected true or false");
  return f.json().get<bool>();
}

int unit_ref(const Battle& b, const JsonReader& f) {
  const std::string id = f.as_string();
  const int u = b.find_unit(id);
  if (u < 0) f.fail("unknown unit \"" + id + "\"");
  return u;
}

int leader_ref(const Battle& b, const JsonReader& f) {
  const std::string id = f.as_string();
  const int l = b.find_leader(id);
  if (l < 0) f.fail("unknown leader \"" + id + "\"");
  return l;
}

std::vector<CardIndex> read_card_list(const Battle& b, const JsonReader& list) {
  JsonReader l = list;
  l.require_array();
  std::vector<CardIndex> out;
  for (const JsonReader& c : l.items()) {
    const std::string id = c.as_string();
    const int card = b.find_card(id);
    if (card < 0) c.fail("unknown command card \"" + id + "\"");
    out.push_back(static_cast<CardIndex>(card));
  }
  return out;
}

std::array<std::vector<CardIndex>, 2> read_card_lists(const Battle& b, const JsonReader& r, std::string_view key) {
  JsonReader lists = r.at(key);
  lists.require_array();
  if (lists.size() != 2) lists.fail("expected two lists of card ids, side 0's then side 1's");
  return {read_card_list(b, lists.at(std::size_t{0})), read_card_list(b, lists.at(std::size_t{1}))};
}
// A combat waiting on a choice: only in the battle phase, naming units on the board.
Pending read_pending(const Battle& b, const AncientsState& s, const JsonReader& pend) {
  Pending pd;
  if (pend.json().is_null()) return pd;
  const Position& p = s.position;
  if (s.phase != Phase::battle) pend.fail("a combat waits on a choice only in the battle phase");
  JsonReader q = pend;
  q.require_object();
  q.allow_only({"decision", "attacker", "defender", "unit", "flags", "may_ignore", "lost", "battle_back", "bonus", "close",
                "vacated"});
  const std::string d = q.one_of("decision", {"evade", "retreat", "momentum"});
  pd.kind = d == "evade" ? Pending::Kind::evade : d == "retreat" ? Pending::Kind::retreat : Pending::Kind::momentum;
  pd.attacker = unit_ref(b, q.at("attacker"));
  pd.defender = unit_ref(b, q.at("defender"));
  pd.unit = unit_ref(b, q.at("unit"));
  if (p.units[static_cast<std::size_t>(pd.unit)].hex < 0)
    q.fail("unit", fmt::format("unit {} has been eliminated", unit_id(b, pd.unit)));
  if (b.units[static_cast<std::size_t>(pd.attacker)].side != s.side) q.fail("attacker", "the attacker is of the side playing");
  if (b.units[static_cast<std::size_t>(pd.defender)].side == s.side) q.fail("defender", "the defender is of the other side");
  pd.flags = q.integer("flags", 0, 100);
  pd.may_ignore = q.integer("may_ignore", 0, 2);
  pd.lost = q.integer("lost", 0, 100);
  pd.battle_back = read_bool(q, "battle_back");
  pd.bonus = read_bool(q, "bonus");
  pd.close = read_bool(q, "close");
  const JsonReader vac = q.at("vacated");
  if (!vac.json().is_null()) {
    pd.vacated = parse_hex(vac.json(), b.board, vac.path());
    if (p.unit_on(pd.vacated) >= 0) vac.fail("the vacated hex holds a unit");
  }
  if (pd.kind == Pending::Kind::momentum && (pd.vacated < 0 || pd.unit != pd.attacker))
    q.fail("a momentum choice names the attacker and the vacated hex");
  if (pd.kind == Pending::Kind::evade && pd.unit != pd.defender) q.fail("unit", "the defender chooses whether to evade");
  if (pd.kind == Pending::Kind::retreat && pd.flags == 0) q.fail("flags", "a retreat answers at least one flag");
  if (pd.kind != Pending::Kind::retreat && (pd.flags != 0 || pd.may_ignore != 0))
    q.fail("flags", "only a retreat answers flags");
  return pd;
}
// One unit's state, at index i of "units": the unit the battle has there.
UnitState unit_state_from_json(const Battle& b, const Position& p, const JsonReader& u, std::size_t i) {
  u.allow_only({"id", "class", "side", "at", "blocks", "ordered", "moved", "hexes_moved", "may_battle",
                "close_combat_compulsory", "moves_no_further", "battled", "bonus_close_combat"});
  const UnitSpec& spec = b.units[i];
  const int ui = static_cast<int>(i);
  if (u.string("id") != spec.id) u.fail("id", fmt::format("expected unit \"{}\" here (units in the battle's order)", spec.id));
  if (u.string("class") != b.unit_class(ui).id) u.fail("class", fmt::format("unit {} is {}", spec.id, b.unit_class(ui).id));
  if (u.integer("side", 0, 1) != spec.side) u.fail("side", fmt::format("unit {} is on side {}", spec.id, spec.side));
  UnitState st;
  // An eliminated unit is at null with 0 blocks.
  const bool gone = u.at("at").json().is_null();
  st.hex = gone ? kNoHex : parse_hex(u.at("at").json(), b.board, u.path_of("at"));
  if (const int other = p.unit_on(st.hex); other >= 0)
    u.fail("at", fmt::format("two units on one hex: {} and {}", unit_id(b, other), spec.id));
  st.blocks = gone ? u.integer("blocks", 0, 0) : u.integer("blocks", 1, b.unit_class(ui).blocks);
  st.battled = read_bool(u, "battled");
  st.bonus = read_bool(u, "bonus_close_combat");
  st.ordered = read_bool(u, "ordered");
  st.moved = read_bool(u, "moved");
  st.hexes_moved = u.integer("hexes_moved", 0, 100);
  st.may_battle = read_bool(u, "may_battle");
  st.close_combat_compulsory = read_bool(u, "close_combat_compulsory");
  st.frozen = read_bool(u, "moves_no_further");
  return st;
}

// Every unit of the battle, in its order, onto the position; returns the "units" reader for later errors.
JsonReader read_unit_states(const Battle& b, const JsonReader& r, Position& p) {
  JsonReader units = r.at("units");
  units.require_array();
  if (units.size() != b.units.size())
    units.fail(fmt::format("expected {} units (the battle's), got {}", b.units.size(), units.size()));
  for (std::size_t i = 0; i < b.units.size(); ++i) {
    JsonReader u = units.at(i);
    u.require_object();
    const UnitState st = unit_state_from_json(b, p, u, i);
    p.units.push_back(st);
    if (st.hex >= 0) p.unit_at[static_cast<std::size_t>(st.hex)] = static_cast<std::int16_t>(i);
  }
  return units;
}

// One leader's state, at index i of "leaders": the leader the battle has there.
LeaderState leader_state_from_json(const Battle& b, const Position& p, const JsonReader& l, std::size_t i) {
  l.allow_only({"id", "side", "at", "ordered", "moved", "attached_to"});
  const LeaderSpec& spec = b.leaders[i];
  if (l.string("id") != spec.id)
    l.fail("id", fmt::format("expected leader \"{}\" here (leaders in the battle's order)", spec.id));
  if (l.integer("side", 0, 1) != spec.side) l.fail("side", fmt::format("leader {} is on side {}", spec.id, spec.side));
  LeaderState st;
  const bool gone = l.at("at").json().is_null();  // killed, or gone off the board
  st.hex = gone ? kNoHex : parse_hex(l.at("at").json(), b.board, l.path_of("at"));
  if (const int other = p.leader_on(st.hex); other >= 0)
    l.fail("at", fmt::format("two leaders on one hex: {} and {}", leader_id(b, other), spec.id));
  const int host = p.unit_on(st.hex);
  if (host >= 0 && b.units[static_cast<std::size_t>(host)].side != spec.side)
    l.fail("at", fmt::format("leader {} on a hex held by enemy unit {}", spec.id, unit_id(b, host)));
  st.ordered = read_bool(l, "ordered");
  st.moved = read_bool(l, "moved");
  if (auto a = l.find("attached_to")) {
    st.attached = unit_ref(b, *a);
    if (st.attached != host) a->fail(fmt::format("unit {} is not on leader {}'s hex", unit_id(b, st.attached), spec.id));
  }
  if (gone && (st.ordered || l.has("attached_to"))) l.fail("at", "a leader off the board is neither ordered nor attached");
  return st;
}

// Every leader of the battle, in its order, onto the position; returns the "leaders" reader for later errors.
JsonReader read_leader_states(const Battle& b, const JsonReader& r, Position& p) {
  JsonReader leaders = r.at("leaders");
  leaders.require_array();
  if (leaders.size() != b.leaders.size())
    leaders.fail(fmt::format("expected {} leaders (the battle's), got {}", b.leaders.size(), leaders.size()));
  for (std::size_t i = 0; i < b.leaders.size(); ++i) {
    JsonReader l = leaders.at(i);
    l.require_object();
    const LeaderState st = leader_state_from_json(b, p, l, i);
    p.leaders.push_back(st);
    if (st.hex >= 0) p.leader_at[static_cast<std::size_t>(st.hex)] = static_cast<std::int16_t>(i);
  }
  return leaders;
}

// The plan of the card in play, into s.plan (s.card and s.side already read).
void read_order_plan(const Battle& b, const JsonReader& plan, AncientsState& s) {
  JsonReader q = plan;
  q.require_object();
  q.allow_only({"command", "total", "quota", "fallback", "units", "leaders", "light_pass_through", "rule", "reason"});
  OrderPlan& o = s.plan;
  o.card = s.card;
  o.side = s.side;
  o.command = q.integer("command", 1, 1000);
  o.total = q.integer("total", 0, 1000);
  JsonReader quota = q.at("quota");
  quota.require_array();
  if (quota.size() != kSections) quota.fail(fmt::format("expected {} numbers, one per section", kSections));
  for (std::size_t k = 0; k < kSections; ++k) o.quota[k] = quota.at(k).as_integer(0, 1000);
  o.fallback = read_bool(q, "fallback");
  for (const JsonReader& u : q.items("units")) {
    const int ui = unit_ref(b, u);
    if (b.units[static_cast<std::size_t>(ui)].side != s.side) u.fail("a card orders only its player's units");
    o.units.push_back(ui);
  }
  for (const JsonReader& l : q.items("leaders")) {
    const int li = leader_ref(b, l);
    if (b.leaders[static_cast<std::size_t>(li)].side != s.side) l.fail("a card orders only its player's leaders");
    o.leaders.push_back(li);
  }
  o.move.light_pass_through = read_bool(q, "light_pass_through");
  o.rule = q.string("rule");
  o.reason = q.string("reason");
}

// The card in play, its plan, the orders given and whether a piece is moving.
void read_card_in_play(const Battle& b, const JsonReader& r, AncientsState& s) {
  const JsonReader card = r.at("card");
  const JsonReader plan = r.at("plan");
  JsonReader orders = r.at("orders");
  orders.require_array();
  s.moving = read_bool(r, "moving");
  if (s.phase == Phase::play_card) {
    // Between turns nothing is played, ordered or moving.
    if (!card.json().is_null()) card.fail("no card is in play before one is played: expected null");
    if (!plan.json().is_null()) plan.fail("no card is in play before one is played: expected null");
    if (orders.size() != 0) orders.fail("no orders are given before a card is played");
    if (s.moving) r.fail("moving", "nothing moves before a card is played");
    return;
  }
  const std::string id = card.as_string();
  s.card = b.find_card(id);
  if (s.card < 0) card.fail("unknown command card \"" + id + "\"");
  read_order_plan(b, plan, s);
  for (const JsonReader& e : orders.items()) {
    JsonReader it = e;
    it.require_object();
    it.allow_only({"unit", "leader"});
    if (it.has("unit") == it.has("leader")) it.fail("an order names one \"unit\" or one \"leader\"");
    const OrderItem item = it.has("unit") ? OrderItem{false, unit_ref(b, it.at("unit"))}
                                          : OrderItem{true, leader_ref(b, it.at("leader"))};
    if (std::find(s.orders.begin(), s.orders.end(), item) != s.orders.end()) it.fail("ordered twice");
    s.orders.push_back(item);
  }
}
}  // namespace

AncientsState state_from_json(const Battle& b, const nlohmann::json& j, const std::string& path) {
  JsonReader r(j, path);
  r.require_object();
  r.allow_only({"turn", "side", "phase", "pending", "banners", "card", "plan", "orders", "moving", "hands", "decks", "discards",
                "units", "leaders"});
  AncientsState s;
  s.turn = r.integer("turn", 1, 100000);
  s.side = r.integer("side", 0, 1);
  const std::string phase = r.one_of("phase", {"play_card", "movement", "battle"});
  s.phase = phase == "play_card" ? Phase::play_card : phase == "movement" ? Phase::movement : Phase::battle;
  {
    JsonReader bn = r.at("banners");
    bn.require_array();
    if (bn.size() != 2) bn.fail("expected two numbers, side 0's banners then side 1's");
    s.banners = {bn.at(std::size_t{0}).as_integer(0, 1000), bn.at(std::size_t{1}).as_integer(0, 1000)};
  }
  s.hands = read_card_lists(b, r, "hands");
  s.decks = read_card_lists(b, r, "decks");
  if (r.has("discards")) s.discards = read_card_lists(b, r, "discards");  // optional: older states have none

  const std::size_t cells = static_cast<std::size_t>(b.board.cell_count());
  Position& p = s.position;
  p.unit_at.assign(cells, -1);
  p.leader_at.assign(cells, -1);
  const JsonReader units = read_unit_states(b, r, p);
  const JsonReader leaders = read_leader_states(b, r, p);
  read_card_in_play(b, r, s);
  s.pending = read_pending(b, s, r.at("pending"));
  // The ordered flags and the list of orders say the same thing.
  for (std::size_t i = 0; i < b.units.size(); ++i)
    if (p.units[i].ordered != has_order(s, {false, static_cast<int>(i)}))
      units.at(i).fail("ordered", "differs from the list of orders");
  for (std::size_t i = 0; i < b.leaders.size(); ++i)
    if (p.leaders[i].ordered != has_order(s, {true, static_cast<int>(i)}))
      leaders.at(i).fail("ordered", "differs from the list of orders");
  return s;
}


}  // namespace referee::ancients
