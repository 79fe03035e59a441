// The Shooting phase (play sheet, "2. SHOOTING"; docs/warmaster-shooting.md,
// and the readings cited below), as pure functions over a Battlefield.
//
// - Engaged (contact.hpp): a unit is engaged while an enemy stand touches
//   it, worked out from the stands at the start of the phase. Units engaged
//   in combat neither shoot nor are shot at
//   (docs/rulings.md#warmaster-shooting-engaged; setting shoot_into_combat).
// - Targets: each unit of the shooting side with a missile weapon that is
//   not engaged shoots at the closest enemy unit (unit_distance, stand to
//   stand) that one of its stands can see (sight.hpp) within its weapon's
//   range, passing over engaged enemies. Where enemies are equally close
//   (within the contact tolerance) the shooting player chooses
//   (docs/rulings.md#warmaster-shooting-ties).
// - Range per stand: only the stands within range of the target that see it
//   roll (docs/rulings.md#warmaster-shooting-range-per-stand; setting
//   range_per_stand).
// - Hits: one D6 per Attack of each stand that shoots; 4+ hits a target in the open, 5+
//   a defended one, 6 a fortified one. Each hit is saved by a D6 equal to or
//   above the target's Armour (no save without one).
// - Casualties: a stand is removed for each full Hits value of unsaved hits,
//   counted over the whole phase; odd hits are discounted at its end.
// - Drive backs, at the end of the phase: D6 cm per unsaved hit the unit
//   suffered (docs/rulings.md#warmaster-shooting-drive-back-dice), one die
//   fewer if defended and two fewer if fortified. Any 6 confuses the unit; a
//   total of its full pace or more routs it (it is removed). The unit moves
//   directly away from the nearest unit that shot it, whole and keeping its
//   formation, through the movement engine (check_move, MoveKind::Dice); a
//   move cut short by terrain, stands or the table edge stops where it is
//   blocked and confuses the unit (docs/rulings.md#warmaster-shooting-blocked-drive-back). A unit whose
//   drive back would take a stand over the table edge leaves the table and
//   rolls on the off-table chart. Characters that have joined a unit move
//   with it.
//
// Dice go through the caller's Dice, each roll labelled, so a scripted
// sequence replays a phase exactly.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "referee/core/dice.hpp"
#include "referee/core/ruling.hpp"
#include "referee/warmaster/model/model.hpp"
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/movement/position.hpp"
#include "referee/warmaster/model/settings.hpp"

namespace referee::warmaster {


// The shooting player's choice between enemy units equally close to one of
// its shooters (docs/rulings.md#warmaster-shooting-ties).
struct TargetChoice {
  std::string shooter, target;
  bool operator==(const TargetChoice&) const = default;
};

struct ShootingTarget {
  std::string shooter;
  std::string target;        // empty: it cannot shoot
  double distance = 0;       // cm, unit to unit (their closest stands)
  double range = 0;          // cm, the weapon's
  // The shooter's stands that shoot (indices into its stands, in order):
  // those within range of the target that see it. Every stand when the
  // setting range_per_stand is off.
  std::vector<StandIndex> stands;
  bool every_stand = true;   // `stands` is all of them (the JSON then leaves them out)
  // Two or more when enemy units lie equally close (within the contact
  // tolerance of the closest): the shooting player may pick any of them;
  // `target` is the one picked (the closest, first in the battle's order,
  // unless the player chose another). Empty when there is no choice.
  std::vector<std::string> choices;
  bool chosen = false;       // the player chose `target` among `choices`
  // Engaged enemy units closer than the target, passed over
  // (warmaster.shooting.engaged), nearest first.
  std::vector<std::string> passed_over;
  // warmaster.shooting.engaged for each unit passed over (or for a shooter
  // that is engaged itself), then warmaster.shooting.target (or
  // .no_target), with the reason.
  std::vector<Ruling> rulings;
};
// Every unit of `side` with a missile weapon, in battlefield order, each
// with its target: the closest enemy unit, not engaged (unless the setting
// shoot_into_combat), that at least one of its stands sees within range,
// or the player's choice where `choices` names one of the equally close.
// A choice that is not one of a shooter's equally close enemies is refused
// by check_target_choices; here it is ignored.
std::vector<ShootingTarget> shooting_targets(const Battlefield& bf, int side, const Settings& settings = {},
                                             const std::vector<TargetChoice>& choices = {});
// Each choice must name a shooter of `side` (once) and one of the enemy
// units equally close to it (warmaster.shooting.target). `targets` is
// shooting_targets' answer without choices.
Verdict check_target_choices(const std::vector<ShootingTarget>& targets, const std::vector<TargetChoice>& choices);
// The sets of choices a player may make: none first (every shooter at its
// closest), then every combination naming some shooters' other equally close
// enemies, at most `cap` sets in all; past the cap, each single other choice.
std::vector<std::vector<TargetChoice>> target_choice_sets(const std::vector<ShootingTarget>& targets,
                                                          std::size_t cap = 32);

struct ShotRolls {
  std::string shooter, target;
  std::vector<StandIndex> stands;  // the shooter's stands that shot
  bool every_stand = true;     // all of them shot (the JSON then leaves `stands` out)
  Position position = Position::Open;
  int needed = 4;              // to hit
  std::vector<int> to_hit;     // one die per Attack
  int hits = 0;
  int armour = 0;              // the save needed; 0: none
  std::vector<int> saves;      // one die per hit when there is a save
  int unsaved = 0;
};

struct DriveBack {
  std::string unit;
  std::string away_from;       // the nearest unit that shot it
  int hits = 0;                // unsaved hits it suffered this phase
  int dice = 0;                // after the position's reduction
  std::vector<int> rolls;
  int total = 0;               // cm
  double moved = 0;            // cm it actually moved
  bool confused = false;       // a 6, or cut short
  bool routed = false;         // total >= its full pace: removed
  bool blocked = false;        // cut short before `total`
  bool left_table = false;
  std::optional<OffTableResult> off_table;
  std::vector<Stand> left_at;  // left_table: its stands moved by the whole drive back, off the
                               // table (where a game keeps it until it returns)
};

struct ShootingResult {
  Battlefield after;
  std::vector<ShootingTarget> targets;
  std::vector<ShotRolls> shots;
  // Per target: unsaved hits, stands removed, hits discounted at the end.
  struct Casualties {
    std::string unit;
    int unsaved = 0;
    int stands_removed = 0;
    int discounted = 0;
    bool destroyed = false;
  };
  std::vector<Casualties> casualties;
  std::vector<DriveBack> drive_backs;
  // Characters slain with the unit they had joined, destroyed or routed
  // (docs/rulings.md#warmaster-shooting-characters); gone from `after`.
  std::vector<std::string> slain;
  std::vector<Ruling> rulings;  // every step, in order, with its rule id and figures
};

// One Shooting phase for `side`, with the player's choices of target where
// enemies are equally close. Throws InputError for a side other than 0 or 1,
// or for a choice that check_target_choices refuses.
ShootingResult resolve_shooting(const Battlefield& bf, int side, Dice& dice, const Settings& settings = {},
                                const std::vector<TargetChoice>& choices = {});

// Exact odds of one unit's shooting at one target (docs/warmaster-command.md
// has the order odds; this is their shooting counterpart).
struct ShootingOddsRequest {
  int attacks = 0;             // dice rolled: Attacks x stands shooting
  Position position = Position::Open;
  int armour = 0;              // the target's save; 0: none
  int hits = 1;                // the target's Hits per stand
  int stands = 3;              // the target's stands
  double pace = 20;            // the target's full pace, for rout
};
struct ShootingOddsRow {
  int unsaved = 0;
  double chance = 0;
  std::string fraction;        // exact, over 36^attacks outcomes, when that fits in 64 bits
  int stands_removed = 0;
  int drive_back_dice = 0;
  double confused = 0;         // P(any 6 | this many hits)
  double routed = 0;           // P(total >= pace | this many hits), or 1 when destroyed
  double mean_drive_back = 0;  // cm
};
struct ShootingOdds {
  ShootingOddsRequest request;
  int needed = 4;
  double p_unsaved = 0;        // per attack
  std::vector<ShootingOddsRow> rows;  // unsaved = 0 .. attacks
  double mean_unsaved = 0, mean_stands_removed = 0;
  double any_stand_removed = 0, confused = 0, routed = 0, destroyed = 0;
};
// Throws InputError naming the bad field.
ShootingOdds shooting_odds(const ShootingOddsRequest& r);

void to_json(nlohmann::json& j, const ShootingResult& r);
void to_json(nlohmann::json& j, const ShootingOdds& o);
std::string explain(const ShootingResult& r);
std::string explain(const ShootingOdds& o);

}  // namespace referee::warmaster
