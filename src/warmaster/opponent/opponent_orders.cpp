// The opponent's orders (opponent_parts.hpp): which unit or brigade a
// character orders next, and what it needs on 2D6.
#include "opponent/opponent_parts.hpp"

namespace referee::warmaster::opponent_detail {

bool orderable(const WarmasterState& s, std::size_t i) {
  const Unit& u = s.battlefield().units[i];
  const UnitStatus& st = s.units()[i];
  return u.side == s.side() && on_table(s, i) && !st.frozen && !u.engaged && !u.confused && !st.used_initiative &&
         !st.charged && st.orders < 3;
}

// Does a unit want to move this turn?
bool wants_to_move(const Ctx& c, const Unit& u) {
  if (u.attacks <= 0 && !is_shooter(u)) return false;
  if (keeps_range(u) && enemy_in_range(c, u)) return false;
  if (u.type == TroopType::Artillery && is_shooter(u)) {
    // Artillery move little: only when no enemy is within reach of its guns.
    return !enemy_in_range(c, u);
  }
  return true;
}

bool first_turn_bonus(const Ctx& c) { return c.settings.first_turn_command_bonus && c.s.turn() == 1; }

int needed_for(const Ctx& c, const Character& ch, const std::vector<const Unit*>& group, int previous) {
  return order_needed(order_factors(c.bf, c.index, ch, group, previous, first_turn_bonus(c)));
}

bool character_can_order(const WarmasterState& s, std::size_t ci) {
  const CharacterStatus& cs = s.characters()[ci];
  return s.battlefield().characters[ci].side == s.side() && !cs.failed && !cs.finished && !cs.lost &&
         !s.general_failed();
}

namespace next_order_parts {

// Further orders to the units being ordered by `active`.
std::optional<Candidate> further_order(const Ctx& c, const std::string& active) {
  const Battlefield& bf = c.bf;
  std::vector<std::string> family;
  std::vector<const Unit*> group;
  int previous = 0;
  bool ok = true;
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const UnitStatus& st = c.s.units()[i];
    if (st.orders > 0 && !st.finished && st.ordered_by == active) {
      family.push_back(bf.units[i].id);
      group.push_back(&bf.units[i]);
      previous = std::max(previous, st.orders);
      ok = ok && orderable(c.s, i) && wants_to_move(c, bf.units[i]);
    }
  }
  const Character* ch = bf.find_character(active);
  if (ok && !family.empty() && ch) {
    const std::size_t ci = static_cast<std::size_t>(ch - bf.characters.data());
    // A unit that charged cannot be ordered again; one that got where it
    // wanted (in range, or short of its target) needs no more.
    bool progress = true;
    if (family.size() == 1) {
      const Unit& u = *group.front();
      if (closest_enemy(c, u) < 8.0 && !best_charge(c, u, Action{}, false)) progress = false;
      if (keeps_range(u) && enemy_in_range(c, u)) progress = false;
    }
    if (progress && character_can_order(c.s, ci) &&
        pass_chance(needed_for(c, *ch, group, previous)) >= c.o.min_further_order) {
      Action a;
      a.type = ActionType::Order;
      a.character = active;
      a.units = family;
      if (c.legal(a)) return Candidate{a, 0, "a further order to " + family.front()};
    }
  }
  return std::nullopt;
}

// What each character needs to order each unit alone (order_needed): the
// unit's own penalties (enemy near, dense terrain, stands lost) are the
// same whoever gives the order, so they are worked out once per unit, and
// only the character's Command and distance vary.
// The table is by unit, then character (units.size() rows of chars.size()).
std::vector<int> first_order_needs(const Ctx& c, const std::vector<std::size_t>& chars,
                                   const std::vector<std::pair<double, std::size_t>>& units) {
  const Battlefield& bf = c.bf;
  const std::size_t nc = chars.size();
  std::vector<int> needed(units.size() * nc);
  for (std::size_t k = 0; k < units.size(); ++k) {
    const Unit& u = bf.units[units[k].second];
    const Unit* const one[] = {&u};
    OrderFactors f = order_factors(bf, c.index, bf.characters[chars.front()], one, 0, first_turn_bonus(c));
    for (std::size_t j = 0; j < nc; ++j) {
      const Character& ch = bf.characters[chars[j]];
      f.command = ch.command;
      f.distance = std::max(0.0, character_distance(ch, u).distance);
      needed[k * nc + j] = order_needed(f);
    }
  }
  return needed;
}

}  // namespace next_order_parts

std::optional<Candidate> next_order(const Ctx& c) {
  const Battlefield& bf = c.bf;
  // Further orders to the units being ordered.
  const std::string& active = c.s.active_character();
  if (!active.empty()) {
    if (std::optional<Candidate> further = next_order_parts::further_order(c, active)) return further;
  }

  // Characters in sequence: the one ordering now, then Heroes and Wizards, the General last.
  std::vector<std::size_t> chars;
  for (std::size_t ci = 0; ci < bf.characters.size(); ++ci)
    if (character_can_order(c.s, ci)) chars.push_back(ci);
  std::stable_sort(chars.begin(), chars.end(), [&](std::size_t a, std::size_t b) {
    auto rank = [&](std::size_t ci) {
      if (bf.characters[ci].id == active) return 0;
      return bf.characters[ci].role == CharacterRole::General ? 2 : 1;
    };
    return rank(a) < rank(b);
  });
  if (chars.empty()) return std::nullopt;

  // Units that may take a first order and want one, closest to the enemy first.
  std::vector<std::pair<double, std::size_t>> units;
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    if (!orderable(c.s, i) || c.s.units()[i].orders > 0) continue;
    if (!wants_to_move(c, bf.units[i])) continue;
    units.push_back({closest_enemy(c, bf.units[i]), i});
  }
  std::sort(units.begin(), units.end());
  // What each character needs to order each unit alone (order_needed): the
  // unit's own penalties are worked out once per unit (first_order_needs).
  const std::size_t nc = chars.size();
  const std::vector<int> needed = next_order_parts::first_order_needs(c, chars, units);
  for (std::size_t j = 0; j < nc; ++j) {
    const Character& ch = bf.characters[chars[j]];
    // The units this character is best placed to order (ties: each of the best).
    std::vector<std::size_t> mine;
    for (std::size_t k = 0; k < units.size(); ++k) {
      const int* row = &needed[k * nc];
      if (row[j] == *std::max_element(row, row + nc)) mine.push_back(units[k].second);
    }
    for (std::size_t k = 0; k < mine.size(); ++k) {
      const std::size_t i = mine[k];
      const Unit& u = bf.units[i];
      std::vector<const Unit*> group{&u};
      std::vector<std::string> ids{u.id};
      // A brigade of touching units for the march, far from the enemy.
      if (closest_enemy(c, u) > c.o.brigade_distance && !keeps_range(u)) {
        const std::vector<std::vector<int>>& touch = c.s.touching_now(c.scratch.move);
        for (int n : touch[i]) {
          const std::size_t ni = static_cast<std::size_t>(n);
          if (group.size() >= 4 || !orderable(c.s, ni) || c.s.units()[ni].orders > 0) continue;
          if (keeps_range(bf.units[ni]) || closest_enemy(c, bf.units[ni]) <= c.o.brigade_distance) continue;
          group.push_back(&bf.units[ni]);
          ids.push_back(bf.units[ni].id);
        }
      }
      const double p = pass_chance(needed_for(c, ch, group, 0));
      // The last unit a character has is worth a poorer chance: failing costs nothing more.
      const double need = k + 1 == mine.size() ? c.o.min_first_order - 0.17 : c.o.min_first_order;
      if (p < need) continue;
      Action a;
      a.type = ActionType::Order;
      a.character = ch.id;
      a.units = ids;
      if (c.legal(a)) return Candidate{a, p, "orders " + ids.front()};
      if (ids.size() > 1) {
        a.units = {u.id};
        if (c.legal(a)) return Candidate{a, p, "orders " + u.id};
      }
    }
  }
  return std::nullopt;
}

}  // namespace referee::warmaster::opponent_detail
