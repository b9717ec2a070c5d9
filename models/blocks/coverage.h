// SPDX-License-Identifier: Apache-2.0
// RTL coverage collection. While a coverage folder is set — by `irrgpu coverage`, or for any run
// (the co-simulation tests) by $IRRGPU_COVERAGE — an RTL island whose parameter set the build
// verilated with coverage (IRRGPU_<BLOCK>_COVERAGE_BUILDS) is made from that build, and each
// instance writes its Verilator counts (line, branch, toggle and the block's `cover` bins) to the
// folder as <block>-<pid>-<n>.dat when it is destroyed; harnesses write their own bins beside them
// (<block>-bins-<pid>-<n>.json). `irrgpu coverage` merges and reports them.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace irr::blocks {

// The folder ("" when coverage is off): set_coverage_dir's, else $IRRGPU_COVERAGE's.
const std::string& coverage_dir();
// `required`: an island with no coverage build of its parameters is an error, not its plain build.
void set_coverage_dir(const std::string& dir, bool required = false);  // created if missing
bool coverage_required();

// A fresh file name in the coverage folder for `block`'s data: <block><kind>-<pid>-<n><ext>.
std::string coverage_file(const std::string& block, const std::string& kind, const std::string& ext);

// A harness's functional bins (name → hits) for `block`, written when coverage is on.
void write_bins(const std::string& block, const std::map<std::string, std::uint64_t>& bins);

}  // namespace irr::blocks
