// The `odds` and `targets` queries answer what the game allows now: a battle
// the game refuses (validate on the `battle` action) is refused by the query
// with the same rule and reason, and an evasion the game would not offer is a
// refusal naming the evasion rule, not bad input
// (docs/rulings.md#ancients-attack-odds).
#include <gtest/gtest.h>

#include <set>

#include <fmt/format.h>

#include "referee/core/errors.hpp"
#include "referee/ancients/battle.hpp"
#include "referee/ancients/queries.hpp"
#include "referee/core/dice.hpp"
#include "test_support.hpp"

namespace referee::ancients {
namespace ancients_battle_queries_test {

using namespace testing;

Action battle_of(const Battle& b, const std::string& u, const std::string& t) {
  return parse_action({{"type", "battle"}, {"unit", u}, {"target", t}}, b, "action");
}

Json odds_of(const Battle& b, const AncientsState& s, const std::string& u, const std::string& t, bool evading = false) {
  Json args{{"unit", u}, {"target", t}};
  if (evading) args["evading"] = true;
  return answer_query(b, s, true, "odds", args, "args");
}

std::string input_error_field_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.field();
  }
  return "no error";
}

Json targets_of(const Battle& b, const AncientsState& s, const std::string& u) {
  return answer_query(b, s, true, "targets", {{"unit", u}}, "args");
}

// The query refuses with exactly the game's violations, and the targets
// query lists nothing for the unit, with the same reason.
void expect_refused_as_the_game(const Battle& b, const AncientsState& s, const std::string& u, const std::string& t,
                                const std::string& rule) {
  const Verdict game = validate(b, s, battle_of(b, u, t));
  ASSERT_FALSE(game.legal());
  ASSERT_EQ(game.violations[0].rule, rule) << explain(game);
  const Json o = odds_of(b, s, u, t);
  EXPECT_FALSE(o["legal"].get<bool>()) << o.dump();
  EXPECT_EQ(o["violations"], Json(game.violations)) << o.dump();
  EXPECT_EQ(o["attacker"], u);
  EXPECT_EQ(o["target"], t);
  EXPECT_FALSE(o.contains("dice")) << o.dump();
  const Json tg = targets_of(b, s, u);
  EXPECT_EQ(tg["targets"], Json::array()) << tg.dump();
  EXPECT_EQ(tg["violations"], Json(game.violations)) << tg.dump();
}

TEST(AncientsBattleQueries, AnAuxiliaThatMovedTwoHexesMayNotBattle) {
  // ancients.battle.eligible: "Only ordered units battle, and not those the movement text forbids (auxilia after
  // 2 hexes, ...)"; the movement text: "move one hex and battle, or move two hexes and not battle".
  const Battle b = make_battle({unit("aux", "auxilia", 0, 6, 6), unit("mi", "medium_infantry", 0, 7, 4),
                                unit("e", "medium_infantry", 1, 6, 3), unit("e2", "medium_infantry", 1, 7, 3)});
  AncientsState s = AncientsState::initial(b);
  for (const Json& a : {Json{{"type", "play_card"}, {"card", "order-three-center"}},
                        Json{{"type", "order"}, {"units", {"aux", "mi"}}},
                        Json{{"type", "move"}, {"unit", "aux"}, {"to", {6, 4}}}, Json{{"type", "end_movement"}}}) {
    const Json r = apply(b, s, parse_action(a, b, "action"));
    ASSERT_FALSE(r.contains("refused")) << a.dump() << " " << r.dump();
  }
  ASSERT_EQ(s.phase, Phase::battle);
  const UnitState& aux = s.position.units[static_cast<std::size_t>(b.find_unit("aux"))];
  EXPECT_EQ(aux.hexes_moved, 2);
  EXPECT_FALSE(aux.may_battle);
  expect_refused_as_the_game(b, s, "aux", "e", "ancients.battle.eligible");
  EXPECT_EQ(validate(b, s, battle_of(b, "aux", "e")).violations[0].reason,
            "unit aux may not battle after its move this turn");
  // The unit beside it, which did not move, still has its targets and odds.
  EXPECT_TRUE(odds_of(b, s, "mi", "e2")["legal"].get<bool>());
  EXPECT_FALSE(targets_of(b, s, "mi")["targets"].empty());
}

TEST(AncientsBattleQueries, AUnitThatHasBattledMayNotBattleAgain) {
  // ancients.battle.once: "Each close combat is conducted by one eligible, ordered unit": a unit battles once a
  // turn, besides its bonus close combat after a momentum advance.
  const Battle b = make_battle({unit("a", "medium_infantry", 0, 6, 3), unit("d", "medium_infantry", 1, 6, 2)});
  AncientsState s = battle_phase(b, {"a"});
  const Json before = odds_of(b, s, "a", "d");
  ASSERT_TRUE(before["legal"].get<bool>());
  ScriptedDice misses({1, 1, 1, 1, /* battle back */ 1, 1, 1, 1});  // light faces miss medium infantry
  apply(b, s, battle_of(b, "a", "d"), misses);
  ASSERT_EQ(s.pending.kind, Pending::Kind::none);
  ASSERT_TRUE(s.position.units[static_cast<std::size_t>(b.find_unit("a"))].battled);
  expect_refused_as_the_game(b, s, "a", "d", "ancients.battle.once");
}

TEST(AncientsBattleQueries, AnUnorderedUnitMayNotBattle) {
  // ancients.battle.eligible: "Only ordered units battle".
  const Battle b = make_battle({unit("a", "medium_infantry", 0, 6, 3), unit("idle", "medium_infantry", 0, 2, 3),
                                unit("d", "medium_infantry", 1, 6, 2), unit("d2", "medium_infantry", 1, 2, 2)});
  const AncientsState s = battle_phase(b, {"a"});
  expect_refused_as_the_game(b, s, "idle", "d2", "ancients.battle.eligible");
  EXPECT_EQ(validate(b, s, battle_of(b, "idle", "d2")).violations[0].reason,
            "unit idle was not ordered this turn; only ordered units battle");
}

TEST(AncientsBattleQueries, AUnitOfTheSideNotToPlayMayNotBattle) {
  // ancients.order.side: "A player orders and moves only his own units and leaders".
  const Battle b = make_battle({unit("a", "medium_infantry", 0, 6, 3), unit("d", "medium_infantry", 1, 6, 2)});
  AncientsState s = battle_phase(b, {"a"});
  s.position.units[static_cast<std::size_t>(b.find_unit("d"))].ordered = true;  // even ordered, it is not its turn
  expect_refused_as_the_game(b, s, "d", "a", "ancients.order.side");
}

TEST(AncientsBattleQueries, NoBattleOutsideTheBattlePhase) {
  // ancients.battle.phase: "You must complete all unit movements before proceeding to Battle".
  const Battle b = make_battle({unit("a", "medium_infantry", 0, 6, 3), unit("d", "medium_infantry", 1, 6, 2)});
  AncientsState s = battle_phase(b, {"a"});
  s.phase = Phase::movement;
  expect_refused_as_the_game(b, s, "a", "d", "ancients.battle.phase");
  // At the start asked from the command line (not in a game), the geometry alone: the odds of the attack.
  const Json start = answer_query(b, AncientsState::initial(b), false, "odds", {{"unit", "a"}, {"target", "d"}}, "args");
  EXPECT_TRUE(start["legal"].get<bool>()) << start.dump();
  EXPECT_EQ(start["dice"], 4);
}

TEST(AncientsBattleQueries, AnEvasionTheGameWouldNotOfferIsARefusal) {
  // ancients.evade.eligible: "Light units and war machines may always evade; medium cavalry and camels evade foot
  // and heavy mounted units; heavy cavalry and heavy chariots evade foot and elephants; others never".
  const Battle b = make_battle({unit("mc", "medium_cavalry", 0, 6, 3), unit("mc2", "medium_cavalry", 1, 6, 2),
                                unit("sl", "light_sling_infantry", 0, 2, 5), unit("li", "light_infantry", 1, 2, 3),
                                unit("mi", "medium_infantry", 0, 10, 3), unit("li2", "light_infantry", 1, 10, 2)});
  const AncientsState s = battle_phase(b, {"mc", "sl", "mi"});
  // Medium cavalry may not evade medium cavalry: the attack is legal, its evasion is not.
  ASSERT_TRUE(odds_of(b, s, "mc", "mc2")["legal"].get<bool>());
  const Json o = odds_of(b, s, "mc", "mc2", true);
  EXPECT_FALSE(o["legal"].get<bool>()) << o.dump();
  ASSERT_EQ(o["violations"].size(), 1u);
  EXPECT_EQ(o["violations"][0]["rule"], "ancients.evade.eligible");
  EXPECT_EQ(o["violations"][0]["reason"], "a medium cavalry may not evade a medium cavalry");
  // The game agrees: declaring that battle offers mc2 no evasion.
  AncientsState played = s;
  ScriptedDice misses({4, 4, 4, /* battle back */ 1, 1, 1});
  const Json r = apply(b, played, battle_of(b, "mc", "mc2"), misses);
  EXPECT_FALSE(r.contains("awaiting")) << r.dump();
  // No evasion from a ranged attack either, even for light infantry that always evades.
  const Json ranged = odds_of(b, s, "sl", "li", true);
  EXPECT_FALSE(ranged["legal"].get<bool>()) << ranged.dump();
  EXPECT_EQ(ranged["violations"][0]["rule"], "ancients.evade.eligible");
  // A unit that may evade gets the evading odds, as before.
  const Json evades = odds_of(b, s, "mi", "li2", true);
  EXPECT_TRUE(evades["legal"].get<bool>()) << evades.dump();
  EXPECT_EQ(evades["evading"], true);
  // Malformed arguments are still bad input naming the field.
  EXPECT_EQ(input_error_field_of([&] {
              answer_query(b, s, true, "odds", {{"unit", "mc"}, {"target", "mc2"}, {"evading", "yes"}}, "args");
            }),
            "args.evading");
  EXPECT_EQ(input_error_field_of([&] { answer_query(b, s, true, "odds", {{"unit", "mc"}, {"target", "nobody"}}, "args"); }),
            "args.target");
}

// For every unit and target after random legal actions, the odds query's
// legal flag is validate's verdict on the battle, and the targets query lists
// exactly the battles the game offers the unit.
TEST(AncientsBattleQueries, TheQueriesAgreeWithValidateInRandomGames) {
  const Battle b = load_scenario("lines_engaged.json");
  std::vector<std::string> targets;
  for (const UnitSpec& u : b.units) targets.push_back(u.id);
  for (const LeaderSpec& l : b.leaders) targets.push_back(l.id);
  int checked = 0, legal = 0, refused = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    AncientsState s = AncientsState::initial(b);
    Rng rng(seed);
    SeededDice dice(seed);
    for (int step = 0; step < 400; ++step) {
      if (s.phase == Phase::battle || step % 10 == 0) {
        std::set<std::pair<std::string, std::string>> offered;
        for (const Action& a : legal_actions(b, s))
          if (a.type == Action::Type::battle)
            offered.insert({b.units[static_cast<std::size_t>(a.piece.index)].id,
                            a.target_leader ? b.leaders[static_cast<std::size_t>(a.target)].id
                                            : b.units[static_cast<std::size_t>(a.target)].id});
        for (const UnitSpec& u : b.units) {
          for (const std::string& t : targets) {
            const bool game = validate(b, s, battle_of(b, u.id, t)).legal();
            const Json o = odds_of(b, s, u.id, t);
            ASSERT_EQ(o["legal"].get<bool>(), game) << "seed " << seed << " step " << step << ": " << u.id << " at " << t
                                                     << " " << o.dump();
            ASSERT_EQ(game, offered.count({u.id, t}) == 1) << u.id << " at " << t;
            ++checked;
            (game ? legal : refused) += 1;
          }
          std::set<std::pair<std::string, std::string>> listed;
          const Json answer = targets_of(b, s, u.id);
          for (const Json& x : answer["targets"])
            listed.insert({u.id, x.contains("target") ? x["target"].get<std::string>() : x["leader"].get<std::string>()});
          std::set<std::pair<std::string, std::string>> mine;
          for (const auto& p : offered)
            if (p.first == u.id) mine.insert(p);
          ASSERT_EQ(listed, mine) << "seed " << seed << " step " << step << ": targets of " << u.id << " " << answer.dump();
        }
      }
      const std::optional<Action> a = random_action(b, s, rng);
      if (!a) break;
      apply(b, s, *a, dice);
    }
  }
  EXPECT_GT(legal, 50);
  EXPECT_GT(refused, checked / 2);
}

// The analyst's questions asked directly (docs/rulings.md#ancients-line-of-sight,
// ancients.battle.sight): from 5,6 to 6,5 the line runs along the edge between
// 6,6 and 5,5, and is blocked only when both are.
TEST(AncientsAnalystQueries, SightNamesTheHexesBetweenAndWhatBlocks) {
  const Battle e = make_battle({unit("li", "light_infantry", 0, 5, 6), unit("t", "medium_infantry", 1, 6, 5),
                                unit("x", "medium_infantry", 0, 6, 6)});
  const AncientsState se = AncientsState::initial(e);
  const Json clear = answer_query(e, se, true, "sight", {{"from", "li"}, {"to", {6, 5}}}, "args");
  EXPECT_EQ(clear["rule"], "ancients.battle.sight");
  EXPECT_EQ(clear["from"], Json::array({5, 6}));
  EXPECT_EQ(clear["distance"], 2);
  EXPECT_TRUE(clear["visible"].get<bool>()) << clear.dump();
  EXPECT_TRUE(clear["along_edge"].get<bool>());
  std::set<std::string> seen;
  for (const Json& side : {clear["between"], clear["other_side"]}) {
    ASSERT_EQ(side.size(), 1u) << clear.dump();
    seen.insert(side[0]["hex"].dump() + (side[0]["blocks"].get<bool>() ? " blocks" : " open"));
  }
  EXPECT_EQ(seen, (std::set<std::string>{"[6,6] blocks", "[5,5] open"}));
  // Both sides held: blocked, and the blocker named.
  const Battle both = make_battle({unit("li", "light_infantry", 0, 5, 6), unit("t", "medium_infantry", 1, 6, 5),
                                   unit("x", "medium_infantry", 0, 6, 6), unit("y", "medium_infantry", 0, 5, 5)});
  const Json blocked = answer_query(both, AncientsState::initial(both), true, "sight", {{"from", "li"}, {"to", "t"}}, "args");
  EXPECT_FALSE(blocked["visible"].get<bool>());
  const std::string by = blocked["blocked_by"]["unit"].get<std::string>();
  EXPECT_TRUE(by == "x" || by == "y") << blocked.dump();
  // A forest between, straight up a column: the terrain is named.
  const Battle wood = make_battle({unit("li", "light_infantry", 0, 6, 6), unit("t", "medium_infantry", 1, 6, 4)}, {},
                                  {{{"type", "forest"}, {"hexes", {{5, 5}, {6, 5}}}}});
  std::string text;
  const Json w = answer_query(wood, AncientsState::initial(wood), true, "sight", {{"from", {6, 6}}, {"to", {6, 4}}}, "args",
                              &text);
  EXPECT_FALSE(w["visible"].get<bool>());
  EXPECT_EQ(w["blocked_by"]["terrain"], "forest") << w.dump();
  EXPECT_FALSE(w["blocked_by"].contains("unit"));
  EXPECT_NE(text.find("blocked at "), std::string::npos) << text;
  // Bad hexes are input errors naming the field.
  EXPECT_EQ(input_error_field_of([&] { answer_query(wood, AncientsState::initial(wood), true, "sight", {{"from", {99, 99}}, {"to", "t"}}, "args"); }),
            "args.from");
  EXPECT_EQ(input_error_field_of([&] { answer_query(wood, AncientsState::initial(wood), true, "sight", {{"from", "li"}, {"to", "nobody"}}, "args"); }),
            "args.to");
}

// ancients.flag.retreat: medium infantry retreats 1 hex a flag toward its own
// edge (side 1: row 0). From 6,2, one flag gives the two hexes of row 1 the
// game offers after a battle; two flags reach row 0; on row 0 a flag cannot be
// retreated and costs a block.
TEST(AncientsAnalystQueries, RetreatsGiveThePathsTheGameWouldOfferForNFlags) {
  const Battle b = make_battle({unit("a", "medium_infantry", 0, 6, 3), unit("d", "medium_infantry", 1, 6, 2),
                                unit("edge", "medium_infantry", 1, 2, 0)});
  const AncientsState s = battle_phase(b, {"a"});
  const Json one = answer_query(b, s, true, "retreats", {{"unit", "d"}, {"flags", 1}}, "args");
  EXPECT_EQ(one["rule"], "ancients.flag.retreat");
  EXPECT_EQ(one["hexes_per_flag"], 1);
  EXPECT_EQ(one["hexes"], 1);
  ASSERT_EQ(one["options"].size(), 2u) << one.dump();
  for (const Json& o : one["options"]) {
    EXPECT_EQ(o["end"][1], 1) << o.dump();
    EXPECT_EQ(o["blocks_lost"], 0);
    EXPECT_EQ(o["path"].size(), 2u);
  }
  // The same paths the game offers when d takes a flag.
  AncientsState played = s;
  ScriptedDice dice({6, 1, 1, 3});
  const Json r = apply(b, played, battle_of(b, "a", "d"), dice);
  ASSERT_EQ(r["attack"]["awaiting"]["options"].size(), one["options"].size()) << r.dump();
  const Json two = answer_query(b, s, true, "retreats", {{"unit", "d"}, {"flags", 2}}, "args");
  ASSERT_FALSE(two["options"].empty());
  for (const Json& o : two["options"]) EXPECT_EQ(o["end"][1], 0) << o.dump();
  const Json stuck = answer_query(b, s, true, "retreats", {{"unit", "edge"}, {"flags", 1}}, "args");
  ASSERT_EQ(stuck["options"].size(), 1u) << stuck.dump();
  EXPECT_EQ(stuck["options"][0]["blocks_lost"], 1);
  EXPECT_EQ(stuck["options"][0]["hexes"], 0);
  EXPECT_EQ(input_error_field_of([&] { answer_query(b, s, true, "retreats", {{"unit", "d"}, {"flags", 0}}, "args"); }),
            "args.flags");
}

// ancients.evade.eligible: "Light units and war machines may always evade;
// medium cavalry and camels evade foot and heavy mounted units; ... others
// never", and only from close combat; the answer is the game's own.
TEST(AncientsAnalystQueries, EvasionSaysWhetherAUnitMayEvadeAnAttackerAndWhere) {
  const Battle b = make_battle({unit("mc", "medium_cavalry", 0, 6, 3), unit("mc2", "medium_cavalry", 1, 6, 2),
                                unit("mi", "medium_infantry", 0, 10, 3), unit("li2", "light_infantry", 1, 10, 2)});
  const AncientsState s = battle_phase(b, {"mc", "mi"});
  const Json yes = answer_query(b, s, true, "evasion", {{"unit", "li2"}, {"attacker", "mi"}}, "args");
  EXPECT_TRUE(yes["may_evade"].get<bool>()) << yes.dump();
  EXPECT_TRUE(yes["class_may_evade"].get<bool>());
  EXPECT_EQ(yes["rule"], "ancients.evade.move");
  ASSERT_FALSE(yes["options"].empty());
  for (const Json& o : yes["options"]) EXPECT_EQ(o["end"][1], 0) << o.dump();  // 2 hexes toward row 0
  const Json no = answer_query(b, s, true, "evasion", {{"unit", "mc2"}, {"attacker", "mc"}}, "args");
  EXPECT_FALSE(no["may_evade"].get<bool>());
  EXPECT_FALSE(no["class_may_evade"].get<bool>());
  EXPECT_EQ(no["rule"], "ancients.evade.eligible");
  EXPECT_EQ(no["reason"], "a medium cavalry may not evade a medium cavalry");
  EXPECT_FALSE(no.contains("options"));
  // The odds query's refusal of that evasion says the same.
  EXPECT_EQ(odds_of(b, s, "mc", "mc2", true)["violations"][0]["reason"], no["reason"]);
  EXPECT_EQ(input_error_field_of([&] { answer_query(b, s, true, "evasion", {{"unit", "mc2"}, {"attacker", "li2"}}, "args"); }),
            "args.attacker");
}

}  // namespace ancients_battle_queries_test
}  // namespace referee::ancients
