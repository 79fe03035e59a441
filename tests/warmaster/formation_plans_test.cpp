// Formation plans (movement/formation_plans.hpp) and the board's
// formation_plan query (battle/queries.cpp): a unit re-formed in a line
// facing a point, or in a column along a path, with real stand sizes
// (infantry stands 4 cm wide, 2 cm deep; full pace 20 cm: play sheet,
// "Movement").
#include <gtest/gtest.h>

#include <cmath>

#include "command_fixtures.hpp"
#include "referee/core/errors.hpp"
#include "referee/warmaster/battle/queries.hpp"
#include "referee/warmaster/model/rule_ids.hpp"
#include "referee/warmaster/movement/formation_plans.hpp"
#include "referee/warmaster/movement/move_json.hpp"

namespace referee::warmaster {
namespace {

using namespace testing;

Json ask(const WarmasterState& s, const Json& args) { return answer_query(s, "formation_plan", args, "args", nullptr); }

const StandPlan& plan_of(const MoveRequest& req, int stand) {
  for (const StandPlan& p : req.stands)
    if (p.stand == StandIndex(stand)) return p;
  throw std::logic_error("stand not planned");
}

// Three infantry stands in a line at y 50, x 56, 60 and 64, facing north.
// Along a straight path 12 cm north from the centre, the column's lead ends
// at the path's end and the others 2 cm (one stand's depth) behind each
// other: the back edge of each (y - 1) is the front edge of the next.
TEST(FormationPlans, ColumnAlongAStraightPathTouchesFrontToBack) {
  const Unit u = line_unit("U", 0, 60, 50);
  const auto req = column_along(u, {{60, 50}, {60, 56}, {60, 62}}, MoveKind::Ordered);
  ASSERT_TRUE(req);
  ASSERT_EQ(req->stands.size(), 3u);
  const double ys[] = {62, 60, 58};
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_NEAR(req->stands[k].final_pose.position.x, 60, 1e-9);
    EXPECT_NEAR(req->stands[k].final_pose.position.y, ys[k], 1e-9);
    EXPECT_NEAR(req->stands[k].final_pose.facing_deg, 0, 1e-9);
  }
  for (std::size_t k = 1; k < 3; ++k)
    EXPECT_NEAR(distance(req->stands[k - 1].final_pose.position, req->stands[k].final_pose.position), 2.0, 1e-9);
  // The centre stand is nearest the lead's place and leads; they move lead first.
  EXPECT_EQ(req->stands[0].stand, StandIndex(1));
  EXPECT_EQ(values_of(req->order), (std::vector<int>{1, 0, 2}));
  // Eastward, the column faces 90 degrees.
  const auto east = column_along(u, {{60, 50}, {72, 50}}, MoveKind::Ordered);
  ASSERT_TRUE(east);
  for (const StandPlan& p : east->stands) EXPECT_NEAR(p.final_pose.facing_deg, 90, 1e-9);
  EXPECT_NEAR(east->stands[2].final_pose.position.x, 68, 1e-9);
  // A path shorter than the column: the tail stands on the first segment carried back.
  const auto short_path = column_along(u, {{60, 50}, {60, 51}}, MoveKind::Ordered);
  ASSERT_TRUE(short_path);
  EXPECT_NEAR(short_path->stands[2].final_pose.position.y, 47, 1e-9);
  // A path with no length has no way to face.
  EXPECT_FALSE(column_along(u, {{60, 50}, {60, 50}}, MoveKind::Ordered));
}

// Three stands in a column (x 60, y 50, 48, 46, facing north), centre
// (60, 48), asked for a line facing (100, 48): all three face 90 degrees,
// side by side 4 cm apart (edge to edge) across the line through the
// centre, the northernmost stand at the line's north end so no paths cross.
TEST(FormationPlans, LineFacingAPointSetsTheStandsSideBySideFacingIt) {
  Unit u = line_unit("U", 0, 60, 50);
  for (int k = 0; k < 3; ++k) u.stands[static_cast<std::size_t>(k)].pose = Pose{{60, 50.0 - 2 * k}, 0};
  const auto req = line_facing(u, {100, 48}, MoveKind::Ordered);
  ASSERT_TRUE(req);
  ASSERT_EQ(req->stands.size(), 3u);
  const double ys[] = {52, 48, 44};
  for (int k = 0; k < 3; ++k) {
    const StandPlan& p = plan_of(*req, k);
    EXPECT_NEAR(p.final_pose.position.x, 60, 1e-9);
    EXPECT_NEAR(p.final_pose.position.y, ys[k], 1e-9) << "stand " << k;
    EXPECT_NEAR(p.final_pose.facing_deg, 90, 1e-9);
  }
  EXPECT_TRUE(req->order.empty());
  // Facing south-west: the compass bearing from the centre to the point.
  const auto sw = line_facing(u, {50, 38}, MoveKind::Ordered);
  ASSERT_TRUE(sw);
  for (const StandPlan& p : sw->stands) EXPECT_NEAR(p.final_pose.facing_deg, 225, 1e-9);
  EXPECT_NEAR(distance(plan_of(*sw, 0).final_pose.position, plan_of(*sw, 1).final_pose.position), 4.0, 1e-9);
  // A point on the centre gives no facing.
  EXPECT_FALSE(line_facing(u, {60, 48}, MoveKind::Ordered));
}

Battlefield field_with(const Unit& u) {
  Battlefield bf = empty_field();
  bf.units.push_back(u);
  bf.units.push_back(line_unit("E1", 1, 60, 110, 180));
  bf.characters.push_back(character("g", 0, CharacterRole::General, 9, 60, 10));
  bf.characters.push_back(character("g1", 1, CharacterRole::General, 9, 60, 115));
  return bf;
}

// The query plans the unit's pending move and gives the verdict applying
// it would: a column along 12 cm is legal and, applied, leaves the stands
// where it said; along 30 cm the lead moves 30 cm, over the 20 cm of an
// infantry unit's full pace (warmaster.movement.distance).
TEST(FormationPlanQuery, ColumnAlongAPathIsCheckedAgainstThePace) {
  WarmasterState s(make_game(field_with(line_unit("U", 0, 60, 50))));
  const Json path12 = Json::array({{{"x", 60}, {"y", 50}}, {{"x", 60}, {"y", 62}}});
  // Not ordered yet: planned, refused now, every stand shaded.
  const Json before = ask(s, {{"unit", "U"}, {"shape", "column"}, {"path", path12}});
  EXPECT_FALSE(before["legal"].get<bool>());
  EXPECT_EQ(before["faults"], Json::array({0, 1, 2}));
  ASSERT_TRUE(play(s, order("g", {"U"}), {1, 1}).verdict.legal());

  const Json q = ask(s, {{"unit", "U"}, {"shape", "column"}, {"path", path12}});
  EXPECT_TRUE(q["legal"].get<bool>()) << q.dump();
  EXPECT_EQ(q["faults"], Json::array());
  EXPECT_EQ(q["kind"], "ordered");
  EXPECT_NEAR(q["length"].get<double>(), 12.0, 1e-9);

  const Json far = ask(s, {{"unit", "U"}, {"shape", "column"},
                          {"path", Json::array({{{"x", 60}, {"y", 50}}, {{"x", 60}, {"y", 80}}})}});
  EXPECT_FALSE(far["legal"].get<bool>());
  bool distance_ruled = false;
  for (const Json& v : far["violations"]) {
    if (v["rule"] != rule_id::movement_distance) continue;
    distance_ruled = true;
    bool allowed = false;
    for (const Json& f : v["figures"])
      if (f["name"] == "allowed") {
        allowed = true;
        EXPECT_NEAR(f["value"].get<double>(), 20.0, 1e-9);
      }
    EXPECT_TRUE(allowed) << v.dump();
  }
  EXPECT_TRUE(distance_ruled) << far.dump();
  // The lead (stand 1, the centre one) moves 30 cm: it is at fault; the
  // stands behind it 28 and 26 cm (and further at their corners).
  ASSERT_FALSE(far["faults"].empty());
  EXPECT_NE(std::find(far["faults"].begin(), far["faults"].end(), 1), far["faults"].end()) << far.dump();

  // Applying the legal plan puts the stands where the plan said.
  Action a;
  a.type = ActionType::Move;
  a.moves.push_back(parse_move_request(q["move"], s.battlefield()));
  ASSERT_TRUE(play(s, a).verdict.legal());
  const Unit& after = unit(s, "U");
  EXPECT_NEAR(after.stands[1].pose.position.y, 62, 1e-9);
  EXPECT_NEAR(after.stands[0].pose.position.y, 60, 1e-9);
  EXPECT_NEAR(after.stands[2].pose.position.y, 58, 1e-9);
}

TEST(FormationPlanQuery, ALineFacingAPointIsLegalForAnOrderedUnit) {
  WarmasterState s(make_game(field_with(line_unit("U", 0, 60, 50))));
  ASSERT_TRUE(play(s, order("g", {"U"}), {1, 1}).verdict.legal());
  // Facing east about its centre: the stands turn into a north-south line.
  const Json q = ask(s, {{"unit", "U"}, {"shape", "line"}, {"toward", {{"x", 90}, {"y", 50}}}});
  EXPECT_TRUE(q["legal"].get<bool>()) << q.dump();
  ASSERT_EQ(q["move"]["stands"].size(), 3u);
  for (const Json& st : q["move"]["stands"]) {
    EXPECT_NEAR(st["to"]["x"].get<double>(), 60, 1e-9);
    EXPECT_NEAR(st["to"]["facing"].get<double>(), 90, 1e-9);
  }
}

TEST(FormationPlanQuery, BadInputNamesTheField) {
  WarmasterState s(make_game(field_with(line_unit("U", 0, 60, 50))));
  const auto field = [&](const Json& args) {
    try {
      ask(s, args);
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("accepted");
  };
  const Json path = Json::array({{{"x", 60}, {"y", 50}}, {{"x", 60}, {"y", 62}}});
  EXPECT_EQ(field({{"unit", "nobody"}, {"shape", "line"}, {"toward", {{"x", 1}, {"y", 2}}}}), "args.unit");
  EXPECT_EQ(field({{"unit", "U"}, {"shape", "square"}, {"toward", {{"x", 1}, {"y", 2}}}}), "args.shape");
  EXPECT_EQ(field({{"unit", "U"}, {"shape", "line"}}), "args.toward");
  EXPECT_EQ(field({{"unit", "U"}, {"shape", "line"}, {"toward", {{"x", 60}, {"y", 50}}}}), "args.toward");
  EXPECT_EQ(field({{"unit", "U"}, {"shape", "line"}, {"toward", {{"x", "a"}, {"y", 2}}}}), "args.toward.x");
  EXPECT_EQ(field({{"unit", "U"}, {"shape", "line"}, {"toward", {{"x", 1}, {"y", 2}}}, {"path", path}}), "args.path");
  EXPECT_EQ(field({{"unit", "U"}, {"shape", "column"}, {"toward", {{"x", 1}, {"y", 2}}}}), "args.toward");
  EXPECT_EQ(field({{"unit", "U"}, {"shape", "column"}, {"path", Json::array({{{"x", 60}, {"y", 50}}})}}), "args.path");
  EXPECT_EQ(field({{"unit", "U"}, {"shape", "column"}, {"path", Json::array({{{"x", 60}, {"z", 50}}})}}), "args.path[0].z");
  EXPECT_EQ(field({{"unit", "U"}, {"shape", "column"}, {"path", path}, {"speed", 2}}), "args.speed");
  EXPECT_EQ(field({{"unit", "U"}, {"shape", "column"}, {"path", path}}), "accepted");
}

}  // namespace
}  // namespace referee::warmaster
