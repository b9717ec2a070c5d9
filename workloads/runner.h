// SPDX-License-Identifier: Apache-2.0
// What the graph workloads' host drivers share: the graph's CSR in device memory and a runner that
// launches a module's kernels (a grid covering n threads, or the fixed grid) and counts them.
#pragma once

#include <algorithm>
#include <limits>
#include <numeric>
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

// The worklist API's host side (worklist.cuh; the kernels in wl.cu): the software worklist,
// double-buffered by the host (this round's IDs in `in`, pushes into `out`, a pull counter), or the
// HWWL in double-buffer mode (the host relaunches while it holds work).
struct Worklist {
  Runner run;  // wl.ptx or wl_hwwl.ptx
  const bool hardware;
  const std::uint64_t grid;  // the persistent grid of the kernel named at construction
  std::uint32_t count = 0;   // the software worklist's IDs this round
  std::uint64_t in = 0, out = 0, out_count = 0, next = 0;
  // Room for `capacity` IDs a round (for the HWWL, each core's overflow buffer). `needs_double`:
  // the error a workload whose rounds need the double buffer gives on the single one ("": none).
  Worklist(Device& dev, bool hw, const std::string& kernel, std::uint64_t capacity, const std::string& needs_double = "")
      : run(dev, hw ? "wl_hwwl.ptx" : "wl.ptx"), hardware(hw), grid(run.persistent(kernel)) {
    if (hardware && !needs_double.empty() && !dev.query("hwwl.double_buffer")) throw Error(needs_double, Error::Kind::usage);
    if (hardware) {
      run.launch("wl_hwwl_init", 1, Args() << 1u << dev.malloc(dev.query("hwwl.cores") * capacity * 4) << capacity);
    } else {
      in = dev.malloc(capacity * 4), out = dev.malloc(capacity * 4), out_count = dev.malloc(4), next = dev.malloc(4);
    }
  }
  // The host's first work: IDs 0 .. n-1, or the one ID.
  void seed_all(std::uint32_t n) {
    if (hardware) return run.launch("wl_hwwl_seed_all", n, Args() << n);
    std::vector<std::uint32_t> all(n);
    std::iota(all.begin(), all.end(), 0u);
    run.d.memcpy_to_device(in, all.data(), n * 4ull);
    count = n;
  }
  void seed_one(std::uint32_t id) {
    if (hardware) return run.launch("wl_hwwl_seed", 1, Args() << id);
    run.put<std::uint32_t>(in, id);
    count = 1;
  }
  // A kernel over `threads` that pulls nothing and pushes the first work.
  void seed(const std::string& kernel, std::uint64_t threads, const Args& args) {
    if (hardware) return run.launch(kernel, threads, Args(args) << 0);
    run.put<std::uint32_t>(out_count, 0);
    run.launch(kernel, threads, Args(args) << in << 0u << next << in << out_count);
    count = run.get<std::uint32_t>(out_count);
  }
  // One launch pulling this round's work (over `threads`, 0: the persistent grid); its pushes are
  // the next round's. `args`: the kernel's own arguments.
  void round(const std::string& kernel, const Args& args, std::uint64_t threads = 0) {
    if (hardware) return run.launch(kernel, threads ? threads : grid, Args(args) << 0);
    run.put<std::uint32_t>(out_count, 0);
    run.put<std::uint32_t>(next, 0);
    run.launch(kernel, threads ? threads : grid, Args(args) << in << count << next << out << out_count);
    count = run.get<std::uint32_t>(out_count);
    std::swap(in, out);
  }
  bool more() const { return hardware ? run.d.query("hwwl.work_remains") != 0 : count != 0; }
  // Rounds until the worklist is empty.
  void drain(const std::string& kernel, const Args& args) {
    while (more()) round(kernel, args);
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
