// SPDX-License-Identifier: Apache-2.0
#include "models/hwwl/worklist.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/error.h"
#include "sim/hash.h"

namespace irr::hwwl {

namespace {
// A 64-bit mix of a work ID (splitmix64): sums of it tell a lost-and-duplicated pair
// apart from a clean count.
std::uint64_t id_hash(std::uint32_t id) { return sim::splitmix64(id); }
}  // namespace

Worklist::Worklist(std::uint32_t cores, std::uint32_t lanes, std::uint32_t bank_entries, Mode mode, Scheme scheme,
                   std::uint32_t threshold, std::uint32_t hub_buffer)
    : cores_(cores), lanes_(lanes), scheme_(scheme), threshold_(threshold),
      rotation_(cores, 0), next_destination_(cores, 0), icrn_(cores, hub_buffer), holding_(cores) {
  build_banks(bank_entries, mode);
}

void Worklist::build_banks(std::uint32_t entries, Mode mode) {
  banks_.clear();
  banks_.reserve(static_cast<std::size_t>(cores_) * lanes_);
  for (std::uint32_t i = 0; i < cores_ * lanes_; ++i) banks_.emplace_back(entries, mode);
  core_banks_.assign(cores_, {});
  for (std::uint32_t k = 0; k < cores_; ++k)
    for (std::uint32_t l = 0; l < lanes_; ++l) core_banks_[k].push_back(&bank(k, l));
  if (rtl_seed_) attach_rtl_banks(*rtl_seed_);
}

void Worklist::set_mode(Mode mode) {
  const Bank& b = banks_.front();
  if (b.mode() == mode) return;
  if (held() > 0 || !hvus_.empty())
    throw Error("wlcfg: the bank mode changes only while the worklist is empty and before wlinit", Error::Kind::usage);
  build_banks(b.mode() == Mode::double_buffer ? 2 * b.capacity() : b.capacity(), mode);
  if (ideal_) ideal_->set_mode(mode);
}

void Worklist::set_ideal(Ideal order) {
  if (held() > 0) throw std::logic_error("HWWL: the idealised worklist is chosen before any work is pushed");
  if (order == Ideal::none) ideal_.reset();
  else ideal_.emplace(order, banks_.front().mode());
}

bool Worklist::core_empty(std::uint32_t core) const {
  if (ideal_) return ideal_->pullable() == 0;  // one list: every core sees it
  for (std::uint32_t l = 0; l < lanes_; ++l)
    if (!bank(core, l).empty()) return false;
  return true;
}

void Worklist::attach_rtl_banks(std::uint64_t seed) {
  if (on_demand_) throw Error("hwwl.bank.impl: rtl: the RTL bank has one port; hwwl.trigger: on_demand needs a second",
                              Error::Kind::config);
  rtl_seed_ = seed;
  for (std::uint32_t k = 0; k < cores_; ++k)
    for (std::uint32_t l = 0; l < lanes_; ++l) {
      Bank& b = bank(k, l);
      const unsigned depth = b.mode() == Mode::double_buffer ? 2 * b.capacity() : b.capacity();
      b.attach_rtl(make_bank_block("rtl", {depth, 24, threshold_}, seed + k * lanes_ + l),
                   "core " + std::to_string(k) + " lane " + std::to_string(l));
    }
}

std::uint32_t Worklist::pull(std::uint32_t core, std::uint32_t lane, sim::Cycle c, std::uint32_t thread) {
  std::vector<bool>& h = holding_[core];
  if (thread >= h.size()) h.resize(thread + 1);
  if (h[thread]) {  // the thread comes back for more: the ID it held is done
    h[thread] = false;
    --holders_;
  }
  const std::uint32_t id = answer(core, lane, c);
  if (id <= kMaxWorkId) {
    h[thread] = true;
    ++holders_;
  }
  return id;
}

void Worklist::release_warp(std::uint32_t core, std::uint32_t warp) {
  std::vector<bool>& h = holding_.at(core);
  for (std::size_t t = warp * 32ull; t < std::min<std::size_t>(h.size(), warp * 32ull + 32); ++t)
    if (h[t]) {
      h[t] = false;
      --holders_;
    }
}

std::uint32_t Worklist::answer(std::uint32_t core, std::uint32_t lane, sim::Cycle c) {
  if (ideal_) {
    if (const auto id = ideal_->pull()) {
      ++pulled_;
      pulled_hash_ += id_hash(*id);
      return *id;
    }
    const bool more = elsewhere_() > 0 || (banks_.front().mode() == Mode::single && holders_ > 0);
    return more ? kWait : kDone;
  }
  Bank& b = bank(core, lane);
  if (b.pullable() > 0) {
    const std::uint32_t id = b.pull(c);
    ++pulled_;
    pulled_hash_ += id_hash(id);
    return id;
  }
  if (refill_.when == Refill::on_demand && !hvus_.empty()) {
    if (b.reserved() == 0 && hvus_[core]->refillable() > 0) {
      if (refill_.pulled_only) hvus_[core]->request(core_banks_[core], lane, refill_.per_bank);
      else hvus_[core]->refill_free(core_banks_[core], refill_.loads, refill_.per_bank);
    }
    if (b.reserved() > 0) return kRefill;
  }
  if (scheme_ == Scheme::none) {
    // Nothing but a refill reaches this bank [K L233]; with the HVU's work gone, DONE.
    const bool refill_coming = b.reserved() > 0 || (!hvus_.empty() && hvus_[core]->pull_side() > 0);
    if (refill_coming) return kWait;
    b.retire();
    return kDone;
  }
  bool work = icrn_.in_flight() + elsewhere_() > 0;
  for (std::uint32_t k = 0; k < cores_ && !work; ++k) work = !core_empty(k) || (k < hvus_.size() && hvus_[k]->pull_side());
  if (work || (b.mode() == Mode::single && holders_ > 0)) {  // single buffer: a holder may push more
    if (demand_redistributes()) demand_pull(core, lane, c);
    return kWait;
  }
  if (const std::uint64_t left = pullable_work())
    throw Error("HWWL invariant: DONE at cycle " + std::to_string(c) + " while " + std::to_string(left) +
                " work IDs can still be pulled");
  b.retire();
  return kDone;
}

std::uint32_t Worklist::passes(std::uint32_t active) const {
  if (ideal_) return active ? 1 : 0;  // unlimited bandwidth: the whole warp at once
  std::uint32_t n = 0;
  for (unsigned t = 0; t < 32; ++t)
    if (active >> t & 1) n = std::max(n, t / lanes_ + 1);
  return n;
}

bool Worklist::warp_ports_free(std::uint32_t core, std::uint32_t active, sim::Cycle c) const {
  if (ideal_) return true;
  for (unsigned t = 0; t < 32; ++t)
    if (active >> t & 1 && !bank(core, t % lanes_).port_free(c + t / lanes_)) return false;
  return true;
}

void Worklist::warp_pull(std::uint32_t core, std::uint32_t warp, std::uint32_t active, sim::Cycle c,
                         std::uint32_t out[32]) {
  for (unsigned t = 0; t < 32; ++t)
    if (active >> t & 1) out[t] = pull(core, t % lanes_, c + t / lanes_, warp * 32 + t);
}

std::uint32_t Worklist::warp_push(std::uint32_t core, std::uint32_t active, const std::uint32_t ids[32], sim::Cycle c) {
  std::uint32_t refused = 0;
  for (unsigned t = 0; t < 32; ++t)
    if (active >> t & 1 && !push(core, t % lanes_, ids[t], c + t / lanes_)) refused |= 1u << t;
  return refused;
}

bool Worklist::push(std::uint32_t core, std::uint32_t lane, std::uint32_t id, sim::Cycle c) {
  Bank& b = bank(core, lane);
  if (ideal_) {
    check_work_id(id);
    ideal_->push(id);
  } else if (b.push_full()) {
    if (hvus_.empty()) return false;
    hvus_[core]->spill(id);  // throws the hardware exception when the overflow buffer is full
  } else {
    b.push(c, id);
    if (demand_redistributes() && b.mode() == Mode::single) demand_push(core, lane, c);
  }
  ++pushed_;
  pushed_hash_ += id_hash(id);
  return true;
}

void Worklist::init_overflow(std::uint64_t base, std::uint64_t per_core,
                             const std::function<MemoryPort&(std::uint32_t core)>& memory, RefillPolicy refill) {
  if (per_core == 0) throw Error("wlinit: an overflow buffer of 0 IDs per core", Error::Kind::usage);
  if (refill.when == Refill::interval && refill.per_bank > banks_.front().capacity())
    throw Error("hwwl.refill_per_bank: " + std::to_string(refill.per_bank) + " IDs a bank, but a bank partition holds " +
                    std::to_string(banks_.front().capacity()) + ": an interval refill would never find room",
                Error::Kind::config);
  if (held() > 0) throw Error("wlinit while the worklist holds " + std::to_string(held()) + " work IDs", Error::Kind::usage);
  hvus_.clear();
  if (ideal_) return;  // infinite capacity: nothing spills
  refill_ = refill;
  for (std::uint32_t k = 0; k < cores_; ++k)
    hvus_.push_back(std::make_unique<Hvu>(k, base + k * per_core * 4, per_core, memory(k), banks_.front().mode()));
}

void Worklist::virtualize(sim::Cycle c, bool refill_point) {
  for (std::uint32_t k = 0; k < hvus_.size(); ++k) {
    auto& banks = core_banks_[k];
    hvus_[k]->step(banks, c, refill_.loads);
    if (refill_point && refill_.when == Refill::interval)
      while (hvus_[k]->refill_all(banks, refill_.loads, refill_.per_bank)) {
      }
  }
}

std::uint64_t Worklist::hvu_total(std::uint64_t (Hvu::*count)() const) const {
  std::uint64_t n = 0;
  for (const auto& h : hvus_) n += ((*h).*count)();
  return n;
}

void Worklist::kernel_end() {
  for (auto& h : holding_) h.assign(h.size(), false);  // every thread of the kernel has exited
  holders_ = 0;
  if (ideal_) ideal_->kernel_end();
  for (Bank& b : banks_) b.kernel_end();
  for (auto& h : hvus_) h->kernel_end();
}

void Worklist::redistribute(sim::Cycle c) {
  if (scheme_ == Scheme::none || ideal_) return;
  if (scheme_ == Scheme::magic) {
    spread_evenly();
    return;
  }
  // Plans, then destinations for the exports: gsorting chooses its own; the per-core schemes send
  // to the next core, round-robin, whose global greedy bit is clear.
  GlobalPlan g;
  const auto sorted = [](std::uint64_t n) { return n * static_cast<std::uint64_t>(std::ceil(std::log2(std::max<double>(n, 2)))); };
  comparisons_ += scheme_ == Scheme::threshold ? std::uint64_t{cores_} * lanes_
                  : scheme_ == Scheme::lsorting ? cores_ * sorted(lanes_)
                                                : sorted(std::uint64_t{cores_} * lanes_);
  if (scheme_ == Scheme::gsorting) {
    std::vector<std::vector<std::uint32_t>> occupancy(cores_, std::vector<std::uint32_t>(lanes_));
    for (std::uint32_t k = 0; k < cores_; ++k)
      for (std::uint32_t l = 0; l < lanes_; ++l) occupancy[k][l] = bank(k, l).occupied();
    g = plan_gsorting(occupancy, threshold_);
  } else {
    g.cores.resize(cores_);
    g.destination.resize(cores_);
    std::vector<std::uint32_t> occupancy(lanes_);
    for (std::uint32_t k = 0; k < cores_; ++k) {
      for (std::uint32_t l = 0; l < lanes_; ++l) occupancy[l] = bank(k, l).occupied();
      g.cores[k] = scheme_ == Scheme::threshold ? plan_threshold(occupancy, threshold_, rotation_[k]++)
                                                : plan_lsorting(occupancy, threshold_);
    }
    for (std::uint32_t k = 0; k < cores_; ++k) {
      if (!g.cores[k].export_bank) continue;
      for (std::uint32_t i = 1; i < cores_ && !g.destination[k]; ++i) {
        const std::uint32_t d = (next_destination_[k] + i) % cores_;
        if (!g.cores[d].global_greedy) g.destination[k] = d;
      }
    }
  }
  for (std::uint32_t k = 0; k < cores_; ++k) {
    for (const Transfer& t : g.cores[k].moves) {
      Bank &from = bank(k, t.from), &to = bank(k, t.to);
      if (to.retired()) continue;  // its lane pulled DONE: nobody would pull the ID there
      if (!from.port_free(c) || !to.port_free(c) || from.pullable() == 0 || to.free_pull_entries() == 0) {
        ++skipped_;  // a pull or push has the port this cycle (or the IDs are reserved, not yet landed)
        continue;
      }
      to.move_in(c, from.move_out(c));
      ++moved_;
    }
    if (!g.cores[k].export_bank || !g.destination[k]) continue;
    Bank& from = bank(k, *g.cores[k].export_bank);
    const std::uint32_t d = *g.destination[k];
    if (from.port_free(c) && from.pullable() > 0 && icrn_.can_send(k, d, c)) {
      icrn_.send(k, d, from.move_out(c), c);
      next_destination_[k] = d;
      ++exported_;
    }
  }
}

void Worklist::demand_pull(std::uint32_t core, std::uint32_t lane, sim::Cycle c) {
  Bank& to = bank(core, lane);
  if (to.free_pull_entries() == 0 || !to.second_port_free(c) || to.retired()) return;
  const std::uint32_t least = scheme_ == Scheme::threshold ? threshold_ + 1 : 2;  // what a donor must hold
  comparisons_ += lanes_;
  // The fullest bank of `k` that can give through its second port (lowest index on ties).
  const auto donor = [&](std::uint32_t k) -> Bank* {
    Bank* best = nullptr;
    for (std::uint32_t l = 0; l < lanes_; ++l) {
      Bank& b = bank(k, l);
      if (&b != &to && b.pullable() >= least && b.second_port_free(c) && (!best || b.occupied() > best->occupied()))
        best = &b;
    }
    return best;
  };
  if (Bank* from = donor(core)) {
    to.move_in_second(c, from->move_out_second(c));
    ++moved_;
    return;
  }
  if (!core_empty(core)) return;
  // The core is empty: the globally greedy core holding the most work sends one over the ICRN.
  comparisons_ += std::uint64_t{cores_} * lanes_;
  std::optional<std::uint32_t> source;
  std::uint64_t most = 0;
  for (std::uint32_t k = 0; k < cores_; ++k) {
    std::uint32_t greedy = 0, needy = 0;
    std::uint64_t held = 0;
    for (std::uint32_t l = 0; l < lanes_; ++l) {
      greedy += bank(k, l).occupied() > threshold_;
      needy += bank(k, l).occupied() < threshold_;
      held += bank(k, l).pullable();
    }
    if (k != core && greedy > needy && held > most && icrn_.can_send(k, core, c)) {
      source = k;
      most = held;
    }
  }
  if (!source) return;
  comparisons_ += lanes_;
  if (Bank* from = donor(*source)) {
    icrn_.send(*source, core, from->move_out_second(c), c);
    ++exported_;
  }
}

void Worklist::demand_push(std::uint32_t core, std::uint32_t lane, sim::Cycle c) {
  Bank& from = bank(core, lane);
  if (from.occupied() <= threshold_ || !from.second_port_free(c)) return;
  comparisons_ += lanes_;
  Bank* to = nullptr;
  for (std::uint32_t l = 0; l < lanes_; ++l) {
    Bank& b = bank(core, l);
    if (l != lane && b.occupied() < threshold_ && !b.retired() && b.free_pull_entries() > 0 && b.second_port_free(c) &&
        (!to || b.occupied() < to->occupied()))
      to = &b;
  }
  if (!to) return;
  to->move_in_second(c, from.move_out_second(c));
  ++moved_;
}

void Worklist::spread_evenly() {
  std::vector<std::uint32_t> all;
  for (Bank& b : banks_) b.drain_into(all);
  // Deal them out oldest first, one bank after another, to banks with room.
  std::size_t next = 0;
  for (std::uint32_t id : all) {
    for (std::size_t tries = 0; (banks_[next].retired() || banks_[next].free_pull_entries() == 0) && tries < banks_.size();
         ++tries)
      next = (next + 1) % banks_.size();
    banks_[next].place(id);
    next = (next + 1) % banks_.size();
  }
  moved_ += all.size();
}

void Worklist::deliver(sim::Cycle c) {
  icrn_.step(c);
  for (std::uint32_t k = 0; k < cores_; ++k) {
    if (!icrn_.peek(k, c)) continue;
    std::optional<std::uint32_t> best;
    for (std::uint32_t l = 0; l < lanes_; ++l) {
      const Bank& b = bank(k, l);
      if (b.port_free(c) && !b.retired() && b.free_pull_entries() > 0 && (!best || b.occupied() < bank(k, *best).occupied())) best = l;
    }
    if (!best) continue;  // every bank busy or full: it waits at the core's input
    bank(k, *best).move_in(c, *icrn_.peek(k, c));
    icrn_.take(k);
  }
}

std::uint64_t Worklist::pullable_work() const {
  std::uint64_t n = icrn_.in_flight() + elsewhere_() + (ideal_ ? ideal_->pullable() : 0);
  for (const Bank& b : banks_) n += b.occupied();
  for (const auto& h : hvus_) n += h->pull_side();
  return n;
}

void Worklist::check(sim::Cycle c, bool every_id) const {
  if (pushed_ != pulled_ + held())
    throw Error("HWWL invariant at cycle " + std::to_string(c) + ": " + std::to_string(pushed_) + " IDs pushed, " +
                std::to_string(pulled_) + " pulled, " + std::to_string(held()) + " held");
  if (!every_id) return;
  std::uint64_t count = 0, hash = 0;
  const auto add = [&](std::uint32_t id) {
    ++count;
    hash += id_hash(id);
  };
  for (const Bank& b : banks_) b.for_each(add);
  if (ideal_) ideal_->for_each(add);
  icrn_.for_each(add);
  for (const auto& h : hvus_) h->for_each(add);
  if (pushed_ != pulled_ + count || pushed_hash_ != pulled_hash_ + hash)
    throw Error("HWWL invariant at cycle " + std::to_string(c) + ": " + std::to_string(pushed_) + " IDs pushed, " +
                std::to_string(pulled_) + " pulled, " + std::to_string(count) + " held" +
                (pushed_ == pulled_ + count ? " (counts agree, the IDs do not: one lost and one duplicated)" : ""));
}

std::uint64_t Worklist::held() const {
  std::uint64_t n = icrn_.in_flight() + (ideal_ ? ideal_->held() : 0);
  for (const Bank& b : banks_) n += b.held();
  for (const auto& h : hvus_) n += h->held();
  return n;
}

}  // namespace irr::hwwl
