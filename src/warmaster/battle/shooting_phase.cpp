// The Shooting phase of a Warmaster battle as a game (battle_state.hpp):
// the players' choices of target checked, every unit of the side shooting
// (resolve_shooting, shooting.hpp) and what it did carried into the state.
#include <algorithm>

#include "battle/command_internal.hpp"
#include "referee/warmaster/battle/battle_state.hpp"
#include "referee/warmaster/shooting/shooting.hpp"

namespace referee::warmaster {

// The choices between equally close targets
// (docs/rulings.md#warmaster-shooting-ties): none is always legal, the
// closest is shot.
Verdict WarmasterState::validate_shooting(const Action& a) const {
  if (a.targets.empty()) return {};
  return check_target_choices(shooting_targets(*bf_, side_, settings()), a.targets);
}

// The side's Shooting phase (shooting.hpp) on the current battlefield, and
// what it did carried into the state: resolve_shooting removes the units it
// destroys, routs or drives off the table from its battlefield, while the
// state keeps every unit in its place with its status.
ShootingResult WarmasterState::shoot(const std::vector<TargetChoice>& choices, Dice& dice) {
  ShootingResult r = resolve_shooting(*bf_, side_, dice, settings(), choices);
  if (r.shots.empty() && r.drive_backs.empty()) return r;  // nothing shot: the battlefield is as it was
  auto next = std::make_shared<Battlefield>(*bf_);
  carry_characters(*next, r.after, r.slain);
  for (std::size_t i = 0; i < next->units.size(); ++i) {
    Unit& u = next->units[i];
    if (const Unit* after = r.after.find_unit(u.id)) {
      u = *after;
      continue;
    }
    const auto cas = std::find_if(r.casualties.begin(), r.casualties.end(),
                                  [&](const ShootingResult::Casualties& c) { return c.unit == u.id; });
    const auto db = std::find_if(r.drive_backs.begin(), r.drive_backs.end(),
                                 [&](const DriveBack& d) { return d.unit == u.id; });
    if (cas == r.casualties.end()) continue;  // not shot at: still there (cannot happen)
    u.stands_lost += std::min(cas->stands_removed, static_cast<int>(u.stands.size()));
    UnitStatus& st = units_[i];
    u.engaged = u.confused = false;
    if (cas->destroyed || db == r.drive_backs.end() || !db->left_table || !db->off_table ||
        db->off_table->outcome == OffTableOutcome::Destroyed) {
      // Destroyed by its casualties, routed, or driven off the table on 0 or less.
      u.stands.clear();
      st.destroyed = true;
      continue;
    }
    // Driven off the table (docs/rulings.md#warmaster-shooting-off-table): on
    // 1-2 (the chart's roll less the stands lost) it waits off the table and
    // rolls again at the start of its side's next turn; on 3 or more it comes
    // back at the point it left when the phase ends.
    if (db->off_table->outcome == OffTableOutcome::GoneRollNextTurn) {
      u.stands.clear();
      st.off_table = true;
      st.parked = db->left_at;
    } else {
      u.stands = back_on_table(*next, u, db->left_at, settings().contact_tolerance);
      if (db->confused) u.confused = true;
    }
  }
  replace_battlefield(std::move(next));
  return r;
}

void describe_shooting_phase(const ShootingResult& r, nlohmann::json& res) {
  to_json(res, r);
  res["text"] = explain(r);
}

}  // namespace referee::warmaster
