// SPDX-License-Identifier: Apache-2.0
// The wavefront workloads after Wireframe's six [W L421] (workloads/kernels/wavefront.cu): an
// n x m matrix in T x T tiles, one block per tile, each tile after its west and north neighbours.
// Each runs in the paper's five versions [W L411-L415]:
//   global    one host launch per wave of tiles (an anti-diagonal): global barriers
//   cdp       one launch per wave made on the device (dynamic parallelism, nested: a parent kernel
//             launches a child per wave); the first wave's launch is the host's
//   deplinks  one launch, blocks depending on west and north (DepLinks), in launch order
//   lrr, lvl  one launch, the same dependencies, Wireframe's DATS with LRR or LVL (bound 3)
// The last three need gpu.cta_scheduler: dats on the timed GPU; functionally all five run.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/runtime/device.h"

namespace irr::workloads::wavefront {

struct Shape {
  std::uint32_t tiles_x = 32, tiles_y = 32;  // blocks per row and column: the dependency graph
  std::uint32_t tile = 32;                   // elements per tile side = threads per block (1..32)
  std::uint64_t seed = 1;                    // the inputs' random generator
};

struct Result {
  std::string check;  // "" when the output matches the CPU reference, else the first difference
  std::uint64_t launches = 0, warp_instructions = 0, thread_instructions = 0;
};

struct Workload {
  std::string name, description, tolerance;
  std::function<Result(runtime::Device&, const Shape&, const std::string& variant)> run;
};

struct Variant {
  std::string name, description;
  bool dependencies;  // a DepLinks launch: needs the dependency-aware scheduler on the timed GPU
};

const std::vector<Variant>& variants();
const std::vector<Workload>& workloads();
const Workload* find(const std::string& name);  // nullptr when no wavefront workload has that name
const Variant& variant(const std::string& name);  // throws irr::Error naming the known ones
// Parses "WxH" (or "N" for N x N) into tiles_x, tiles_y; throws irr::Error on anything else.
void parse_tiles(const std::string& text, Shape& shape);

}  // namespace irr::workloads::wavefront
