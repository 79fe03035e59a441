// The blightmeer rule catalogue against the code and the tests: every id the
// engine can emit is catalogued, every catalogued id is emitted by a test or
// golden file, and the catalogue is well formed.
#include <gtest/gtest.h>

#include "referee/blightmeer/rules.hpp"
#include "support/rule_catalogue_checks.hpp"

namespace referee::blightmeer {
namespace {

TEST(BlightmeerRuleCatalogue, EveryIdTheCodeEmitsIsCatalogued) {
  // No blightmeer rule id is composed at run time: every one is a literal.
  test_support::expect_code_ids_catalogued("blightmeer", rule_catalogue());
}

TEST(BlightmeerRuleCatalogue, EveryCataloguedIdIsEmittedBySomeTest) {
  test_support::expect_catalogue_ids_tested(rule_catalogue());
}

TEST(BlightmeerRuleCatalogue, IdsAreUniqueAndWellFormedWithTexts) {
  test_support::expect_catalogue_well_formed("blightmeer", rule_catalogue());
}

}  // namespace
}  // namespace referee::blightmeer
