// Helpers shared by the command-phase source files (not a public header).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "referee/core/ruling.hpp"
#include "referee/warmaster/battle/battle_state.hpp"
#include "referee/warmaster/command/initiative.hpp"
#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/movement/contact.hpp"
#include "referee/warmaster/movement/movement.hpp"

namespace referee::warmaster {

// Fits the requested move kind to what the pending order allows (a failed
// first order moves at half pace and cannot charge; a home back moves the
// distance rolled). False, with a violation, when it cannot.
bool normalise_move_kind(const PendingMove& p, MoveRequest& req, Verdict& v);
// A charge must end in contact with the enemy (with `target` when given); a
// move that is not a charge must not end in contact with an enemy. `moved` is
// the unit as the move leaves it (unit_after); the enemies are those of `bf`,
// which no move of this side changes.
void check_charge_contact(const Battlefield& bf, const Unit& moved, const MoveRequest& req, const std::string& target,
                          const Settings& settings, Verdict& v);
// Home back moves toward the character: the unit must not end further from it.
void check_home_back_direction(const Battlefield& before, const Battlefield& after, int unit,
                               const std::string& character, Verdict& v);

// Reading (docs/rulings.md#warmaster-command-off-the-table): a unit that
// comes back onto the table "at the same point it left" is pushed straight
// back across the edge it crossed from `parked` (where its stands were when
// it left), at the nearest clear spot. Shared by the three phases.
std::vector<Stand> back_on_table(const Battlefield& bf, const Unit& u, const std::vector<Stand>& parked,
                                 double tolerance);

// What applying an action did (WarmasterState's apply functions), written
// into the log's JSON only when the result is described.
struct UnitLeftTable {  // a unit that left the table, and its roll on the chart
  int unit = -1;
  OffTableResult roll;
};
// One unit's move forced by the blunder table, made by the engine with the
// order (docs/rulings.md#warmaster-command-blunders): a retreat (2-3), a
// charge or a straight move towards the nearest enemy (6).
struct BlunderMove {
  std::string unit;
  const char* how = "";   // "retreat", "charge", "towards"
  std::string enemy;      // retreated from, charged, or moved towards
  double pace = 0;        // cm: the full pace the move is measured by
  double moved = 0;       // cm the unit's stands went (a charge: the furthest any stand's centre went)
  double before = 0;      // cm, unit to that enemy before the move
  double after = 0;       // cm, after it (a unit that left the table: where it went over the edge)
  bool blocked = false;   // cut short of `pace`
  std::string why;        // blocked: what stopped it
  MoveRequest move;       // the stands' final poses
};
struct OrderRolled {  // an order's test
  OrderFactors factors;
  int needed = 0;
  int dice[2] = {0, 0};
  bool passed = false;
  const char* allows = "";  // the move the order allows
  int blunder = 0;          // the blunder table's D6 (docs/rulings.md#warmaster-command-blunders); 0: none
  std::string blunder_text;                // the blunder's outcome with its figures
  std::vector<BlunderMove> blunder_moves;  // 2-3 and 6: the moves the engine made
  std::vector<UnitLeftTable> blunder_left; // units those moves took off the table
};
struct CharacterOffTable {  // a character's roll on the off-table chart, if it made one
  std::optional<OffTableResult> roll;
  std::optional<Vec2> returned_at;  // back on the table there; absent: lost
};

// The Shooting and Combat phases' results as the log gives them
// (shooting_phase.cpp, combat_phase.cpp).
void describe_shooting_phase(const ShootingResult& r, nlohmann::json& res);
void describe_combat_phase(const CombatReport& r, nlohmann::json& res);

// What a WarmasterState worked out about one battlefield, kept in the caller's
// MoveScratch for the battlefield whose MoveIndex has the serial `index`
// (WarmasterState::facts empties it for another).
struct BattlefieldFacts {
  std::uint64_t index = 0;
  std::optional<std::vector<std::vector<int>>> touching;
  std::vector<std::optional<std::vector<InitiativeCandidate>>> targets;  // per unit, evade then charge
};

// The private members of a WarmasterState that its JSON form reads and writes
// (command_json.cpp): the state written must resume play exactly.
struct BattleStateAccess {
  struct Read {
    const std::vector<int>* family;
    const std::vector<int>* last_group;
    const std::vector<std::vector<int>>* brigade_touching;
  };
  static Read read(const WarmasterState& s) { return {&s.command_.family, &s.command_.last_group, &s.command_.brigade_touching}; }

  struct Write {
    int* turn;
    int* side;
    Phase* phase;
    CommandStep* step;
    int* winner;
    std::vector<UnitStatus>* units;
    std::vector<CharacterStatus>* characters;
    bool* orders_begun;
    bool* general_failed;
    std::string* active_character;
    std::vector<int>* family;
    std::vector<int>* last_group;
    std::vector<std::vector<int>>* brigade_touching;
    std::optional<PendingMove>* pending;
    std::string* battle_over_reason;
  };
  static Write write(WarmasterState& s) {
    return {&s.turn_,           &s.side_,           &s.phase_,  &s.command_.step, &s.winner_, &s.units_, &s.chars_,
            &s.command_.orders_begun,   &s.command_.general_failed, &s.command_.active_character, &s.command_.family, &s.command_.last_group,
            &s.command_.brigade_touching, &s.command_.pending,       &s.battle_over_reason_};
  }
  // Replaces the battlefield, and builds its move index.
  static void set_battlefield(WarmasterState& s, std::shared_ptr<Battlefield> bf) {
    s.replace_battlefield(std::move(bf));
    s.build_move_index();
  }
};

}  // namespace referee::warmaster
