// SPDX-License-Identifier: Apache-2.0
#include "sim/clock.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/bitmap.h"

namespace irr::sim {
namespace {
std::vector<ClockScheduler*> g_drivers;  // every driver alive (a scheduler not driven): a look at the others' next events
}  // namespace

ClockDomain::ClockDomain(std::string name, Picoseconds period) : name_(std::move(name)), period_(period) {
  if (period_ == 0) throw std::invalid_argument("clock domain " + name_ + ": period must be at least 1 ps");
}

ClockDomain ClockDomain::from_frequency(std::string name, double hz) {
  if (!(hz > 0)) throw std::invalid_argument("clock domain " + name + ": frequency must be positive");
  double ps = std::round(1e12 / hz);
  if (ps < 1) throw std::invalid_argument("clock domain " + name + ": " + format_frequency(hz) + " is above 1 THz");
  return ClockDomain(std::move(name), static_cast<Picoseconds>(ps));
}

void Clocked::unattached(const char* call) {
  throw std::logic_error(std::string("Clocked::") + call + " before the component was added to a clock domain");
}

ClockScheduler::ClockScheduler(const sc_core::sc_module_name& name, ClockDomain domain)
    : sc_core::sc_module(name), domain_(std::move(domain)) {
  if (std::llround(sc_core::sc_get_time_resolution().to_seconds() * 1e12) != 1)
    throw std::logic_error("clock domain " + domain_.name() + ": SystemC's time resolution must be 1 ps");
  SC_METHOD(on_event);
  sensitive << edge_;
  dont_initialize();
  SC_METHOD(on_sync);
  sensitive << sync_;
  dont_initialize();
  driven_.push_back(this);
  g_drivers.push_back(this);
}

ClockScheduler::~ClockScheduler() {
  auto it = std::find(g_drivers.begin(), g_drivers.end(), this);
  if (it != g_drivers.end()) g_drivers.erase(it);
}

void ClockScheduler::drive(ClockScheduler& other) {
  if (driver_ != this || other.driver_ != &other || other.driven_.size() > 1 || &other == this)
    throw std::logic_error("clock domain " + other.domain_.name() + " is driven already, or drives others");
  other.driver_ = this;
  other.driven_.clear();
  g_drivers.erase(std::find(g_drivers.begin(), g_drivers.end(), &other));
  driven_.push_back(&other);
  if (other.scheduled_) other.notify(other.scheduled_cycle_);
}

void ClockScheduler::add(Clocked& c) {
  if (c.scheduler_) throw std::logic_error("component added to two clock domains");
  c.scheduler_ = this;
  c.slot_ = entries_.size();
  entries_.push_back({&c, 0});
  active_.resize((entries_.size() + 63) / 64);
}

Cycle ClockScheduler::now_cycle() const {
  const Picoseconds t = now_ps();
  return t == after_t_ ? after_ - 1 : domain_.cycle_at(t);  // first_due's answer at t is the edge after t's cycle
}

std::uint64_t ClockScheduler::active_edges() const {
  // Held edges since the last one run at, up to those before now: an edge at this very instant is
  // not yet (a sample sees what earlier edges left), one earlier in the cycle in progress is.
  const Cycle upto = domain_.edge_at_or_after(now_ps());
  return active_edges_ + (held_ && upto > seen_ + 1 ? upto - seen_ - 1 : 0);
}

void ClockScheduler::wake_any(Clocked& c, Cycle cycle) {
  Entry& e = entries_[c.slot_];
  if (e.held && stepping_ < c.slot_ && cycle <= stepping_cycle_) {
    // Woken by a component stepped before it at this edge: holding, it would have been due at
    // this edge, ticking, so it is stepped at this edge still and, as a wake at the instant it is
    // due does, again at the next.
    e.rewake_due = stepping_cycle_ + 1;
    e.rewake = true;
    activate(c.slot_);
    e.due = stepping_cycle_;
    return;
  }
  const Picoseconds t = now_ps();
  const Cycle due = std::max(cycle, first_due(t));
  if (active(c.slot_) && domain_.time_of(e.due) <= t) {
    // Due at this very instant and not stepped yet: that step may run before the work that
    // prompted this wake is visible, so step again at `due` unless it asks to anyway.
    if (!e.rewake || due < e.rewake_due) e.rewake_due = due;
    e.rewake = true;
    return;
  }
  if (active(c.slot_) && e.due <= due) return;  // already due no later
  activate(c.slot_);
  e.due = due;
  // The component being stepped, or one after it: this edge's walk has yet to visit it and
  // schedules the earliest edge it finds due.
  if (stepping_ != kNotStepping && c.slot_ >= stepping_) return;
  schedule(due);
}

Cycle ClockScheduler::first_due(Picoseconds t) {
  if (t == after_t_) return after_;
  if (!sc_core::sc_is_running()) return domain_.edge_at_or_after(t);
  after_t_ = t;
  after_ = domain_.edge_after(t);
  return after_;
}

void ClockScheduler::schedule(Cycle c) {
  if (scheduled_ && scheduled_cycle_ <= c) return;
  scheduled_ = true;
  scheduled_cycle_ = c;
  scheduled_at_ = domain_.time_of(c);
  if (!driver_->in_event_) notify(c);  // else the driver's event notifies as it ends
}

void ClockScheduler::notify(Cycle c) { driver_->notify_at(driver_->with_look(domain_.time_of(c))); }

Picoseconds ClockScheduler::with_look(Picoseconds t) const {
  const Picoseconds look = observer_ ? observer_->next_look() : t;
  return look > now_ps() && look < t ? look : t;
}

void ClockScheduler::notify_at(Picoseconds t) {
  if (notified_ && notified_at_ <= t) return;
  notified_ = true;
  notified_at_ = t;
  ++detail::g_notifications;
  // An earlier notification replaces a later pending one (IEEE 1666 sc_event::notify).
  edge_.notify(sc_core::sc_time::from_value(t - systemc_ps()));  // from SystemC's time, behind a run-ahead's
}

void ClockScheduler::run_ahead(bool on, Picoseconds horizon) {
  run_ahead_ = on;
  horizon_ = horizon;
}

bool ClockScheduler::ahead_to(Picoseconds t) {
  if (!run_ahead_ || t >= horizon_) return false;
  const sc_core::sc_simcontext* sim = sc_core::sc_get_curr_simcontext();
  if (sim->sim_status() != sc_core::SC_SIM_OK) return false;  // sc_stop()
  // SystemC's next activity other than this driver's (0 from now: a process runnable now), asked
  // again only when a step notified something: nothing else runs while a driver steps.
  if (!others_known_ || others_notifications_ != detail::g_notifications) {
    others_known_ = true;
    others_notifications_ = detail::g_notifications;
    // Another driver's event first (two domains of different periods mostly take turns): no
    // need to ask SystemC, whose look costs as much as a few edges.
    others_at_ = ~Picoseconds{0};
    for (const ClockScheduler* s : g_drivers)
      if (s != this && s->notified_) others_at_ = std::min(others_at_, s->notified_at_);
    if (others_at_ > t) others_at_ = std::min<Picoseconds>(others_at_, systemc_ps() + sc_core::sc_time_to_pending_activity(sim).value());
  }
  // Strictly before it: an activity at t might see t's edges or not.
  if (others_at_ <= t) return false;
  detail::g_ahead = t;
  return true;
}

void ClockScheduler::catch_up_held() {
  if (!held_) return;
  const Cycle edge = domain_.edge_at_or_after(now_ps());
  for (const Entry& e : entries_)
    if (e.held) e.component->catch_up(edge);
}

void ClockScheduler::settle_held() {
  if (!held_) return;
  const Picoseconds t = now_ps();
  Cycle upto = domain_.edge_at_or_after(t);  // the first edge not passed, unless its instant is now and its event has run
  if (domain_.time_of(upto) == t && !(driver_->notified_ && driver_->notified_at_ == t)) ++upto;
  if (upto > seen_ + 1) {
    active_edges_ += upto - seen_ - 1;
    seen_ = upto - 1;
  }
  for (const Entry& e : entries_)
    if (e.held) e.component->catch_up(upto);
}

void ClockScheduler::set_observer(EdgeObserver* o) {
  observer_ = o;
  if (notified_) notify_at(with_look(notified_at_));  // a pending event may come after the observer's first look
}

void ClockScheduler::on_event() {
  others_known_ = false;
  for (;;) {
    notified_ = false;
    if (observer_) observer_->before_edges();
    const Picoseconds now = now_ps();
    in_event_ = true;
    for (ClockScheduler* s : driven_)
      if (s->scheduled_ && s->scheduled_at_ <= now) s->on_edge();
    in_event_ = false;
    // The next edge any driven domain has asked for (its components', stepped or woken meanwhile),
    // or the observer's look before it: stepped here if SystemC has nothing before, else its event.
    Picoseconds next = ~Picoseconds{0};
    for (ClockScheduler* s : driven_)
      if (s->scheduled_) next = std::min(next, s->scheduled_at_);
    if (next == ~Picoseconds{0}) break;
    next = with_look(next);
    if (!ahead_to(next)) {
      notify_at(next);
      break;
    }
  }
  const Picoseconds t = now_ps(), behind = systemc_ps();
  if (t == behind) return;
  if (sc_core::sc_pending_activity_at_current_time())
    throw std::logic_error("clock domain " + domain_.name() + ": a step run ahead of SystemC's time notified a SystemC "
                           "event or wrote a signal at SystemC's time instead of its own; notify through "
                           "sim::notify_after, or set sim.run_ahead: false");
  // Nothing more to step: SystemC's time catches up with the last edge (a run ends at its time).
  if (!notified_) sync_.notify(sc_core::sc_time::from_value(t - behind));
}

void ClockScheduler::on_edge() {
  scheduled_ = false;
  // The driver steps a domain at its scheduled edge's time: that edge, without a division.
  const Picoseconds now = now_ps();
  const Cycle cycle = scheduled_at_ == now ? scheduled_cycle_ : domain_.cycle_at(now);
  after_t_ = now;  // wakes from this edge's steps: from the next one
  after_ = cycle + 1;
  // The edges since the last one run at were active if a component held work through them.
  const bool held = held_ > 0;
  if (held && cycle > seen_ + 1) active_edges_ += cycle - seen_ - 1;
  seen_ = cycle;
  bool stepped = false;
  Cycle next = kNever;  // the earliest edge any component is due at after this one (a wake schedules its own)
  stepping_cycle_ = cycle;
  // The active entries in order: a component stepped here may wake one after it, which this edge
  // must see as the loop over every entry did.
  for_each_set_bit(active_, [&](std::size_t i) {
    Entry& e = entries_[i];
    if (e.due > cycle) {  // a timer not yet due (only its own step clears its bit)
      next = std::min(next, e.due);
      return false;  // nothing changed: the walk need not read the word again
    }
    stepping_ = i;
    stepped = true;
    ++ticks_;
    clear_bit(active_, i);  // consumed; a wake() in the tick re-arms it
    if (e.held) {
      e.held = false;
      --held_;
    }
    const bool rewake = e.rewake;
    const Cycle rewake_due = e.rewake_due;
    e.rewake = false;
    if (e.component->tick(cycle)) {
      activate(i);
      e.due = cycle + 1;
    } else if (rewake && (!active(i) || rewake_due < e.due)) {
      activate(i);
      e.due = rewake_due;
    }
    if (active(i)) next = std::min(next, e.due);
    return true;
  });
  stepping_ = kNotStepping;
  if (stepped || held) ++active_edges_;
  if (stepped) {
    ++edges_;
    if (observer_) observer_->after_edge();
  }
  if (next != kNever) schedule(next);
}

}  // namespace irr::sim
