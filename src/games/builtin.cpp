#include "referee/games/builtin.hpp"

#include "referee/ancients/game_interface.hpp"
#include "referee/ancients/rules.hpp"
#include "referee/blightmeer/game_interface.hpp"
#include "referee/blightmeer/rules.hpp"
#include "referee/warmaster/game_interface.hpp"
#include "referee/warmaster/model/rules.hpp"

namespace referee {

namespace {

// Each system's entry: its game interface, its rule catalogue and the
// battles it ships with. The front ends keep their own tables by system
// name (the command line's questions and pictures, the web board's module).

GameType warmaster_entry() {
  GameType t = warmaster::game_type();
  t.rules = &warmaster::rule_catalogue;
  t.battles = {
      {"default", "scenarios/warmaster/default.json", "Warmaster: the default battle (a test table, hot-seat)"},
      {"pitched-battle", "scenarios/warmaster/pitched-battle.json",
       "Warmaster: the fair battle against the computer (the fields of Hochland: you play the Empire, it the Orcs)",
       {},
       {1}},  // the Orcs: the built-in opponent's on the board's first visit
      {"combat", "scenarios/warmaster/combat.json", "Warmaster: three fights in contact (the Combat phase)"},
      {"command-crossroads", "scenarios/warmaster/command-crossroads.json", "Warmaster: the crossroads"},
      {"gap-rule", "scenarios/warmaster/gap-rule.json", "Warmaster: the gap rule"},
      {"shooting", "scenarios/warmaster/shooting.json", "Warmaster: missile troops on both sides"},
  };
  return t;
}

GameType ancients_entry() {
  GameType t = ancients::game_type();
  t.rules = &ancients::rule_catalogue;
  t.battles = {
      {"centre_clash", "scenarios/ancients/centre_clash.json", "Ancients: clash in the centre"},
      // Against the computer (the board's first visit or the menu): you play
      // the side that moves first, the built-in opponent the other; the
      // clash in the centre, the rules' worked example, stays hot-seat.
      {"river_crossing", "scenarios/ancients/river_crossing.json",
       "Ancients: river crossing (you play the Cimbri, the computer the Romans)", {}, {0}},
      {"lines_engaged", "scenarios/ancients/lines_engaged.json",
       "Ancients: lines engaged, to the banners (you play Rome, the computer Carthage)", {}, {1}},
  };
  return t;
}

GameType blightmeer_entry() {
  GameType t = blightmeer::game_type();
  t.rules = &blightmeer::rule_catalogue;
  t.battles = {
      {"town", "scenarios/blightmeer/town.json", "Blightmeer: the town"},
      {"ruin", "scenarios/blightmeer/ruin.json", "Blightmeer: the ruin"},
  };
  return t;
}

}  // namespace

const GameRegistry& builtin_games() {
  static const GameRegistry registry = [] {
    GameRegistry r;
    r.add(warmaster_entry());
    r.add(ancients_entry());
    r.add(blightmeer_entry());
    return r;
  }();
  return registry;
}

std::vector<BundledBattle> bundled_battles(const GameRegistry& registry) {
  std::vector<BundledBattle> out;
  for (const GameType& t : registry.types())
    for (const BattleInfo& b : t.battles) out.push_back({t.name, b.name, b.file, b.title});
  return out;
}

const std::vector<BundledBattle>& bundled_battles() {
  static const std::vector<BundledBattle> battles = bundled_battles(builtin_games());
  return battles;
}

}  // namespace referee
