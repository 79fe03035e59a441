// Caller-owned scratch (MoveScratch, TransitScratch): one scratch reused for
// check after check, on two battlefields in turn, gives exactly the answers
// that checks with a fresh scratch of their own give. The scratch holds only
// working space (outline storage, id lists, route buffers and the corner
// cache); nothing in it may leak from one check into the next.
#include <gtest/gtest.h>

#include "../../bench/warmaster_field.hpp"
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/movement/transit.hpp"

namespace move_scratch_test {

using namespace referee;
using namespace referee::warmaster;

void expect_same_answer(const MoveAnswer& a, const MoveAnswer& b, int trial) {
  ASSERT_EQ(a.verdict.legal(), b.verdict.legal()) << "trial " << trial;
  ASSERT_EQ(a.verdict.violations.size(), b.verdict.violations.size()) << "trial " << trial;
  for (std::size_t k = 0; k < a.verdict.violations.size(); ++k) {
    EXPECT_EQ(a.verdict.violations[k].rule, b.verdict.violations[k].rule) << "trial " << trial;
    EXPECT_EQ(a.verdict.violations[k].reason, b.verdict.violations[k].reason) << "trial " << trial;
  }
  ASSERT_EQ(a.routes.size(), b.routes.size()) << "trial " << trial;
  for (std::size_t k = 0; k < a.routes.size(); ++k) {
    EXPECT_EQ(a.routes[k].used, b.routes[k].used) << "trial " << trial;  // bit for bit
    EXPECT_EQ(a.routes[k].poses, b.routes[k].poses) << "trial " << trial;
    EXPECT_EQ(a.routes[k].planned, b.routes[k].planned) << "trial " << trial;
  }
}

TEST(MoveScratch, ReusedScratchGivesTheAnswersOfFreshOnes) {
  const Battlefield fields[2] = {bench::make_field(40), bench::make_field(80)};
  const MoveIndex indices[2] = {MoveIndex(fields[0]), MoveIndex(fields[1])};
  MoveScratch scratch;
  Rng rng(23);
  int refused = 0, detours = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int f = trial % 2;  // the two battlefields in turn, through the one scratch
    const Battlefield& bf = fields[f];
    const Unit& u = bf.units[rng.below(bf.units.size())];
    const double dir = bench::uniform(rng, 0, 360);
    const double dist = bench::uniform(rng, 2, 32);
    const MoveRequest req = slide_move(u, Rot::from_degrees(dir).forward() * dist, MoveKind::Ordered);
    const CheckDepth depth = trial % 4 < 2 ? CheckDepth::Explain : CheckDepth::Legality;
    const MoveAnswer reused = check_move(bf, indices[f], req, {}, scratch, depth);
    const MoveAnswer fresh = check_move(bf, indices[f], req, {}, depth);
    expect_same_answer(reused, fresh, trial);
    refused += !fresh.verdict.legal();
    for (const StandRoute& r : fresh.routes) detours += r.planned;
  }
  EXPECT_GT(refused, 50);
  EXPECT_GT(detours, 5);  // route searches ran through the shared buffers
}

// Several scenes may share one scratch, as long as it outlives them; their
// routes are the routes of scenes with their own.
TEST(MoveScratch, ScenesSharingAScratchPlanTheSameRoutes) {
  const Battlefield bf = bench::make_field(40);
  TransitScratch shared;
  Rng rng(5);
  int found = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const Unit& u = bf.units[rng.below(bf.units.size())];
    const Unit& w = bf.units[rng.below(bf.units.size())];
    TransitScene a(bf, u, {}, {}, &shared), b(bf, w, {}, {}, &shared);
    TransitScene own_a(bf, u, {}, {}), own_b(bf, w, {}, {});
    const Pose from_a = u.stands[0].pose, from_b = w.stands[0].pose;
    Pose to = from_a;
    to.position += Vec2{bench::uniform(rng, -30, 30), bench::uniform(rng, -30, 30)};
    const auto ra = a.shortest_route(from_a, to, 60), rb = b.shortest_route(from_b, to, 60);
    EXPECT_EQ(ra, own_a.shortest_route(from_a, to, 60)) << "trial " << trial;
    EXPECT_EQ(rb, own_b.shortest_route(from_b, to, 60)) << "trial " << trial;
    found += ra.has_value();
  }
  EXPECT_GT(found, 20);
}

}  // namespace move_scratch_test
