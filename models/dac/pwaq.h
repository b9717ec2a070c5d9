// SPDX-License-Identifier: Apache-2.0
// DAC's per-warp address queues (PWAQ; seed 001 Table 3.1: 192 entries a SM of 65 bits — a 33-bit
// line address and a 32-bit word mask — partitioned among the warps [S L691, L809]) as an RTL
// island behind the step interface: the model here and the Verilated rtl/dac/dac_pwaq.v, cycle for
// cycle. One SRAM, a FIFO per warp; single-port (one access a cycle, the dequeuing warp first) or
// with a read and a write port; the record read arrives the cycle after (docs/dac.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/step_block.h"

namespace irr::dac {

// A record's line address: 33 bits of 128-byte lines, so the byte addresses DAC expands are 40 bits.
constexpr unsigned kPwaqLineBits = 33;
constexpr unsigned kPwaqAddressBits = kPwaqLineBits + 7;

struct PwaqIn {
  bool rst = false;
  bool push = false;
  std::uint32_t push_warp = 0;
  std::uint64_t push_line = 0;  // kPwaqLineBits: the line's address / 128
  std::uint32_t push_mask = 0;
  bool pop = false;
  std::uint32_t pop_warp = 0;
};

struct PwaqOut {
  bool push_ok = false, pop_ok = false;
  bool rd_valid = false;  // the record popped the cycle before
  std::uint64_t rd_line = 0;
  std::uint32_t rd_mask = 0;
  std::uint32_t push_count = 0;  // the pushing warp's records
};

using PwaqBlock = sim::StepBlock<PwaqIn, PwaqOut>;

struct PwaqParams {
  unsigned warps = 48, depth = 4;  // 48 x 4 = Table 3.1's 192 entries
  unsigned ports = 1;              // 1: one access a cycle, the dequeue first; 2: a read and a write a cycle
  bool operator==(const PwaqParams& o) const { return warps == o.warps && depth == o.depth && ports == o.ports; }
};

// "model" or "rtl" (a parameter set the build verilated: pwaq_rtl_builds()).
std::unique_ptr<PwaqBlock> make_pwaq(const std::string& impl, PwaqParams p = {}, std::uint64_t seed = 1,
                                     const std::string& fst = "");
std::vector<PwaqParams> pwaq_rtl_builds();

}  // namespace irr::dac
