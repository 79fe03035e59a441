#include <gtest/gtest.h>

TEST(warmasterModule, Builds) { SUCCEED(); }
