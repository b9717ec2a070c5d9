// SPDX-License-Identifier: Apache-2.0
// What the graph workloads' host drivers share: the graph's CSR in device memory and a runner that
// launches a module's kernels (a grid covering n threads, or the fixed grid) and counts them.
#pragma once

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "sim/error.h"
#include "workloads/workloads.h"

namespace irr::workloads {

using runtime::Args;
using runtime::Device;
using runtime::Dim3;

constexpr std::uint32_t kInf = 0xffffffffu;  // an unreached vertex's level or distance
constexpr std::uint32_t kBlock = 256;
// The fixed grid of the plain data-driven variants (LonestarGPU launches a fixed configuration:
// 15 SMs x 8 blocks); the _vkc variants size the grid to the worklist instead.
constexpr std::uint32_t kFixedBlocks = 120;

// The graph's CSR in device memory.
struct DeviceGraph {
  std::uint64_t row, col, weight;
  DeviceGraph(Device& d, const Graph& g) {
    row = d.malloc(g.row.size() * 4);
    col = d.malloc(std::max<std::size_t>(1, g.col.size()) * 4);
    weight = d.malloc(std::max<std::size_t>(1, g.weight.size()) * 4);
    d.memcpy_to_device(row, g.row.data(), g.row.size() * 4);
    d.memcpy_to_device(col, g.col.data(), g.col.size() * 4);
    d.memcpy_to_device(weight, g.weight.data(), g.weight.size() * 4);
  }
};

struct Runner {
  Device& d;
  std::size_t module;
  Result r;
  Runner(Device& dev, const std::string& file) : d(dev), module(dev.load_module(kernels_dir() + "/" + file)) {}
  // A grid covering `threads` (0: the fixed grid).
  void launch(const std::string& kernel, std::uint64_t threads, const Args& args) {
    const auto blocks = threads ? static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (threads + kBlock - 1) / kBlock))
                                : kFixedBlocks;
    const auto st = d.launch(d.kernel(module, kernel), Dim3{blocks}, Dim3{kBlock}, args);
    ++r.launches;
    r.warp_instructions += st.warp_instructions;
    r.thread_instructions += st.thread_instructions;
  }
  // Counts another runner's launches (a second module's) as this run's.
  void absorb(const Runner& o) {
    r.launches += o.r.launches;
    r.warp_instructions += o.r.warp_instructions;
    r.thread_instructions += o.r.thread_instructions;
  }
  // Threads of a persistent grid for `kernel` (its threads pull until DONE): as many blocks as
  // the device holds at once; 0 (the fixed grid) where the device cannot say.
  std::uint64_t persistent(const std::string& kernel) {
    return d.resident_blocks(d.kernel(module, kernel), Dim3{kBlock}) * kBlock;
  }
  // Blocks of `kernel` resident at once, which a kernel whose blocks wait on each other must not
  // exceed: the timed GPU's occupancy, or the functional executor's round robin.
  std::uint64_t resident(const std::string& kernel) {
    const std::uint64_t n = d.resident_blocks(d.kernel(module, kernel), Dim3{kBlock});
    return n ? n : Device::kFunctionalResidentBlocks;
  }
  template <typename T>
  T get(std::uint64_t p) {
    T v;
    d.memcpy_to_host(&v, p, sizeof v);
    return v;
  }
  template <typename T>
  void put(std::uint64_t p, T v) {
    d.memcpy_to_device(p, &v, sizeof v);
  }
  template <typename T>
  std::vector<T> download(std::uint64_t p, std::size_t n) {
    std::vector<T> v(n);
    d.memcpy_to_host(v.data(), p, n * sizeof(T));
    return v;
  }
};

// Levels or distances as values, kInf as +infinity.
inline std::vector<double> as_values(const std::vector<std::uint32_t>& v) {
  std::vector<double> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i] == kInf ? std::numeric_limits<double>::infinity() : static_cast<double>(v[i]);
  return out;
}

// A usage error unless `s` is a vertex of `g`.
inline void check_source(const Graph& g, std::uint32_t s) {
  if (s >= g.n) throw Error("source vertex " + std::to_string(s) + " is not in the graph (0.." + std::to_string(g.n - 1) + ")", Error::Kind::usage);
}

}  // namespace irr::workloads
