// Giving an order (command text, "Giving an order" and "Command penalties";
// docs/rulings.md#warmaster-command-distance-penalty): the number a character needs on 2D6 for one order, the
// penalties one by one, and the exact chance of success. Pure functions of
// plain inputs; the battlefield version measures the inputs first.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "referee/core/chance.hpp"
#include "referee/core/ruling.hpp"
#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/model/settings.hpp"

namespace referee::warmaster {

class MoveIndex;  // movement.hpp

// Everything an order test depends on. For a brigade, each field is already
// the brigade's: the most distant unit, the most orders, any unit near the
// enemy or in dense terrain, the most stands lost.
struct OrderFactors {
  int command = 8;                 // the character's Command value
  double distance = 0;             // cm, character to the (most distant) unit
  int previous_orders = 0;         // orders the unit has already had this phase
  bool enemy_near = false;         // an enemy unit 20 cm or less away
  bool dense = false;              // a stand even partly inside dense terrain
  int stands_lost = 0;             // casualties (a brigade: the unit that lost most)
  bool first_turn_bonus = false;   // optional rule: +1 on the first order of the first turn
  int blunder_penalty = 0;         // blunders rolled 1 (docs/rulings.md#warmaster-command-blunders): -1 each
};

struct CommandPenalty {
  std::string rule;   // warmaster.command.distance, ...
  std::string name;   // "distance", "further order", ...
  int value = 0;      // negative: -1, -2, ...
  std::string reason;
};

struct OrderTarget {
  int command = 8;                     // printed Command value
  int effective_command = 8;           // after the first-turn bonus, never above 10
  std::vector<CommandPenalty> penalties;  // only the ones that apply
  int total_penalty = 0;               // sum of penalties (<= 0)
  int needed = 0;                      // roll this or less on 2D6
  Chance chance;                       // exact P(2D6 <= needed) over 36
};

// Distances are compared to one hundredth of a millimetre (0.001 cm).
long long to_hundredths_of_mm(double cm);
// docs/rulings.md#warmaster-command-distance-penalty: up to and including 20 cm none; over 20 up to and including 40
// cm -1; -1 more per further 20 cm. Returns a value <= 0.
int distance_penalty(double cm);
// "Enemy within 20 cm" applies at 20 cm or less (docs/rulings.md#warmaster-command-distance-penalty).
bool within_20cm(double cm);

// The number needed and nothing else: the hot path (BM_WarmasterOrderTarget).
int order_needed(const OrderFactors& f);
// The number needed with each penalty explained.
OrderTarget order_target(const OrderFactors& f);

// --- Measuring the factors on a battlefield ----------------------------------
// Shortest distance from the unit to the closest enemy unit (cm); a large
// number when there is none. Stops early once one is found within `stop_at`.
double closest_enemy_distance(const Battlefield& bf, const Unit& u, double stop_at = 0);
// Is an enemy unit 20 cm or less away (docs/rulings.md#warmaster-command-distance-penalty)? The fast form used for
// the order test.
bool enemy_within(const Battlefield& bf, const Unit& u, double cm = 20.0);
// The same, reading only the enemies near `u` through the battlefield's
// move index (the same answer, at a cost that does not grow with the battle).
bool enemy_within(const Battlefield& bf, const MoveIndex& index, const Unit& u, double cm = 20.0);
// The same for every unit of `side` at once (1 when an enemy is that close;
// 0 for a unit with no stands and for the other side's units): the start of
// the Command phase asks it of a whole side.
std::vector<char> enemies_within(const Battlefield& bf, int side, double cm = 20.0);
// Is any stand even partly inside a dense terrain feature?
bool in_dense_terrain(const Battlefield& bf, const Unit& u);
// The factors for one character ordering one unit or a brigade.
// `previous_orders` and the bonus come from the game state.
OrderFactors order_factors(const Battlefield& bf, const Character& c, std::span<const Unit* const> units,
                           int previous_orders, bool first_turn_bonus);
// The same, finding enemies near each unit through `index` (of `bf`).
OrderFactors order_factors(const Battlefield& bf, const MoveIndex& index, const Character& c,
                           std::span<const Unit* const> units, int previous_orders, bool first_turn_bonus);

// --- Odds --------------------------------------------------------------------
// A planned sequence of orders, each with its own target. Outcome k (0-based)
// is "orders 1..k succeed and order k+1 fails"; the last outcome is "all succeed".
struct SequenceOutcome {
  int succeeded = 0;                   // orders that succeed before the first failure
  bool all_succeed = false;
  Chance chance;                       // over 36^n where n = orders rolled
  std::string description;
};
std::vector<SequenceOutcome> sequence_odds(std::span<const int> needed);

// Success against distance for each Command value: one row per 20 cm band
// (the chance is constant within a band).
struct DistanceRow {
  double from_cm = 0;                  // exclusive, except the first band (0)
  double to_cm = 0;                    // inclusive
  int penalty = 0;
  std::vector<int> needed;             // one per Command value asked
  std::vector<Chance> chance;
};
std::vector<DistanceRow> distance_table(std::span<const int> commands, double max_cm, const OrderFactors& other);
// An SVG plot of the same: chance of success (0..1) against distance (cm).
std::string distance_plot_svg(std::span<const int> commands, double max_cm, const OrderFactors& other);

}  // namespace referee::warmaster
