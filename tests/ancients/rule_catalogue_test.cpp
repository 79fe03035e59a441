// The ancients rule catalogue against the code and the tests: every id the
// engine can emit is catalogued, every catalogued id is emitted by a test or
// golden file, and the catalogue is well formed.
#include <gtest/gtest.h>

#include "referee/ancients/rules.hpp"
#include "support/rule_catalogue_checks.hpp"

namespace referee::ancients {
namespace {

TEST(AncientsRuleCatalogue, EveryIdTheCodeEmitsIsCatalogued) {
  // No ancients rule id is composed at run time: every one is a literal.
  test_support::expect_code_ids_catalogued("ancients", rule_catalogue());
}

TEST(AncientsRuleCatalogue, EveryCataloguedIdIsEmittedBySomeTest) {
  test_support::expect_catalogue_ids_tested(rule_catalogue());
}

TEST(AncientsRuleCatalogue, IdsAreUniqueAndWellFormedWithTexts) {
  test_support::expect_catalogue_well_formed("ancients", rule_catalogue());
}

}  // namespace
}  // namespace referee::ancients
