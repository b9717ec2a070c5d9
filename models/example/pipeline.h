// SPDX-License-Identifier: Apache-2.0
// The example model: a request pipeline across two clock domains, small enough to read in one
// sitting and real enough to exercise configuration, clock domains, statistics, snapshots,
// logging, probes, the transaction trace and the watchdog. A producer in the core domain issues
// requests in bursts; a server in the DRAM domain serves them with a fixed number of parallel
// slots and a service time; a bounded queue joins them. docs/adding-a-model.md walks through it.
#pragma once

#include <spdlog/spdlog.h>
#include <random>
#include <systemc>

#include "sim/clock.h"
#include "sim/simulation.h"
#include "sim/timed_queue.h"

namespace irr::example {

struct Request {
  std::uint64_t id;
  sim::Picoseconds issued;
};

class Server;

class Producer : public sc_core::sc_module, public sim::Clocked, public sim::Outstanding {
 public:
  Producer(const sc_core::sc_module_name& name, sim::Simulation& sim, sim::TimedQueue<Request>& queue, Server& server);
  bool tick(sim::Cycle cycle) override;
  std::vector<std::string> outstanding() const override;

 private:
  sim::TimedQueue<Request>& queue_;
  Server& server_;
  std::shared_ptr<spdlog::logger> log_;
  sim::TxnTrace* trace_;
  sim::TxnTrace::Track queue_track_ = 0;
  std::mt19937_64 rng_;
  std::bernoulli_distribution issue_;
  const std::uint64_t total_, burst_, gap_;
  std::uint64_t next_id_ = 0;
  sim::Counter& issued_;
  sim::Counter& stall_cycles_;
  sim::Probe& issued_probe_;
  sim::Probe& stalled_probe_;
  sim::Probe& queue_probe_;
};

class Server : public sc_core::sc_module, public sim::Clocked, public sim::Outstanding {
 public:
  Server(const sc_core::sc_module_name& name, sim::Simulation& sim, sim::TimedQueue<Request>& queue);
  bool tick(sim::Cycle cycle) override;
  std::vector<std::string> outstanding() const override;

 private:
  sim::Simulation& sim_;
  sim::TimedQueue<Request>& queue_;
  std::shared_ptr<spdlog::logger> log_;
  sim::TxnTrace* trace_;
  sim::TxnTrace::Track track_ = 0, bursts_track_ = 0;
  const std::uint64_t slots_, service_cycles_, burst_;
  const bool stuck_;  // example.stuck: never completes anything (to show the watchdog)
  std::vector<std::pair<sim::Cycle, Request>> in_service_;  // (completion cycle, request), FIFO
  sim::Picoseconds burst_start_ = 0;
  sim::Counter& completed_;
  sim::Distribution& latency_;
  sim::Average& occupancy_;
  sim::Probe& in_service_probe_;
  sim::Probe& completed_probe_;
};

// The top of the example: the queue, the producer and the server.
class Pipeline : public sc_core::sc_module {
 public:
  Pipeline(const sc_core::sc_module_name& name, sim::Simulation& sim);

 private:
  sim::TimedQueue<Request> queue_;
  Server server_;
  Producer producer_;
};

}  // namespace irr::example
