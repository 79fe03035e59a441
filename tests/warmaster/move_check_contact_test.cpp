// The move check accepts the moves a player drags on a board: positions that
// only touch (within the contact tolerance) after rounding, a unit in line
// turned a few degrees, and stands that must move in an order the engine has
// to find (docs/rulings.md#warmaster-transit-model, #warmaster-move-stand-order).
// Each case also runs mirrored left-right, top-bottom and both, on the
// bundled default battle.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/movement/movement.hpp"

namespace referee::warmaster {
namespace {

struct Mirror {
  bool x = false, y = false;
  const char* name() const { return x ? (y ? "both" : "left-right") : (y ? "top-bottom" : "as given"); }
};

Vec2 mirrored(Vec2 p, const Battlefield& bf, Mirror m) {
  return {m.x ? bf.width - p.x : p.x, m.y ? bf.height - p.y : p.y};
}

// Compass facings: a left-right mirror turns f into -f, a top-bottom one into 180 - f.
Pose mirrored(Pose p, const Battlefield& bf, Mirror m) {
  double f = p.facing_deg;
  if (m.x) f = -f;
  if (m.y) f = 180 - f;
  return {mirrored(p.position, bf, m), f};
}

Battlefield mirrored(const Battlefield& bf, Mirror m) {
  Battlefield out = bf;
  for (TerrainFeature& f : out.terrain) {
    for (Polygon& piece : f.pieces) {
      for (Vec2& v : piece.points) v = mirrored(v, bf, m);
      if (piece.signed_area() < 0) std::reverse(piece.points.begin(), piece.points.end());
    }
    f.bounds = f.pieces.front().bounds();
    for (const Polygon& piece : f.pieces) f.bounds = f.bounds.merged(piece.bounds());
  }
  for (Unit& u : out.units)
    for (Stand& s : u.stands) s.pose = mirrored(s.pose, bf, m);
  for (Character& c : out.characters) c.pose = mirrored(c.pose, bf, m);
  return out;
}

MoveRequest move(const std::string& unit, const std::vector<Pose>& to) {
  MoveRequest req;
  req.mover = unit;
  req.kind = MoveKind::Ordered;
  for (std::size_t i = 0; i < to.size(); ++i) req.stands.push_back({StandIndex(i), {}, to[i]});
  return req;
}

MoveRequest mirrored(MoveRequest req, const Battlefield& bf, Mirror m) {
  for (StandPlan& p : req.stands) p.final_pose = mirrored(p.final_pose, bf, m);
  return req;
}

class DraggedMoves : public ::testing::Test {
 protected:
  BattlefieldFile file = load_battlefield_file(std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/default.json");
  void expect_legal(const MoveRequest& req) {
    for (Mirror m : {Mirror{}, Mirror{true, false}, Mirror{false, true}, Mirror{true, true}}) {
      const Battlefield bf = mirrored(file.battlefield, m);
      const MoveAnswer a = check_move(bf, mirrored(req, file.battlefield, m), file.settings);
      EXPECT_TRUE(a.verdict.legal()) << m.name() << ": "
                                     << (a.verdict.violations.empty() ? "" : a.verdict.violations[0].reason);
      std::vector<StandIndex> order = a.order;
      std::sort(order.begin(), order.end());
      EXPECT_EQ(values_of(order), (std::vector<int>{0, 1, 2})) << m.name() << ": the order used is reported";
    }
  }
};

// orc-boyz-2's stand 2 ends overlapping orc-archers stand 3 by 0.03 cm: within
// the 0.5 mm contact tolerance, so it touches. Its last leg into that spot
// passes 0.97 cm from the archers: more than the 0.95 cm a stand in transit
// needs (half its 2 cm shortest edge less the tolerance).
TEST_F(DraggedMoves, MovesIntoASpotWhereItOnlyTouches) {
  expect_legal(move("orc-boyz-2", {{{91.67, 108.029}, 180.0}, {{95.67, 108.029}, 180.0}, {{99.67, 108.029}, 180.0}}));
}

// A unit in line turned 3.821 degrees, as a browser sends it: its stands are
// 2.0 cm apart along the line, so each passes its neighbour at exactly the
// clearance, which is touching, not blocked.
TEST_F(DraggedMoves, AUnitInLineTurnedAFewDegreesIsNotBlockedByItself) {
  expect_legal(move("orc-trolls",
                    {{{105.677, 79.596}, 183.821}, {{107.672, 79.462}, 183.821}, {{109.668, 79.329}, 183.821}}));
}

// With no order given, the engine must find one in which every path is
// clear: stand 3 has to go round orc-archers before stand 2 closes its way.
// The listed order alone is refused, with its reason.
TEST_F(DraggedMoves, TheEngineFindsAStandOrderWhenTheListedOneIsBlocked) {
  const MoveRequest req =
      move("orc-boyz-1", {{{74.912, 113.25}, 180}, {{78.912, 113.25}, 180}, {{82.912, 113.25}, 180}});
  expect_legal(req);
  MoveRequest listed = req;
  listed.order = {StandIndex(0), StandIndex(1), StandIndex(2)};
  const MoveAnswer a = check_move(file.battlefield, listed, file.settings);
  ASSERT_FALSE(a.verdict.legal());
  EXPECT_NE(a.verdict.violations[0].reason.find("stand 3: blocked by friendly orc-archers stand 1"), std::string::npos)
      << a.verdict.violations[0].reason;
  const MoveAnswer found = check_move(file.battlefield, req, file.settings);
  EXPECT_NE(values_of(found.order), (std::vector<int>{0, 1, 2}));
}

}  // namespace
}  // namespace referee::warmaster
