// The Combat phase of a Warmaster battle as a game (battle_state.hpp): its
// end_phase checked, the engagements fought (resolve_combat, combat.hpp) and
// what they did carried into the state.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "battle/command_internal.hpp"
#include "referee/warmaster/combat/combat.hpp"
#include "referee/warmaster/battle/battle_state.hpp"
#include "referee/warmaster/model/rule_ids.hpp"

namespace referee::warmaster {

// The Combat phase may always end: ending it fights every engagement
// (fight_combat_phase). Its decisions are checked as
// combat_decisions_from_json reads them, for typed callers, so that
// resolve_combat never refuses them half-way: a decision that does not fit
// what happens in the fight (advance with the enemy still there, a pursuit
// the rules forbid) is not refused here but ruled on by resolve_combat
// (docs/rulings.md#warmaster-combat-decisions).
Verdict WarmasterState::validate_combat_phase(const Action& a) const {
  Verdict v;
  for (std::size_t k = 0; k < a.decisions.size(); ++k) {
    const CombatDecision& d = a.decisions[k];
    if (unit_index(d.unit) < 0)
      v.add(warmaster::rule_id::combat_decisions, fmt::format("decision {}: no unit \"{}\" on the battlefield", k + 1, d.unit));
    for (std::size_t e = 0; e < k; ++e)
      if (a.decisions[e].unit == d.unit)
        v.add(warmaster::rule_id::combat_decisions, fmt::format("decision {}: unit {} already has a decision", k + 1, d.unit));
    if (d.distance && !(std::isfinite(*d.distance) && *d.distance >= 0 && *d.distance <= 1000))
      v.add(warmaster::rule_id::combat_decisions,
            fmt::format("decision {}: a distance is from 0 to 1000 cm, not {}", k + 1, *d.distance));
  }
  return v;
}

// The side's Combat phase (combat.hpp) on the current battlefield, with the
// units that charged this turn, and what it did carried into the state as
// shoot does (shooting_phase.cpp): resolve_combat drops the units it destroys and those
// that leave the table from its battlefield, while the state keeps every
// unit in its place with its status, and every character by id.
// The decisions are standing orders for the whole phase, for units of either
// side, taken as given: resolve_combat rules on one that does not fit what
// happens (docs/rulings.md#warmaster-combat-decisions).
CombatReport WarmasterState::fight_combat_phase(const std::vector<CombatDecision>& decisions, Dice& dice) {
  CombatOptions options;
  for (std::size_t i = 0; i < bf_->units.size(); ++i)
    if (units_[i].charged) options.charged.push_back(bf_->units[i].id);
  options.decisions = decisions;
  CombatReport r = resolve_combat(*bf_, side_, dice, options, settings());
  if (r.engagements.empty()) return r;  // nothing fought: the battlefield is as it was
  auto next = std::make_shared<Battlefield>(*bf_);
  for (std::size_t i = 0; i < next->units.size(); ++i) {
    Unit& u = next->units[i];
    if (u.stands.empty()) continue;  // already off the table or destroyed
    if (const Unit* after = r.after.find_unit(u.id)) {
      u = *after;
      continue;
    }
    UnitStatus& st = units_[i];
    const CombatMove* left = nullptr;
    for (const CombatRound& round : r.rounds)
      for (const CombatMove& m : round.moves)
        if (m.unit == u.id && m.left_table && m.off_table) left = &m;
    u.engaged = u.confused = false;
    if (left == nullptr || left->destroyed || left->off_table->outcome == OffTableOutcome::Destroyed) {
      // Destroyed: by its casualties, as artillery that had to retreat, or
      // retreating over the table edge.
      for (const CombatRound& round : r.rounds)
        for (const CombatCasualties& c : round.casualties)
          if (c.unit == u.id) u.stands_lost += c.stands_removed;
      u.stands.clear();
      st.destroyed = true;
      continue;
    }
    // A fall back, pursuit or advance off the table rolled on the chart
    // (docs/rulings.md#warmaster-combat-off-table-return): on 1-2 it waits
    // off the table; on 3 or more it comes back where it stood before the
    // phase, the nearest the stands of the table can say to where it left.
    if (left->off_table->outcome == OffTableOutcome::GoneRollNextTurn) {
      st.off_table = true;
      st.parked = u.stands;
      u.stands.clear();
    } else {
      u.stands = back_on_table(*next, u, u.stands, settings().contact_tolerance);
    }
  }
  carry_characters(*next, r.after, r.slain);
  replace_battlefield(std::move(next));
  return r;
}

void describe_combat_phase(const CombatReport& r, nlohmann::json& res) {
  to_json(res["combats"], r);
  res["text"] = explain(r);
}

}  // namespace referee::warmaster
