// SPDX-License-Identifier: Apache-2.0
// The irrgpu subcommands. Each returns the process exit code: 0 success, 1 simulation error,
// 2 usage or configuration error.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sc_core {
class sc_module;
}

namespace irr::sim {
class Config;
class Simulation;
}

namespace irr::app {

struct ConfigOptions {
  std::vector<std::string> configs;  // --config PRESET|FILE, in order (gtx480 when none)
  std::vector<std::string> sets;     // --set key.path=value
};

struct RunOptions {
  ConfigOptions config;
  std::string output_dir;
  std::string seed;  // as given; validated as sim.seed
  std::string timing_from_kernel;  // as given; validated as gpu.timing_from_kernel
  std::string sample_every;
  std::vector<std::string> log_levels;  // --log PATTERN=LEVEL
  std::string log_file;
  std::string stats_pattern;
  bool quiet = false;
  bool progress = false;  // force the progress line even when stderr is not a terminal
  bool profile = false;   // a source-line profile of the timed SMs (core::Profile)
  bool dry_run = false;   // check and elaborate, simulate nothing (dry_run_done)
  std::string vcd, fst, txn_trace;
  std::vector<std::string> trace;
  std::uint64_t txn_trace_limit = 200000;  // about 20 MB of JSON: a file Perfetto and chrome://tracing open at once
  std::vector<std::string> command_line;
  // A graph workload (docs/workloads.md) instead of sim.top.
  std::string workload, variant = "data", graph, mode = "timing";
  std::int64_t source = -1;  // -1: the first vertex with an outgoing edge
  // A wavefront workload (workloads/wavefront): tiles per side and elements per tile side.
  std::string tiles = "32x32";
  std::uint32_t tile = 32;
  std::uint32_t scale = 1;  // a suite kernel's input size multiplier; a lock benchmark's items (x 16,384)
  // A lock benchmark (workloads/locks): entries the items pick from, server blocks when delegated.
  std::uint32_t collisions = 1024, servers = 15;
  bool handoff = false;  // lock benchmarks: measure Table 4.2's hand-off latency
  std::vector<std::string> program;  // irrgpu exec: the application and its arguments
};

struct GtkwOptions {
  ConfigOptions config;
  std::vector<std::string> trace;
  std::string dumpfile, output;
  bool gpu = false;  // the timed GPU's probes instead of sim.top's
  std::vector<std::string> units;  // units to attach and show (implies gpu)
};

// Runs `body`, turning any exception into one line on stderr and an exit code.
int guarded(const std::function<int()>& body);
// The configuration the options name (gtx480 when no --config).
sim::Config load(const ConfigOptions& options);

int run(const RunOptions& options);
// For the run commands: the simulation the options ask for (configuration, seed, sampling,
// fast-forward, logging, observation), and the check that --trace names a probe once a model is
// elaborated into it.
std::unique_ptr<sim::Simulation> make_simulation(const RunOptions& options);
// The model `sim.top` names, elaborated.
std::unique_ptr<sc_core::sc_module> build_top(sim::Simulation& sim);
void check_trace(const RunOptions& options, sim::Simulation& sim);
// The usage error for patterns (of `option`) that select no probe, naming the models' probes there are.
[[noreturn]] void no_probe_matches(const std::string& option, const std::vector<std::string>& patterns,
                                   sim::Simulation& sim);
// --mode is functional or timing, else a usage error naming it.
void check_mode(const RunOptions& options);
// --dry-run's end, once `what` is checked (and its model elaborated): says so on stdout; returns 0.
int dry_run_done(const std::string& what);
int exec(const RunOptions& options);  // apps/irrgpu/exec.cpp: an unmodified CUDA application
int config_show(const ConfigOptions& options, bool origins);
int config_check(const std::string& file, const ConfigOptions& options);
int config_doc();
int stats_doc();  // docs/statistics.md (apps/irrgpu/stats_doc.cpp)
int gtkw(const GtkwOptions& options);
int ptx_check(const std::string& file, const ConfigOptions& config);
int version();
int list_workloads();
struct CalibrateOptions {
  ConfigOptions config;
  std::vector<std::string> benchmarks;  // empty: all
  std::string json;                     // also write the figures here
  bool dry_run = false;
};
int calibrate(const CalibrateOptions& options);  // apps/irrgpu/calibrate.cpp
struct DacSplitOptions {
  std::string file, kernel;  // kernel: empty for every kernel
  unsigned tid_dims = 3, max_divergent_conditions = 2, dcrf_entries = 8;
};
int dac_split(const DacSplitOptions& options);  // apps/irrgpu/dac.cpp
struct DacRunOptions {
  std::vector<std::string> kernels;  // empty: every suite kernel
  unsigned tid_dims = 3, max_divergent_conditions = 2, dcrf_entries = 8;
};
int dac_run(const DacRunOptions& options);
struct AreaOptions;
int run_area(const AreaOptions& options);

// irrgpu unit: a stimulus file run against an RTL island's model or RTL (apps/irrgpu/unit.cpp).
struct UnitOptions {
  std::string block;     // optional: must match the file's
  std::string stimulus;
  std::string impl = "model";
  std::string fst, vcd;  // waveforms: the RTL's FST, a model's VCD (the FIFO's)
  std::string output_dir;  // result.json
  bool list = false;
};
int unit(const UnitOptions& options);
struct CoverageOptions {
  std::string block;
  std::vector<std::string> stimuli;  // default: the block's examples (testbenches/stimuli)
  std::vector<std::string> data;     // folders of .dat and bins files other runs wrote ($IRRGPU_COVERAGE)
  std::string out;                   // default coverage-BLOCK
  std::string json;
  bool require_bins = false;         // exit 1 when a functional bin was never hit
};
int coverage(const CoverageOptions& options);  // apps/irrgpu/coverage.cpp
int plot(const std::vector<std::string>& args);  // apps/irrgpu/plot.cpp: runs apps/irrgpu/plot.py  // `irrgpu area`, with errors reported as for every command

}  // namespace irr::app
