// The rule-catalogue helpers (find, JSON, Markdown, id syntax) and the
// formatter reasons use to compare a measured value with its limit.
#include <array>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "referee/core/rule_catalogue.hpp"
#include "referee/core/ruling.hpp"

namespace referee {
namespace {

constexpr std::array<RuleInfo, 2> kSampleRules{{
    {"demo.move.gap", "a gap | must be wider", "a stand passes a narrow gap"},
    {"demo.move.distance", "no part moves further than its pace", "a corner moves too far"},
}};

TEST(RuleCatalogueHelpers, FindsByIdOrNothing) {
  auto r = find_rule(kSampleRules, "demo.move.distance");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->fires, "a corner moves too far");
  EXPECT_FALSE(find_rule(kSampleRules, "demo.move").has_value());
}

TEST(RuleCatalogueHelpers, JsonKeepsOrderAndFields) {
  nlohmann::json j = rules_to_json(kSampleRules);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["id"], "demo.move.gap");
  EXPECT_EQ(j[1]["text"], "no part moves further than its pace");
  EXPECT_EQ(j[1]["fires"], "a corner moves too far");
}

TEST(RuleCatalogueHelpers, MarkdownIsOneTableWithPipesEscaped) {
  EXPECT_EQ(rules_to_markdown(kSampleRules),
            "| Rule id | Rule | Fires when |\n|---|---|---|\n"
            "| `demo.move.gap` | a gap \\| must be wider | a stand passes a narrow gap |\n"
            "| `demo.move.distance` | no part moves further than its pace | a corner moves too far |\n");
}

TEST(RuleCatalogueHelpers, WellFormedIds) {
  EXPECT_TRUE(well_formed_rule_id("warmaster.movement.gap"));
  EXPECT_TRUE(well_formed_rule_id("blightmeer.jump_down.check"));
  EXPECT_TRUE(well_formed_rule_id("warmaster.sight"));
  EXPECT_FALSE(well_formed_rule_id("warmaster"));
  EXPECT_FALSE(well_formed_rule_id("warmaster."));
  EXPECT_FALSE(well_formed_rule_id("warmaster..gap"));
  EXPECT_FALSE(well_formed_rule_id("Warmaster.gap"));
  EXPECT_FALSE(well_formed_rule_id("warmaster.move-gap"));
  EXPECT_FALSE(well_formed_rule_id("warmaster.1gap"));
  EXPECT_FALSE(well_formed_rule_id(""));
}

// --- format_compared --------------------------------------------------------

TEST(FormatCompared, ANearMissShowsTheDigitsThatDiffer) {
  // 10.05 cm against 10.0 cm: at one decimal 10.1 would double the excess,
  // so two decimals are used for both.
  ComparedFigures f = format_compared(10.05, 10.0, "cm");
  EXPECT_EQ(f.value, "10.05 cm");
  EXPECT_EQ(f.limit, "10.00 cm");
  f = format_compared(10.05, 10.0, "");
  EXPECT_EQ(f.value, "10.05");
  EXPECT_EQ(f.limit, "10.00");
}

TEST(FormatCompared, OneDecimalWhenThatAlreadyDiffers) {
  ComparedFigures f = format_compared(21.4, 20, "cm");
  EXPECT_EQ(f.value, "21.4 cm");
  EXPECT_EQ(f.limit, "20.0 cm");
  // 21.46 rounds to 21.5, off by 0.04 of an excess of 1.46: close enough.
  f = format_compared(21.46, 20, "cm");
  EXPECT_EQ(f.value, "21.5 cm");
  EXPECT_EQ(f.limit, "20.0 cm");
  // And 10.04 against 10 needs two, where one decimal prints 10.0 twice.
  f = format_compared(10.04, 10, "cm");
  EXPECT_EQ(f.value, "10.04 cm");
  EXPECT_EQ(f.limit, "10.00 cm");
}

TEST(FormatCompared, EqualValuesPrintAtOneDecimal) {
  ComparedFigures f = format_compared(20, 20, "in");
  EXPECT_EQ(f.value, "20.0 in");
  EXPECT_EQ(f.limit, "20.0 in");
}

TEST(FormatCompared, TinyExcessesGetMoreDigits) {
  // The Warmaster slack is 0.001 cm: a refusal just past it needs three or
  // four decimals to read as one.
  ComparedFigures f = format_compared(20.004, 20, "cm");
  EXPECT_EQ(f.value, "20.004 cm");
  EXPECT_EQ(f.limit, "20.000 cm");
  // At three decimals 20.0012 would be rounded by a sixth of its excess.
  f = format_compared(20.0012, 20, "cm");
  EXPECT_EQ(f.value, "20.0012 cm");
  EXPECT_EQ(f.limit, "20.0000 cm");
  f = format_compared(19.99996, 20, "cm");
  EXPECT_EQ(f.value, "19.99996 cm");
  EXPECT_EQ(f.limit, "20.00000 cm");
}

TEST(FormatCompared, NoiseBeyondSixDecimalsIsEqualAndNegativeZeroIsZero) {
  // A gap of exactly 4 cm built from sums: equal, so one decimal.
  ComparedFigures f = format_compared(4 - 1e-12, 4, "cm");
  EXPECT_EQ(f.value, "4.0 cm");
  EXPECT_EQ(f.limit, "4.0 cm");
  f = format_compared(1 + 4e-7, 1, "");
  EXPECT_EQ(f.value, "1.0");
  EXPECT_EQ(f.limit, "1.0");
  f = format_compared(1 + 6e-7, 1, "");
  EXPECT_EQ(f.value, "1.000001");
  EXPECT_EQ(f.limit, "1.000000");
  f = format_compared(-0.01, 0, "cm");
  EXPECT_EQ(f.value, "-0.01 cm");
  EXPECT_EQ(f.limit, "0.00 cm");
  f = format_compared(-0.0001, 0.0001, "cm");
  EXPECT_EQ(f.value, "-0.0001 cm");
  EXPECT_EQ(f.limit, "0.0001 cm");
  f = format_compared(-0.00001, 0, "");  // "-0.0" to "-0.0000" read as zero, so no minus sign there
  EXPECT_EQ(f.value, "-0.00001");
  EXPECT_EQ(f.limit, "0.00000");
  f = format_compared(-0.00001, -0.00002, "");
  EXPECT_EQ(f.value, "-0.00001");
  EXPECT_EQ(f.limit, "-0.00002");
}

}  // namespace
}  // namespace referee
