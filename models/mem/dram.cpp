// SPDX-License-Identifier: Apache-2.0
#include "models/mem/dram.h"

#include <algorithm>

namespace irr::mem {

DramTiming DramTiming::from(const sim::Config& c) {
  DramTiming t;
  t.model = c.get_string("dram.model");
  t.latency = static_cast<std::uint32_t>(c.get_uint("dram.latency"));
  t.controller_latency = static_cast<std::uint32_t>(c.get_uint("dram.controller_latency"));
  t.banks = static_cast<std::uint32_t>(c.get_uint("dram.banks"));
  t.bus_width = static_cast<std::uint32_t>(c.get_size("dram.bus_width"));
  t.data_rate = static_cast<std::uint32_t>(c.get_uint("dram.data_rate"));
  t.burst_length = static_cast<std::uint32_t>(c.get_uint("dram.burst_length"));
  t.queue = static_cast<std::uint32_t>(c.get_uint("dram.queue"));
  t.queue_per_bank = static_cast<std::uint32_t>(c.get_uint("dram.queue_per_bank"));
  t.row_size = c.get_size("dram.row_size");
  t.tRCD = static_cast<std::uint32_t>(c.get_uint("dram.tRCD"));
  t.tRP = static_cast<std::uint32_t>(c.get_uint("dram.tRP"));
  t.tRAS = static_cast<std::uint32_t>(c.get_uint("dram.tRAS"));
  t.tCL = static_cast<std::uint32_t>(c.get_uint("dram.tCL"));
  t.tRRD = static_cast<std::uint32_t>(c.get_uint("dram.tRRD"));
  t.fr_fcfs = c.get_string("dram.scheduler") == "fr_fcfs";
  return t;
}

DramChannel::DramChannel(const sc_core::sc_module_name& name, sim::Simulation& sim, const DramTiming& t,
                         sim::TimedQueue<DramRequest>& done, sim::Clocked& owner)
    : sc_core::sc_module(name),
      t_(t),
      fixed_(t.model == "fixed"),
      queue_(t.queue),
      done_(done),
      owner_(owner),
      waiting_in_bank_(t.banks, 0),
      banks_(t.banks),
      reads_(sim.counter(*this, "reads", "read accesses", "accesses")),
      writes_(sim.counter(*this, "writes", "write accesses", "accesses")),
      row_hits_(sim.counter(*this, "row_hits", "accesses to the open row", "accesses")),
      row_misses_(sim.counter(*this, "row_misses", "accesses to a closed bank", "accesses")),
      row_conflicts_(sim.counter(*this, "row_conflicts",
                                         "accesses that closed another row first", "accesses")),
      bus_busy_(sim.counter(*this, "bus_busy_cycles", "cycles the data bus carried data",
                                    "cycles")),
      queue_occupancy_(sim.average(*this, "queue_occupancy",
                                           "requests waiting, averaged over the cycles the channel worked", "requests")),
      latency_(sim.distribution(*this, "latency",
                                        "cycles from arrival to the last data beat", "cycles", 0, 20, 50)),
      queue_probe_(sim.probe(*this, "queue", sim::bits_for((t.queue + t.banks * t.queue_per_bank) * 2 + 64), "requests in the channel")) {
  sim::ClockScheduler& clock = sim.clock("dram");
  clock.add(*this);
  sim.stats().formula(std::string(this->name()) + ".bandwidth_utilisation",
                      "share of the run's DRAM cycles the data bus carried data", "ratio", [this, &clock] {
                        const double cycles = static_cast<double>(clock.domain().cycle_at(sim::now_ps()));
                        return cycles > 0 ? bus_busy_.value() / cycles : 0.0;
                      });
  sim.watch(this->name(), *this);
}

void DramChannel::accept(const DramRequest& r, sim::Picoseconds now) {
  queue_.push(r, now);
  wake();
}

bool DramChannel::tick(sim::Cycle c) {
  const sim::Picoseconds now = sim::now_ps();
  if (slept_) catch_up(c);
  slept_ = false;
  last_tick_ = c;
  // Requests that crossed from the partition join the scheduler's queue.
  while (queue_.can_pop(now) && room_for_head()) {
    const DramRequest r = queue_.pop(now);
    waiting_.push_back({r, c, serial_++, bank_of(r.address), row_of(r.address)});
    ++waiting_in_bank_[waiting_.back().bank];
    quiet_until_ = 0;
  }
  const bool more = fixed_ ? tick_fixed(c) : tick_detailed(c);
  // Finished accesses go back to the partition, in completion order then arrival (in_flight_'s).
  bool finished = false;
  while (!in_flight_.empty() && in_flight_.front().done <= c) {
    done_.push(in_flight_.front().req, now);
    latency_.sample(static_cast<double>(c - in_flight_.front().arrived));
    in_flight_.pop_front();
    finished = true;
  }
  if (finished) owner_.wake();
  queue_occupancy_.sample(static_cast<double>(waiting_.size()));
  queue_probe_.set(std::min<std::uint64_t>(waiting_.size() + in_flight_.size(), (1ull << queue_probe_.width()) - 1));
  if (!more && waiting_.empty() && in_flight_.empty() && queue_.empty()) return false;
  // The first cycle at which a tick can change anything: a command (the first a waiting request's
  // bank and the bus allow, worked out after this cycle's command, if any), a request joining from the
  // partition's queue (which wakes the channel as it arrives), an access finishing. Until then
  // the channel sleeps holding: every cycle counts as worked, its occupancy charged on waking.
  sim::Cycle next = sim::kNever;
  if (!waiting_.empty()) next = quiet_until_ > c ? quiet_until_ : c + 1;
  if (!queue_.empty() && room_for_head()) next = c + 1;
  if (!in_flight_.empty()) next = std::min(next, in_flight_.front().done);
  slept_ = next > c + 1;
  return idle_until(c, next);
}

void DramChannel::catch_up(sim::Cycle edge) {
  if (edge <= last_tick_ + 1) return;
  queue_occupancy_.sample(static_cast<double>(waiting_.size()), edge - last_tick_ - 1);  // as each tick would
  last_tick_ = edge - 1;
}

void DramChannel::start(const Pending& p) {
  // At the back, almost always: the data bus serves commands in issue order.
  in_flight_.insert_ordered(p, [](const Pending& a, const Pending& b) { return a.done != b.done ? a.done < b.done : a.arrived < b.arrived; });
}

void DramChannel::leave_queue(std::vector<Pending>::iterator p) {
  --waiting_in_bank_[p->bank];
  waiting_.erase(p);
}

bool DramChannel::tick_fixed(sim::Cycle c) {
  if (!waiting_.empty()) {
    Pending p = waiting_.front();
    leave_queue(waiting_.begin());
    p.done = c + t_.latency;
    (p.req.write ? writes_ : reads_) += 1;
    start(p);
  }
  return false;
}

// The earliest cycle after `c` at which some waiting request could have a command issued: its
// column command on its open row, an activate of its closed bank, a precharge of its bank open on
// another row. Each term is a bound the command's own test in tick_detailed needs; the minimum
// over all requests is never later than the command the scheduler will pick.
sim::Cycle DramChannel::first_possible(sim::Cycle c) const {
  sim::Cycle first = ~sim::Cycle{0};
  for (const Pending& p : waiting_) {
    const Bank& b = banks_[p.bank];
    sim::Cycle at;
    if (b.open && b.row == p.row) at = std::max<sim::Cycle>(b.col_ready, bus_free_ > t_.tCL ? bus_free_ - t_.tCL : 0);
    else if (!b.open) at = std::max(b.act_ready, next_act_);
    else at = b.pre_ready;
    first = std::min(first, at);
  }
  return std::max(first, c + 1);
}

bool DramChannel::tick_detailed(sim::Cycle c) {
  if (waiting_.empty()) return false;
  if (c < quiet_until_) return true;  // nothing can issue yet: the walk below would find nothing
  issue_command(c);
  quiet_until_ = first_possible(c);  // after this cycle's command, if any
  return true;
}

// This cycle's command, if one can go. FR-FCFS: the oldest request to an open row whose column
// command can go now; otherwise the oldest request, for which a precharge or an activate is
// issued. One command per cycle.
void DramChannel::issue_command(sim::Cycle c) {
  auto col_ok = [&](const Pending& p) {
    const Bank& b = banks_[p.bank];
    return b.open && b.row == p.row && b.col_ready <= c && bus_free_ <= c + t_.tCL;
  };
  auto pick = waiting_.end();
  if (t_.fr_fcfs) {
    pick = std::find_if(waiting_.begin(), waiting_.end(), col_ok);
  } else if (col_ok(waiting_.front())) {
    pick = waiting_.begin();
  }
  if (pick != waiting_.end()) {
    Pending p = *pick;
    leave_queue(pick);
    Bank& b = banks_[p.bank];
    const std::uint32_t burst = t_.burst_cycles(p.req.bytes);
    const sim::Cycle data = std::max<sim::Cycle>(c + t_.tCL, bus_free_);
    bus_free_ = data + burst;
    bus_busy_ += burst;
    b.col_ready = c + burst;  // back-to-back column commands to a bank every burst
    p.done = data + burst + t_.controller_latency;  // the bus is free again at data + burst
    if (b.opened_for != p.serial) ++row_hits_;
    else if (b.conflict) ++row_conflicts_;
    else ++row_misses_;
    (p.req.write ? writes_ : reads_) += 1;
    start(p);
    return;
  }
  // No column command this cycle: prepare a bank. FR-FCFS: for the oldest request whose bank is
  // closed (activate) or open on another row that no waiting request still hits (precharge), so
  // other banks' rows open while the data bus serves row hits. FCFS: only for the oldest, whose
  // row is opened whatever younger requests hit (they wait for it: keeping their row open for
  // them would deadlock).
  if (t_.fr_fcfs) {  // banks whose open row some waiting request still hits: those are not closed
    hits_pending_.assign(banks_.size(), 0);
    for (const Pending& p : waiting_) {
      const Bank& b = banks_[p.bank];
      if (b.open && b.row == p.row) hits_pending_[p.bank] = 1;
    }
  }
  for (const Pending& p : waiting_) {
    Bank& b = banks_[p.bank];
    const std::uint64_t row = p.row;
    if (!b.open && b.act_ready <= c && next_act_ <= c) {
      next_act_ = c + t_.tRRD;
      b.open = true;
      b.row = row;
      b.col_ready = c + t_.tRCD;
      b.pre_ready = c + t_.tRAS;
      b.conflict = b.opened_for == p.serial;  // this request closed another row first
      b.opened_for = p.serial;
      return;
    }
    if (b.open && b.row != row && b.pre_ready <= c && (!t_.fr_fcfs || !hits_pending_[p.bank])) {
      b.open = false;
      b.act_ready = c + t_.tRP;
      b.opened_for = p.serial;  // marks the precharge as this request's
      return;
    }
    if (!t_.fr_fcfs) break;
  }
}

std::vector<std::string> DramChannel::outstanding() const {
  if (waiting_.empty() && in_flight_.empty() && queue_.empty()) return {};
  return {std::to_string(waiting_.size() + queue_.size()) + " requests queued, " + std::to_string(in_flight_.size()) +
          " in flight"};
}

}  // namespace irr::mem
