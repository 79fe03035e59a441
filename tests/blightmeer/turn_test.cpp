// The game layer: turns, one move per unit per turn, the state changes at the
// turn boundaries (docs/rulings.md#blightmeer-turn-end, #blightmeer-upkeep), strict actions and states, the move-kind
// choices, the sampler, and the outcomes of a move's checks with exact chances.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "doc_blocks.hpp"
#include "fixture.hpp"
#include "referee/blightmeer/turn.hpp"
#include "referee/blightmeer/resolve.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/files.hpp"
#include "referee/core/json_io.hpp"

namespace referee::blightmeer::game_test {

using namespace referee::blightmeer::testing;

Action move_action(MoveRequest m) {
  Action a;
  a.type = Action::Type::move;
  a.move = std::move(m);
  return a;
}

Action end_turn_action() { return Action{}; }

int index_of(const BlightmeerState& s, const std::string& id) { return s.state.find(id); }
const Unit& unit_of(const BlightmeerState& s, const std::string& id) {
  return s.state.units[static_cast<std::size_t>(s.state.find(id))];
}

std::vector<std::string> rules_of(const Verdict& v) {
  std::vector<std::string> out;
  for (const Ruling& r : v.violations) out.push_back(r.rule);
  return out;
}

// Two sides far apart on open ground: red first (it appears first).
Battle duel(json red_extra = json::object(), json blue_extra = json::object()) {
  json a = unit("a", 2.5, 8.5, 0, "red");
  json b = unit("b", 30.5, 8.5, 0, "blue");
  a.update(red_extra);
  b.update(blue_extra);
  return battle({a, b});
}

// Sum of exact fractions: sum == 1 exactly, without floating point.
bool sums_to_one(const std::vector<MoveOutcome>& outs) {
  std::int64_t l = 1;
  for (const MoveOutcome& o : outs) l = std::lcm(l, o.chance.outcomes);
  std::int64_t total = 0;
  for (const MoveOutcome& o : outs) total += o.chance.successes * (l / o.chance.outcomes);
  return total == l;
}

TEST(BlightmeerGame, SidesPlayInOrderOfFirstAppearanceUnlessListed) {
  Battle b = battle({unit("x", 2.5, 8.5, 0, "blue"), unit("y", 4.5, 8.5, 0, "red"), unit("z", 6.5, 8.5, 0, "blue")});
  EXPECT_EQ(b.sides, (std::vector<std::string>{"blue", "red"}));
  json t = base_terrain();
  t["units"] = {unit("x", 2.5, 8.5, 0, "blue"), unit("y", 4.5, 8.5, 0, "red")};
  t["sides"] = {"red", "blue"};
  t["turn_limit"] = 3;
  Battle listed = parse_battle(t, "test");
  EXPECT_EQ(listed.sides, (std::vector<std::string>{"red", "blue"}));
  EXPECT_EQ(listed.terrain->turn_limit, 3);
  EXPECT_EQ(b.terrain->turn_limit, kDefaultTurnLimit);
  BlightmeerState g = BlightmeerState::initial(listed);
  EXPECT_EQ(g.side, 0);
  EXPECT_EQ(g.turn, 1);
  EXPECT_EQ(g.moved, (std::vector<bool>{false, false}));
}

TEST(BlightmeerGame, BattleSidesAreParsedStrictly) {
  auto field_of = [](json t) {
    try {
      parse_battle(t, "test");
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("accepted");
  };
  json t = base_terrain();
  t["units"] = {unit("x", 2.5, 8.5, 0, "blue"), unit("y", 4.5, 8.5, 0, "red")};
  json missing = t;
  missing["sides"] = {"red"};  // blue is not listed
  EXPECT_EQ(field_of(missing), "units[0].side");
  json unused = t;
  unused["sides"] = {"red", "blue", "green"};
  EXPECT_EQ(field_of(unused), "sides[2]");
  json twice = t;
  twice["sides"] = {"red", "blue", "red"};
  EXPECT_EQ(field_of(twice), "sides[2]");
  json limit = t;
  limit["turn_limit"] = 0;
  EXPECT_EQ(field_of(limit), "turn_limit");
}

TEST(BlightmeerGame, A_UnitMovesOncePerTurnAndOnlyInItsSidesTurn) {
  Battle b = duel();
  const Terrain& t = *b.terrain;
  BlightmeerState g = BlightmeerState::initial(b);
  ScriptedDice dice({});
  // 3 in of the Captain's 6.
  Action first = move_action(move("a", {walk(5.5, 8.5)}));
  ASSERT_TRUE(validate(t, g, first).legal());
  json r = apply(t, g, first, dice);
  EXPECT_TRUE(r["applied"].get<bool>());
  EXPECT_EQ(unit_of(g, "a").pos, (Vec3{5.5, 8.5, 0}));
  EXPECT_TRUE(g.moved[static_cast<std::size_t>(index_of(g, "a"))]);

  // A second move, legal on its own (2 in), is refused with its own rule, and only that.
  Action second = move_action(move("a", {walk(7.5, 8.5)}));
  EXPECT_TRUE(check_move(t, g.state, second.move).verdict.legal());
  Verdict v = validate(t, g, second);
  EXPECT_EQ(rules_of(v), std::vector<std::string>{"blightmeer.move.once_per_turn"});
  json refused = apply(t, g, second, dice);
  EXPECT_FALSE(refused["applied"].get<bool>());
  EXPECT_EQ(unit_of(g, "a").pos, (Vec3{5.5, 8.5, 0}));

  // Blue may not move in red's turn.
  Action blue = move_action(move("b", {walk(28.5, 8.5)}));
  EXPECT_EQ(rules_of(validate(t, g, blue)), std::vector<std::string>{"blightmeer.turn.not_your_turn"});

  // The turn passes: blue moves, red's unit may not (not its turn), then red's turn again.
  json ended = apply(t, g, end_turn_action(), dice);
  EXPECT_EQ(ended["ended"]["side"], "red");
  EXPECT_EQ(ended["next"]["side"], "blue");
  EXPECT_EQ(g.side, 1);
  EXPECT_EQ(g.turn, 1);
  EXPECT_EQ(g.moved, (std::vector<bool>{false, false}));
  EXPECT_TRUE(validate(t, g, blue).legal());
  EXPECT_EQ(rules_of(validate(t, g, second)), std::vector<std::string>{"blightmeer.turn.not_your_turn"});
  apply(t, g, blue, dice);
  apply(t, g, end_turn_action(), dice);
  EXPECT_EQ(g.side, 0);
  EXPECT_EQ(g.turn, 2);
  EXPECT_TRUE(validate(t, g, second).legal());
  EXPECT_EQ(dice.history().size(), 0u);  // open ground: nothing was rolled
}

TEST(BlightmeerGame, A_FailedCheckStillUsesTheUnitsMove) {
  // Climb onto the house (3 in high, west wall at x 10): 1 in across + 3 up of 6; Agility 8.
  Battle b = battle({unit("a", 9.5, 11, 0, "red"), unit("b", 30.5, 8.5, 0, "blue")});
  BlightmeerState g = BlightmeerState::initial(b);
  Action climb_up = move_action(move("a", {climb(10.5, 11, 3)}));
  ScriptedDice fail({7});  // 7 < 8: fails, stays at the foot, no fall
  json r = apply(*b.terrain, g, climb_up, fail);
  EXPECT_TRUE(r["applied"].get<bool>());
  EXPECT_EQ(unit_of(g, "a").pos, (Vec3{9.5, 11, 0}));
  EXPECT_EQ(rules_of(validate(*b.terrain, g, climb_up)), std::vector<std::string>{"blightmeer.move.once_per_turn"});

  BlightmeerState g2 = BlightmeerState::initial(b);
  ScriptedDice pass({8});
  apply(*b.terrain, g2, climb_up, pass);
  EXPECT_EQ(unit_of(g2, "a").pos, (Vec3{10.5, 11, 3}));
}

TEST(BlightmeerGame, StaggeredAndRanClearAtTheEndOfTheUnitsOwnTurn) {
  json st = {{"state", {{"staggered", true}}}};
  Battle b = duel(st, st);
  const Terrain& t = *b.terrain;
  BlightmeerState g = BlightmeerState::initial(b);
  // Staggered: Move 6 halved = 3 in; running it is 4.5 in.
  EXPECT_EQ(rules_of(validate(t, g, move_action(move("a", {walk(6.0, 8.5)})))),
            std::vector<std::string>{"blightmeer.move.allowance"});
  Action run = move_action(move("a", {walk(6.5, 8.5)}, true));  // 4 in of 4.5
  ASSERT_TRUE(validate(t, g, run).legal());
  ScriptedDice dice({});
  apply(t, g, run, dice);
  EXPECT_TRUE(unit_of(g, "a").ran);
  json r = apply(t, g, end_turn_action(), dice);
  EXPECT_FALSE(unit_of(g, "a").staggered);
  EXPECT_FALSE(unit_of(g, "a").ran);
  // Blue's Staggered lasts through red's turn end: it clears at the end of blue's own turn.
  EXPECT_TRUE(unit_of(g, "b").staggered);
  std::vector<std::string> events;
  for (const json& e : r["events"]) events.push_back(e["rule"]);
  EXPECT_EQ(events, (std::vector<std::string>{"blightmeer.state.staggered", "blightmeer.run.after"}));
  // Blue still moves at most 3 in this turn.
  EXPECT_EQ(rules_of(validate(t, g, move_action(move("b", {walk(27.0, 8.5)})))),
            std::vector<std::string>{"blightmeer.move.allowance"});
  EXPECT_TRUE(validate(t, g, move_action(move("b", {walk(27.5, 8.5)}))).legal());
  apply(t, g, end_turn_action(), dice);
  EXPECT_FALSE(unit_of(g, "b").staggered);
  // Red, no longer Staggered, walks its full 6 in.
  EXPECT_TRUE(validate(t, g, move_action(move("a", {walk(12.5, 8.5)}))).legal());
}

TEST(BlightmeerGame, UpkeepTurnsDazedIntoStaggeredAndStunnedIntoDazed) {
  json t = base_terrain();
  json red = unit("r", 2.5, 8.5, 0, "red");
  red["state"] = {{"dazed", true}};
  json dazed = unit("d", 30.5, 8.5, 0, "blue");
  dazed["state"] = {{"dazed", true}};
  json stunned = unit("s", 30.5, 16.5, 0, "blue");
  stunned["state"] = {{"stunned", true}};
  t["units"] = {red, dazed, stunned};
  Battle b = parse_battle(t, "test");
  const Terrain& ter = *b.terrain;
  BlightmeerState g = BlightmeerState::initial(b);
  // The file's states hold in the first turn: red's Upkeep is taken as done.
  EXPECT_EQ(rules_of(validate(ter, g, move_action(move("r", {walk(3.5, 8.5)})))),
            std::vector<std::string>{"blightmeer.move.dazed"});
  ScriptedDice dice({});
  json r = apply(ter, g, end_turn_action(), dice);
  // Red's Dazed unit waits for its own next Upkeep.
  EXPECT_TRUE(unit_of(g, "r").dazed);
  const Unit& d = unit_of(g, "d");
  EXPECT_FALSE(d.dazed);
  EXPECT_TRUE(d.staggered);
  const Unit& s = unit_of(g, "s");
  EXPECT_FALSE(s.stunned);
  EXPECT_TRUE(s.dazed);
  EXPECT_FALSE(s.staggered);  // one step per Upkeep
  std::vector<std::string> events;
  for (const json& e : r["events"]) events.push_back(e["rule"]);
  EXPECT_EQ(events, (std::vector<std::string>{"blightmeer.state.dazed", "blightmeer.state.stunned"}));
  // Staggered: 3 of Move 6; the newly Dazed unit may not move.
  EXPECT_TRUE(validate(ter, g, move_action(move("d", {walk(27.5, 8.5)}))).legal());
  EXPECT_EQ(rules_of(validate(ter, g, move_action(move("d", {walk(27.0, 8.5)})))),
            std::vector<std::string>{"blightmeer.move.allowance"});
  EXPECT_EQ(rules_of(validate(ter, g, move_action(move("s", {walk(29.5, 16.5)})))),
            std::vector<std::string>{"blightmeer.move.dazed"});
  // End of blue's turn: the Staggered clears; red's Upkeep: its Dazed unit becomes Staggered.
  apply(ter, g, end_turn_action(), dice);
  EXPECT_FALSE(unit_of(g, "d").staggered);
  EXPECT_TRUE(unit_of(g, "r").staggered);
  EXPECT_FALSE(unit_of(g, "r").dazed);
  EXPECT_TRUE(validate(ter, g, move_action(move("r", {walk(5.5, 8.5)}))).legal());
}

TEST(BlightmeerGame, TheGameEndsAtTheTurnLimitOrWhenASideHasNoUnitStanding) {
  json t = base_terrain();
  t["units"] = {unit("a", 2.5, 8.5, 0, "red"), unit("b", 30.5, 8.5, 0, "blue")};
  t["turn_limit"] = 2;
  Battle b = parse_battle(t, "test");
  BlightmeerState g = BlightmeerState::initial(b);
  ScriptedDice dice({});
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(game_over(b, g));
    EXPECT_TRUE(validate(*b.terrain, g, end_turn_action()).legal());
    apply(*b.terrain, g, end_turn_action(), dice);
  }
  EXPECT_FALSE(game_over(b, g));  // round 2, blue to move
  json last = apply(*b.terrain, g, end_turn_action(), dice);
  EXPECT_TRUE(game_over(b, g));
  EXPECT_EQ(g.turn, 3);
  EXPECT_EQ(game_over_reason(b, g), "the turn limit is reached: 2 rounds played");
  EXPECT_EQ(last["game_over"], "the turn limit is reached: 2 rounds played");
  EXPECT_EQ(rules_of(validate(*b.terrain, g, end_turn_action())), std::vector<std::string>{"blightmeer.game.over"});
  EXPECT_TRUE(move_kinds(*b.terrain, g).empty());
  BlightmeerState before = g;
  json refused = apply(*b.terrain, g, end_turn_action(), dice);
  EXPECT_FALSE(refused["applied"].get<bool>());
  EXPECT_EQ(battle_state_json(g), battle_state_json(before));

  // A side with every unit Incapacitated has lost; Stunned still stands.
  BlightmeerState h = BlightmeerState::initial(b);
  h.state.units[1].stunned = true;
  EXPECT_FALSE(game_over(b, h));
  h.state.units[1].incapacitated = true;
  EXPECT_EQ(game_over_reason(b, h), "side \"blue\" has no unit left standing");
}

TEST(BlightmeerGame, OutcomesOfAClimbAreTheCheckChance) {
  Battle b = battle({unit("a", 9.5, 11, 0, "red")});
  MoveReport r = check(b, move("a", {climb(10.5, 11, 3)}));
  ASSERT_TRUE(r.verdict.legal());
  std::vector<MoveOutcome> outs = move_outcomes(r);
  ASSERT_EQ(outs.size(), 2u);
  // d20 >= Agility 8: 13 faces of 20 pass.
  EXPECT_EQ(outs[0].label, "check 1 (climb at step 0) fails: stops at the foot");
  EXPECT_EQ(outs[0].chance, check_chance(8, Edge::none).complement());
  EXPECT_EQ(outs[0].chance.fraction(), "7/20");
  EXPECT_EQ(outs[0].detail["position"], vec3_json({9.5, 11, 0}));
  EXPECT_FALSE(outs[0].detail["falls"].get<bool>());
  EXPECT_EQ(outs[1].label, "all checks pass");
  EXPECT_EQ(outs[1].chance, check_chance(8, Edge::none));
  EXPECT_EQ(outs[1].chance.fraction(), "13/20");
  EXPECT_EQ(outs[1].detail["position"], vec3_json({10.5, 11, 3}));
  EXPECT_TRUE(sums_to_one(outs));

  // Staggered: Disadvantage, 2d20 keep the lower: 13 x 13 of 400 pass.
  json st = unit("s", 9.5, 11, 0, "red");
  st["state"] = {{"staggered", true}};
  Battle bs = battle({st});
  std::vector<MoveOutcome> dis = move_outcomes(check(bs, move("s", {climb(10.5, 11, 3)})));
  ASSERT_EQ(dis.size(), 2u);
  EXPECT_EQ(dis[1].chance, check_chance(8, Edge::disadvantage));
  EXPECT_EQ(dis[1].chance.fraction(), "169/400");
  EXPECT_EQ(dis[0].chance.fraction(), "231/400");
  EXPECT_TRUE(sums_to_one(dis));
}

TEST(BlightmeerGame, OutcomesOfTwoChecksFollowThePathOrder) {
  // Run (9 in): climb the house's west wall (1 + 3 in), walk 3 in across the roof,
  // jump down 3 in east of it, 1.5 in across (8.5 in). Two Agility 8 checks.
  Battle b = battle({unit("a", 9.5, 11, 0, "red")});
  MoveReport r = check(b, move("a", {climb(10.5, 11, 3), walk(13.5, 11), jump_down(15, 11)}, true));
  ASSERT_TRUE(r.verdict.legal()) << explain(r.verdict);
  EXPECT_NEAR(r.spent, 8.5, 1e-9);
  std::vector<MoveOutcome> outs = move_outcomes(r);
  ASSERT_EQ(outs.size(), 3u);
  EXPECT_EQ(outs[0].label, "check 1 (climb at step 0) fails: stops at the foot");
  EXPECT_EQ(outs[0].chance.fraction(), "7/20");
  EXPECT_EQ(outs[1].label, "check 2 (jump_down at step 2) fails: falls where it landed");
  EXPECT_EQ(outs[1].chance.fraction(), "91/400");  // 13/20 x 7/20
  EXPECT_TRUE(outs[1].detail["falls"].get<bool>());
  EXPECT_DOUBLE_EQ(outs[1].detail["fall_height"].get<double>(), 3.0);
  EXPECT_EQ(outs[2].label, "all checks pass");
  EXPECT_EQ(outs[2].chance, r.all_checks);
  EXPECT_EQ(outs[2].chance.fraction(), "169/400");
  EXPECT_TRUE(sums_to_one(outs));
}

TEST(BlightmeerGame, AnAutomaticFailureIsTheOnlyOutcome) {
  // From the house roof (x 10-14) to the shed roof (x 16-18): 4 in is more than 3, so it fails without a roll.
  Battle b = battle({unit("a", 13.5, 12, 3, "red")});
  MoveReport r = check(b, move("a", {jump_across(17.5, 12)}));
  ASSERT_TRUE(r.verdict.legal()) << explain(r.verdict);
  std::vector<MoveOutcome> outs = move_outcomes(r);
  ASSERT_EQ(outs.size(), 1u);
  EXPECT_EQ(outs[0].label, "check 1 (jump_across at step 0) fails automatically: falls from where it jumped");
  EXPECT_DOUBLE_EQ(outs[0].chance.value(), 1.0);
  EXPECT_TRUE(sums_to_one(outs));

  // A walk needs no check: one outcome, certain.
  std::vector<MoveOutcome> plain = move_outcomes(check(b, move("a", {walk(11.5, 12)})));
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0].label, "no check: the move is made");
  EXPECT_EQ(plain[0].chance.fraction(), "1/1");
}

TEST(BlightmeerGame, ActionsAreParsedStrictlyAndRoundTrip) {
  Battle b = battle({unit("a", 9.5, 12, 0, "red"), unit("b", 30.5, 8.5, 0, "blue")});
  auto field_of = [&](const json& j) {
    try {
      parse_action(j, b, "action");
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(field_of(json{{"type", "fly"}}), "action.type");
  EXPECT_EQ(field_of(json{{"unit", "a"}}), "action.type");
  EXPECT_EQ(field_of(json{{"type", "end_turn"}, {"unit", "a"}}), "action.unit");
  EXPECT_EQ(field_of(json::parse(R"({"type": "move", "unit": "zz", "path": [{"type": "walk", "to": [1, 1]}]})")),
            "action.unit");
  EXPECT_EQ(field_of(json::parse(R"({"type": "move", "unit": "a", "path": [{"type": "ladder", "ladder": "nope"}]})")),
            "action.path[0].ladder");
  EXPECT_EQ(field_of(json::parse(R"({"type": "move", "unit": "a", "path": []})")), "action.path");
  EXPECT_EQ(field_of(json::parse(R"({"type": "move", "unit": "a", "speed": 3, "path": [{"type": "walk", "to": [1, 1]}]})")),
            "action.speed");

  json text = json::parse(R"({"type": "move", "unit": "a", "mode": "run",
                              "path": [{"type": "ladder", "ladder": "house-ladder"}, {"type": "walk", "to": [12.25, 12.125]}]})");
  Action a = parse_action(text, b, "action");
  EXPECT_EQ(a.type, Action::Type::move);
  EXPECT_TRUE(a.move.run);
  EXPECT_EQ(action_json(a), text);
  EXPECT_EQ(action_json(parse_action(action_json(a), b, "")), action_json(a));
  Action e = parse_action(json{{"type", "end_turn"}}, b, "action");
  EXPECT_EQ(e.type, Action::Type::end_turn);
  EXPECT_EQ(action_json(e), (json{{"type", "end_turn"}}));
}

TEST(BlightmeerGame, ValidateRefusesADisconnectedPathAndChangesNothing) {
  Battle b = battle({unit("a", 2.5, 8.5, 0, "red"), unit("b", 30.5, 8.5, 0, "blue")});
  BlightmeerState g = BlightmeerState::initial(b);
  json before = battle_state_json(g);
  Step w = walk(4.5, 8.5);
  w.from = Vec3{3.5, 8.5, 0};  // the unit is at (2.5, 8.5)
  Action a = move_action(move("a", {w}));
  Verdict v;
  EXPECT_NO_THROW(v = validate(*b.terrain, g, a));
  EXPECT_EQ(rules_of(v), std::vector<std::string>{"blightmeer.path.disconnected"});
  // A ladder the unit is nowhere near.
  Verdict lv = validate(*b.terrain, g, move_action(move("a", {ladder("house-ladder")})));
  EXPECT_EQ(rules_of(lv), std::vector<std::string>{"blightmeer.path.disconnected"});
  ScriptedDice dice({});
  json r = apply(*b.terrain, g, a, dice);
  EXPECT_FALSE(r["applied"].get<bool>());
  EXPECT_EQ(battle_state_json(g), before);
  EXPECT_EQ(g.moved, (std::vector<bool>{false, false}));
}

TEST(BlightmeerGame, MoveKindsListWalkAndRunWithTheirReasons) {
  json captain = unit("c", 2.5, 8.5, 0, "red");
  captain["state"] = {{"treasure", true}};
  json dazed = unit("d", 5.5, 8.5, 0, "red");
  dazed["state"] = {{"dazed", true}};
  json gone = unit("g", 8.5, 8.5, 0, "red");
  gone["state"] = {{"incapacitated", true}};
  Battle b = battle({captain, dazed, gone, unit("e", 30.5, 8.5, 0, "blue")});
  BlightmeerState g = BlightmeerState::initial(b);
  std::vector<MoveKindOption> kinds = move_kinds(*b.terrain, g);
  ASSERT_EQ(kinds.size(), 4u);  // c and d, walk and run; g is off the table; e is blue
  EXPECT_EQ(kinds[0].unit, "c");
  EXPECT_FALSE(kinds[0].run);
  EXPECT_TRUE(kinds[0].why_not.legal());
  EXPECT_TRUE(kinds[1].run);
  EXPECT_EQ(rules_of(kinds[1].why_not), std::vector<std::string>{"blightmeer.run.treasure"});
  EXPECT_EQ(rules_of(kinds[2].why_not), std::vector<std::string>{"blightmeer.move.dazed"});
  EXPECT_EQ(rules_of(kinds[3].why_not), std::vector<std::string>{"blightmeer.move.dazed"});
  Rng rng(5);
  EXPECT_FALSE(sample_move(*b.terrain, g, "d", false, rng).has_value());
  EXPECT_FALSE(sample_move(*b.terrain, g, "c", true, rng).has_value());
  EXPECT_FALSE(sample_move(*b.terrain, g, "e", false, rng).has_value());  // not blue's turn
  std::optional<Action> a = sample_move(*b.terrain, g, "c", false, rng);
  ASSERT_TRUE(a.has_value());
  ScriptedDice dice({});
  json r = apply(*b.terrain, g, *a, dice);
  ASSERT_TRUE(r["applied"].get<bool>());
  kinds = move_kinds(*b.terrain, g);
  EXPECT_EQ(rules_of(kinds[0].why_not), std::vector<std::string>{"blightmeer.move.once_per_turn"});
  EXPECT_FALSE(sample_move(*b.terrain, g, "c", false, rng).has_value());
}

TEST(BlightmeerGame, GameStateJsonRoundTripsExactly) {
  Battle b = load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/blightmeer/town.json");
  BlightmeerState g = BlightmeerState::initial(b);
  Rng rng(17);
  SeededDice dice(17);
  // Two moves by red (positions off the grid), so `moved` and exact positions are exercised.
  int moved = 0;
  for (const MoveKindOption& k : move_kinds(*b.terrain, g)) {
    if (!k.why_not.legal() || k.run || moved == 2) continue;
    if (auto a = sample_move(*b.terrain, g, k.unit, false, rng)) {
      apply(*b.terrain, g, *a, dice);
      ++moved;
    }
  }
  ASSERT_EQ(moved, 2);
  json j = battle_state_json(g);
  EXPECT_EQ(j["moved"].size(), 2u);
  BlightmeerState back = battle_state_from_json(j, b, "state");
  EXPECT_EQ(battle_state_json(back), j);
  EXPECT_EQ(back.moved, g.moved);
  EXPECT_EQ(back.side, g.side);
  EXPECT_EQ(back.turn, g.turn);
  for (std::size_t i = 0; i < g.state.units.size(); ++i) {
    EXPECT_EQ(back.state.units[i].pos, g.state.units[i].pos);  // bit for bit
    EXPECT_EQ(back.state.units[i].agility, g.state.units[i].agility);
  }
  // Through text as well.
  EXPECT_EQ(battle_state_json(battle_state_from_json(json::parse(j.dump()), b, "state")), j);
}

TEST(BlightmeerGame, GameStateJsonIsParsedStrictly) {
  Battle b = battle({unit("a", 2.5, 8.5, 0, "red"), unit("b", 30.5, 8.5, 0, "blue")});
  json good = battle_state_json(BlightmeerState::initial(b));
  auto field_of = [&](const json& j) {
    try {
      battle_state_from_json(j, b, "state");
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(field_of(good), "accepted");
  json bad = good;
  bad["units"].erase(1);
  EXPECT_EQ(field_of(bad), "state.units");
  bad = good;
  bad["units"][1]["id"] = "zz";
  EXPECT_EQ(field_of(bad), "state.units[1].id");
  bad = good;
  bad["units"][0]["position"] = {2.5, 8.5, 1};
  EXPECT_EQ(field_of(bad), "state.units[0].position");
  bad = good;
  bad["units"][1]["position"] = {2.9, 8.5, 0};  // overlaps a
  EXPECT_EQ(field_of(bad), "state.units[1].position");
  bad = good;
  bad["moved"] = {"b"};  // blue has not had its turn
  EXPECT_EQ(field_of(bad), "state.moved[0]");
  bad = good;
  bad["turn"] = kDefaultTurnLimit + 2;
  EXPECT_EQ(field_of(bad), "state.turn");
  bad = good;
  bad["side"] = "green";
  EXPECT_EQ(field_of(bad), "state.side");
  bad = good;
  bad["sides"] = {"blue", "red"};
  EXPECT_EQ(field_of(bad), "state.sides");
  bad = good;
  bad["units"][0]["state"]["engaged_with"] = {"a"};
  EXPECT_EQ(field_of(bad), "state.units[0].state.engaged_with[0]");
  bad = good;
  bad["units"][0]["speed"] = 3;
  EXPECT_EQ(field_of(bad), "state.units[0].speed");
}

// Hundreds of seeded samples on the bundled battles: every one is a move validate() accepts.
TEST(BlightmeerGame, SampledMovesAlwaysValidate) {
  for (const char* scenario : {"town.json", "ruin.json"}) {
    Battle b = load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/blightmeer/" + scenario);
    int found = 0, tried = 0;
    for (std::size_t side = 0; side < b.sides.size(); ++side) {
      BlightmeerState g = BlightmeerState::initial(b);
      g.side = static_cast<int>(side);
      for (std::uint64_t seed = 0; seed < 25; ++seed) {
        Rng rng(seed);
        for (const MoveKindOption& k : move_kinds(*b.terrain, g)) {
          ++tried;
          std::optional<Action> a = sample_move(*b.terrain, g, k.unit, k.run, rng);
          if (!k.why_not.legal()) {
            EXPECT_FALSE(a.has_value()) << scenario << " " << k.unit;
            continue;
          }
          if (!a) continue;
          ++found;
          EXPECT_EQ(a->move.unit, k.unit);
          EXPECT_EQ(a->move.run, k.run);
          Verdict v = validate(*b.terrain, g, *a);
          EXPECT_TRUE(v.legal()) << scenario << " seed " << seed << ": " << explain(v) << "\n"
                                 << action_json(*a).dump();
        }
      }
    }
    EXPECT_GE(found, 200) << scenario << ": " << found << " of " << tried;
  }
}

void expect_invariants(const Battle& b, const BlightmeerState& g, const std::string& where) {
  const Terrain& t = *b.terrain;
  for (std::size_t i = 0; i < g.state.units.size(); ++i) {
    const Unit& u = g.state.units[i];
    if (g.moved[i]) {
      EXPECT_EQ(u.side, g.sides[static_cast<std::size_t>(g.side)]) << where;
    }
    if (u.incapacitated) continue;
    EXPECT_TRUE(t.on_table(u.pos.xy())) << where << " " << u.id;
    EXPECT_NEAR(u.pos.z, t.level_at(u.pos.xy()), kPlaceTolerance) << where << " " << u.id << " is not on a level";
    EXPECT_FALSE(t.in_impassable(u.pos.xy())) << where << " " << u.id;
    int o = overlapping_unit(g.state, static_cast<int>(i), u.pos, u.radius());
    EXPECT_LT(o, 0) << where << " " << u.id << " overlaps another standing unit";
  }
}

struct PlayedGame {
  std::vector<json> actions;
  std::vector<json> results;
  json final_state;
  int moves = 0;
};

// Random legal play to the end: each choice is a move kind that is allowed, or
// ending the turn; sampled moves are validated, then applied with seeded dice.
PlayedGame play_to_the_end(const Battle& b, std::uint64_t seed) {
  const Terrain& t = *b.terrain;
  BlightmeerState g = BlightmeerState::initial(b);
  Rng rng(seed);
  SeededDice dice(seed);
  PlayedGame out;
  for (int step = 0; step < 2000 && !game_over(b, g); ++step) {
    std::vector<MoveKindOption> kinds;
    for (MoveKindOption& k : move_kinds(t, g))
      if (k.why_not.legal()) kinds.push_back(std::move(k));
    Action a;  // end_turn
    if (!kinds.empty() && rng.below(5) != 0) {
      const MoveKindOption& k = kinds[static_cast<std::size_t>(rng.below(kinds.size()))];
      if (auto m = sample_move(t, g, k.unit, k.run, rng)) a = *m;
    }
    json before = battle_state_json(g);
    Verdict v = validate(t, g, a);
    EXPECT_EQ(battle_state_json(g), before) << "validate changed the state";
    EXPECT_TRUE(v.legal()) << explain(v);
    json r = apply(t, g, a, dice);
    if (a.type == Action::Type::move) {
      EXPECT_TRUE(r["applied"].get<bool>());
      ++out.moves;
    }
    out.actions.push_back(action_json(a));
    out.results.push_back(r);
    std::string where = fmt::format("seed {} action {}", seed, step);
    expect_invariants(b, g, where);
    EXPECT_EQ(battle_state_json(battle_state_from_json(battle_state_json(g), b, "state")), battle_state_json(g)) << where;
  }
  EXPECT_TRUE(game_over(b, g)) << "seed " << seed;
  EXPECT_LE(g.turn, t.turn_limit + 1);
  out.final_state = battle_state_json(g);
  return out;
}

TEST(BlightmeerGame, RandomGamesPlayToTheEndAndReplay) {
  for (const char* scenario : {"town.json", "ruin.json"}) {
    Battle b = load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/blightmeer/" + scenario);
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      PlayedGame p = play_to_the_end(b, seed);
      EXPECT_GT(p.moves, 10) << scenario << " seed " << seed;
      // Replaying the logged actions with the same seed gives the same results and state.
      BlightmeerState g = BlightmeerState::initial(b);
      SeededDice dice(seed);
      for (std::size_t i = 0; i < p.actions.size(); ++i) {
        Action a = parse_action(p.actions[i], b, "action");
        ASSERT_TRUE(validate(*b.terrain, g, a).legal());
        EXPECT_EQ(apply(*b.terrain, g, a, dice), p.results[i]) << scenario << " seed " << seed << " action " << i;
      }
      EXPECT_EQ(battle_state_json(g), p.final_state);
    }
  }
}

}  // namespace referee::blightmeer::game_test

namespace referee::blightmeer::game_test {

// docs/blightmeer.md: the action and state examples read against the battlefield example.
TEST(BlightmeerGame, DocsExamplesOfActionsAndStateParse) {
  auto blocks = doc_json_blocks(read_text_file(std::string(REFEREE_SOURCE_DIR) + "/docs/blightmeer.md"));
  ASSERT_EQ(blocks.size(), 5u);
  Battle b = parse_battle_text(blocks[0], "docs example");
  EXPECT_EQ(b.sides, (std::vector<std::string>{"red", "blue"}));
  Action move = parse_action(parse_json_text(blocks[2], "docs action"), b, "action");
  EXPECT_EQ(move.move.unit, "elf");
  BlightmeerState g = BlightmeerState::initial(b);
  EXPECT_TRUE(validate(*b.terrain, g, move).legal());
  EXPECT_EQ(parse_action(parse_json_text(blocks[3], "docs end"), b, "action").type, Action::Type::end_turn);
  BlightmeerState s = battle_state_from_json(parse_json_text(blocks[4], "docs state"), b, "state");
  EXPECT_EQ(s.turn, 2);
  EXPECT_EQ(s.side, 1);
  EXPECT_EQ(s.moved, (std::vector<bool>{false, false, false, true, false}));
  EXPECT_TRUE(s.state.units[4].staggered);
  EXPECT_TRUE(s.state.units[0].treasure);
  // The hound has moved; the treant may still move, Staggered: 3 of its Move 6.
  std::vector<MoveKindOption> kinds = move_kinds(*b.terrain, s);
  ASSERT_EQ(kinds.size(), 4u);
  EXPECT_EQ(rules_of(kinds[0].why_not), std::vector<std::string>{"blightmeer.move.once_per_turn"});
  EXPECT_TRUE(kinds[2].why_not.legal());
  EXPECT_EQ(base_allowance(s.state.units[4], false).total, 3);
}

// parse_action refuses an unknown unit as bad input; a typed caller that
// builds an Action itself gets a ruling from validate instead of a crash.
TEST(BlightmeerGame, ValidateRefusesAnUnknownUnitBuiltByHand) {
  Battle b = load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/blightmeer/town.json");
  const BlightmeerState s = BlightmeerState::initial(b);
  Action a;
  a.type = Action::Type::move;
  a.move.unit = "nobody";
  a.move.path.push_back(Step{});
  const Verdict v = validate(*b.terrain, s, a);
  ASSERT_EQ(v.violations.size(), 1u);
  EXPECT_EQ(v.violations[0].rule, "blightmeer.move.unknown_unit");
  EXPECT_EQ(v.violations[0].reason, "no unit \"nobody\" on the battlefield");
  EXPECT_THROW(parse_action({{"type", "move"}, {"unit", "nobody"}, {"path", {{{"type", "walk"}, {"to", {1, 1}}}}}}, b,
                            "action"),
               InputError);
}

}  // namespace referee::blightmeer::game_test
