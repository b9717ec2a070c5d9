// SPDX-License-Identifier: Apache-2.0
// The HWWL's RTL islands behind the step interface (sim/step_block.h), each as the simulator's own
// model and as Verilated RTL, with the cycle semantics of their Verilog (rtl/hwwl/*.v, tables in
// docs/hwwl.md):
//  - a lane bank: hwwl::Bank stepped one access per cycle (rtl/hwwl/hwwl_bank.v);
//  - the local-sorting WRU decision: rank_by_occupancy and plan_lsorting with the plan registered
//    for one cycle (rtl/hwwl/hwwl_wru_lsort.v).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/step_block.h"

namespace irr::hwwl {

enum class BankOp : std::uint8_t { none = 0, pull = 1, push = 2, take = 3, put = 4, fill = 5 };

struct BankIn {
  bool rst = false;
  bool cfg_double = false;  // the mode a reset takes (wlcfg)
  BankOp op = BankOp::none;
  std::uint32_t wdata = 0;
  bool reserve = false;
  bool kernel_end = false;
  bool retire = false;
};

struct BankOut {
  bool op_ok = false, reserve_ok = false, swapped = false;
  bool rd_valid = false;
  std::uint32_t rd_data = 0;
  std::uint32_t pullable = 0, reserved = 0, occupied = 0, push_occupied = 0;
  bool push_full = false, empty = true, greedy = false, needy = false, retired = false;
  bool double_mode = false, pull_part = false;
};

using BankBlock = sim::StepBlock<BankIn, BankOut>;

struct BankParams {
  unsigned depth = 32, width = 24, threshold = 5;
  bool operator==(const BankParams& o) const { return depth == o.depth && width == o.width && threshold == o.threshold; }
};

struct WruIn {
  bool rst = false;
  std::vector<std::uint32_t> occupancy;  // one per bank
};

struct WruOut {
  std::vector<std::uint32_t> rank;                  // banks by increasing occupancy
  std::uint32_t move_valid = 0;                     // bit j: pair j moves one ID
  std::vector<std::uint32_t> move_from, move_to;    // pair j: rank[banks-1-j] -> rank[j]
  bool global_greedy = false, export_valid = false;
  std::uint32_t export_bank = 0;
};

using WruBlock = sim::StepBlock<WruIn, WruOut>;

struct WruParams {
  unsigned banks = 16, count_width = 6, threshold = 5;
  bool operator==(const WruParams& o) const {
    return banks == o.banks && count_width == o.count_width && threshold == o.threshold;
  }
};

// "model" or "rtl" (a parameter set the build verilated: *_rtl_builds(); otherwise an error naming
// them). The RTL randomises X-initial values from `seed` and, with `fst` set, writes an FST there.
std::unique_ptr<BankBlock> make_bank_block(const std::string& impl, BankParams p, std::uint64_t seed = 1,
                                           const std::string& fst = "");
std::vector<BankParams> bank_rtl_builds();
std::unique_ptr<WruBlock> make_wru_block(const std::string& impl, WruParams p, std::uint64_t seed = 1,
                                         const std::string& fst = "");
std::vector<WruParams> wru_rtl_builds();

}  // namespace irr::hwwl
