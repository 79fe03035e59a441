// A Warmaster battle as a game (OpenSpiel style): an immutable game
// description (BattleGame), a cheap-to-clone state (WarmasterState) that holds
// the battlefield positions and the per-turn flags, validation that never
// changes the state, and application that rolls through the given Dice.
//
// Each side's turn follows the play sheet's sequence, "1. Command 2. Shoot
// 3. Combat" (docs/rulings.md#warmaster-turn-sequence):
//   Command phase (command text; movement text)
//     initiative step  off-table returns (rolled first), home back, initiative moves
//     orders step      order -> (test rolled) -> move; order -> move; ...
//     characters step  each character moves once, then end_phase ends the phase
//                      (the side's confused units recover here)
//   Shooting phase     shoot: every unit of the side that can shoot does
//                      (resolve_shooting, shooting.hpp), drive backs included
//   Combat phase       end_phase: the engagements are fought (resolve_combat, combat.hpp),
//                      with the players' decisions it carries, and the turn
//                      passes to the other side
// The battle ends (docs/rulings.md#warmaster-end-of-battle) when a General
// leaves the table for good, when an army has lost its break point in units,
// or after side 1's Combat phase of the last turn (setting turn_limit).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/core/dice.hpp"
#include "referee/core/ruling.hpp"
#include "referee/warmaster/combat/combat.hpp"
#include "referee/warmaster/command/initiative.hpp"
#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/command/orders.hpp"
#include "referee/warmaster/model/settings.hpp"
#include "referee/warmaster/shooting/shooting.hpp"

namespace referee::warmaster {

// The phases of one side's turn (play sheet, "SEQUENCE").
enum class Phase { Command, Shooting, Combat };
const char* to_string(Phase p);

// The steps of the Command phase.
enum class CommandStep { Initiative, Orders, Characters };
const char* to_string(CommandStep s);

enum class ActionType { OffTableReturn, HomeBack, Initiative, Order, Move, EndOrders, CharacterMove, EndPhase, Shoot };
const char* to_string(ActionType t);
std::optional<ActionType> action_type_from_string(const std::string& s);

// One thing a player does. Only the fields of its type are used.
struct Action {
  ActionType type = ActionType::EndPhase;
  std::string unit;                        // off_table_return (a unit), home_back, initiative
  std::string character;                   // order, character_move, off_table_return (a character);
                                           // home_back: the character homed on
  std::vector<std::string> units;          // order: one unit, or a brigade of up to four
  bool charge = false;                     // initiative: charge (true) or evade (false)
  std::string target;                      // initiative: the enemy charged or evaded
  std::vector<std::string> ignore;         // initiative: enemies the player chooses to ignore
  std::vector<std::string> burst_through;  // evade: friendly units burst through
  std::vector<MoveRequest> moves;          // move: one per unit that moves; initiative: the
                                           // unit's move (an evade may leave it to the engine);
                                           // character_move: the character's
  std::string join;                        // character_move: unit joined at the end, if any
  // end_phase of the Combat phase only: what units do after a round, given
  // before it is fought, for units of either side; a unit not named takes
  // the default (docs/rulings.md#warmaster-combat-decisions).
  std::vector<CombatDecision> decisions;
  // shoot only: the player's target for a shooter that has two or more enemy
  // units equally close (docs/rulings.md#warmaster-shooting-ties); a shooter
  // not named shoots at the closest.
  std::vector<TargetChoice> targets;
};

// The action moving character `c` to `to` (a character's own move, with no test).
Action character_move(const Character& c, const Pose& to);
// Unit `u` of `bf` using initiative against `enemy`: a charge with the
// engine's lined-up charge move (plan_lined_up_charge; the straight slide
// where no lined-up placement is legal, which the move check then refuses),
// or an evade left to the engine.
Action initiative_action(const Battlefield& bf, const Unit& u, const Unit& enemy, bool charge,
                         const Settings& settings, const MoveIndex* index = nullptr, MoveScratch* scratch = nullptr);


// Flags of one unit, parallel to Battlefield::units. Engaged, confused and
// stands lost live on the Unit itself (the movement engine reads them).
struct UnitStatus {
  int orders = 0;                  // orders received this phase, passed or failed
  std::string ordered_by;          // the character who ordered it this phase
  bool used_initiative = false;
  bool charged = false;
  bool moved = false;
  bool finished = false;           // no more orders this phase (another unit has moved since)
  bool homed_back = false;
  int blunder_penalty = 0;         // blunders rolled 1: -1 Command each, all game (docs/rulings.md#warmaster-command-blunders)
  bool near_enemy_at_start = false;  // within 20 cm of an enemy when the phase began
  bool off_table = false;          // has left the table (its stands are kept in `parked`)
  bool returns_next_turn = false;  // rolled 1-2: rolls again at the start of its side's next turn
  bool destroyed = false;          // left for good
  bool frozen = false;             // reappeared on a 3-4: cannot move further this turn
  std::vector<Stand> parked;       // where it left the table
  bool operator==(const UnitStatus&) const = default;
};

struct CharacterStatus {
  int orders_issued = 0;
  bool failed = false;
  bool finished = false;           // another character has begun issuing orders
  bool moved = false;
  bool first_order_given = false;  // for the first-turn bonus
  // Left the table on its own and rolled 2 or less (warmaster.command.character_lost):
  // off the table, issuing no orders and making no moves, until it rolls 3
  // or more at the start of one of its side's turns
  // (docs/rulings.md#warmaster-command-characters-leaving-table).
  bool lost = false;
  bool returns_next_turn = false;  // lost, and must roll to return before anything else moves
  // Slain with the unit it had joined (docs/rulings.md#warmaster-combat-characters):
  // lost for good, it never rolls to return.
  bool slain = false;
  Vec2 return_point{};             // lost: where it reappears
  bool frozen = false;             // came back on a 3-4: no character move this turn
  bool operator==(const CharacterStatus&) const = default;
};

// The move a pending order (or a home back) allows.
struct PendingMove {
  std::vector<int> units;          // indices into Battlefield::units
  std::optional<MoveKind> kind;    // nullopt: no move (a failed further order)
  double dice_distance = 0;        // home back: the distance rolled
  std::string source;              // "order" or "home back"
  std::string homing_on;           // home back: the character
  bool operator==(const PendingMove&) const = default;
};

// What the Command phase keeps from one action to the next (its steps,
// orders and the move a passed order allows). The Shooting and Combat
// phases are one action each (shoot; end_phase), so they keep nothing
// between actions: what they change is the battlefield and the units' flags.
struct CommandPhaseState {
  CommandStep step = CommandStep::Initiative;
  bool orders_begun = false;
  bool general_failed = false;
  std::string active_character;
  std::vector<int> family;        // the original unit or brigade now being ordered
  std::vector<int> last_group;    // the units of the last order
  std::vector<std::vector<int>> brigade_touching;  // neighbours when ordered movement began
  std::optional<PendingMove> pending;
  bool operator==(const CommandPhaseState&) const = default;
};

// The immutable description: the starting battlefield and the settings.
struct BattleGame {
  Battlefield start;
  Settings settings;
  std::string scenario;            // file or name, for the log
};

// What applying one action did, as plain values (command_internal.hpp):
// applying fills them in, and the log's JSON is written from them only when
// the result is described.
struct UnitLeftTable;
struct OrderRolled;
struct CharacterOffTable;
// What WarmasterState works out about one battlefield and keeps in the
// caller's MoveScratch (command_internal.hpp).
struct BattlefieldFacts;

// What applying an action did.
struct ActionOutcome {
  Verdict verdict;                 // refused when not legal; the state is unchanged
  std::vector<Roll> rolls;         // every die rolled, in order
  nlohmann::json result;           // for the log: test, needed, passed, moves...
};

class WarmasterState {
 public:
  explicit WarmasterState(std::shared_ptr<const BattleGame> game);

  const BattleGame& game() const { return *game_; }
  const Settings& settings() const { return game_->settings; }
  const Battlefield& battlefield() const { return *bf_; }
  int turn() const { return turn_; }
  int side() const { return side_; }
  Phase phase() const { return phase_; }
  // The Command phase's step; in the Shooting and Combat phases, the last one (characters).
  CommandStep step() const { return command_.step; }
  bool battle_over() const { return !battle_over_reason_.empty(); }
  const std::string& battle_over_reason() const { return battle_over_reason_; }
  // The side that won, once the battle is over; -1 for a draw (or while it goes on).
  int winner() const { return winner_; }
  // Break points (docs/rulings.md#warmaster-break-point): the units a side
  // has lost (destroyed, routed, or gone off the table for good), and the
  // number at which its army withdraws (the battle file's, or half its units
  // rounded up).
  int units_lost(int side) const;
  int break_point(int side) const;
  // Units engaged in combat now (on the table), in battlefield order.
  std::vector<std::string> engaged_units() const;
  const std::vector<UnitStatus>& units() const { return units_; }
  const std::vector<CharacterStatus>& characters() const { return chars_; }
  const std::optional<PendingMove>& pending() const { return command_.pending; }
  const CommandPhaseState& command_phase() const { return command_; }
  bool orders_begun() const { return command_.orders_begun; }
  bool general_failed() const { return command_.general_failed; }
  const std::string& active_character() const { return command_.active_character; }

  // Scratch space (MoveScratch): every call that checks moves has an
  // overload taking the caller's scratch, which is reused from call to call
  // (a simulation keeps one per thread for all its games). The state holds
  // none, so that clones stay cheap; the overloads without one make their own.
  // What is worked out about the battlefield on the way (the units touching,
  // the initiative targets) is kept in the scratch too, for this battlefield
  // only (by its move_index().serial()), so that listing the legal actions
  // and then applying one works them out once.
  //
  // Threads: the const calls only read the state (it has no hidden caches),
  // so any number of threads may call them at once on one state, or on
  // clones of it, each with its own MoveScratch (a scratch is one thread's).
  // apply() and do_apply() change the state: no other call may run on that
  // state meanwhile. Clones may be applied on different threads at once: the
  // battlefield and move index they share are never changed while shared
  // (copy on write), only replaced.

  // Is the action legal now? Never changes the state.
  Verdict validate(const Action& a) const;
  Verdict validate(const Action& a, MoveScratch& scratch) const;
  // Validates, then applies: rolls the dice it needs through `dice`.
  // An illegal action leaves the state unchanged and rolls nothing.
  // Describe::No leaves ActionOutcome::result empty for a legal action (the
  // verdict and rolls are still filled in): for simulations that keep no
  // log, since writing the JSON costs about a tenth of a random phase.
  // Moves are then checked for legality only (CheckDepth::Legality): the
  // same answer and the same game, but a refused move's verdict may give
  // fewer reasons.
  enum class Describe { Yes, No };
  ActionOutcome apply(const Action& a, Dice& dice, Describe describe = Describe::Yes);
  ActionOutcome apply(const Action& a, Dice& dice, Describe describe, MoveScratch& scratch);

  // apply() in two halves, as OpenSpiel's ApplyAction and DoApplyAction:
  // check() checks once and keeps what it worked out (the moves it checked),
  // do_apply() applies a checked LEGAL action without checking it again and
  // returns the result for the log (empty for Describe::No).
  struct MovePlan {
    std::vector<MoveRequest> requests;   // kinds fitted to the pending order
    std::vector<MoveAnswer> answers;
    std::shared_ptr<Battlefield> after;  // null when the moves are simply placed
  };
  struct Checked {
    Action action;  // canonical (facings in [0, 360))
    Verdict verdict;
    std::optional<MoveRequest> initiative_move;
    MovePlan move_plan;
    MoveAnswer character_answer;
    // The first order of the phase: the units touching now, from which its
    // brigades are formed (touching_now).
    std::vector<std::vector<int>> touching;
  };
  Checked check(const Action& a, MoveScratch& scratch, Describe describe) const;
  nlohmann::json do_apply(Checked&& c, Dice& dice, Describe describe);

  // What an order would need now, without giving it (the "what would this
  // order need?" question). Refusals come back in the verdict.
  struct OrderQuestion {
    Verdict verdict;
    OrderTarget target;
    OrderFactors factors;
  };
  OrderQuestion ask_order(const std::string& character, const std::vector<std::string>& units) const;

  // A sample of legal actions (OpenSpiel's legal_actions). Moves are
  // continuous, so for a pending move this lists a few candidate moves that
  // validate (straight ahead at full and half the allowance) plus holding.
  std::vector<Action> legal_actions() const;
  std::vector<Action> legal_actions(MoveScratch& scratch) const;

  // Evading by initiative: the engine's evade move for `unit` away from
  // `enemy` (nearest stand straight along the evade line, the other stands
  // keeping their places relative to it), the longest that is legal.
  std::optional<MoveRequest> compute_evade(const std::string& unit, const std::string& enemy,
                                           const std::vector<std::string>& burst_through = {}) const;
  std::optional<MoveRequest> compute_evade(const std::string& unit, const std::string& enemy,
                                           const std::vector<std::string>& burst_through, MoveScratch& scratch) const;

  // initiative_candidates() for `unit` on the current battlefield: the
  // enemies within 20 cm, nearest first, with sight for a charge or an evade.
  // Kept in `scratch` until the battlefield changes (or the scratch is used
  // with another state's), since the player choosing and the validation both
  // need it; the reference is good until then. Unknown units have none.
  const std::vector<InitiativeCandidate>& initiative_targets(const std::string& unit, bool charge,
                                                             MoveScratch& scratch) const;
  std::vector<InitiativeCandidate> initiative_targets(const std::string& unit, bool charge) const;  // worked out anew

  // Units of one side that touch each other now, as a list of neighbours
  // per unit (brigades are formed from these when ordered movement begins).
  // Kept in `scratch` as initiative_targets() is.
  const std::vector<std::vector<int>>& touching_now(MoveScratch& scratch) const;
  std::vector<std::vector<int>> touching_now() const;  // worked out anew

  // The MoveIndex of the current battlefield (what is near a place, for
  // move checks and for searches such as the opponent's that should read only
  // what is near them). Built by the constructor and by every apply that
  // changes the battlefield, and shared by clones until a stand moves.
  const MoveIndex& move_index() const { return *index_; }

 private:
  friend struct BattleStateAccess;
  int unit_index(const std::string& id) const;
  int character_index(const std::string& id) const;
  const Unit& unit_at(int i) const { return bf_->units[static_cast<std::size_t>(i)]; }
  // Copy on write: copies only when a clone shares the battlefield, else
  // changes it in place. Either way the move index is out of date until
  // build_move_index(), which every non-const entry calls before it returns
  // (nothing reads the index in between).
  Battlefield& mutable_battlefield();
  void replace_battlefield(std::shared_ptr<Battlefield> bf);
  void build_move_index();
  // What `scratch` keeps of the current battlefield, emptied when it was
  // kept for another.
  BattlefieldFacts& facts(MoveScratch& scratch) const;
  std::vector<std::vector<int>> measure_touching() const;
  void begin_phase();
  // Unit::engaged set from the stands (contact.hpp), changing the battlefield
  // only where a flag was wrong: at the start of every phase, after each
  // charge, and after the stands moved in the Shooting and Combat phases
  // (docs/rulings.md#warmaster-engaged).
  void refresh_engaged();
  // The order test's factors as the state stands (no validation); nullopt
  // for an unknown character or no known unit.
  std::optional<OrderFactors> order_factors_now(const std::string& character,
                                                const std::vector<std::string>& units) const;

  Verdict validate_off_table(const Action& a) const;
  Verdict validate_home_back(const Action& a) const;
  // `move_out` receives the move (the engine's, for an evade left to it).
  Verdict validate_initiative(const Action& a, MoveScratch& scratch,
                              std::optional<MoveRequest>* move_out = nullptr) const;
  Verdict validate_order(const Action& a, MoveScratch& scratch) const;
  // `plan` receives the checked moves (MovePlan), so applying does not check twice.
  Verdict validate_move(const Action& a, MoveScratch& scratch, MovePlan* plan = nullptr,
                        CheckDepth depth = CheckDepth::Explain) const;
  // `answer`, when given, receives the movement engine's answer (so applying does not check twice).
  Verdict validate_character_move(const Action& a, MoveScratch& scratch, MoveAnswer* answer = nullptr,
                                  CheckDepth depth = CheckDepth::Explain) const;
  Verdict validate_step_change(const Action& a) const;
  // Actions belong to their phase (warmaster.phase.sequence).
  Verdict validate_phase(const Action& a) const;
  // The Shooting phase: the players' choices between equally close targets
  // (shooting_phase.cpp).
  Verdict validate_shooting(const Action& a) const;
  // The Combat phase may always end: ending it fights the engagements. Its
  // decisions must name known units, each once, with a usable distance
  // (combat_phase.cpp).
  Verdict validate_combat_phase(const Action& a) const;

  // Applying each action, one function per rule, each returning what it did
  // for the describe_* functions (command_apply.cpp):
  //   off_table_return  return_unit, return_character
  //   home_back         home_back (the D6 rolled)
  //   initiative        move_by_initiative
  //   order             give_order (the touching units when orders begin)
  //   move              move_ordered_units
  //   end_orders        end_orders
  //   character_move    move_character
  //   end_phase         end_command_phase (the units that recovered), or
  //                     fight_combat_phase then pass_turn
  //   shoot             shoot (shooting_phase.cpp)
  OffTableResult return_unit(int unit, Dice& dice);
  CharacterOffTable return_character(int character, Dice& dice);
  int home_back(int unit, const std::string& character, Dice& dice);
  std::optional<UnitLeftTable> move_by_initiative(const Action& a, const MoveRequest& move, Dice& dice);
  // Which units may still be ordered, once `group` is ordered by `character`.
  void follow_orders(const std::string& character, const std::vector<int>& group);
  OrderRolled give_order(const Action& a, std::vector<std::vector<int>>&& touching, Dice& dice);
  bool blunders(const Character& c, const OrderRolled& t) const;
  std::optional<MoveKind> blunder_move(OrderRolled& t, const std::vector<int>& group, Dice& dice);
  // The blunder table's forced moves, made with the order
  // (docs/rulings.md#warmaster-command-blunders): 2-3 the retreat from the
  // closest visible enemy within a full pace, 6 the move towards the nearest
  // enemy; `body_move` moves units as one body straight along `dir`.
  void blunder_retreat(OrderRolled& t, const std::vector<int>& group, Dice& dice);
  void blunder_towards(OrderRolled& t, const std::vector<int>& group, Dice& dice);
  void blunder_charge(OrderRolled& t, int unit, int enemy, Dice& dice, MoveRequest&& req);
  void body_move(OrderRolled& t, std::vector<int> body, int enemy, Vec2 dir, const char* how, Dice& dice);
  std::vector<UnitLeftTable> move_ordered_units(MovePlan& plan, Dice& dice);
  void end_orders();
  CharacterOffTable move_character(const Action& a, const MoveAnswer& answer, Dice& dice);
  std::vector<std::string> end_command_phase();
  // The Shooting phase of the side whose turn it is, its casualties, drive
  // backs and units driven off the table carried into the state.
  ShootingResult shoot(const std::vector<TargetChoice>& choices, Dice& dice);
  // The one place the Combat phase's engagements are fought (combat.hpp),
  // when the phase ends, with the players' decisions; its casualties,
  // retreats, pursuits and units gone from the table carried into the state
  // (combat_phase.cpp).
  CombatReport fight_combat_phase(const std::vector<CombatDecision>& decisions, Dice& dice);
  // The end of the battle by break point, checked after every action that
  // may remove a unit.
  void check_break_points();
  // The turn passes to the other side, whose Command phase begins; the
  // battle ends after the last turn.
  void pass_turn();
  void end_battle(const std::string& reason, int winner);
  // The characters after a Shooting or Combat phase, by id, into `next`:
  // those missing from `after` were slain (`slain`) or left the table with
  // their unit, and stay in the state, lost.
  void carry_characters(Battlefield& next, const Battlefield& after, const std::vector<std::string>& slain);
  void require_no_pending_returns(Verdict& v) const;

  // Checks one unit's move on `bf` (the movement engine plus the command
  // phase's own conditions), adding violations to `v`.
  MoveAnswer check_unit_move(const Battlefield& bf, const MoveRequest& req, Verdict& v, MoveScratch& scratch,
                             CheckDepth depth = CheckDepth::Explain) const;
  // A unit whose stands were placed and that is now partly off the table
  // leaves it and rolls on the off-table chart; nothing otherwise.
  std::optional<UnitLeftTable> place_after_move(int unit, const MoveAnswer& answer, Dice& dice);

  std::shared_ptr<const BattleGame> game_;
  // Shared by clones; changed in place only while this state alone holds it.
  std::shared_ptr<Battlefield> bf_;
  // The index of *bf_ when index_current_ (always, between calls); while an
  // apply changes the battlefield, of the one before, whose terrain part is
  // reused (terrain never changes in a battle). Shared by clones.
  std::shared_ptr<const MoveIndex> index_;
  bool index_current_ = false;
  int turn_ = 1;
  int side_ = 0;
  Phase phase_ = Phase::Command;
  int winner_ = -1;
  std::vector<UnitStatus> units_;
  std::vector<CharacterStatus> chars_;
  CommandPhaseState command_;
  std::string battle_over_reason_;
};

}  // namespace referee::warmaster
