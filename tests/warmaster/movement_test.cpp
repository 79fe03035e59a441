// Move checking, with figures from the movement text.
#include "referee/warmaster/movement/movement.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "movement_test_support.hpp"
#include "referee/warmaster/model/troops.hpp"

using namespace referee;
using namespace referee::warmaster;
using referee::warmaster::testing::field;
using referee::warmaster::testing::request;

namespace {

// Three infantry stands in a line at y = 20, centres 4 cm apart.
const char* kInfantryLine =
    R"([{"id": "inf", "type": "infantry", "stands": [{"x": 46, "y": 20}, {"x": 50, "y": 20}, {"x": 54, "y": 20}]}])";
// The same stands one behind the other: a column.
const char* kInfantryColumn =
    R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 20}, {"x": 50, "y": 18}, {"x": 50, "y": 16}]}])";
// Two side by side and one astride them behind: irregular.
const char* kInfantryIrregular =
    R"([{"id": "inf", "type": "infantry", "stands": [{"x": 48, "y": 20}, {"x": 52, "y": 20}, {"x": 50, "y": 22}]}])";

bool has_rule(const MoveAnswer& a, const std::string& rule) { return a.verdict.has(rule); }

std::string reasons(const MoveAnswer& a) { return explain(a.verdict); }

}  // namespace

// --- warmaster.movement.pace ----------------------------------------------------

TEST(MovementPace, FullPacePerTroopType) {
  // "infantry units and monsters move up to 20cm ... cavalry and chariots move 30cm and artillery ... 10cm.
  //  Flying troops can move up to 100cm"
  EXPECT_EQ(full_pace(TroopType::Infantry), 20);
  EXPECT_EQ(full_pace(TroopType::Monster), 20);
  EXPECT_EQ(full_pace(TroopType::Cavalry), 30);
  EXPECT_EQ(full_pace(TroopType::Chariot), 30);
  EXPECT_EQ(full_pace(TroopType::Artillery), 10);
  EXPECT_EQ(full_pace(TroopType::Flyer), 100);
  Unit machine;
  machine.type = TroopType::Machine;
  machine.machine_pace = 15;
  EXPECT_EQ(move_pace(machine, MoveKind::Ordered, Formation::Line).allowance, 15);
}

TEST(MovementPace, IrregularFormationMovesAtHalfPace) {
  // "infantry are able to move up to 10cm, cavalry up to 15cm and so on"
  Unit inf;
  inf.type = TroopType::Infantry;
  Unit cav;
  cav.type = TroopType::Cavalry;
  EXPECT_EQ(move_pace(inf, MoveKind::Ordered, Formation::Irregular).allowance, 10);
  EXPECT_EQ(move_pace(cav, MoveKind::Ordered, Formation::Irregular).allowance, 15);
  EXPECT_EQ(move_pace(inf, MoveKind::Ordered, Formation::Column).allowance, 20);
  EXPECT_EQ(move_pace(cav, MoveKind::Ordered, Formation::Line).allowance, 30);
}

TEST(MovementPace, ChargesAndEvadesAreFullPaceWhateverTheFormation) {
  Unit cav;
  cav.type = TroopType::Cavalry;
  EXPECT_EQ(move_pace(cav, MoveKind::Charge, Formation::Irregular).allowance, 30);
  EXPECT_EQ(move_pace(cav, MoveKind::Evade, Formation::Irregular).allowance, 30);
  cav.fortified = true;  // "unless they are charging or evading, in which case they move at full pace"
  EXPECT_EQ(move_pace(cav, MoveKind::Charge, Formation::Line).allowance, 30);
}

TEST(MovementPace, FortifiedUnitsMoveAtHalfPaceEvenInFormation) {
  Unit inf;
  inf.type = TroopType::Infantry;
  inf.fortified = true;
  Pace p = move_pace(inf, MoveKind::Ordered, Formation::Line);
  EXPECT_EQ(p.allowance, 10);
  EXPECT_EQ(p.label, "half pace (fortified at the start)");
}

TEST(MovementPace, DiceMovesIgnoreFormation) {
  Unit inf;
  inf.type = TroopType::Infantry;
  EXPECT_EQ(move_pace(inf, MoveKind::Dice, Formation::Irregular, 14.0).allowance, 14);
}

// --- warmaster.movement.formation -----------------------------------------------

TEST(MovementFormation, RecognisesLineColumnAndIrregular) {
  EXPECT_EQ(classify_formation(field("[]", kInfantryLine).units[0]), Formation::Line);
  EXPECT_EQ(classify_formation(field("[]", kInfantryColumn).units[0]), Formation::Column);
  EXPECT_EQ(classify_formation(field("[]", kInfantryIrregular).units[0]), Formation::Irregular);
}

TEST(MovementFormation, OneStandIsRegular) {
  Battlefield bf = field("[]", R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 20, "facing": 33}]}])");
  EXPECT_NE(classify_formation(bf.units[0]), Formation::Irregular);
}

TEST(MovementFormation, CurvedColumnTouchesCornerToCorner) {
  // Cavalry (2 wide, 4 deep) on a road bending left: each stand's
  // front-left corner on the rear-left corner of the one ahead, turned 30 degrees right of it.
  Unit u;
  u.type = TroopType::Cavalry;
  u.width = 2;
  u.depth = 4;
  Pose lead{{50, 50}, 30};
  u.stands.push_back({lead});
  for (int i = 1; i < 3; ++i) {
    Pose prev = u.stands.back().pose;
    Vec2 rear_left = OrientedRect::from_pose(prev, 2, 4).corners()[3];
    Pose next{{0, 0}, prev.facing_deg + 30};
    // Place the follower so that its front-left corner is on rear_left.
    Rot r = Rot::from_degrees(next.facing_deg);
    next.position = rear_left - r.apply({-1, 2});
    u.stands.push_back({next});
  }
  EXPECT_EQ(classify_formation(u), Formation::Column);
  // Pulled 1 mm apart, the corners no longer touch.
  u.stands[2].pose.position += Vec2{-0.1, 0};
  EXPECT_EQ(classify_formation(u), Formation::Irregular);
}

TEST(MovementFormation, ContactToleranceIsHalfAMillimetre) {
  Unit u;
  u.type = TroopType::Infantry;
  u.stands = {{Pose{{46, 20}, 0}}, {Pose{{50.04, 20}, 0}}, {Pose{{54.08, 20}, 0}}};
  EXPECT_EQ(classify_formation(u), Formation::Line);  // 0.4 mm gaps
  u.stands[2].pose.position.x = 54.1;                 // 0.6 mm gap
  EXPECT_EQ(classify_formation(u), Formation::Irregular);
  Settings loose;
  loose.contact_tolerance = 0.1;
  EXPECT_EQ(classify_formation(u, loose), Formation::Line);
}

TEST(MovementFormation, LineNeedsTheSameFacing) {
  Unit u;
  u.type = TroopType::Infantry;
  u.stands = {{Pose{{46, 20}, 0}}, {Pose{{50, 20}, 5}}, {Pose{{54, 20}, 0}}};
  EXPECT_EQ(classify_formation(u), Formation::Irregular);
}

TEST(MovementFormation, EveryStandMustTouchAnotherAtTheEnd) {
  Battlefield bf = field("[]", kInfantryLine);
  // Stand 2 ends 1 cm away from stand 1.
  MoveRequest req = request(bf, R"({"unit": "inf", "stands": [{"stand": 2, "to": {"x": 55, "y": 20}}]})");
  MoveAnswer a = check_move(bf, req);
  EXPECT_TRUE(has_rule(a, "warmaster.movement.formation")) << reasons(a);
  EXPECT_NE(reasons(a).find("stand 3 touches no other stand of its unit"), std::string::npos) << reasons(a);
  // Touching at a single corner is enough.
  req = request(bf, R"({"unit": "inf", "stands": [{"stand": 2, "to": {"x": 54, "y": 22}}]})");
  a = check_move(bf, req);
  EXPECT_FALSE(has_rule(a, "warmaster.movement.formation")) << reasons(a);
}

// --- warmaster.movement.distance ------------------------------------------------

TEST(MovementDistance, ColumnAdvancesFullPace) {
  Battlefield bf = field("[]", kInfantryColumn);
  MoveRequest req = request(bf, R"({"unit": "inf", "stands": [
      {"stand": 0, "to": {"x": 50, "y": 40}}, {"stand": 1, "to": {"x": 50, "y": 38}},
      {"stand": 2, "to": {"x": 50, "y": 36}}]})");
  MoveAnswer a = check_move(bf, req);
  EXPECT_TRUE(a.verdict.legal()) << reasons(a);
  EXPECT_EQ(a.formation, Formation::Column);
  EXPECT_EQ(a.allowance, 20);
  ASSERT_EQ(a.routes.size(), 3u);
  for (const auto& r : a.routes) EXPECT_NEAR(r.used, 20.0, 1e-9);
}

TEST(MovementDistance, IrregularUnitMovingTwelveExceedsTen) {
  Battlefield bf = field("[]", kInfantryIrregular);
  MoveRequest req = request(bf, R"({"unit": "inf", "stands": [
      {"stand": 0, "to": {"x": 48, "y": 32}}, {"stand": 1, "to": {"x": 52, "y": 32}},
      {"stand": 2, "to": {"x": 50, "y": 34}}]})");
  MoveAnswer a = check_move(bf, req);
  EXPECT_FALSE(a.verdict.legal());
  EXPECT_EQ(a.allowance, 10);
  EXPECT_NE(reasons(a).find("stand 1, front-left corner moved 12.0 cm > 10.0 cm (infantry, irregular, half pace "
                            "(irregular formation))"),
            std::string::npos)
      << reasons(a);
  // Charging, the same unit may go the full 20 cm.
  req.kind = MoveKind::Charge;
  EXPECT_TRUE(check_move(bf, req).verdict.legal()) << reasons(check_move(bf, req));
}

TEST(MovementDistance, TurningOnTheSpotCountsCornerTravel) {
  // A 40 x 20 mm stand turning 180 degrees moves each corner sqrt(4^2 + 2^2) = 4.47 cm.
  Battlefield bf = field("[]", R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 20}]}])");
  MoveAnswer a = check_move(bf, request(bf, R"({"unit": "inf", "stands": [{"stand": 0, "to": {"x": 50, "y": 20, "facing": 180}}]})"));
  EXPECT_TRUE(a.verdict.legal());
  EXPECT_NEAR(a.routes[0].used, std::sqrt(20.0), 1e-9);
  // 18 cm forward then the about-turn: 22.47 cm > 20 cm.
  a = check_move(bf, request(bf, R"({"unit": "inf", "stands": [{"stand": 0,
      "waypoints": [{"x": 50, "y": 38}], "to": {"x": 50, "y": 38, "facing": 180}}]})"));
  ASSERT_FALSE(a.verdict.legal());
  EXPECT_EQ(a.verdict.violations[0].rule, "warmaster.movement.distance");
  EXPECT_NE(reasons(a).find("moved 22.5 cm > 20.0 cm (infantry, line, full pace)"), std::string::npos) << reasons(a);
  EXPECT_NEAR(a.verdict.violations[0].figures[0].value, 18 + std::sqrt(20.0), 1e-9);
}

TEST(MovementDistance, MeasuredToAHundredthOfAMillimetre) {
  Battlefield bf = field("[]", R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 20}]}])");
  EXPECT_TRUE(check_move(bf, request(bf, R"({"unit": "inf", "stands": [{"stand": 0, "to": {"x": 50, "y": 40.0009}}]})"))
                  .verdict.legal());
  EXPECT_FALSE(check_move(bf, request(bf, R"({"unit": "inf", "stands": [{"stand": 0, "to": {"x": 50, "y": 40.002}}]})"))
                   .verdict.legal());
}

TEST(MovementDistance, DiceMoveUsesTheRolledDistance) {
  Battlefield bf = field("[]", kInfantryIrregular);
  MoveRequest req = request(bf, R"({"unit": "inf", "kind": "dice", "dice_distance": 14, "stands": [
      {"stand": 0, "to": {"x": 48, "y": 34}}, {"stand": 1, "to": {"x": 52, "y": 34}},
      {"stand": 2, "to": {"x": 50, "y": 36}}]})");
  MoveAnswer a = check_move(bf, req);
  EXPECT_TRUE(a.verdict.legal()) << reasons(a);
  EXPECT_EQ(a.allowance, 14);
  EXPECT_EQ(a.pace, "distance rolled");
}

// --- warmaster.movement.terrain -------------------------------------------------

const char* kWood = R"([{"id": "w", "kind": "wood", "polygon": [[40,30],[60,30],[60,50],[40,50],[40,30]]}])";

TEST(MovementTerrain, CavalryOrderedIntoAWoodHaltsAtItsEdge) {
  // Cavalry stand 2 wide, 4 deep at y 20: its front edge is at y 22, the wood starts at y 30.
  Battlefield bf = field(kWood, R"([{"id": "cav", "type": "cavalry", "stands": [{"x": 50, "y": 20}]}])");
  MoveAnswer a = check_move(bf, request(bf, R"({"unit": "cav", "stands": [{"stand": 0, "to": {"x": 50, "y": 40}}]})"));
  ASSERT_TRUE(has_rule(a, "warmaster.movement.terrain")) << reasons(a);
  const Ruling& r = a.verdict.violations[0];
  EXPECT_NE(r.reason.find("stand 1 cannot enter wood 'w' (cavalry): it would halt at the edge, at (50.00, 28.00)"),
            std::string::npos)
      << r.reason;
  EXPECT_NEAR(r.figures[1].value, 28.0, 1e-3);  // halt_y
  EXPECT_NEAR(r.figures[2].value, 8.0, 1e-3);   // after 8 cm
  EXPECT_NEAR(r.figures[3].value, 20.0, 1e-9);  // of a 20 cm leg
}

TEST(MovementTerrain, InfantryMayEnterAWood) {
  Battlefield bf = field(kWood, R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 20}]}])");
  MoveAnswer a = check_move(bf, request(bf, R"({"unit": "inf", "stands": [{"stand": 0, "to": {"x": 50, "y": 35}}]})"));
  EXPECT_FALSE(has_rule(a, "warmaster.movement.terrain")) << reasons(a);
}

// "Cavalry and monsters can't move into or over terrain features on the
// battlefield except for hills, bridges, shallow fordable rivers, grown fields
// and low obstacles"; other features are "a barrier to cavalry, chariot,
// monster, machine and artillery movement (unless players choose to agree
// otherwise before the game)". A village 10 cm ahead: infantry walk in,
// cavalry and monsters halt at its edge unless the players agreed, chariots
// always.
TEST(MovementTerrain, VillagesAreABarrierToCavalryUnlessThePlayersAgree) {
  const char* village = R"([{"id": "v", "kind": "village", "polygon": [[40,30],[60,30],[60,50],[40,50],[40,30]]}])";
  Battlefield bf = field(village, R"([{"id": "ch", "type": "chariot", "stands": [{"x": 50, "y": 20}]},
                                      {"id": "cav", "type": "cavalry", "stands": [{"x": 58, "y": 20}]},
                                      {"id": "mon", "type": "monster", "stands": [{"x": 30, "y": 20}]},
                                      {"id": "inf", "type": "infantry", "stands": [{"x": 90, "y": 20}]}])");
  auto refused = [&](const char* move, const Settings& s) {
    return has_rule(check_move(bf, request(bf, move), s), "warmaster.movement.terrain");
  };
  const char* cav = R"({"unit": "cav", "stands": [{"stand": 0, "to": {"x": 58, "y": 34}}]})";
  const char* mon = R"({"unit": "mon", "stands": [{"stand": 0, "to": {"x": 42, "y": 34}}]})";
  const char* ch = R"({"unit": "ch", "stands": [{"stand": 0, "to": {"x": 50, "y": 34}}]})";
  Settings agreed;
  agreed.open_villages_and_broken_ground = true;
  EXPECT_TRUE(refused(cav, Settings{}));
  EXPECT_TRUE(refused(mon, Settings{}));
  EXPECT_TRUE(refused(ch, Settings{}));
  EXPECT_FALSE(refused(cav, agreed));
  EXPECT_FALSE(refused(mon, agreed));
  EXPECT_TRUE(refused(ch, agreed));  // chariots enter only open ground, open hills and bridges
  // The cavalry halts at the village's edge, its front edge on y = 30: centre 28.
  const MoveAnswer a = check_move(bf, request(bf, cav));
  EXPECT_NE(reasons(a).find("halt at the edge, at (58.00, 28.00)"), std::string::npos) << reasons(a);
  // Broken ground and marsh alike; infantry always; a hill never stops anyone.
  for (TerrainKind k : {TerrainKind::BrokenGround, TerrainKind::Marsh, TerrainKind::Village}) {
    EXPECT_FALSE(may_enter(TroopType::Cavalry, k, Settings{}));
    EXPECT_FALSE(may_enter(TroopType::Monster, k, Settings{}));
    EXPECT_TRUE(may_enter(TroopType::Cavalry, k, agreed));
    EXPECT_TRUE(may_enter(TroopType::Infantry, k, Settings{}));
    EXPECT_FALSE(may_enter(TroopType::Artillery, k, agreed));
    EXPECT_FALSE(flyer_may_end_in(k, Settings{}));  // flyers end only where their type could go
    EXPECT_TRUE(flyer_may_end_in(k, agreed));
  }
  EXPECT_TRUE(may_enter(TroopType::Cavalry, TerrainKind::OpenHill, Settings{}));
  EXPECT_FALSE(may_enter(TroopType::Cavalry, TerrainKind::Wood, agreed));
}

TEST(MovementTerrain, FlyersPassOverButMayNotEndInAWood) {
  Battlefield bf = field(kWood, R"([{"id": "fly", "type": "flyer", "stands": [{"x": 50, "y": 20}]}])");
  MoveAnswer over = check_move(bf, request(bf, R"({"unit": "fly", "stands": [{"stand": 0, "to": {"x": 50, "y": 60}}]})"));
  EXPECT_FALSE(has_rule(over, "warmaster.movement.terrain")) << reasons(over);
  MoveAnswer in = check_move(bf, request(bf, R"({"unit": "fly", "stands": [{"stand": 0, "to": {"x": 50, "y": 40}}]})"));
  EXPECT_TRUE(has_rule(in, "warmaster.movement.terrain")) << reasons(in);
  EXPECT_NE(reasons(in).find("flyers may not end a move there"), std::string::npos);
}

TEST(MovementTerrain, NobodyEntersADeepRiver) {
  const char* river = R"([{"id": "r", "kind": "deep_river", "line": [[0,40],[180,40]], "width": 4}])";
  Battlefield bf = field(river, R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 30}]}])");
  MoveAnswer a = check_move(bf, request(bf, R"({"unit": "inf", "stands": [{"stand": 0, "to": {"x": 50, "y": 38}}]})"));
  EXPECT_TRUE(has_rule(a, "warmaster.movement.overlap")) << reasons(a);
  // It halts with its front edge on the bank at y 38: centre at 37.
  EXPECT_NE(reasons(a).find("halt at the edge, at (50.00, 37.00)"), std::string::npos) << reasons(a);
}

// --- warmaster.movement.overlap -------------------------------------------------

TEST(MovementOverlap, FinalPosesMayTouchButNotOverlapOtherUnits) {
  Battlefield bf = field("[]", R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 20}]}])",
                         R"([{"id": "foe", "type": "infantry", "stands": [{"x": 50, "y": 40, "facing": 180}]}])");
  // Ends with its front edge (y 39) on the enemy's front edge (y 39): touching.
  MoveAnswer a = check_move(bf, request(bf, R"({"unit": "inf", "kind": "charge", "stands": [{"stand": 0, "to": {"x": 50, "y": 38}}]})"));
  EXPECT_FALSE(has_rule(a, "warmaster.movement.overlap")) << reasons(a);
  a = check_move(bf, request(bf, R"({"unit": "inf", "kind": "charge", "stands": [{"stand": 0, "to": {"x": 50, "y": 38.5}}]})"));
  EXPECT_TRUE(has_rule(a, "warmaster.movement.overlap")) << reasons(a);
  EXPECT_NE(reasons(a).find("stand 1 would overlap stand 1 of enemy unit 'foe' by 0.5 cm"), std::string::npos) << reasons(a);
}

TEST(MovementOverlap, CharactersNeverCount) {
  Battlefield bf = field("[]", R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 20}]}])", "[]",
                         R"([{"id": "hero", "role": "hero", "command": 8, "x": 50, "y": 30}])");
  MoveAnswer a = check_move(bf, request(bf, R"({"unit": "inf", "stands": [{"stand": 0, "to": {"x": 50, "y": 30}}]})"));
  EXPECT_TRUE(a.verdict.legal()) << reasons(a);
}

// --- warmaster.movement.off_table -----------------------------------------------

TEST(MovementOffTable, AnyStandPartlyOffTheTableTakesTheUnitOff) {
  Battlefield bf = field("[]", R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 5}, {"x": 54, "y": 5}]}])");
  MoveRequest req = request(bf, R"({"unit": "inf", "kind": "dice", "dice_distance": 10, "stands": [
      {"stand": 0, "to": {"x": 50, "y": 1}}, {"stand": 1, "to": {"x": 54, "y": 0.5}}]})");
  MoveAnswer a = check_move(bf, req);
  EXPECT_TRUE(a.leaves_table);
  req = request(bf, R"({"unit": "inf", "kind": "dice", "dice_distance": 10, "stands": [
      {"stand": 0, "to": {"x": 50, "y": 1}}, {"stand": 1, "to": {"x": 54, "y": 1}}]})");
  EXPECT_FALSE(check_move(bf, req).leaves_table);  // touching the edge is still on the table
}

TEST(MovementOffTable, TheChartWithStandsLost) {
  struct Case {
    int roll, lost;
    OffTableOutcome expected;
  };
  for (Case c : {Case{1, 1, OffTableOutcome::Destroyed}, Case{3, 1, OffTableOutcome::GoneRollNextTurn},
                 Case{2, 0, OffTableOutcome::GoneRollNextTurn}, Case{4, 0, OffTableOutcome::ReturnsCannotMove},
                 Case{5, 1, OffTableOutcome::ReturnsCannotMove}, Case{5, 0, OffTableOutcome::ReturnsMayMove},
                 Case{6, 1, OffTableOutcome::ReturnsMayMove}, Case{2, 2, OffTableOutcome::Destroyed}}) {
    ScriptedDice dice({c.roll});
    OffTableResult r = resolve_off_table("orcs", c.lost, dice);
    EXPECT_EQ(r.outcome, c.expected) << c.roll << " - " << c.lost;
    EXPECT_EQ(r.roll, c.roll);
    EXPECT_EQ(r.modified, c.roll - c.lost);
    EXPECT_EQ(r.ruling.rule, "warmaster.movement.off_table");
    ASSERT_EQ(r.rolls.size(), 1u);
    EXPECT_EQ(r.rolls[0].sides, 6);
  }
  ScriptedDice none({});
  EXPECT_EQ(resolve_off_table("orcs", 0, none, true).outcome, OffTableOutcome::Destroyed);  // retreat: no roll
  EXPECT_TRUE(none.history().empty());
}

TEST(MovementOffTable, SeededRollsRepeat) {
  SeededDice a(42), b(42);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(resolve_off_table("u", 1, a).roll, resolve_off_table("u", 1, b).roll);
}

// --- characters -----------------------------------------------------------------

TEST(MovementCharacter, SixtyCentimetresOrAHundredFlying) {
  Battlefield bf = field("[]", R"([{"id": "inf", "type": "infantry", "stands": [{"x": 50, "y": 40}]}])", "[]",
                         R"([{"id": "gen", "role": "general", "command": 9, "x": 50, "y": 20},
                             {"id": "eagle", "role": "wizard", "command": 7, "flying": true, "x": 90, "y": 10}])");
  MoveAnswer a = check_move(bf, request(bf, R"({"character": "gen", "stands": [{"to": {"x": 50, "y": 80}}]})"));
  EXPECT_TRUE(a.verdict.legal()) << reasons(a);  // 60 cm, straight through its own infantry
  EXPECT_NEAR(a.routes[0].used, 60, 1e-9);
  a = check_move(bf, request(bf, R"({"character": "gen", "stands": [{"to": {"x": 50, "y": 81}}]})"));
  EXPECT_TRUE(has_rule(a, "warmaster.movement.distance"));
  EXPECT_NE(reasons(a).find("moved 61.0 cm > 60.0 cm"), std::string::npos) << reasons(a);
  a = check_move(bf, request(bf, R"({"character": "eagle", "stands": [{"to": {"x": 90, "y": 110}}]})"));
  EXPECT_TRUE(a.verdict.legal()) << reasons(a);
  EXPECT_EQ(a.allowance, 100);
}

TEST(MovementCharacter, TreatsTerrainAsInfantry) {
  const char* terrain = R"([{"id": "w", "kind": "wood", "polygon": [[40,30],[60,30],[60,50],[40,50],[40,30]]},
                            {"id": "b", "kind": "building", "polygon": [[70,30],[80,30],[80,40],[70,40],[70,30]]}])";
  Battlefield bf = field(terrain, "[]", "[]", R"([{"id": "gen", "role": "general", "command": 9, "x": 50, "y": 20}])");
  EXPECT_TRUE(check_move(bf, request(bf, R"({"character": "gen", "stands": [{"to": {"x": 50, "y": 40}}]})")).verdict.legal());
  MoveAnswer a = check_move(bf, request(bf, R"({"character": "gen", "stands": [{"to": {"x": 75, "y": 35}}]})"));
  EXPECT_TRUE(has_rule(a, "warmaster.movement.overlap")) << reasons(a);
}

// --- validation is separate from application -------------------------------------

TEST(MovementApply, CheckingChangesNothingApplyingMovesTheStands) {
  Battlefield bf = field("[]", kInfantryColumn);
  MoveRequest req = request(bf, R"({"unit": "inf", "stands": [
      {"stand": 0, "to": {"x": 50, "y": 40}}, {"stand": 1, "to": {"x": 50, "y": 38}},
      {"stand": 2, "to": {"x": 50, "y": 36}}]})");
  Battlefield before = bf;
  ASSERT_TRUE(check_move(bf, req).verdict.legal());
  EXPECT_EQ(bf.units[0].stands[0].pose, before.units[0].stands[0].pose);
  Battlefield after = apply_move(bf, req);
  EXPECT_EQ(after.units[0].stands[2].pose.position, (Vec2{50, 36}));
  EXPECT_EQ(bf.units[0].stands[2].pose.position, (Vec2{50, 16}));
}

TEST(MovementConfusion, ConfusedUnitsCannotMove) {
  Battlefield bf = field("[]", R"([{"id": "inf", "type": "infantry", "confused": true, "stands": [{"x": 50, "y": 20}]}])");
  MoveAnswer a = check_move(bf, request(bf, R"({"unit": "inf", "stands": [{"stand": 0, "to": {"x": 50, "y": 25}}]})"));
  EXPECT_TRUE(has_rule(a, "warmaster.movement.confused"));
}
