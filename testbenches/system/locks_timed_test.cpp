// SPDX-License-Identifier: Apache-2.0
// Every lock benchmark (workloads/locks) timed on the gtx480 preset in both variants, as the
// delegate study runs them, each leaving the right data (slow: some six minutes).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testbenches/common/testing.h"

using irr::testing::run_cli;

namespace {

void both_pass(const std::vector<std::string>& options) {
  for (const char* variant : {"global", "delegated"}) {
    std::vector<std::string> args = {"run", "-q", "--workload"};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), {"--variant", variant});
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << options[0] << "/" << variant << ": " << r.out << r.err;
    EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << options[0] << "/" << variant << ": " << r.out;
  }
}

}  // namespace

TEST(LocksTimed, Ht) { both_pass({"ht", "--scale", "4", "--collisions", "1024"}); }
TEST(LocksTimed, Atm) { both_pass({"atm", "--collisions", "4096"}); }
TEST(LocksTimed, Sgd) { both_pass({"sgd", "--collisions", "4096"}); }
TEST(LocksTimed, Mst) { both_pass({"mst", "--graph", "random:n=4096,m=8192"}); }
TEST(LocksTimed, Mf) { both_pass({"mf", "--graph", "mesh:rows=32,cols=16"}); }
