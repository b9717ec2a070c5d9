// SPDX-License-Identifier: Apache-2.0
// The DATS Node State Table as an RTL island behind the step interface (sim/step_block.h): the
// simulator's own NodeStateTable (models/dats/nst.h) stepped one operation per cycle, and the
// Verilated rtl/dats/dats_nst.v, with the cycle semantics of the Verilog (table in docs/dats.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/step_block.h"

namespace irr::dats {

enum class NstOp : std::uint8_t { none = 0, insert = 1, decrement = 2, issue = 3, retire = 4 };

struct NstIn {
  bool rst = false;
  NstOp op = NstOp::none;
  std::uint32_t slot = 0, node = 0;
  std::uint32_t parents = 0, level = 0, les = 0;  // insert
  bool has_edges = false;
  // The pick: from `tail`, circularly, rows not held, within the level window when lvl_on.
  std::uint32_t tail = 0;
  std::vector<bool> hold;  // one per row (empty: none held)
  bool lvl_on = false;
  std::uint32_t lvl_lo = 0, lvl_hi = 0, bound = 0;
};

struct NstOut {
  bool op_ok = false, resident = false;
  std::uint32_t pub_hits = 0;
  std::uint8_t rd_state = 3;  // 0 W, 1 R, 2 P, 3 D
  std::uint32_t rd_parents = 0, rd_level = 0, rd_node = 0, rd_les = 0;
  bool rd_has_edges = false;
  std::uint32_t pub_count = 0;
  bool pub_full = false;
  bool pick_valid = false;
  std::uint32_t pick_slot = 0;
};

using NstBlock = sim::StepBlock<NstIn, NstOut>;

// Rows (LNA entries), LEA entries (the edge start's width) and PUB entries; node numbers, parent
// counts and levels are 16 bits, as in the paper [W L452].
struct NstParams {
  unsigned entries = 128, lea = 512, pub = 64;
  bool operator==(const NstParams& o) const { return entries == o.entries && lea == o.lea && pub == o.pub; }
};
constexpr unsigned kNstFieldBits = 16;

// "model" or "rtl" (a parameter set the build verilated: nst_rtl_builds(); otherwise an error naming
// them). The RTL randomises X-initial values from `seed` and, with `fst` set, writes an FST there.
std::unique_ptr<NstBlock> make_nst_block(const std::string& impl, NstParams p, std::uint64_t seed = 1,
                                         const std::string& fst = "");
std::vector<NstParams> nst_rtl_builds();
std::string nst_name(const NstParams& p);

}  // namespace irr::dats
