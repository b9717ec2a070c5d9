// SPDX-License-Identifier: Apache-2.0
// One DRAM channel behind a memory partition, in its own clock domain. Two models:
//  - fixed: every access takes dram.latency cycles, one accepted per cycle (for configurations
//    that give only a latency, as kim4x16's "100 cycle DRAM latency");
//  - detailed: banks with row buffers, an FR-FCFS (or FCFS) scheduler, one command per cycle,
//    tRCD, tRP, tRAS, tCL, tRRD (activate to activate, any bank), and a data bus carrying
//    bus_width x data_rate bytes per cycle.
// Timing of a read (cycles from its command): row hit tCL + burst; closed row tRCD + tCL + burst;
// row conflict tRP + tRCD + tCL + burst, where burst is the data-bus time of whole bursts
// (burst_length x bus_width bytes each, data_rate transfers per cycle). Writes
// are timed as reads (tWL = tCL), a simplification stated in docs/memory.md.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/clock.h"
#include "sim/divide.h"
#include "sim/fifo.h"
#include "sim/simulation.h"
#include "sim/timed_queue.h"

namespace irr::mem {

struct DramRequest {
  std::uint64_t address;  // channel-local byte address (partition bits removed)
  bool write;
  std::uint32_t bytes;
  std::uint64_t tag;      // the partition's, returned on completion
  std::uint32_t sectors = ~0u;  // of the line, for a sector cache's fill
};

struct DramTiming {
  std::string model = "detailed";
  std::uint32_t latency = 100;  // fixed model
  std::uint32_t controller_latency = 0;  // detailed model: controller and PHY, beyond the device timing
  std::uint32_t banks = 16, bus_width = 8, data_rate = 4, burst_length = 8, queue = 32;
  std::uint32_t queue_per_bank = 0;  // 0: one shared scheduler queue of `queue` requests
  std::uint64_t row_size = 2048;
  std::uint32_t tRCD = 12, tRP = 12, tRAS = 28, tCL = 12, tRRD = 6;
  bool fr_fcfs = true;
  static DramTiming from(const sim::Config& c);
  // Data-bus cycles of an access: whole bursts of burst_length transfers of bus_width bytes,
  // data_rate transfers per cycle.
  std::uint32_t burst_cycles(std::uint32_t bytes) const {
    const std::uint32_t burst_bytes = burst_length * bus_width;
    const auto bursts = static_cast<std::uint32_t>(sim::quotient(bytes + burst_bytes - 1, burst_bytes));
    return bursts * ((burst_length + data_rate - 1) / data_rate);
  }
};

class DramChannel : public sc_core::sc_module, public sim::Clocked, public sim::Outstanding {
 public:
  // `done` receives completed requests (visible after the instant they complete), and `owner` is
  // woken for each.
  DramChannel(const sc_core::sc_module_name& name, sim::Simulation& sim, const DramTiming& t,
              sim::TimedQueue<DramRequest>& done, sim::Clocked& owner);
  bool can_accept(sim::Picoseconds now) const { return queue_.can_push(now); }
  void accept(const DramRequest& r, sim::Picoseconds now);
  bool tick(sim::Cycle cycle) override;
  void catch_up(sim::Cycle edge) override;
  std::vector<std::string> outstanding() const override;
  const DramTiming& timing() const { return t_; }

 private:
  struct Pending {
    DramRequest req;
    sim::Cycle arrived;
    std::uint64_t serial;
    std::uint32_t bank = 0;  // decoded once, at arrival
    std::uint64_t row = 0;
    sim::Cycle done = 0;
  };
  struct Bank {
    bool open = false;
    std::uint64_t row = 0;
    sim::Cycle act_ready = 0, col_ready = 0, pre_ready = 0;
    std::uint64_t opened_for = ~0ull;  // the request whose miss opened the row
    bool conflict = false;             // and whether another row had to be closed first
  };
  void start(const Pending& p);  // a column command issued: into in_flight_ in order
  bool tick_fixed(sim::Cycle c);
  bool tick_detailed(sim::Cycle c);
  void issue_command(sim::Cycle c);  // this cycle's command, if one can go
  std::uint32_t bank_of(std::uint64_t a) const {
    return static_cast<std::uint32_t>(sim::remainder(sim::quotient(a, t_.row_size), t_.banks));
  }
  std::uint64_t row_of(std::uint64_t a) const { return sim::quotient(sim::quotient(a, t_.row_size), t_.banks); }
  // Whether the scheduler's queue has room for the input buffer's head (per bank or shared).
  bool room_for_head() const {
    return t_.queue_per_bank ? waiting_in_bank_[bank_of(queue_.front().address)] < t_.queue_per_bank
                             : waiting_.size() < t_.queue;
  }
  void leave_queue(std::vector<Pending>::iterator p);  // a request's command issued: out of waiting_

  DramTiming t_;
  const bool fixed_;                    // t_.model is fixed
  sim::TimedQueue<DramRequest> queue_;  // from the partition
  sim::TimedQueue<DramRequest>& done_;
  sim::Clocked& owner_;
  std::vector<Pending> waiting_;                   // accepted, not yet issued (scheduler's queue: dram.queue at most, a few usually)
  std::vector<std::uint32_t> waiting_in_bank_;     // waiting_'s requests per bank (dram.queue_per_bank)
  sim::Fifo<Pending> in_flight_;                   // column command issued, data not finished; by (done, arrived)
  std::vector<Bank> banks_;
  sim::Cycle bus_free_ = 0, next_act_ = 0;
  // After each scheduling cycle: the first cycle at which a command could issue, until the
  // waiting requests change (the scheduler's walk is skipped before it; 0: not known).
  sim::Cycle quiet_until_ = 0;
  sim::Cycle first_possible(sim::Cycle c) const;
  // Asleep with work since cycle last_tick_ (nothing can change before a known cycle): the cycles
  // slept through are charged as ticking them would have (catch_up).
  bool slept_ = false;
  sim::Cycle last_tick_ = 0;
  std::vector<std::uint8_t> hits_pending_;  // scratch, per bank
  std::uint64_t serial_ = 0;
  sim::Counter &reads_, &writes_, &row_hits_, &row_misses_, &row_conflicts_, &bus_busy_;
  sim::Average& queue_occupancy_;
  sim::Distribution& latency_;
  sim::Probe& queue_probe_;
};

}  // namespace irr::mem
