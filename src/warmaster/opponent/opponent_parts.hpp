// The built-in Warmaster opponent's own parts, shared by its files
// (src/warmaster/opponent): what every part reads (Ctx, the state and the
// opponent's scratch), the navigation field (opponent_navigation.cpp), the
// moves and charges (opponent_moves.cpp), orders (opponent_orders.cpp),
// initiative (opponent_initiative.cpp) and the characters' moves
// (opponent_characters.cpp); opponent.cpp chooses among them. Not a public
// header: the opponent room's API is include/referee/warmaster/opponent/opponent.hpp.
#pragma once

#include "referee/warmaster/opponent/opponent.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "referee/warmaster/combat/combat.hpp"
#include "referee/warmaster/command/initiative.hpp"
#include "referee/warmaster/command/orders.hpp"
#include "referee/warmaster/shooting/shooting.hpp"
#include "referee/warmaster/movement/moving_chargers.hpp"
#include "referee/warmaster/movement/formation_plans.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "referee/warmaster/model/troops.hpp"
#include "movement/stand_pairs.hpp"

namespace referee::warmaster::opponent_detail {

inline constexpr double kCell = 2.0;  // cm, the navigation grid
inline constexpr double kFar = 1e9;

inline double uniform01(Rng& rng) { return static_cast<double>(rng.next() >> 11) * (1.0 / 9007199254740992.0); }

// P(2D6 <= n).
inline double pass_chance(int needed) {
  static constexpr int kWays[13] = {0, 0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36};
  if (needed < 2) return 0;
  if (needed >= 12) return 1;
  return kWays[needed] / 36.0;
}

inline bool on_table(const WarmasterState& s, std::size_t i) {
  return !s.battlefield().units[i].stands.empty() && !s.units()[i].off_table && !s.units()[i].destroyed;
}

inline bool is_shooter(const Unit& u) { return u.missile != Missile::None; }
// Units that should keep their distance: artillery and machines, and shooters
// too weak to fight (one Attack a stand).
inline bool keeps_range(const Unit& u) {
  return u.type == TroopType::Artillery || u.type == TroopType::Machine || (is_shooter(u) && u.attacks <= 1);
}

inline double pace_of(const Unit& u, MoveKind kind, const Settings& settings) {
  return move_pace(u, kind, classify_formation(u, settings)).allowance;
}

// charge_value with the target's position given, and the odds' difference
// looked up in `memo` when there is one (opponent.cpp).
double charge_value_at(const Unit& charger, const Unit& target, Position pos, int fighting_charger,
                       int fighting_target, int ally_dice, OpponentScratch::OddsMemo* memo);

// The navigation field (opponent_navigation.cpp): each cell's distance to
// where `mover` could fight `target`, round what it may not cross.
void distance_field(const Battlefield& bf, const MoveIndex& index, const Unit& mover, const Unit& target,
                    const Settings& settings, OpponentScratch& scratch, const std::vector<int>& movers,
                    bool units_block, const std::vector<Vec2>& needed);
double field_at(const Battlefield& bf, const OpponentScratch& scratch, Vec2 p);
// Points along the way downhill from `from`, every cell, up to `length` cm.
std::vector<Vec2> downhill(const Battlefield& bf, const OpponentScratch& scratch, Vec2 from, double length);

struct Ctx {
  const WarmasterState& s;
  const Battlefield& bf;
  const Settings& settings;
  Rng& rng;
  const OpponentOptions& o;
  OpponentScratch& scratch;
  int side;
  const MoveIndex& index;  // of bf: what is near a place
  double enemy_reach;      // the longest charge of an enemy unit on the table (cm)
  double charge_value_bound;  // no charge_value is further from 0

  bool legal(const Action& a) const { return s.validate(a, scratch.move).legal(); }
  // Where `u` is in the state's units; none for a unit as a move would leave it.
  std::optional<std::size_t> index_of(const Unit& u) const {
    const std::less<const Unit*> before;
    if (before(&u, bf.units.data()) || !before(&u, bf.units.data() + bf.units.size())) return std::nullopt;
    return static_cast<std::size_t>(&u - bf.units.data());
  }
  // A unit's position (open, defended, fortified), kept in the scratch (OpponentScratch::positions).
  Position position(const Unit& u) const {
    const std::optional<std::size_t> i = index_of(u);
    if (!i) return position_of(bf, u, settings).position;  // a unit as a move would leave it
    int& p = scratch.positions[*i];
    if (p < 0) p = static_cast<int>(position_of(bf, u, settings).position);
    return static_cast<Position>(p);
  }
  // WarmasterState::initiative_targets of unit i, kept in the scratch from
  // call to call (OpponentScratch::Candidates; note_changes forgets them).
  const std::vector<InitiativeCandidate>& candidates(std::size_t i, bool charge) const {
    OpponentScratch::Candidates& k = scratch.initiative[i];
    const Unit& u = bf.units[i];
    const int w = charge ? 1 : 0;
    if (k.known[w]) return k.list[w];
    k.list[w] = s.initiative_targets(u.id, charge, scratch.move);
    if (u.stands.empty()) return k.list[w];  // none, until it has stands again: not kept
    // The box initiative_candidates searches for enemies (it holds the
    // unit), and the units met there: every enemy measured and every line
    // of sight drawn (sight_area: between the unit and an enemy) lies
    // within those.
    Aabb region = stands_box(u).inflated(index.max_stand_radius() + kInitiativeRange + 0.01);
    std::vector<int>& met = scratch.near;
    met.clear();
    index.units_near(region, met);
    for (int m : met)
      if (const Unit& e = bf.units[static_cast<std::size_t>(m)]; !e.stands.empty()) region = region.merged(stands_box(e));
    k.region = k.known[1 - w] ? k.region.merged(region) : region;
    k.known[w] = true;
    return k.list[w];
  }
  // charge_value, with the positions and odds kept in the scratch.
  double value(const Unit& charger, const Unit& target, int fighting_charger = 0, int fighting_target = 0,
               int ally_dice = 0) const {
    if (charger.stands.empty() || target.stands.empty()) return -1;
    return charge_value_at(charger, target, position(target), fighting_charger, fighting_target, ally_dice,
                           &scratch.odds);
  }
};

struct Candidate {
  Action action;
  double score = 0;
  std::string reason;
};

// What the moves' part answers (opponent_moves.cpp).
std::vector<std::size_t> units_within(const Ctx& c, const Aabb& near, double d, int side);
std::vector<std::size_t> enemies(const Ctx& c);
double closest_enemy(const Ctx& c, const Unit& u);
bool enemy_in_range(const Ctx& c, const Unit& u);
int ally_dice(const Ctx& c, const Unit& u, const Unit& en, bool initiative);
std::optional<Candidate> best_charge(const Ctx& c, const Unit& u, const Action& shell, bool initiative,
                                     const std::string& only_target = {});
Action plan_advance(const Ctx& c, const std::vector<int>& units, MoveKind kind, std::string& reason);
// Orders (opponent_orders.cpp), initiative (opponent_initiative.cpp), the characters (opponent_characters.cpp).
bool wants_to_move(const Ctx& c, const Unit& u);
std::optional<Candidate> next_order(const Ctx& c);
std::optional<Candidate> next_initiative(const Ctx& c);
std::optional<Candidate> next_character_move(const Ctx& c);

}  // namespace referee::warmaster::opponent_detail
