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
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/dac/aeu.h"
#include "models/dac/pwaq.h"

namespace irr::dac {

// One warp's part of a tuple as the timed unit gives it: its queue partition (warp slot), a0
// and the offset (the accumulation's result for this warp: with several thread-index dimensions
// each has its own offset), its threads; `by_lanes`: its threads' values are not one affine
// sequence (divergent tuples, the DCRF's case) and `lanes` are its records, from the SIMT lanes.
// A predicate tuple's part carries the warp's mask for the PWPQ.
struct WarpPart {
  std::uint32_t slot = 0;
  std::uint64_t a0 = 0;
  std::int32_t offset = 0;
  std::uint32_t active = 0;
  bool by_lanes = false;
  std::vector<LineRecord> lanes;
  std::uint32_t predicate = 0;
};

struct AddressTuple {
  std::uint64_t base = 0;            // the CTA's first thread's address
  std::int32_t offset = 0;           // bytes a thread
  std::uint32_t first_slot = 0;      // the PWAQ partition of the CTA's first warp
  std::vector<std::uint32_t> active;  // per warp of the CTA: the threads that need the data
  // The timed unit's form, when given, instead of the four above: the warps it expands for.
  std::vector<WarpPart> parts;
  bool predicate = false;  // enq.pred: one PWPQ record a part (the PEU's output)
  std::uint64_t tag = 0;   // the caller's, back with each record (Pushed)
  std::uint64_t cta = 0, fence = 0;  // the caller's, for its gate (set_gate)
};

struct ExpanderConfig {
  unsigned atq_entries = 24;  // Table 3.1
  PwaqParams pwaq;
  unsigned pwpq_depth = 4;    // Table 3.1's 192 entries over 48 warps
  std::string impl = "model";
  std::string aeu_fst, pwaq_fst;  // with impl rtl: the blocks' waveforms ("" = none)
  // dac.gate_scope: cta (true) — a head tuple waiting for its gate lets the oldest tuple of another
  // CTA whose gate is open go first; false (atq): the ATQ's head holds every tuple behind it.
  bool gate_per_cta = true;
  // dac.aeu_rate: records the AEU expands (and the PWAQ takes) a cycle; the RTL island's is 1. At
  // k, the blocks step k times a cycle, the dequeue in the first step only.
  unsigned rate = 1;
};

struct ExpanderStats {
  std::uint64_t cycles = 0, records = 0, held = 0, fallback_records = 0, refused = 0, predicate_records = 0,
                lane_records = 0,  // lane_records: records of parts given by_lanes
                gated = 0,         // cycles the head tuple waited for its gate
                held_port = 0,     // of `held`: cycles a record lost the single-port PWAQ to a dequeue
                expansions = 0,    // warps' parts the AEU started expanding (fallbacks included)
                overtakes = 0;     // tuples taken before a gated head (gate_per_cta)
};

// A record that entered a queue this cycle.
struct Pushed {
  std::uint32_t slot;
  LineRecord record;  // an address record (predicate: mask = the predicate bits, line 0)
  bool predicate;
  std::uint64_t tag;
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
  // The records this cycle's expansion put in a queue (at most `rate`).
  const std::vector<Pushed>& pushed() const { return pushed_; }
  // The predicate queue of a warp slot: its records, oldest first; pop_predicate takes the head.
  std::size_t predicates(std::uint32_t slot) const { return slot < pwpq_.size() ? pwpq_[slot].size() : 0; }
  std::uint32_t pop_predicate(std::uint32_t slot);
  std::size_t atq_size() const { return atq_.size(); }
  // A tuple starts expanding only once `gate` says so (DAC's barrier gating); none: at once.
  void set_gate(std::function<bool(const AddressTuple&)> gate) { gate_ = std::move(gate); }
  bool idle() const;  // nothing queued or being expanded
  const ExpanderStats& stats() const { return stats_; }

 private:
  bool step(std::optional<std::uint32_t> deq_slot, bool first);  // one step of the blocks (cycle())
  void next_warp();
  void overtake();  // gate_per_cta: an open CTA's tuple to the head, past a gated one
  bool may_start() const { return warp_ != 0 || !gate_ || gate_(atq_.front()); }

  ExpanderConfig c_;
  std::unique_ptr<AeuBlock> aeu_;
  std::unique_ptr<PwaqBlock> pwaq_;
  std::deque<AddressTuple> atq_;
  // The head tuple's progress: its warp being expanded and that warp's a0; the AEU's phase on it
  // (given the start; expanding; a fallback's records, from the SIMT lanes, still to go).
  enum class Phase { idle, starting, expanding, lanes } phase_ = Phase::idle;
  std::uint32_t warp_ = 0;  // the head tuple's part being expanded
  std::deque<LineRecord> lanes_;
  std::optional<LineRecord> delivered_, carried_;  // carried_: this cycle's read, seen in a later step
  std::vector<Pushed> pushed_;
  std::vector<std::deque<std::uint32_t>> pwpq_;  // per warp slot
  std::function<bool(const AddressTuple&)> gate_;
  ExpanderStats stats_;
};

}  // namespace irr::dac
