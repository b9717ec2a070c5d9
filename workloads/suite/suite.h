// SPDX-License-Identifier: Apache-2.0
// Kernels in the style of seed 001's suites (Rodinia, Parboil, the CUDA SDK; workloads/kernels/
// suite.cu): vector add and saxpy, a 2-D stencil, tiled sgemm, hotspot, pathfinder, srad,
// backprop, blackscholes, histogram, CSR SpMV, LBM-like streaming and a separable convolution,
// each with a host driver and a CPU reference. They run as written or split by the DAC pass
// (docs/dac.md): the split must give the same bytes as the original.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/dac/queues.h"
#include "models/dac/split.h"
#include "models/runtime/device.h"

namespace irr::workloads::suite {

// Launches suite.ptx's kernels as written or, given the DAC queues (bound in the device's
// registry, dac::bind), split: each launch runs the affine stream's grid, then the non-affine
// stream's over the same grid and arguments, then checks every record was dequeued.
class Launcher {
 public:
  // `companion`: a split launch is one launch of the non-affine stream with the affine stream as
  // its CTAs' companion (Device::launch_with_companion: the timed GPU's affine warps).
  Launcher(runtime::Device& dev, const core::ptx::ExtensionRegistry* registry = nullptr, dac::Queues* queues = nullptr,
           const dac::Options& options = {}, bool companion = false);
  void launch(const std::string& kernel, runtime::Dim3 grid, runtime::Dim3 block, const runtime::Args& args);
  bool split() const { return queues_ != nullptr; }
  runtime::Device& dev;
  std::size_t module;
  // Warp instructions executed: the kernels as written (or the non-affine streams), and the affine
  // streams'. Functionally an affine stream runs as a warp per non-affine warp, each for its 32
  // threads; in hardware one affine warp a CTA runs it once on tuples: `affine_per_cta` estimates
  // that as the functional count over the warps a CTA has (exact where the warps agree on control).
  // `deq_instructions`: the non-affine streams' deq executions, which the dissertation's ISA folds
  // into the instruction that uses the value (`ld.global r, deq.data`, `@deq.pred bra`).
  std::uint64_t warp_instructions = 0, affine_warp_instructions = 0, affine_per_cta = 0, deq_instructions = 0,
                launches = 0;
  // The inputs' size: each kernel multiplies its main dimension (elements, rows or columns) by it.
  std::uint32_t scale = 1;

 private:
  dac::Queues* queues_;
  bool companion_;
};

struct Outcome {
  std::string error;                // "" when every output matches the CPU reference
  std::vector<std::uint8_t> bytes;  // every output, as the device left it
};

struct Kernel {
  std::string name, description;
  std::string access;  // the kinds of access it covers (seed 001 Table 3.2's)
  std::function<Outcome(Launcher&)> run;
};

const std::vector<Kernel>& kernels();
const Kernel& kernel(const std::string& name);  // an unknown name is a usage irr::Error naming the known ones
const Kernel* find(const std::string& name);    // nullptr when unknown

}  // namespace irr::workloads::suite
