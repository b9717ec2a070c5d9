// SPDX-License-Identifier: Apache-2.0
// Per-kernel statistics: the GPU snapshots every statistic at each timed launch's start and end
// ("kernel N: NAME start", "kernel N: NAME"); what each counter counted in between is the launch's.
// Written as kernels.json beside stats.json (which stays as it was) and summed per kernel in the
// run's summary table.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "sim/stats.h"

namespace irr::app {

struct KernelStats {
  std::size_t index = 0;  // the launch's number among the timed ones
  std::string kernel;
  std::uint64_t start_ps = 0, end_ps = 0;
  std::map<std::string, double> counted;  // every counter's and energy's increase during the launch (zeros left out)
};

std::vector<KernelStats> kernel_stats(const sim::StatsRegistry& stats);
// DIR/kernels.json: a record a launch.
void write_kernel_stats(const std::vector<KernelStats>& kernels, const std::string& dir);
// A row a kernel name: launches, cycles, warp instructions, IPC, L1 and L2 misses, share of cycles,
// and energy when the energy model is on.
void print_kernel_table(const std::vector<KernelStats>& kernels, std::ostream& out);

}  // namespace irr::app
