// Battles: the battle dice, who may battle whom (close combat, ranged combat
// with range and line of sight), how many dice, which faces hit, flags and
// the retreat paths they force, evasion, and the exact odds of an attack.
// Pure functions of (battle, position): the turn (turn.hpp) rolls the dice
// and keeps the sequence of a combat; these say what the rules allow.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/ancients/model.hpp"
#include "referee/ancients/position.hpp"

namespace referee::ancients {

// The six faces of a battle die, one each (ancients.battle.dice).
enum class Face : std::uint8_t { light, medium, heavy, swords, leader, flag };
inline constexpr int kFaces = 6;
// A d6 roll 1..6 read as a face: 1 light, 2 medium, 3 heavy, 4 swords, 5 leader helmet, 6 flag.
inline Face face_of(int roll) { return static_cast<Face>(roll - 1); }
const char* face_name(Face f);

// What each class does in battle, beside how it moves (model.hpp).
enum class Evasion : std::uint8_t {
  never,
  always,                  // light units and war machines
  foot_and_heavy_mounted,  // medium cavalry and camels evade foot and heavy mounted units
  foot_and_elephants,      // heavy cavalry and heavy chariots evade foot and elephants
};
enum class Momentum : std::uint8_t {
  none,                // war machines
  advance,             // advance into the hex, no bonus close combat
  advance_and_battle,  // advance, then a bonus close combat
};
struct CombatProfile {
  int close_dice = 0;         // 0: cannot close combat (war machines)
  bool elephant_dice = false; // rolls what the target would roll against it (3 against elephants, camels, warriors, heavy chariots)
  int range = 0;              // 0: no ranged combat
  int ranged_dice = 0;        // when it has not moved this turn
  int ranged_dice_moved = 0;  // when it has
  bool sword_hits = true;     // its swords hit in close combat
  bool ignores_swords = false;  // swords rolled against it never hit (elephants)
  bool leader_hits = true;    // a friendly leader's helmets hit for it (not elephants)
  int retreat_per_flag = 1;   // hexes per flag
  Evasion evasion = Evasion::never;
  Momentum momentum = Momentum::advance;
};
const CombatProfile& combat_profile(int cls);

// A friendly leader in the unit's hex or an adjacent one: his helmets score
// in its close combats (ancients.battle.leader_hits).
int leader_near(const Battle& b, const Position& p, int unit);
bool adjacent_enemy(const Battle& b, const Position& p, int unit);
// Ranged line of sight (ancients.battle.sight): the hexes strictly between
// the two centres must hold no unit and no sight-blocking terrain; where the
// line runs along the edge between two hexes it is blocked only when both
// sides are (docs/rulings.md#ancients-line-of-sight). `blocker` receives a
// blocking hex when it is blocked.
bool line_of_sight(const Battle& b, const Position& p, int from, int to, int* blocker = nullptr);
// Whether a hex blocks sight: a unit on it, or terrain that blocks sight.
bool blocks_sight(const Battle& b, const Position& p, int hex);
// The hexes a line of sight crosses, strictly between the two centres, on
// each side of the line: the same hexes twice unless it runs along an edge.
std::array<std::vector<int>, 2> sight_hexes(const Battle& b, int from, int to);

// One attack's dice before they are rolled.
struct AttackPlan {
  int attacker = -1;
  int target = -1;
  bool close = true;            // close combat, else ranged
  bool battle_back = false;
  bool evading = false;         // the target evades: only its own symbol hits
  int dice = 0;
  int dice_before_terrain = 0;
  int limited_by = -1;          // terrain type index that capped the dice, or -1
  std::array<bool, kFaces> hits{};  // faces that hit the target
  int ignorable_flags = 0;      // support and an attached leader
  bool supported = false;
  int retreat_per_flag = 1;
  int near_leader = -1;         // close combat: a friendly leader with or beside the attacker
};
// Which faces hit, in words (kept out of plan_attack: searches plan attacks by the thousand).
std::string hits_reason(const Battle& b, const AttackPlan& plan);
AttackPlan plan_attack(const Battle& b, const Position& p, int attacker, int target, bool close, bool battle_back,
                       bool evading);
// Flags the target may ignore: one when supported by two adjacent friendly
// units, one more with a leader attached (ancients.flag.support, ancients.flag.leader).
int ignorable_flags(const Battle& b, const Position& p, int unit, bool* supported = nullptr);

// Who a unit may battle now, leaving aside whether it is ordered: every
// adjacent enemy unit (close combat), or when none is adjacent and it has a
// missile weapon, every enemy unit in range and sight (ranged).
struct Target {
  int unit = -1;          // or the leader, when `leader`
  bool close = true;
  int distance = 1;
  bool leader = false;    // a lone enemy leader (docs/rulings.md#ancients-lone-leaders-in-battle)
};
std::vector<Target> battle_targets(const Battle& b, const Position& p, int unit);
// Why `attacker` may not battle `target` (an empty string when it may).
std::string why_not_target(const Battle& b, const Position& p, int attacker, int target, const char** rule);
// The same for a lone enemy leader, and the dice against him: close-combat
// dice (an elephant 1) or fire dice; only leader helmets hit him.
std::string why_not_leader_target(const Battle& b, const Position& p, int attacker, int leader, const char** rule);
int dice_against_leader(const Battle& b, const Position& p, int attacker, int leader);

// The hexes a retreat may end on (ancients.flag.retreat): every path steps
// one row toward the unit's own home edge, never into a unit, a lone enemy
// leader or terrain the unit cannot enter, and stops on a lone friendly
// leader (who attaches). Only the paths with the fewest blocks lost are
// offered, one per end hex.
struct RetreatOption {
  int end = -1;
  int hexes = 0;              // hexes moved
  int lost = 0;               // blocks lost for hexes that could not be retreated
  int attaches_leader = -1;
  std::vector<int> path;      // start first
};
std::vector<RetreatOption> retreat_options(const Battle& b, const Position& p, int unit, int hexes);
// What the owner of a unit struck by `flags` flags may do when it may ignore
// up to `may_ignore` of them (support, an attached leader: each "may"): for
// each count it ignores, the retreat the rest demand (the unit's own hex,
// 0 hexes, when it ignores them all), keeping one choice per end hex, the
// one that loses the fewest blocks, ignoring the most on a tie
// (docs/rulings.md#ancients-support). One choice means nothing to decide.
struct FlagChoice {
  int ignored = 0;        // flags ignored
  int hexes = 0;          // hexes the other flags demand
  RetreatOption option;   // where it ends; hexes 0 and no path when it holds
};
std::vector<FlagChoice> flag_choices(const Battle& b, const Position& p, int unit, int flags, int may_ignore);
// The evade destinations (ancients.evade.move): 2 hexes toward its own edge,
// or 1 when that is the only space; the first hex stops it on a lone friendly leader.
std::vector<RetreatOption> evade_options(const Battle& b, const Position& p, int unit);
bool may_evade(const Battle& b, int defender, int attacker);
// Why `defender` may not evade this attack by `attacker` (an empty string
// when the game offers it the choice): evasion comes only in close combat,
// to a unit that may evade that attacker (ancients.evade.eligible), with an
// evade path (ancients.evade.move); `options`, when given, receives the paths.
std::string why_not_evade(const Battle& b, const Position& p, int attacker, int defender, const char** rule,
                          std::vector<RetreatOption>* options = nullptr);
// The row direction of a side's home edge: +1 (side 0, bottom) or -1.
inline int home_step(int side) { return side == 0 ? 1 : -1; }

// Exact odds of an attack (ancients.battle.odds): the dice are a multinomial
// over the faces, so every probability is a count of the 6^n equally likely
// rolls. Elimination and retreat follow the target's blocks, the flags it may
// ignore and the longest retreat it has. Ignoring a flag is the owner's
// choice (docs/rulings.md#ancients-support): `eliminate` and `retreat` count
// what befalls it when it ignores every flag it may, and `retreat_by_choice`
// the rolls that offer it a longer retreat (or one at all) for a flag it may
// ignore.
struct AttackOdds {
  int dice = 0;
  int hit_faces = 0;
  std::uint64_t outcomes = 1;            // 6^dice
  // counts[h][f]: rolls with h hits and f flags
  std::vector<std::vector<std::uint64_t>> counts;
  std::uint64_t eliminate = 0;           // rolls that eliminate the target (hits, then blocks lost retreating)
  std::uint64_t retreat = 0;             // rolls that make it retreat and survive
  std::uint64_t retreat_by_choice = 0;   // rolls where it may retreat further by not ignoring a flag
  std::uint64_t at_least_one_hit = 0;
  double expected_hits = 0;
  int blocks = 0;
  int ignorable_flags = 0;
  int retreat_per_flag = 0;
  int retreat_room = 0;                  // the longest retreat it has now, in hexes
};
AttackOdds attack_odds(const Battle& b, const Position& p, const AttackPlan& plan);
nlohmann::json odds_json(const Battle& b, const AttackPlan& plan, const AttackOdds& o);

}  // namespace referee::ancients
