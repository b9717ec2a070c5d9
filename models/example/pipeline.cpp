// SPDX-License-Identifier: Apache-2.0
#include "models/example/pipeline.h"

namespace irr::example {

Producer::Producer(const sc_core::sc_module_name& name, sim::Simulation& sim, sim::TimedQueue<Request>& queue,
                   Server& server)
    : sc_core::sc_module(name),
      queue_(queue),
      server_(server),
      log_(sim.logger(this->name())),
      rng_(sim.rng(this->name())),
      issue_(sim.config().get_real("example.issue_probability")),
      total_(sim.config().get_uint("example.requests")),
      burst_(sim.config().get_uint("example.burst")),
      gap_(sim.config().get_uint("example.gap")),
      issued_(sim.stats().counter(std::string(this->name()) + ".issued", "requests issued", "requests")),
      stall_cycles_(sim.stats().counter(std::string(this->name()) + ".stall_cycles",
                                        "cycles a ready request waited for room in the queue", "cycles")) {
  sim.clock("core").add(*this);
  wake();  // from cycle 0
}

bool Producer::tick(sim::Cycle cycle) {
  if (next_id_ == total_) return false;
  if (!issue_(rng_)) return true;  // nothing ready this cycle
  const sim::Picoseconds now = sim::now_ps();
  if (!queue_.can_push(now)) {
    ++stall_cycles_;
    return true;
  }
  queue_.push({next_id_, now}, now);
  server_.wake();
  ++issued_;
  log_->trace("issued request {}", next_id_);
  if (++next_id_ % burst_ == 0 && next_id_ < total_) {
    // End of a burst: sleep through the gap. The scheduler skips these idle cycles entirely.
    log_->debug("burst {} issued; idle for {} cycles", next_id_ / burst_ - 1, gap_);
    wake_at(cycle + gap_ + 1);
    return false;
  }
  return next_id_ < total_;
}

Server::Server(const sc_core::sc_module_name& name, sim::Simulation& sim, sim::TimedQueue<Request>& queue)
    : sc_core::sc_module(name),
      sim_(sim),
      queue_(queue),
      log_(sim.logger(this->name())),
      slots_(sim.config().get_uint("example.servers")),
      service_cycles_(sim.config().get_uint("example.service_cycles")),
      burst_(sim.config().get_uint("example.burst")),
      completed_(sim.stats().counter(std::string(this->name()) + ".completed", "requests served", "requests")),
      latency_(sim.stats().distribution(std::string(this->name()) + ".latency",
                                        "time from issue to completion of a request", "ns", 0, 10, 50)),
      occupancy_(sim.stats().average(std::string(this->name()) + ".occupancy",
                                     "requests in service, averaged over the cycles the server worked", "requests")) {
  sim.clock("dram").add(*this);
}

bool Server::tick(sim::Cycle cycle) {
  const sim::Picoseconds now = sim::now_ps();
  // Completions leave in issue order: every request takes the same service time.
  std::size_t done = 0;
  while (done < in_service_.size() && in_service_[done].first <= cycle) {
    const Request& r = in_service_[done].second;
    latency_.sample(static_cast<double>(now - r.issued) / 1000.0);
    ++completed_;
    ++sim_.transactions();
    if (completed_.count() % burst_ == 0) {
      sim_.snapshot("burst " + std::to_string(completed_.count() / burst_ - 1));
      log_->info("burst {} served", completed_.count() / burst_ - 1);
    }
    ++done;
  }
  in_service_.erase(in_service_.begin(), in_service_.begin() + static_cast<std::ptrdiff_t>(done));
  while (in_service_.size() < slots_ && queue_.can_pop(now))
    in_service_.emplace_back(cycle + service_cycles_, queue_.pop(now));
  occupancy_.sample(static_cast<double>(in_service_.size()));
  return !in_service_.empty() || !queue_.empty();
}

Pipeline::Pipeline(const sc_core::sc_module_name& name, sim::Simulation& sim)
    : sc_core::sc_module(name),
      queue_(sim.config().get_uint("example.queue_depth")),
      server_("server", sim, queue_),
      producer_("producer", sim, queue_, server_) {}

}  // namespace irr::example
