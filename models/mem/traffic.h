// SPDX-License-Identifier: Apache-2.0
// Traffic generators standing in for SMs until the SIMT core lands: each SM's warps issue warp
// memory instructions, one per cycle from the SM, round-robin over warps that are ready; a warp
// waits for all the line accesses of its instruction before it issues the next. An instruction
// takes its functional effect at issue (backing store), goes through the coalescer, and its line
// accesses enter the L1 one per cycle.
//
// Patterns (traffic.pattern): stream (consecutive words, warp after warp), strided (thread i
// reads word i x traffic.stride), random (uniform words over traffic.footprint), frontier (a
// gather whose vertex ids follow R-MAT's power law: each id bit is 1 with probability 0.24, then
// scattered by a hash, as BFS reads neighbour data), trace (a text file, docs/memory.md).
#pragma once

#include <deque>
#include <random>
#include <string>
#include <vector>

#include "models/mem/backing_store.h"
#include "models/mem/coalescer.h"
#include "models/mem/l1_cache.h"
#include "sim/fifo.h"
#include "sim/simulation.h"

namespace irr::mem {

struct WarpInstruction {
  std::uint32_t warp = 0;
  std::uint64_t pc = 0;
  tlm_glue::Access access = tlm_glue::Access::load;
  bool uncached = false;  // ld.cg: a load the L1 passes to the L2
  bool fetch = false;     // fetch: its lines go to the L1 on the units' fetch path (L1Cache::fetch), not its input
  unsigned size = 4;
  std::uint32_t mask = 0;
  std::uint64_t addr[32] = {};
};

// Reads a trace: one warp instruction per line, `sm warp pc ld|st|atom size addr...` with one
// hexadecimal address per thread (`-` for an inactive thread); `#` starts a comment. A bad line
// is an irr::Error naming file:line.
std::vector<std::vector<WarpInstruction>> read_trace(const std::string& path, std::uint32_t sms);

class TrafficGenerator : public sc_core::sc_module, public sim::Clocked, public sim::Outstanding, public L1Client {
 public:
  TrafficGenerator(const sc_core::sc_module_name& name, sim::Simulation& sim, std::uint32_t sm, BackingStore& store,
                   std::vector<WarpInstruction> trace);
  void connect(L1Cache& l1);
  bool tick(sim::Cycle cycle) override;
  void completed(const MemAccess& a) override;
  void input_freed() override;
  std::vector<std::string> outstanding() const override;
  bool done() const { return issued_ == total_ && pending_lines_ == 0 && queue_.empty(); }
  // The first kHistory instructions: (issue cycle, latency in core cycles), for tests and traces.
  static constexpr std::size_t kHistory = 4096;
  const std::vector<std::pair<sim::Cycle, sim::Cycle>>& history() const { return history_; }

 private:
  WarpInstruction next_instruction(std::uint32_t warp);
  std::uint64_t vertex();

  sim::Simulation& sim_;
  const std::uint32_t sm_, sms_, warps_;
  BackingStore& store_;
  L1Cache* l1_ = nullptr;
  Coalescer coalescer_;
  std::vector<LineAccess> lines_;  // the coalescer's answer for the instruction being issued
  std::mt19937_64 rng_;
  enum class Pattern { stream, strided, random, frontier, trace };
  static Pattern pattern_of(const std::string& name);
  const Pattern pattern_;  // traffic.pattern, named once: each thread's address asks which
  const std::uint64_t footprint_, stride_, base_;
  const double store_fraction_, atomic_fraction_;
  const unsigned size_;
  const unsigned vertex_bits_;  // bits of a vertex id in pattern frontier: enough for footprint / size words
  std::vector<std::deque<WarpInstruction>> trace_;  // per warp, in trace order
  std::uint64_t total_, issued_ = 0;
  std::vector<std::uint32_t> per_warp_issued_;
  std::vector<std::uint32_t> waiting_lines_;    // per warp: line accesses not yet completed
  std::vector<sim::Picoseconds> issued_at_;
  sim::Fifo<MemAccess> queue_;                 // line accesses waiting to enter the L1
  std::uint32_t next_warp_ = 0;
  std::uint64_t pending_lines_ = 0, next_id_ = 0;
  std::vector<std::pair<sim::Cycle, sim::Cycle>> history_;
  std::vector<std::size_t> history_slot_;  // per warp: its current instruction's entry, or npos
  sim::Counter &instructions_, &requests_;
  sim::Distribution& requests_per_instruction_;
  sim::Distribution& latency_;
};

}  // namespace irr::mem
