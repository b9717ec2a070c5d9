// SPDX-License-Identifier: Apache-2.0
#include "models/mem/l1_cache.h"

#include <algorithm>

#include "models/mem/policy/policy.h"

namespace irr::mem {

using tlm_glue::Access;
using tlm_glue::gpu;

namespace {
constexpr std::uint64_t kPrefetchId = ~1ull;  // a prefetch's MSHR entry: nobody to complete
constexpr std::size_t kPrefetchQueue = 16;    // lines named and not yet fetched
}  // namespace

L1Cache::L1Cache(const sc_core::sc_module_name& name, sim::Simulation& sim, std::uint32_t sm, const AddressMap& map,
                 tlm_glue::PayloadPool& pool, L1Client& client)
    : sc_core::sc_module(name),
      mem_side("mem_side", *this),
      sim_(sim),
      sm_(sm),
      map_(map),
      pool_(pool),
      client_(client),
      array_(sim.config().get_size("l1.size"), static_cast<std::uint32_t>(sim.config().get_uint("l1.ways")),
             static_cast<std::uint32_t>(sim.config().get_size("l1.line_size")), "l1.size"),
      mshr_(sim.config().get_uint("l1.mshrs"), sim.config().get_uint("l1.mshr_merge")),
      victims_(sim.config().get_size("l1.victim_cache") / sim.config().get_size("l1.line_size")),
      prefetch_buffer_(sim.config().get_size("l1.prefetch_buffer") / sim.config().get_size("l1.line_size")),
      latency_(static_cast<std::uint32_t>(sim.config().get_uint("l1.latency"))),
      victim_latency_(static_cast<std::uint32_t>(sim.config().get_uint("l1.victim_latency"))),
      line_(static_cast<std::uint32_t>(sim.config().get_size("l1.line_size"))),
      sector_(static_cast<std::uint32_t>(sim.config().get_size("l1.sector_size"))),
      miss_queue_size_(static_cast<std::uint32_t>(sim.config().get_uint("l1.miss_queue"))),
      port_accesses_(static_cast<std::uint32_t>(sim.config().get_uint("l1.port_accesses"))),
      port_cycles_(static_cast<std::uint32_t>(sim.config().get_uint("l1.port_cycles"))),
      all_sectors_(sector_mask(line_ / sector_)),
      write_back_(sim.config().get_string("l1.write_policy") == "write_back"),
      perfect_(sim.config().get_bool("l1.perfect")),
      copybacks_first_(sim.config().get_string("l1.copyback_order") == "before_misses"),
      input_(port_accesses_),
      accesses_(sim.counter(*this, "accesses", "line accesses from the LD/ST unit", "accesses")),
      hits_stat_(sim.counter(*this, "hits", "load hits", "accesses")),
      misses_(sim.counter(*this, "misses", "load misses (merged ones included)", "accesses")),
      mshr_merges_(sim.counter(*this, "mshr_merges", "misses merged into a line in flight", "accesses")),
      reservation_fails_(sim.counter(*this, "reservation_fails",
                                             "cycles an access waited for an MSHR or the miss queue", "cycles")),
      fails_mshr_(sim.counter(*this, "reservation_fails.mshr", "of those, waiting for an MSHR or a merge slot", "cycles")),
      fails_queue_(sim.counter(*this, "reservation_fails.miss_queue", "of those, waiting for the miss queue", "cycles")),
      stores_(sim.counter(*this, "stores", "stores sent to L2", "accesses")),
      atomics_(sim.counter(*this, "atomics", "atomics sent to L2", "accesses")),
      fetch_lookups_(static_cast<std::uint32_t>(sim.config().get_uint("l1.fetch_lookups"))),
      fetch_first_(sim.config().get_string("l1.fetch_priority") == "fetch"),
      miss_latency_(sim.distribution(*this, "miss_latency",
                                             "cycles from miss to fill", "cycles", 0, 25, 40)),
      mshr_probe_(sim.probe(*this, "mshr_occupancy", sim::bits_for(mshr_.capacity()), "MSHRs in use")),
      miss_queue_probe_(sim.probe(*this, "miss_queue", sim::bits_for(miss_queue_size_ + 1),
                                  "requests waiting for the network")),
      trace_(sim.txn_trace()) {
  if (trace_) track_ = trace_->track("SM " + std::to_string(sm), "l1");
  if (sim.config().get_size("l1.victim_cache") % line_)
    throw Error("l1.victim_cache: " + std::to_string(sim.config().get_size("l1.victim_cache")) +
                    " B is not a whole number of l1.line_size lines", Error::Kind::config);
  if (victims_.enabled()) {
    if (sim.config().get_string("l1.granularity") != "line")
      throw Error("l1.victim_cache holds whole lines: it needs l1.granularity: line", Error::Kind::config);
    victim_hits_ = &sim.counter(*this, "victim_hits", "of the hits, in the victim buffer", "accesses");
  }
  if (port_accesses_ > 1 && port_cycles_ == 1)
    throw Error("l1.port_accesses: " + std::to_string(port_accesses_) +
                    " accesses a cycle needs l1.port_cycles of 2 or more: the LD/ST unit refills the L1's input every other cycle",
                Error::Kind::config);
  if (port_accesses_ != 1 || port_cycles_ != 1)
    port_waits_ = &sim.counter(*this, "port_waits", "cycles an access waited because the window's l1.port_accesses were taken", "cycles");
  install_policies({sim, *this, "", array_, line_ / sector_}, "l1", policies_);
  if ((prefetcher_ = make_prefetcher(sim.config(), "l1", line_))) {
    if (array_.sectored())
      throw Error("l1.prefetcher fetches whole lines: it needs l1.granularity: line", Error::Kind::config);
    prefetches_ = &sim.counter(*this, "prefetches", "lines the prefetcher fetched", "lines");
    prefetch_useful_ = &sim.counter(*this, "prefetch_useful", "of those, loaded before they left the L1", "lines");
    prefetch_dropped_ = &sim.counter(*this, "prefetch_dropped", "lines named but not fetched: the queue full, or present or in flight", "lines");
    declare_tables_energy(sim, std::string(this->name()) + ".", "prefetcher", prefetcher_->storage_bits());
  }
  if (prefetch_buffer_.enabled() && !prefetcher_)
    throw Error("l1.prefetch_buffer holds prefetched lines: it needs an l1.prefetcher", Error::Kind::config);
  if (sim.config().get_size("l1.prefetch_buffer") % line_)
    throw Error("l1.prefetch_buffer: not a whole number of l1.line_size lines", Error::Kind::config);
  sim.clock("core").add(*this);
  sim.watch(this->name(), *this);
}

void L1Cache::accept(const MemAccess& a, sim::Picoseconds now) {
  input_.push(a, now);
  wake();
}

void L1Cache::enable_fetches() {
  if (fetches_) return;
  if (array_.sectored())
    throw Error("a unit's fetch path (SmPort::fetch_line) fetches whole lines: it needs l1.granularity: line", Error::Kind::config);
  fetches_ = &sim_.counter(*this, "fetches", "lines units fetched on their own path, each a tag lookup beside the input", "lines");
  fetch_misses_ = &sim_.counter(*this, "fetch_misses", "of those, fetched from L2 (an MSHR and a fill each)", "lines");
  fetch_merges_ = &sim_.counter(*this, "fetch_merges", "of those, merged into the line's fetch in flight", "lines");
}

void L1Cache::fetch(const MemAccess& a) {
  if (!fetches_) throw std::logic_error(std::string(name()) + ": fetch() without enable_fetches()");
  fetch_queue_.push_back(a);
  wake();
}

// Up to l1.fetch_lookups lines from the head of the fetch queue: one present (in the array or a
// buffer beside it) completes after the hit latency; one in flight waits for its fill in the MSHR;
// any other takes an MSHR and the miss path. The head waits for what it lacks, in order.
void L1Cache::fetch_lines(sim::Cycle c) {
  for (std::uint32_t n = 0; n < fetch_lookups_ && !fetch_queue_.empty(); ++n) {
    const MemAccess& a = fetch_queue_.front();
    if (perfect_ || array_.contains(a.line) || victims_.holds(a.line) || prefetch_buffer_.holds(a.line)) {
      hits_.insert_ordered({c + latency_, a}, [](const auto& x, const auto& y) { return x.first < y.first; });
    } else if (mshr_.pending(a.line)) {
      if (!mshr_.can_merge(a.line)) {
        fetch_waits_ = true;
        return;
      }
      mshr_.merge(a.line, a);
      ++*fetch_merges_;
    } else {
      if (!mshr_.can_allocate()) {
        fetch_waits_ = true;
        return;
      }
      if (miss_queue_.size() >= miss_queue_size_) return;
      mshr_.allocate(a.line, a, kWholeLine);
      to_network(a, c + latency_, kWholeLine);
      ++*fetch_misses_;
    }
    ++*fetches_;
    fetch_queue_.pop_front();
  }
}

void L1Cache::to_network(const MemAccess& a, sim::Cycle ready, std::uint32_t fetch) {
  miss_queue_.push_back({ready, a, fetch});
}

bool L1Cache::handle(const MemAccess& a, sim::Cycle c) {
  if (a.unit_partition >= 0) {  // for a partition's unit: straight to the network
    if (miss_queue_.size() >= miss_queue_size_) return fail(fails_queue_);
    to_network(a, c + latency_, 0);
    return true;
  }
  if (perfect_) {  // magic memory: everything is a hit
    ++accesses_;
    if (a.access == Access::load) ++hits_stat_;
    hits_.emplace_back(c + latency_, a);
    sim_.note_progress();  // no transactions for the watchdog to see
    return true;
  }
  if (a.access != Access::load || a.uncached) {
    if (miss_queue_.size() >= miss_queue_size_) return fail(fails_queue_);
    ++accesses_;
    if (a.access == Access::store) {  // their copies would be stale
      victims_.erase(a.line);
      prefetch_buffer_.erase(a.line);
    }
    if (a.uncached) {  // counted a miss: the L1 does not serve it
      ++misses_;
      to_network(a, c + latency_, 0);
    } else if (a.access == Access::atomic) {
      ++atomics_;
      to_network(a, c + latency_, 0);
    } else if (write_back_ && array_.contains(a.line)) {
      array_.mark_dirty(a.line);
      array_.access(a.line, 0);  // a use (LRU), reading no sector
      hits_.emplace_back(c + latency_, a);
    } else {
      if (!write_back_)  // write-evict
        if (auto ev = array_.invalidate(a.line); ev && !policies_.empty()) policies_.evicted(*ev);
      ++stores_;
      to_network(a, c + latency_, 0);
    }
    return true;
  }
  return load(a, c);
}

// The input's head waits (`why`): until a fill, an MSHR taken or the miss queue moving, each retry
// fails alike, so the retries are counted without being tried.
bool L1Cache::fail(sim::Counter& why) {
  ++reservation_fails_;
  ++why;
  head_fails_ = &why;
  return false;
}

// A load: a hit, a miss merged into (or widening) the line's fetch in flight, or a new miss.
bool L1Cache::load(const MemAccess& a, sim::Cycle c) {
  const CacheRequest r{a.line, a.pc, a.sectors, sm_};
  const bool pending = mshr_.pending(a.line);
  auto look = CacheArray::Lookup::miss;
  if (!pending) {
    look = array_.lookup(a.line, a.sectors);
    if (look == CacheArray::Lookup::hit) {
      ++accesses_;
      ++hits_stat_;
      hits_.emplace_back(c + latency_, a);
      if (!policies_.empty()) policies_.accessed(r, look);
      if (profile_) profile_->accessed(a.pc, a.line, true, array_.pc_of(a.line));
      release(a);
      train(a, false);
      return true;
    }
    if (victims_.enabled() && from_buffer(victims_, a, r, c, victim_latency_)) return true;
    if (prefetch_buffer_.enabled() && from_buffer(prefetch_buffer_, a, r, c, 0)) return true;
  }
  if (pending) {
    // Sectors neither in flight nor cached need a fetch of their own (sector caches only).
    const std::uint32_t missing = a.sectors & ~mshr_.fetching(a.line) & ~array_.valid_sectors(a.line);
    if (mshr_.can_merge(a.line) && (!missing || miss_queue_.size() < miss_queue_size_)) {
      ++accesses_;
      ++misses_;
      ++mshr_merges_;
      mshr_.merge(a.line, a);
      if (missing) {
        mshr_.widen(a.line, missing);
        MemAccess m = a;
        if (!policies_.empty()) m.hint = policies_.hint(r);
        to_network(m, c + latency_, missing);
      }
      if (!policies_.empty()) policies_.accessed(r, look);
      if (profile_) profile_->accessed(a.pc, a.line, false, 0);
      release(a);
      train(a, true);
      return true;
    }
  }
  const bool no_mshr = pending || !mshr_.can_allocate();
  if (no_mshr || miss_queue_.size() >= miss_queue_size_) {
    wants_mshr_ = mshr_.refuses(a.line);  // then it fails alike until a fill
    return fail(no_mshr ? fails_mshr_ : fails_queue_);
  }
  ++accesses_;
  ++misses_;
  std::uint32_t fetch = kWholeLine;
  if (array_.sectored()) {
    const std::uint32_t present = look == CacheArray::Lookup::sector_miss ? array_.valid_sectors(a.line) : 0;
    fetch = policies_.fetch(r, present) & ~present & all_sectors_;
  }
  MemAccess m = a;
  if (!policies_.empty()) {
    policies_.accessed(r, look);
    m.hint = policies_.hint(r);
  }
  if (profile_) profile_->accessed(a.pc, a.line, false, 0);
  mshr_.allocate(a.line, m, fetch);
  to_network(m, c + latency_, fetch);
  release(a);
  train(a, true);
  return true;
}

void L1Cache::train(const MemAccess& a, bool miss) {
  if (!prefetcher_) return;
  if (prefetched_.erase(a.line)) {
    ++*prefetch_useful_;
    prefetcher_->outcome(true);
  }
  candidates_.clear();
  prefetcher_->train({a.line, a.pc, a.warp, miss}, candidates_);
  for (std::uint64_t line : candidates_) {
    if (std::find(prefetch_queue_.begin(), prefetch_queue_.end(), line) != prefetch_queue_.end()) continue;
    prefetch_queue_.push_back(line);
    if (prefetch_queue_.size() > kPrefetchQueue) {  // the oldest goes
      prefetch_queue_.pop_front();
      ++*prefetch_dropped_;
    }
  }
}

void L1Cache::prefetch(sim::Cycle c) {
  while (!prefetch_queue_.empty()) {
    const std::uint64_t line = prefetch_queue_.front();
    if (array_.contains(line) || mshr_.pending(line) || prefetch_buffer_.holds(line)) {  // nothing to fetch
      prefetch_queue_.pop_front();
      ++*prefetch_dropped_;
      continue;
    }
    if (!mshr_.can_allocate() || miss_queue_.size() >= miss_queue_size_) return;  // it waits
    prefetch_queue_.pop_front();
    MemAccess m;
    m.id = kPrefetchId;
    m.warp = ~0u;
    m.access = Access::load;
    m.line = m.address = line;
    m.sectors = kWholeLine;
    mshr_.allocate(line, m, kWholeLine);
    head_fails_ = nullptr;
    to_network(m, c + latency_, kWholeLine);
    prefetched_.insert(line);
    ++*prefetches_;
    return;
  }
}

void L1Cache::unused(std::uint64_t line) {
  if (prefetched_.erase(line)) prefetcher_->outcome(false);
}

// A fill arrived: install it (as the policies decide) and complete the loads waiting for it
// whose sectors have all arrived.
void L1Cache::filled(const tlm_glue::GpuRequest& g, sim::Cycle c) {
  wants_mshr_ = false;
  fetch_waits_ = false;
  head_fails_ = nullptr;
  bool install = true, mru = true;
  LineFill f{g.sectors};
  if (!policies_.empty()) {  // what the policies decide with and learn from (no cost without them)
    const std::vector<MemAccess>& waiting = mshr_.requests(g.line);
    const CacheRequest r{g.line, waiting.front().pc, waiting.front().sectors, sm_, g.owned, g.feedback};
    policies_.filled(r);
    if (!array_.contains(g.line)) install = policies_.allocate(r, array_.victim(g.line));
    f = LineFill{g.sectors, 0, first_sector(r.sectors), r.pc};
    for (const MemAccess& w : waiting) f.used |= w.sectors;
    mru = policies_.insert_mru(r);
  }
  f.copyback = g.owned;  // a fill the L1 does not install is not copied back: the line is clean
  if (prefetch_buffer_.enabled()) {  // a prefetch no load has merged into waits beside the array
    const auto& waiting = mshr_.requests(g.line);
    if (std::all_of(waiting.begin(), waiting.end(), [](const MemAccess& m) { return m.id == kPrefetchId; })) {
      if (auto out = prefetch_buffer_.insert(CacheArray::Evicted{g.line, false})) unused(out->line);
      install = false;
    }
  }
  if (profile_) {
    f.pc = mshr_.requests(g.line).front().pc;  // the fetching PC, its lines' hits credited to it
    if (!array_.contains(g.line)) profile_->filled(f.pc, g.line, install);
  }
  if (install) {
    auto ev = array_.fill(g.line, false, mru, nullptr, f);
    if (!locks_.empty() && locks_.count(g.line)) array_.lock(g.line, true);
    replaced(ev, c);
  }
  std::vector<MemAccess> done = std::move(released_);  // the spare list (empty if a completion fills again)
  mshr_.release(g.line, g.sectors, [](const MemAccess& m) { return m.sectors; }, done);
  for (MemAccess a : done) {
    if (a.id == kPrefetchId) continue;
    a.served = g.served;
    complete(a);
  }
  released_ = std::move(done);
}

// A load missing in the array finds its line in `buffer` (the victim buffer, or the prefetch
// buffer): the line moves into the array, and the load completes as a hit `extra` cycles later than
// one in the array.
bool L1Cache::from_buffer(VictimBuffer& buffer, const MemAccess& a, const CacheRequest& r, sim::Cycle c,
                          std::uint32_t extra) {
  auto v = buffer.take(a.line);
  if (!v) return false;
  bool installed = false;
  auto ev = array_.fill(v->line, false, true, &installed, LineFill{v->valid, v->used, v->first, v->pc, v->copyback});
  if (!installed) {  // every way of its set locked: it stays where it is and the load misses
    buffer.insert(*v);
    return false;
  }
  if (!locks_.empty() && locks_.count(a.line)) array_.lock(a.line, true);
  replaced(ev, c);
  ++accesses_;
  ++hits_stat_;
  if (&buffer == &victims_) ++*victim_hits_;
  const sim::Cycle done = c + latency_ + extra;
  hits_.insert_ordered({done, a}, [](const auto& x, const auto& y) { return x.first < y.first; });
  if (!policies_.empty()) policies_.accessed(r, CacheArray::Lookup::hit);
  if (profile_) profile_->accessed(a.pc, a.line, true, v->pc);
  release(a);
  train(a, false);
  return true;
}

// The array replaced a line: a clean one waits in the victim buffer (pushing out its oldest) when
// there is one, and leaves otherwise.
void L1Cache::replaced(const std::optional<CacheArray::Evicted>& ev, sim::Cycle c) {
  if (!ev) return;
  if (prefetcher_) unused(ev->line);
  if (!policies_.empty()) policies_.evicted(*ev);
  if (victims_.enabled() && !ev->dirty) {
    if (auto out = victims_.insert(*ev)) leave(*out, c);
  } else {
    leave(*ev, c);
  }
}

// A line leaving the L1 level: a dirty one is written back, a clean one the L2 gave up is copied
// back, any other just goes.
void L1Cache::leave(const CacheArray::Evicted& e, sim::Cycle c) {
  if (!e.dirty && !e.copyback) return;
  MemAccess wb;
  wb.access = Access::store;
  wb.line = e.line;
  wb.address = e.line;
  wb.bytes = line_;
  wb.sectors = ~0u;
  wb.id = ~0ull;  // nobody waits for it
  wb.copyback = !e.dirty;
  if (wb.copyback) copybacks_.push_back(wb);
  else miss_queue_.push_back({c, wb, 0});
}

bool L1Cache::lock(std::uint64_t line, std::uint32_t warp) {
  auto it = locks_.find(line);
  if (it == locks_.end()) {
    std::uint32_t others = 0;
    for (const auto& [l, warps] : locks_) others += array_.set_of(l) == array_.set_of(line);
    if (others + 1 >= array_.ways()) return false;
    it = locks_.emplace(line, std::vector<std::uint32_t>{}).first;
    array_.lock(line, true);  // no effect until the line is in the cache: its fill locks it then
  }
  it->second.push_back(warp);
  return true;
}

void L1Cache::release(const MemAccess& a) {
  if (locks_.empty()) return;
  auto it = locks_.find(a.line);
  if (it == locks_.end()) return;
  auto w = std::find(it->second.begin(), it->second.end(), a.warp);
  if (w == it->second.end()) return;
  it->second.erase(w);
  if (it->second.empty()) {
    array_.lock(a.line, false);
    locks_.erase(it);
  }
}

void L1Cache::unlock_warp(std::uint32_t warp) {
  for (auto it = locks_.begin(); it != locks_.end();) {
    it->second.erase(std::remove(it->second.begin(), it->second.end(), warp), it->second.end());
    if (it->second.empty()) {
      array_.lock(it->first, false);
      it = locks_.erase(it);
    } else {
      ++it;
    }
  }
}

void L1Cache::take_inputs(sim::Cycle c, sim::Picoseconds now) {
  const sim::Cycle window = port_cycles_ == 1 ? c : c / port_cycles_;  // no division on the default port
  if (window != window_) {
    window_ = window;
    taken_ = 0;
  }
  if (taken_ == port_accesses_) {  // the window's accesses are taken: the head waits for the next
    ++*port_waits_;
    return;
  }
  // Until the window's accesses are taken or the head must wait (handle counted why).
  while (taken_ < port_accesses_ && input_.can_pop(now) && !wants_mshr_ && !head_fails_ && handle(input_.front(), c)) {
    input_.pop(now);
    ++taken_;
    client_.input_freed();
  }
}

bool L1Cache::tick(sim::Cycle c) {
  const sim::Picoseconds now = sim::now_ps();
  // Replies from the network: fills complete their merged loads; acks complete stores/atomics.
  while (mem_side.has_response(now)) {
    tlm::tlm_generic_payload& p = mem_side.pop_response(now);
    const auto& g = gpu(p);
    --pending_network_;
    ++sim_.transactions();
    if (trace_) trace_->end(g.txn);
    if (g.access == Access::load && !g.to_unit && !g.uncached) {
      miss_latency_.sample(static_cast<double>(now - g.issued_ps) / static_cast<double>(scheduler()->domain().period()));
      filled(g, c);
    } else if (g.id != ~0ull) {
      MemAccess a;
      a.id = g.id;
      a.warp = g.warp;
      a.pc = g.pc;
      a.access = g.access;
      a.line = g.line;
      a.bytes = g.bytes;
      a.address = p.get_address();
      a.served = g.served;
      complete(a);
    }
    p.release();
  }
  while (!hits_.empty() && hits_.front().first <= c) {
    complete(hits_.front().second);
    hits_.pop_front();
  }
  catch_up(c);
  blocked_at_.reset();
  const bool fetch_ready = fetch_can_go();
  if (fetch_ready && fetch_first_) fetch_lines(c);  // l1.fetch_priority: the fetch path's head takes a freed MSHR first
  if (input_.can_pop(now)) {
    if (wants_mshr_ || head_fails_) {  // the head failed and nothing it waits for has changed: it fails alike
      ++reservation_fails_;
      ++(wants_mshr_ ? fails_mshr_ : *head_fails_);
    } else {
      take_inputs(c, now);
    }
  } else if (prefetcher_) {  // a cycle the input leaves free
    prefetch(c);
  }
  if (fetch_ready && !fetch_first_) fetch_lines(c);
  const bool miss_ready = !miss_queue_.empty() && miss_queue_.front().ready <= c;
  const bool copyback = !copybacks_.empty() && (copybacks_first_ || !miss_ready || copybacks_.size() >= miss_queue_size_);
  if ((copyback || miss_ready) && mem_side.can_send(now)) {
    const Outgoing o = copyback ? Outgoing{c, copybacks_.front(), 0} : miss_queue_.front();
    if (copyback) copybacks_.pop_front();
    else {
      miss_queue_.pop_front();
      head_fails_ = nullptr;
    }
    tlm::tlm_generic_payload& p = pool_.allocate();
    auto& g = gpu(p);
    g.id = o.access.id;
    g.sm = sm_;
    g.warp = o.access.warp;
    g.pc = o.access.pc;
    g.access = o.access.access;
    g.atomic = o.access.atomic;
    g.line = o.access.line;
    g.sectors = o.fetch ? o.fetch : o.access.sectors;
    g.bytes = o.fetch ? fetch_bytes(o.fetch, line_, sector_) : o.access.bytes;
    g.partition = o.access.unit_partition >= 0 ? static_cast<std::uint32_t>(o.access.unit_partition)
                                               : map_.partition(o.access.line);
    g.to_unit = o.access.unit_partition >= 0;
    g.uncached = o.access.uncached;
    g.copyback = o.access.copyback;
    g.hint = o.access.hint;
    g.tag = o.access.tag;
    g.issued_ps = now;
    p.set_address(o.access.access == Access::atomic ? o.access.address : o.access.line);
    p.set_command(o.access.access == Access::load ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    p.set_data_length(g.bytes);
    ++pending_network_;
    if (trace_) {
      g.txn = trace_->new_id();
      trace_->begin(g.txn, track_, tlm_glue::access_name(g.access));
    }
    mem_side.send(p, now);
  }
  for (const MemAccess& a : done_) client_.completed(a);
  done_.clear();
  mshr_probe_.set(mshr_.size());
  miss_queue_probe_.set(miss_queue_.size());
  // Waiting for replies needs no ticking: the network wakes the cache when one arrives. Nor does
  // an input held for an MSHR: only a fill frees one (the retries it skips are counted as failed).
  if (wants_mshr_) blocked_at_ = c;
  if (!miss_queue_.empty() || !hits_.empty() || !copybacks_.empty()) {
    if (!copybacks_.empty() || (!input_.empty() && !wants_mshr_) || !prefetch_queue_.empty() || fetch_can_go()) return true;
    // Hits and misses wait out the L1's latency: nothing happens before the first falls due (a
    // miss the network does not take yet is tried each cycle).
    const sim::Cycle hit = hits_.empty() ? sim::kNever : hits_.front().first;
    return idle_until(c, miss_queue_.empty() ? hit : std::min(hit, miss_queue_.front().ready));
  }
  if (fetch_can_go()) return true;
  if (wants_mshr_) {
    hold();
    return false;
  }
  // Prefetches wait for a free MSHR: a fill wakes the cache.
  return !input_.empty() || (!prefetch_queue_.empty() && mshr_.can_allocate());
}

void L1Cache::catch_up(sim::Cycle c) {
  if (blocked_at_ && c > *blocked_at_ + 1) {  // each skipped cycle would have retried and failed alike
    reservation_fails_ += c - *blocked_at_ - 1;
    fails_mshr_ += c - *blocked_at_ - 1;
    blocked_at_ = c - 1;
  }
}

std::vector<std::string> L1Cache::outstanding() const {
  std::vector<std::string> v;
  if (mshr_.size()) v.push_back(std::to_string(mshr_.size()) + " MSHRs waiting for fills");
  if (!miss_queue_.empty()) v.push_back(std::to_string(miss_queue_.size()) + " requests in the miss queue");
  if (!copybacks_.empty()) v.push_back(std::to_string(copybacks_.size()) + " copy-backs waiting for the network");
  if (pending_network_) v.push_back(std::to_string(pending_network_) + " requests on the network");
  if (!fetch_queue_.empty()) v.push_back(std::to_string(fetch_queue_.size()) + " units' lines waiting to be fetched");
  return v;
}

}  // namespace irr::mem
