// Reading a battle file. Every problem is an InputError naming the field, and
// the checks the issue lists (off-board hexes, two units on a hex, unknown
// classes and cards, leaders attached to nothing) each have their own message.
#include <cctype>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "referee/ancients/model.hpp"
#include "referee/core/files.hpp"
#include "referee/core/json_io.hpp"
#include "standard_data.hpp"

namespace referee::ancients {

namespace {

ClassMask read_mask(const JsonReader& r, std::string_view key) {
  ClassMask m = 0;
  auto f = r.find(key);
  if (!f) return 0;
  f->require_array();
  for (const JsonReader& item : f->items()) {
    std::string s = item.as_string();
    try {
      m |= class_mask(s);
    } catch (const std::invalid_argument&) {
      item.fail("unknown unit class or selector \"" + s +
                "\" (use all, foot, mounted, war_machine, light, medium, heavy, light_foot, ..., or a class id)");
    }
  }
  return m;
}

TerrainType read_terrain_type(const JsonReader& r) {
  r.allow_only({"id", "name", "stop", "cannot_enter", "no_battle", "no_battle_except", "leave_limit",
                "blocks_leaders", "close_combat_dice_max", "uphill_only", "blocks_sight", "battle_note", "fill"});
  TerrainType t;
  t.id = r.id("id");
  t.name = r.string_or("name", t.id);
  t.stop_on_entering = read_mask(r, "stop");
  t.cannot_enter = read_mask(r, "cannot_enter");
  t.no_battle_on_entering = read_mask(r, "no_battle") & ~read_mask(r, "no_battle_except");
  if (auto l = r.find("leave_limit")) {
    l->allow_only({"hexes", "who"});
    t.leave_limit = l->integer("hexes", 0, 10);
    t.leave_limited = l->has("who") ? read_mask(*l, "who") : class_mask("all");
  }
  t.blocks_leaders = r.boolean_or("blocks_leaders", false);
  t.close_combat_dice_max = r.integer_or("close_combat_dice_max", 0, 0, 20);
  t.close_combat_uphill_only = r.boolean_or("uphill_only", false);
  if (t.close_combat_uphill_only && t.close_combat_dice_max == 0)
    r.fail("uphill_only", "applies to close_combat_dice_max, which is not set");
  t.blocks_sight = r.boolean_or("blocks_sight", false);
  t.battle_note = r.string_or("battle_note", "");
  t.fill = r.string_or("fill", "#dddddd");
  for (char c : t.fill)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '#')) r.fail("fill", "must be a colour such as #7fb069");
  return t;
}

CardDef read_card(const JsonReader& r) {
  r.allow_only({"id", "name", "kind", "sections", "troops", "count", "linked", "lone_leaders", "detach",
                "light_pass_through", "fallback_one_unit", "not_applied"});
  CardDef c;
  c.id = r.id("id");
  c.name = r.string_or("name", c.id);
  std::string kind = r.one_of("kind", {"section", "troop", "leadership", "spartacus"});
  c.kind = kind == "section" ? CardKind::section
           : kind == "troop" ? CardKind::troop
           : kind == "leadership" ? CardKind::leadership
                                  : CardKind::spartacus;
  if (auto s = r.find("sections")) {
    s->allow_only({"left", "center", "right"});
    for (int i = 0; i < kSections; ++i) c.quota[static_cast<std::size_t>(i)] = s->integer_or(section_name(i), 0, 0, 20);
  }
  if (c.kind == CardKind::section && c.quota[0] + c.quota[1] + c.quota[2] == 0)
    r.fail("sections", "a section card must order at least one unit in some section");
  c.troops = read_mask(r, "troops");
  if (c.kind == CardKind::troop && c.troops == 0) r.fail("troops", "a troop card must name the troops it orders");
  if (auto n = r.find("count")) {
    if (n->json().is_string()) {
      if (n->as_string() != "command") n->fail("expected a number or \"command\"");
      c.count_is_command = true;
    } else {
      c.count = n->as_integer(1, 20);
    }
  } else if (c.kind == CardKind::troop || c.kind == CardKind::spartacus) {
    r.fail("count", "required for troop and spartacus cards (a number or \"command\")");
  }
  c.linked = r.integer_or("linked", 0, 0, 20);
  c.lone_leaders = r.boolean_or("lone_leaders", false);
  c.detach = r.boolean_or("detach", false);
  c.light_pass_through = r.boolean_or("light_pass_through", false);
  c.fallback_one_unit = r.boolean_or("fallback_one_unit", false);
  c.not_applied = r.string_or("not_applied", "");
  return c;
}

template <typename T, typename F>
void add_definitions(std::vector<T>& into, JsonReader list, F read) {
  list.require_array();
  for (const JsonReader& item : list.items()) {
    T t = read(item);
    bool replaced = false;
    for (auto& existing : into) {
      if (existing.id == t.id) {
        existing = t;  // a scenario may redefine a bundled item
        replaced = true;
      }
    }
    if (!replaced) into.push_back(t);
  }
}

std::vector<TerrainType> parse_standard_terrain() {
  Json j = parse_json_text(kStandardTerrainJson, "standard terrain");
  std::vector<TerrainType> out;
  add_definitions(out, JsonReader(j, "standard terrain"), read_terrain_type);
  return out;
}

std::vector<CardDef> parse_standard_cards() {
  Json j = parse_json_text(kStandardCardsJson, "standard cards");
  std::vector<CardDef> out;
  add_definitions(out, JsonReader(j, "standard cards"), read_card);
  return out;
}

}  // namespace

const std::vector<TerrainType>& standard_terrain() {
  static const std::vector<TerrainType> t = parse_standard_terrain();
  return t;
}

const std::vector<CardDef>& standard_cards() {
  static const std::vector<CardDef> c = parse_standard_cards();
  return c;
}

int Battle::find_unit(const std::string& id) const {
  for (std::size_t i = 0; i < units.size(); ++i)
    if (units[i].id == id) return static_cast<int>(i);
  return -1;
}
int Battle::find_leader(const std::string& id) const {
  for (std::size_t i = 0; i < leaders.size(); ++i)
    if (leaders[i].id == id) return static_cast<int>(i);
  return -1;
}
int Battle::find_card(const std::string& id) const {
  for (std::size_t i = 0; i < cards.size(); ++i)
    if (cards[i].id == id) return static_cast<int>(i);
  return -1;
}

nlohmann::json hex_json(const BoardGeometry& board, int hex) {
  ColRow c = board.col_row(hex);
  return nlohmann::json::array({c.col, c.row});
}

int parse_hex(const nlohmann::json& j, const BoardGeometry& board, const std::string& field) {
  JsonReader r(j, field);
  if (!j.is_array() || j.size() != 2) r.fail("expected a hex as [column, row]");
  int col = r.at(std::size_t{0}).as_integer(-1000, 1000);
  int row = r.at(std::size_t{1}).as_integer(-1000, 1000);
  if (!board.on_board({col, row}))
    r.fail(fmt::format("hex {},{} is off the board ({} columns, {} rows; odd rows hold {})", col, row,
                       board.columns(), board.rows(), board.columns() - 1));
  return board.index({col, row});
}

int parse_hex_text(const std::string& text, const BoardGeometry& board, const std::string& field) {
  auto comma = text.find(',');
  if (comma == std::string::npos) throw InputError(field, "expected COL,ROW, got \"" + text + "\"");
  int col = 0, row = 0;
  try {
    std::size_t used = 0;
    col = std::stoi(text.substr(0, comma), &used);
    if (used != comma) throw std::invalid_argument("col");
    std::string rest = text.substr(comma + 1);
    row = std::stoi(rest, &used);
    if (used != rest.size()) throw std::invalid_argument("row");
  } catch (const std::exception&) {
    throw InputError(field, "expected COL,ROW, got \"" + text + "\"");
  }
  return parse_hex(nlohmann::json::array({col, row}), board, field);
}

// How the game is played out, beside the pieces and the cards: who starts,
// when it ends, what an empty deck does and how the start deals.
static void read_play_settings(const JsonReader& root, Battle& battle) {
  battle.first_side = root.integer_or("first_side", 0, 0, 1);
  battle.turn_limit = root.integer_or("turn_limit", kDefaultTurnLimit, 1, 1000);
  // docs/rulings.md#ancients-reshuffle
  battle.exhausted_deck = root.one_of_or("exhausted_deck", {"reshuffle", "no_reshuffle"}, "reshuffle") == "reshuffle"
                              ? ExhaustedDeck::reshuffle
                              : ExhaustedDeck::no_reshuffle;
  // docs/rulings.md#ancients-deal
  battle.deal = root.one_of_or("deal", {"as_listed", "shuffled"}, "as_listed") == "shuffled" ? Deal::shuffled
                                                                                              : Deal::as_listed;
  // One number for both sides, or [side 0's, side 1's].
  if (auto v = root.find("victory_banners")) {
    if (v->json().is_array()) {
      if (v->size() != 2) v->fail("expected one number, or two: [side 0's, side 1's]");
      battle.victory_banners = {v->at(std::size_t{0}).as_integer(1, 100), v->at(std::size_t{1}).as_integer(1, 100)};
    } else {
      const int n = v->as_integer(1, 100);
      battle.victory_banners = {n, n};
    }
  }
}

namespace {
// The board's size and section lines, before the board itself is built.
struct BoardShape {
  int columns = 13, rows = 9;
  std::array<int, 2> lines{4, 8};
};

BoardShape read_board_shape(const JsonReader& root) {
  BoardShape shape;
  int& columns = shape.columns;
  std::array<int, 2>& lines = shape.lines;
  if (auto b = root.find("board")) {
    b->allow_only({"columns", "rows", "section_lines"});
    columns = b->integer_or("columns", 13, 2, kMaxColumns);
    shape.rows = b->integer_or("rows", 9, 1, kMaxRows);
    if (auto l = b->find("section_lines")) {
      l->require_array();
      if (l->size() != 2) l->fail("expected two columns, such as [4, 8]");
      lines[0] = l->at(std::size_t{0}).as_integer(0, columns - 1);
      lines[1] = l->at(std::size_t{1}).as_integer(0, columns - 1);
      if (lines[0] >= lines[1]) l->fail("the left line must come before the right line");
    } else if (columns != 13) {
      lines = {columns / 3, columns - 1 - columns / 3};
      if (lines[0] >= lines[1]) b->fail("section_lines", "required for a board this narrow");
    }
  }
  return shape;
}

// The terrain on the board's hexes, of the battle's terrain types.
void read_terrain_placement(const JsonReader& root, Battle& battle) {
  const BoardGeometry& board = battle.board;
  battle.terrain.assign(static_cast<std::size_t>(board.cell_count()), -1);
  if (auto terrain = root.find("terrain")) {
    terrain->require_array();
    for (const JsonReader& t : terrain->items()) {
      t.allow_only({"type", "hexes"});
      std::string type = t.string("type");
      int ti = -1;
      for (std::size_t k = 0; k < battle.terrain_types.size(); ++k)
        if (battle.terrain_types[k].id == type) ti = static_cast<int>(k);
      if (ti < 0) t.fail("type", "unknown terrain type \"" + type + "\"");
      for (const JsonReader& h : t.items("hexes")) {
        int hex = parse_hex(h.json(), board, h.path());
        auto& slot = battle.terrain[static_cast<std::size_t>(hex)];
        if (slot >= 0)
          h.fail(fmt::format("hex {} already has terrain {}", format_hex(board.col_row(hex)),
                             battle.terrain_types[static_cast<std::size_t>(slot)].id));
        slot = static_cast<std::int16_t>(ti);
      }
    }
  }
}

// The units, one a hex; returns which unit is on each hex (-1: none).
std::vector<int> read_unit_specs(const JsonReader& root, Battle& battle, std::set<std::string>& ids) {
  const BoardGeometry& board = battle.board;
  std::vector<int> unit_at(static_cast<std::size_t>(board.cell_count()), -1);
  for (const JsonReader& u : root.items("units")) {
    u.allow_only({"id", "class", "side", "at", "blocks", "label"});
    UnitSpec s;
    s.id = u.id("id");
    if (!ids.insert(s.id).second) u.fail("id", "duplicate id \"" + s.id + "\"");
    std::string cls = u.string("class");
    s.cls = find_unit_class(cls);
    if (s.cls < 0) u.fail("class", "unknown unit class \"" + cls + "\"");
    s.side = u.integer("side", 0, 1);
    s.hex = parse_hex(u.at("at").json(), board, u.path_of("at"));
    int full = unit_classes()[static_cast<std::size_t>(s.cls)].blocks;
    s.blocks = u.integer_or("blocks", full, 1, full);
    s.label = u.string_or("label", "");
    int& here = unit_at[static_cast<std::size_t>(s.hex)];
    if (here >= 0)
      u.fail("at", fmt::format("two units on one hex: {} and {} are both on {}",
                               battle.units[static_cast<std::size_t>(here)].id, s.id, format_hex(board.col_row(s.hex))));
    here = static_cast<int>(battle.units.size());
    battle.units.push_back(s);
  }
  return unit_at;
}

// The leaders, one a hex, each on a hex of its own side's or no unit.
void read_leader_specs(const JsonReader& root, Battle& battle, std::set<std::string>& ids,
                       const std::vector<int>& unit_at) {
  const BoardGeometry& board = battle.board;
  std::vector<int> leader_at(static_cast<std::size_t>(board.cell_count()), -1);
  if (auto leaders = root.find("leaders")) {
    leaders->require_array();
    for (const JsonReader& l : leaders->items()) {
      l.allow_only({"id", "name", "side", "at", "attached_to"});
      LeaderSpec s;
      s.id = l.id("id");
      if (!ids.insert(s.id).second) l.fail("id", "duplicate id \"" + s.id + "\"");
      s.name = l.string_or("name", s.id);
      s.side = l.integer("side", 0, 1);
      if (!l.has("at") && !l.has("attached_to")) l.fail("a leader needs \"at\" or \"attached_to\"");
      if (l.has("attached_to")) {
        std::string to = l.string("attached_to");
        int ui = battle.find_unit(to);
        if (ui < 0) l.fail("attached_to", "leader attached to nothing: no unit \"" + to + "\"");
        const UnitSpec& unit = battle.units[static_cast<std::size_t>(ui)];
        if (unit.side != s.side) l.fail("attached_to", "unit \"" + to + "\" belongs to the other side");
        s.hex = unit.hex;
        if (l.has("at") && parse_hex(l.at("at").json(), board, l.path_of("at")) != s.hex)
          l.fail("at", "differs from the hex of unit \"" + to + "\"");
      } else {
        s.hex = parse_hex(l.at("at").json(), board, l.path_of("at"));
      }
      int u = unit_at[static_cast<std::size_t>(s.hex)];
      if (u >= 0 && battle.units[static_cast<std::size_t>(u)].side != s.side)
        l.fail("at", "leader on a hex held by enemy unit \"" + battle.units[static_cast<std::size_t>(u)].id + "\"");
      int& here = leader_at[static_cast<std::size_t>(s.hex)];
      if (here >= 0)
        l.fail("at", fmt::format("two leaders on one hex: {} and {} are both on {}",
                                 battle.leaders[static_cast<std::size_t>(here)].id, s.id,
                                 format_hex(board.col_row(s.hex))));
      here = static_cast<int>(battle.leaders.size());
      battle.leaders.push_back(s);
    }
  }
}

// A player's optional list of card ids under `key`, appended to `out`.
void read_player_cards(const Battle& battle, const JsonReader& pr, std::string_view key, std::vector<CardIndex>& out) {
  auto list = pr.find(key);
  if (!list) return;
  list->require_array();
  for (const JsonReader& c : list->items()) {
    std::string id = c.as_string();
    const int card = battle.find_card(id);
    if (card < 0) c.fail("unknown command card \"" + id + "\"");
    out.push_back(static_cast<CardIndex>(card));
  }
}

// The two players: names, hands and decks.
void read_players(const JsonReader& root, Battle& battle) {
  auto players = root.items("players");
  if (players.size() != 2) root.fail("players", "expected two players (side 0 at the bottom, side 1 at the top)");
  for (std::size_t p = 0; p < 2; ++p) {
    const JsonReader& pr = players[p];
    pr.allow_only({"name", "hand", "deck"});
    PlayerSpec& spec = battle.players[p];
    spec.name = pr.string_or("name", p == 0 ? "side 0" : "side 1");
    if (!pr.has("hand")) pr.fail("hand", "required: the player's command cards");
    read_player_cards(battle, pr, "hand", spec.hand);
    read_player_cards(battle, pr, "deck", spec.deck);
  }
}
}  // namespace

Battle parse_battle(const nlohmann::json& j, const std::string& source_name) {
  (void)source_name;
  JsonReader root(j, "");
  root.allow_only({"name", "board", "terrain_types", "cards", "terrain", "units", "leaders", "players", "first_side",
                  "turn_limit", "victory_banners", "exhausted_deck", "deal"});
  const BoardShape shape = read_board_shape(root);
  Battle battle{root.string_or("name", "battle"), BoardGeometry(shape.columns, shape.rows, shape.lines),
                standard_terrain(), {}, standard_cards(), {}, {}, {}, 0, kDefaultTurnLimit,
                {kDefaultVictoryBanners, kDefaultVictoryBanners}};
  if (auto t = root.find("terrain_types")) add_definitions(battle.terrain_types, *t, read_terrain_type);
  if (auto c = root.find("cards")) add_definitions(battle.cards, *c, read_card);
  read_terrain_placement(root, battle);

  std::set<std::string> ids;
  const std::vector<int> unit_at = read_unit_specs(root, battle, ids);
  read_leader_specs(root, battle, ids, unit_at);
  read_players(root, battle);
  read_play_settings(root, battle);
  return battle;
}

Battle load_battle(const std::string& path, std::uint64_t max_bytes) {
  const nlohmann::json j = load_json_file(path, max_bytes);
  return naming_source(path, [&] { return parse_battle(j, path); });
}

}  // namespace referee::ancients
