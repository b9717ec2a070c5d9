// SPDX-License-Identifier: Apache-2.0
// The GPU top: SMs (models/core) with their L1s, the request and reply crossbars and the memory
// partitions (models/mem), a CTA scheduler and the host model, assembled from the configuration.
// It is the timed backend of runtime::Device: a host program (a workload driver) runs in a SystemC
// thread, and its launches and copies take simulated time.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "models/core/sm.h"
#include "models/gpu/sampling.h"
#include "models/mem/crossbar.h"
#include "models/mem/partition.h"
#include "models/runtime/device.h"
#include "sim/simulation.h"
#include "tlm_glue/protocol_checker.h"

namespace irr::gpu {

// Which CTA goes to which SM, and when. The baseline hands CTAs in order to the SMs with room,
// round-robin; a replacement (Gpu::set_cta_scheduler) may start any CTA index in any order, each
// exactly once. `dispatch` is called when a kernel starts; `finished` each time a CTA retires,
// with its linear index (by default it dispatches again).
class CtaScheduler {
 public:
  virtual ~CtaScheduler() = default;
  virtual void dispatch(core::KernelLaunch& k, std::vector<std::unique_ptr<core::Sm>>& sms) = 0;
  virtual void finished(core::KernelLaunch& k, std::uint64_t /*cta*/, std::vector<std::unique_ptr<core::Sm>>& sms) {
    dispatch(k, sms);
  }
  // What the scheduler waits for, for the watchdog's report.
  virtual std::vector<std::string> outstanding() const { return {}; }
  // The next launch's CTAs go by a plan the host made (runtime::CtaPlan; DATS's block
  // dependencies), with the plan's arrays at `arrays` in device memory; nullptr after that launch.
  // False: this scheduler does not take such a plan.
  virtual bool expect(const runtime::CtaPlan* /*plan*/, const std::vector<std::uint64_t>& /*arrays*/) { return false; }
};

class RoundRobinCtaScheduler : public CtaScheduler {
 public:
  void dispatch(core::KernelLaunch& k, std::vector<std::unique_ptr<core::Sm>>& sms) override;

 private:
  std::size_t next_sm_ = 0;
};

class FrontEndPort;

class Gpu : public sc_core::sc_module, public runtime::Backend, public sim::Outstanding, public core::UnitSites {
 public:
  Gpu(const sc_core::sc_module_name& name, sim::Simulation& sim);
  ~Gpu() override;
  mem::BackingStore& memory() { return store_; }
  core::GridStats launch(core::LaunchContext& ctx, const core::ptx::Function& kernel, core::Dim3 grid, core::Dim3 block,
                         const std::vector<std::uint8_t>& params, std::uint32_t dynamic_shared,
                         const core::ptx::Resources& resources) override;
  // Through a CTA scheduler that takes the plan (gpu.cta_scheduler dats for DepLinks, docs/dats.md);
  // fast-forwarded, the CTAs run one at a time in the plan's order.
  core::GridStats launch_with_plan(core::LaunchContext& ctx, const core::ptx::Function& kernel, core::Dim3 grid,
                                   core::Dim3 block, const std::vector<std::uint8_t>& params, std::uint32_t dynamic_shared,
                                   const core::ptx::Resources& resources, const runtime::CtaPlan& plan,
                                   const std::vector<std::uint64_t>& arrays) override;
  void copy(std::uint64_t bytes) override;
  // Gives the cache policies that track regions (a region table) the allocations of this launch.
  void allocated(const std::map<std::uint64_t, std::uint64_t>& base_to_bytes) override;
  std::uint64_t resident_blocks(const core::ptx::Function& kernel, core::Dim3 block, std::uint32_t dynamic_shared,
                                const core::ptx::Resources& resources) const override;
  std::vector<std::string> outstanding() const override;
  std::size_t kernels() const { return kernels_; }
  // Core cycles of the last timed kernel, from its first CTA's dispatch to its last CTA's
  // retirement (no launch overhead): what cudaEventElapsedTime around the launch would report
  // without the host's share.
  std::uint64_t last_kernel_cycles() const override { return last_kernel_cycles_; }
  // core::UnitSites: the units the registry attaches (models/gpu/units.h) come here.
  void attach_sm_units(const std::string& route, const std::function<std::unique_ptr<core::SmUnit>(core::Sm&)>& make,
                       bool observe = false) override;
  std::size_t sms() const override { return sms_.size(); }
  // A source-line profile every SM fills from now on (--profile, core::Profile); null until asked.
  core::Profile& enable_profile() {
    if (!profile_) {
      profile_ = std::make_unique<core::Profile>();
      for (auto& sm : sms_) {
        sm->set_profile(profile_.get());
        sm->l1().set_profile(&profile_->l1());
      }
      for (auto& p : partitions_) p->set_profile(&profile_->l2());
    }
    return *profile_;
  }
  const core::Profile* profile() const { return profile_.get(); }
  // Units beside the L2 attach to each partition (mem::PartitionUnit, MemoryPartition::attach).
  std::size_t partitions() const { return partitions_.size(); }
  mem::MemoryPartition& partition(std::size_t i) { return *partitions_.at(i); }
  core::Sm& sm(std::size_t i) { return *sms_.at(i); }
  // Replaces the CTA scheduler (between kernels).
  void set_cta_scheduler(std::unique_ptr<CtaScheduler> s);

 private:
  // A launch, timed or fast-forwarded; fast-forwarded CTAs run one at a time in `order` if given.
  core::GridStats run(core::LaunchContext& ctx, const core::ptx::Function& kernel, core::Dim3 grid, core::Dim3 block,
                      const std::vector<std::uint8_t>& params, std::uint32_t dynamic_shared,
                      const core::ptx::Resources& resources, const std::vector<std::uint64_t>* order);
  // sim.sampling kernels: the launch run functionally for its profile, then timed (run) or
  // charged its cluster's cycles; nullopt when timed (the caller times it).
  std::optional<core::GridStats> sample(core::LaunchContext& ctx, const core::ptx::Function& kernel, core::Dim3 grid,
                                        core::Dim3 block, const std::vector<std::uint8_t>& params,
                                        std::uint32_t dynamic_shared, std::size_t& cluster, std::uint64_t& work);
  // Sampling: a launch run functionally into `profile` — its CTAs in `order` if given. Journal
  // none: its writes and device printf kept; undo: rolled back, printf dropped; open: the journal
  // left open for the caller, printf into `printed`.
  enum class Journal { none, undo, open };
  core::GridStats functional(core::LaunchContext& ctx, const core::ptx::Function& kernel, core::Dim3 grid, core::Dim3 block,
                             const std::vector<std::uint8_t>& params, std::uint32_t dynamic_shared,
                             core::LaunchProfile& profile, Journal journal, const std::vector<std::uint64_t>* order = nullptr,
                             std::string* printed = nullptr);
  // Sampling: the L2 as a functional run's accesses leave it; a charge's counts.
  void warm_l2(const core::LaunchProfile& profile);
  void charged(std::uint64_t cycles, std::uint64_t bound, std::uint64_t warp_instructions, std::uint64_t thread_instructions);
  // The launch's span on the trace's kernels track (`extra`: more JSON members, each after a comma).
  void trace_launch(const std::string& kernel, core::Dim3 grid, core::Dim3 block, sim::Picoseconds started,
                    const std::string& extra);
  void cta_finished(std::uint64_t cta);
  void add_summary();

  sim::Simulation& sim_;
  mem::BackingStore store_;
  tlm_glue::PayloadPool pool_;
  mem::AddressMap map_;
  std::unique_ptr<mem::Crossbar> crossbar_;
  std::vector<std::unique_ptr<mem::MemoryPartition>> partitions_;
  std::vector<std::unique_ptr<core::Sm>> sms_;
  std::unique_ptr<core::Profile> profile_;
  std::unique_ptr<FrontEndPort> front_end_;  // the CTA scheduler's reads (a unit's scheduler)
  std::unique_ptr<CtaScheduler> scheduler_;
  std::vector<std::unique_ptr<tlm_glue::ProtocolChecker>> checkers_;  // one a hop when sim.check_protocol
  std::vector<std::unique_ptr<core::SmUnit>> units_;
  core::KernelLaunch* current_ = nullptr;
  sc_core::sc_event done_;
  const sim::Picoseconds launch_overhead_, device_launch_latency_, device_block_latency_;
  // The host's launch cost, or a device-side launch's (dynamic parallelism) for this grid.
  sim::Picoseconds launch_cost(const core::LaunchContext& ctx, const core::Dim3& grid) const;
  const double copy_bandwidth_;
  std::size_t kernels_ = 0;  // launches so far, fast-forwarded ones included
  const std::uint64_t timing_from_kernel_;
  const bool invalidate_l1_at_launch_;  // l1.invalidate_at_launch
  std::uint64_t last_kernel_cycles_ = 0;
  std::unique_ptr<KernelSampler> sampler_;  // sim.sampling on (its clusters used with kernels)
  struct SamplingStats;
  std::unique_ptr<SamplingStats> sampling_;
  bool by_kernels_ = false, by_blocks_ = false;  // sim.sampling kernels, blocks; both
  struct Waves {  // the running launch's, watched by blocks
    std::uint64_t wave;                                       // CTAs the GPU holds at once
    std::vector<std::pair<std::uint64_t, std::uint64_t>> marks;  // settled_waves's
    std::optional<WaveRate> settled;                          // set: no more CTAs start
    CtaWork work;                                             // from the functional run
  };
  std::optional<Waves> waves_;
  sim::Counter &kernel_count_, &fast_forwarded_, &copied_bytes_, &kernel_cycles_;
};

// Runs a host program in a SystemC thread (the host driver), so that its launches and copies on a
// timed Device take simulated time.
class Host : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Host);
  Host(const sc_core::sc_module_name& name, std::function<void()> program)
      : sc_core::sc_module(name), program_(std::move(program)) {
    SC_THREAD(run);
  }
  bool finished() const { return finished_; }

 private:
  void run() {
    program_();
    finished_ = true;
  }
  std::function<void()> program_;
  bool finished_ = false;
};

}  // namespace irr::gpu
