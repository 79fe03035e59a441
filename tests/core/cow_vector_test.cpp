// CowVector: copies share their elements until one of them changes.
#include <gtest/gtest.h>

#include <string>

#include "referee/core/cow_vector.hpp"

using referee::CowVector;

TEST(CowVector, CopiesShareUntilOneChanges) {
  CowVector<std::string> a{"wood-1", "hill-2"};
  const CowVector<std::string> b = a;
  EXPECT_EQ(&a.get(), &b.get());  // shared, nothing copied
  a[0] = "marsh-3";               // a copies first, then changes
  EXPECT_NE(&a.get(), &b.get());
  EXPECT_EQ(a[0], "marsh-3");
  EXPECT_EQ(b[0], "wood-1");
  EXPECT_EQ(b.size(), 2u);
}

TEST(CowVector, ALoneOwnerChangesInPlace) {
  CowVector<int> a{1, 2, 3};
  const std::vector<int>* before = &a.get();
  a.push_back(4);
  a[0] = 7;
  EXPECT_EQ(&a.get(), before);
  EXPECT_EQ(a.size(), 4u);
  EXPECT_EQ(a.front(), 7);
  EXPECT_EQ(a.back(), 4);
}

TEST(CowVector, EmptyAndClearAndEquality) {
  CowVector<int> a;
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.begin(), a.end());
  a.emplace_back(5);
  CowVector<int> b = a;
  b.clear();
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(a.size(), 1u);
  EXPECT_FALSE(a == b);
  b.push_back(5);
  EXPECT_TRUE(a == b);  // equal contents, separate storage
}
