// SPDX-License-Identifier: Apache-2.0
// One SM's address expansion path (seed 001 Fig. 3.8 ③-⑥, specs/dac_decoupled_delegate.md §1.3):
// the ATQ (a FIFO of the affine warp's enq.data / enq.addr tuples, 24 entries), the AEU expanding
// the head tuple warp by warp — a0 accumulating 32·offset a warp from the CTA's base, "128 at a
// time" for offset 4 [S L609] — and the PWAQ taking each record into its warp's queue. A full
// partition holds the AEU (back-pressure); a full ATQ refuses the affine warp's enqueue; a tuple
// outside the AEU's fast path is expanded thread by thread, a record a cycle (the SIMT lanes'
// job [S L527]). The AEU and the PWAQ are the RTL islands' blocks, `impl` model or rtl. docs/dac.md.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/dac/aeu.h"
#include "models/dac/pwaq.h"

namespace irr::dac {

struct AddressTuple {
  std::uint64_t base = 0;            // the CTA's first thread's address
  std::int32_t offset = 0;           // bytes a thread
  std::uint32_t first_slot = 0;      // the PWAQ partition of the CTA's first warp
  std::vector<std::uint32_t> active;  // per warp of the CTA: the threads that need the data
};

struct ExpanderConfig {
  unsigned atq_entries = 24;  // Table 3.1
  PwaqParams pwaq;
  std::string impl = "model";
};

struct ExpanderStats {
  std::uint64_t cycles = 0, records = 0, held = 0, fallback_records = 0, refused = 0;
};

class Expander {
 public:
  explicit Expander(const ExpanderConfig& c);
  // The affine warp's enq: false when the ATQ is full (the warp stalls and tries again).
  bool enqueue(AddressTuple t);
  // One cycle; `deq_slot`: a warp dequeuing this cycle (its record arrives with the next cycle's
  // delivered()). Returns whether that dequeue was served (false: its queue was empty).
  bool cycle(std::optional<std::uint32_t> deq_slot = std::nullopt);
  // The record the previous cycle's dequeue got.
  std::optional<LineRecord> delivered() const { return delivered_; }
  bool idle() const;  // nothing queued or being expanded
  const ExpanderStats& stats() const { return stats_; }

 private:
  void next_warp();

  ExpanderConfig c_;
  std::unique_ptr<AeuBlock> aeu_;
  std::unique_ptr<PwaqBlock> pwaq_;
  std::deque<AddressTuple> atq_;
  // The head tuple's progress: its warp being expanded and that warp's a0; the AEU's phase on it
  // (given the start; expanding; a fallback's records, from the SIMT lanes, still to go).
  enum class Phase { idle, starting, expanding, lanes } phase_ = Phase::idle;
  std::uint32_t warp_ = 0;
  std::uint64_t a0_ = 0;
  std::deque<LineRecord> lanes_;
  std::optional<LineRecord> delivered_;
  ExpanderStats stats_;
};

}  // namespace irr::dac
