// The Combat phase (play sheet, "3. COMBAT"; docs/warmaster-combat.md, and
// the readings cited below), as pure functions over a Battlefield.
//
// - Engagements (warmaster.combat.engagement): units whose stands touch an
//   enemy stand (within the contact tolerance), grouped by contact into
//   connected groups: A touching B touching C is one engagement. Each is
//   fought on its own, in battlefield order (docs/rulings.md#warmaster-combat-engagements).
// - Attacks (warmaster.combat.attacks): every stand touching an enemy stand
//   fights the enemy stand on its front edge if there is one, else one on
//   its side or rear. Its dice are its unit's Attacks plus the play sheet's
//   modifiers, never below 0 (docs/rulings.md#warmaster-combat-modifiers):
//   +1 charging an enemy in the open, +1 more for a monster or chariot doing
//   so (first round only, units listed in CombatOptions::charged); +1 in a
//   pursuit round and +1 more per full 3 cm the enemy retreated; -1 fighting
//   a terrifying enemy; -1 fighting to the side or rear; -1 confused.
// - Hits (warmaster.combat.hits): 4+ on a target in the open, 5+ defended, 6
//   fortified (position_of, position.hpp); each hit saved by a D6 equal to or
//   above the target's Armour. A stand is removed per full Hits value of
//   unsaved hits over the engagement (warmaster.combat.casualties).
// - Result (warmaster.combat.result): each side's unsaved hits plus 1 per
//   supporting stand (warmaster.combat.support; docs/rulings.md#warmaster-combat-support).
// - Draw (warmaster.combat.draw): every unit rolls 3D6 and falls back between
//   the lowest die and the total (by the lowest unless its player chooses);
//   a defended or fortified unit may stand instead, and does by default.
// - Loss (warmaster.combat.retreat): the losers retreat the difference in
//   results, split among them and rounded up, directly away from the enemy,
//   through the movement engine (MoveKind::Dice). Artillery that must retreat
//   are destroyed (warmaster.combat.artillery); a retreat over the table edge
//   destroys the unit (warmaster.movement.off_table); a retreat cut short by
//   terrain or stands costs stands (warmaster.combat.blocked_retreat, setting
//   blocked_retreat_cm_per_stand).
// - Win (warmaster.combat.pursuit, .pursuit_refused, .stand, .fall_back,
//   .advance): the winner pursues when allowed and its player does not
//   choose otherwise, else stands. A pursuer follows the loser's retreat
//   exactly and fights another round (warmaster.combat.round).
// - Joined characters move with their units; a character whose unit is
//   destroyed stays where it is, on its own, unless the unit left the table
//   (docs/rulings.md#warmaster-combat-characters).
//
// Every die goes through the caller's Dice, each roll labelled, in a fixed
// order (docs/warmaster-combat.md, "Dice order"), so a scripted sequence
// replays a phase exactly. Distances are found to 0.01 cm where a move is cut
// short.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "referee/core/dice.hpp"
#include "referee/core/ruling.hpp"
#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/model/settings.hpp"
#include "referee/warmaster/movement/position.hpp"

namespace referee::warmaster {

// What a unit's player does after a combat round (docs/rulings.md#warmaster-combat-decisions).
enum class CombatChoice {
  Default,   // a winner pursues when allowed, else stands; a draw falls back (defended/fortified: stands)
  Pursue,    // a winner: pursue (refused, with a ruling, when the rules forbid it, or after a draw: the default)
  Stand,     // a winner, or a defended or fortified unit after a draw (in the open: refused, with a ruling: it falls back)
  FallBack,  // a winner, or any unit after a draw: 3D6, at least the lowest die
  Advance,   // a winner whose enemy was destroyed: straight ahead up to its full pace (after a draw: refused)
};
const char* to_string(CombatChoice c);
std::optional<CombatChoice> combat_choice_from_string(const std::string& s);

struct CombatDecision {
  std::string unit;
  CombatChoice choice = CombatChoice::Default;
  // Fall back: the distance wanted, kept between the lowest die and the
  // 3D6 total. Advance: at most the unit's full pace (the default). Ignored
  // with any other choice, and with a refused one: a draw's fall back is then
  // the lowest die (docs/rulings.md#warmaster-combat-decisions).
  std::optional<double> distance;
};

struct CombatOptions {
  std::vector<std::string> charged;        // units that charged this turn (Command phase)
  std::vector<CombatDecision> decisions;   // one per unit at most; others take the default
  int max_rounds = 20;                     // per engagement: a guard, far above any real pursuit
};
// Reads {"charged": [...], "decisions": [{"unit", "choice", "distance"}], "max_rounds"};
// checks units exist in `bf`. InputError naming the field path.
CombatOptions combat_options_from_json(const nlohmann::json& j, const Battlefield& bf, const char* path = "options");
// Reads the "decisions" array alone, `j` at `path`: each unit of `bf` at most
// once, a known choice ("default" when none is given), a distance from 0 to
// 1000 cm. Shared by the options file and the Combat phase's end_phase action,
// so both refuse the same things with the same words.
std::vector<CombatDecision> combat_decisions_from_json(const nlohmann::json& j, const Battlefield& bf,
                                                       const std::string& path);
nlohmann::json combat_decisions_to_json(const std::vector<CombatDecision>& decisions);
void to_json(nlohmann::json& j, const CombatOptions& o);

// A connected group of units in contact with enemies, in battlefield order.
struct Engagement {
  std::vector<std::string> units;
};
std::vector<Engagement> find_engagements(const Battlefield& bf, const Settings& settings = {});

struct AttackModifier {
  std::string name;   // "charging an enemy in the open", ...
  int value = 0;      // per stand
  int stands = 0;     // stands it applies to
  // A joined character's Attacks bonus, added to one stand: its id
  // (docs/rulings.md#warmaster-combat-characters); empty for the rest.
  std::string character;
};

// One attacking unit's stands against one target unit, in one round.
struct CombatAttack {
  std::string attacker, target;
  int stands = 0;                  // stands of the attacker fighting this target
  int dice = 0;                    // after modifiers
  std::vector<AttackModifier> modifiers;
  Position position = Position::Open;
  int needed = 4;
  std::vector<int> to_hit;
  int hits = 0;
  int armour = 0;
  std::vector<int> saves;
  int unsaved = 0;
};

struct CombatSideResult {
  int side = 0;
  std::vector<std::string> units;
  int hits = 0;       // unsaved hits this side inflicted
  int support = 0;    // supporting stands
  int result = 0;     // hits + support
  std::vector<std::string> supporting;  // "unit#stand" of each supporting stand
};

struct CombatCasualties {
  std::string unit;
  int unsaved = 0;          // this round
  int stands_removed = 0;   // this round
  bool destroyed = false;
};

enum class CombatMoveKind { Retreat, FallBack, Pursuit, Advance, Stand, Destroyed };
const char* to_string(CombatMoveKind k);

struct CombatMove {
  std::string unit;
  CombatMoveKind kind = CombatMoveKind::Stand;
  std::string from;                // the enemy it moves away from / pursues
  std::vector<int> rolls;          // fall back: the 3D6
  double distance = 0;             // cm asked for
  double moved = 0;                // cm moved
  bool blocked = false;            // cut short
  int stands_lost = 0;             // blocked retreat
  bool destroyed = false;
  bool left_table = false;
  std::optional<OffTableResult> off_table;
  std::vector<std::string> characters;  // joined characters moved (or lost) with it
};

struct CombatRound {
  int engagement = 0;   // index into CombatReport::engagements
  int round = 1;        // 1, then pursuit rounds 2, 3, ...
  std::vector<std::string> units;
  std::vector<CombatAttack> attacks;
  std::array<CombatSideResult, 2> sides;
  std::optional<int> winner;   // nullopt: a draw
  int difference = 0;
  std::vector<CombatCasualties> casualties;
  std::vector<CombatMove> moves;
};

struct CombatReport {
  Battlefield after;
  // Characters slain with the unit they had joined, destroyed on the table
  // (docs/rulings.md#warmaster-combat-characters); those that left the table
  // with their unit are in its CombatMove.
  std::vector<std::string> slain;
  std::vector<Engagement> engagements;
  std::vector<CombatRound> rounds;
  std::vector<Ruling> rulings;  // every step, in order, with its rule id and figures
};

// One Combat phase; `side` is the side whose turn it is (its units roll
// first). Throws InputError for a side other than 0 or 1, or options naming
// units not on the battlefield.
CombatReport resolve_combat(const Battlefield& bf, int side, Dice& dice, const CombatOptions& options = {},
                            const Settings& settings = {});

// Exact odds of one combat exchange between two sides: each side's dice
// (Attacks x stands, after modifiers), its own position and Armour (which
// the other side rolls against) and its supporting stands.
struct CombatOddsSide {
  int dice = 0;
  Position position = Position::Open;  // this side's: the score the enemy needs
  int armour = 0;                      // this side's save; 0: none
  int support = 0;
};
struct CombatOddsRequest {
  CombatOddsSide a, b;
};
struct CombatOddsRow {
  int hits = 0;           // unsaved hits this side inflicts
  double chance = 0;
  std::string fraction;   // exact, over 36^dice outcomes, when that fits in 64 bits
};
struct CombatOddsDifference {
  int difference = 0;     // a's result - b's result
  double chance = 0;
  std::string fraction;   // over 36^(dice a + dice b), when that fits
};
struct CombatOdds {
  CombatOddsRequest request;
  std::array<int, 2> needed{};                       // a's score to hit b, b's to hit a
  std::array<double, 2> p_unsaved{};                 // per die
  std::array<std::vector<CombatOddsRow>, 2> rows;    // hits inflicted by a, by b
  std::vector<CombatOddsDifference> differences;     // ascending
  double a_wins = 0, draw = 0, b_wins = 0;
  std::string a_wins_fraction, draw_fraction, b_wins_fraction;  // when exact
  double mean_difference = 0;
};
// Throws InputError naming the bad field.
CombatOdds combat_odds(const CombatOddsRequest& r);

void to_json(nlohmann::json& j, const AttackModifier& m);
void to_json(nlohmann::json& j, const CombatReport& r);
void to_json(nlohmann::json& j, const CombatOdds& o);
std::string explain(const CombatReport& r);
std::string explain(const CombatOdds& o);

}  // namespace referee::warmaster
