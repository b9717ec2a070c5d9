// SPDX-License-Identifier: Apache-2.0
#include "models/example/pipeline.h"

namespace irr::example {
namespace {
std::string at(sim::Picoseconds ps) { return sc_core::sc_time(static_cast<double>(ps), sc_core::SC_PS).to_string(); }
}  // namespace

Producer::Producer(const sc_core::sc_module_name& name, sim::Simulation& sim, sim::TimedQueue<Request>& queue,
                   Server& server)
    : sc_core::sc_module(name),
      queue_(queue),
      server_(server),
      log_(sim.logger(this->name())),
      trace_(sim.txn_trace()),
      rng_(sim.rng(this->name())),
      issue_(sim.config().get_real("example.issue_probability")),
      total_(sim.config().get_uint("example.requests")),
      burst_(sim.config().get_uint("example.burst")),
      gap_(sim.config().get_uint("example.gap")),
      issued_(sim.counter(*this, "issued", "requests issued", "requests")),
      stall_cycles_(sim.counter(*this, "stall_cycles",
                                        "cycles a ready request waited for room in the queue", "cycles")),
      issued_probe_(sim.probe(*this, "issued", sim::bits_for(total_), "requests issued so far")),
      stalled_probe_(sim.probe(*this, "stalled", 1, "a ready request waits for queue room")),
      queue_probe_(sim.probe(*this, "queue_occupancy", sim::bits_for(queue.capacity()),
                             "entries in the queue as the producer saw it")) {
  if (trace_) queue_track_ = trace_->track("example", "queue");
  sim.clock("core").add(*this);
  sim.watch(this->name(), *this);
  wake();  // from cycle 0
}

bool Producer::tick(sim::Cycle cycle) {
  if (next_id_ == total_) return false;
  const sim::Picoseconds now = sim::now_ps();
  queue_probe_.set(queue_.size());
  if (!issue_(rng_)) return true;  // nothing ready this cycle
  if (!queue_.can_push(now)) {
    ++stall_cycles_;
    stalled_probe_.set(1);
    return true;
  }
  stalled_probe_.set(0);
  queue_.push({next_id_, now}, now);
  if (trace_) trace_->begin(next_id_, queue_track_, "queued");
  server_.wake();
  ++issued_;
  issued_probe_.set(issued_.count());
  log_->trace("issued request {}", next_id_);
  if (++next_id_ % burst_ == 0 && next_id_ < total_) {
    // End of a burst: sleep through the gap. The scheduler skips these idle cycles entirely.
    log_->debug("burst {} issued; idle for {} cycles", next_id_ / burst_ - 1, gap_);
    wake_at(cycle + gap_ + 1);
    return false;
  }
  return next_id_ < total_;
}

std::vector<std::string> Producer::outstanding() const {
  if (next_id_ == total_) return {};
  return {std::to_string(total_ - next_id_) + " requests not issued yet (next #" + std::to_string(next_id_) + ")"};
}

Server::Server(const sc_core::sc_module_name& name, sim::Simulation& sim, sim::TimedQueue<Request>& queue)
    : sc_core::sc_module(name),
      sim_(sim),
      queue_(queue),
      log_(sim.logger(this->name())),
      trace_(sim.txn_trace()),
      slots_(sim.config().get_uint("example.servers")),
      service_cycles_(sim.config().get_uint("example.service_cycles")),
      burst_(sim.config().get_uint("example.burst")),
      stuck_(sim.config().get_bool("example.stuck")),
      completed_(sim.counter(*this, "completed", "requests served", "requests")),
      latency_(sim.distribution(*this, "latency",
                                        "time from issue to completion of a request", "ns", 0, 10, 50)),
      occupancy_(sim.average(*this, "occupancy",
                                     "requests in service, averaged over the cycles the server worked", "requests")),
      in_service_probe_(sim.probe(*this, "in_service", sim::bits_for(slots_), "requests in service")),
      completed_probe_(sim.probe(*this, "completed", 32, "requests served so far")) {
  if (trace_) {
    track_ = trace_->track("example", "server");
    bursts_track_ = trace_->track("example", "bursts");
  }
  sim.clock("dram").add(*this);
  sim.watch(this->name(), *this);
}

bool Server::tick(sim::Cycle cycle) {
  const sim::Picoseconds now = sim::now_ps();
  // Completions leave in issue order: every request takes the same service time.
  std::size_t done = 0;
  while (!stuck_ && done < in_service_.size() && in_service_[done].first <= cycle) {
    const Request& r = in_service_[done].second;
    latency_.sample(static_cast<double>(now - r.issued) / 1000.0);
    ++completed_;
    ++sim_.transactions();
    if (trace_) trace_->end(r.id);
    if (completed_.count() % burst_ == 0) {
      const std::uint64_t burst = completed_.count() / burst_ - 1;
      sim_.snapshot("burst " + std::to_string(burst));
      if (trace_) trace_->span(bursts_track_, "burst " + std::to_string(burst), burst_start_, now);
      burst_start_ = now;
      log_->info("burst {} served", burst);
    }
    ++done;
  }
  in_service_.erase(in_service_.begin(), in_service_.begin() + static_cast<std::ptrdiff_t>(done));
  completed_probe_.set(completed_.count() & 0xffffffffu);
  while (in_service_.size() < slots_ && queue_.can_pop(now)) {
    in_service_.emplace_back(cycle + service_cycles_, queue_.pop(now));
    if (trace_) trace_->hop(in_service_.back().second.id, track_, "service");
  }
  in_service_probe_.set(in_service_.size());
  occupancy_.sample(static_cast<double>(in_service_.size()));
  return !in_service_.empty() || !queue_.empty();
}

std::vector<std::string> Server::outstanding() const {
  std::vector<std::string> lines;
  if (!in_service_.empty())
    lines.push_back(std::to_string(in_service_.size()) + " requests in service, oldest #" +
                    std::to_string(in_service_.front().second.id) + " issued at " + at(in_service_.front().second.issued));
  if (!queue_.empty()) lines.push_back(std::to_string(queue_.size()) + " requests queued");
  return lines;
}

Pipeline::Pipeline(const sc_core::sc_module_name& name, sim::Simulation& sim)
    : sc_core::sc_module(name),
      queue_(sim.config().get_uint("example.queue_depth")),
      server_("server", sim, queue_),
      producer_("producer", sim, queue_, server_) {}

}  // namespace irr::example
