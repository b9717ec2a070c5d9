// SPDX-License-Identifier: Apache-2.0
// The RTL implementation of FifoBlock over any Verilated parameter set of sync_fifo.
// Internal: includes Verilator's headers.
#pragma once

#include "models/blocks/sync_fifo.h"
#include "models/blocks/verilated_block.h"

namespace irr::blocks {

template <typename V>
class FifoRtl : public FifoBlock {
 public:
  FifoRtl(FifoParams p, std::uint64_t seed, const std::string& fst, std::uint64_t period_ps)
      : mask_(p.width == 64 ? ~0ull : (1ull << p.width) - 1), v_("sync_fifo", seed, fst, period_ps) {}
  FifoOut eval(const FifoIn& in) override {
    V& t = v_.top();
    t.rst = in.rst;
    t.push = in.push;
    t.push_data = in.push_data & mask_;  // Verilator leaves bits above the port width to the caller
    t.pop = in.pop;
    v_.settle();
    FifoOut o;
    o.push_ok = t.push_ok;
    o.pop_ok = t.pop_ok;
    o.rd_valid = t.rd_valid;
    o.rd_data = t.rd_data;
    o.count = t.count;
    o.full = t.full;
    o.empty = t.empty;
    return o;
  }
  void edge() override { v_.rising_edge(); }

 private:
  std::uint64_t mask_;
  Verilated<V> v_;
};

}  // namespace irr::blocks
