// SPDX-License-Identifier: Apache-2.0
// One IRU hash bank as an RTL island behind the step interface (sim/step_block.h): the simulator's
// own HashBank (models/iru/hash_bank.h) stepped one operation per cycle, and the Verilated
// rtl/iru/iru_hash_bank.v, with the cycle semantics of the Verilog (docs/iru.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/iru/hash_bank.h"
#include "sim/step_block.h"

namespace irr::iru {

enum class BankOp : std::uint8_t { none = 0, insert = 1, take = 2 };
// INSERT: inserted, merged, full; TAKE: taken (as inserted) or refused (as full).
enum class BankResult : std::uint8_t { none = 0, inserted = 1, merged = 2, full = 3 };

struct BankIn {
  bool rst = false;
  Filter filter = Filter::none;
  BankOp op = BankOp::none;
  std::uint32_t set = 0, k = 0;
  Element element;
};

struct BankOut {
  BankResult result = BankResult::none;
  std::uint32_t dropped = 0;          // merged: the position that is gone
  std::vector<Element> entry;         // `set`'s elements, oldest first (before the operation)
};

using HashBankBlock = sim::StepBlock<BankIn, BankOut>;

struct BankParams {
  unsigned sets = 128, capacity = 32;
  bool operator==(const BankParams& o) const { return sets == o.sets && capacity == o.capacity; }
};

// "model" or "rtl" (a parameter set the build verilated: bank_rtl_builds(); otherwise an error
// naming them). The RTL randomises X-initial values from `seed` and, with `fst` set, writes an FST.
std::unique_ptr<HashBankBlock> make_bank_block(const std::string& impl, BankParams p, std::uint64_t seed = 1,
                                               const std::string& fst = "");
std::vector<BankParams> bank_rtl_builds();
std::string bank_name(const BankParams& p);

}  // namespace irr::iru
