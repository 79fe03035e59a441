// Random whole battles (OpenSpiel's random simulation, issue "the end of the
// battle"): hundreds of games on the bundled battles with troop profiles,
// every side's turn through its Command, Shooting and Combat phases, to the
// end of the battle. After every action: no stand overlaps another unit's; no
// unit stands in terrain its type may not enter; after a Shooting phase, the
// stands removed match the hits ("a stand is removed for every Hits value of
// unsaved hits"); and the battle ends by its turn limit or a break point
// (docs/rulings.md#warmaster-end-of-battle).
#include <gtest/gtest.h>

#include <iostream>
#include <map>

#include "command_fixtures.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/opponent/command_sim.hpp"
#include "referee/warmaster/model/troops.hpp"

namespace referee::warmaster {
namespace {

using namespace testing;

struct Tally {
  int games = 0, actions = 0, shots = 0, stands_removed = 0, units_lost = 0;
  std::map<std::string, int> endings;  // "turn limit", "break point", "General"
};

void check_positions(const WarmasterState& s, const std::string& after) {
  const Battlefield& bf = s.battlefield();
  const Settings& set = s.settings();
  const double tol = set.contact_tolerance;
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const Unit& u = bf.units[i];
    if (s.units()[i].off_table || s.units()[i].destroyed) {
      EXPECT_TRUE(u.stands.empty()) << u.id << " after " << after;
    }
    for (std::size_t p = 0; p < u.stands.size(); ++p) {
      const OrientedRect a = u.footprint(p);
      for (std::size_t j = i + 1; j < bf.units.size(); ++j)
        for (std::size_t q = 0; q < bf.units[j].stands.size(); ++q) {
          const OrientedRect b = bf.units[j].footprint(q);
          if (a.bounds().overlaps(b.bounds())) {
            EXPECT_FALSE(overlaps(a, b, tol)) << u.id << " overlaps " << bf.units[j].id << " after " << after;
          }
        }
      for (const TerrainFeature& f : bf.terrain) {
        const bool allowed = u.type == TroopType::Flyer ? flyer_may_end_in(f.kind, set) : may_enter(u.type, f.kind, set);
        if (allowed || !a.bounds().overlaps(f.bounds)) continue;
        for (const Polygon& poly : f.pieces)
          EXPECT_FALSE(poly.points.size() >= 3 && overlaps(a, poly, tol))
              << u.id << " (" << to_string(u.type) << ") stands in " << f.id << " (" << to_string(f.kind)
              << ") after " << after;
      }
    }
  }
}

// Play sheet and the public facts: one die per Attack, hits on the score needed, a save
// per hit at or above Armour, "a stand is removed for every Hits value of
// unsaved hits", and the unit loses exactly those stands.
void check_shooting(const WarmasterState& before, const ActionOutcome& o, const WarmasterState& after, Tally& t) {
  std::map<std::string, int> unsaved;
  for (const Json& shot : o.result.at("shots")) {
    ++t.shots;
    int hits = 0, saved = 0;
    for (const Json& d : shot.at("to_hit")) hits += d.get<int>() >= shot.at("needed").get<int>();
    for (const Json& d : shot.at("saves")) saved += d.get<int>() >= shot.at("armour").get<int>();
    EXPECT_EQ(shot.at("hits").get<int>(), hits);
    EXPECT_EQ(shot.at("unsaved").get<int>(), hits - saved);
    unsaved[shot.at("target").get<std::string>()] += hits - saved;
  }
  for (const Json& c : o.result.at("casualties")) {
    const std::string id = c.at("unit").get<std::string>();
    const Unit& u0 = *before.battlefield().find_unit(id);
    const Unit& u1 = *after.battlefield().find_unit(id);
    const int per = u0.hits > 0 ? u0.hits : 1;
    const int removed = std::min(static_cast<int>(u0.stands.size()), unsaved[id] / per);
    EXPECT_EQ(c.at("unsaved").get<int>(), unsaved[id]) << id;
    EXPECT_EQ(c.at("stands_removed").get<int>(), removed) << id;
    EXPECT_EQ(u1.stands_lost, u0.stands_lost + removed) << id;
    t.stands_removed += removed;
    const UnitStatus& st = after.units()[static_cast<std::size_t>(&u1 - after.battlefield().units.data())];
    if (st.destroyed || st.off_table) {
      EXPECT_TRUE(u1.stands.empty()) << id;
    } else {
      EXPECT_EQ(u1.stands.size() + static_cast<std::size_t>(removed), u0.stands.size()) << id;
    }
  }
}

void play_battles(const std::string& file, int break_point, std::uint64_t first_seed, int games, Tally& t) {
  BattlefieldFile f = load_battlefield_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/" + file);
  if (break_point > 0)
    for (Army& a : f.battlefield.armies) a.break_point = break_point;
  const auto game = make_game(f.battlefield, f.settings);
  MoveScratch scratch;
  for (std::uint64_t seed = first_seed; seed < first_seed + static_cast<std::uint64_t>(games); ++seed) {
    WarmasterState s(game);
    SeededDice dice(seed);
    Rng rng(seed * 31 + 7);
    const sim::Observer check = [&](const WarmasterState& before, const Action& a, const ActionOutcome& o,
                                    const WarmasterState& after) {
      ASSERT_TRUE(o.verdict.legal());
      const std::string where = file + " seed " + std::to_string(seed) + ": " + to_json(a).dump();
      check_positions(after, where);
      if (a.type == ActionType::Shoot) check_shooting(before, o, after, t);
      ++t.actions;
    };
    sim::random_battle(s, dice, rng, &check, scratch, 100);
    ASSERT_TRUE(s.battle_over()) << file << " seed " << seed << ": the battle did not end";
    EXPECT_LE(s.turn(), s.settings().turn_limit + 1);
    const std::string& why = s.battle_over_reason();
    const std::string kind = why.rfind("turn limit", 0) == 0                       ? "turn limit"
                             : why.find("break point") != std::string::npos        ? "break point"
                             : why.find("General") != std::string::npos            ? "General"
                                                                                   : why;
    ++t.endings[kind];
    if (kind == "break point") {
      EXPECT_GE(s.units_lost(1 - s.winner()), s.break_point(1 - s.winner())) << why;
    }
    t.units_lost += s.units_lost(0) + s.units_lost(1);
    ++t.games;
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(BattleRandomSim, HundredsOfWholeBattlesKeepTheInvariantsAndEnd) {
  Tally t;
  play_battles("shooting.json", 0, 1, 150, t);
  // A break point of one unit, so that battles end by break point as well.
  play_battles("shooting.json", 1, 1001, 100, t);
  play_battles("default.json", 0, 2001, 50, t);
  std::cout << "whole battles: " << t.games << " games, " << t.actions << " actions, " << t.shots << " units shot, "
            << t.stands_removed << " stands removed, " << t.units_lost << " units lost; ended by";
  for (const auto& [k, n] : t.endings) std::cout << " " << k << " " << n;
  std::cout << "\n";
  EXPECT_EQ(t.games, 300);
  EXPECT_GT(t.endings["turn limit"], 0);
  EXPECT_GT(t.endings["break point"], 0);
  EXPECT_GT(t.stands_removed, 0);
}

}  // namespace
}  // namespace referee::warmaster
