// Index<Tag>: a typed index into a vector.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "referee/core/index.hpp"

namespace {

using AppleIndex = referee::Index<struct AppleTag>;
using PearIndex = referee::Index<struct PearTag>;

}  // namespace

TEST(Index, HoldsItsValueAndSlot) {
  constexpr AppleIndex a(3);
  static_assert(a.value() == 3);
  static_assert(a.slot() == 3u);
  EXPECT_EQ(AppleIndex().value(), 0);
  EXPECT_EQ(AppleIndex(std::size_t{7}).value(), 7);
  static_assert(sizeof(AppleIndex) == sizeof(std::int32_t));
}

TEST(Index, KindsDoNotMix) {
  static_assert(!std::is_convertible_v<int, AppleIndex>);  // explicit only
  static_assert(!std::is_convertible_v<AppleIndex, int>);
  static_assert(!std::is_convertible_v<AppleIndex, PearIndex>);
  static_assert(!std::is_constructible_v<PearIndex, AppleIndex>);
}

TEST(Index, NoneAndWithin) {
  EXPECT_TRUE(AppleIndex::none().is_none());
  EXPECT_EQ(AppleIndex::none().value(), -1);
  EXPECT_FALSE(AppleIndex(0).is_none());
  EXPECT_TRUE(AppleIndex(1).within(2));
  EXPECT_FALSE(AppleIndex(2).within(2));
  EXPECT_FALSE(AppleIndex::none().within(2));
}

TEST(Index, ComparesAndCounts) {
  AppleIndex a(1);
  EXPECT_EQ(a++, AppleIndex(1));
  EXPECT_EQ(a, AppleIndex(2));
  EXPECT_EQ(++a, AppleIndex(3));
  EXPECT_LT(AppleIndex(1), AppleIndex(2));
  EXPECT_GE(AppleIndex(2), AppleIndex(2));
  EXPECT_NE(AppleIndex(1), AppleIndex(2));
  std::unordered_set<AppleIndex> seen{AppleIndex(1), AppleIndex(1), AppleIndex(4)};
  EXPECT_EQ(seen.size(), 2u);
}

TEST(Index, IndexesAVector) {
  std::vector<std::string> names{"ash", "birch", "cedar"};
  EXPECT_EQ(at(names, AppleIndex(1)), "birch");
  at(names, AppleIndex(2)) = "douglas";
  const std::vector<std::string>& fixed = names;
  EXPECT_EQ(at(fixed, AppleIndex(2)), "douglas");
  EXPECT_EQ(names[AppleIndex(0).slot()], "ash");
}

TEST(Index, ValuesOfAList) {
  EXPECT_EQ(referee::values_of(std::vector<AppleIndex>{AppleIndex(2), AppleIndex(0)}), (std::vector<int>{2, 0}));
  EXPECT_TRUE(referee::values_of(std::vector<AppleIndex>{}).empty());
}

TEST(Index, RangesOverAVector) {
  const std::vector<double> v{0.5, 1.5, 2.5};
  std::vector<int> seen;
  for (AppleIndex i : referee::indices<AppleIndex>(v)) seen.push_back(i.value());
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(referee::values_of(referee::index_list<AppleIndex>(v)), (std::vector<int>{0, 1, 2}));
  int n = 0;
  for (AppleIndex i : referee::IndexRange<AppleIndex>(0)) n += i.value() + 1;
  EXPECT_EQ(n, 0);
}
