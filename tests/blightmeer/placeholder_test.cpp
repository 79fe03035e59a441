#include <gtest/gtest.h>

TEST(blightmeerModule, Builds) { SUCCEED(); }
