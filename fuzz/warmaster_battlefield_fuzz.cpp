// Feeds arbitrary bytes to the battlefield parser and, when a battlefield
// parses, plays a Shooting phase and a Combat phase for each side on it
// (profiles, positions, drive backs, retreats and pursuits through the move
// checker). The same bytes go to the move request parser and the move
// checker against the bundled-style battle, and to the combat options parser
// against it.
// Every failure must be an InputError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/combat/combat.hpp"
#include "referee/core/dice.hpp"
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/shooting/shooting.hpp"

namespace {

using namespace referee;
using namespace referee::warmaster;

const Battlefield& small_battle() {
  static const Battlefield bf = parse_battlefield(Json::parse(R"({
    "terrain": [{"id": "w", "kind": "wood", "polygon": [[40,30],[60,30],[60,50],[40,50],[40,30]]},
                {"id": "r", "kind": "deep_river", "line": [[0,70],[180,70]], "width": 4}],
    "armies": [{"name": "a", "units": [
                  {"id": "inf", "type": "infantry", "stands": [{"x": 46, "y": 20}, {"x": 50, "y": 20}, {"x": 54, "y": 20}]},
                  {"id": "cav", "type": "cavalry", "stands": [{"x": 80, "y": 20}, {"x": 82, "y": 20}]}],
                "characters": [{"id": "gen", "role": "general", "command": 9, "x": 50, "y": 10}]},
               {"name": "b", "units": [{"id": "foe", "type": "infantry", "stands": [{"x": 50, "y": 35, "facing": 180}]}]}]})"));
  return bf;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  Json j;
  try {
    j = parse_json_text(text, "fuzz");
  } catch (const InputError&) {
    return 0;
  }
  try {
    Settings s;
    Battlefield bf = parse_battlefield(j, &s);
    (void)to_json(bf, &s);
    for (int side = 0; side < 2; ++side) {
      SeededDice dice(size);
      const ShootingResult r = resolve_shooting(bf, side, dice, s);
      (void)explain(r);
      (void)parse_battlefield(to_json(r.after, &s), nullptr);  // what a phase leaves loads again
      SeededDice combat_dice(size + 1);
      CombatOptions o;
      for (const Unit& u : bf.units)
        if (u.side == side) o.charged.push_back(u.id);  // every charge bonus in play
      const CombatReport c = resolve_combat(bf, side, combat_dice, o, s);
      (void)explain(c);
      Json cj = c;
      (void)cj;
      (void)parse_battlefield(to_json(c.after, &s), nullptr);
    }
  } catch (const InputError&) {
  }
  try {
    const CombatOptions o = combat_options_from_json(j, small_battle());
    SeededDice dice(size);
    (void)resolve_combat(small_battle(), 0, dice, o);
  } catch (const InputError&) {
  }
  try {
    const Battlefield& bf = small_battle();
    MoveRequest req = parse_move_request(j, bf);
    MoveAnswer a = check_move(bf, req);
    (void)to_json(a);
    (void)explain(a, req);
  } catch (const InputError&) {
  }
  return 0;
}
