// SPDX-License-Identifier: Apache-2.0
// DAC in one SM (seed 001 Fig. 3.8, specs/dac_decoupled_delegate.md §1.3-§1.7) on the unit
// contract (docs/timing.md "Attaching a unit"): each CTA's affine stream runs in its companion
// warp, whose enq.* reach this unit as one operation for every warp of the CTA it ran for; the
// tuple goes into the ATQ, the AEU (or PEU) expands it warp by warp into the warps' PWAQ (PWPQ)
// partitions, and each record of an enq.data sends its line to the L1 ahead of the load (the
// non-speculative prefetch) on the DMA engine's path (Fig. 3.1 ③; SmPort::fetch_line) or, with
// dac.request_path: ldst, through the LD/ST unit's queue as a load. A non-affine warp's deq.* is
// accepted once the enq it matches has been issued and completes when its records have come out
// of its partition.
//
// The values are the reference semantics' (models/dac/queues.h): the unit reads each record the
// affine warp's enq made and turns it into the tuple the hardware holds — a0 and offset per warp
// where the warp's threads' values are one affine sequence, the records from the SIMT lanes
// otherwise (divergent tuples) — and checks that every record a deq pops is the one Eq. 3.1 gives
// for it, so a wrong expansion stops the run. docs/dac.md.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/core/sm.h"
#include "models/dac/affine_stack.h"
#include "models/dac/expander.h"
#include "models/dac/queues.h"
#include "sim/simulation.h"

namespace irr::dac {

struct UnitConfig {
  ExpanderConfig expander;
  bool prefetch = true;  // enq.data's records send their lines to the L1 [S L619]
  bool lock = true;      // and lock them there for their warps until the load [S L621]
  bool dma = true;       // on the DMA engine's own path into the L1 (Fig. 3.1 ③ [S L433]); else the LD/ST unit's
  bool barrier_gating = true;  // a tuple past the affine warp's barrier waits for the CTA's warps to pass it [S L625]
  unsigned wls_depth = 8, pws_depth = 8;  // the affine SIMT stack's entries [S L813]
  bool stack_overflow_stops = true;       // a deeper stack stops the run (else only counted)
};

class SmUnit : public core::SmUnit, public sim::Clocked, public sim::Outstanding {
 public:
  // `reference`: the queues enq and deq are bound to (dac::bind) for this GPU.
  SmUnit(sim::Simulation& sim, core::Sm& sm, const Queues& reference, const UnitConfig& c);
  bool can_accept(const core::UnitOp& op) override;
  void accept(const core::UnitOp& op, core::SmPort& port) override;
  void memory_reply(std::uint64_t tag, core::SmPort& port) override;
  bool fetches_lines() const override { return c_.prefetch && c_.dma; }
  void kernel_begin(const core::KernelLaunch& k, core::SmPort& port) override;
  void kernel_end(const core::KernelLaunch& k, core::SmPort& port) override;
  void companion_issued(const core::UnitOp& op, core::SmPort& port) override;
  void barrier(std::uint64_t cta, bool companion, core::SmPort& port) override;
  bool tick(sim::Cycle cycle) override;
  std::vector<std::string> outstanding() const override;

 private:
  // What one enq owes one warp: the records its deq will pop, in order.
  struct Group {
    bool predicate = false;
    std::vector<LineRecord> records;  // predicate: one, its mask
    std::uint32_t line = 0;           // the enq's PTX line
  };
  struct Deq {  // an accepted deq waiting for its records
    std::uint64_t token;
    std::uint32_t slot;
    Group group;
    std::size_t requested = 0, got = 0;
  };
  void enq(const core::UnitOp& op, core::SmPort& port);
  void check_record(Deq& d, const LineRecord& r);

  sim::Simulation& sim_;
  core::Sm& sm_;
  const Queues& reference_;
  const UnitConfig c_;
  const std::string name_;
  Expander expander_;
  std::vector<std::deque<Group>> groups_;  // per warp slot: what the enqs issued so far owe it
  std::vector<std::uint32_t> ready_;       // per warp slot: its records in the PWAQ
  std::deque<Deq> deqs_, pred_deqs_;
  std::deque<std::uint64_t> popped_;       // tokens of the deqs whose PWAQ reads are in flight
  std::uint64_t last_line_ = ~0ull, last_tag_ = ~0ull;  // the last line prefetched, for one tuple
  std::uint64_t next_tag_ = 0;
  core::SmPort* port_ = nullptr;
  sim::Counter &enq_address_, &enq_predicate_, &atq_full_, &records_, &lane_records_, &fallback_records_,
      &predicate_records_, &held_, &held_port_, &deq_data_, &deq_addr_, &deq_predicate_, &prefetches_, &prefetch_replies_, &locks_, &lock_refused_, &peu_comparisons_,
      &peu_lane_warps_, &atq_accesses_, &pwaq_accesses_, &pwpq_accesses_;
  sim::Counter& gated_;
  sim::Counter* overtakes_ = nullptr;  // with dac.gate_scope: cta
  sim::Counter &stack_pushes_, &stack_pops_, &pws_accesses_, &wls_max_, &pws_max_, &stack_overflows_;
  sim::Probe &atq_probe_, &pwaq_probe_, &ahead_probe_, &locked_probe_;
  std::uint64_t queued_records_ = 0, groups_queued_ = 0;
  // The affine SIMT stack of each resident CTA's affine warp, and the launch's companion stream.
  std::map<std::uint64_t, AffineStack> stacks_;
  const core::ptx::Function* stream_ = nullptr;
  std::vector<std::uint32_t> rpc_;        // its branches' reconvergence points
  std::vector<std::uint32_t> threads_;    // each warp's thread mask in a CTA
  // Per CTA: barriers its affine warp and its non-affine warps have passed (barrier gating).
  std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> barriers_;
};

// The records a warp's threads' addresses touch, grouped by line in address order (4-byte words):
// what the SIMT lanes give for values that are not one affine sequence.
std::vector<LineRecord> lines_of(const std::uint64_t value[32], std::uint32_t active);

}  // namespace irr::dac
