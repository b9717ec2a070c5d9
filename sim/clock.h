// SPDX-License-Identifier: Apache-2.0
// Clock domains. A ClockDomain is an integer-picosecond period (700 MHz -> 1429 ps, rounded to
// the nearest picosecond) with cycle arithmetic. A ClockScheduler steps the components of one
// domain that have work, in the order they were added, and nothing while all are idle: a component
// woken at time t is stepped from the first edge strictly after t (from cycle 0 when woken during
// elaboration), so the order in which SystemC runs processes within a time step never matters.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "sim/bitmap.h"
#include "sim/units.h"

namespace irr::sim {

using Cycle = std::uint64_t;
inline constexpr Cycle kNever = ~Cycle{0};  // no cycle: nothing due

class ClockDomain {
 public:
  ClockDomain(std::string name, Picoseconds period);
  // Period = 1e12 / hz rounded to the nearest ps; throws std::invalid_argument if that is 0.
  static ClockDomain from_frequency(std::string name, double hz);

  const std::string& name() const { return name_; }
  Picoseconds period() const { return period_; }
  double frequency() const { return 1e12 / static_cast<double>(period_); }  // the realised one

  Picoseconds time_of(Cycle c) const { return c * period_; }
  Cycle cycle_at(Picoseconds t) const { return t / period_; }                       // cycle in progress at t
  Cycle edge_at_or_after(Picoseconds t) const { return (t + period_ - 1) / period_; }
  Cycle edge_after(Picoseconds t) const { return t / period_ + 1; }                 // strictly after t
  // The first edge of `other` at or after edge c of this domain.
  Cycle to(const ClockDomain& other, Cycle c) const { return other.edge_at_or_after(time_of(c)); }

 private:
  std::string name_;
  Picoseconds period_;
};

class ClockScheduler;

// A component stepped by a clock domain: tick() does one cycle's work and returns whether the
// component has more work for the next cycle. An idle component calls wake() when work arrives.
class Clocked {
 public:
  virtual ~Clocked() = default;
  virtual bool tick(Cycle cycle) = 0;
  void wake();  // inline below, as wake_at and hold: components call them at most steps
  void wake_at(Cycle cycle);
  // Called in tick() before it returns false: the component sleeps, as it would tick uselessly
  // until something wakes it, but counts as having work at every edge until it is stepped again;
  // a wake() from a component stepped before it at an edge steps it at that edge, as if it had
  // been ticking all along.
  void hold();
  // Holding, a component may charge the cycles it sleeps through when it next steps (counted as
  // ticking would have); before a time-series sample it brings them up to, not including, `edge`.
  virtual void catch_up(Cycle /*edge*/) {}
  // For tick() to return when its component's work has a known time: true (tick again next
  // cycle) if `next` is cycle + 1, else holds and wakes itself at `next` and returns false. The
  // cycles between must be ones at which a tick would change nothing: then nothing a run reports
  // differs from ticking through them, held (counted active) as they are.
  bool idle_until(Cycle cycle, Cycle next) {
    if (next <= cycle + 1) return true;
    hold();
    wake_at(next);
    return false;
  }
  ClockScheduler* scheduler() const { return scheduler_; }

 private:
  friend class ClockScheduler;
  [[noreturn]] static void unattached(const char* call);
  ClockScheduler* scheduler_ = nullptr;
  std::size_t slot_ = 0;
};

// Told after every edge at which a scheduler stepped something, and before each SystemC event of
// its scheduler steps anything: the run's housekeeping (time series, watchdog, progress line)
// rides on model activity instead of ticking by itself.
class EdgeObserver {
 public:
  virtual ~EdgeObserver() = default;
  virtual void after_edge() = 0;
  // Before any of the instant's edges its scheduler drives: what every earlier edge left, in
  // whatever order SystemC runs the instant's processes (a sample taken here cannot see half of it).
  virtual void before_edges() {}
  // An instant it wants before_edges() at though no edge may fall there (a time-series sample's):
  // a driver with a later edge to step makes an event there that steps nothing. ~0: none.
  virtual Picoseconds next_look() const { return ~Picoseconds{0}; }
};

class ClockScheduler : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ClockScheduler);
  ClockScheduler(const sc_core::sc_module_name& name, ClockDomain domain);
  ~ClockScheduler() override;

  const ClockDomain& domain() const { return domain_; }
  // Steps `c` in this domain, after those added before it. It starts idle.
  void add(Clocked& c);
  void wake(Clocked& c) { wake_any(c, 0); }  // never wake_at's own-step case (cycle 0)
  // Steps `c` from edge `cycle` on (or from the first edge after now, if that is later): a timer.
  void wake_at(Clocked& c, Cycle cycle) {
    // A component's own step asking for a later edge (Clocked::idle_until), most wakes: only the
    // bit and the edge to set, as the general case below finds.
    if (c.slot_ == stepping_ && cycle > stepping_cycle_ && !active(c.slot_)) {
      activate(c.slot_);
      entries_[c.slot_].due = cycle;
      return;
    }
    wake_any(c, cycle);
  }
  void hold(Clocked& c) {
    Entry& e = entries_[c.slot_];
    if (!e.held) ++held_;
    e.held = true;
  }
  Cycle now_cycle() const;           // the cycle in progress now
  std::uint64_t edges_stepped() const { return edges_; }  // edges at which anything was stepped
  // Edges at which some component had work: stepped, or holding (Clocked::hold), up to now.
  std::uint64_t active_edges() const;
  std::uint64_t ticks() const { return ticks_; }          // component steps, all components
  void set_observer(EdgeObserver* o);
  // Before a sample: each holding component catches up (Clocked::catch_up) to the first edge at or after now.
  void catch_up_held();
  // Before a snapshot taken after the edges of its instant have run (a kernel's end, which SystemC
  // runs a delta after them): held components catch up through now's edge, if this domain has one
  // whose event has run, and the edges they held count as active up to it.
  void settle_held();
  // Steps `other` from this scheduler's SystemC process: at each instant, this one's edge first,
  // then the driven domains' in the order they were added, each only if due then. Domains share a
  // period often (core, interconnect and L2 on most presets), and with run-ahead one driver steps
  // all domains in time order without a SystemC event between two edges of different domains
  // (core and DRAM take turns). Any order at an instant is the model's order too: a component
  // woken at t steps after t.
  void drive(ClockScheduler& other);
  // Lets this driver step its next edges within one SystemC event while SystemC has nothing else
  // to run up to and including them, and they fall before `horizon` (ps; ~0: no end): SystemC's
  // event per edge costs more than a typical edge's work. now_ps() reports the edge's time; a
  // model's own SystemC notification from a step goes through notify_after. Off (the default
  // here; Simulation turns it on unless sim.run_ahead is false) each edge is its own event.
  void run_ahead(bool on, Picoseconds horizon = ~Picoseconds{0});

 private:
  void wake_any(Clocked& c, Cycle cycle);
  void on_event();  // the SystemC process: steps each driven scheduler due now (and on, run ahead)
  void on_sync() {}  // SystemC's time brought up to a run-ahead's last edge
  bool ahead_to(Picoseconds t);  // run ahead to t, if nothing else in SystemC comes first
  void on_edge();   // steps this domain's components due now
  void schedule(Cycle c);
  void notify(Cycle c);  // the driver's event, at this domain's edge c (or the observer's look before it) unless due no later
  void notify_at(Picoseconds t);
  Cycle first_due(Picoseconds t);  // the first edge a wake at t can step: after t (at t during elaboration)
  Picoseconds with_look(Picoseconds t) const;  // t, or the observer's next look if that is ahead and earlier

  struct Entry {  // 32 bytes: two to a host cache line
    Clocked* component;
    Cycle due;            // when active (its bit in active_)
    Cycle rewake_due = 0;
    bool rewake = false;  // woken while due at the current instant (see wake_at)
    bool held = false;    // asleep holding work (Clocked::hold) since its last step
  };
  bool active(std::size_t i) const { return test_bit(active_, i); }
  void activate(std::size_t i) { set_bit(active_, i); }
  ClockDomain domain_;
  std::vector<Entry> entries_;
  std::vector<std::uint64_t> active_;  // bit i: entries_[i] has work due (an edge visits only those)
  sc_core::sc_event edge_;
  sc_core::sc_event sync_;  // at the last edge run ahead to, when no edge follows it
  bool run_ahead_ = false;
  Picoseconds horizon_ = ~Picoseconds{0};
  bool others_known_ = false;            // others_at_ holds in this event while no step notified anything
  std::uint64_t others_notifications_ = 0;
  Picoseconds others_at_ = 0;            // SystemC's next activity not this driver's
  bool scheduled_ = false;  // this domain's next edge with work (its components')
  Cycle scheduled_cycle_ = 0;
  Picoseconds scheduled_at_ = 0;  // its time
  ClockScheduler* driver_ = this;         // whose event steps this domain
  std::vector<ClockScheduler*> driven_;   // a driver's domains, itself first, in stepping order
  bool notified_ = false;                 // a driver's pending event, at notified_at_
  bool in_event_ = false;                 // a driver stepping its domains: their schedule() waits for its end
  Picoseconds notified_at_ = 0;
  std::uint64_t edges_ = 0, ticks_ = 0;
  std::uint64_t active_edges_ = 0;  // counted up to edge seen_
  Cycle seen_ = 0;                  // the last edge on_edge ran at
  std::size_t held_ = 0;            // entries holding
  static constexpr std::size_t kNotStepping = ~std::size_t{0};
  std::size_t stepping_ = kNotStepping;  // the entry on_edge is at (kNotStepping: outside on_edge)
  Cycle stepping_cycle_ = 0;
  Picoseconds after_t_ = ~Picoseconds{0};  // first_due's last t while running, and its answer: wakes come in bursts
  Cycle after_ = 0;
  EdgeObserver* observer_ = nullptr;
};

inline void Clocked::wake() {
  if (!scheduler_) unattached("wake");
  scheduler_->wake(*this);
}
inline void Clocked::wake_at(Cycle cycle) {
  if (!scheduler_) unattached("wake_at");
  scheduler_->wake_at(*this, cycle);
}
inline void Clocked::hold() {
  if (!scheduler_) unattached("hold");
  scheduler_->hold(*this);
}

// SystemC's time in picoseconds: its time unit is 1 ps (the default resolution, which Simulation
// sets and ClockScheduler checks).
inline Picoseconds systemc_ps() { return static_cast<Picoseconds>(sc_core::sc_get_curr_simcontext()->time_stamp().value()); }

namespace detail {
inline Picoseconds g_ahead = 0;  // the edge a driver runs ahead at (ClockScheduler::run_ahead), else behind SystemC's time
inline std::uint64_t g_notifications = 0;  // SystemC notifications through ClockScheduler and notify_after
}

// The current simulated time in picoseconds: SystemC's, or the edge a clock driver has run ahead
// to within one of SystemC's events. Inline: every model asks often.
inline Picoseconds now_ps() {
  const Picoseconds t = systemc_ps();
  return detail::g_ahead > t ? detail::g_ahead : t;
}

// e.notify(delay) from now_ps(): from a step run ahead of SystemC's time too (a delta
// notification, delay 0, becomes a timed one at the step's time then).
inline void notify_after(sc_core::sc_event& e, Picoseconds delay = 0) {
  ++detail::g_notifications;
  e.notify(sc_core::sc_time::from_value(now_ps() + delay - systemc_ps()));  // zero: a delta notification
}

}  // namespace irr::sim
