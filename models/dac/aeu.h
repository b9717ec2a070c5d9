// SPDX-License-Identifier: Apache-2.0
// DAC's address expansion unit (AEU; seed 001 §3.4.2, specs/dac_decoupled_delegate.md §1.5) as an
// RTL island behind the step interface (sim/step_block.h): the model here and the Verilated
// rtl/dac/dac_aeu.v, cycle for cycle. One warp's part of an affine tuple becomes 128-byte line
// addresses with 32-bit word masks, a line a cycle, without an address per thread: lane i of the
// warp touches word s + i·k counted from the line of a0 (the warp's first thread's address; the
// caller accumulates 32·offset a warp, "accumulating 128 at a time" [S L609]), s = a0's word in its
// line, k = offset / 4. The fast path takes offsets 0 and 4·2^p up to 128 bytes with a0 word-
// aligned; anything else raises `fallback` and the SIMT lanes expand it [S L527]. docs/dac.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/step_block.h"

namespace irr::dac {

struct AeuIn {
  bool rst = false;
  bool start = false;  // a new warp, taken when the unit is idle or its last line goes this cycle
  bool hold = false;   // this cycle's record is not taken (its PWAQ partition is full): offer it again
  std::uint64_t a0 = 0;
  std::int32_t offset = 0;  // bytes
  std::uint32_t active = 0;  // the warp's threads that need the data
};

struct AeuOut {
  bool busy = false;
  bool done = false;   // this cycle's line is the warp's last (a start now follows it without a gap)
  bool valid = false;  // a record this cycle
  std::uint64_t line = 0;
  std::uint32_t mask = 0;  // bit w: word w of the line
  bool fallback = false;   // the last start was not one the fast path takes
};

using AeuBlock = sim::StepBlock<AeuIn, AeuOut>;

// "model" or "rtl" (the RTL randomises its X-initial state from `seed`; with `fst`, a waveform).
std::unique_ptr<AeuBlock> make_aeu(const std::string& impl, std::uint64_t seed = 1, const std::string& fst = "");

// A line and the words of it a warp's active threads touch.
struct LineRecord {
  std::uint64_t line;
  std::uint32_t mask;
  bool operator==(const LineRecord& o) const { return line == o.line && mask == o.mask; }
};
// What Eq. 3.1 gives, thread by thread (a(t) = a0 + t·offset, 4-byte words), grouped by line in
// address order: the expansion every implementation must match, written without the AEU's
// stride arithmetic.
std::vector<LineRecord> expand_by_thread(std::uint64_t a0, std::int64_t offset, std::uint32_t active);

}  // namespace irr::dac
