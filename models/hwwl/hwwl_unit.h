// SPDX-License-Identifier: Apache-2.0
// The HWWL as a clocked unit (../shared/specs/hwwl_iru_dats.md part 1): the Worklist (banks, WRUs,
// ICRN, HVUs) built from the hwwl.* configuration and stepped in the core clock domain. Clients
// (the unit testbench; the SMs' wlpull/wlpush in the GPU) pull and push during their own tick of
// a cycle; the unit's tick, registered after them, then does the cycle's background work in this
// order: the ICRN moves a hop and cores write received IDs, the WRUs redistribute at
// redistribution points, the HVUs write refilled IDs, store spills and refill at refill points.
// It checks its invariants at every redistribution interval and at kernel ends, publishes
// statistics under its name and probes for the waveforms (waveforms/hwwl.gtkw).
#pragma once

#include <functional>
#include <vector>

#include "models/hwwl/worklist.h"
#include "sim/simulation.h"

namespace irr::hwwl {

class HwwlUnit : public sc_core::sc_module, public sim::Clocked, public sim::Outstanding {
 public:
  // `cores` x `lanes` banks (the GPU: SMs x core.simd_width).
  HwwlUnit(const sc_core::sc_module_name& name, sim::Simulation& sim, std::uint32_t cores, std::uint32_t lanes);

  // wlinit: per-core overflow buffers of `per_core` IDs from `base`, reached through `memory`.
  void wlinit(std::uint64_t base, std::uint64_t per_core, MemoryPort& memory) {
    wlinit(base, per_core, [&memory](std::uint32_t) -> MemoryPort& { return memory; });
  }
  // The same with a memory port per core (in the GPU, each SM's LD/ST path).
  void wlinit(std::uint64_t base, std::uint64_t per_core, const std::function<MemoryPort&(std::uint32_t core)>& memory);
  // wlcfg: single- or double-buffer banks (while empty, before wlinit).
  void wlcfg(Mode mode) { wl_.set_mode(mode); }
  // Whether the lane's bank can take an access this cycle (one port: a pull or a push).
  bool port_free(std::uint32_t core, std::uint32_t lane) const;
  // wlpull: a work ID, kWait, kDone or kRefill (on-demand refill: pull again once it has landed).
  std::uint32_t pull(std::uint32_t core, std::uint32_t lane);
  // wlpush: throws irr::Error when the bank and the overflow buffer are both full (the hardware
  // exception), or when the bank is full and no wlinit set up an overflow buffer.
  void push(std::uint32_t core, std::uint32_t lane, std::uint32_t id);
  // The same for a warp (the SM's wlpull / wlpush) in warp slot `warp`: thread t uses lane
  // t % lanes in pass t / lanes, one cycle per pass from now (Worklist::warp_pull).
  bool warp_ports_free(std::uint32_t core, std::uint32_t active) const { return wl_.warp_ports_free(core, active, now()); }
  void warp_pull(std::uint32_t core, std::uint32_t warp, std::uint32_t active, std::uint32_t out[32]);
  // The warp in slot `warp` of the core has exited: its threads hold no work any more.
  void release_warp(std::uint32_t core, std::uint32_t warp) { wl_.release_warp(core, warp); }
  void warp_push(std::uint32_t core, std::uint32_t active, const std::uint32_t ids[32]);
  // The kernel ended: double-buffer swap; invariants checked.
  void kernel_end();
  // Whether any work ID is held anywhere (what the host asks before launching the next kernel).
  bool work_remains() const { return wl_.held() > 0; }

  const Worklist& worklist() const { return wl_; }
  bool tick(sim::Cycle cycle) override;
  std::vector<std::string> outstanding() const override;

 private:
  sim::Cycle now() const { return clock_.now_cycle(); }
  void count_pull(std::uint32_t answer);
  [[noreturn]] void push_refused(std::uint32_t core, std::uint32_t lane) const;
  void sample();

  // The hwwl.* keys the configuration uses: with hwwl.ideal the banks', WRU's, ICRN's and HVU's
  // are not read (setting one is then an error, as for any key no model reads).
  struct Settings {
    Ideal ideal = Ideal::none;
    Mode mode = Mode::double_buffer;
    std::uint32_t bank_entries = 2, threshold = 0, hub_buffer = 1;
    Scheme scheme = Scheme::none;
    bool on_demand = false;
    std::uint64_t interval = 1, refill_interval = 1;
    RefillPolicy refill;
    explicit Settings(const sim::Config& c);
  };

  sim::Simulation& sim_;
  sim::ClockScheduler& clock_;
  const Settings set_;
  Worklist wl_;
  const bool invariants_;
  sim::Counter &pulls_, &wait_pulls_, &done_pulls_, &refill_pulls_, &pushes_, &points_, &kernels_;
  sim::Average& occupancy_;
  struct CoreProbes {
    sim::Probe *greedy, *needy, *empty, *global_greedy, *hvu_queued, *hvu_stored, *hvu_loads;
    std::vector<sim::Probe*> occupancy;  // per bank
  };
  std::vector<CoreProbes> probes_;
  sim::Probe &icrn_probe_, &point_probe_;
};

}  // namespace irr::hwwl
