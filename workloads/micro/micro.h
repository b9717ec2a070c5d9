// SPDX-License-Identifier: Apache-2.0
// The calibration microbenchmarks (workloads/kernels/micro.cu): each runs its kernels on a timed
// device and reports figures — latencies from clock64() chains, throughputs from the GPU's kernel
// cycles — to set beside published hardware measurements (docs/results/calibration.md).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "models/runtime/device.h"
#include "sim/simulation.h"

namespace irr::workloads::micro {

struct Figure {
  std::string name;  // "<benchmark>.<case>", e.g. "latency.l2_hit"
  double value;
  std::string unit;
};

// What a benchmark runs on: a timed device (its last_kernel_cycles() times throughput kernels)
// and the simulation (clocks, statistics).
struct Context {
  runtime::Device& dev;
  sim::Simulation& sim;
  std::size_t module;  // micro.ptx, loaded
  double core_hz() const;
  std::uint64_t kernel_cycles() const { return dev.last_kernel_cycles(); }
};

struct Benchmark {
  std::string name, description;
  std::function<std::vector<Figure>(Context&)> run;
};

const std::vector<Benchmark>& benchmarks();
// An unknown name is a usage irr::Error naming the known ones.
void check(const std::vector<std::string>& names);
// Runs the named benchmarks (all when empty) in order on one device (check() first).
std::vector<Figure> run(runtime::Device& dev, sim::Simulation& sim, const std::vector<std::string>& names);

}  // namespace irr::workloads::micro
