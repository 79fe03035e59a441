// The bundled terrain types and command cards, kept as JSON data and read by
// the same parser as a scenario's own additions, so the built-in set has no
// privileges a scenario lacks.
#include "referee/ancients/model.hpp"
#include "standard_data.hpp"

namespace referee::ancients {

// The published terrain effects. Rivers are impassable except at fords and
// bridges; fords make a unit stop and bridges are open
// (docs/rulings.md#ancients-terrain).
const char* const kStandardTerrainJson = R"json([
  {"id": "forest", "name": "forest", "stop": ["all"],
   "no_battle": ["all"], "no_battle_except": ["light_infantry", "light_sling_infantry", "light_bow_infantry", "auxilia", "warrior"],
   "close_combat_dice_max": 2, "blocks_sight": true, "battle_note": "at most 2 close-combat dice", "fill": "#7fb069"},
  {"id": "broken_ground", "name": "broken ground", "stop": ["mounted"], "cannot_enter": ["war_machine"],
   "no_battle": ["mounted"], "close_combat_dice_max": 2, "battle_note": "at most 2 close-combat dice", "fill": "#c9a66b"},
  {"id": "hill", "name": "hill", "close_combat_dice_max": 2, "uphill_only": true, "blocks_sight": true, "battle_note": "at most 2 close-combat dice attacking uphill", "fill": "#e6cf8b"},
  {"id": "marsh", "name": "marsh", "stop": ["all"], "cannot_enter": ["war_machine"],
   "leave_limit": {"hexes": 1, "who": ["all"]}, "close_combat_dice_max": 2, "battle_note": "at most 2 close-combat dice", "fill": "#8fb8a8"},
  {"id": "river", "name": "river", "cannot_enter": ["all"], "blocks_leaders": true, "fill": "#6fa8dc"},
  {"id": "ford", "name": "ford", "stop": ["all"], "fill": "#a4c8e8"},
  {"id": "bridge", "name": "bridge", "fill": "#b08d57"}
])json";

// Section cards carry the helmet (lone leaders and detaching); troop cards
// order as many as the player's command. Battle effects of tactic cards are
// listed in not_applied.
const char* const kStandardCardsJson = R"json([
  {"id": "order-one-left", "name": "Order One Unit Left", "kind": "section", "sections": {"left": 1}, "lone_leaders": true, "detach": true},
  {"id": "order-one-center", "name": "Order One Unit Center", "kind": "section", "sections": {"center": 1}, "lone_leaders": true, "detach": true},
  {"id": "order-one-right", "name": "Order One Unit Right", "kind": "section", "sections": {"right": 1}, "lone_leaders": true, "detach": true},
  {"id": "order-two-left", "name": "Order Two Units Left", "kind": "section", "sections": {"left": 2}, "lone_leaders": true, "detach": true},
  {"id": "order-two-center", "name": "Order Two Units Center", "kind": "section", "sections": {"center": 2}, "lone_leaders": true, "detach": true},
  {"id": "order-two-right", "name": "Order Two Units Right", "kind": "section", "sections": {"right": 2}, "lone_leaders": true, "detach": true},
  {"id": "order-three-left", "name": "Order Three Units Left", "kind": "section", "sections": {"left": 3}, "lone_leaders": true, "detach": true},
  {"id": "order-three-center", "name": "Order Three Units Center", "kind": "section", "sections": {"center": 3}, "lone_leaders": true, "detach": true},
  {"id": "order-three-right", "name": "Order Three Units Right", "kind": "section", "sections": {"right": 3}, "lone_leaders": true, "detach": true},
  {"id": "order-four-center", "name": "Order Four Units Center", "kind": "section", "sections": {"center": 4}, "lone_leaders": true, "detach": true},
  {"id": "coordinated-advance", "name": "Coordinated Advance", "kind": "section", "sections": {"left": 1, "center": 1, "right": 1}, "lone_leaders": true, "detach": true},
  {"id": "order-light-troops", "name": "Order Light Troops", "kind": "troop", "troops": ["light"], "count": "command", "light_pass_through": true, "fallback_one_unit": true},
  {"id": "order-medium-troops", "name": "Order Medium Troops", "kind": "troop", "troops": ["medium"], "count": "command", "fallback_one_unit": true},
  {"id": "order-heavy-troops", "name": "Order Heavy Troops", "kind": "troop", "troops": ["heavy"], "count": "command", "fallback_one_unit": true},
  {"id": "order-mounted-troops", "name": "Order Mounted Troops", "kind": "troop", "troops": ["mounted"], "count": "command", "lone_leaders": true, "detach": true, "fallback_one_unit": true},
  {"id": "leadership-any-section", "name": "Leadership Any Section", "kind": "leadership", "linked": 3, "fallback_one_unit": true},
  {"id": "move-fire-move", "name": "Move-Fire-Move", "kind": "troop", "troops": ["light_foot"], "count": "command", "light_pass_through": true, "fallback_one_unit": true,
   "not_applied": "ordered units may move, fire, and move again: the fire and the second move belong to battle and are not applied"},
  {"id": "i-am-spartacus", "name": "I am Spartacus", "kind": "spartacus", "count": "command", "detach": true,
   "not_applied": "the extra close-combat die for units with leaders is a battle effect and is not applied"}
])json";

}  // namespace referee::ancients
