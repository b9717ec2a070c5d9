// SPDX-License-Identifier: Apache-2.0
#include "models/mem/partition.h"

#include <algorithm>

#include "models/mem/policy/policy.h"

namespace irr::mem {

using tlm_glue::Access;
using tlm_glue::gpu;

MemoryPartition::MemoryPartition(const sc_core::sc_module_name& name, sim::Simulation& sim, std::uint32_t index,
                                 const AddressMap& map)
    : sc_core::sc_module(name),
      target("target", *this, sim.config().get_uint("l2.input_queue")),
      sim_(sim),
      index_(index),
      map_(map),
      l2_(sim.config().get_size("l2.size") / map.partitions, static_cast<std::uint32_t>(sim.config().get_uint("l2.ways")),
          static_cast<std::uint32_t>(sim.config().get_size("l2.line_size")), "l2 slice (l2.size / l2.partitions)"),
      mshr_(sim.config().get_uint("l2.mshrs"), sim.config().get_uint("l2.mshr_merge")),
      latency_(static_cast<std::uint32_t>(sim.config().get_uint("l2.latency"))),
      unit_latency_(static_cast<std::uint32_t>(sim.config().get_uint("l2.unit_latency"))
                        ? static_cast<std::uint32_t>(sim.config().get_uint("l2.unit_latency"))
                        : latency_),  // 0: l2.latency
      line_(static_cast<std::uint32_t>(sim.config().get_size("l2.line_size"))),
      sector_(static_cast<std::uint32_t>(sim.config().get_size("l1.sector_size"))),
      all_sectors_(sector_mask(line_ / sector_)),
      write_back_(sim.config().get_string("l2.write_policy") == "write_back"),
      atomic_throughput_(static_cast<std::uint32_t>(sim.config().get_uint("atomic.throughput"))),
      atomic_latency_(static_cast<std::uint32_t>(sim.config().get_uint("atomic.latency"))),
      dram_timing_(DramTiming::from(sim.config())),
      dram_done_(1u << 20),
      accesses_(sim.counter(*this, "l2.accesses", "requests looked up in the L2 slice", "requests")),
      hits_(sim.counter(*this, "l2.hits", "L2 hits", "requests")),
      misses_(sim.counter(*this, "l2.misses", "L2 misses sent to DRAM", "requests")),
      mshr_merges_(sim.counter(*this, "l2.mshr_merges", "misses merged into a line in flight", "requests")),
      reservation_fails_(sim.counter(*this, "l2.reservation_fails",
                                             "cycles a request waited for an MSHR or the DRAM queue", "cycles")),
      writebacks_(sim.counter(*this, "l2.writebacks", "dirty lines written to DRAM", "lines")),
      atomics_done_(sim.counter(*this, "atomic.operations", "atomic operations performed", "operations")),
      atomic_stall_cycles_(sim.counter(*this, "atomic.serialisation_stalls",
                                               "cycles an atomic waited for an earlier one to the same address", "cycles")),
      mshr_probe_(sim.probe(*this, "l2.mshr_occupancy", sim::bits_for(mshr_.capacity()), "L2 MSHRs in use")),
      queue_probe_(sim.probe(*this, "outstanding", 16, "requests in the partition")),
      trace_(sim.txn_trace()) {
  if (trace_) track_ = trace_->track("partition " + std::to_string(index), "l2");
  if (line_ == 0 || line_ & (line_ - 1)) throw Error("l2.line_size must be a power of two", Error::Kind::config);
  if (sim.config().get_string("l2.set_index") == "local") l2_.index_locally(map);
  install_policies({sim, *this, "l2.", l2_, line_ / sector_, index, map.partitions}, "l2", policies_);
  dram_ = std::make_unique<DramChannel>("dram", sim, dram_timing_, dram_done_, *this);
  sim.clock("l2").add(*this);
  sim.watch(this->name(), *this);
}

void MemoryPartition::schedule_reply(tlm::tlm_generic_payload& p, sim::Cycle at) {
  replies_.push({at, order_++, &p});
}

void MemoryPartition::to_dram(std::uint64_t line, bool write, sim::Cycle at, std::uint32_t bytes, std::uint32_t sectors) {
  dram_out_.emplace_back(at, DramRequest{map_.local(line), write, bytes, line, sectors});
}

void MemoryPartition::fill(std::uint64_t line, std::uint32_t sectors, sim::Cycle c) {
  wants_mshr_ = false;
  const std::vector<tlm::tlm_generic_payload*>& pending = mshr_.requests(line);
  bool dirty = false, allocate = false;
  LineFill f{sectors, 0, 0, gpu(*pending.front()).pc};
  for (auto* p : pending) {
    dirty = dirty || gpu(*p).access == Access::atomic;
    allocate = allocate || !gpu(*p).no_allocate;
    f.used |= gpu(*p).sectors;
  }
  CacheRequest r{line, f.pc, gpu(*pending.front()).sectors, gpu(*pending.front()).sm};
  r.hint = ~0;  // what every load waiting for the line asks of the policies
  for (auto* p : pending) r.hint &= gpu(*p).hint;
  f.first = first_sector(r.sectors);
  // Atomics' lines are always installed: they are performed in the L2 [G L965].
  const bool fresh_load = allocate && !dirty && !l2_.contains(line);
  if (fresh_load && !policies_.empty()) allocate = policies_.allocate(r, l2_.victim(line));
  if (profile_ && fresh_load) profile_->filled(f.pc, line, allocate);
  if (allocate) left(l2_.fill(line, dirty, policies_.insert_mru(r), nullptr, f), c);
  const std::uint32_t all = all_sectors_;
  std::vector<tlm::tlm_generic_payload*> done = std::move(released_);  // the spare list
  mshr_.release(line, sectors, [all](tlm::tlm_generic_payload* q) { return gpu(*q).sectors & all; }, done);
  for (auto* p : done) {
    gpu(*p).served = tlm_glue::Served::dram;
    if (!policies_.empty() && to_l1(gpu(*p))) {
      const CacheRequest answered = request(gpu(*p));
      gpu(*p).feedback = policies_.feedback(answered);
      gpu(*p).owned = policies_.copy_back(answered);
    }
    if (gpu(*p).access == Access::atomic) add_atomic(c, p);
    else schedule_reply(*p, c);
  }
  released_ = std::move(done);
}

bool PartitionUnit::accept(tlm::tlm_generic_payload&, MemoryPartition& partition) {
  throw Error(std::string(partition.name()) + ": a request for its unit, which takes none");
}

void MemoryPartition::issue(tlm::tlm_generic_payload& p) {
  if (!unit_) throw std::logic_error(std::string(name()) + ": a unit's request with no unit attached");
  gpu(p).from_unit = true;
  from_unit_.push_back(&p);
  wake();
}

void MemoryPartition::respond(tlm::tlm_generic_payload& p) {
  if (gpu(p).from_unit) unit_->response(p, *this);
  else target.respond(p);
}

bool MemoryPartition::handle(tlm::tlm_generic_payload& p, sim::Cycle c) {
  auto& g = gpu(p);
  if (g.to_unit) {
    if (!unit_)
      throw Error(std::string(name()) + ": a request for the unit beside the L2 (from SM " + std::to_string(g.sm) +
                  "), but no unit is attached to this partition");
    return unit_->accept(p, *this);
  }
  if (unit_ && unit_->intercept(p, *this)) return true;
  const std::uint64_t line = g.line;
  // The unit beside the L2 may reach it without the path from the crossbar (l2.unit_latency).
  const std::uint32_t lat = g.from_unit ? unit_latency_ : latency_;
  if (g.copyback) {
    copy_back(g, c + lat);
    schedule_reply(p, c + lat);
    return true;
  }
  if (g.access == Access::store) {
    ++accesses_;
    const bool hit = l2_.contains(line);
    (hit ? hits_ : misses_) += 1;
    if (write_back_) {
      // Write-back, write-validate: the line is installed dirty without a fetch (sector masks
      // keep partial writes correct in a real design; the timing path carries no data). A
      // sector cache validates only the sectors written.
      left(l2_.fill(line, true, true, nullptr, LineFill{g.sectors, g.sectors, 0, g.pc}), c + lat);
    } else {  // write-evict, no-write-allocate: the store goes on to DRAM
      if (auto ev = l2_.invalidate(line); ev && !policies_.empty()) policies_.evicted(*ev);
      to_dram(line, true, c + lat, g.bytes);
    }
    schedule_reply(p, c + lat);  // acknowledged once the L2 has it
    return true;
  }
  return load(p, c, lat);
}

// A load or an atomic: a hit, a miss merged into (or widening) the line's fetch in flight, or a
// new miss to DRAM.
bool MemoryPartition::load(tlm::tlm_generic_payload& p, sim::Cycle c, std::uint32_t lat) {
  auto& g = gpu(p);
  const std::uint64_t line = g.line;
  const CacheRequest r = request(g);
  const bool bypass = g.access == Access::load && g.no_allocate;
  const bool pending = mshr_.pending(line);
  auto look = CacheArray::Lookup::miss;
  if (!bypass && !pending) {
    look = l2_.lookup(line, r.sectors);
    if (look == CacheArray::Lookup::hit) {
      ++accesses_;
      ++hits_;
      if (profile_ && g.access == Access::load) profile_->accessed(g.pc, line, true, l2_.pc_of(line));
      if (!policies_.empty()) {
        policies_.accessed(r, look);
        if (to_l1(g)) {  // inclusion: the line may move to the L1, to come back when it leaves
          g.feedback = policies_.feedback(r);
          g.owned = policies_.copy_back(r);
          if (!policies_.keep_on_hit(r)) left(l2_.invalidate(line), c + lat);
        }
      }
      if (g.access == Access::atomic) add_atomic(c + lat, &p);
      else schedule_reply(p, c + lat);
      return true;
    }
  }
  if (pending) {
    // Sectors neither in flight nor cached need a fetch of their own (sector caches only).
    const std::uint32_t missing = r.sectors & ~mshr_.fetching(line) & ~l2_.valid_sectors(line);
    if (mshr_.can_merge(line) && (!missing || dram_out_.size() < dram_timing_.queue)) {
      ++accesses_;
      ++misses_;
      ++mshr_merges_;
      mshr_.merge(line, &p);
      if (missing) {
        mshr_.widen(line, missing);
        to_dram(line, false, c + lat, fetch_bytes(missing, line_, sector_), missing);
      }
      if (!policies_.empty()) policies_.accessed(r, look);
      if (profile_ && g.access == Access::load) profile_->accessed(g.pc, line, false, 0);
      return true;
    }
  }
  if (pending || !mshr_.can_allocate() || dram_out_.size() >= dram_timing_.queue) {
    ++reservation_fails_;
    // Then it fails alike until a fill (unless a unit beside the L2 may change the table meanwhile).
    wants_mshr_ = !unit_ && mshr_.refuses(line);
    return false;  // retried next cycle
  }
  ++accesses_;
  ++misses_;
  std::uint32_t fetch = kWholeLine;
  if (l2_.sectored()) {
    const std::uint32_t present = look == CacheArray::Lookup::sector_miss ? l2_.valid_sectors(line) : 0;
    fetch = policies_.fetch(r, present) & ~present & all_sectors_;
  }
  if (!policies_.empty()) policies_.accessed(r, look);
  if (profile_ && g.access == Access::load) profile_->accessed(g.pc, line, false, 0);
  mshr_.allocate(line, &p, fetch);
  to_dram(line, false, c + lat, fetch_bytes(fetch, line_, sector_), fetch);
  return true;
}

CacheRequest MemoryPartition::request(const tlm_glue::GpuRequest& g) const {
  return {g.line, g.pc, l2_.sectored() ? g.sectors & all_sectors_ : kWholeLine, g.sm, g.copyback, g.hint};
}

bool MemoryPartition::to_l1(const tlm_glue::GpuRequest& g) {
  return g.access == Access::load && !g.from_unit && !g.uncached && !g.no_allocate;
}

// An L1's copy-back of a clean line it evicted: installed as the policies decide (a line still
// here stays as it is); no DRAM traffic but a dirty victim's write-back.
void MemoryPartition::copy_back(const tlm_glue::GpuRequest& g, sim::Cycle at) {
  const CacheRequest r = request(g);
  if (l2_.contains(g.line) || (!policies_.empty() && !policies_.allocate(r, l2_.victim(g.line)))) return;
  left(l2_.fill(g.line, false, policies_.empty() || policies_.insert_mru(r), nullptr, LineFill{g.sectors, 0, 0, g.pc}), at);
}

// A line left the slice (replaced or invalidated): the policies learn of it; a dirty one goes to DRAM.
void MemoryPartition::left(const std::optional<CacheArray::Evicted>& ev, sim::Cycle at) {
  if (!ev) return;
  if (!policies_.empty()) policies_.evicted(*ev);
  if (ev->dirty) {
    ++writebacks_;
    to_dram(ev->line, true, at, line_);
  }
}

void MemoryPartition::add_atomic(sim::Cycle at, tlm::tlm_generic_payload* p) {
  atomics_.emplace_back(at, p);
  atomics_due_ = std::min(atomics_due_, at);
}

void MemoryPartition::run_atomics(sim::Cycle c) {
  if (atomics_due_ > c) return;  // none due: nothing starts or stalls (most cycles, with long L2 latencies)
  std::uint32_t started = 0;
  sim::Cycle due = sim::kNever;  // the earliest left waiting
  for (auto it = atomics_.begin(); it != atomics_.end();) {
    if (it->first > c || started == atomic_throughput_) {
      due = std::min(due, it->first);
      ++it;
      continue;
    }
    tlm::tlm_generic_payload* p = it->second;
    const std::uint64_t addr = p->get_address();
    auto busy = std::find_if(atomic_busy_.begin(), atomic_busy_.end(), [addr](const auto& b) { return b.first == addr; });
    if (busy != atomic_busy_.end() && busy->second > c) {  // an earlier operation on this address
      ++atomic_stall_cycles_;
      due = std::min(due, it->first);
      ++it;
      continue;
    }
    if (busy != atomic_busy_.end()) busy->second = c + atomic_latency_;
    else atomic_busy_.emplace_back(addr, c + atomic_latency_);
    l2_.mark_dirty(gpu(*p).line);
    ++atomics_done_;
    schedule_reply(*p, c + atomic_latency_);
    it = atomics_.erase(it);
    ++started;
  }
  atomics_due_ = due;
  atomic_busy_.erase(std::remove_if(atomic_busy_.begin(), atomic_busy_.end(), [c](const auto& b) { return b.second <= c; }),
                     atomic_busy_.end());
}

bool MemoryPartition::tick(sim::Cycle c) {
  const sim::Picoseconds now = sim::now_ps();
  catch_up(c);
  blocked_at_ = sim::kNever;
  target.accept_pending(now);
  while (dram_done_.can_pop(now)) {
    DramRequest r = dram_done_.pop(now);
    if (!r.write) fill(r.tag, r.sectors, c);
  }
  bool taken = false;
  const bool head = target.has_request(now);
  if (head && wants_mshr_) {
    ++reservation_fails_;  // the head failed for want of an MSHR and no fill has come: it fails alike
  } else if (head && handle(target.front(), c)) {
    tlm::tlm_generic_payload& p = target.pop_request(now);
    if (trace_ && gpu(p).to_unit) {  // a request for the unit beside the L2 arrives there, not at the L2
      if (!unit_track_) unit_track_ = trace_->track("partition " + std::to_string(index_), "unit");
      trace_->hop(gpu(p).txn, *unit_track_, "unit");
    } else if (trace_) {
      trace_->hop(gpu(p).txn, track_, "l2");
    }
    taken = true;
  }
  if (!taken && !from_unit_.empty() && handle(*from_unit_.front(), c)) from_unit_.pop_front();
  run_atomics(c);
  if (!dram_out_.empty() && dram_out_.front().first <= c && dram_->can_accept(now)) {
    dram_->accept(dram_out_.front().second, now);
    dram_out_.pop_front();
  }
  // One reply per cycle onto the reply network, earliest first.
  if (!replies_.empty() && replies_.top().at <= c) {
    tlm::tlm_generic_payload* p = replies_.top().p;
    replies_.pop();
    respond(*p);
  }
  mshr_probe_.set(mshr_.size());
  queue_probe_.set(std::min<std::uint64_t>(0xffff, replies_.size() + atomics_.size() + target.queued() + mshr_.size()));
  // Misses waiting for DRAM need no ticking: the channel wakes the partition when data returns.
  // Nor does an input whose head waits for an MSHR: only a fill frees one.
  if (wants_mshr_) blocked_at_ = c;
  const sim::Cycle due = next_work(c);
  if (due == sim::kNever && wants_mshr_) hold();
  return due != sim::kNever && idle_until(c, due);
}

void MemoryPartition::catch_up(sim::Cycle c) {
  if (blocked_at_ != sim::kNever && c > blocked_at_ + 1) {  // each skipped cycle would have retried and failed alike
    reservation_fails_ += c - blocked_at_ - 1;
    blocked_at_ = c - 1;
  }
}

// The first cycle after c at which a tick can change anything: the next one while requests wait
// at the input (but for a head waiting for an MSHR) or a fill is to be taken, else when the
// earliest reply, atomic or DRAM request falls due (the L2's latency); kNever if none waits.
// Waiting atomics count a stall each cycle: they tick on.
sim::Cycle MemoryPartition::next_work(sim::Cycle c) const {
  const sim::Cycle soon = c + 1;
  if ((target.busy() && !wants_mshr_) || !from_unit_.empty() || !dram_done_.empty()) return soon;
  sim::Cycle next = sim::kNever;
  if (!dram_out_.empty()) next = std::max(dram_out_.front().first, soon);  // in order: the head first
  if (!replies_.empty()) next = std::min(next, std::max(replies_.top().at, soon));
  if (atomics_due_ <= soon) return soon;
  return std::min(next, atomics_due_);
}

std::vector<std::string> MemoryPartition::outstanding() const {
  std::vector<std::string> v;
  if (target.busy()) v.push_back(std::to_string(target.queued()) + " requests in the input queue");
  if (mshr_.size()) v.push_back(std::to_string(mshr_.size()) + " L2 misses waiting for DRAM");
  if (!replies_.empty()) v.push_back(std::to_string(replies_.size()) + " replies waiting");
  if (!atomics_.empty()) v.push_back(std::to_string(atomics_.size()) + " atomics waiting");
  if (!from_unit_.empty()) v.push_back(std::to_string(from_unit_.size()) + " requests of the unit beside the L2 waiting");
  return v;
}

}  // namespace irr::mem
