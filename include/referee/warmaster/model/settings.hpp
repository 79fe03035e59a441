// Readings that players disagree on are settings (each has its
// docs/rulings.md#<anchor>, named at its field below). Defaults follow the rule texts.
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace referee::warmaster {

struct Settings {
  // docs/rulings.md#warmaster-move-formation-at-the-start: stands touch when within this distance (0.5 mm).
  double contact_tolerance = 0.05;
  // docs/rulings.md#warmaster-command-failed-orders: a failed first order still allows a half-pace move
  // (command text). Older printings: no move at all.
  bool failed_first_order_moves_half_pace = true;
  // Command text, optional rule: +1 Command on each character's first order
  // of the first turn, never above 10.
  bool first_turn_command_bonus = false;
  // Sight: whether terrain a stand is itself inside blocks its own view out.
  // The texts are silent; our default lets a stand see out of, and be seen
  // inside, the feature it stands in (docs/rulings.md#warmaster-see-out-of-own-feature).
  bool see_out_of_own_feature = true;
  // The battle ends after the second side's Command phase of this turn
  // (docs/rulings.md#warmaster-turn-limit): the texts give no battle length.
  int turn_limit = 8;
  // docs/rulings.md#warmaster-terrain-access: villages, broken and marshy ground are a barrier to
  // cavalry and monsters "unless players choose to agree otherwise before the
  // game" (movement text). True: they agreed, and cavalry and monsters (and
  // flyers ending a move) may enter them.
  bool open_villages_and_broken_ground = false;
  // docs/rulings.md#warmaster-combat-blocked-retreat: a unit forced to retreat from combat into terrain
  // or stands it cannot pass "may" lose stands (movement text), with no number given. Ours: one stand
  // for each this many cm, or part of them, of the retreat it could not make.
  double blocked_retreat_cm_per_stand = 3.0;
  // docs/rulings.md#warmaster-shooting-engaged: units engaged in combat cannot be shot at (the standard
  // rules, which the play sheet summarises): a shooter passes over an engaged enemy to the closest one
  // that is not. True: the play sheet's literal "units shoot at the closest enemy within range",
  // engaged or not.
  bool shoot_into_combat = false;
  // docs/rulings.md#warmaster-shooting-range-per-stand: only the stands of a shooting unit that are
  // themselves within range of its target, and see it, roll their dice (the standard rules measure
  // range from each stand). False: the play sheet's unit reading, every stand of a unit in range
  // shoots.
  bool range_per_stand = true;
  // docs/rulings.md#warmaster-command-blunders: a Hero or Wizard rolling 12 for an order blunders
  // (the rulebook's blunder table). False: the play sheet's reading, a 12 is only a failed order.
  bool blunders = true;

  bool operator==(const Settings&) const = default;
};

void to_json(nlohmann::json& j, const Settings& s);
// Reads only the fields present; unknown fields are an InputError.
Settings settings_from_json(const nlohmann::json& j, const char* path = "settings");

}  // namespace referee::warmaster
