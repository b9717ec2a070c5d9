// SPDX-License-Identifier: Apache-2.0
// Test executables start in SystemC's main(), which calls sc_main: run GoogleTest from there.
// ctest runs each test case in its own process (gtest_discover_tests), so each may elaborate.
#include <gtest/gtest.h>

#include <cstdlib>
#include <systemc>

namespace {
const bool kNoBanner = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;
}

int sc_main(int argc, char** argv) {
  (void)kNoBanner;
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
