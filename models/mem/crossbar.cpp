// SPDX-License-Identifier: Apache-2.0
#include "models/mem/crossbar.h"

#include <algorithm>

#include "sim/bitmap.h"
#include "sim/divide.h"

namespace irr::mem {

using tlm_glue::Access;
using tlm_glue::gpu;

Crossbar::Crossbar(const sc_core::sc_module_name& name, sim::Simulation& sim, std::uint32_t sms, std::uint32_t partitions,
                   const std::vector<std::string>& sources)
    : sc_core::sc_module(name),
      sms_(sms + static_cast<std::uint32_t>(sources.size())),
      partitions_(partitions),
      latency_(static_cast<std::uint32_t>(sim.config().get_uint("interconnect.latency"))),
      flit_size_(static_cast<std::uint32_t>(sim.config().get_size("interconnect.flit_size"))),
      replies_in_(partitions),
      req_packets_(sim.counter(*this, "request.packets", "packets on the request network", "packets")),
      req_flits_(sim.counter(*this, "request.flits", "flits on the request network", "flits")),
      rep_packets_(sim.counter(*this, "reply.packets", "packets on the reply network", "packets")),
      rep_flits_(sim.counter(*this, "reply.flits", "flits on the reply network", "flits")),
      req_bytes_(sim.counter(*this, "request.bytes", "data bytes on the request network", "bytes")),
      rep_bytes_(sim.counter(*this, "reply.bytes", "data bytes on the reply network", "bytes")),
      contention_(sim.counter(*this, "contention_cycles",
                                      "input-cycles a head packet waited for its output", "cycles")),
      in_flight_probe_(sim.probe(*this, "in_flight", 16, "packets on the links")),
      trace_(sim.txn_trace()) {
  if (trace_) {
    for (std::uint32_t j = 0; j < partitions; ++j) req_tracks_.push_back(trace_->track("interconnect", "to partition " + std::to_string(j)));
    for (std::uint32_t i = 0; i < sms; ++i) rep_tracks_.push_back(trace_->track("interconnect", "to SM " + std::to_string(i)));
    for (const auto& s : sources) rep_tracks_.push_back(trace_->track("interconnect", "to " + s));
  }
  if (flit_size_ == 0) throw Error("interconnect.flit_size must be at least 1 byte", Error::Kind::config);
  const std::uint64_t buffer = sim.config().get_uint("interconnect.input_buffer");
  for (std::uint32_t i = 0; i < sms; ++i)
    sm_side.push_back(std::make_unique<tlm_glue::AtTarget>(("sm_side_" + std::to_string(i)).c_str(), *this, buffer));
  for (const auto& s : sources) sm_side.push_back(std::make_unique<tlm_glue::AtTarget>((s + "_side").c_str(), *this, buffer));
  for (std::uint32_t j = 0; j < partitions; ++j)
    mem_side.push_back(std::make_unique<tlm_glue::AtInitiator>(("mem_side_" + std::to_string(j)).c_str(), *this));
  inputs_busy_.resize((sms_ + 63) / 64);
  responses_waiting_.resize((partitions + 63) / 64);
  for (std::uint32_t i = 0; i < sms_; ++i) sm_side[i]->flag_arrivals(inputs_busy_, i);
  for (std::uint32_t j = 0; j < partitions; ++j) mem_side[j]->flag_arrivals(responses_waiting_, j);
  req_ = {std::vector<sim::Cycle>(partitions, 0), std::vector<std::uint32_t>(partitions, 0),
          std::vector<sim::Fifo<InFlight>>(partitions), std::vector<std::uint64_t>((partitions + 63) / 64)};
  rep_ = {std::vector<sim::Cycle>(sms_, 0), std::vector<std::uint32_t>(sms_, 0), std::vector<sim::Fifo<InFlight>>(sms_),
          std::vector<std::uint64_t>((sms_ + 63) / 64)};
  head_.resize(sms_);
  wanted_.resize(partitions);
  rep_head_.assign(partitions, sms_);
  rep_targets_.resize((sms_ + 63) / 64);
  sim.clock("interconnect").add(*this);
  sim.watch(this->name(), *this);
}

std::uint32_t Crossbar::request_flits(const tlm::tlm_generic_payload& p) const {
  const auto& g = gpu(p);
  return g.access == Access::load ? 1 : 1 + static_cast<std::uint32_t>(sim::quotient(g.bytes + flit_size_ - 1, flit_size_));
}

std::uint32_t Crossbar::reply_flits(const tlm::tlm_generic_payload& p) const {
  const auto& g = gpu(p);
  return g.access == Access::store ? 1 : 1 + static_cast<std::uint32_t>(sim::quotient(g.bytes + flit_size_ - 1, flit_size_));
}

bool Crossbar::step_requests(sim::Cycle c, sim::Picoseconds now) {
  if (req_.due <= c) {  // a packet arrives (or waits for its partition to take it)
    req_.due = sim::kNever;
    sim::for_each_set_bit(req_.flying, [&](std::size_t j) {
      auto& flight = req_.in_flight[j];
      if (flight.front().deliver_at <= c && mem_side[j]->can_send(now)) {
        mem_side[j]->send(*flight.front().p, now);
        flight.pop_front();
        --in_flight_;
      }
      if (!flight.empty()) req_.due = std::min(req_.due, flight.front().deliver_at);
      else sim::clear_bit(req_.flying, j);
    });
  }
  bool busy = req_.due != sim::kNever;
  // The inputs holding packets, in port order, and each one's head packet and the output it
  // wants (none: partitions_), found once per cycle; the other inputs have nothing to do.
  waiting_.clear();
  std::fill(wanted_.begin(), wanted_.end(), 0);  // per output: how many heads go to it
  bool any = false;
  sim::for_each_set_bit(inputs_busy_, [&](std::size_t i) { waiting_.push_back(static_cast<std::uint32_t>(i)); });
  for (std::uint32_t i : waiting_) {
    head_[i] = partitions_;
    if (sm_side[i]->has_request(now)) {
      head_[i] = gpu(sm_side[i]->front()).partition;
      ++wanted_[head_[i]];
      any = true;
    }
  }
  for (std::uint32_t j = 0; any && j < partitions_; ++j) {
    if (req_.link_free[j] > c || !wanted_[j]) continue;
    // Round-robin from the input after the last one granted.
    const std::size_t n = waiting_.size(),
                      from = static_cast<std::size_t>(std::lower_bound(waiting_.begin(), waiting_.end(), req_.next_input[j]) -
                                                      waiting_.begin());
    for (std::size_t k = 0; k < n; ++k) {
      const std::uint32_t i = waiting_[from + k < n ? from + k : from + k - n];
      if (head_[i] != j) continue;
      head_[i] = partitions_;
      tlm::tlm_generic_payload& p = sm_side[i]->pop_request(now);
      const std::uint32_t flits = request_flits(p);
      req_.link_free[j] = c + flits;
      req_.in_flight[j].push_back({c + flits - 1 + latency_, &p});
      sim::set_bit(req_.flying, j);
      req_.due = std::min(req_.due, c + flits - 1 + latency_);
      ++in_flight_;
      req_.next_input[j] = i + 1 == sms_ ? 0 : i + 1;
      if (trace_) trace_->hop(gpu(p).txn, req_tracks_[j], "request");
      ++req_packets_;
      req_flits_ += flits;
      if (gpu(p).access != Access::load) req_bytes_ += gpu(p).bytes;
      busy = true;
      break;
    }
  }
  inputs_waiting_ = false;
  for (std::uint32_t i : waiting_) {
    sm_side[i]->accept_pending(now);
    if (sm_side[i]->has_request(now)) ++contention_;  // its head waited this cycle
    if (sm_side[i]->busy()) inputs_waiting_ = true;
    else sim::clear_bit(inputs_busy_, i);
  }
  return busy || inputs_waiting_;
}

bool Crossbar::step_replies(sim::Cycle c, sim::Picoseconds now) {
  sim::for_each_set_bit(responses_waiting_, [&](std::size_t j) {
    while (mem_side[j]->has_response(now)) {
      tlm::tlm_generic_payload& p = mem_side[j]->pop_response(now);
      const std::int32_t port = gpu(p).reply_port;
      const std::size_t in = port < 0 ? j : static_cast<std::size_t>(port);
      if (replies_in_[in].empty()) rep_head_[in] = gpu(p).sm;
      replies_in_[in].push_back(&p);
      ++replies_queued_;
    }
    if (!mem_side[j]->responses_waiting()) sim::clear_bit(responses_waiting_, j);
  });
  if (rep_.due <= c) {
    rep_.due = sim::kNever;
    sim::for_each_set_bit(rep_.flying, [&](std::size_t i) {
      auto& flight = rep_.in_flight[i];
      while (!flight.empty() && flight.front().deliver_at <= c) {
        sm_side[i]->respond(*flight.front().p);
        flight.pop_front();
        --in_flight_;
      }
      if (!flight.empty()) rep_.due = std::min(rep_.due, flight.front().deliver_at);
      else sim::clear_bit(rep_.flying, i);
    });
  }
  bool busy = rep_.due != sim::kNever;
  // The SMs some partition's head reply goes to (a bitmap), visited in order: the partition's next
  // head may go to a later SM this cycle (to an earlier one: the next cycle).
  std::fill(rep_targets_.begin(), rep_targets_.end(), 0);
  for (std::uint32_t j = 0; replies_queued_ && j < partitions_; ++j)
    if (rep_head_[j] < sms_) sim::set_bit(rep_targets_, rep_head_[j]);
  sim::for_each_set_bit(rep_targets_, [&](std::size_t sm) {
    const auto i = static_cast<std::uint32_t>(sm);
    if (rep_.link_free[i] > c) return;
    for (std::uint32_t k = 0, j = rep_.next_input[i]; k < partitions_; ++k, j = j + 1 == partitions_ ? 0 : j + 1) {
      if (rep_head_[j] != i) continue;
      tlm::tlm_generic_payload* p = replies_in_[j].front();
      replies_in_[j].pop_front();
      --replies_queued_;
      rep_head_[j] = replies_in_[j].empty() ? sms_ : gpu(*replies_in_[j].front()).sm;
      if (rep_head_[j] < sms_) sim::set_bit(rep_targets_, rep_head_[j]);
      const std::uint32_t flits = reply_flits(*p);
      rep_.link_free[i] = c + flits;
      rep_.in_flight[i].push_back({c + flits - 1 + latency_, p});
      sim::set_bit(rep_.flying, i);
      rep_.due = std::min(rep_.due, c + flits - 1 + latency_);
      ++in_flight_;
      rep_.next_input[i] = j + 1 == partitions_ ? 0 : j + 1;
      if (trace_) trace_->hop(gpu(*p).txn, rep_tracks_[i], "reply");
      ++rep_packets_;
      rep_flits_ += flits;
      if (gpu(*p).access != Access::store) rep_bytes_ += gpu(*p).bytes;
      busy = true;
      break;
    }
  });
  return busy || replies_queued_;
}

bool Crossbar::tick(sim::Cycle c) {
  const sim::Picoseconds now = sim::now_ps();
  const bool a = step_requests(c, now);
  const bool b = step_replies(c, now);
  in_flight_probe_.set(std::min<std::uint64_t>(in_flight_, 0xffff));
  return (a || b) && idle_until(c, next_work(c));
}

// The first cycle after c at which a tick can change anything: the next one while a packet waits
// at an input (its head counts contention each cycle) or a reply has come from a partition, else
// when the first packet on a link arrives (a request whose partition still withholds END_REQ
// included: the END_REQ wakes the crossbar, but each tick tries again, so it ticks on).
sim::Cycle Crossbar::next_work(sim::Cycle c) const {
  const sim::Cycle soon = c + 1;
  if (inputs_waiting_ || replies_queued_ || sim::any_bit(responses_waiting_)) return soon;
  return std::max(std::min(req_.due, rep_.due), soon);
}

std::vector<std::string> Crossbar::outstanding() const {
  std::uint64_t n = in_flight_;
  n += replies_queued_;
  for (const auto& t : sm_side) n += t->queued();
  if (!n) return {};
  return {std::to_string(n) + " packets queued or on links"};
}

}  // namespace irr::mem
