// The Combat phase's own parts, shared by its files (src/warmaster/combat):
// the rule ids it cites, the geometry of the stands in a fight
// (combat_contact.cpp), and the phase itself, whose steps 1 to 4 (attacks,
// support, casualties, the result) are in combat.cpp and step 5 (draws,
// retreats, and the winners' pursuit, advance or fall back) in
// combat_moves.cpp. Not a public header: the combat room's API is
// include/referee/warmaster/combat/combat.hpp.
#pragma once

#include "referee/warmaster/combat/combat.hpp"
#include "referee/warmaster/model/rule_ids.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/movement/contact.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "referee/warmaster/model/troops.hpp"
#include "movement/stand_pairs.hpp"

namespace referee::warmaster::combat_detail {

inline constexpr const char* kRuleEngagement = warmaster::rule_id::combat_engagement;
inline constexpr const char* kRuleAttacks = warmaster::rule_id::combat_attacks;
inline constexpr const char* kRuleHits = warmaster::rule_id::combat_hits;
inline constexpr const char* kRuleSupport = warmaster::rule_id::combat_support;
inline constexpr const char* kRuleCasualties = warmaster::rule_id::combat_casualties;
inline constexpr const char* kRuleResult = warmaster::rule_id::combat_result;
inline constexpr const char* kRuleDraw = warmaster::rule_id::combat_draw;
inline constexpr const char* kRuleRetreat = warmaster::rule_id::combat_retreat;
inline constexpr const char* kRuleArtillery = warmaster::rule_id::combat_artillery;
inline constexpr const char* kRuleBlockedRetreat = warmaster::rule_id::combat_blocked_retreat;
inline constexpr const char* kRulePursuit = warmaster::rule_id::combat_pursuit;
inline constexpr const char* kRulePursuitRefused = warmaster::rule_id::combat_pursuit_refused;
inline constexpr const char* kRuleStand = warmaster::rule_id::combat_stand;
inline constexpr const char* kRuleFallBack = warmaster::rule_id::combat_fall_back;
inline constexpr const char* kRuleAdvance = warmaster::rule_id::combat_advance;
inline constexpr const char* kRuleRound = warmaster::rule_id::combat_round;

// docs/rulings.md#warmaster-combat-support: a supporting stand faces the way
// of the stand it backs, give or take this.
inline constexpr double kSupportFacing = 45.0;  // degrees

inline std::string cm(double v) { return format_measure(v, "cm"); }
inline std::string plural(int n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// Geometry of the stands in a fight (combat_contact.cpp).
bool touching(const OrientedRect& a, const OrientedRect& b, double tol);
Aabb unit_box(const Unit& u);
std::array<Segment, 4> edges(const OrientedRect& r);
double angle_between(double a, double b);
// How much of edge `e` lies within `tol` of rect `r` (cm).
double edge_contact(const Segment& e, const OrientedRect& r, double tol);
// "Directly away" from an enemy stand it touches (docs/rulings.md#warmaster-combat-moves).
Vec2 away_from_stand(const OrientedRect& enemy, const OrientedRect& own, double tol);

struct Contact {
  std::string enemy;  // the nearest enemy unit it fought
  Vec2 away{0, 1};    // directly away from it
};
// The enemy stand of the units in `foes` it touches along the longest edge
// (else the nearest), and the way directly away from it.
std::optional<Contact> contact_of(const Battlefield& bf, const Unit& u, const std::vector<std::string>& foes,
                                  double tol);
// Removes `n` stands of `u`, those nearest the units in `foes` first
// (docs/rulings.md#warmaster-combat-casualties).
void remove_stands(const Battlefield& bf, Unit& u, int n, const std::vector<std::string>& foes, double tol);

struct Slide {
  double moved = 0;
  bool blocked = false;
  bool left_table = false;
  std::string why;
  Vec2 shift{0, 0};
  std::vector<std::string> characters;
};
// Moves unit `id` straight along `dir` by up to `dist` through the move
// checker, whole, keeping formation and facing.
Slide slide_unit(Battlefield& bf, const std::string& id, Vec2 dir, double dist, const Settings& settings);
// "; Hero leaves with it" for the characters that go with a unit; empty for none.
std::string with_characters(const std::vector<std::string>& chars, const char* verb);

// One fighting stand: which enemy stand it fights, and on which edge.
struct Fight {
  std::size_t stand = 0;
  std::string target;
  bool front = true;
};
// The enemy stand stand `s` of `u` fights, and on which of its edges
// (docs/rulings.md#warmaster-combat-modifiers).
std::optional<Fight> fight_of(const Battlefield& bf, const Unit& u, std::size_t s, const std::vector<std::string>& group,
                              double tol);
const CombatDecision* decision_of(const CombatOptions& o, const std::string& unit);
std::vector<Aabb> unit_boxes(const Battlefield& bf);
// The connected group of units in contact, grown from `seeds` over enemy
// contacts, in battlefield order.
std::vector<std::string> contact_group(const Battlefield& bf, const std::vector<std::string>& seeds, double tol);


// The phase, kept together so each step reads as the play sheet does.
struct Phase {
  const Settings& settings;
  const CombatOptions& options;
  Dice& dice;
  int first_side = 0;
  CombatReport& rep;
  Battlefield& bf;  // rep.after

  double tol() const { return settings.contact_tolerance; }

  // Units of `group` still on the table, the first side's first.
  std::vector<std::string> in_order(const std::vector<std::string>& group) const {
    std::vector<std::string> out;
    for (int k = 0; k < 2; ++k)
      for (const std::string& id : group)
        if (const Unit* u = bf.find_unit(id); u && u->side == (k == 0 ? first_side : 1 - first_side)) out.push_back(id);
    return out;
  }

  bool charged(const std::string& id) const {
    return std::find(options.charged.begin(), options.charged.end(), id) != options.charged.end();
  }

  // Supporting stands of `side` behind those fighting (docs/rulings.md#warmaster-combat-support).
  // `backed`: the side's fighting stands and their facings; supporters join it as found.
  std::vector<std::string> support(int side, std::vector<std::pair<OrientedRect, double>> backed) const {
    std::vector<std::string> out;
    if (backed.empty()) return out;
    std::set<std::pair<std::string, std::size_t>> used;
    // A supporter's front edge lies within the tolerance of a backed stand:
    // units whose stands are all further than that from every one are
    // passed over without measuring (the battle's size does not matter).
    const double slack = tol() + 1e-6;
    Aabb reach = backed.front().first.bounds().inflated(slack);
    for (const auto& [b, facing] : backed) reach = reach.merged(b.bounds().inflated(slack));
    for (bool grew = true; grew;) {
      grew = false;
      for (const Unit& u : bf.units) {
        if (u.side != side || u.stands.empty() || u.confused || u.type == TroopType::Artillery ||
            u.type == TroopType::Machine || !stands_box(u).overlaps(reach))
          continue;
        for (std::size_t s = 0; s < u.stands.size(); ++s) {
          if (used.count({u.id, s})) continue;
          const OrientedRect r = u.footprint(s);
          const Segment front = r.front_edge();
          const Vec2 mid = (front.a + front.b) / 2;
          for (const auto& [b, facing] : backed) {
            if (angle_between(facing, u.stands[s].pose.facing_deg) > kSupportFacing ||
                distance(mid, edges(b)[2]) > tol())
              continue;
            // Behind a fighting stand; not itself in contact with an enemy.
            bool in_contact = false;
            const Aabb near = r.bounds().inflated(tol());
            for (const Unit& e : bf.units)
              if (e.side != side)
                for (std::size_t k = 0; k < e.stands.size() && !in_contact; ++k)
                  in_contact = near.overlaps(e.footprint(k).bounds()) && touching(r, e.footprint(k), tol());
            if (!in_contact) {
              used.insert({u.id, s});
              out.push_back(fmt::format("{}#{}", u.id, s));
              backed.push_back({r, u.stands[s].pose.facing_deg});
              reach = reach.merged(r.bounds().inflated(slack));
              grew = true;
            }
            break;
          }
        }
      }
    }
    return out;
  }

  // A pursuer's bonus in the next round: its extra attacks and how far its enemy retreated.
  using PursuitBonus = std::map<std::string, std::pair<int, double>>;
  // One round of an engagement: what the play sheet's steps 1 to 5 work with and pass on.
  struct Round {
    CombatRound cr;
    std::vector<std::string> group;                        // its units, the first side's first
    std::map<std::string, std::vector<std::string>> foes;  // the enemies each unit touched at the start
    std::map<std::string, Contact> contact;                // and the way directly away from them
    std::array<std::vector<std::pair<OrientedRect, double>>, 2> fighting;  // each side's fighting stands, facing
    std::map<std::string, int> unsaved;             // unsaved hits each unit took this round
    std::array<std::vector<std::string>, 2> alive;  // each side's units left after the casualties
  };
  // What the losers' retreats leave for the winners' pursuit.
  struct Retreats {
    std::map<std::string, Vec2> shift;
    std::map<std::string, double> retreated;
    std::set<std::string> gone;  // losers no longer on the table
  };

  void run();
  // One round of an engagement, then the next while pursuers catch an enemy.
  void fight(int engagement, int round, const std::vector<std::string>& group, const PursuitBonus& pursuit,
             std::map<std::string, int>& total_hits, std::map<std::string, int>& removed);
  Round start_round(int engagement, int round, const std::vector<std::string>& group);
  // 1. Attacks, hits and saves.
  void attacks_hits_and_saves(Round& r, int round, const PursuitBonus& pursuit);
  std::optional<CombatAttack> attack_dice(const Unit& u, const Unit& t, const std::vector<Fight>& fights, int round,
                                          const PursuitBonus& pursuit, const std::string& terror,
                                          bool with_characters) const;
  void add_character_bonus(const Unit& u, CombatAttack& a) const;
  void roll_hits_and_saves(CombatAttack& a);
  void rule_on_attack(const Unit& u, const CombatAttack& a);
  // 2. Support.
  void count_support(Round& r);
  // 3. Casualties.
  void remove_casualties(Round& r, std::map<std::string, int>& total_hits, std::map<std::string, int>& removed);
  // 4. The result.
  void work_out_result(Round& r);
  // 5. After a draw, both sides fall back.
  void draw_both_fall_back(Round& r);
  // 5. The losers retreat.
  Retreats losers_retreat(Round& r);
  CombatMove retreat_one(Round& r, const std::string& id, int each, std::size_t losers, Retreats& out);
  void artillery_destroyed_retreating(CombatMove& m, int each);
  void retreat_off_table(const Unit& u, CombatMove& m, int each, const std::string& split);
  void lose_stands_for_blocked_retreat(Round& r, CombatMove& m, double short_by, Retreats& out);
  // 5. The winners pursue, stand, fall back or advance.
  std::vector<std::string> winners_move(Round& r, const Retreats& back);
  CombatMove advance_after_destroying(const Unit& wu, const Contact& c, const CombatDecision* d);
  CombatMove stand_ground(const std::string& id, bool none_left, CombatChoice choice);
  std::string pursuit_target(const Unit& wu, const std::vector<std::string>& left, std::string& refusal) const;
  std::string pursuit_refusal(const Unit& wu, Position own, const Unit& eu) const;
  CombatMove pursue(const std::string& id, const std::string& target, const Retreats& back);
  static PursuitBonus next_round_bonus(const CombatRound& cr, const Retreats& back);
  CombatMove fall_back(const std::string& id, const Contact& c, const CombatDecision* d, bool winner);
  // The characters of unit `id`, destroyed on the table, are slain with it.
  void slay_with(const std::string& id, const std::vector<std::string>& chars) {
    if (chars.empty()) return;
    rep.slain.insert(rep.slain.end(), chars.begin(), chars.end());
    rep.rulings.push_back(characters_slain(chars, id));
  }
  // A fall back, advance or pursuit that took unit `id` off the table: not a
  // retreat, so it rolls on the off-table chart (docs/rulings.md#warmaster-combat-moves)
  // and leaves with its joined characters. Returns the end of its ruling.
  std::string leaves_table(const std::string& id, CombatMove& m) {
    m.left_table = true;
    m.off_table = resolve_off_table(*bf.find_unit(id), dice, false);
    rep.rulings.push_back(m.off_table->ruling);
    m.characters = remove_unit_and_characters(bf, id);
    return fmt::format(": it leaves the table{}", with_characters(m.characters, "leaves"));
  }
};

}  // namespace referee::warmaster::combat_detail
