// SPDX-License-Identifier: Apache-2.0
// The synchronous FIFO on a single-port SRAM (rtl/common/sync_fifo.v): the exemplar RTL island.
// Its cycle semantics are in docs/rtl.md; in short: one array access per cycle, a pop wins over a
// push, read latency one cycle, no bypass, synchronous reset.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/step_block.h"

namespace irr::blocks {

struct FifoIn {
  bool rst = false;
  bool push = false;
  std::uint64_t push_data = 0;
  bool pop = false;
};

struct FifoOut {
  bool push_ok = false;  // the push of this cycle is accepted
  bool pop_ok = false;   // the pop of this cycle is accepted
  bool rd_valid = false; // rd_data holds the word of the pop accepted last cycle
  std::uint64_t rd_data = 0;
  std::uint32_t count = 0;  // entries at the start of the cycle
  bool full = false;
  bool empty = true;
};

using FifoBlock = sim::StepBlock<FifoIn, FifoOut>;

struct FifoParams {
  unsigned depth = 8;
  unsigned width = 16;
  bool operator==(const FifoParams& o) const { return depth == o.depth && width == o.width; }
};

// The C++ model, written as the hardware is built: a ring buffer with head and tail pointers.
class FifoModel : public FifoBlock {
 public:
  // With `vcd` non-empty, writes a VCD of its ports and state with the RTL's signal names and
  // widths (scope sync_fifo.sync_fifo), so waveforms/sync_fifo.gtkw shows either.
  explicit FifoModel(FifoParams p, const std::string& vcd = "", std::uint64_t period_ps = 1000);
  ~FifoModel() override;
  FifoOut eval(const FifoIn& in) override;
  void edge() override;

 private:
  struct Waves;
  FifoOut outputs(const FifoIn& in) const;  // for the current state
  void update();
  void record(const FifoOut& o);
  std::uint64_t mask() const { return p_.width == 64 ? ~0ull : (1ull << p_.width) - 1; }
  std::unique_ptr<Waves> waves_;
  FifoParams p_;
  std::vector<std::uint64_t> mem_;
  unsigned head_ = 0, tail_ = 0, count_ = 0;
  bool rd_valid_ = false;
  std::uint64_t rd_data_ = 0;
  FifoIn in_;
  FifoOut out_;
};

// The Verilated RTL of one of the parameter sets built (fifo_rtl_builds()); throws irr::Error naming
// the built ones otherwise. X-initial values are randomised from `seed`; with `fst` non-empty the
// RTL writes an FST waveform of all its signals there (`period_ps` per cycle).
std::unique_ptr<FifoBlock> make_fifo_rtl(FifoParams p, std::uint64_t seed, const std::string& fst = "",
                                         std::uint64_t period_ps = 1000);
std::vector<FifoParams> fifo_rtl_builds();
// "model" or "rtl"; with `waveform` non-empty the model writes VCD there, the RTL FST.
std::unique_ptr<FifoBlock> make_fifo(const std::string& impl, FifoParams p, std::uint64_t seed = 1,
                                     const std::string& waveform = "", std::uint64_t period_ps = 1000);

}  // namespace irr::blocks
