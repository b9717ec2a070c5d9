// SPDX-License-Identifier: Apache-2.0
// One simulation run: the services every module is built with (configuration, logging,
// statistics, probes, transaction trace, clock domains, seeded random streams) and the run itself
// (sc_start until nothing is left to do, housekeeping, outputs). A module takes
// (sc_module_name, Simulation&).
#pragma once

#include <map>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "sim/clock.h"
#include "sim/config.h"
#include "sim/log.h"
#include "sim/probe.h"
#include "sim/stats.h"
#include "sim/trace.h"

namespace irr::sim {

// What a module has pending, for the watchdog and the end-of-run check: one line per item
// ("4 requests in service, oldest #17 issued at 12.3 us"), empty when idle.
class Outstanding {
 public:
  virtual ~Outstanding() = default;
  virtual std::vector<std::string> outstanding() const = 0;
};

struct RunReport {
  double host_seconds = 0;
  Picoseconds simulated_ps = 0;
  std::string incomplete;  // why the run stopped early with its statistics so far ("" = it ran to the end)
};

// Host-side observation: none of it changes a statistic.
struct ObserveOptions {
  std::string vcd, fst;                  // waveform files ("" = none)
  std::vector<std::string> trace;        // probe globs (all when empty)
  std::string txn_trace;                 // Chrome trace-event JSON ("" = none)
  std::uint64_t txn_trace_limit = 200000;
  std::ostream* progress = nullptr;      // where the progress line goes (nullptr = nowhere)
  unsigned progress_interval_ms = 500;   // host time between progress lines
};

class Simulation {
 public:
  // Sets up logging (log.*), the clock domains (clocks.*) and statistics from the configuration.
  explicit Simulation(Config config, const std::string& log_file = "");
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Before elaboration: what to record (models look at txn_trace() when they are built).
  void observe(const ObserveOptions& options);
  // Where a run interrupted by Ctrl-C or SIGTERM writes its outputs so far (none unless set).
  void write_outputs_on_interrupt(const std::string& dir, const std::vector<std::string>& command_line) {
    interrupt_dir_ = dir;
    interrupt_command_line_ = command_line;
  }

  Config& config() { return config_; }
  const Config& config() const { return config_; }
  StatsRegistry& stats() { return stats_; }
  Logging& logging() { return logging_; }
  std::shared_ptr<spdlog::logger> logger(const std::string& name) { return logging_.get(name); }
  // A module's statistics and probes under its hierarchical name: counter(*this, "hits", ...)
  // is "<module name>.hits".
  Counter& counter(const sc_core::sc_object& owner, const std::string& leaf, const std::string& description,
                   const std::string& unit) {
    return stats_.counter(std::string(owner.name()) + "." + leaf, description, unit);
  }
  Average& average(const sc_core::sc_object& owner, const std::string& leaf, const std::string& description,
                   const std::string& unit) {
    return stats_.average(std::string(owner.name()) + "." + leaf, description, unit);
  }
  Distribution& distribution(const sc_core::sc_object& owner, const std::string& leaf, const std::string& description,
                             const std::string& unit, double low, double width, std::size_t buckets) {
    return stats_.distribution(std::string(owner.name()) + "." + leaf, description, unit, low, width, buckets);
  }
  Probe& probe(const sc_core::sc_object& owner, const std::string& leaf, unsigned width, const std::string& description) {
    return probes_.add(std::string(owner.name()) + "." + leaf, width, description);
  }
  ProbeRegistry& probes() { return probes_; }
  Probe& probe(const std::string& name, unsigned width, const std::string& description) {
    return probes_.add(name, width, description);
  }
  // The transaction trace, or nullptr when none is recorded: models test it before tracing.
  TxnTrace* txn_trace() { return txn_trace_.get(); }

  ClockScheduler& clock(const std::string& domain);  // "core", "interconnect", "l2", "dram"
  const std::vector<std::unique_ptr<ClockScheduler>>& clocks() const { return clocks_; }

  // A random stream for one module: the run's seed mixed with the module's name, so adding a
  // module does not shift the numbers another one draws.
  std::mt19937_64 rng(const std::string& module_name) const;
  std::size_t random_streams() const { return random_streams_; }  // how many rng() handed out
  std::uint64_t seed() const { return seed_; }
  // Whether AT hops are bound through a TLM base-protocol checker (sim.check_protocol, or a debug build).
  bool check_protocol() const { return check_protocol_; }

  // Memory transactions completed, for the simulation-speed report; completing one is progress.
  Counter& transactions() { return *transactions_; }
  // Forward progress (work retired): the watchdog ends a run that makes none for too long.
  void note_progress() { ++progress_; }
  // Registers a module's report of pending work for the watchdog and the end-of-run check.
  void watch(const std::string& name, const Outstanding& o) { watched_.emplace_back(name, &o); }
  std::vector<std::string> outstanding() const;  // "name: item" lines, all modules
  // A labelled snapshot of every statistic now (one per kernel launch).
  void snapshot(const std::string& label);

  // Elaboration done: rejects user-set keys no model read, then simulates until no activity is
  // left (or sim.time_limit). Throws irr::Error (exit 1) on a simulation error, when the watchdog
  // fires, or when the run ends with work outstanding; traces are written either way. Ctrl-C or
  // SIGTERM stops it at the next clock edge: the outputs so far go to write_outputs_on_interrupt's folder,
  // marked incomplete, and it throws (exit 130); a second signal ends the process at once.
  RunReport run();
  // The run ran to its end but not as asked (a CUDA program whose calls irrgpu refused): its outputs
  // are marked incomplete with why, as an interrupted run's are.
  void mark_incomplete(const std::string& why) {
    if (report_.incomplete.empty()) report_.incomplete = why;
  }
  // config.yaml, stats.json, stats.csv, run.json into dir (created if missing); after an
  // interrupted run (or one marked so), stats.json and run.json carry "incomplete": why, and stats.csv
  // an "incomplete" row.
  void write_outputs(const std::string& dir, const std::vector<std::string>& command_line) const;
  // The readable summary: statistics matching the pattern, then the simulation speed.
  void print_summary(std::ostream& out, const std::string& pattern) const;
  std::string speed_line() const;
  nlohmann::json run_json(const std::vector<std::string>& command_line) const;

 private:
  class Monitor;
  void finish_traces();

  Config config_;
  Logging logging_;
  StatsRegistry stats_;
  ProbeRegistry probes_;
  std::uint64_t seed_;
  Picoseconds time_limit_;
  Picoseconds sample_interval_ = 0;
  std::uint64_t watchdog_cycles_ = 0;
  bool run_ahead_ = true;  // sim.run_ahead
  bool check_protocol_ = false;
  mutable std::size_t random_streams_ = 0;
  std::vector<std::unique_ptr<ClockScheduler>> clocks_;
  Counter* transactions_;
  std::uint64_t progress_ = 0;
  std::vector<std::pair<std::string, const Outstanding*>> watched_;
  ObserveOptions observe_;
  std::string interrupt_dir_;
  std::vector<std::string> interrupt_command_line_;
  std::unique_ptr<TxnTrace> txn_trace_;
  std::unique_ptr<VcdWriter> vcd_;
  std::unique_ptr<Monitor> monitor_;
  RunReport report_;
  std::string started_at_;
};

std::string version_string();
nlohmann::json versions();

}  // namespace irr::sim
