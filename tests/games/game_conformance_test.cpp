// Every registered system passes the same generic tests (OpenSpiel's
// RandomSimTest): random legal games from every bundled battle, with each
// system's own invariants after every action, and the log replayed at the
// end (support/game_conformance.hpp lists what is checked).
#include <gtest/gtest.h>

#include <iostream>

#include "referee/ancients/game_interface.hpp"
#include "referee/blightmeer/game_interface.hpp"
#include "referee/core/files.hpp"
#include "referee/core/json_io.hpp"
#include "referee/games/builtin.hpp"
#include "referee/warmaster/game_interface.hpp"
#include "support/game_conformance.hpp"

namespace referee {

// Names the parameter in failure messages.
void PrintTo(const BundledBattle& b, std::ostream* os) { *os << b.file; }

namespace {

std::shared_ptr<const Game> bundled(const BundledBattle& b) {
  return builtin_games().at(b.system).load(load_json_file(std::string(REFEREE_SOURCE_DIR) + "/" + b.file), b.file,
                                           Json::object());
}

// No stand of one unit overlaps a stand of another (touching is not overlapping).
void warmaster_invariant(const GameState& gs) {
  const warmaster::WarmasterState* s = typed_state<warmaster::System>(gs);
  ASSERT_NE(s, nullptr);
  const warmaster::Battlefield& bf = s->battlefield();
  const double tol = s->settings().contact_tolerance;
  for (std::size_t i = 0; i < bf.units.size(); ++i)
    for (std::size_t j = i + 1; j < bf.units.size(); ++j)
      for (std::size_t p = 0; p < bf.units[i].stands.size(); ++p)
        for (std::size_t q = 0; q < bf.units[j].stands.size(); ++q) {
          const OrientedRect a = bf.units[i].footprint(p), b = bf.units[j].footprint(q);
          if (a.bounds().overlaps(b.bounds())) {
            EXPECT_FALSE(overlaps(a, b, tol)) << bf.units[i].id << " overlaps " << bf.units[j].id;
          }
        }
  // Engaged is contact, after every action (docs/rulings.md#warmaster-engaged):
  // measured here stand by stand, not through contact.hpp's sweep.
  for (const warmaster::Unit& u : bf.units) {
    bool touching = false;
    for (const warmaster::Unit& e : bf.units)
      if (e.side != u.side)
        for (std::size_t p = 0; p < u.stands.size() && !touching; ++p)
          for (std::size_t q = 0; q < e.stands.size() && !touching; ++q)
            touching = distance(u.footprint(p), e.footprint(q)) <= tol;
    EXPECT_EQ(u.engaged, touching) << u.id << (touching ? " touches an enemy but is not marked engaged"
                                                        : " is marked engaged but touches no enemy");
  }
}

// Each hex holds at most one unit, and the occupancy index agrees with the units.
void ancients_invariant(const GameState& gs) {
  const ancients::AncientsState* s = typed_state<ancients::System>(gs);
  ASSERT_NE(s, nullptr);
  const ancients::Position& p = s->position;
  std::vector<int> seen(p.unit_at.size(), 0);
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    const int hex = p.units[u].hex;
    if (hex < 0) continue;  // eliminated
    ASSERT_LT(static_cast<std::size_t>(hex), seen.size());
    EXPECT_EQ(++seen[static_cast<std::size_t>(hex)], 1) << "two units on hex " << hex;
    EXPECT_EQ(p.unit_on(hex), static_cast<int>(u));
  }
}

// No two standing units' bases overlap, and every unit stands on a level.
void blightmeer_invariant(const Game& g, const GameState& gs) {
  const blightmeer::BlightmeerState* s = typed_state<blightmeer::System>(gs);
  const blightmeer::Battle* b = typed_context<blightmeer::System>(g);
  ASSERT_NE(s, nullptr);
  ASSERT_NE(b, nullptr);
  const auto& units = s->state.units;
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (units[i].incapacitated) continue;
    EXPECT_NEAR(units[i].pos.z, b->terrain->level_at(units[i].pos.xy()), blightmeer::kPlaceTolerance) << units[i].id;
    for (std::size_t j = i + 1; j < units.size(); ++j) {
      if (units[j].incapacitated || std::abs(units[i].pos.z - units[j].pos.z) > 1e-6) continue;
      EXPECT_GE(distance(units[i].pos.xy(), units[j].pos.xy()) + 1e-6, units[i].radius() + units[j].radius())
          << units[i].id << " overlaps " << units[j].id;
    }
  }
}

class EveryBundledBattle : public ::testing::TestWithParam<BundledBattle> {};

TEST_P(EveryBundledBattle, RandomGamesPassEveryGenericCheck) {
  const BundledBattle& b = GetParam();
  const auto game = bundled(b);
  conformance::Options o;
  o.max_actions = b.system == "warmaster" ? 250 : 300;
  o.round_trip_every = b.system != "warmaster";
  if (b.system == "warmaster") o.invariant = warmaster_invariant;
  if (b.system == "ancients") o.invariant = ancients_invariant;
  if (b.system == "blightmeer") o.invariant = [&game](const GameState& s) { blightmeer_invariant(*game, s); };
  int actions = 0, finished = 0, refusals = 0, chance = 0;
  std::set<std::string> rules;
  // Three games, and more (up to ten) where games end soon, as the Combat
  // phase's battle does (its units begin in contact), so every battle is
  // checked over more than 30 actions.
  int games = 0;
  for (std::uint64_t seed = 1; seed <= 10 && (seed <= 3 || actions <= 30); ++seed, ++games) {
    const conformance::Stats st = conformance::random_game(builtin_games(), game, seed, o);
    actions += st.actions;
    finished += st.finished;
    refusals += st.refusals_tested;
    chance += st.chance_actions;
    rules.insert(st.rules_seen.begin(), st.rules_seen.end());
  }
  std::cout << b.system << " " << b.name << ": " << actions << " actions, " << finished << " of " << games << " games finished, "
            << refusals << " refusals checked, " << chance << " actions with dice, " << rules.size()
            << " rule ids seen\n";
  EXPECT_GT(actions, 30);
  EXPECT_GT(refusals, 0);
}

// Commands & Colors: Ancients is played to the victory banners: random games
// on every bundled Ancients battle with units on both sides reach a side's
// banners, with every generic check on the way. Random units seldom meet, so
// the scenario's turn limit is lifted (random play takes about 220 turns on
// the centre clash); the banners, not the clock, end every game.
TEST(AncientsConformance, RandomGamesOnEveryBundledBattleEndOnTheirBanners) {
  int battles = 0;
  for (const BundledBattle& b : bundled_battles()) {
    if (b.system != "ancients") continue;
    Json battle = load_json_file(std::string(REFEREE_SOURCE_DIR) + "/" + b.file);
    bool both_sides = false;
    for (const Json& u : battle.at("units")) both_sides |= u.value("side", 0) == 1;
    if (!both_sides) continue;  // the empty board: nothing to fight
    ++battles;
    battle["turn_limit"] = 1000;  // the most a scenario may give
    const auto game = builtin_games().at("ancients").load(battle, b.file, Json::object());
    conformance::Options o;
    o.max_actions = 20000;
    o.round_trip_every = false;
    o.legal_checked = 2;
    // Whole games to their banners, thousands of actions: the chance step of
    // each action is checked on every battle by EveryBundledBattle.
    o.chance_steps = false;
    o.invariant = ancients_invariant;
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      const conformance::Stats st = conformance::random_game(builtin_games(), game, seed, o);
      ASSERT_TRUE(st.finished) << b.file << " seed " << seed << ": not over after " << st.actions << " actions";
      EXPECT_FALSE(st.result.at("winner").is_null()) << b.file << " seed " << seed << ": " << st.result.dump();
      EXPECT_NE(st.result.at("reason").get<std::string>().find("victory banner"), std::string::npos)
          << b.file << " seed " << seed << ": " << st.result.dump();
      std::cout << b.file << " seed " << seed << ": " << st.actions << " actions, "
                << st.result.at("reason").get<std::string>() << "\n";
    }
  }
  EXPECT_GE(battles, 3);
}

INSTANTIATE_TEST_SUITE_P(Bundled, EveryBundledBattle, ::testing::ValuesIn(bundled_battles()),
                         [](const ::testing::TestParamInfo<BundledBattle>& info) {
                           std::string n = info.param.system + "_" + info.param.name;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(Registry, HoldsTheThreeSystemsAndTheirQueries) {
  EXPECT_EQ(builtin_games().names(), (std::vector<std::string>{"warmaster", "ancients", "blightmeer"}));
  for (const BundledBattle& b : bundled_battles()) {
    const auto game = bundled(b);
    EXPECT_EQ(game->system(), b.system);
    EXPECT_EQ(game->players().size(), 2u) << b.file;
    EXPECT_FALSE(game->rules().empty()) << b.file;
    std::vector<std::string> a, c;
    for (const QueryInfo& q : game->queries()) a.push_back(q.name);
    for (const QueryInfo& q : builtin_games().at(b.system).queries) c.push_back(q.name);
    EXPECT_EQ(a, c) << b.file;
  }
}

}  // namespace
}  // namespace referee
