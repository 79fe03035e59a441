#include <gtest/gtest.h>

TEST(ancientsModule, Builds) { SUCCEED(); }
