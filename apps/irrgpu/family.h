// SPDX-License-Identifier: Apache-2.0
// The workload families `irrgpu run --workload` knows (graph kernels, wavefronts, suite kernels,
// lock benchmarks) behind one interface, and the one driver shell that runs any of them,
// functionally or on the timed GPU, and writes what every run writes: the summary, the check,
// the simulation's outputs and workload.json (docs/workloads.md).
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "apps/irrgpu/commands.h"
#include "models/core/ptx/parser.h"
#include "models/runtime/device.h"

namespace irr::app {

struct TimedGpu;

// What one run of a workload gives, whichever its family.
struct Outcome {
  std::string check;  // "" when the output matches the CPU reference, else the first difference
  std::uint64_t launches = 0, warp_instructions = 0, thread_instructions = 0;
  std::vector<std::pair<std::string, std::uint64_t>> counters = {};  // the workload's own counts
};

// One workload run as its family prepared it from the options (validated, inputs loaded).
class Job {
 public:
  virtual ~Job() = default;
  // The unit its variant needs on the timed GPU ("" for none).
  virtual std::string unit() const { return ""; }
  // Runs the host program on `device`: on the timed GPU `timed` (a SystemC thread), else
  // functionally (`timed` nullptr); `extensions` is the device's instruction registry.
  virtual Outcome run(runtime::Device& device, core::ptx::ExtensionRegistry& extensions, TimedGpu* timed) = 0;
  // A check made after the host time is taken (a graph kernel's CPU reference), into r.check.
  virtual void check(Outcome& /*r*/) const {}
  // The line printed after the run: what ran, on what, and how much.
  virtual std::string summary(const Outcome& r, double host_seconds) const = 0;
  // workload.json's fields of this family: the workload, variant and inputs, and what it counts.
  virtual nlohmann::json record(const Outcome& r, double host_seconds) const = 0;
  // Files of its own in the output folder (a graph kernel's result.txt).
  virtual void write(const std::string& /*dir*/, const Outcome& /*r*/) const {}
};

struct Family {
  std::string name;
  std::function<bool(const std::string& workload)> owns;
  std::function<std::unique_ptr<Job>(const RunOptions&)> prepare;
};

// Every family, the graph kernels last (they own every name the others do not: an unknown name
// is their error naming the known ones).
const std::vector<Family>& families();

// The driver shell: the options' workload through its family, in the options' mode.
int run_workload(const RunOptions& options);

// The families' preparations (apps/irrgpu/run_*.cpp).
std::unique_ptr<Job> prepare_graph(const RunOptions& options);
std::unique_ptr<Job> prepare_wavefront(const RunOptions& options);
std::unique_ptr<Job> prepare_suite(const RunOptions& options);
std::unique_ptr<Job> prepare_locks(const RunOptions& options);

}  // namespace irr::app
