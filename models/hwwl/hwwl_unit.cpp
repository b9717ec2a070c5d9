// SPDX-License-Identifier: Apache-2.0
#include "models/hwwl/hwwl_unit.h"

#include <string>

#include "models/power/energy.h"
#include "sim/error.h"

namespace irr::hwwl {

namespace {

Scheme scheme_of(const std::string& s) {
  if (s == "none") return Scheme::none;
  if (s == "threshold") return Scheme::threshold;
  if (s == "lsorting") return Scheme::lsorting;
  if (s == "gsorting") return Scheme::gsorting;
  return Scheme::magic;
}

}  // namespace

HwwlUnit::Settings::Settings(const sim::Config& c) {
  const std::string i = c.get_string("hwwl.ideal");
  ideal = i == "fifo" ? Ideal::fifo : i == "sorted" ? Ideal::sorted : Ideal::none;
  mode = c.get_string("hwwl.mode") == "double" ? Mode::double_buffer : Mode::single;
  if (ideal != Ideal::none) return;
  const auto u32 = [&c](const char* key) { return static_cast<std::uint32_t>(c.get_uint(key)); };
  bank_entries = u32("hwwl.bank_entries");
  scheme = scheme_of(c.get_string("hwwl.redistribution"));
  threshold = u32("hwwl.threshold");
  hub_buffer = u32("hwwl.hub_buffer");
  on_demand = c.get_string("hwwl.trigger") == "on_demand";
  interval = c.get_uint("hwwl.interval");
  refill_interval = c.get_uint("hwwl.refill_interval");
  refill = {c.get_string("hwwl.virtualization") == "on_demand" ? Refill::on_demand : Refill::interval,
            u32("hwwl.refill_loads"), u32("hwwl.refill_per_bank")};
  if (refill.when == Refill::on_demand) refill.pulled_only = c.get_string("hwwl.on_demand_targets") == "pulled";
}

HwwlUnit::HwwlUnit(const sc_core::sc_module_name& name, sim::Simulation& sim, std::uint32_t cores, std::uint32_t lanes)
    : sc_core::sc_module(name),
      sim_(sim),
      clock_(sim.clock("core")),
      set_(sim.config()),
      wl_(cores, lanes, set_.bank_entries, set_.mode, set_.scheme, set_.threshold, set_.hub_buffer),
      invariants_(sim.config().get_bool("hwwl.check_invariants")),
      pulls_(sim.counter(*this, "pulls", "wlpull accesses", "pulls")),
      wait_pulls_(sim.counter(*this, "wait_pulls", "pulls answered WAIT (work exists elsewhere)", "pulls")),
      done_pulls_(sim.counter(*this, "done_pulls", "pulls answered DONE", "pulls")),
      refill_pulls_(sim.counter(*this, "refill_pulls", "pulls that wait for an on-demand refill", "pulls")),
      pushes_(sim.counter(*this, "pushes", "wlpush accesses", "pushes")),
      points_(sim.counter(*this, "redistribution_points", "cycles the WRUs redistributed", "points")),
      kernels_(sim.counter(*this, "kernels", "kernel ends seen", "kernels")),
      occupancy_(sim.average(*this, "occupancy", "work IDs held per bank (pull side), averaged over redistribution points",
                             "IDs")),
      icrn_probe_(sim.probe(*this, "icrn.in_flight", 16, "work IDs in the inter-core network")),
      point_probe_(sim.probe(*this, "wru.point", 1, "a redistribution point this cycle")) {
  const std::string n = this->name();
  auto& stats = sim.stats();
  const auto formula = [&](const std::string& leaf, const std::string& what, const std::string& unit, auto f) {
    stats.formula(n + "." + leaf, what, unit, [this, f] { return static_cast<double>(f(wl_)); });
  };
  formula("wru.moved", "work IDs moved between banks of a core", "IDs", [](const Worklist& w) { return w.moved(); });
  formula("wru.skipped", "planned moves skipped for a port conflict [K L241]", "moves",
          [](const Worklist& w) { return w.skipped(); });
  formula("icrn.sent", "work IDs sent to another core", "IDs", [](const Worklist& w) { return w.exported(); });
  formula("icrn.contention_cycles", "cycles an ID waited in the hub behind another", "cycles",
          [](const Worklist& w) { return w.icrn().contention_cycles(); });
  formula("hvu.spill_stores", "coalesced spill stores", "stores", [](const Worklist& w) { return w.spill_stores(); });
  formula("hvu.refill_loads", "refill loads", "loads", [](const Worklist& w) { return w.refill_loads(); });
  formula("hvu.spilled", "work IDs spilled to the overflow buffers", "IDs", [](const Worklist& w) { return w.spilled(); });
  formula("hvu.refilled", "work IDs refilled into banks", "IDs", [](const Worklist& w) { return w.refilled(); });
  formula("active_threads", "threads holding a work ID now (pulled one, not pulled again yet) [K L227]; sample it with stats.sample_every",
          "threads", [](const Worklist& w) { return w.holders(); });
  wl_.set_on_demand(set_.on_demand);
  wl_.set_ideal(set_.ideal);
  // Each lane's bank of 24-bit work IDs [K L214] by the energy model's SRAM model: a push or a pull
  // one access, an ID the WRU or the ICRN moves a read and a write, a spilled or refilled ID one.
  // The idealised HWWL is a limit, not a circuit: it has no energy.
  auto stat = [&](const std::string& leaf) { return stats.find(n + "." + leaf); };
  if (set_.ideal == Ideal::none) {
    power::declare_array(sim, n, {"bank", static_cast<double>(set_.bank_entries), 24, 0, 0, double(cores) * lanes},
                         {{&pushes_, 1}, {&pulls_, 1}, {stat("wru.moved"), 2}, {stat("icrn.sent"), 2}, {stat("hvu.spilled"), 1},
                          {stat("hvu.refilled"), 1}});
    // The WRUs' occupancy comparisons (Worklist::comparisons; a sorting network's order when sorting:
    // our reading, the paper draws no circuit), and the ICRN's 24-bit IDs over the mean on-chip wire.
    if (sim.config().get_bool("power.enabled")) {
      formula("energy_events.wru_comparisons", "occupancy comparisons the WRUs made (for the energy model)", "comparisons",
              [](const Worklist& w) { return w.comparisons(); });
      power::declare_alu(sim, n, "wru", {{stat("energy_events.wru_comparisons"), 1}});
    }
    power::declare_wire(sim, n, "icrn", 24, {{stat("icrn.sent"), 1}});
    if (sim.config().get_string("hwwl.bank.impl") == "rtl") wl_.attach_rtl_banks(sim.config().get_uint("sim.seed"));
  }
  if (lanes > 64) throw Error("HWWL: " + std::to_string(lanes) + " lanes per core; the model handles up to 64", Error::Kind::config);
  const std::uint32_t entries = wl_.bank(0, 0).capacity();  // a partition's
  for (std::uint32_t k = 0; k < cores; ++k) {
    const std::string core = "core" + std::to_string(k) + ".";
    CoreProbes p;
    p.greedy = &sim.probe(*this, core + "greedy", lanes, "per bank (bit = lane): more than hwwl.threshold IDs");
    p.needy = &sim.probe(*this, core + "needy", lanes, "per bank (bit = lane): fewer than hwwl.threshold IDs");
    p.empty = &sim.probe(*this, core + "empty", 1, "the core's empty bit: every bank's pull side empty");
    p.global_greedy = &sim.probe(*this, core + "global_greedy", 1, "more greedy banks than needy ones");
    p.hvu_queued = &sim.probe(*this, core + "hvu.queued", 16, "spilled IDs waiting for a store");
    p.hvu_stored = &sim.probe(*this, core + "hvu.stored", 32, "IDs in the overflow buffer");
    p.hvu_loads = &sim.probe(*this, core + "hvu.loads", 8, "refill loads outstanding");
    for (std::uint32_t l = 0; l < lanes; ++l)
      p.occupancy.push_back(&sim.probe(*this, core + "occupancy.bank" + (l < 10 ? "0" : "") + std::to_string(l),
                                       sim::bits_for(entries), "pull-side IDs, reserved entries included"));
    probes_.push_back(std::move(p));
  }
  clock_.add(*this);
  sim.watch(n, *this);
}

void HwwlUnit::wlinit(std::uint64_t base, std::uint64_t per_core,
                      const std::function<MemoryPort&(std::uint32_t core)>& memory) {
  wl_.init_overflow(base, per_core, memory, set_.refill);
}

bool HwwlUnit::port_free(std::uint32_t core, std::uint32_t lane) const { return wl_.bank(core, lane).port_free(now()); }

void HwwlUnit::count_pull(std::uint32_t answer) {
  ++pulls_;
  if (answer == kWait) ++wait_pulls_;
  if (answer == kDone) ++done_pulls_;
  if (answer == kRefill) ++refill_pulls_;
  if (answer < kRefill) sim_.note_progress();
}

void HwwlUnit::push_refused(std::uint32_t core, std::uint32_t lane) const {
  throw Error("wlpush on core " + std::to_string(core) + " lane " + std::to_string(lane) +
              ": the bank is full and no overflow buffer is set up (wlinit)");
}

std::uint32_t HwwlUnit::pull(std::uint32_t core, std::uint32_t lane) {
  const std::uint32_t id = wl_.pull(core, lane, now());
  count_pull(id);
  wake();
  return id;
}

void HwwlUnit::push(std::uint32_t core, std::uint32_t lane, std::uint32_t id) {
  if (!wl_.push(core, lane, id, now())) push_refused(core, lane);
  ++pushes_;
  wake();
}

void HwwlUnit::warp_pull(std::uint32_t core, std::uint32_t warp, std::uint32_t active, std::uint32_t out[32]) {
  wl_.warp_pull(core, warp, active, now(), out);
  for (unsigned t = 0; t < 32; ++t)
    if (active >> t & 1) count_pull(out[t]);
  wake();
}

void HwwlUnit::warp_push(std::uint32_t core, std::uint32_t active, const std::uint32_t ids[32]) {
  if (const std::uint32_t refused = wl_.warp_push(core, active, ids, now()))
    push_refused(core, static_cast<std::uint32_t>(__builtin_ctz(refused)) % wl_.lanes());
  pushes_ += static_cast<std::uint64_t>(__builtin_popcount(active));
  wake();
}

void HwwlUnit::kernel_end() {
  wl_.kernel_end();
  ++kernels_;
  if (invariants_) wl_.check(now());
  wake();
}

bool HwwlUnit::tick(sim::Cycle c) {
  if (set_.ideal != Ideal::none) return false;  // nothing moves between pulls and pushes
  wl_.deliver(c);
  // Interval trigger: every hwwl.interval cycles [K L305]; on-demand redistribution happens in the
  // pulls and pushes themselves (Worklist::set_on_demand).
  const bool point = !set_.on_demand && c % set_.interval == 0;
  if (point) {
    wl_.redistribute(c);
    ++points_;
    for (std::uint32_t k = 0; k < wl_.cores(); ++k)
      for (std::uint32_t l = 0; l < wl_.lanes(); ++l) occupancy_.sample(wl_.bank(k, l).occupied());
  }
  wl_.virtualize(c, c % set_.refill_interval == 0);
  if (invariants_ && c % set_.interval == 0) wl_.check(c, false);  // every ID at kernel ends
  point_probe_.set(point);
  sample();
  // Stepped every cycle while IDs are held anywhere: redistribution, the ICRN and the HVU work on
  // them. With nothing held the unit sleeps until a pull or a push wakes it.
  return wl_.held() > 0;
}

void HwwlUnit::sample() {
  icrn_probe_.set(std::min<std::uint64_t>(wl_.icrn().in_flight(), 0xffff));
  const std::uint32_t threshold = wl_.threshold();
  for (std::uint32_t k = 0; k < wl_.cores(); ++k) {
    CoreProbes& p = probes_[k];
    std::uint64_t greedy = 0, needy = 0;
    std::uint32_t greedy_n = 0, needy_n = 0;
    for (std::uint32_t l = 0; l < wl_.lanes(); ++l) {
      const std::uint32_t n = wl_.bank(k, l).occupied();
      p.occupancy[l]->set(n);
      if (n > threshold) greedy |= 1ull << l, ++greedy_n;
      if (n < threshold) needy |= 1ull << l, ++needy_n;
    }
    p.greedy->set(greedy);
    p.needy->set(needy);
    p.global_greedy->set(greedy_n > needy_n);
    p.empty->set(wl_.core_empty(k));
    if (wl_.virtualized()) {
      const Hvu& h = wl_.hvu(k);
      p.hvu_queued->set(std::min<std::uint64_t>(h.queued(), 0xffff));
      p.hvu_stored->set(std::min<std::uint64_t>(h.stored(), 0xffffffff));
      p.hvu_loads->set(std::min<std::uint32_t>(h.loads_outstanding(), 0xff));
    }
  }
}

std::vector<std::string> HwwlUnit::outstanding() const {
  if (!wl_.held()) return {};
  return {std::to_string(wl_.held()) + " work IDs held (" + std::to_string(wl_.icrn().in_flight()) + " in the ICRN)"};
}

}  // namespace irr::hwwl
