// The built-in opponent (opponent.hpp): expected banners from the exact odds.
#include "referee/ancients/opponent.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "combat.hpp"
#include "referee/ancients/hex.hpp"
#include "referee/ancients/movement.hpp"

namespace referee::ancients {

namespace {

// The weights of the things an attack does that are not a banner, in
// banners: a block off brings the next elimination nearer, a retreat breaks
// up a line, a leader hurts his side when he falls.
constexpr double kBlockWeight = 0.35;    // the whole unit's blocks off without eliminating it
constexpr double kRetreatWeight = 0.1;
// The enemy's banners count for less than the opponent's own: the game is a
// race to the banners against a clock of cards, and an enemy that is not
// ordered cannot use what a unit exposes (weights tried over seeded arenas
// against the random player: docs/ancients.md#the-built-in-opponent).
constexpr double kExposureWeight = 0.1;    // the enemy's best attack on a unit where it stands
constexpr double kBattleBackWeight = 0.2;  // the battle back an attack risks
constexpr double kApproachWeight = 0.1;    // per hex nearer where it could battle the nearest enemy
constexpr double kWinningBanner = 10.0;  // a banner that wins the game outweighs any other consideration
constexpr double kMinGain = 1e-6;

std::size_t at(int i) { return static_cast<std::size_t>(i); }
int side_of(const Battle& b, int u) { return b.units[at(u)].side; }

// What one side's dice at a unit are worth to the striker's side, and the
// chance the struck unit holds its hex (neither eliminated nor retreating).
struct Strike {
  double value = 0;
  double holds = 1;
};

struct Evaluator {
  const Battle& b;
  const AncientsState& s;
  Position p;  // a scratch copy: units are placed on hexes to weigh them there

  Evaluator(const Battle& battle, const AncientsState& state) : b(battle), s(state), p(state.position) {}

  // A banner for `side`: worth more when it is the one that wins.
  double banner(int side) const {
    return s.banners[at(side)] + 1 >= b.victory_banners[at(side)] ? kWinningBanner : 1.0;
  }

  // How much the enemy's banners count against the opponent's own: in full
  // once the next one would win the enemy the game.
  double enemy_weight(int enemy_unit, double weight) const {
    return banner(side_of(b, enemy_unit)) == kWinningBanner ? 1.0 : weight;
  }

  Strike strike(int striker, int struck, bool close, bool battle_back, bool evading) const {
    const AttackPlan plan = plan_attack(b, p, striker, struck, close, battle_back, evading);
    if (plan.dice == 0) return {};
    const AttackOdds o = attack_odds(b, p, plan);
    const double n = static_cast<double>(o.outcomes);
    const double eliminate = static_cast<double>(o.eliminate) / n;
    const double retreat = static_cast<double>(o.retreat) / n;
    const double hit = static_cast<double>(o.at_least_one_hit) / n;
    double blocks_off = 0;  // the expected share of its blocks lost to hits
    for (std::size_t h = 0; h < o.counts.size(); ++h) {
      std::uint64_t rolls = 0;
      for (std::uint64_t c : o.counts[h]) rolls += c;
      blocks_off += static_cast<double>(rolls) * std::min<double>(static_cast<double>(h), o.blocks);
    }
    blocks_off /= n * std::max(1, o.blocks);
    const int side = side_of(b, striker);
    Strike out;
    out.value = eliminate * banner(side) + kBlockWeight * std::max(0.0, blocks_off - eliminate) +
                kRetreatWeight * retreat;
    // A leader attached to the unit: killed on a helmet (1 die) when it is
    // eliminated, on two (2 dice) when it loses blocks and survives.
    if (p.leader_of(struck) >= 0)
      out.value += banner(side) * (eliminate / 6.0 + std::max(0.0, hit - eliminate) / 36.0);
    out.holds = std::max(0.0, 1.0 - eliminate - retreat);
    return out;
  }

  // The attacker's expected gain from battling a unit: the defender evades
  // when that costs it less, and a close combat it holds is battled back.
  double attack(int attacker, int target, bool close) const {
    const Strike hit = strike(attacker, target, close, false, false);
    double stand = hit.value;
    if (close) stand -= enemy_weight(target, kBattleBackWeight) * hit.holds * strike(target, attacker, true, true, false).value;
    if (close && may_evade(b, target, attacker) && !evade_options(b, p, target).empty())
      return std::min(stand, strike(attacker, target, close, false, true).value);
    return stand;
  }

  double attack_leader(int attacker, int leader) const {
    const int n = dice_against_leader(b, p, attacker, leader);
    return (1.0 - std::pow(5.0 / 6.0, n)) * banner(side_of(b, attacker));
  }

  // The best attack `u` has from where it stands (0 when none is worth it,
  // unless a charging warrior must close combat).
  double best_attack(int u, bool compulsory) const {
    double best = compulsory ? -std::numeric_limits<double>::infinity() : 0.0;
    bool any = false;
    for (const Target& t : battle_targets(b, p, u)) {
      if (compulsory && !t.close) continue;
      any = true;
      best = std::max(best, t.leader ? attack_leader(u, t.unit) : attack(u, t.unit, t.close));
    }
    return any || !compulsory ? best : 0.0;
  }

  // The enemy's best close attack on `u` where it stands, in banners to the
  // enemy, weighed as enemy_weight says.
  double exposure(int u) const {
    const int h = p.units[at(u)].hex;
    double worst = 0;
    for (int d = 0; d < 6; ++d) {
      const int e = p.unit_on(b.board.neighbour(h, d));
      if (e < 0 || side_of(b, e) == side_of(b, u)) continue;
      worst = std::max(worst, enemy_weight(e, kExposureWeight) * strike(e, u, true, false, false).value);
    }
    return worst;
  }

  // Hexes from each hex to the nearest enemy of `side`, for units of class
  // `cls`, around terrain they cannot enter (other units are not obstacles:
  // they move). Built on first use.
  std::vector<std::pair<int, std::vector<int>>> fields;  // (side * 64 + cls, distances)
  const std::vector<int>& field(int side, int cls) {
    const int key = side * 64 + cls;
    for (const auto& [k, f] : fields)
      if (k == key) return f;
    std::vector<int> dist(at(b.board.cell_count()), std::numeric_limits<int>::max());
    std::vector<int> queue;
    for (std::size_t e = 0; e < b.units.size(); ++e)
      if (b.units[e].side != side && p.units[e].hex >= 0) {
        dist[at(p.units[e].hex)] = 0;
        queue.push_back(p.units[e].hex);
      }
    for (std::size_t i = 0; i < queue.size(); ++i)
      for (int d = 0; d < 6; ++d) {
        const int n = b.board.neighbour(queue[i], d);
        if (n < 0 || dist[at(n)] != std::numeric_limits<int>::max()) continue;
        if (const TerrainType* t = b.terrain_at(n); t && in_mask(t->cannot_enter, cls)) continue;
        dist[at(n)] = dist[at(queue[i])] + 1;
        queue.push_back(n);
      }
    fields.emplace_back(key, std::move(dist));
    return fields.back().second;
  }

  // A small pull toward the enemy: the hexes between the unit and where it
  // could battle the nearest enemy unit (adjacent, or in range for a missile unit).
  double approach(int u) {
    const int hex = p.units[at(u)].hex, side = side_of(b, u), cls = b.units[at(u)].cls;
    int gap = field(side, cls)[at(hex)];
    if (gap == std::numeric_limits<int>::max()) return 0;
    gap -= 1;
    if (const int range = combat_profile(cls).range; range > 0) {
      const Axial here = b.board.axial(hex);
      for (std::size_t e = 0; e < b.units.size(); ++e)
        if (b.units[e].side != side && p.units[e].hex >= 0)
          gap = std::min(gap, hex_distance(here, b.board.axial(p.units[e].hex)) - range);
    }
    return -kApproachWeight * std::max(0, gap);
  }

  // Unit `u` (with its attached leader) put on `hex` for the length of a
  // weighing, as if it had moved `hexes`.
  template <class F>
  double placed(int u, int hex, int hexes, F&& weigh) {
    UnitState& st = p.units[at(u)];
    const UnitState saved = st;
    const int from = st.hex, l = p.leader_of(u);
    if (hex != from) {
      p.place_unit(u, hex);
      if (l >= 0) p.place_leader(l, hex);
      st.hexes_moved = hexes;
      st.moved = true;
    }
    const double v = weigh();
    if (hex != from) {
      p.place_unit(u, from);
      if (l >= 0) p.place_leader(l, from);
    }
    st = saved;
    return v;
  }

  // What an unordered unit is worth where it stands: what it exposes and how near it is.
  double standing(int u) { return -exposure(u) + approach(u); }
  // An ordered unit on a hex: its best attack there too.
  double ordered_at(int u, const Destination& d) {
    return placed(u, d.hex, d.hexes, [&] {
      return (d.may_battle ? best_attack(u, d.close_combat_compulsory) : 0.0) + standing(u);
    });
  }
  // The most an order gains for `u` under `plan`'s moves: its best hex
  // (staying included) over standing unordered.
  double order_gain(int u, const MoveOptions& move, PathScratch& scratch, std::vector<Destination>& dests) {
    const double base = standing(u);
    double best = best_attack(u, false) + base;
    unit_destinations(b, p, u, move, scratch, dests);
    for (const Destination& d : dests) best = std::max(best, ordered_at(u, d));
    return best - base;
  }
};

// The best of `options` by score, exact ties broken by `rng`.
template <class T>
const T& pick(const std::vector<std::pair<double, T>>& options, Rng& rng) {
  double top = -std::numeric_limits<double>::infinity();
  for (const auto& [v, o] : options) top = std::max(top, v);
  std::vector<std::size_t> best;
  for (std::size_t i = 0; i < options.size(); ++i)
    if (options[i].first >= top - 1e-12) best.push_back(i);
  return options[best.size() == 1 ? best.front() : best[rng.below(best.size())]].second;
}

Action of_type(Action::Type t) {
  Action a;
  a.type = t;
  return a;
}

// A card's worth: the gains of the units it lets the player order, the
// best first while the card's rules allow one more (sections, troop types,
// the leadership chain), as many as it gives orders.
double card_value(const Battle& b, const AncientsState& s, const Action& play) {
  AncientsState c = s;
  // A card that orders nothing skips the turn, and its draw may reshuffle
  // (docs/rulings.md#ancients-reshuffle): any dice do, the card is worth 0.
  SeededDice shuffle(0);
  do_apply(b, c, play, shuffle, false);
  if (c.side != s.side || c.phase != Phase::movement) return 0;  // it orders nothing: the turn is skipped
  Evaluator ev(b, c);
  PathScratch scratch;
  std::vector<Destination> dests;
  std::vector<std::pair<double, int>> gains;
  for (int u : c.plan.units) gains.emplace_back(ev.order_gain(u, c.plan.move, scratch, dests), u);
  std::sort(gains.begin(), gains.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<OrderItem> chosen;
  double v = 0;
  for (const auto& [g, u] : gains) {
    if (g <= kMinGain) break;
    chosen.push_back({false, u});
    if (check_orders(b, c.position, c.plan, chosen).legal()) v += g;
    else chosen.pop_back();
  }
  return v;
}

std::optional<Action> battle_phase(const Battle& b, const AncientsState& s, const std::vector<Action>& legal, Rng& rng) {
  Evaluator ev(b, s);
  const Pending& pd = s.pending;
  std::vector<std::pair<double, Action>> options;
  switch (pd.kind) {
    case Pending::Kind::evade: {
      // The defender's choice: the smaller expected loss (its battle back counts for it when it stands).
      const Strike hit = ev.strike(pd.attacker, pd.defender, pd.close, false, false);
      const double stand = -hit.value + hit.holds * ev.strike(pd.defender, pd.attacker, true, true, false).value;
      const double evade = -ev.strike(pd.attacker, pd.defender, pd.close, false, true).value;
      for (const Action& a : legal) {
        if (a.type == Action::Type::stand) options.emplace_back(stand, a);
        else
          options.emplace_back(
              evade + ev.placed(pd.defender, b.board.index(a.to), 0, [&] { return ev.standing(pd.defender); }), a);
      }
      return pick(options, rng);
    }
    case Pending::Kind::retreat: {
      // The owner's choice of path, and whether to ignore a flag it may
      // (docs/rulings.md#ancients-support): the new hex's exposure, the
      // blocks a blocked retreat costs, and, holding in a close combat, the
      // battle back it then makes.
      const int u = pd.unit;
      const UnitState& st = s.position.units[at(u)];
      const std::vector<FlagChoice> choices = flag_choices(b, s.position, u, pd.flags, pd.may_ignore);
      for (const Action& a : legal) {
        const int to = b.board.index(a.to);
        const auto c = std::find_if(choices.begin(), choices.end(), [&](const FlagChoice& f) { return f.option.end == to; });
        const int lost = c == choices.end() ? 0 : c->option.lost;
        double v = ev.placed(u, to, 0, [&] { return ev.standing(u); });
        if (lost >= st.blocks) v -= ev.banner(1 - side_of(b, u));
        else v -= kBlockWeight * lost / std::max(1, st.blocks);
        if (to == st.hex && pd.close && !pd.battle_back && lost < st.blocks)
          v += kBattleBackWeight * ev.strike(u, pd.attacker, true, true, false).value;
        else if (to != st.hex)
          v -= kRetreatWeight;
        options.emplace_back(v, a);
      }
      return pick(options, rng);
    }
    case Pending::Kind::momentum: {
      const int u = pd.unit;
      const double hold = ev.standing(u);
      // Advancing: a bonus close combat where the rules give one (the engine
      // says so once it has advanced), and the new hex's exposure.
      AncientsState adv = s;
      ScriptedDice no_dice({});  // an advance rolls nothing
      do_apply(b, adv, of_type(Action::Type::advance), no_dice, false);
      Evaluator after(b, adv);
      const double advance =
          (adv.position.units[at(u)].bonus ? after.best_attack(u, false) : 0.0) + after.standing(u);
      for (const Action& a : legal) options.emplace_back(a.type == Action::Type::advance ? advance : hold, a);
      return pick(options, rng);
    }
    case Pending::Kind::none: break;
  }
  for (const Action& a : legal) {
    if (a.type == Action::Type::end_battle) options.emplace_back(kMinGain, a);
    else if (a.target_leader) options.emplace_back(ev.attack_leader(a.piece.index, a.target), a);
    else {
      const bool close = b.board.adjacent(s.position.units[at(a.piece.index)].hex, s.position.units[at(a.target)].hex);
      options.emplace_back(ev.attack(a.piece.index, a.target, close), a);
    }
  }
  return pick(options, rng);
}

std::optional<Action> movement_phase(const Battle& b, const AncientsState& s, const std::vector<Action>& legal, Rng& rng) {
  Evaluator ev(b, s);
  PathScratch scratch;
  std::vector<Destination> dests;
  std::vector<std::pair<double, Action>> options;
  // Orders first, while one is worth giving: the unit that gains most.
  for (const Action& a : legal)
    if (a.type == Action::Type::order && !a.items.front().leader) {
      const double g = ev.order_gain(a.items.front().index, s.plan.move, scratch, dests);
      if (g > kMinGain) options.emplace_back(g, a);
    }
  if (!options.empty()) return pick(options, rng);
  // Then the move that gains most over staying; the end of the movement when none does.
  options.emplace_back(kMinGain, legal.back());
  int unit = -1;
  double stay = 0;
  for (const Action& a : legal) {
    if (a.type != Action::Type::move || a.piece.leader) continue;
    const int u = a.piece.index;
    if (u != unit) {
      unit = u;
      const UnitState& st = s.position.units[at(u)];
      stay = (st.may_battle ? ev.best_attack(u, st.close_combat_compulsory) : 0.0) + ev.standing(u);
      unit_destinations(b, s.position, u, s.plan.move, scratch, dests);
    }
    const int to = b.board.index(a.to);
    const auto d = std::find_if(dests.begin(), dests.end(), [&](const Destination& x) { return x.hex == to; });
    if (d != dests.end()) options.emplace_back(ev.ordered_at(u, *d) - stay, a);
  }
  return pick(options, rng);
}

}  // namespace

double attack_value(const Battle& b, const AncientsState& s, int attacker, int target, bool close) {
  return Evaluator(b, s).attack(attacker, target, close);
}

std::optional<Action> opponent_action(const Battle& b, const AncientsState& s, Rng& rng) {
  const std::vector<Action> legal = legal_actions(b, s);
  if (legal.empty()) return std::nullopt;
  if (legal.size() == 1) return legal.front();
  switch (s.phase) {
    case Phase::play_card: {
      std::vector<std::pair<double, Action>> options;
      for (const Action& a : legal) options.emplace_back(card_value(b, s, a), a);
      return pick(options, rng);
    }
    case Phase::movement: return movement_phase(b, s, legal, rng);
    case Phase::battle: return battle_phase(b, s, legal, rng);
  }
  return legal.front();
}

}  // namespace referee::ancients
