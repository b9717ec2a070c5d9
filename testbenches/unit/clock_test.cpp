// SPDX-License-Identifier: Apache-2.0
// Clock domains: period rounding, cycle arithmetic, and a scheduler that steps only busy
// components, in a fixed order, independent of SystemC's process order.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <tuple>
#include <systemc>

#include "sim/clock.h"

using namespace irr::sim;

TEST(ClockDomain, PeriodRoundsToNearestPicosecond) {
  EXPECT_EQ(ClockDomain::from_frequency("core", 700e6).period(), 1429u);   // 1428.57
  EXPECT_EQ(ClockDomain::from_frequency("dram", 924e6).period(), 1082u);   // 1082.25
  EXPECT_EQ(ClockDomain::from_frequency("core", 1.27e9).period(), 787u);   // 787.40
  EXPECT_EQ(ClockDomain::from_frequency("x", 1e9).period(), 1000u);
  EXPECT_NEAR(ClockDomain::from_frequency("core", 700e6).frequency(), 1e12 / 1429, 1e-6);
  EXPECT_THROW(ClockDomain::from_frequency("x", 0), std::invalid_argument);
  EXPECT_THROW(ClockDomain::from_frequency("x", 3e12), std::invalid_argument);
}

TEST(ClockDomain, CycleArithmetic) {
  ClockDomain d("d", 1429);
  EXPECT_EQ(d.time_of(10), 14290u);
  EXPECT_EQ(d.cycle_at(14290), 10u);
  EXPECT_EQ(d.cycle_at(14289), 9u);
  EXPECT_EQ(d.edge_at_or_after(14290), 10u);
  EXPECT_EQ(d.edge_at_or_after(14291), 11u);
  EXPECT_EQ(d.edge_after(14290), 11u);
  EXPECT_EQ(d.edge_after(14289), 10u);
  // Cross-domain: cycle 7 of a 1429 ps clock (10003 ps) -> first 1082 ps edge at or after it.
  ClockDomain dram("dram", 1082);
  EXPECT_EQ(d.to(dram, 7), 10u);  // 10 * 1082 = 10820 >= 10003 > 9 * 1082
  EXPECT_EQ(dram.to(d, 10), 8u);  // 10820 -> 8 * 1429 = 11432
  EXPECT_EQ(d.to(d, 5), 5u);
}

namespace {

// Records the cycles it was stepped at; works `busy_for` cycles per wake, or sleeps `sleep`
// cycles between bursts of work when that is set.
struct Recorder : Clocked {
  std::vector<Cycle> cycles;
  std::vector<Picoseconds> times;
  std::vector<std::string>* order = nullptr;
  std::string name;
  int busy_for = 1;
  int bursts = 1;
  Cycle sleep = 0;
  Clocked* wakes = nullptr;  // another component to wake on every step
  int left = 0;
  bool tick(Cycle c) override {
    cycles.push_back(c);
    times.push_back(now_ps());
    if (order) order->push_back(name + "@" + std::to_string(c));
    if (wakes) wakes->wake();
    if (--left > 0) return true;
    if (--bursts > 0) {
      left = busy_for;
      wake_at(c + sleep);
    }
    return false;
  }
};

}  // namespace

TEST(ClockScheduler, StepsOnlyWhileBusyAndSkipsIdleCycles) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  ClockScheduler sched("core", ClockDomain("core", 1000));
  Recorder r;
  r.busy_for = r.left = 3;
  r.bursts = 2;
  r.sleep = 1000;
  sched.add(r);
  r.wake();  // during elaboration: from cycle 0
  sc_core::sc_start();
  EXPECT_EQ(r.cycles, (std::vector<Cycle>{0, 1, 2, 1002, 1003, 1004}));
  EXPECT_EQ(r.times.back(), 1004'000u);
  EXPECT_EQ(sched.edges_stepped(), 6u);  // 1000 idle cycles were never stepped
  EXPECT_EQ(sched.ticks(), 6u);
  EXPECT_EQ(now_ps(), 1004'000u);        // and the simulation ended when the work did
}

TEST(ClockScheduler, FixedOrderWithinADomain) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  ClockScheduler sched("core", ClockDomain("core", 1000));
  std::vector<std::string> order;
  Recorder a, b;
  a.name = "a";
  b.name = "b";
  a.order = b.order = &order;
  a.busy_for = a.left = 2;
  b.busy_for = b.left = 2;
  sched.add(b);  // b first: the order of add(), not of wake()
  sched.add(a);
  a.wake();
  b.wake();
  sc_core::sc_start();
  EXPECT_EQ(order, (std::vector<std::string>{"b@0", "a@0", "b@1", "a@1"}));
}

namespace {
// A 1000 ps domain wakes a 500 ps domain on every step; their edges coincide every 1000 ps.
// Whatever order the two schedulers were created (and so run) in, the woken component steps at
// the first edge strictly after the waker's step.
std::vector<Cycle> cross_domain(bool slow_first) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  std::unique_ptr<ClockScheduler> slow, fast;
  if (slow_first) {
    slow = std::make_unique<ClockScheduler>("slow", ClockDomain("slow", 1000));
    fast = std::make_unique<ClockScheduler>("fast", ClockDomain("fast", 500));
  } else {
    fast = std::make_unique<ClockScheduler>("fast", ClockDomain("fast", 500));
    slow = std::make_unique<ClockScheduler>("slow", ClockDomain("slow", 1000));
  }
  Recorder waker, woken;
  waker.busy_for = waker.left = 3;
  waker.wakes = &woken;
  woken.busy_for = woken.left = 1;
  woken.bursts = 0;
  slow->add(waker);
  fast->add(woken);
  waker.wake();
  sc_core::sc_start();
  return woken.cycles;
}
}  // namespace

TEST(ClockScheduler, CrossDomainWakeIsStrictlyAfterSlowFirst) {
  // Waker steps at 0, 1000, 2000 ps -> woken at fast edges 1 (500 ps), 3, 5.
  EXPECT_EQ(cross_domain(true), (std::vector<Cycle>{1, 3, 5}));
}

TEST(ClockScheduler, CrossDomainWakeIsStrictlyAfterFastFirst) {
  EXPECT_EQ(cross_domain(false), (std::vector<Cycle>{1, 3, 5}));
}

TEST(ClockScheduler, WakeDuringOwnTickRearms) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  ClockScheduler sched("core", ClockDomain("core", 1000));
  struct Self : Clocked {
    std::vector<Cycle> at;
    bool tick(Cycle c) override {
      at.push_back(c);
      if (at.size() < 3) wake();  // "more work arrived": step again next cycle
      return false;
    }
  } s;
  sched.add(s);
  s.wake();
  sc_core::sc_start();
  EXPECT_EQ(s.at, (std::vector<Cycle>{0, 1, 2}));
}

TEST(ClockScheduler, WakeWhileDueAtThisInstantStepsAgain) {
  // `woken` is due at cycle 0 and steps after `waker` there; the work waker hands it at 0 is
  // visible only after 0 (timed queues), so woken must step again at 1 even though it asks not to.
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  ClockScheduler sched("core", ClockDomain("core", 1000));
  Recorder waker, woken;
  waker.wakes = &woken;
  waker.busy_for = waker.left = 1;
  woken.busy_for = woken.left = 1;
  woken.bursts = 0;
  sched.add(waker);
  sched.add(woken);
  woken.wake();
  waker.wake();
  sc_core::sc_start();
  EXPECT_EQ(woken.cycles, (std::vector<Cycle>{0, 1}));
}

TEST(ClockScheduler, WakeBeforeAddIsAProgrammingError) {
  Recorder r;
  EXPECT_THROW(r.wake(), std::logic_error);
}

namespace {
// Sleeps holding work after its first step (as an L1 waiting for an MSHR does), then steps once
// more for each wake.
struct Holder : Clocked {
  std::vector<Cycle> at;
  bool tick(Cycle c) override {
    at.push_back(c);
    if (at.size() == 1) hold();
    return false;
  }
};
// Steps at 0, then at `at`, where it wakes `other`.
struct Waker : Clocked {
  Clocked* other = nullptr;
  Cycle at = 10;
  bool tick(Cycle c) override {
    if (c == 0) wake_at(at);
    else other->wake();
    return false;
  }
};
// Returns the holder's steps and the domain's active edges (stepped or held) and stepped edges.
std::tuple<std::vector<Cycle>, std::uint64_t, std::uint64_t> holding(bool waker_first) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  ClockScheduler sched("core", ClockDomain("core", 1000));
  Holder h;
  Waker w;
  w.other = &h;
  if (waker_first) sched.add(w);
  sched.add(h);
  if (!waker_first) sched.add(w);
  h.wake();
  w.wake();
  sc_core::sc_start();
  return {h.at, sched.active_edges(), sched.edges_stepped()};
}
}  // namespace

TEST(ClockScheduler, HolderWokenByAnEarlierComponentStepsAtThatEdgeAsIfTicking) {
  // Holding from cycle 0, it would have ticked every cycle: woken at 10 by a component stepped
  // before it, it steps at 10 (and at 11, as a wake at the instant it is due gives); cycles 1-9
  // count as active though nothing was stepped.
  const auto [at, active, stepped] = holding(true);
  EXPECT_EQ(at, (std::vector<Cycle>{0, 10, 11}));
  EXPECT_EQ(active, 12u);
  EXPECT_EQ(stepped, 3u);
}

TEST(ClockScheduler, HolderWokenByAnEarlierComponentInAnotherWordOfItsBitmapStepsAtThatEdge) {
  // As above with 98 idle components between the two: the scheduler visits only active
  // components, and the holder (entry 99) is set active after the walk passed entry 0's word.
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  ClockScheduler sched("core", ClockDomain("core", 1000));
  Holder h;
  Waker w;
  w.other = &h;
  std::vector<Recorder> idle(98);
  sched.add(w);
  for (auto& r : idle) sched.add(r);
  sched.add(h);
  h.wake();
  w.wake();
  sc_core::sc_start();
  EXPECT_EQ(h.at, (std::vector<Cycle>{0, 10, 11}));
  EXPECT_EQ(sched.active_edges(), 12u);
  EXPECT_EQ(sched.edges_stepped(), 3u);
  for (const auto& r : idle) EXPECT_TRUE(r.cycles.empty());
}

TEST(ClockScheduler, HolderWokenByALaterComponentStepsAtTheNextEdge) {
  // Ticking, it would have stepped at 10 before its waker: the work is seen from 11.
  const auto [at, active, stepped] = holding(false);
  EXPECT_EQ(at, (std::vector<Cycle>{0, 11}));
  EXPECT_EQ(active, 12u);
  EXPECT_EQ(stepped, 3u);
}

namespace {
// Counts the ticks of every component it watches before each of its scheduler's instants.
struct TickCounter : EdgeObserver {
  std::vector<const Recorder*> watched;
  std::vector<std::size_t> before;  // ticks so far, at each before_edges()
  std::size_t after = 0;            // after_edge() calls
  void before_edges() override {
    std::size_t n = 0;
    for (const Recorder* r : watched) n += r->cycles.size();
    before.push_back(n);
  }
  void after_edge() override { ++after; }
};
}  // namespace

namespace {
// Two components logging each step as "name@cycle": x works `x_busy` cycles in `xs`, y `y_busy`
// in `ys` (added to its domain first), both woken during elaboration.
struct TwoLogged {
  std::vector<std::string> order;
  Recorder x, y;
  TwoLogged(ClockScheduler& xs, int x_busy, ClockScheduler& ys, int y_busy) {
    x.name = "x";
    y.name = "y";
    x.order = y.order = &order;
    x.busy_for = x.left = x_busy;
    y.busy_for = y.left = y_busy;
    ys.add(y);
    xs.add(x);
    y.wake();
    x.wake();
  }
};
}  // namespace

TEST(ClockScheduler, DrivenDomainsStepAfterTheDriversFromOneEvent) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  // Created second, `icnt` still steps first: it drives.
  ClockScheduler l2("l2", ClockDomain("l2", 1000)), icnt("icnt", ClockDomain("icnt", 1000));
  icnt.drive(l2);
  TwoLogged t(icnt, 3, l2, 2);
  auto& [order, x, y] = t;
  TickCounter counter;
  counter.watched = {&x, &y};
  icnt.set_observer(&counter);
  l2.set_observer(&counter);
  sc_core::sc_start();
  EXPECT_EQ(order, (std::vector<std::string>{"x@0", "y@0", "x@1", "y@1", "x@2"}));
  // One event an instant, before any of its edges: what the earlier instants left, whole.
  EXPECT_EQ(counter.before, (std::vector<std::size_t>{0, 2, 4}));
  EXPECT_EQ(counter.after, 5u);  // after each domain's stepped edge, as separate schedulers are
  EXPECT_EQ(icnt.edges_stepped(), 3u);
  EXPECT_EQ(l2.edges_stepped(), 2u);
  EXPECT_EQ(icnt.active_edges(), 3u);
  EXPECT_EQ(l2.active_edges(), 2u);
}

namespace {
// A component of one 1000 ps domain wakes one of another on each of its three steps; the two
// domains step from one event (the waker's driving, or driven) or from one each. The woken one
// steps at the first edge after each wake whichever steps first.
std::vector<Cycle> same_period(bool shared, bool waker_drives) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  ClockScheduler a("a", ClockDomain("a", 1000)), b("b", ClockDomain("b", 1000));
  if (shared) a.drive(b);
  Recorder waker, woken;
  waker.busy_for = waker.left = 3;
  waker.wakes = &woken;
  woken.busy_for = woken.left = 1;
  woken.bursts = 0;
  (waker_drives ? a : b).add(waker);
  (waker_drives ? b : a).add(woken);
  waker.wake();
  sc_core::sc_start();
  return woken.cycles;
}
}  // namespace

TEST(ClockScheduler, SamePeriodDomainsApartSeeCrossDomainWakesAtTheNextEdge) {
  EXPECT_EQ(same_period(false, true), (std::vector<Cycle>{1, 2, 3}));
}

TEST(ClockScheduler, DrivenDomainSeesItsDriversWakesAtTheNextEdge) {
  EXPECT_EQ(same_period(true, true), (std::vector<Cycle>{1, 2, 3}));
}

TEST(ClockScheduler, DrivenDomainWakingItsDriverIsSeenAtTheNextEdge) {
  EXPECT_EQ(same_period(true, false), (std::vector<Cycle>{1, 2, 3}));
}

TEST(ClockScheduler, ADomainIsDrivenByOneDriverThatIsNotDriven) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  ClockScheduler a("a", ClockDomain("a", 1000)), b("b", ClockDomain("b", 999)), c("c", ClockDomain("c", 1000));
  EXPECT_THROW(a.drive(a), std::logic_error);
  a.drive(c);
  EXPECT_THROW(a.drive(c), std::logic_error);  // driven already
  EXPECT_THROW(b.drive(c), std::logic_error);
  EXPECT_THROW(c.drive(b), std::logic_error);  // c is driven: it drives nothing
  EXPECT_THROW(b.drive(a), std::logic_error);  // a drives: it is not driven
  a.drive(b);                                  // another period
}

namespace {
// A 1000 ps domain drives a 1500 ps one: their edges in time order, at 3000 (both) the driver's
// first, run ahead or not. Five instants (0, 1000, 1500, 2000, 3000): an event each, or run ahead
// one event and the sync that brings SystemC's time up to the last edge.
void expect_time_order(bool ahead) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  ClockScheduler a("a", ClockDomain("a", 1000)), b("b", ClockDomain("b", 1500));
  a.drive(b);
  a.run_ahead(ahead);
  TwoLogged t(a, 4, b, 3);
  auto& [order, x, y] = t;
  sc_core::sc_start();
  EXPECT_EQ(order, (std::vector<std::string>{"x@0", "y@0", "x@1", "y@1", "x@2", "x@3", "y@2"}));
  EXPECT_EQ(y.times, (std::vector<Picoseconds>{0, 1500, 3000}));
  EXPECT_EQ(b.edges_stepped(), 3u);
  EXPECT_EQ(systemc_ps(), 3000u);
  EXPECT_EQ(sc_core::sc_delta_count(), ahead ? 2u : 5u);
}
}  // namespace

TEST(ClockScheduler, ADriverStepsDomainsOfDifferentPeriodsInTimeOrder) { expect_time_order(false); }

TEST(ClockScheduler, ADriverRunAheadStepsDomainsOfDifferentPeriodsFromOneEvent) { expect_time_order(true); }

namespace {
// Works out a latency as a partition waiting for its L2 reply does: at its first step it idles
// until `until` (Clocked::idle_until), then steps once more.
struct Waiter : Clocked {
  std::vector<Cycle> at;
  Cycle until = 8;
  bool tick(Cycle c) override {
    at.push_back(c);
    return at.size() == 1 && idle_until(c, until);
  }
};
}  // namespace

TEST(ClockScheduler, IdleUntilStepsAtTheDueCycleAndCountsTheCyclesBetweenActive) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  ClockScheduler sched("core", ClockDomain("core", 1000));
  Waiter w, next;
  next.until = 1;  // due the next cycle: it ticks on
  sched.add(w);
  sched.add(next);
  w.wake();
  next.wake();
  sc_core::sc_start();
  EXPECT_EQ(w.at, (std::vector<Cycle>{0, 8}));
  EXPECT_EQ(next.at, (std::vector<Cycle>{0, 1}));
  EXPECT_EQ(sched.active_edges(), 9u);  // 0-8, as ticking through them would count
  EXPECT_EQ(sched.edges_stepped(), 3u);
}

TEST(ClockScheduler, IdleUntilWokenByAnEarlierComponentStepsAtThatEdge) {
  // Woken at 4 by a component stepped before it: stepped at 4 as if it had been ticking (and at
  // 5, as a wake at the instant it is due gives), not at 20.
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  ClockScheduler sched("core", ClockDomain("core", 1000));
  Waiter w;
  w.until = 20;
  Waker k;
  k.other = &w;
  k.at = 4;
  sched.add(k);
  sched.add(w);
  k.wake();
  w.wake();
  sc_core::sc_start();
  EXPECT_EQ(w.at, (std::vector<Cycle>{0, 4, 5}));
}

namespace {
// Records the domain's active edges at its one look.
struct ActiveLooker : EdgeObserver {
  ClockScheduler* sched = nullptr;
  Picoseconds look = 0;
  std::uint64_t seen = 0;
  void before_edges() override {
    if (now_ps() < look) return;
    seen = sched->active_edges();
    look = ~Picoseconds{0};
  }
  void after_edge() override {}
  Picoseconds next_look() const override { return look; }
};
// Ticks every cycle up to `until`: what a component idling until then stands for.
struct TickThrough : Clocked {
  Cycle until = 8;
  bool tick(Cycle c) override { return c + 1 < until; }
};

// The active edges at `look` of a domain whose one component ticks through cycles 0-7 and of one
// whose component holds through them (Waiter: steps at 0 and 8).
std::pair<std::uint64_t, std::uint64_t> active_at(Picoseconds look) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  ClockScheduler ticking("a", ClockDomain("a", 1000)), holding("b", ClockDomain("b", 1000));
  TickThrough t;
  Waiter w;
  ticking.add(t);
  holding.add(w);
  t.wake();
  w.wake();
  ActiveLooker at_ticking, at_holding;
  at_ticking.sched = &ticking;
  at_holding.sched = &holding;
  at_ticking.look = at_holding.look = look;
  ticking.set_observer(&at_ticking);
  holding.set_observer(&at_holding);
  sc_core::sc_start();
  return {at_ticking.seen, at_holding.seen};
}
}  // namespace

TEST(ClockScheduler, ActiveEdgesMidCycleCountTheHeldEdgeAlreadyPassed) {
  // Looked at 3.5 cycles in (as another domain's sample may): edges 0-3 have passed. A component
  // holding through them counts them as one ticking through them does.
  EXPECT_EQ(active_at(3500), std::make_pair(std::uint64_t{4}, std::uint64_t{4}));
}

TEST(ClockScheduler, ActiveEdgesAtAnEdgeCountOnlyThoseBeforeIt) {  // a sample comes before the instant's edges
  EXPECT_EQ(active_at(3000), std::make_pair(std::uint64_t{3}, std::uint64_t{3}));
}

namespace {
// Looks once, at `look` ps, and records the instants of its before_edges() calls.
struct Looker : EdgeObserver {
  Picoseconds look = 0;
  std::vector<Picoseconds> before;
  void before_edges() override {
    before.push_back(now_ps());
    if (now_ps() >= look) look = ~Picoseconds{0};
  }
  void after_edge() override {}
  Picoseconds next_look() const override { return look; }
};
}  // namespace

TEST(ClockScheduler, AnObserversLookIsAnInstantWhileWorkIsScheduledAfterIt) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  ClockScheduler sched("core", ClockDomain("core", 1000));
  Recorder r;
  r.bursts = 2;
  r.sleep = 10;  // steps at 0 and 10
  sched.add(r);
  r.wake();
  Looker looker;
  looker.look = 4500;  // between two edges, where nothing is due
  sched.set_observer(&looker);
  sc_core::sc_start();
  EXPECT_EQ(r.cycles, (std::vector<Cycle>{0, 10}));
  EXPECT_EQ(looker.before, (std::vector<Picoseconds>{0, 4500, 10000}));
  EXPECT_EQ(now_ps(), 10000u);
}

TEST(ClockScheduler, AnObserversLookAfterTheLastWorkMakesNoEvent) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  ClockScheduler sched("core", ClockDomain("core", 1000));
  Recorder r;
  r.busy_for = r.left = 3;
  sched.add(r);
  r.wake();
  Looker looker;
  looker.look = 50000;
  sched.set_observer(&looker);
  sc_core::sc_start();
  EXPECT_EQ(looker.before, (std::vector<Picoseconds>{0, 1000, 2000}));
  EXPECT_EQ(now_ps(), 2000u);  // the run ends with its work, not at the look
}

namespace {
// Holds from its first step until `until` and records the edges it is told to catch up to.
struct CatchingWaiter : Waiter {
  std::vector<Cycle> caught;
  void catch_up(Cycle edge) override { caught.push_back(edge); }
};
// At its cycle `at`, announces an end a delta later (as the GPU's last CTA does); then `settle`
// runs: the snapshot's catch-up of another domain.
struct Ender : sc_core::sc_module, Clocked {
  SC_HAS_PROCESS(Ender);
  Cycle at = 5;
  sc_core::sc_event end;
  std::function<void()> settle;
  explicit Ender(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {
    SC_METHOD(on_end);
    sensitive << end;
    dont_initialize();
  }
  bool tick(Cycle c) override {
    if (c == at) end.notify(sc_core::SC_ZERO_TIME);
    return c < at;
  }
  void on_end() { settle(); }
};
}  // namespace

TEST(ClockScheduler, SettlingForASnapshotCountsHeldEdgesThroughThoseThatHaveRun) {
  // A kernel ends at core cycle 5 (5000 ps); its snapshot runs a delta later, after every edge at
  // 5000. The other domain (500 ps) holds from 0 to 40: ticking, it would have stepped edges 0-10
  // by then, edge 10 at 5000 itself; settled, it counts them and its component catches up to 11.
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  ClockScheduler core("core", ClockDomain("core", 1000)), dram("dram", ClockDomain("dram", 500));
  Ender ender("ender");
  CatchingWaiter w;
  w.until = 40;
  core.add(ender);
  dram.add(w);
  std::uint64_t active = 0;
  ender.settle = [&] {
    dram.settle_held();
    active = dram.active_edges();
  };
  ender.wake();
  w.wake();
  sc_core::sc_start();
  EXPECT_EQ(active, 11u);
  EXPECT_EQ(w.caught, (std::vector<Cycle>{11}));
  EXPECT_EQ(w.at, (std::vector<Cycle>{0, 40}));
  EXPECT_EQ(dram.active_edges(), 41u);  // 0-40, the settled ones not counted twice
}

namespace {
// Run ahead (ClockScheduler::run_ahead) or not, the same steps at the same times. A 1000 ps core
// component works cycles 0-11: at 3 it wakes a 1429 ps DRAM component, at 7 it tells a SystemC
// thread (sim::notify_after), which 2500 ps later wakes a second core component.
struct Notifying : Recorder {
  sc_core::sc_event* event = nullptr;
  Clocked* other = nullptr;
  bool raw = false;  // notify SystemC directly instead of through notify_after
  bool tick(Cycle c) override {
    if (c == 3) other->wake();
    if (c == 7) raw ? event->notify(sc_core::SC_ZERO_TIME) : notify_after(*event);
    return Recorder::tick(c);
  }
};
struct Host : sc_core::sc_module {
  SC_HAS_PROCESS(Host);
  sc_core::sc_event told;
  Clocked* wakes = nullptr;
  std::vector<Picoseconds> at, systemc_at;  // now_ps() and SystemC's time when it resumed
  explicit Host(const sc_core::sc_module_name& n) : sc_core::sc_module(n) { SC_THREAD(run); }
  void run() {
    wait(told);
    at.push_back(now_ps());
    systemc_at.push_back(systemc_ps());
    wait(sc_core::sc_time::from_value(2500));
    at.push_back(now_ps());
    wakes->wake();
  }
};
struct Scenario {
  ClockScheduler core{"core", ClockDomain("core", 1000)}, dram{"dram", ClockDomain("dram", 1429)};
  Notifying a;
  Recorder b, d;
  Host host{"host"};
  Scenario(bool ahead, Picoseconds horizon = ~Picoseconds{0}, bool one_driver = false) {
    if (one_driver) core.drive(dram);
    core.run_ahead(ahead, horizon);
    dram.run_ahead(ahead, horizon);
    a.busy_for = a.left = 12;
    a.event = &host.told;
    a.other = &d;
    host.wakes = &b;
    core.add(a);
    core.add(b);
    dram.add(d);
    a.wake();
  }
};
void expect_scenario(const Scenario& s) {
  EXPECT_EQ(s.a.cycles, (std::vector<Cycle>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(s.a.times, (std::vector<Picoseconds>{0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 11000}));
  EXPECT_EQ(s.d.cycles, (std::vector<Cycle>{3}));  // the first DRAM edge after 3000 ps
  EXPECT_EQ(s.d.times, (std::vector<Picoseconds>{4287}));
  EXPECT_EQ(s.host.at, (std::vector<Picoseconds>{7000, 9500}));
  EXPECT_EQ(s.host.systemc_at, (std::vector<Picoseconds>{7000}));  // SystemC's time caught up with the step's
  EXPECT_EQ(s.b.cycles, (std::vector<Cycle>{10}));
  EXPECT_EQ(s.core.edges_stepped(), 12u);
  EXPECT_EQ(s.core.active_edges(), 12u);
  EXPECT_EQ(systemc_ps(), 11000u);  // the run ends at its last edge
}
// SystemC delta cycles of the scenario stepped an event per edge (measured with run_ahead off).
constexpr std::uint64_t kDeltasAnEventPerEdge = 15;  // 12 edges, the DRAM edge, the host twice
}  // namespace

TEST(ClockScheduler, AnEventPerEdgeWithoutRunAhead) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  Scenario s(false);
  sc_core::sc_start();
  expect_scenario(s);
  EXPECT_EQ(sc_core::sc_delta_count(), kDeltasAnEventPerEdge);
}

TEST(ClockScheduler, RunAheadStepsTheSameEdgesAtTheSameTimesInFewerEvents) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  Scenario s(true);
  sc_core::sc_start();
  expect_scenario(s);
  // Events at 0 (0-4: the DRAM edge at 4287 next), 4287, 5000 (5-7: the host told at 7000 next),
  // 7000, 8000 (8-9: the host's wake at 9500), 9500, 10000 (10-11) and SystemC's time caught up.
  EXPECT_LT(sc_core::sc_delta_count(), kDeltasAnEventPerEdge);
  EXPECT_EQ(sc_core::sc_delta_count(), 9u);
  EXPECT_EQ(now_ps(), 11000u);
}

TEST(ClockScheduler, OneDriverRunAheadStepsTheOtherPeriodsEdgesInTheSameEvents) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  Scenario s(true, ~Picoseconds{0}, true);
  sc_core::sc_start();
  expect_scenario(s);
  // As above but the event at 0 steps on through the DRAM edge at 4287 to the core's 5-7: the
  // events at 4287 and 5000 are gone.
  EXPECT_EQ(sc_core::sc_delta_count(), 7u);
}

TEST(ClockScheduler, RunAheadStopsBeforeItsHorizon) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  Scenario s(true, 5500);
  sc_core::sc_start(sc_core::sc_time::from_value(5500));  // sim.time_limit: the horizon
  EXPECT_EQ(s.a.cycles, (std::vector<Cycle>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(s.d.times, (std::vector<Picoseconds>{4287}));
}

TEST(ClockScheduler, RunAheadRefusesAStepsOwnSystemCNotification) {
  // A delta notification at SystemC's time, 5000 ps, from the step at 7000 ps: the run fails
  // naming the fix instead of running the thread 2000 ps early.
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  Scenario s(true);
  s.a.raw = true;
  try {
    sc_core::sc_start();
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("notify through sim::notify_after"), std::string::npos) << e.what();
  }
}
