// The typed reports the rules fill (report.hpp) and the JSON describe() makes
// of them, on a close combat from the published rules: medium infantry
// battles with 4 dice; a medium face and swords hit medium infantry in close
// combat; a unit of 4 blocks keeps 2 after 2 hits; one flag retreats foot 1
// hex toward its own side, and the vacated hex offers a momentum advance.
// Dice are scripted: 1 light, 2 medium, 3 heavy, 4 swords, 5 leader helmet, 6 flag.
#include <gtest/gtest.h>

#include "referee/ancients/report.hpp"
#include "referee/core/dice.hpp"
#include "test_support.hpp"

namespace referee::ancients {
namespace ancients_report_test {

using namespace testing;

class AncientsReport : public ::testing::Test {
 protected:
  // Side 0's medium infantry at 6,3 attacks side 1's at 6,2, which retreats toward row 0.
  const Battle b_ = make_battle({unit("a", "medium_infantry", 0, 6, 3), unit("d", "medium_infantry", 1, 6, 2)});
  AncientsState s_ = battle_phase(b_, {"a"});
  ScriptedDice dice_{{2, 4, 6, 1}};  // medium, swords, flag, light: 2 hits and a flag
  int a_ = b_.find_unit("a");
  int d_ = b_.find_unit("d");

  Report attack() {
    return do_apply(b_, s_, parse_action({{"type", "battle"}, {"unit", "a"}, {"target", "d"}}, b_, "action"), dice_);
  }
};

TEST_F(AncientsReport, ABattleReportsItsDiceHitsBlocksAndTheRetreatAwaited) {
  const Report r = attack();
  const auto* declared = std::get_if<DeclareReport>(&r.event);
  ASSERT_NE(declared, nullptr);
  EXPECT_EQ(declared->unit, a_);
  EXPECT_EQ(declared->target, d_);
  EXPECT_TRUE(declared->close);
  EXPECT_FALSE(declared->awaiting);  // medium infantry may not evade
  ASSERT_TRUE(declared->attack);
  const StrikeReport& strike = *declared->attack;
  EXPECT_EQ(strike.roll.plan.dice, 4);
  EXPECT_EQ(strike.roll.faces, (std::vector<Face>{Face::medium, Face::swords, Face::flag, Face::light}));
  EXPECT_EQ(strike.roll.hits, 2);
  EXPECT_EQ(strike.roll.flags, 1);
  ASSERT_TRUE(strike.result);
  EXPECT_EQ(strike.result->lost, 2);
  EXPECT_EQ(strike.result->left, 2);
  EXPECT_FALSE(strike.result->eliminated);
  EXPECT_FALSE(strike.result->banner);
  // Two hexes lie behind it: the owner chooses (ancients.flag.path).
  ASSERT_TRUE(strike.awaiting);
  EXPECT_EQ(strike.awaiting->decision, Decision::retreat);
  EXPECT_EQ(strike.awaiting->side, 1);
  EXPECT_EQ(strike.awaiting->unit, d_);
  EXPECT_EQ(strike.awaiting->flags, 1);
  EXPECT_EQ(strike.awaiting->may_ignore, 0);
  ASSERT_EQ(strike.awaiting->retreat_options.size(), 2u);
  EXPECT_EQ(strike.awaiting->retreat_options[0].option.end, hex(b_, 6, 1));
  EXPECT_EQ(strike.awaiting->retreat_options[1].option.end, hex(b_, 5, 1));
  EXPECT_EQ(s_.pending.kind, Pending::Kind::retreat);

  const nlohmann::json option61 = {{"blocks_lost", 0}, {"flags_ignored", 0}, {"hexes", 1}, {"to", {6, 1}}};
  const nlohmann::json option51 = {{"blocks_lost", 0}, {"flags_ignored", 0}, {"hexes", 1}, {"to", {5, 1}}};
  nlohmann::json options = nlohmann::json::array();
  options.push_back(option61);
  options.push_back(option51);
  const nlohmann::json expected = {
      {"unit", "a"},
      {"target", "d"},
      {"combat", "close"},
      {"rule", "ancients.battle.close"},
      {"attack",
       {{"attacker", "a"},
        {"target", "d"},
        {"dice", 4},
        {"rolled", {"medium", "swords", "flag", "light"}},
        {"dice_rule", "ancients.battle.dice"},
        {"hits", 2},
        {"flags", 1},
        {"hits_reason",
         "medium hits medium medium infantry; swords hit in close combat; leader helmets miss: no friendly leader "
         "with or beside it"},
        {"rule", "ancients.battle.hits"},
        {"result", {{"blocks_lost", 2}, {"blocks_left", 2}}},
        {"awaiting",
         {{"decision", "retreat"},
          {"side", 1},
          {"unit", "d"},
          {"flags", 1},
          {"may_ignore", 0},
          {"options", options},
          {"rule", "ancients.flag.path"}}}}}};
  EXPECT_EQ(describe(b_, r), expected) << describe(b_, r).dump(2);
}

TEST_F(AncientsReport, TheChosenRetreatReportsItsPathAndTheMomentumAwaited) {
  attack();
  const Report r = do_apply(b_, s_, parse_action({{"type", "retreat"}, {"to", {6, 1}}}, b_, "action"), dice_);
  const auto* answer = std::get_if<RetreatAnswerReport>(&r.event);
  ASSERT_NE(answer, nullptr);
  EXPECT_EQ(answer->unit, d_);
  EXPECT_EQ(answer->flags, 1);
  EXPECT_EQ(answer->answer.ignored, 0);
  EXPECT_EQ(answer->answer.declined, 0);
  ASSERT_TRUE(answer->answer.retreat);
  const RetreatReport& retreat = *answer->answer.retreat;
  EXPECT_EQ(retreat.demanded, 1);
  EXPECT_EQ(retreat.moved.hexes, 1);
  EXPECT_EQ(retreat.moved.path, (std::vector<int>{hex(b_, 6, 2), hex(b_, 6, 1)}));
  EXPECT_EQ(retreat.unretreated, 0);
  EXPECT_FALSE(retreat.loss);
  EXPECT_FALSE(retreat.leader_check);
  ASSERT_TRUE(answer->after.awaiting);
  EXPECT_EQ(answer->after.awaiting->decision, Decision::momentum);
  EXPECT_EQ(answer->after.awaiting->unit, a_);
  EXPECT_EQ(answer->after.awaiting->to, hex(b_, 6, 2));
  EXPECT_FALSE(answer->after.battle_back);
  EXPECT_EQ(dice_.remaining(), 0u);

  const nlohmann::json expected = {
      {"unit", "d"},
      {"demanded", 1},
      {"rule", "ancients.flag.retreat"},
      {"path", {{6, 2}, {6, 1}}},
      {"hexes", 1},
      {"chosen_by", 1},
      {"awaiting",
       {{"decision", "momentum"}, {"side", 0}, {"unit", "a"}, {"to", {6, 2}}, {"rule", "ancients.momentum.advance"}}}};
  EXPECT_EQ(describe(b_, r), expected) << describe(b_, r).dump(2);
}

// apply() answers the description of do_apply's report.
TEST_F(AncientsReport, ApplyAnswersTheDescription) {
  AncientsState again = s_;
  ScriptedDice same{{2, 4, 6, 1}};
  const nlohmann::json described = describe(b_, attack());
  EXPECT_EQ(apply(b_, again, parse_action({{"type", "battle"}, {"unit", "a"}, {"target", "d"}}, b_, "action"), same),
            described);
  EXPECT_EQ(again, s_);
}

}  // namespace ancients_report_test
}  // namespace referee::ancients
