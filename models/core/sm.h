// SPDX-License-Identifier: Apache-2.0
// The timing model of one SM (streaming multiprocessor), in the core clock domain. Resident CTAs
// occupy warp, thread, register, shared-memory and CTA slots; N warp schedulers each issue one
// warp instruction per cycle (two passes on 16 lanes) by loose round-robin or greedy-then-oldest;
// a scoreboard holds registers with write-backs in flight; arithmetic completes after its class's
// latency; global memory goes through the coalescer, the LD/ST unit and the L1 into the TLM memory
// system, and a load completes when its last line returns. Instructions take their functional
// effect at issue (core::Warp), so the timed results equal the functional ones.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

#include "models/core/exec/warp.h"
#include "models/core/profile.h"
#include "models/core/ptx/resources.h"
#include "models/core/unit_port.h"
#include "models/mem/coalescer.h"
#include "models/mem/l1_cache.h"
#include "sim/divide.h"
#include "sim/fifo.h"
#include "sim/id_map.h"
#include "sim/simulation.h"

namespace irr::core {

// One kernel in flight on the GPU, shared by the SMs and the CTA scheduler.
struct KernelLaunch {
  LaunchContext ctx;
  const ptx::Function* kernel = nullptr;
  Dim3 grid, block;
  std::vector<std::uint8_t> params;
  std::uint32_t dynamic_shared = 0;
  ptx::Resources resources;
  std::uint64_t next_cta = 0, finished_ctas = 0;
  std::uint64_t warp_instructions = 0, thread_instructions = 0;
  std::uint32_t companion_registers = 0;  // per thread, when ctx.companion is set
  std::uint64_t ctas() const { return grid.count(); }
};

class Sm : public sc_core::sc_module, public sim::Clocked, public sim::Outstanding, public mem::L1Client, public SmPort {
 public:
  Sm(const sc_core::sc_module_name& name, sim::Simulation& sim, std::uint32_t index, const mem::AddressMap& map,
     tlm_glue::PayloadPool& pool, std::function<void(std::uint64_t cta)> cta_finished);
  mem::L1Cache& l1() { return *l1_; }

  // Occupancy: whether one more CTA of this launch fits (threads, warps, registers, shared, CTAs).
  bool fits(const KernelLaunch& k) const;
  // How many CTAs of this launch an empty SM holds at once (what the CUDA occupancy API answers).
  std::uint32_t max_resident(const KernelLaunch& k) const override;
  void start_cta(KernelLaunch& k, std::uint64_t cta_index);
  bool idle() const;

  // Units: extension instructions whose route is `route` go to `unit` (unit_port.h).
  void attach(const std::string& route, SmUnit& unit);
  // An attached unit that also sees every instruction the warps issue (SmUnit::issued).
  void observe(SmUnit& unit) { observers_.push_back(&unit); }
  // A source-line profile to fill (--profile); null (the default) leaves it out entirely.
  void set_profile(Profile* p) { profile_ = p; }
  void kernel_begin(const KernelLaunch& k);
  void kernel_end(const KernelLaunch& k);
  void complete(std::uint64_t token) override;
  void complete(std::uint64_t token, const std::vector<LaneValue>& values) override;
  void inject(SmUnit& from, const mem::MemAccess& access, bool low_priority, std::uint64_t tag) override;
  void fetch_line(SmUnit& from, std::uint64_t line, std::uint64_t tag) override;
  std::uint32_t sm_index() const override { return index_; }
  std::vector<std::uint32_t> warp_slots(std::uint64_t cta) const override;
  bool lock_line(std::uint64_t line, std::uint32_t warp) override { return l1_->lock(line, warp); }
  std::size_t locked_lines() const override { return l1_->locked_lines(); }
  std::uint32_t register_file() const override { return max_registers_; }

  bool tick(sim::Cycle cycle) override;
  void completed(const mem::MemAccess& a) override;
  void input_freed() override;
  void catch_up(sim::Cycle edge) override;
  std::vector<std::string> outstanding() const override;

 private:
  struct Slot {
    Warp* warp = nullptr;         // a companion slot: the warp of `gang` it issues for next
    Cta* gang = nullptr;          // a CTA's companion warp: the companion stream's CTA it runs
    std::size_t cta = 0;          // index into ctas_
    std::uint64_t age = 0;        // launch order, for greedy-then-oldest
    std::vector<std::uint8_t> pending;  // registers with a write-back in flight
    std::uint32_t loads = 0;      // instructions waiting for memory
    std::uint32_t stores = 0;     // store lines not yet acknowledged
    bool unit_wait = false;       // an operation at a unit holds the whole warp
    bool asleep = false;          // in a nanosleep
    // Why the warp could not issue when last checked; valid until something it waits on changes
    // (an issue, a write-back, a store acknowledgement, a barrier release set `dirty`).
    bool dirty = true;
    int stall = 0;
    const ptx::Instruction* next = nullptr;  // its next instruction when last checked (if it had one)
    // Its progress, for outstanding(): warp instructions issued, and the cycle of the last.
    std::uint64_t issued = 0;
    sim::Cycle last_issue = 0;
  };
  struct ResidentCta {
    std::unique_ptr<Cta> cta;
    KernelLaunch* launch;
    std::vector<std::size_t> slots;
    std::unique_ptr<Cta> companion;  // the companion stream's CTA (LaunchContext::companion)
    std::size_t companion_slot = 0;
    std::uint32_t threads, warps, registers;
    std::uint64_t shared;
    bool check = true;  // its barrier and retirement to be checked at the next step
    sim::Picoseconds started = 0;  // when it became resident (its span in the trace)
  };
  struct Pending {  // an issued instruction whose write-back waits
    std::size_t slot;
    Step step;
    std::uint32_t lines_left;
    bool unit = false;  // an operation at a unit: its write-back also ends the whole-warp wait
    bool applied = false;  // a companion's: its registers were written at issue, only the scoreboard waits
    bool sleep = false;    // a nanosleep: its end wakes the warp
    bool taken = false;    // a load an observing unit answers (SmUnit::issued): no memory access
    tlm_glue::Served served = tlm_glue::Served::l1;  // the farthest level a line came from so far
    const ptx::Instruction* inst = nullptr;  // a global access's instruction (the profile's)
  };
  // Why a warp cannot issue; a scheduler's stall is the last one in this order any warp has.
  enum class Stall { none, empty, dependence, memory, barrier, unit, sfu_busy, ldst_full };
  // Where a scheduler's memory-stall cycles are charged: the level of the load whose return ended
  // them (atomic: an atomic's round trip; other: a fence's stores, or nothing returned).
  enum MemoryLevel { level_l1, level_l2, level_dram, level_atomic, level_other, kMemoryLevels };
  enum class Settled : std::uint8_t { no, events, queue };  // see Scheduler::settled

  Stall ready(std::size_t s, const ptx::Instruction*& in);
  Stall check(std::size_t s, const ptx::Instruction*& in);
  Stall structural(const ptx::Instruction& in) const;  // the LD/ST queue and the SFU
  static std::size_t pending_registers(const KernelLaunch& k);
  void refill_active(std::uint32_t sch, const std::vector<std::size_t>& by_age);
  void index_slots();
  // The steps of a cycle (tick): write-back, the LD/ST hand-off, each scheduler, the CTAs.
  struct IssueCycle {
    bool issued_any = false, soon = false, sfu_wait = false;  // what keeps the SM awake
    std::uint32_t issued_now = 0;                              // issue slots used (the probe)
  };
  void write_back(sim::Cycle c);
  bool hand_to_l1(sim::Picoseconds now);
  void schedule(std::uint32_t sch, sim::Cycle c, IssueCycle& cycle);
  bool check_ctas();
  void issue(std::size_t s, const ptx::Instruction& in, sim::Cycle c);
  void issue_global(std::size_t s, const ptx::Instruction& in, Step& step, std::size_t token, const std::uint64_t (&addr)[32],
                    std::uint32_t mask);
  void issue_shared(std::size_t s, Step& step, std::size_t token, std::uint32_t ways, sim::Cycle c);
  SmUnit::Take ask_observers(const UnitOp& op, const Step& step, Warp& warp, bool global, const SmUnit* unit);
  void sleep_until(std::size_t s, std::size_t token, sim::Cycle until);
  static void hold_registers(Slot& slot, const Step& step);  // the scoreboard waits for the step's write-backs
  void issue_companion(std::size_t s, const ptx::Instruction& in, sim::Cycle c);
  static Warp* companion_lead(Cta& gang);
  std::size_t take_slot();
  void finish(std::size_t token);
  // The in-flight entry for `token`, its node and buffers a finished entry's; `step` (the one
  // issue() filled) is swapped in, leaving the caller a spare step; null: no registers written.
  Pending& add_pending(std::size_t token, std::size_t slot, std::uint32_t lines, Step* step);
  void retire_cta(std::size_t idx);
  void count_stall(std::uint32_t sch, Stall why, std::uint64_t cycles, const ptx::Instruction* at);
  void charge_sleep(sim::Cycle c);
  void note_event(std::size_t slot);  // the slot's warp changed: check its CTA if it can release a barrier or retire it
  void touch(std::size_t slot);       // something the slot's warp waits on changed: check it
  void charge_memory(std::size_t sch, MemoryLevel level);
  SmUnit* unit_for(const ptx::Instruction& in, const KernelLaunch& k) const;
  // What warp slot `s`'s instruction is at a unit: its SM, warp, CTA, lanes (token 0).
  UnitOp unit_op(std::size_t s, const ptx::Instruction& in, std::uint32_t active) const;
  bool folded(const ptx::Instruction& in, const KernelLaunch& k) const;  // an extension taking no issue slot
  std::uint32_t latency(const ptx::Instruction& in) const;
  // What an instruction issues as (the issued.* statistics), in the counters' order.
  enum class IssueClass : std::uint8_t { int_, fp, sfu, memory, control, extension, count };
  static IssueClass issue_class(const ptx::Instruction& in);
  // Shared-memory accesses of a warp instruction: 0 if none, else the bank-conflict degree.
  std::uint32_t shared_ways(const ptx::Instruction& in, const Step& step) const;

  sim::Simulation& sim_;
  const std::uint32_t index_;
  std::unique_ptr<mem::L1Cache> l1_;
  mem::Coalescer coalescer_;
  std::vector<mem::LineAccess> lines_;  // the coalescer's answer for the instruction being issued
  const bool atomic_per_line_;  // atomic.coalescing: line (GPGPU-Sim) rather than one request per thread
  std::function<void(std::uint64_t cta)> cta_finished_;  // told each CTA's linear index as it retires
  // --txn-trace (null: none): each CTA's residency a span on the SM's "CTAs" rows; each unit
  // operation, issue to completion, and each access a unit injects, to its reply, a span on the
  // unit's rows ("unit ROUTE"), by token or access id (kUnitIds up: no token reaches them).
  sim::TxnTrace* trace_;
  struct UnitSpan {
    std::string row, name, args;
    sim::Picoseconds start = 0;
  };
  std::map<std::uint64_t, UnitSpan> unit_spans_;
  void trace_unit(const SmUnit& unit, std::uint64_t id, std::string name, const std::string& args);
  // A unit's access given its id and reply route (and its span, named `what`, when tracing).
  mem::MemAccess unit_access(SmUnit& from, mem::MemAccess a, std::uint64_t tag, const std::string& what);
  void end_unit_span(std::uint64_t id);
  // Limits.
  const std::uint32_t max_warps_, max_threads_, max_ctas_, max_registers_, schedulers_, passes_;
  // Slot s's scheduler: a mask when their number is a power of two (every preset), as it is asked
  // at every issue and write-back.
  std::size_t sched_of(std::size_t s) const { return sim::remainder(s, schedulers_); }
  const std::uint64_t max_shared_;
  enum class Policy { lrr, gto, two_level };
  const Policy policy_;
  const std::uint32_t active_size_;                // two-level: active warps per scheduler
  std::vector<std::vector<std::size_t>> active_;   // two-level: per scheduler, its active set
  const std::uint32_t lat_int_, lat_fp_, lat_sfu_, lat_shared_, banks_, replay_, shared_port_lanes_, shared_port_cycles_,
      writeback_ports_, sfu_interval_, branch_stall_;
  // State.
  std::vector<Slot> slots_;
  std::vector<std::unique_ptr<ResidentCta>> ctas_;  // null: a free CTA slot
  bool cta_check_ = false;                          // some CTA's check is set
  std::size_t resident_ = 0;                        // CTAs in ctas_
  std::vector<std::size_t> free_slots_;
  std::uint32_t used_threads_ = 0, used_warps_ = 0, used_registers_ = 0;
  std::uint64_t used_shared_ = 0, next_age_ = 0;
  // Per scheduler, side by side (every step reads them).
  struct Scheduler {
    sim::Cycle free = 0;               // the cycle its issue port frees (SIMD passes)
    std::size_t last_issued = 0;       // the slot issued last (GTO greed, LRR rotation)
    std::uint64_t memory_episode = 0;  // memory-stall cycles not yet charged
    Stall slept_why = Stall::empty;    // what held it when the SM went to sleep
    const ptx::Instruction* slept_in = nullptr;  // and the instruction of the warp held so (the profile's)
    // Its last check found every warp waiting on an event (an answer ready() keeps until the warp
    // is touched) or, `queue`, some on the LD/ST queue, and none has been touched since: while
    // that holds (and the queue stays full), its stall stays slept_why.
    Settled settled = Settled::no;
    MemoryLevel last_level = level_other;  // where the last charge of memory-stall cycles went
  };
  std::vector<Scheduler> scheds_;
  Profile* profile_ = nullptr;
  // What every step reads, side by side (a step's host cache misses are mostly one per line read).
  sim::Cycle now_cycle_ = 0;  // the cycle being stepped
  // A sleeping SM (nothing can happen until a reply or a CTA wakes it) is not stepped; the next
  // step charges the cycles slept to what held each scheduler when it went to sleep.
  sim::Cycle last_step_ = 0;
  bool slept_resident_ = false;  // the last step went to sleep with a CTA resident
  bool slept_held_ = false;      // ... or holding work: accesses the L1 could not take, arithmetic in flight
  bool slots_changed_ = true;    // a CTA started or retired: rebuild by_slot_ and by_age_
  std::uint64_t loads_in_flight_ = 0;
  // (completion cycle, token), earliest first; tokens grow with issue, so ties go in issue order.
  std::priority_queue<std::pair<sim::Cycle, std::size_t>, std::vector<std::pair<sim::Cycle, std::size_t>>,
                      std::greater<>> alu_done_;
  sim::Fifo<std::size_t> writeback_;    // tokens whose results wait for a write port
  sim::Fifo<mem::MemAccess> ldst_;      // line accesses waiting to enter the L1
  sim::Fifo<mem::MemAccess> ldst_low_;  // units' low-priority accesses: only when ldst_ is empty
  std::multimap<sim::Cycle, std::size_t> sleep_done_;  // a nanosleep's end -> token
  std::vector<std::vector<std::size_t>> by_slot_, by_age_;  // per scheduler: its warps, two orders
  // Token -> instruction in flight; a finished entry is reused with its step's buffers (no
  // allocation an instruction).
  sim::IdMap<Pending> pending_;
  std::map<std::string, SmUnit*> units_;    // by route
  std::vector<SmUnit*> observers_;          // units that see every issued instruction
  std::map<std::uint64_t, std::pair<SmUnit*, std::uint64_t>> unit_tags_;  // access id -> unit, tag
  std::uint64_t next_unit_id_ = 0;
  std::size_t next_token_ = 1;
  Step scratch_;
  std::vector<std::size_t> order_;
  sim::Cycle shared_free_ = 0;  // the shared-memory port's next free cycle
  sim::Cycle sfu_free_ = 0;     // the special-function unit's next free cycle
  sim::Cycle kernel_start_ = 0;
  std::uint64_t active_at_start_ = 0;
  sim::Counter* issued_by_class_[static_cast<std::size_t>(IssueClass::count)] = {};
  sim::Counter* companion_issued_ = nullptr;
  sim::Counter* shared_port_extra_ = nullptr;  // core.shared_port_lanes set: cycles the port's width added
  // The constant cache (core.const_cache_size; null: constant loads always hit at latency_shared).
  struct ConstCache {
    std::unique_ptr<mem::CacheArray> array;
    std::map<std::uint64_t, sim::Cycle> filling;  // lines in flight: when they arrive
    std::uint32_t latency = 0, miss_latency = 0;
    sim::Counter *accesses = nullptr, *misses = nullptr;
  };
  std::unique_ptr<ConstCache> const_cache_;
  sim::Cycle const_load_done(const Step& step, sim::Cycle c);
  // The events the energy model prices beyond the counters above (power.enabled; without it none).
  struct EnergyEvents {
    sim::Counter *register_reads, *register_writes;
    sim::Counter* lanes[4];  // int, fp, sfu, the rest
    sim::Counter* shared_accesses;
    std::uint64_t tuple_lanes;  // lanes a companion warp's tuple instruction counts (power.tuple_lanes)
  };
  std::unique_ptr<EnergyEvents> events_;
  void count_events(const ptx::Instruction& in, std::size_t cls, std::uint64_t lanes);  // cls: its IssueClass
  // Statistics.
  sim::Counter &issued_, &thread_instructions_, &cycles_active_, &idle_cycles_, &stall_structural_, &loads_,
      &load_requests_, &writeback_waits_, &bank_conflict_cycles_;
  sim::Counter* stall_[8] = {};                   // by Stall (the two structural causes included)
  sim::Counter* memory_by_level_[kMemoryLevels] = {};
  sim::Probe &active_warps_probe_, &issue_probe_, &loads_probe_;
};

}  // namespace irr::core
