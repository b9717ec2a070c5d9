// SPDX-License-Identifier: Apache-2.0
// The HWWL attached to the GPU: its instructions and their timing on the SMs. It lives with the
// GPU's assembly (DESIGN.md: units meet only in models/gpu); the unit itself is models/hwwl.
//
// Instructions (CUDA: asm volatile("wlpull.b32 %0;" : "=r"(id) :: "memory"), etc.):
//   wlinit.u64 base, ids_per_core   per-core overflow buffers of ids_per_core 32-bit entries from
//                                   base (core k at base + 4 * k * ids_per_core); first active thread's
//   wlcfg.u32  mode                 0 single-buffer, 1 double-buffer; only while the worklist is empty
//   wlpull.b32 dst                  a work ID, WAIT 0xFFFFFFFE, DONE 0xFFFFFFFF, or under on-demand
//                                   refill REFILL 0xFFFFFFFD (pull again)
//   wlpush.b32 src                  pushes a work ID (24 bits)
// Thread t of a warp uses the bank of lane t mod core.simd_width, one pass of simd_width threads
// per cycle; the values are decided at issue (the contract's functional effect) and the warp
// completes when its last pass is done — or, when a pull found a refill on its way
// (on-demand refill), once that refill has landed: the whole warp waits [K L257]. The HVUs' spill
// stores and refill loads go through each SM's LD/ST path below the warps' accesses [K L255].
// A thread holds the work ID a pull gave it until its next pull or its CTA's retirement
// (SmUnit::warp_exit): single-buffer DONE waits for the holders, and hwwl.active_threads counts
// them (the paper's active threads, Figure 8).
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "models/core/ptx/parser.h"
#include "models/core/unit_port.h"
#include "models/gpu/gpu.h"
#include "models/gpu/units.h"
#include "models/hwwl/hwwl_unit.h"

namespace irr::gpu {

class SmAdapter;

class HwwlGpu : public Attached, public sim::Outstanding {
 public:
  // Builds the unit (cores = the GPU's SMs, lanes = core.simd_width) after the SMs, so its tick
  // follows theirs, attaches an adapter to every SM on route "hwwl", and gives the instructions in
  // `registry` their semantics.
  HwwlGpu(sim::Simulation& sim, gpu::Gpu& gpu, core::ptx::ExtensionRegistry& registry);
  ~HwwlGpu() override;
  hwwl::HwwlUnit& unit() { return *unit_; }
  // The host's query before relaunching a data-driven kernel: does any work ID remain anywhere?
  bool work_remains() const { return unit_->work_remains(); }
  // Registers the host's queries with the runtime: "hwwl.work_remains" (1 or 0), "hwwl.cores"
  // (overflow buffers are per core) and "hwwl.double_buffer" (the configured hwwl.mode, for wlcfg).
  void serve(runtime::Device& device) override;
  // For the watchdog: why a single-buffer run under GTO scheduling can stall (docs/hwwl.md).
  std::vector<std::string> outstanding() const override;

 private:
  friend class SmAdapter;
  std::unique_ptr<hwwl::HwwlUnit> unit_;
  std::vector<SmAdapter*> adapters_;  // owned by the GPU
  std::uint32_t kernel_ends_ = 0;
  bool gto_ = false;          // core.scheduler: gto
  std::uint32_t backoff_ = 0;  // hwwl.wait_backoff
};

// The instructions without semantics (a parser that knows them; running one needs HwwlGpu).
void add_hwwl_instructions(core::ptx::ExtensionRegistry& registry);

}  // namespace irr::gpu
