// SPDX-License-Identifier: Apache-2.0
// Wireframe's dependency-aware thread-block scheduler (DATS) in the GPU: the CTA scheduler for a
// launch with block dependencies (DepLinks). It holds a window of the launch's dependency graph in
// the dependency graph buffer (models/dats/dgb.h) and fills it from the node and edge arrays the
// runtime wrote to device memory, with real reads through the front end's path to the L2 (a chunk
// of node entries, then each node's edge lines, one line buffered); it issues a block when the
// policy picks it and an SM has room, round-robin over the SMs, and applies each retiring block's
// completion to the buffer (retried while the PUB lacks room). Launches without dependencies go
// round-robin, as the baseline does. docs/dats.md.
//
// Policies: lrr and lvl as the paper's [W L392-L403]; in_order is the DepLinks baseline without
// run-ahead — blocks take the GPU's slots in launch order (dats.admission: block index or level by
// level) and wait in them for their parents (no buffer, no reads). dats.loader: instant takes the
// loader's reads out of time, to measure its cost [W L454].
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "models/dats/dgb.h"
#include "models/gpu/front_end.h"
#include "models/gpu/gpu.h"

namespace irr::gpu {

class DatsCtaScheduler : public sc_core::sc_module, public CtaScheduler, public sim::Clocked {
 public:
  DatsCtaScheduler(const sc_core::sc_module_name& name, sim::Simulation& sim, FrontEndPort& memory);
  // The next launch's dependency plan (dats::DependencyPlan: the graph, its node entries and edges
  // in device memory at arrays[0] and arrays[1]); nullptr after that launch. Another kind of plan: false.
  bool expect(const runtime::CtaPlan* plan, const std::vector<std::uint64_t>& arrays) override;
  void dispatch(core::KernelLaunch& k, std::vector<std::unique_ptr<core::Sm>>& sms) override;
  void finished(core::KernelLaunch& k, std::uint64_t cta, std::vector<std::unique_ptr<core::Sm>>& sms) override;
  std::vector<std::string> outstanding() const override;
  bool tick(sim::Cycle c) override;

 private:
  void load_step();
  void load_one();
  void continue_chunk();
  void read(std::uint64_t address, std::uint64_t bytes, std::function<void()> then);  // then wakes
  enum class Issue { issued, none_ready, no_room };
  Issue issue_one(dats::Policy policy, std::uint32_t bound);
  bool start(std::uint32_t vid);  // on the next SM with room; false when none has
  void note_complete(std::uint32_t vid);
  void update_probes();

  FrontEndPort& memory_;
  RoundRobinCtaScheduler plain_;
  const dats::DgbParams params_;
  const std::string policy_key_;
  const std::uint32_t bound_key_;
  const bool nst_rtl_;  // dats.nst.impl: rtl
  const bool by_dependency_;   // dats.admission: dependency (in_order admits in VID order)
  const bool instant_loader_;  // dats.loader: instant
  const dats::NstParams nst_params_;
  const std::uint64_t seed_;

  // The launch in progress.
  const dats::DependencyGraph* graph_ = nullptr;
  std::uint64_t node_array_ = 0, edge_array_ = 0;
  core::KernelLaunch* k_ = nullptr;
  std::vector<std::unique_ptr<core::Sm>>* sms_ = nullptr;
  std::unique_ptr<dats::Dgb> dgb_;
  dats::Dgb::Accesses accesses_;  // of the launches' buffers before this one (the energy model)
  void retire_dgb();
  dats::Policy policy_ = dats::Policy::lrr;
  std::uint32_t bound_ = 0;
  std::size_t next_sm_ = 0;
  std::deque<std::uint32_t> blocked_;  // finished blocks whose completion waits for PUB room
  enum class Load { idle, chunk, edges } load_ = Load::idle;
  std::uint32_t cur_ = 0, end_ = 0;              // the chunk being inserted
  std::optional<std::uint64_t> edge_line_;       // the edge line last read (the loader's buffer)
  // Invariants, checked on every run: each block once, after all its parents.
  std::vector<std::uint32_t> unfinished_parents_;
  std::vector<std::uint8_t> started_;
  std::uint64_t next_in_order_ = 0;  // in_order: the next block to admit, in dats.admission's order
  std::deque<std::uint32_t> admitted_;  // in_order: admitted, waiting for parents (holding a slot)
  std::uint64_t capacity_ = 0;          // blocks of this launch the GPU holds at once
  std::uint32_t running_ = 0;
  std::optional<sim::Cycle> load_wait_since_;

  sim::Counter &launches_, &chunk_reads_, &edge_reads_, &nodes_loaded_, &nib_parks_, &pub_parked_, &blocked_completions_,
      &pub_high_, &level_range_high_, &load_wait_cycles_;
  sim::Probe &lna_head_, &lna_tail_, &lea_head_, &lea_tail_, &pub_probe_, &level_lo_, &level_hi_, &running_probe_;
  std::vector<sim::Probe*> state_probes_;
};

}  // namespace irr::gpu
