// SPDX-License-Identifier: Apache-2.0
// DAC's enqueue/dequeue instructions (seed 001 Fig. 3.6, specs/dac_decoupled_delegate.md §1.3)
// as extensions of the PTX front end, and their reference semantics: per-warp queues, unbounded,
// in program order — the oracle the hardware of part 2 (ATQ, AEU, PEU, PWAQ, PWPQ) must match.
//
//   enq.data [a];  enq.addr [a];  enq.pred p;     (the affine stream)
//   deq.data %rd;  deq.addr %rd;  deq.pred %p;    (the non-affine stream)
//
// A record is what one enq gives one warp: the lanes it is for and a value per lane (an address,
// or a predicate bit). Functionally the affine stream runs as a grid of its own before the
// non-affine one, each warp of it standing for the affine warp's work on the same threads (it
// reads only parameters and thread indices, so nothing it computes depends on the order). deq.data
// and deq.addr share the warp's address queue (the PWAQ), deq.pred reads its predicate queue (the
// PWPQ); a deq must find a record of its own kind for exactly its active lanes, or the split is
// wrong and the run stops naming both instructions.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "models/core/ptx/parser.h"

namespace irr::dac {

enum class Form : std::uint8_t { data = 0, addr = 1, pred = 2 };
const char* form_name(Form f);  // "data", "addr", "pred"

// Registers enq and deq (their syntax); running them needs Queues bound (bind()).
void add_dac_instructions(core::ptx::ExtensionRegistry& registry);

class Queues {
 public:
  struct Record {
    Form form;
    std::uint32_t mask;      // the lanes it is for
    std::uint32_t line;      // the enq's PTX line, for errors
    std::uint64_t value[32];
  };
  struct Counts {
    std::uint64_t records[3] = {}, values[3] = {};  // by Form: enqueued
    std::uint64_t peak = 0;                          // the most records one warp's queues held at once
  };

  void enq(std::uint64_t cta, std::uint32_t warp, const Record& r);
  // Pops the warp's next record of `form`'s queue; throws std::invalid_argument when there is
  // none, it is of another form, or it is for other lanes than `mask`.
  Record deq(std::uint64_t cta, std::uint32_t warp, Form form, std::uint32_t mask, std::uint32_t line);
  // The records still queued for a warp: its address queue (data, addr) or predicate queue (pred).
  std::vector<Record> pending(std::uint64_t cta, std::uint32_t warp, Form form) const;
  // The record enqueued last for the warp in that queue (nullptr: none), without copying the queue.
  const Record* last(std::uint64_t cta, std::uint32_t warp, Form form) const;
  // Every record dequeued: else an irr::Error naming the first warp with records left.
  void check_drained() const;
  const Counts& counts() const { return counts_; }
  void clear();

 private:
  struct Warp {
    std::deque<Record> address, predicate;
  };
  std::map<std::pair<std::uint64_t, std::uint32_t>, Warp> warps_;
  Counts counts_;
};

// Gives enq and deq in `registry` the reference semantics over `queues` (which must outlive the runs).
void bind(core::ptx::ExtensionRegistry& registry, Queues& queues);

}  // namespace irr::dac
