#include "referee/games/builtin.hpp"

#include "referee/ancients/game_interface.hpp"
#include "referee/blightmeer/game_interface.hpp"
#include "referee/warmaster/game_interface.hpp"

namespace referee {

const GameRegistry& builtin_games() {
  static const GameRegistry registry = [] {
    GameRegistry r;
    r.add(warmaster::game_type());
    r.add(ancients::game_type());
    r.add(blightmeer::game_type());
    return r;
  }();
  return registry;
}

const std::vector<BundledBattle>& bundled_battles() {
  static const std::vector<BundledBattle> battles = {
      {"warmaster", "default", "scenarios/warmaster/default.json", "Warmaster: the default battle"},
      {"warmaster", "pitched-battle", "scenarios/warmaster/pitched-battle.json",
       "Warmaster: the fields of Hochland (a fair battle against the opponent)"},
      {"warmaster", "combat", "scenarios/warmaster/combat.json", "Warmaster: three fights in contact (the Combat phase)"},
      {"warmaster", "command-crossroads", "scenarios/warmaster/command-crossroads.json", "Warmaster: the crossroads"},
      {"warmaster", "gap-rule", "scenarios/warmaster/gap-rule.json", "Warmaster: the gap rule"},
      {"warmaster", "shooting", "scenarios/warmaster/shooting.json", "Warmaster: missile troops on both sides"},
      {"ancients", "centre_clash", "scenarios/ancients/centre_clash.json", "Ancients: clash in the centre"},
      {"ancients", "river_crossing", "scenarios/ancients/river_crossing.json", "Ancients: river crossing"},
      {"blightmeer", "town", "scenarios/blightmeer/town.json", "Blightmeer: the town"},
      {"blightmeer", "ruin", "scenarios/blightmeer/ruin.json", "Blightmeer: the ruin"},
  };
  return battles;
}

}  // namespace referee
