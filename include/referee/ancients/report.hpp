// What an applied action did, as plain values: the rules fill a Report with
// board indices (units, leaders, hexes, cards), dice faces and counts, and
// describe() alone turns one into the JSON of the game log. Applying without
// a description so does no string or JSON work, which searches need.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/ancients/battle.hpp"
#include "referee/ancients/movement.hpp"
#include "referee/ancients/orders.hpp"

namespace referee::ancients {

// A victory banner won by `side` for eliminating a unit or killing a leader.
struct BannerReport {
  int side = 0;
  bool leader = false;  // `piece` is a leader, else a unit
  int piece = -1;
  int banners = 0;      // the side's banners now
  int needed = 0;
};

// A lone leader's evasion toward his own edge (docs/rulings.md#ancients-leader-casualty).
struct LeaderEvadeReport {
  int leader = -1;
  int to = -1;           // -1: he left the battle by his own edge
  int attached_to = -1;  // the unit he joined there, or -1
};

// One leader casualty check: 1 die when his unit was eliminated, else 2.
struct LeaderCheckReport {
  int leader = -1;
  bool unit_eliminated = false;
  std::vector<Face> dice;
  bool killed = false;
  std::optional<BannerReport> banner;     // killed
  std::optional<LeaderEvadeReport> evade;  // survived his unit's elimination
};

// Blocks taken off a unit (hits, or hexes it could not retreat).
struct BlocksLostReport {
  int lost = 0;
  int left = 0;
  bool eliminated = false;
  std::optional<BannerReport> banner;  // eliminated
};

// A unit moved back along a retreat or evasion path.
struct PathReport {
  std::vector<int> path;  // start first
  int hexes = 0;
  int leader_attached = -1;  // a lone leader it stopped on, or -1
};

// A flag retreat carried out.
struct RetreatReport {
  int unit = -1;
  int demanded = 0;     // hexes the flags demanded
  PathReport moved;
  int unretreated = 0;  // hexes it could not retreat: a block lost for each
  std::optional<BlocksLostReport> loss;
  std::optional<LeaderCheckReport> leader_check;  // the combat's check, when the retreat made the first loss
  std::optional<LeaderEvadeReport> leader_evade;  // a leader left alone by the retreat's elimination
};

// Flags answered as the owner chose: the ignored ones (support first, then
// the attached leader), those it might have ignored and did not, and the
// retreat the others demand.
struct FlagsAnswerReport {
  int ignored = 0;
  bool supported = false;
  int leader = -1;   // the attached leader, or -1
  int declined = 0;  // flags it might have ignored and did not
  std::optional<RetreatReport> retreat;
};

// A combat waiting on a player's choice (the Pending of turn.hpp).
enum class Decision : std::uint8_t { evade, retreat, momentum };
struct AwaitingReport {
  Decision decision = Decision::evade;
  int side = 0;
  int unit = -1;
  int flags = 0;       // retreat
  int may_ignore = 0;  // retreat
  int to = -1;         // momentum: the vacated hex
  std::vector<RetreatOption> evade_options;
  std::vector<FlagChoice> retreat_options;
};

// One side's dice at the other, as rolled.
struct RollReport {
  AttackPlan plan;
  std::vector<Face> faces;
  int hits = 0;
  int flags = 0;  // not counted against an evading target
};

// An evading target's move (or, for a war machine, its removal).
struct EvadeMoveReport {
  int unit = -1;
  bool removed = false;
  std::optional<PathReport> moved;
};

struct StrikeReport;

// The defender's battle back: no dice for its class, else its strike.
struct BattleBackReport {
  int unit = -1;
  std::vector<StrikeReport> strike;  // empty: it cannot battle back
};

// What follows the defender's losses and retreat: the attacker's momentum
// choice, or the battle back.
struct AfterDefenderReport {
  std::optional<AwaitingReport> awaiting;
  std::optional<BattleBackReport> battle_back;
};

struct StrikeReport {
  RollReport roll;
  std::optional<BlocksLostReport> result;
  std::optional<EvadeMoveReport> evade;
  std::optional<LeaderCheckReport> leader_check;
  std::optional<LeaderEvadeReport> leader_evade;
  std::optional<FlagsAnswerReport> flags;
  std::optional<AwaitingReport> awaiting;  // the retreat the owner chooses
  AfterDefenderReport after;
};

// A battle declared on a unit: the defender's evasion choice, or the attack.
struct DeclareReport {
  int unit = -1;
  int target = -1;
  bool close = true;
  bool bonus = false;  // a bonus close combat after a momentum advance
  std::optional<AwaitingReport> awaiting;
  std::optional<StrikeReport> attack;
};

// A battle against a lone leader: a helmet kills him, else he evades.
struct LeaderAttackReport {
  int unit = -1;
  int leader = -1;
  bool close = true;
  std::vector<Face> faces;
  int helmets = 0;
  std::optional<BannerReport> banner;
  std::optional<LeaderEvadeReport> evade;
};

// The defender evades or stands; then the attack.
struct EvadeAnswerReport {
  int unit = -1;
  bool evades = false;
  StrikeReport attack;
};

// The owner's retreat choice, and what follows it.
struct RetreatAnswerReport {
  int unit = -1;
  int flags = 0;
  FlagsAnswerReport answer;
  AfterDefenderReport after;
};

// Why a momentum advance gives no bonus close combat.
enum class NoBonus : std::uint8_t { none, made_already, needs_leader, terrain };

struct MomentumReport {
  int unit = -1;
  bool advance = false;
  int from = -1;
  int to = -1;
  NoBonus no_bonus = NoBonus::none;
};

// A turn's end: the draw (after a reshuffle of the discards, if the deck was empty).
struct TurnEndReport {
  int side = 0;
  int card = -1;
  std::optional<std::size_t> reshuffled;  // cards in the new deck
  int drew = -1;
  int next_side = 0;
};

// The movement ended with a battle to fight.
struct BattlePhaseReport {};

// A card played: its plan (only when described), and the turn skipped
// when it orders nothing.
struct CardPlayReport {
  std::optional<OrderPlan> plan;
  PlanPieces pieces;  // where the plan's pieces stood
  std::optional<TurnEndReport> turn_skipped;
};

struct OrdersReport {
  std::vector<OrderItem> ordered;  // units first, then leaders
  std::size_t used = 0;
  int given = 0;
};

struct UnitMoveReport {
  int unit = -1;
  int from = -1;
  int to = -1;
  std::vector<int> path;  // only when described
  Destination destination;
  int leader_moved_with = -1;
};

struct LeaderMoveReport {
  int leader = -1;
  int from = -1;
  int to = -1;
  std::vector<int> path;  // only when described
  int detached_from = -1;
  int attached_to = -1;
  bool unit_moves_no_further = false;
};

struct Report {
  std::variant<CardPlayReport, OrdersReport, UnitMoveReport, LeaderMoveReport, BattlePhaseReport, TurnEndReport,
               DeclareReport, LeaderAttackReport, EvadeAnswerReport, RetreatAnswerReport, MomentumReport>
      event;
};

// The JSON of the game log for a report of battle `b`.
nlohmann::json describe(const Battle& b, const Report& r);

}  // namespace referee::ancients
