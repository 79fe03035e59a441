// The Combat phase: engagements, attacks, hits, support, results, and the
// moves that follow (retreats, fall-backs, pursuits, advances), with the
// exact odds of an exchange. The model is described in combat.hpp.
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

namespace referee::warmaster {

namespace {

constexpr const char* kRuleEngagement = warmaster::rule_id::combat_engagement;
constexpr const char* kRuleAttacks = warmaster::rule_id::combat_attacks;
constexpr const char* kRuleHits = warmaster::rule_id::combat_hits;
constexpr const char* kRuleSupport = warmaster::rule_id::combat_support;
constexpr const char* kRuleCasualties = warmaster::rule_id::combat_casualties;
constexpr const char* kRuleResult = warmaster::rule_id::combat_result;
constexpr const char* kRuleDraw = warmaster::rule_id::combat_draw;
constexpr const char* kRuleRetreat = warmaster::rule_id::combat_retreat;
constexpr const char* kRuleArtillery = warmaster::rule_id::combat_artillery;
constexpr const char* kRuleBlockedRetreat = warmaster::rule_id::combat_blocked_retreat;
constexpr const char* kRulePursuit = warmaster::rule_id::combat_pursuit;
constexpr const char* kRulePursuitRefused = warmaster::rule_id::combat_pursuit_refused;
constexpr const char* kRuleStand = warmaster::rule_id::combat_stand;
constexpr const char* kRuleFallBack = warmaster::rule_id::combat_fall_back;
constexpr const char* kRuleAdvance = warmaster::rule_id::combat_advance;
constexpr const char* kRuleRound = warmaster::rule_id::combat_round;

// docs/rulings.md#warmaster-combat-support: a supporting stand faces the way
// of the stand it backs, give or take this.
constexpr double kSupportFacing = 45.0;  // degrees

std::string cm(double v) { return format_measure(v, "cm"); }
std::string plural(int n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

bool touching(const OrientedRect& a, const OrientedRect& b, double tol) {
  return a.bounds().inflated(tol).overlaps(b.bounds()) && distance(a, b) <= tol;
}

Aabb unit_box(const Unit& u) {
  Aabb b = u.footprint(0).bounds();
  for (std::size_t s = 1; s < u.stands.size(); ++s) b = b.merged(u.footprint(s).bounds());
  return b;
}

std::array<Segment, 4> edges(const OrientedRect& r) {
  const auto c = r.corners();  // front-left, front-right, rear-right, rear-left
  return {Segment{c[0], c[1]}, Segment{c[1], c[2]}, Segment{c[2], c[3]}, Segment{c[3], c[0]}};
}

double angle_between(double a, double b) {
  double d = std::fmod(std::abs(a - b), 360.0);
  return d > 180 ? 360 - d : d;
}

// How much of edge `e` lies within `tol` of rect `r` (cm): Liang-Barsky
// clipping of the edge against r's box grown by tol, in r's own frame. A
// corner touching gives about tol; an edge along an edge, their overlap.
double edge_contact(const Segment& e, const OrientedRect& r, double tol) {
  const Vec2 a = r.rot.apply_inverse(e.a - r.center), b = r.rot.apply_inverse(e.b - r.center);
  const Vec2 d = b - a;
  double t0 = 0, t1 = 1;
  const double lo[2] = {-r.half.x - tol, -r.half.y - tol}, hi[2] = {r.half.x + tol, r.half.y + tol};
  const double p[2] = {a.x, a.y}, q[2] = {d.x, d.y};
  for (int k = 0; k < 2; ++k) {
    if (std::abs(q[k]) < 1e-12) {
      if (p[k] < lo[k] || p[k] > hi[k]) return 0;
      continue;
    }
    double u0 = (lo[k] - p[k]) / q[k], u1 = (hi[k] - p[k]) / q[k];
    if (u0 > u1) std::swap(u0, u1);
    t0 = std::max(t0, u0);
    t1 = std::min(t1, u1);
    if (t0 > t1) return 0;
  }
  return (t1 - t0) * length(d);
}

// "Directly away" from an enemy stand it touches: the outward normal of the
// enemy stand's edge along which they touch most (docs/rulings.md#warmaster-combat-moves).
Vec2 away_from_stand(const OrientedRect& enemy, const OrientedRect& own, double tol) {
  const auto e = edges(enemy);
  int best = -1;
  double most = 0;
  for (int i = 0; i < 4; ++i) {
    const double c = edge_contact(e[static_cast<std::size_t>(i)], own, tol);
    if (c > most + 1e-9) {
      best = i;
      most = c;
    }
  }
  Vec2 n = best < 0 ? own.center - enemy.center
                    : (e[static_cast<std::size_t>(best)].a + e[static_cast<std::size_t>(best)].b) / 2 - enemy.center;
  return n / std::max(length(n), 1e-12);
}

struct Contact {
  std::string enemy;  // the nearest enemy unit it fought
  Vec2 away{0, 1};    // directly away from it
};

// The enemy stand of the units in `foes` it touches along the longest edge
// (else the nearest), and the way directly away from it.
std::optional<Contact> contact_of(const Battlefield& bf, const Unit& u, const std::vector<std::string>& foes,
                                  double tol) {
  std::optional<Contact> out;
  double best = -1e18;
  for (const std::string& id : foes) {
    const Unit* e = bf.find_unit(id);
    if (!e || e->side == u.side) continue;
    for (std::size_t i = 0; i < u.stands.size(); ++i)
      for (std::size_t k = 0; k < e->stands.size(); ++k) {
        const OrientedRect own = u.footprint(i), er = e->footprint(k);
        double score = -distance(own, er);
        if (score >= -tol)
          for (const Segment& s : edges(er)) score = std::max(score, edge_contact(s, own, tol));
        if (score > best + 1e-9) {
          best = score;
          out = Contact{e->id, away_from_stand(er, own, tol)};
        }
      }
  }
  return out;
}

// Removes `n` stands of `u`, those nearest the units in `foes` first (to
// 0.01 cm); among those equally near, the one touching fewest stands of its
// own unit, so a line loses its ends and stays in formation
// (docs/rulings.md#warmaster-combat-casualties).
void remove_stands(const Battlefield& bf, Unit& u, int n, const std::vector<std::string>& foes, double tol) {
  for (int k = 0; k < n && !u.stands.empty(); ++k) {
    std::size_t best = 0;
    std::tuple<double, int, std::size_t> key{1e18, 0, 0};
    for (std::size_t s = 0; s < u.stands.size(); ++s) {
      const OrientedRect r = u.footprint(s);
      double d = 1e18;
      for (const std::string& e : foes)
        if (const Unit* eu = bf.find_unit(e))
          for (std::size_t i = 0; i < eu->stands.size(); ++i) d = std::min(d, distance(r, eu->footprint(i)));
      int neighbours = 0;
      for (std::size_t o = 0; o < u.stands.size(); ++o) neighbours += o != s && touching(r, u.footprint(o), tol);
      const std::tuple<double, int, std::size_t> mine{std::round(d * 100) / 100, neighbours, s};
      if (s == 0 || mine < key) {
        key = mine;
        best = s;
      }
    }
    u.stands.erase(u.stands.begin() + static_cast<std::ptrdiff_t>(best));
  }
}

struct Slide {
  double moved = 0;
  bool blocked = false;
  bool left_table = false;
  std::string why;
  Vec2 shift{0, 0};
  std::vector<std::string> characters;
};

// Moves unit `id` straight along `dir` by up to `dist` through the move
// checker (push_straight, as shooting's drive backs): whole, keeping formation
// and facing, never round what blocks it. Cut short: as far as it can go, to
// 0.01 cm. Over the table edge: not moved, left_table set (the caller decides).
Slide slide_unit(Battlefield& bf, const std::string& id, Vec2 dir, double dist, const Settings& settings) {
  Slide out;
  if (dist <= 0) return out;
  const MoveIndex index(bf);
  MoveScratch scratch;
  const StraightPush push = push_straight(bf, index, *bf.find_unit(id), dir, dist, settings, scratch);
  out.moved = push.moved;
  if (push.leaves_table) {
    out.left_table = true;
    return out;
  }
  out.blocked = push.blocked;
  out.why = push.why;
  out.shift = dir * push.moved;
  Unit& m = *bf.find_unit(id);
  for (Stand& s : m.stands) s.pose.position += out.shift;
  for (Character& c : bf.characters)
    if (c.joined_unit == id) {
      c.pose.position += out.shift;
      out.characters.push_back(c.id);
    }
  return out;
}

std::string with_characters(const std::vector<std::string>& chars, const char* verb) {
  if (chars.empty()) return {};
  return fmt::format("; {} {} with it", fmt::join(chars, ", "), verb);
}

// One fighting stand: which enemy stand it fights, and on which edge.
struct Fight {
  std::size_t stand = 0;
  std::string target;
  bool front = true;
};

// The stand of `u` fights an enemy stand along its front edge if there is
// one; else one along its side or rear edge, at -1; else one it touches only
// at a corner, as to its front (docs/rulings.md#warmaster-combat-modifiers).
std::optional<Fight> fight_of(const Battlefield& bf, const Unit& u, std::size_t s, const std::vector<std::string>& group,
                              double tol) {
  const OrientedRect r = u.footprint(s);
  const auto own = edges(r);
  // More than a corner's touch: longer than the tolerance either side of it.
  const double along = 2 * tol + 0.01;
  std::optional<Fight> side_fight, corner_fight;
  for (const std::string& id : group) {
    const Unit* e = bf.find_unit(id);
    if (!e || e->side == u.side) continue;
    for (std::size_t k = 0; k < e->stands.size(); ++k) {
      const OrientedRect er = e->footprint(k);
      if (!touching(r, er, tol)) continue;
      if (edge_contact(own[0], er, tol) > along) return Fight{s, e->id, true};
      bool side = false;
      for (int i = 1; i < 4; ++i) side = side || edge_contact(own[static_cast<std::size_t>(i)], er, tol) > along;
      if (side && !side_fight) side_fight = Fight{s, e->id, false};
      if (!side && !corner_fight) corner_fight = Fight{s, e->id, true};
    }
  }
  return side_fight ? side_fight : corner_fight;
}

const CombatDecision* decision_of(const CombatOptions& o, const std::string& unit) {
  for (const CombatDecision& d : o.decisions)
    if (d.unit == unit) return &d;
  return nullptr;
}

// The connected group of units in contact, grown from `seeds` over enemy
// contacts, in battlefield order.
std::vector<Aabb> unit_boxes(const Battlefield& bf) {
  std::vector<Aabb> out;
  for (const Unit& u : bf.units) out.push_back(u.stands.empty() ? Aabb{{0, 0}, {0, 0}} : unit_box(u));
  return out;
}

std::vector<std::string> contact_group(const Battlefield& bf, const std::vector<std::string>& seeds, double tol) {
  const std::vector<Aabb> boxes = unit_boxes(bf);
  std::vector<char> in(bf.units.size(), 0);
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < bf.units.size(); ++i)
    if (std::find(seeds.begin(), seeds.end(), bf.units[i].id) != seeds.end()) {
      in[i] = 1;
      todo.push_back(i);
    }
  while (!todo.empty()) {
    const std::size_t i = todo.back();
    todo.pop_back();
    for (std::size_t k = 0; k < bf.units.size(); ++k)
      if (!in[k] && bf.units[k].side != bf.units[i].side && boxes[i].inflated(tol).overlaps(boxes[k]) &&
          units_touch(bf.units[i], bf.units[k], tol)) {
        in[k] = 1;
        todo.push_back(k);
      }
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < bf.units.size(); ++i)
    if (in[i]) out.push_back(bf.units[i].id);
  return out;
}

}  // namespace

const char* to_string(CombatChoice c) {
  switch (c) {
    case CombatChoice::Default: return "default";
    case CombatChoice::Pursue: return "pursue";
    case CombatChoice::Stand: return "stand";
    case CombatChoice::FallBack: return "fall_back";
    case CombatChoice::Advance: return "advance";
  }
  return "default";
}

std::optional<CombatChoice> combat_choice_from_string(const std::string& s) {
  for (CombatChoice c : {CombatChoice::Default, CombatChoice::Pursue, CombatChoice::Stand, CombatChoice::FallBack,
                         CombatChoice::Advance})
    if (s == to_string(c)) return c;
  return std::nullopt;
}

const char* to_string(CombatMoveKind k) {
  switch (k) {
    case CombatMoveKind::Retreat: return "retreat";
    case CombatMoveKind::FallBack: return "fall_back";
    case CombatMoveKind::Pursuit: return "pursuit";
    case CombatMoveKind::Advance: return "advance";
    case CombatMoveKind::Stand: return "stand";
    case CombatMoveKind::Destroyed: return "destroyed";
  }
  return "stand";
}

std::vector<CombatDecision> combat_decisions_from_json(const nlohmann::json& j, const Battlefield& bf,
                                                       const std::string& path) {
  JsonReader d(j, path);
  d.require_array();
  std::vector<std::string> names;
  for (CombatChoice c : {CombatChoice::Default, CombatChoice::Pursue, CombatChoice::Stand, CombatChoice::FallBack,
                         CombatChoice::Advance})
    names.push_back(to_string(c));
  std::vector<CombatDecision> out;
  for (JsonReader x : d.items()) {
    x.require_object();
    x.allow_only({"unit", "choice", "distance"});
    CombatDecision dec;
    dec.unit = x.string("unit");
    if (!bf.find_unit(dec.unit)) x.fail("unit", fmt::format("no unit \"{}\" on the battlefield", dec.unit));
    for (const CombatDecision& o : out)
      if (o.unit == dec.unit) x.fail("unit", "this unit already has a decision");
    dec.choice = *combat_choice_from_string(x.one_of_or("choice", names, "default"));
    if (x.has("distance")) dec.distance = x.number("distance", 0, 1000);
    out.push_back(std::move(dec));
  }
  return out;
}

nlohmann::json combat_decisions_to_json(const std::vector<CombatDecision>& decisions) {
  nlohmann::json d = nlohmann::json::array();
  for (const CombatDecision& x : decisions) {
    nlohmann::json e{{"unit", x.unit}, {"choice", to_string(x.choice)}};
    if (x.distance) e["distance"] = *x.distance;
    d.push_back(e);
  }
  return d;
}

CombatOptions combat_options_from_json(const nlohmann::json& j, const Battlefield& bf, const char* path) {
  JsonReader r(j, path ? path : "options");
  r.require_object();
  r.allow_only({"charged", "decisions", "max_rounds"});
  CombatOptions o;
  if (auto c = r.find("charged")) {
    c->require_array();
    for (const JsonReader& x : c->items()) {
      const std::string id = x.as_string();
      if (!bf.find_unit(id)) x.fail(fmt::format("no unit \"{}\" on the battlefield", id));
      if (std::find(o.charged.begin(), o.charged.end(), id) != o.charged.end()) x.fail("listed twice");
      o.charged.push_back(id);
    }
  }
  if (auto d = r.find("decisions")) o.decisions = combat_decisions_from_json(d->json(), bf, d->path());
  o.max_rounds = r.integer_or("max_rounds", o.max_rounds, 1, 100);
  return o;
}

void to_json(nlohmann::json& j, const CombatOptions& o) {
  j = {{"charged", o.charged}, {"decisions", combat_decisions_to_json(o.decisions)}, {"max_rounds", o.max_rounds}};
}

std::vector<Engagement> find_engagements(const Battlefield& bf, const Settings& settings) {
  // Components over enemy contacts, each pair of units tested once.
  const std::size_t n = bf.units.size();
  std::vector<std::size_t> root(n);
  for (std::size_t i = 0; i < n; ++i) root[i] = i;
  auto find = [&](std::size_t i) {
    while (root[i] != i) i = root[i] = root[root[i]];
    return i;
  };
  std::vector<char> engaged(n, 0);
  for (const auto& [i, k] : enemy_contacts(bf, settings.contact_tolerance)) {
    engaged[i] = engaged[k] = 1;
    root[find(i)] = find(k);
  }
  std::vector<Engagement> out;
  std::map<std::size_t, std::size_t> index;  // component root -> engagement
  for (std::size_t i = 0; i < n; ++i) {
    if (!engaged[i]) continue;
    auto [at, fresh] = index.try_emplace(find(i), out.size());
    if (fresh) out.emplace_back();
    out[at->second].units.push_back(bf.units[i].id);
  }
  return out;
}

namespace {

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

CombatMove Phase::fall_back(const std::string& id, const Contact& c, const CombatDecision* d, bool winner) {
  CombatMove m;
  m.unit = id;
  m.kind = CombatMoveKind::FallBack;
  m.from = c.enemy;
  int total = 0, lowest = 6;
  for (int k = 0; k < 3; ++k) {
    m.rolls.push_back(dice.d6(fmt::format("fall back: {}", id)));
    total += m.rolls.back();
    lowest = std::min(lowest, m.rolls.back());
  }
  m.distance = d && d->distance ? std::clamp(*d->distance, static_cast<double>(lowest), static_cast<double>(total))
                                : static_cast<double>(lowest);
  const Slide s = slide_unit(bf, id, c.away, m.distance, settings);
  m.moved = s.moved;
  m.blocked = s.blocked;
  m.characters = s.characters;
  std::string tail;
  if (s.left_table) {
    tail = leaves_table(id, m);
  } else if (s.blocked) {
    tail = fmt::format(", cut short after {} ({})", cm(s.moved), s.why);
  } else {
    tail = with_characters(s.characters, "moves");
  }
  rep.rulings.push_back(
      {winner ? kRuleFallBack : kRuleDraw,
       fmt::format("{} falls back {} away from {} (3D6: {}, at least the lowest die {}, at most {}){}", id,
                   cm(m.distance), c.enemy, fmt::join(m.rolls, "+"), lowest, total, tail),
       {{"lowest", static_cast<double>(lowest), "cm"},
        {"total", static_cast<double>(total), "cm"},
        {"distance", m.distance, "cm"},
        {"moved", m.moved, "cm"}}});
  return m;
}

void Phase::fight(int engagement, int round, const std::vector<std::string>& group, const PursuitBonus& pursuit,
                  std::map<std::string, int>& total_hits, std::map<std::string, int>& removed) {
  Round r = start_round(engagement, round, group);
  attacks_hits_and_saves(r, round, pursuit);
  count_support(r);
  remove_casualties(r, total_hits, removed);
  work_out_result(r);
  if (!r.cr.winner) {
    draw_both_fall_back(r);
    rep.rounds.push_back(std::move(r.cr));
    return;
  }
  const int w = *r.cr.winner;
  const Retreats back = losers_retreat(r);
  const std::vector<std::string> pursuers = winners_move(r, back);
  const PursuitBonus next = next_round_bonus(r.cr, back);
  rep.rounds.push_back(std::move(r.cr));
  if (pursuers.empty()) return;
  // Only pursuers that caught an enemy fight on.
  const std::vector<std::string> g = contact_group(bf, pursuers, tol());
  bool both = false;
  for (const std::string& id : g) both = both || bf.find_unit(id)->side != w;
  if (!both) return;
  if (round >= options.max_rounds) {
    rep.rulings.push_back({kRuleRound,
                           fmt::format("Engagement {} stops after {} rounds (the guard max_rounds)", engagement + 1,
                                       options.max_rounds),
                           {{"rounds", static_cast<double>(round), ""}}});
    return;
  }
  fight(engagement, round + 1, g, next, total_hits, removed);
}

// Who each unit fights, and the way directly away, at the start of the round.
Phase::Round Phase::start_round(int engagement, int round, const std::vector<std::string>& group) {
  Round r;
  r.cr.engagement = engagement;
  r.cr.round = round;
  r.group = in_order(group);
  r.cr.units = r.group;
  if (round > 1)
    rep.rulings.push_back({kRuleRound,
                           fmt::format("Round {} of engagement {}: the pursuers fight again: {}", round, engagement + 1,
                                       fmt::join(r.group, ", ")),
                           {{"round", static_cast<double>(round), ""}}});
  for (const std::string& id : r.group) {
    const Unit& u = *bf.find_unit(id);
    for (const std::string& e : r.group)
      if (bf.find_unit(e)->side != u.side && units_touch(u, *bf.find_unit(e), tol())) r.foes[id].push_back(e);
    if (auto c = contact_of(bf, u, r.foes[id], tol())) r.contact[id] = *c;
  }
  return r;
}

// 1. Attacks, hits and saves: each unit against each unit its stands fight.
void Phase::attacks_hits_and_saves(Round& r, int round, const PursuitBonus& pursuit) {
  for (const std::string& id : r.group) {
    const Unit& u = *bf.find_unit(id);
    std::string terror;  // a terrifying enemy it fights
    for (const std::string& e : r.foes[id])
      if (bf.find_unit(e)->terrifying) {
        terror = e;
        break;
      }
    std::vector<Fight> fights;
    for (std::size_t s = 0; s < u.stands.size(); ++s)
      if (auto f = fight_of(bf, u, s, r.group, tol())) {
        fights.push_back(*f);
        r.fighting[static_cast<std::size_t>(u.side)].push_back({u.footprint(s), u.stands[s].pose.facing_deg});
      }
    // docs/rulings.md#warmaster-combat-characters: the joined characters'
    // bonus goes to a stand fighting the enemy unit most of its stands fight
    // (the first of the engagement's units among equals).
    std::string bonus_to;
    std::size_t most = 0;
    for (const std::string& tid : r.group) {
      const auto n = static_cast<std::size_t>(
          std::count_if(fights.begin(), fights.end(), [&](const Fight& f) { return f.target == tid; }));
      if (n > most) {
        most = n;
        bonus_to = tid;
      }
    }
    for (const std::string& tid : r.group) {
      const Unit* t = bf.find_unit(tid);
      if (!t || t->side == u.side) continue;
      std::optional<CombatAttack> a = attack_dice(u, *t, fights, round, pursuit, terror, tid == bonus_to);
      if (!a) continue;
      roll_hits_and_saves(*a);
      rule_on_attack(u, *a);
      r.unsaved[tid] += a->unsaved;
      r.cr.sides[static_cast<std::size_t>(u.side)].hits += a->unsaved;
      r.cr.attacks.push_back(std::move(*a));
    }
  }
}

// The dice unit `u` rolls at `t`: its Attacks for each stand that fights `t`,
// with the play sheet's modifiers; none when no stand of `u` fights `t`.
std::optional<CombatAttack> Phase::attack_dice(const Unit& u, const Unit& t, const std::vector<Fight>& fights,
                                               int round, const PursuitBonus& pursuit, const std::string& terror,
                                               bool with_characters) const {
  CombatAttack a;
  a.attacker = u.id;
  a.target = t.id;
  a.position = position_of(bf, t, settings).position;
  a.needed = to_hit(a.position);
  a.armour = t.armour;
  auto add = [&](const std::string& name, int v) {
    auto m = std::find_if(a.modifiers.begin(), a.modifiers.end(),
                          [&](const AttackModifier& x) { return x.name == name; });
    if (m == a.modifiers.end()) m = a.modifiers.insert(a.modifiers.end(), AttackModifier{name, v, 0, {}});
    ++m->stands;
    return v;
  };
  for (const Fight& f : fights) {
    if (f.target != t.id) continue;
    ++a.stands;
    int n = u.attacks;
    if (round == 1 && charged(u.id) && a.position == Position::Open) {
      n += add("charging an enemy in the open", 1);
      if (u.type == TroopType::Monster || u.type == TroopType::Chariot)
        n += add("monster or chariot charging an enemy in the open", 1);
    }
    if (auto p = pursuit.find(u.id); p != pursuit.end()) {
      n += add("pursuit attack", 1);
      if (p->second.first > 0)
        n += add(fmt::format("extra pursuit attacks ({} full 3 cm of {} retreated)", p->second.first,
                             cm(p->second.second)),
                 p->second.first);
    }
    if (!terror.empty()) n += add(fmt::format("fighting a terrifying enemy ({})", terror), -1);
    if (!f.front) n += add("fighting to the side or rear", -1);
    if (u.confused) n += add("confused", -1);
    a.dice += std::max(0, n);
  }
  if (a.stands == 0) return std::nullopt;
  if (with_characters) add_character_bonus(u, a);
  return a;
}

// "Characters add their Attacks value as a bonus to any stand in the unit
// they are with": a flat bonus to one stand, which no other modifier changes
// (docs/rulings.md#warmaster-combat-characters).
void Phase::add_character_bonus(const Unit& u, CombatAttack& a) const {
  for (const Character& c : bf.characters) {
    if (c.joined_unit != u.id || c.attacks == 0) continue;
    a.dice += c.attacks;
    a.modifiers.push_back(AttackModifier{c.name, c.attacks, 1, c.id});
  }
}

// To hit on the target's position, then the target's armour saves each hit.
void Phase::roll_hits_and_saves(CombatAttack& a) {
  for (int k = 0; k < a.dice; ++k) {
    a.to_hit.push_back(dice.d6(fmt::format("combat to hit: {} at {}", a.attacker, a.target)));
    a.hits += a.to_hit.back() >= a.needed;
  }
  a.unsaved = a.hits;
  if (a.armour > 0)
    for (int k = 0; k < a.hits; ++k) {
      a.saves.push_back(dice.d6(fmt::format("armour save: {}", a.target)));
      a.unsaved -= a.saves.back() >= a.armour;
    }
}

void Phase::rule_on_attack(const Unit& u, const CombatAttack& a) {
  std::vector<std::string> mod_words;
  int total_mod = 0;
  for (const AttackModifier& m : a.modifiers) {
    mod_words.push_back(m.character.empty()
                            ? fmt::format("{:+d} {} ({})", m.value, m.name, plural(m.stands, "stand", "stands"))
                            : fmt::format("{} {:+d}, joined to it", m.name, m.value));
    total_mod += m.value * m.stands;
  }
  rep.rulings.push_back(
      {kRuleAttacks,
       fmt::format("{}: {} (Attacks {}) {} {}: {}{}", a.attacker, plural(a.stands, "stand", "stands"), u.attacks,
                   a.stands == 1 ? "fights" : "fight", a.target, plural(a.dice, "die", "dice"),
                   mod_words.empty() ? std::string(" (no modifier)") : fmt::format(" ({})", fmt::join(mod_words, "; "))),
       {{"stands", static_cast<double>(a.stands), ""},
        {"dice", static_cast<double>(a.dice), ""},
        {"modifiers", static_cast<double>(total_mod), ""}}});
  rep.rulings.push_back(
      {kRuleHits,
       fmt::format("{} rolls {} at {} ({}, hits on {}+): {}; {}", a.attacker, plural(a.dice, "die", "dice"), a.target,
                   to_string(a.position), a.needed, plural(a.hits, "hit", "hits"),
                   a.armour > 0 ? fmt::format("{} saved on {}+, {} unsaved", a.hits - a.unsaved, a.armour, a.unsaved)
                                : fmt::format("no armour save, {} unsaved", a.unsaved)),
       {{"dice", static_cast<double>(a.dice), ""},
        {"needed", static_cast<double>(a.needed), ""},
        {"hits", static_cast<double>(a.hits), ""},
        {"unsaved", static_cast<double>(a.unsaved), ""}}});
}

// 2. Support, from where the stands stood when they fought.
void Phase::count_support(Round& r) {
  for (int s = 0; s < 2; ++s) {
    CombatSideResult& side = r.cr.sides[static_cast<std::size_t>(s)];
    side.side = s;
    for (const std::string& id : r.group)
      if (bf.find_unit(id)->side == s) side.units.push_back(id);
    side.supporting = support(s, r.fighting[static_cast<std::size_t>(s)]);
    side.support = static_cast<int>(side.supporting.size());
    side.result = side.hits + side.support;
    if (side.support > 0)
      rep.rulings.push_back({kRuleSupport,
                             fmt::format("Side {} has {} behind its fighting stands: {}", s,
                                         plural(side.support, "supporting stand", "supporting stands"),
                                         fmt::join(side.supporting, ", ")),
                             {{"support", static_cast<double>(side.support), ""}}});
  }
}

// 3. Casualties: a stand per full Hits value over the engagement, those in
//    contact with the enemy first (docs/rulings.md#warmaster-combat-casualties).
void Phase::remove_casualties(Round& r, std::map<std::string, int>& total_hits, std::map<std::string, int>& removed) {
  std::set<std::string> destroyed;
  for (const std::string& id : r.group) {
    if (r.unsaved[id] == 0) continue;
    Unit& u = *bf.find_unit(id);
    CombatCasualties c;
    c.unit = id;
    c.unsaved = r.unsaved[id];
    total_hits[id] += c.unsaved;
    const int per = u.hits > 0 ? u.hits : 1;
    c.stands_removed = std::min(static_cast<int>(u.stands.size()), total_hits[id] / per - removed[id]);
    removed[id] += c.stands_removed;
    remove_stands(bf, u, c.stands_removed, r.foes[id], tol());
    u.stands_lost += c.stands_removed;
    c.destroyed = u.stands.empty();
    rep.rulings.push_back(
        {kRuleCasualties,
         fmt::format("{} suffers {} this round ({} in the combat): {} removed ({} per stand){}", id,
                     plural(c.unsaved, "unsaved hit", "unsaved hits"), total_hits[id],
                     plural(c.stands_removed, "stand", "stands"), plural(per, "hit", "hits"),
                     c.destroyed ? ", the unit is destroyed" : ""),
         {{"unsaved", static_cast<double>(c.unsaved), ""},
          {"stands_removed", static_cast<double>(c.stands_removed), ""}}});
    r.cr.casualties.push_back(c);
    if (c.destroyed) destroyed.insert(id);
  }
  for (const std::string& id : destroyed) slay_with(id, remove_unit_and_characters(bf, id));
}

// 4. The result: hits and support, unless a side is destroyed.
void Phase::work_out_result(Round& r) {
  CombatRound& cr = r.cr;
  for (const std::string& id : r.group)
    if (const Unit* u = bf.find_unit(id)) r.alive[static_cast<std::size_t>(u->side)].push_back(id);
  const int r0 = cr.sides[0].result, r1 = cr.sides[1].result;
  std::string how;
  if (r.alive[0].empty() && r.alive[1].empty()) {
    how = "both sides are destroyed";
  } else if (r.alive[0].empty() || r.alive[1].empty()) {
    cr.winner = r.alive[0].empty() ? 1 : 0;
    how = fmt::format("side {} is destroyed: side {} wins", 1 - *cr.winner, *cr.winner);
  } else if (r0 != r1) {
    cr.winner = r0 > r1 ? 0 : 1;
    how = fmt::format("side {} wins by {}", *cr.winner, std::abs(r0 - r1));
  } else {
    how = "a draw";
  }
  cr.difference = cr.winner ? std::max(0, cr.sides[static_cast<std::size_t>(*cr.winner)].result -
                                              cr.sides[static_cast<std::size_t>(1 - *cr.winner)].result)
                            : 0;
  rep.rulings.push_back(
      {kRuleResult,
       fmt::format("Combat result: side 0 {} ({} + {} support), side 1 {} ({} + {} support): {}", r0, cr.sides[0].hits,
                   cr.sides[0].support, r1, cr.sides[1].hits, cr.sides[1].support, how),
       {{"side_0", static_cast<double>(r0), ""},
        {"side_1", static_cast<double>(r1), ""},
        {"difference", static_cast<double>(cr.difference), ""}}});
}

// 5. A draw: both sides fall back; defended or fortified units may stand.
void Phase::draw_both_fall_back(Round& r) {
  if (r.alive[0].empty() || r.alive[1].empty()) return;
  for (const std::string& id : r.group) {
    if (!bf.find_unit(id) || !r.contact.count(id)) continue;
    const CombatDecision* d = decision_of(options, id);
    const CombatChoice choice = d ? d->choice : CombatChoice::Default;
    const PositionAnswer pos = position_of(bf, *bf.find_unit(id), settings);
    const bool may_stand = pos.position != Position::Open;
    // "Both sides fall back ... A defended or fortified unit can stand its
    // ground instead": after a draw nobody pursues or advances, and only a
    // defended or fortified unit stands. Any other choice is refused, said
    // so in a ruling, and the default (fall back by the lowest die, or stand
    // when it may) takes its place (docs/rulings.md#warmaster-combat-decisions).
    if (choice == CombatChoice::Pursue || choice == CombatChoice::Advance ||
        (choice == CombatChoice::Stand && !may_stand)) {
      const std::string what = may_stand ? "it stands its ground" : "it falls back";
      rep.rulings.push_back(
          {kRuleDraw,
           choice == CombatChoice::Stand
               ? fmt::format("{} is in the open: after a draw only a defended or fortified unit may stand its "
                             "ground; {}",
                             id, what)
               : fmt::format("{} may not {} after a draw (\"Both sides fall back\"); {}", id,
                             choice == CombatChoice::Pursue ? "pursue" : "advance", what),
           {}});
    }
    if (may_stand && choice != CombatChoice::FallBack) {
      CombatMove m;
      m.unit = id;
      m.kind = CombatMoveKind::Stand;
      rep.rulings.push_back({kRuleDraw, fmt::format("{} stands its ground after the draw: {}", id, pos.reason), {}});
      r.cr.moves.push_back(m);
      continue;
    }
    // The decision's distance is the fall back its player asked for, so it
    // counts only when the choice was to fall back; a refused choice falls
    // back by the lowest die, as the default does.
    r.cr.moves.push_back(fall_back(id, r.contact[id], choice == CombatChoice::FallBack ? d : nullptr, false));
  }
}

// 5. The losers retreat the difference, split among them, rounded up.
Phase::Retreats Phase::losers_retreat(Round& r) {
  Retreats out;
  const std::vector<std::string>& losers = r.alive[static_cast<std::size_t>(1 - *r.cr.winner)];
  const int n = static_cast<int>(losers.size());
  const int each = losers.empty() ? 0 : (r.cr.difference + n - 1) / n;
  for (const std::string& id : losers) r.cr.moves.push_back(retreat_one(r, id, each, losers.size(), out));
  return out;
}

CombatMove Phase::retreat_one(Round& r, const std::string& id, int each, std::size_t losers, Retreats& out) {
  CombatMove m;
  m.unit = id;
  m.kind = CombatMoveKind::Retreat;
  m.distance = each;
  const Contact c = r.contact.count(id) ? r.contact[id] : Contact{};
  m.from = c.enemy;
  const Unit& u = *bf.find_unit(id);
  if (u.type == TroopType::Artillery) {
    artillery_destroyed_retreating(m, each);
    out.gone.insert(id);
    return m;
  }
  const Slide s = slide_unit(bf, id, c.away, each, settings);
  m.moved = s.moved;
  m.blocked = s.blocked;
  m.characters = s.characters;
  const std::string split =
      losers > 1 ? fmt::format(" (a difference of {} split among {} units, rounded up)", r.cr.difference, losers)
                 : std::string();
  if (s.left_table) {
    retreat_off_table(u, m, each, split);
    out.gone.insert(id);
    return m;
  }
  out.shift[id] = s.shift;
  out.retreated[id] = s.moved;
  rep.rulings.push_back(
      {kRuleRetreat,
       fmt::format("{} retreats {} directly away from {}{}{}", id, cm(each), c.enemy,
                   losers > 1 ? split : std::string(" (the difference in results)"),
                   s.blocked ? fmt::format(", but only {} before it is blocked ({})", cm(s.moved), s.why)
                             : with_characters(s.characters, "moves")),
       {{"retreat", static_cast<double>(each), "cm"}, {"moved", s.moved, "cm"}}});
  if (s.blocked) lose_stands_for_blocked_retreat(r, m, each - s.moved, out);
  return m;
}

// "Artillery ... are destroyed if they retreat".
void Phase::artillery_destroyed_retreating(CombatMove& m, int each) {
  m.kind = CombatMoveKind::Destroyed;
  m.destroyed = true;
  m.characters = remove_unit_and_characters(bf, m.unit);
  rep.rulings.push_back({kRuleArtillery,
                         fmt::format("{} is artillery and must retreat {}: \"Artillery ... are destroyed if "
                                     "they retreat\"",
                                     m.unit, cm(each)),
                         {{"retreat", static_cast<double>(each), "cm"}}});
  slay_with(m.unit, m.characters);
}

// A unit that leaves the table retreating from combat is destroyed, and its
// characters with it; it rolls on the off-table chart first.
void Phase::retreat_off_table(const Unit& u, CombatMove& m, int each, const std::string& split) {
  m.left_table = true;
  m.destroyed = true;
  m.off_table = resolve_off_table(u, dice, true);
  rep.rulings.push_back(m.off_table->ruling);
  m.characters = remove_unit_and_characters(bf, m.unit);
  rep.rulings.push_back(
      {kRuleRetreat,
       fmt::format("{} retreats {} away from {}{} over the table edge: a unit that leaves the table retreating "
                   "from combat is destroyed{}",
                   m.unit, cm(each), m.from, split,
                   m.characters.empty() ? std::string()
                                        : fmt::format("; {} suffers the same fate", fmt::join(m.characters, ", "))),
       {{"retreat", static_cast<double>(each), "cm"}}});
}

// docs/rulings.md#warmaster-combat-blocked-retreat
void Phase::lose_stands_for_blocked_retreat(Round& r, CombatMove& m, double short_by, Retreats& out) {
  Unit& mu = *bf.find_unit(m.unit);
  const int lost = std::min(static_cast<int>(mu.stands.size()),
                            static_cast<int>(std::ceil(short_by / settings.blocked_retreat_cm_per_stand - 1e-9)));
  m.stands_lost = lost;
  remove_stands(bf, mu, lost, r.foes[m.unit], tol());
  mu.stands_lost += lost;
  m.destroyed = mu.stands.empty();
  rep.rulings.push_back(
      {kRuleBlockedRetreat,
       fmt::format("{} cannot retreat the last {}: it loses {} (one per {} or part of it that it could not "
                   "retreat){}",
                   m.unit, cm(short_by), plural(lost, "stand", "stands"), cm(settings.blocked_retreat_cm_per_stand),
                   m.destroyed ? ", and is destroyed" : ""),
       {{"short_by", short_by, "cm"},
        {"per_stand", settings.blocked_retreat_cm_per_stand, "cm"},
        {"stands_lost", static_cast<double>(lost), ""}}});
  if (m.destroyed) {
    m.characters = remove_unit_and_characters(bf, m.unit);
    slay_with(m.unit, m.characters);
    out.gone.insert(m.unit);
  }
}

// 5. The winners: pursue, stand, fall back or advance. Returns the pursuers
// still on the table.
std::vector<std::string> Phase::winners_move(Round& r, const Retreats& back) {
  std::vector<std::string> pursuers;
  for (const std::string& id : r.alive[static_cast<std::size_t>(*r.cr.winner)]) {
    const Unit* wu = bf.find_unit(id);
    if (!wu || !r.contact.count(id)) continue;
    const CombatDecision* d = decision_of(options, id);
    const CombatChoice choice = d ? d->choice : CombatChoice::Default;
    std::vector<std::string> left;  // foes still on the table
    for (const std::string& e : r.foes[id])
      if (bf.find_unit(e) && !back.gone.count(e)) left.push_back(e);
    if (choice == CombatChoice::FallBack) {
      r.cr.moves.push_back(fall_back(id, r.contact[id], d, true));
      continue;
    }
    if (left.empty() && choice == CombatChoice::Advance) {
      r.cr.moves.push_back(advance_after_destroying(*wu, r.contact[id], d));
      continue;
    }
    if (left.empty() || choice == CombatChoice::Stand || choice == CombatChoice::Advance) {
      r.cr.moves.push_back(stand_ground(id, left.empty(), choice));
      continue;
    }
    std::string refusal;
    const std::string target = pursuit_target(*wu, left, refusal);
    if (target.empty()) {
      CombatMove m;
      m.unit = id;
      m.kind = CombatMoveKind::Stand;
      rep.rulings.push_back({kRulePursuitRefused, refusal + "; it stands its ground", {}});
      r.cr.moves.push_back(m);
      continue;
    }
    CombatMove m = pursue(id, target, back);
    if (!m.left_table) pursuers.push_back(id);
    r.cr.moves.push_back(std::move(m));
  }
  return pursuers;
}

// docs/rulings.md#warmaster-combat-decisions: straight ahead, up to its full pace.
CombatMove Phase::advance_after_destroying(const Unit& wu, const Contact& c, const CombatDecision* d) {
  CombatMove m;
  m.unit = wu.id;
  const double pace = full_pace(wu);
  m.kind = CombatMoveKind::Advance;
  m.from = c.enemy;
  m.distance = d && d->distance ? std::min(*d->distance, pace) : pace;
  const Vec2 ahead = Rot::from_degrees(wu.stands[0].pose.facing_deg).forward();
  const std::string id = wu.id;  // `wu` moves with the slide
  const Slide s = slide_unit(bf, id, ahead, m.distance, settings);
  m.moved = s.moved;
  m.blocked = s.blocked;
  m.characters = s.characters;
  std::string tail = s.blocked ? fmt::format(", stopping after {} ({})", cm(s.moved), s.why)
                               : with_characters(s.characters, "moves");
  if (s.left_table) tail = leaves_table(id, m);
  rep.rulings.push_back({kRuleAdvance,
                         fmt::format("{} advances {} straight ahead, its enemy destroyed{}", id, cm(m.distance), tail),
                         {{"distance", m.distance, "cm"}, {"moved", m.moved, "cm"}}});
  return m;
}

CombatMove Phase::stand_ground(const std::string& id, bool none_left, CombatChoice choice) {
  CombatMove m;
  m.unit = id;
  m.kind = CombatMoveKind::Stand;
  rep.rulings.push_back({kRuleStand,
                         fmt::format("{} stands its ground{}", id,
                                     none_left                             ? " (no enemy it fought is left to pursue)"
                                     : choice == CombatChoice::Advance ? " (it may advance only when the enemy was destroyed)"
                                                                       : ""),
                         {}});
  return m;
}

// The first foe in `left` the rules let `wu` pursue (docs/rulings.md#warmaster-combat-pursuit);
// none, with the first refusal in `refusal`, when it may pursue none.
std::string Phase::pursuit_target(const Unit& wu, const std::vector<std::string>& left, std::string& refusal) const {
  const Position own = position_of(bf, wu, settings).position;
  for (const std::string& e : left) {
    const std::string why = pursuit_refusal(wu, own, *bf.find_unit(e));
    if (why.empty()) return e;
    if (refusal.empty()) refusal = fmt::format("{} may not pursue {}: {}", wu.id, e, why);
  }
  return {};
}

// Why `wu` may not pursue `eu`, or nothing when it may.
std::string Phase::pursuit_refusal(const Unit& wu, Position own, const Unit& eu) const {
  if (wu.type == TroopType::Artillery) return "artillery never pursue";
  if (own == Position::Fortified) return "fortified units never pursue";
  if (wu.type == TroopType::Infantry && (eu.type == TroopType::Cavalry || eu.type == TroopType::Chariot))
    return fmt::format("infantry cannot pursue {}", to_string(eu.type));
  if (eu.type == TroopType::Flyer && wu.type != TroopType::Flyer) return "non-flying units cannot pursue flyers";
  for (std::size_t s = 0; s < eu.stands.size(); ++s) {
    const OrientedRect r = eu.footprint(s);
    for (const TerrainFeature& f : bf.terrain) {
      const bool ok = wu.type == TroopType::Flyer ? flyer_may_end_in(f.kind, settings)
                                                  : may_enter(wu.type, f.kind, settings);
      if (ok || !r.bounds().overlaps(f.bounds)) continue;
      for (const Polygon& p : f.pieces)
        if (p.points.size() >= 3 && overlaps(r, p, settings.contact_tolerance))
          return fmt::format("{} retreated into {} ({}), which {} cannot enter", eu.id, f.id, to_string(f.kind),
                             to_string(wu.type));
    }
  }
  return {};
}

// The pursuer follows its enemy's retreat: +1 attack per stand next round, and
// one more for each full 3 cm the enemy retreated.
CombatMove Phase::pursue(const std::string& id, const std::string& target, const Retreats& back) {
  CombatMove m;
  m.unit = id;
  m.kind = CombatMoveKind::Pursuit;
  m.from = target;
  const auto shift = back.shift.find(target);
  const Vec2 v = shift != back.shift.end() ? shift->second : Vec2{0, 0};
  m.distance = length(v);
  const Slide s = slide_unit(bf, id, v / std::max(m.distance, 1e-12), m.distance, settings);
  m.moved = s.moved;
  m.blocked = s.blocked;
  m.characters = s.characters;
  const auto retreated = back.retreated.find(target);
  const double cm_back = retreated != back.retreated.end() ? retreated->second : 0.0;
  const int extra = static_cast<int>(std::floor(cm_back / 3.0 + 1e-9));
  std::string tail = s.blocked ? fmt::format(", stopping after {} ({})", cm(s.moved), s.why)
                               : with_characters(s.characters, "moves");
  if (s.left_table) tail = leaves_table(id, m);
  rep.rulings.push_back(
      {kRulePursuit,
       fmt::format("{} pursues {}, following its retreat of {}{}: +1 attack per stand, +{} more ({} full 3 cm)", id,
                   target, cm(cm_back), tail, extra, extra),
       {{"retreated", cm_back, "cm"}, {"moved", m.moved, "cm"}, {"extra_attacks", static_cast<double>(extra), ""}}});
  return m;
}

// The pursuit bonus of each pursuer on the table, for the next round.
Phase::PursuitBonus Phase::next_round_bonus(const CombatRound& cr, const Retreats& back) {
  PursuitBonus next;
  for (const CombatMove& m : cr.moves)
    if (m.kind == CombatMoveKind::Pursuit && !m.left_table) {
      const auto retreated = back.retreated.find(m.from);
      const double cm_back = retreated != back.retreated.end() ? retreated->second : 0.0;
      next[m.unit] = {static_cast<int>(std::floor(cm_back / 3.0 + 1e-9)), cm_back};
    }
  return next;
}

void Phase::run() {
  // Moves out of combat are checked with no unit held by its own engaged
  // stands; engagement is worked out again at the end.
  for (Unit& u : bf.units) u.engaged = false;
  rep.engagements = find_engagements(bf, settings);
  // The side whose turn it is first (docs/rulings.md#warmaster-combat-engagements).
  std::stable_sort(rep.engagements.begin(), rep.engagements.end(), [&](const Engagement& a, const Engagement& b) {
    auto has_first = [&](const Engagement& e) {
      for (const std::string& id : e.units)
        if (bf.find_unit(id)->side == first_side) return true;
      return false;
    };
    return has_first(a) && !has_first(b);
  });
  for (std::size_t i = 0; i < rep.engagements.size(); ++i) {
    const Engagement& e = rep.engagements[i];
    rep.rulings.push_back({kRuleEngagement,
                           fmt::format("Engagement {}: {} in contact: {}", i + 1,
                                       plural(static_cast<int>(e.units.size()), "unit", "units"),
                                       fmt::join(e.units, ", ")),
                           {{"units", static_cast<double>(e.units.size()), ""}}});
  }
  for (std::size_t i = 0; i < rep.engagements.size(); ++i) {
    std::vector<std::string> seeds;
    for (const std::string& id : rep.engagements[i].units)
      if (bf.find_unit(id)) seeds.push_back(id);
    const std::vector<std::string> g = contact_group(bf, seeds, tol());
    bool sides[2] = {false, false};
    for (const std::string& id : g) sides[bf.find_unit(id)->side] = true;
    if (!sides[0] || !sides[1]) continue;  // an earlier engagement's moves broke it up
    std::map<std::string, int> total_hits, removed;
    fight(static_cast<int>(i), 1, g, {}, total_hits, removed);
  }
  // Engaged ends when contact ends (docs/rulings.md#warmaster-engaged).
  mark_engaged(bf, tol());
}

}  // namespace

CombatReport resolve_combat(const Battlefield& bf, int side, Dice& dice, const CombatOptions& options,
                            const Settings& settings) {
  if (side != 0 && side != 1) throw InputError("side", "must be 0 or 1");
  for (const std::string& id : options.charged)
    if (!bf.find_unit(id)) throw InputError("options.charged", fmt::format("no unit \"{}\" on the battlefield", id));
  for (const CombatDecision& d : options.decisions)
    if (!bf.find_unit(d.unit))
      throw InputError("options.decisions", fmt::format("no unit \"{}\" on the battlefield", d.unit));
  if (options.max_rounds < 1) throw InputError("options.max_rounds", "must be 1 or more");
  CombatReport rep;
  rep.after = bf;
  Phase p{settings, options, dice, side, rep, rep.after};
  p.run();
  return rep;
}

// --- Odds ---------------------------------------------------------------------

namespace {

struct Binomial {
  std::int64_t a = 0;  // per die, out of 36: an unsaved hit
  std::vector<double> p;
  std::vector<std::int64_t> ways;  // over 36^n, when exact
};

Binomial binomial(int n, int needed, int armour, bool exact) {
  Binomial b;
  b.a = (7 - needed) * (armour > 0 ? armour - 1 : 6);
  const double q = static_cast<double>(b.a) / 36.0;
  double c = 1;
  for (int k = 0; k <= n; ++k) {
    if (k > 0) c = c * (n - k + 1) / k;
    b.p.push_back(c * std::pow(q, k) * std::pow(1 - q, n - k));
    if (exact) {
      std::int64_t w = static_cast<std::int64_t>(std::llround(c));
      for (int i = 0; i < k; ++i) w *= b.a;
      for (int i = 0; i < n - k; ++i) w *= 36 - b.a;
      b.ways.push_back(w);
    }
  }
  return b;
}

std::int64_t pow36(int n) {
  std::int64_t t = 1;
  for (int k = 0; k < n; ++k) t *= 36;
  return t;
}

}  // namespace

CombatOdds combat_odds(const CombatOddsRequest& r) {
  for (const auto& [side, name] : {std::pair{&r.a, "a"}, std::pair{&r.b, "b"}}) {
    if (side->dice < 0 || side->dice > 60) throw InputError(fmt::format("{}.dice", name), "must be from 0 to 60");
    if (side->armour < 0 || side->armour > 6)
      throw InputError(fmt::format("{}.armour", name), "must be from 0 (no save) to 6");
    if (side->support < 0 || side->support > 100) throw InputError(fmt::format("{}.support", name), "must be from 0 to 100");
  }
  CombatOdds o;
  o.request = r;
  const bool exact = r.a.dice + r.b.dice <= 12;  // 36^12 < 2^63
  // a rolls against b's position and armour, and b against a's.
  o.needed = {to_hit(r.b.position), to_hit(r.a.position)};
  const Binomial ba = binomial(r.a.dice, o.needed[0], r.b.armour, exact);
  const Binomial bb = binomial(r.b.dice, o.needed[1], r.a.armour, exact);
  o.p_unsaved = {static_cast<double>(ba.a) / 36, static_cast<double>(bb.a) / 36};
  for (int s = 0; s < 2; ++s) {
    const Binomial& b = s == 0 ? ba : bb;
    const int n = s == 0 ? r.a.dice : r.b.dice;
    for (std::size_t k = 0; k < b.p.size(); ++k) {
      CombatOddsRow row;
      row.hits = static_cast<int>(k);
      row.chance = b.p[k];
      if (exact) {
        row.fraction = fmt::format("{}/{}", b.ways[k], pow36(n));
        row.chance = static_cast<double>(b.ways[k]) / static_cast<double>(pow36(n));
      }
      o.rows[static_cast<std::size_t>(s)].push_back(row);
    }
  }
  std::map<int, std::pair<double, std::int64_t>> diff;
  for (std::size_t i = 0; i < ba.p.size(); ++i)
    for (std::size_t k = 0; k < bb.p.size(); ++k) {
      const int d = static_cast<int>(i) + r.a.support - static_cast<int>(k) - r.b.support;
      auto& cell = diff[d];
      cell.first += ba.p[i] * bb.p[k];
      if (exact) cell.second += ba.ways[i] * bb.ways[k];
    }
  const std::int64_t all = exact ? pow36(r.a.dice + r.b.dice) : 0;
  std::int64_t wa = 0, wd = 0, wb = 0;
  for (const auto& [d, cell] : diff) {
    CombatOddsDifference x;
    x.difference = d;
    x.chance = exact ? static_cast<double>(cell.second) / static_cast<double>(all) : cell.first;
    if (exact) x.fraction = fmt::format("{}/{}", cell.second, all);
    (d > 0 ? o.a_wins : d < 0 ? o.b_wins : o.draw) += x.chance;
    (d > 0 ? wa : d < 0 ? wb : wd) += cell.second;
    o.mean_difference += d * x.chance;
    o.differences.push_back(x);
  }
  if (exact) {
    o.a_wins_fraction = fmt::format("{}/{}", wa, all);
    o.draw_fraction = fmt::format("{}/{}", wd, all);
    o.b_wins_fraction = fmt::format("{}/{}", wb, all);
    o.a_wins = static_cast<double>(wa) / static_cast<double>(all);
    o.draw = static_cast<double>(wd) / static_cast<double>(all);
    o.b_wins = static_cast<double>(wb) / static_cast<double>(all);
  }
  return o;
}

// --- Answers -----------------------------------------------------------------

void to_json(nlohmann::json& j, const AttackModifier& m) {
  j = {{"name", m.name}, {"value", m.value}, {"stands", m.stands}};
  if (!m.character.empty()) j["character"] = m.character;
}

void to_json(nlohmann::json& j, const CombatReport& r) {
  using nlohmann::json;
  json engagements = json::array();
  for (const Engagement& e : r.engagements) engagements.push_back({{"units", e.units}});
  json rounds = json::array();
  for (const CombatRound& cr : r.rounds) {
    json attacks = json::array();
    for (const CombatAttack& a : cr.attacks) {
      json mods = json::array();
      for (const AttackModifier& m : a.modifiers) mods.push_back(m);
      attacks.push_back({{"attacker", a.attacker}, {"target", a.target}, {"stands", a.stands}, {"dice", a.dice},
                         {"modifiers", mods}, {"position", to_string(a.position)}, {"needed", a.needed},
                         {"to_hit", a.to_hit}, {"hits", a.hits}, {"armour", a.armour}, {"saves", a.saves},
                         {"unsaved", a.unsaved}});
    }
    json sides = json::array();
    for (const CombatSideResult& s : cr.sides)
      sides.push_back({{"side", s.side}, {"units", s.units}, {"hits", s.hits}, {"support", s.support},
                       {"supporting", s.supporting}, {"result", s.result}});
    json cas = json::array();
    for (const CombatCasualties& c : cr.casualties)
      cas.push_back({{"unit", c.unit}, {"unsaved", c.unsaved}, {"stands_removed", c.stands_removed},
                     {"destroyed", c.destroyed}});
    json moves = json::array();
    for (const CombatMove& m : cr.moves) {
      json x{{"unit", m.unit},
             {"kind", to_string(m.kind)},
             {"from", m.from},
             {"rolls", m.rolls},
             {"distance", m.distance},
             {"moved", std::round(m.moved * 1000) / 1000},
             {"blocked", m.blocked},
             {"stands_lost", m.stands_lost},
             {"destroyed", m.destroyed},
             {"left_table", m.left_table},
             {"characters", m.characters}};
      if (m.off_table)
        x["off_table"] = {{"outcome", to_string(m.off_table->outcome)},
                          {"roll", m.off_table->roll},
                          {"modified", m.off_table->modified},
                          {"reason", m.off_table->ruling.reason}};
      moves.push_back(x);
    }
    rounds.push_back({{"engagement", cr.engagement},
                      {"round", cr.round},
                      {"units", cr.units},
                      {"attacks", attacks},
                      {"sides", sides},
                      {"winner", cr.winner ? json(*cr.winner) : json(nullptr)},
                      {"difference", cr.difference},
                      {"casualties", cas},
                      {"moves", moves}});
  }
  json rulings = json::array();
  for (const Ruling& x : r.rulings) rulings.push_back(x);
  j = {{"engagements", engagements}, {"rounds", rounds}, {"rulings", rulings}};
  if (!r.slain.empty()) j["slain"] = r.slain;
}

void to_json(nlohmann::json& j, const CombatOdds& o) {
  using nlohmann::json;
  auto side = [&](int s) {
    const CombatOddsSide& x = s == 0 ? o.request.a : o.request.b;
    json rows = json::array();
    for (const CombatOddsRow& r : o.rows[static_cast<std::size_t>(s)]) {
      json e{{"hits", r.hits}, {"chance", r.chance}};
      if (!r.fraction.empty()) e["fraction"] = r.fraction;
      rows.push_back(e);
    }
    return json{{"dice", x.dice},
                {"position", to_string(x.position)},
                {"armour", x.armour},
                {"support", x.support},
                {"needed_to_hit_enemy", o.needed[static_cast<std::size_t>(s)]},
                {"p_unsaved_per_die", o.p_unsaved[static_cast<std::size_t>(s)]},
                {"hits_inflicted", rows}};
  };
  json diffs = json::array();
  for (const CombatOddsDifference& d : o.differences) {
    json e{{"difference", d.difference}, {"chance", d.chance}};
    if (!d.fraction.empty()) e["fraction"] = d.fraction;
    diffs.push_back(e);
  }
  j = {{"rule", kRuleResult}, {"a", side(0)}, {"b", side(1)}, {"differences", diffs},
       {"a_wins", o.a_wins},  {"draw", o.draw}, {"b_wins", o.b_wins}, {"mean_difference", o.mean_difference}};
  if (!o.a_wins_fraction.empty()) {
    j["a_wins_fraction"] = o.a_wins_fraction;
    j["draw_fraction"] = o.draw_fraction;
    j["b_wins_fraction"] = o.b_wins_fraction;
  }
}

std::string explain(const CombatReport& r) {
  std::string s;
  for (const Ruling& x : r.rulings) s += fmt::format("{}: {}\n", x.rule, x.reason);
  if (r.engagements.empty()) s = "No unit is in contact with an enemy: there is no combat.\n";
  return s;
}

std::string explain(const CombatOdds& o) {
  std::string s;
  for (int k = 0; k < 2; ++k) {
    const CombatOddsSide& x = k == 0 ? o.request.a : o.request.b;
    s += fmt::format("Side {}: {} hitting on {}+ against armour {}, {}: each die an unsaved hit with chance {:.4f}.\n",
                     k == 0 ? 'a' : 'b', plural(x.dice, "die", "dice"), o.needed[static_cast<std::size_t>(k)],
                     (k == 0 ? o.request.b : o.request.a).armour > 0
                         ? fmt::format("{}+", (k == 0 ? o.request.b : o.request.a).armour)
                         : std::string("none"),
                     plural(x.support, "supporting stand", "supporting stands"), o.p_unsaved[static_cast<std::size_t>(k)]);
    for (const CombatOddsRow& r : o.rows[static_cast<std::size_t>(k)])
      s += fmt::format("  {:>3} unsaved  {:>8.4f}  {}\n", r.hits, r.chance, r.fraction);
  }
  s += "Result difference (a - b; the loser retreats this many cm):\n";
  for (const CombatOddsDifference& d : o.differences)
    s += fmt::format("  {:>+4}  {:>8.4f}  {}\n", d.difference, d.chance, d.fraction);
  s += fmt::format("a wins {:.4f} {}; draw {:.4f} {}; b wins {:.4f} {}; mean difference {:+.3f}.\n", o.a_wins,
                   o.a_wins_fraction, o.draw, o.draw_fraction, o.b_wins, o.b_wins_fraction, o.mean_difference);
  return s;
}

}  // namespace referee::warmaster
