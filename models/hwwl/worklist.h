// SPDX-License-Identifier: Apache-2.0
// The HWWL's banks across a GPU: cores x lanes, one bank per lane, and the pull/push semantics of
// wlpull / wlpush (../shared/specs/hwwl_iru_dats.md 1.2, 1.5.1, 1.5.2). A pull takes from the
// thread's own lane bank; an empty bank answers DONE without redistribution (it will never be
// refilled [K L233]) and, with it, DONE only when every core's empty bit is set, WAIT otherwise
// [K L239]. Work the other HWWL parts hold (ICRN, HVU, overflow buffer) counts as "work in the
// system" through pullable_work().
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "models/hwwl/bank.h"
#include "models/hwwl/hvu.h"
#include "models/hwwl/icrn.h"
#include "models/hwwl/ideal.h"
#include "models/hwwl/wru_plan.h"

namespace irr::hwwl {

// A pull's third answer under on-demand refill: a load is on its way to this bank; the pulling warp
// waits for it (the HVU marks the pull as a pending load [K L257]) and pulls again.
constexpr std::uint32_t kRefill = 0xFFFFFFFDu;

// magic: the limit study's ideal [K L305] — every redistribution point spreads all pullable IDs
// evenly over every bank of every core at once, ignoring ports and bandwidth.
enum class Scheme { none, threshold, lsorting, gsorting, magic };

class Worklist {
 public:
  Worklist(std::uint32_t cores, std::uint32_t lanes, std::uint32_t bank_entries, Mode mode, Scheme scheme,
           std::uint32_t threshold, std::uint32_t hub_buffer = 4);

  std::uint32_t cores() const { return cores_; }
  std::uint32_t lanes() const { return lanes_; }
  std::uint32_t threshold() const { return threshold_; }
  Bank& bank(std::uint32_t core, std::uint32_t lane) { return banks_.at(core * lanes_ + lane); }
  const Bank& bank(std::uint32_t core, std::uint32_t lane) const { return banks_.at(core * lanes_ + lane); }

  // A work ID, kWait, kDone or (on-demand refill) kRefill, for hardware thread `thread` of the
  // core (warp slot x 32 + lane of the warp). The bank's port must be free in cycle `c` when it
  // has work. The thread holds the ID until its next pull or release_warp(): in single-buffer mode
  // a holder may still push, so DONE waits until no thread holds work (holders(); the "extra
  // logic" single buffering needs [K L227], open in the paper: one bit per hardware thread).
  std::uint32_t pull(std::uint32_t core, std::uint32_t lane, sim::Cycle c, std::uint32_t thread);
  // The same with one thread per lane (thread = lane: unit tests and the unit testbench).
  std::uint32_t pull(std::uint32_t core, std::uint32_t lane, sim::Cycle c) { return pull(core, lane, c, lane); }
  // Threads holding a work ID now (the paper's active threads [K L227, L347]), over all cores.
  std::uint64_t holders() const { return holders_; }
  // A warp's threads have exited (their CTA retired): none of them holds work any more.
  void release_warp(std::uint32_t core, std::uint32_t warp);
  // A warp's wlpull / wlpush issued in cycle `c` (how the SM uses the HWWL): thread t uses the bank
  // of lane t % lanes() in pass t / lanes(), i.e. in cycle c + pass — two passes of 16 threads on
  // the paper's 16-lane cores. warp_ports_free() says whether every bank the active threads need is
  // free in its pass's cycle; warp_pull() writes each active thread's answer to out[t];
  // warp_push() returns the threads whose push found the bank full with no overflow buffer.
  std::uint32_t passes(std::uint32_t active) const;
  bool warp_ports_free(std::uint32_t core, std::uint32_t active, sim::Cycle c) const;
  void warp_pull(std::uint32_t core, std::uint32_t warp, std::uint32_t active, sim::Cycle c, std::uint32_t out[32]);
  std::uint32_t warp_push(std::uint32_t core, std::uint32_t active, const std::uint32_t ids[32], sim::Cycle c);
  // False when the lane's push partition is full and no overflow buffer is set up (wlinit); with
  // one, the core's HVU spills it (and throws the hardware exception when the buffer is full).
  bool push(std::uint32_t core, std::uint32_t lane, std::uint32_t id, sim::Cycle c);
  // wlinit: per-core overflow buffers of `per_core` IDs from `base`, reached through `memory`,
  // refilled as `refill` says.
  void init_overflow(std::uint64_t base, std::uint64_t per_core, MemoryPort& memory, RefillPolicy refill = {}) {
    init_overflow(base, per_core, [&memory](std::uint32_t) -> MemoryPort& { return memory; }, refill);
  }
  // The same with a memory port per core (in the GPU, each SM's LD/ST path).
  void init_overflow(std::uint64_t base, std::uint64_t per_core, const std::function<MemoryPort&(std::uint32_t core)>& memory,
                     RefillPolicy refill = {});
  bool virtualized() const { return !hvus_.empty(); }
  const Hvu& hvu(std::uint32_t core) const { return *hvus_.at(core); }
  // Every cycle, after pulls, pushes and redistribution: each HVU writes returned IDs and stores
  // spills; at interval refill points it refills its core's banks.
  void virtualize(sim::Cycle c, bool refill_point);
  bool core_empty(std::uint32_t core) const;  // the core's empty bit: all its banks empty
  // Kernel end: in double-buffer mode each bank swaps if its pull partition drained, and the IDs
  // spilled so far become refillable.
  void kernel_end();
  // A redistribution point in cycle `c`, after the cycle's pulls and pushes: every core's WRU plans
  // from its occupancies (the global greedy bits are broadcast), moves one ID per planned transfer
  // whose two banks have a free port (the others are skipped [K L241]), and a globally greedy core
  // sends one ID from its exporting bank over the ICRN to the next core, round-robin, whose greedy
  // bit is clear (gsorting: to the core its global ranking chose).
  void redistribute(sim::Cycle c);
  // On-demand redistribution [K L241] instead of redistribution points: the WRU acts on the access
  // that needs it, through the banks' second port. A pull that finds its bank empty (and answers
  // WAIT) takes one ID from the core's fullest bank (holding at least two; threshold: a greedy
  // one); when every bank of the core is empty, the fullest bank of the fullest globally greedy
  // core sends one over the ICRN instead. In single-buffer mode a push that leaves its bank greedy
  // hands one ID to the core's emptiest needy bank.
  void set_on_demand(bool on) { on_demand_ = on; }
  // The limit study's idealised HWWL instead of the banks (ideal.h): every pull and push goes to
  // one list for all cores, answers at once, never needs a port; redistribution, the ICRN and
  // wlinit's overflow buffers (nothing spills) are left idle. Only while no work is held.
  void set_ideal(Ideal order);
  // wlcfg: the banks' mode; only while no work is held and before wlinit.
  void set_mode(Mode mode);
  // hwwl.bank.impl: rtl — every bank's accesses also go to a Verilated hwwl_bank, whose reads are
  // the IDs returned, checked against the model access by access (Bank::attach_rtl). X-initial
  // values are randomised from `seed`. Before any work is pushed; not with on-demand triggers.
  void attach_rtl_banks(std::uint64_t seed);
  // Every cycle, after pulls and pushes: the ICRN moves a hop, and each core writes an ID it
  // received into its neediest bank with a free port.
  void deliver(sim::Cycle c);
  const Icrn& icrn() const { return icrn_; }
  std::uint64_t moved() const { return moved_; }
  // Occupancy comparisons the WRUs made (for the energy model): at an interval point each core's
  // lanes against the threshold, or a sorting network's n x log2(n) over the lanes sorted (all
  // cores' lanes for gsorting); on demand, each scan of a core's lanes for a donor or a recipient.
  std::uint64_t comparisons() const { return comparisons_; }
  std::uint64_t exported() const { return exported_; }
  // All HVUs' counts.
  std::uint64_t spill_stores() const { return hvu_total(&Hvu::stores); }
  std::uint64_t refill_loads() const { return hvu_total(&Hvu::loads); }
  std::uint64_t spilled() const { return hvu_total(&Hvu::spilled); }
  std::uint64_t refilled() const { return hvu_total(&Hvu::refilled); }
  std::uint64_t skipped() const { return skipped_; }

  // Work held by parts not modelled here, for DONE (tests; the banks, ICRN and HVUs count anyway).
  void set_elsewhere(std::function<std::uint64_t()> f) { elsewhere_ = std::move(f); }
  std::uint64_t held() const;  // IDs in every bank, the ICRN and the HVUs (overflow buffers included)
  // Work that a pull of this kernel can still get: pull sides (reserved entries included), the ICRN,
  // refillable and returning HVU IDs and elsewhere() — DONE only when it is zero.
  std::uint64_t pullable_work() const;
  std::uint64_t pushed() const { return pushed_; }
  std::uint64_t pulled() const { return pulled_; }
  // The invariants: none lost or duplicated. pushed = pulled + held() always; with `every_id`, from
  // an independent walk over every held ID, their count and a hash sum of them too (the cost grows
  // with the IDs held, overflow buffers included). Throws irr::Error naming the numbers.
  void check(sim::Cycle c, bool every_id = true) const;

 private:
  const std::uint32_t cores_, lanes_;
  const Scheme scheme_;
  const std::uint32_t threshold_;
  std::vector<std::uint32_t> rotation_;  // per core: the threshold scheme's round-robin
  std::vector<std::uint32_t> next_destination_;  // per core: where its next export goes (round-robin)
  Icrn icrn_;
  std::vector<std::vector<bool>> holding_;  // per core, per hardware thread: holds a work ID
  std::uint64_t holders_ = 0;
  void spread_evenly();
  std::vector<std::unique_ptr<Hvu>> hvus_;  // per core, after wlinit
  RefillPolicy refill_;
  std::uint64_t hvu_total(std::uint64_t (Hvu::*count)() const) const;
  std::vector<std::vector<Bank*>> core_banks_;  // per core, its banks (as the HVU takes them)
  bool on_demand_ = false;
  std::optional<std::uint64_t> rtl_seed_;  // banks in the loop (attach_rtl_banks)
  void build_banks(std::uint32_t entries, Mode mode);
  bool demand_redistributes() const { return on_demand_ && scheme_ != Scheme::none && scheme_ != Scheme::magic; }
  void demand_pull(std::uint32_t core, std::uint32_t lane, sim::Cycle c);
  void demand_push(std::uint32_t core, std::uint32_t lane, sim::Cycle c);
  std::vector<Bank> banks_;
  std::optional<IdealList> ideal_;
  std::function<std::uint64_t()> elsewhere_ = [] { return 0; };
  std::uint32_t answer(std::uint32_t core, std::uint32_t lane, sim::Cycle c);  // pull() without holding
  std::uint64_t pushed_ = 0, pulled_ = 0, moved_ = 0, skipped_ = 0, exported_ = 0, comparisons_ = 0;
  std::uint64_t pushed_hash_ = 0, pulled_hash_ = 0;  // sums of id_hash() for check()
};

}  // namespace irr::hwwl
