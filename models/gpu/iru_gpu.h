// SPDX-License-Identifier: Apache-2.0
// The IRU attached to the GPU: its instruction, its host command, and its partitions beside the
// L2 slices. It lives with the GPU's assembly (DESIGN.md: units meet only in models/gpu); the unit
// itself is models/iru.
//
// Instruction (CUDA: workloads/kernels/iru.cuh's load_iru overloads):
//   ldiru.b32 valid, index, secondary, position
// Each thread of the warp asks for one element; the warp's request goes from the LD/ST unit
// around the L1 to one memory partition (each SM takes the partitions in turn [S L155]), and the
// reply gives threads in lane order an element (valid 1 with its index, secondary value and
// original position) or none (valid 0: it was filtered, or the input ran out). The whole warp waits
// for the reply. Host command "iru.configure" {target, target element size, indices, secondary (0:
// none), n, filter (0 none, 1 min, 2 add_f32)}: the arrays of the next kernel [S L184].
// In a fast-forwarded kernel (gpu.timing_from_kernel) the elements go out in their original order,
// unfiltered: the functional result of one legal reordering.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "models/core/ptx/parser.h"
#include "models/core/unit_port.h"
#include "models/gpu/gpu.h"
#include "models/gpu/units.h"
#include "models/iru/iru.h"

namespace irr::gpu {

class IruGpu : public Attached, public iru::Memory {
 public:
  IruGpu(sim::Simulation& sim, gpu::Gpu& gpu, core::ptx::ExtensionRegistry& registry);
  ~IruGpu() override;
  iru::Iru& unit() { return *unit_; }
  // Registers "iru.configure" with the runtime (workloads/iru/api.h calls it).
  void serve(runtime::Device& device) override;

  void read(std::uint32_t partition, std::uint64_t line, bool bypass_l2, std::uint64_t tag) override;
  std::uint32_t home(std::uint64_t line) const override { return map_.partition(line); }
  std::uint32_t load32(std::uint64_t address) const override;

 private:
  class SmSide;
  class PartitionSide;
  struct Pending {  // a warp's request, from its ldiru to its reply
    std::uint64_t token = 0;
    std::uint32_t sm = 0, warp = 0, active = 0;
    std::size_t operands = 4;                      // ldiru's: what the reply carries
    tlm::tlm_generic_payload* payload = nullptr;  // at the partition
    std::vector<iru::Element> elements;            // the reply
  };
  void reply(const iru::Reply& r);
  void functional(core::ptx::ExtensionCall& c);

  gpu::Gpu& gpu_;
  mem::AddressMap map_;
  tlm_glue::PayloadPool pool_;  // the prefetchers' reads
  std::unique_ptr<iru::Iru> unit_;
  std::vector<std::unique_ptr<PartitionSide>> partitions_;
  std::vector<SmSide*> sms_;  // owned by the GPU
  std::map<std::uint32_t, Pending> pending_;  // by request id (the access's tag)
  std::uint32_t next_id_ = 0;
  std::uint32_t begins_ = 0, ends_ = 0;
  bool timed_ = false;            // a timed kernel is running (else a fast-forwarded one)
  std::uint64_t functional_next_ = 0;  // a fast-forwarded kernel: the next element it hands out
};

// The instruction without semantics (a parser that knows it; running it needs IruGpu).
void add_iru_instructions(core::ptx::ExtensionRegistry& registry);

}  // namespace irr::gpu
