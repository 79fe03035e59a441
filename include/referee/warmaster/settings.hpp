// Readings that players disagree on are settings (docs/rulings.md lists each
// with the rule it concerns). Defaults follow ../shared/rules/README.md.
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace referee::warmaster {

struct Settings {
  // README reading 3: stands touch when within this distance (0.5 mm).
  double contact_tolerance = 0.05;
  // README reading 2: a failed first order still allows a half-pace move
  // (command text). Older printings: no move at all.
  bool failed_first_order_moves_half_pace = true;
  // Command text, optional rule: +1 Command on each character's first order
  // of the first turn, never above 10.
  bool first_turn_command_bonus = false;
  // Sight: whether terrain a stand is itself inside blocks its own view out.
  // README reading 6 is silent; our default lets a stand see out of, and be
  // seen inside, the feature it stands in (see docs/rulings.md).
  bool see_out_of_own_feature = true;
  // The battle ends after the second side's Command phase of this turn
  // (docs/rulings.md#warmaster-turn-limit): the texts give no battle length.
  int turn_limit = 8;
};

void to_json(nlohmann::json& j, const Settings& s);
// Reads only the fields present; unknown fields are an InputError.
Settings settings_from_json(const nlohmann::json& j, const char* path = "settings");

}  // namespace referee::warmaster
