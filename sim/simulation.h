// SPDX-License-Identifier: Apache-2.0
// One simulation run: the services every module is built with (configuration, logging,
// statistics, clock domains, seeded random streams) and the run itself (sc_start until nothing is
// left to do, time series sampling, outputs). A module takes (sc_module_name, Simulation&).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "sim/clock.h"
#include "sim/config.h"
#include "sim/log.h"
#include "sim/stats.h"

namespace irr::sim {

struct RunReport {
  double host_seconds = 0;
  Picoseconds simulated_ps = 0;
};

class Simulation {
 public:
  // Sets up logging (log.*), the clock domains (clocks.*) and statistics from the configuration.
  explicit Simulation(Config config, const std::string& log_file = "");
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  Config& config() { return config_; }
  const Config& config() const { return config_; }
  StatsRegistry& stats() { return stats_; }
  Logging& logging() { return logging_; }
  std::shared_ptr<spdlog::logger> logger(const std::string& name) { return logging_.get(name); }

  ClockScheduler& clock(const std::string& domain);  // "core", "interconnect", "l2", "dram"
  const std::vector<std::unique_ptr<ClockScheduler>>& clocks() const { return clocks_; }

  // A random stream for one module: the run's seed mixed with the module's name, so adding a
  // module does not shift the numbers another one draws.
  std::mt19937_64 rng(const std::string& module_name) const;
  std::uint64_t seed() const { return seed_; }

  // Memory transactions completed, for the simulation-speed report (models count them).
  Counter& transactions() { return *transactions_; }
  // A labelled snapshot of every statistic now (one per kernel launch).
  void snapshot(const std::string& label);

  // Elaboration done: rejects user-set keys no model read, then simulates until no activity is
  // left (or sim.time_limit). Throws irr::Error (exit 1) on a simulation error.
  RunReport run();
  // config.yaml, stats.json, stats.csv, run.json into dir (created if missing).
  void write_outputs(const std::string& dir, const std::vector<std::string>& command_line) const;
  // The readable summary: statistics matching the pattern, then the simulation speed.
  void print_summary(std::ostream& out, const std::string& pattern) const;
  std::string speed_line() const;
  nlohmann::json run_json(const std::vector<std::string>& command_line) const;

 private:
  class Sampler;
  Config config_;
  Logging logging_;
  StatsRegistry stats_;
  std::uint64_t seed_;
  Picoseconds time_limit_;
  std::vector<std::unique_ptr<ClockScheduler>> clocks_;
  Counter* transactions_;
  std::unique_ptr<Sampler> sampler_;
  RunReport report_;
  std::string started_at_;
};

// Default output of irr version: "irrgpu 0.1.0 (SystemC 2.3.4, ...)"
std::string version_string();
nlohmann::json versions();

}  // namespace irr::sim
