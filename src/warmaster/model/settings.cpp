#include "referee/warmaster/model/settings.hpp"

#include <nlohmann/json.hpp>

#include "referee/core/json_io.hpp"

namespace referee::warmaster {

void to_json(nlohmann::json& j, const Settings& s) {
  j = nlohmann::json{{"contact_tolerance", s.contact_tolerance},
                     {"failed_first_order_moves_half_pace", s.failed_first_order_moves_half_pace},
                     {"first_turn_command_bonus", s.first_turn_command_bonus},
                     {"see_out_of_own_feature", s.see_out_of_own_feature},
                     {"turn_limit", s.turn_limit},
                     {"open_villages_and_broken_ground", s.open_villages_and_broken_ground}};
  // Written only when changed, so that logs and battle files written before
  // the Combat phase existed stay byte for byte what they were.
  if (s.blocked_retreat_cm_per_stand != Settings{}.blocked_retreat_cm_per_stand)
    j["blocked_retreat_cm_per_stand"] = s.blocked_retreat_cm_per_stand;
  if (s.shoot_into_combat != Settings{}.shoot_into_combat) j["shoot_into_combat"] = s.shoot_into_combat;
  if (s.range_per_stand != Settings{}.range_per_stand) j["range_per_stand"] = s.range_per_stand;
  if (s.blunders != Settings{}.blunders) j["blunders"] = s.blunders;
}

Settings settings_from_json(const nlohmann::json& j, const char* path) {
  JsonReader r(j, path ? path : "settings");
  r.require_object();
  r.allow_only({"contact_tolerance", "failed_first_order_moves_half_pace", "first_turn_command_bonus",
                "see_out_of_own_feature", "turn_limit", "open_villages_and_broken_ground",
                "blocked_retreat_cm_per_stand", "shoot_into_combat", "range_per_stand", "blunders"});
  Settings s;
  // Up to 5 mm: anything larger would call stands a hand's breadth apart "touching".
  s.contact_tolerance = r.number_or("contact_tolerance", s.contact_tolerance, 0.0, 0.5);
  s.failed_first_order_moves_half_pace =
      r.boolean_or("failed_first_order_moves_half_pace", s.failed_first_order_moves_half_pace);
  s.first_turn_command_bonus = r.boolean_or("first_turn_command_bonus", s.first_turn_command_bonus);
  s.see_out_of_own_feature = r.boolean_or("see_out_of_own_feature", s.see_out_of_own_feature);
  s.turn_limit = r.integer_or("turn_limit", s.turn_limit, 1, 1000);
  s.open_villages_and_broken_ground = r.boolean_or("open_villages_and_broken_ground", s.open_villages_and_broken_ground);
  // From a hair (any shortfall costs every stand) to a table's length (none does).
  s.blocked_retreat_cm_per_stand =
      r.number_or("blocked_retreat_cm_per_stand", s.blocked_retreat_cm_per_stand, 0.01, 1000.0);
  s.shoot_into_combat = r.boolean_or("shoot_into_combat", s.shoot_into_combat);
  s.range_per_stand = r.boolean_or("range_per_stand", s.range_per_stand);
  s.blunders = r.boolean_or("blunders", s.blunders);
  return s;
}

}  // namespace referee::warmaster
