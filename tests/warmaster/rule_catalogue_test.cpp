// The warmaster rule catalogue against the code and the tests: every id the
// engine can emit is catalogued, every catalogued id is emitted by a test or
// golden file, and the catalogue is well formed.
#include <gtest/gtest.h>

#include "referee/warmaster/model/rules.hpp"
#include "support/rule_catalogue_checks.hpp"

namespace referee::warmaster {
namespace {

TEST(WarmasterRuleCatalogue, EveryIdTheCodeEmitsIsCatalogued) {
  // No warmaster rule id is composed at run time: every one is a literal.
  test_support::expect_code_ids_catalogued("warmaster", rule_catalogue());
}

TEST(WarmasterRuleCatalogue, EveryCataloguedIdIsEmittedBySomeTest) {
  test_support::expect_catalogue_ids_tested(rule_catalogue());
}

TEST(WarmasterRuleCatalogue, IdsAreUniqueAndWellFormedWithTexts) {
  test_support::expect_catalogue_well_formed("warmaster", rule_catalogue());
}

}  // namespace
}  // namespace referee::warmaster
