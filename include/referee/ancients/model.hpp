// The immutable description of an Ancients battle: unit classes, terrain
// types, command cards, the board and the starting positions. Everything a
// rule depends on is data here, so a scenario can add terrain and cards.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/ancients/hex.hpp"
#include "referee/core/files.hpp"

namespace referee::ancients {

enum class Category { foot, mounted };
enum class Weight { light, medium, heavy };
// What moving does to a unit's right to battle this turn (ancients.movement.battle).
enum class BattleAfterMove {
  always,           // may battle after any legal move
  only_after_one,   // auxilia: battle after 1 hex, not after 2
  never_if_moved,   // war machines: no battle once moved
};

struct UnitClass {
  std::string id;        // "heavy_infantry"
  std::string name;      // "heavy infantry"
  Category category = Category::foot;
  Weight weight = Weight::medium;  // the class it is ordered and hit as
  bool war_machine = false;
  int max_move = 1;      // hexes
  BattleAfterMove battle = BattleAfterMove::always;
  bool warrior_charge = false;  // 2 hexes only when ending adjacent to an enemy; then close combat is compulsory
  int blocks = 4;        // full strength
  std::string badge;     // short label for pictures: "HI"
};

// The built-in classes, in a fixed order (the order is the class index).
const std::vector<UnitClass>& unit_classes();
int find_unit_class(const std::string& id);  // -1 when unknown
std::string weight_name(Weight w);
std::string category_name(Category c);

// A set of unit classes, written in files as selectors: "all", "foot",
// "mounted", "war_machine", "light", "medium", "heavy", "light_foot",
// "heavy_mounted", ..., or a class id. Stored as a bit per class.
using ClassMask = std::uint32_t;
// Throws std::invalid_argument with the unknown selector.
ClassMask class_mask(const std::string& selector);
inline bool in_mask(ClassMask m, int class_index) { return (m >> class_index) & 1u; }

// Terrain effects are data (docs/rulings.md#ancients-terrain). Battle-dice limits are kept as text:
// they belong to battle, which this module does not resolve.
struct TerrainType {
  std::string id;
  std::string name;
  ClassMask stop_on_entering = 0;  // must stop when entering
  ClassMask cannot_enter = 0;
  ClassMask no_battle_on_entering = 0;
  ClassMask leave_limited = 0;     // classes limited when leaving
  int leave_limit = 0;             // hexes allowed when leaving (0 = no limit)
  bool blocks_leaders = false;     // lone leaders cannot enter (impassable terrain)
  // Close combat into, out of (or, when `close_combat_uphill_only`, only into
  // from off it) this terrain rolls at most this many dice (0: no limit).
  int close_combat_dice_max = 0;
  bool close_combat_uphill_only = false;
  bool blocks_sight = false;       // blocks a ranged line of sight passing through it
  std::string battle_note;         // "at most 2 close-combat dice"
  std::string fill = "#dddddd";
};

const std::vector<TerrainType>& standard_terrain();

enum class CardKind { section, troop, leadership, spartacus };

// A command card, as data. `count_is_command` cards order as many as the
// player's command (the cards held, counting the one being played).
struct CardDef {
  std::string id;     // "order-three-center"
  std::string name;   // "Order Three Units Center"
  CardKind kind = CardKind::section;
  std::array<int, kSections> quota{0, 0, 0};  // section cards: orders per seat section
  ClassMask troops = 0;            // troop cards: which units it may order
  int count = 0;                   // fixed number of orders (troop, spartacus)
  bool count_is_command = false;
  int linked = 0;                  // leadership: units in linked hexes besides the leader's own unit
  bool lone_leaders = false;       // lone leaders may be ordered (one order each)
  bool detach = false;             // the helmet: attached leaders may be ordered to detach
  bool light_pass_through = false; // light foot may move through friendly units when moving 2 hexes
  bool fallback_one_unit = false;  // none of its kind: order one unit of the player's choice
  std::string not_applied;         // effects outside movement that are listed, not applied
};

const std::vector<CardDef>& standard_cards();

struct UnitSpec {
  std::string id;
  int cls = 0;       // index into unit_classes()
  int side = 0;
  int hex = 0;       // board index
  int blocks = 0;
  std::string label;
};

struct LeaderSpec {
  std::string id;
  std::string name;
  int side = 0;
  int hex = 0;
};

// A command card where a hand, deck or discard pile holds it: its index into
// Battle::cards (whose ids are unique: a scenario's card of a bundled id
// replaces the bundled one). Game states hold lists of these rather than of
// ids because simulations copy states all the time, and ids such as
// "order-three-center" are longer than std::string's small buffer, so a list
// of ids allocates once per card on every copy; indices copy as one block.
// Ids appear only at the JSON boundary and in messages (card_id in turn.hpp).
// 32 bits, as Action::card: any catalogue a battle file can hold fits.
using CardIndex = std::int32_t;

struct PlayerSpec {
  std::string name;
  std::vector<CardIndex> hand;
  std::vector<CardIndex> deck;  // drawn from the front after each turn
};

// Turns (both players') before the game ends, when the scenario sets none.
inline constexpr int kDefaultTurnLimit = 40;
// Victory banners to win, when the scenario sets none.
inline constexpr int kDefaultVictoryBanners = 5;

// What a draw does when the deck is empty (docs/rulings.md#ancients-reshuffle):
// the published rule shuffles the side's discards into a new deck; the
// scenario may keep the old reading instead, where nothing is drawn and the
// hand shrinks until the player to play holds no card.
enum class ExhaustedDeck : std::uint8_t { reshuffle, no_reshuffle };

// How the start deals each side's command cards (docs/rulings.md#ancients-deal):
// as the battle lists them (a known deal, for tests and set puzzles), or
// shuffled with the dice, the hand and deck listed taken as the side's
// cards, so that no one, the battle's author included, knows a hand or a
// deck's order before play.
enum class Deal : std::uint8_t { as_listed, shuffled };

// The scenario. Immutable: a game state refers to it and never changes it.
struct Battle {
  std::string name;
  BoardGeometry board;
  std::vector<TerrainType> terrain_types;
  std::vector<std::int16_t> terrain;  // per board index: -1 clear, else index into terrain_types
  std::vector<CardDef> cards;
  std::vector<UnitSpec> units;
  std::vector<LeaderSpec> leaders;
  std::array<PlayerSpec, 2> players;
  int first_side = 0;
  // The game ends once this many turns (each player's turn counts one, as
  // AncientsState::turn does) have been played (docs/rulings.md#ancients-game-end).
  int turn_limit = kDefaultTurnLimit;
  // Victory banners each side needs to win (docs/rulings.md#ancients-victory-banners).
  std::array<int, 2> victory_banners{kDefaultVictoryBanners, kDefaultVictoryBanners};
  // Scenario field `exhausted_deck`: "reshuffle" (default) or "no_reshuffle".
  ExhaustedDeck exhausted_deck = ExhaustedDeck::reshuffle;
  // Scenario field `deal`: "as_listed" (default) or "shuffled".
  Deal deal = Deal::as_listed;

  const TerrainType* terrain_at(int hex) const {
    int t = terrain[static_cast<std::size_t>(hex)];
    return t < 0 ? nullptr : &terrain_types[static_cast<std::size_t>(t)];
  }
  int find_unit(const std::string& id) const;    // -1 when unknown
  int find_leader(const std::string& id) const;  // -1 when unknown
  int find_card(const std::string& id) const;    // -1 when unknown
  const UnitClass& unit_class(int unit) const { return unit_classes()[static_cast<std::size_t>(units[static_cast<std::size_t>(unit)].cls)]; }
  // A side as a player reads it in the engine's words (a result's reason, a
  // refusal): its army's name ("Carthage"), "side 1" when the battle names
  // none. Fields a program reads (winner, side) keep the number.
  const std::string& army(int side) const { return players[static_cast<std::size_t>(side & 1)].name; }
};

// Parses a battle file. Every error is an InputError naming the field.
Battle parse_battle(const nlohmann::json& j, const std::string& source_name);
// Reads one, of at most `max_bytes` (core/files.hpp).
Battle load_battle(const std::string& path, std::uint64_t max_bytes = kDefaultMaxInputBytes);
// Parses "col,row" or [col,row] into a board index; off-board is an InputError.
int parse_hex(const nlohmann::json& j, const BoardGeometry& board, const std::string& field);
int parse_hex_text(const std::string& text, const BoardGeometry& board, const std::string& field);

nlohmann::json hex_json(const BoardGeometry& board, int hex);  // [col, row]

}  // namespace referee::ancients
