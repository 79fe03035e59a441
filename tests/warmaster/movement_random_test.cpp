// Random simulation: rigid moves of random units on the generated field.
// Validation must never throw on a well-formed request, and a move it calls
// legal, once applied, must give a battlefield the parser accepts (no
// overlapping stands, everything finite), with every stand within its allowance.
#include <gtest/gtest.h>

#include "../../bench/warmaster_field.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/movement/movement.hpp"

using namespace referee;
using namespace referee::warmaster;

TEST(MovementRandom, LegalMovesApplyToValidBattlefields) {
  Battlefield bf = bench::make_field(40);
  MoveIndex index(bf);
  Rng rng(7);
  int legal = 0, illegal = 0, planned = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Unit& u = bf.units[rng.below(bf.units.size())];
    // Turn the whole unit about its centre and move it: a rigid move keeps its formation.
    Vec2 centre{0, 0};
    for (const auto& s : u.stands) centre += s.pose.position;
    centre = centre / static_cast<double>(u.stands.size());
    double turn = bench::uniform(rng, -60, 60);
    double dir = bench::uniform(rng, 0, 360), dist = bench::uniform(rng, 0, 25);
    Rot r = Rot::from_degrees(turn);
    Vec2 shift = Rot::from_degrees(dir).forward() * dist;
    MoveRequest req;
    req.mover = u.id;
    for (std::size_t s = 0; s < u.stands.size(); ++s) {
      Vec2 local = u.stands[s].pose.position - centre;
      // Rot::apply turns clockwise by the facing; stands turn with the unit.
      Pose to{centre + r.apply(local) + shift, normalize_degrees(u.stands[s].pose.facing_deg + turn)};
      req.stands.push_back({StandIndex(s), {}, to});
    }
    MoveAnswer a;
    ASSERT_NO_THROW(a = check_move(bf, index, req)) << "trial " << trial;
    ASSERT_EQ(a.routes.size(), u.stands.size());
    if (!a.verdict.legal()) {
      ++illegal;
      for (const auto& v : a.verdict.violations) EXPECT_FALSE(v.reason.empty());
      continue;
    }
    ++legal;
    for (const auto& route : a.routes) {
      EXPECT_LE(route.used, a.allowance + kMeasureSlack) << "trial " << trial;
      planned += route.planned;
    }
    Battlefield after = apply_move(bf, req);
    EXPECT_NO_THROW(parse_battlefield(to_json(after))) << "trial " << trial << " unit " << u.id;
    // The same answer with the index the one-argument form builds itself.
    EXPECT_EQ(check_move(bf, req).verdict.legal(), true);
  }
  // The sample exercises both outcomes.
  EXPECT_GT(legal, 20);
  EXPECT_GT(illegal, 20);
  RecordProperty("planned", planned);
}

// Checking for legality only (CheckDepth::Legality, what undescribed play
// uses) gives the same answer as explaining: slides of every unit on the
// bench field in random directions, many of them blocked and needing a
// detour, some at the edge of the allowance. Legal moves get routes of the
// same length; refused ones still carry a reason.
TEST(MovementRandom, LegalityAloneGivesTheSameAnswers) {
  Battlefield bf = bench::make_field(40);
  MoveIndex index(bf);
  Rng rng(11);
  int legal = 0, refused = 0, detours = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const Unit& u = bf.units[rng.below(bf.units.size())];
    const double dir = bench::uniform(rng, 0, 360);
    const double dist = bench::uniform(rng, 2, 32);
    const MoveRequest req = slide_move(u, Rot::from_degrees(dir).forward() * dist, MoveKind::Ordered);
    const MoveAnswer full = check_move(bf, index, req, {}, CheckDepth::Explain);
    const MoveAnswer quick = check_move(bf, index, req, {}, CheckDepth::Legality);
    ASSERT_EQ(quick.verdict.legal(), full.verdict.legal()) << "trial " << trial << " unit " << u.id;
    if (!full.verdict.legal()) {
      ++refused;
      EXPECT_FALSE(quick.verdict.violations.empty());
      continue;
    }
    ++legal;
    ASSERT_EQ(quick.routes.size(), full.routes.size());
    for (std::size_t k = 0; k < full.routes.size(); ++k) {
      EXPECT_NEAR(quick.routes[k].used, full.routes[k].used, 1e-9) << "trial " << trial;
      detours += full.routes[k].planned;
    }
  }
  EXPECT_GT(legal, 100);
  EXPECT_GT(refused, 100);
  EXPECT_GT(detours, 10);  // the sample includes moves that need a planned route
}

// Checking only whether (CheckDepth::Whether, what a drive back's halving
// asks) gives Legality's answer: legal or not, leaving the table or not, and
// for a refused move Legality's first reason alone. Slides of every unit on
// the bench field, straight back with a waypoint halfway as drive backs go
// and plain ones the engine may plan round what blocks them, through one
// scratch as a halving uses it, some far enough to leave the table.
TEST(MovementRandom, WhetherGivesLegalitysAnswerAndFirstReason) {
  Battlefield bf = bench::make_field(40);
  MoveIndex index(bf);
  MoveScratch scratch;
  Rng rng(31);
  int legal = 0, refused = 0, left = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const Unit& u = bf.units[rng.below(bf.units.size())];
    const double dir = bench::uniform(rng, 0, 360);
    const double dist = bench::uniform(rng, 0.5, 60);
    const bool waypoints = trial % 2 == 0;
    MoveRequest req = slide_move(u, Rot::from_degrees(dir).forward() * dist,
                                 waypoints ? MoveKind::Dice : MoveKind::Ordered, dist);
    if (waypoints)
      for (StandPlan& p : req.stands) {
        const Pose& from = u.stands[p.stand.slot()].pose;
        p.waypoints.push_back({(from.position + p.final_pose.position) / 2, from.facing_deg});
      }
    const MoveAnswer full = check_move(bf, index, req, {}, CheckDepth::Legality);
    const MoveAnswer quick = check_move(bf, index, req, {}, scratch, CheckDepth::Whether);
    ASSERT_EQ(quick.verdict.legal(), full.verdict.legal()) << "trial " << trial << " unit " << u.id;
    ASSERT_EQ(quick.leaves_table, full.leaves_table) << "trial " << trial << " unit " << u.id;
    left += full.leaves_table;
    if (full.verdict.legal()) {
      ++legal;
      continue;
    }
    ++refused;
    ASSERT_EQ(quick.verdict.violations.size(), 1u) << "trial " << trial;
    EXPECT_EQ(quick.verdict.violations[0].rule, full.verdict.violations[0].rule) << "trial " << trial;
    EXPECT_EQ(quick.verdict.violations[0].reason, full.verdict.violations[0].reason) << "trial " << trial;
    EXPECT_EQ(quick.verdict.violations[0].figures.size(), full.verdict.violations[0].figures.size())
        << "trial " << trial;
  }
  EXPECT_GT(legal, 100);
  EXPECT_GT(refused, 100);
  EXPECT_GT(left, 10);
}
