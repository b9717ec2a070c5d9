// SPDX-License-Identifier: Apache-2.0
#include "models/core/sm.h"

#include <algorithm>
#include <iterator>

#include <nlohmann/json.hpp>

#include "models/core/occupancy.h"
#include "sim/error.h"

namespace irr::core {

namespace {
constexpr std::uint64_t kUnitIds = 1ull << 62;  // access ids of units' injected accesses
constexpr std::size_t kLdstQueue = 64;           // line accesses the LD/ST queue holds
}  // namespace

using ptx::Op;
using ptx::Space;

namespace {

bool sfu(Op op) {
  return op == Op::rcp || op == Op::sqrt || op == Op::rsqrt || op == Op::ex2 || op == Op::lg2 || op == Op::sin ||
         op == Op::cos || op == Op::div || op == Op::rem;
}

bool control(Op op) {
  return op == Op::bra || op == Op::call || op == Op::ret || op == Op::exit || op == Op::bar || op == Op::membar ||
         op == Op::fence;
}

// A unit operation's arguments in the trace.
std::string unit_args(const UnitOp& op) {
  return "{\"warp\":" + std::to_string(op.warp) + ",\"cta\":" + std::to_string(op.cta) +
         ",\"lanes\":" + std::to_string(__builtin_popcount(op.active)) + (op.companion ? ",\"companion\":true}" : "}");
}

}  // namespace

// The issue class an instruction is counted under (issued.<class>).
Sm::IssueClass Sm::issue_class(const ptx::Instruction& in) {
  if (in.op == Op::extension) return IssueClass::extension;
  if (is_memory(in.op)) return IssueClass::memory;
  if (control(in.op)) return IssueClass::control;
  if (sfu(in.op)) return IssueClass::sfu;
  return ptx::is_float(in.type) ? IssueClass::fp : IssueClass::int_;
}

Sm::Sm(const sc_core::sc_module_name& name, sim::Simulation& sim, std::uint32_t index, const mem::AddressMap& map,
       tlm_glue::PayloadPool& pool, std::function<void(std::uint64_t)> cta_finished)
    : sc_core::sc_module(name),
      sim_(sim),
      index_(index),
      coalescer_(mem::Coalescer::from_config(sim.config())),
      atomic_per_line_(sim.config().get_string("atomic.coalescing") == "line"),
      cta_finished_(std::move(cta_finished)),
      trace_(sim.txn_trace()),
      max_warps_(static_cast<std::uint32_t>(sim.config().get_uint("core.max_warps"))),
      max_threads_(static_cast<std::uint32_t>(sim.config().get_uint("core.max_threads"))),
      max_ctas_(static_cast<std::uint32_t>(sim.config().get_uint("core.max_ctas"))),
      max_registers_(static_cast<std::uint32_t>(sim.config().get_uint("core.registers"))),
      schedulers_(static_cast<std::uint32_t>(sim.config().get_uint("core.warp_schedulers"))),
      passes_(static_cast<std::uint32_t>((32 + sim.config().get_uint("core.simd_width") - 1) / sim.config().get_uint("core.simd_width"))),
      max_shared_(sim.config().get_size("core.shared_memory")),
      policy_(sim.config().get_string("core.scheduler") == "gto"   ? Policy::gto
              : sim.config().get_string("core.scheduler") == "lrr" ? Policy::lrr
                                                                   : Policy::two_level),
      active_size_(static_cast<std::uint32_t>(sim.config().get_uint("core.two_level_active"))),
      active_(schedulers_),
      lat_int_(static_cast<std::uint32_t>(sim.config().get_uint("core.latency_int"))),
      lat_fp_(static_cast<std::uint32_t>(sim.config().get_uint("core.latency_fp"))),
      lat_sfu_(static_cast<std::uint32_t>(sim.config().get_uint("core.latency_sfu"))),
      lat_shared_(static_cast<std::uint32_t>(sim.config().get_uint("core.latency_shared"))),
      banks_(static_cast<std::uint32_t>(sim.config().get_uint("core.shared_banks"))),
      replay_(static_cast<std::uint32_t>(sim.config().get_uint("core.shared_replay_cycles"))),
      shared_port_lanes_(static_cast<std::uint32_t>(sim.config().get_uint("core.shared_port_lanes"))),
      shared_port_cycles_(static_cast<std::uint32_t>(sim.config().get_uint("core.shared_port_cycles"))),
      writeback_ports_(static_cast<std::uint32_t>(sim.config().get_uint("core.writeback_ports"))),
      sfu_interval_(static_cast<std::uint32_t>(sim.config().get_uint("core.sfu_interval"))),
      branch_stall_(static_cast<std::uint32_t>(sim.config().get_uint("core.branch_stall"))),
      scheds_(schedulers_),
      issued_(sim.counter(*this, "warp_instructions", "warp instructions issued", "instructions")),
      thread_instructions_(sim.counter(*this, "thread_instructions", "thread instructions issued (active lanes)", "instructions")),
      cycles_active_(sim.counter(*this, "active_cycles", "cycles with a resident CTA", "cycles")),
      idle_cycles_(sim.counter(*this, "idle_cycles", "cycles inside kernels with no CTA resident", "cycles")),
      stall_structural_(sim.counter(*this, "stall.structural", "scheduler cycles blocked by a busy LD/ST queue or SFU", "cycles")),
      loads_(sim.counter(*this, "global_loads", "warp loads and atomics to global memory", "instructions")),
      load_requests_(sim.counter(*this, "global_load_requests", "line requests of those loads", "requests")),
      writeback_waits_(sim.counter(*this, "writeback_waits", "result-cycles spent waiting for a register-file write port", "cycles")),
      bank_conflict_cycles_(sim.counter(*this, "shared.bank_conflict_cycles", "extra shared-memory port cycles from bank conflicts", "cycles")),
      active_warps_probe_(sim.probe(*this, "active_warps", sim::bits_for(max_warps_), "resident warps")),
      issue_probe_(sim.probe(*this, "issued", sim::bits_for(schedulers_), "warp instructions issued this cycle")),
      loads_probe_(sim.probe(*this, "outstanding_loads", 16, "warp loads waiting for memory")) {
  const struct {
    Stall why;
    const char *name, *what;
  } stalls[] = {{Stall::empty, "empty", "no warp to issue from"},
                {Stall::dependence, "dependence", "warps waited on arithmetic results"},
                {Stall::memory, "memory", "warps waited on memory"},
                {Stall::barrier, "barrier", "warps waited at a barrier"},
                {Stall::unit, "unit", "warps waited on a unit (busy, or working for them)"},
                {Stall::sfu_busy, "structural.sfu", "the special-function unit was busy"},
                {Stall::ldst_full, "structural.ldst", "the LD/ST queue was full"}};
  for (const auto& s : stalls)
    stall_[static_cast<int>(s.why)] = &sim.counter(*this, std::string("stall.") + s.name,
                                                   std::string("scheduler cycles without issue: ") + s.what, "cycles");
  const char* levels[] = {"l1", "l2", "dram", "atomic", "other"};
  for (int l = 0; l < kMemoryLevels; ++l)
    memory_by_level_[l] = &sim.counter(*this, std::string("stall.memory.") + levels[l],
                                       std::string("memory-stall cycles ended by a reply from: ") + levels[l], "cycles");
  const char* classes[] = {"int", "fp", "sfu", "memory", "control", "extension"};  // IssueClass's order
  static_assert(std::size(classes) == static_cast<std::size_t>(IssueClass::count));
  for (std::size_t i = 0; i < std::size(classes); ++i)
    issued_by_class_[i] = &sim.counter(*this, std::string("issued.") + classes[i],
                                       std::string("warp instructions issued: ") + classes[i], "instructions");
  by_slot_.resize(schedulers_);
  by_age_.resize(schedulers_);
  if (!schedulers_) throw Error("core.warp_schedulers must be at least 1", Error::Kind::config);
  if (sim.config().get_bool("power.enabled")) {  // the events the energy model (models/power) prices
    const std::string e = "energy_events.";
    events_ = std::make_unique<EnergyEvents>(EnergyEvents{
        &sim.counter(*this, e + "register_reads", "register-file reads: source registers of the warp instructions issued, once a warp", "accesses"),
        &sim.counter(*this, e + "register_writes", "register-file writes: destination registers of the warp instructions issued, once a warp", "accesses"),
        {&sim.counter(*this, e + "lanes.int", "thread instructions issued: int (active lanes)", "instructions"),
         &sim.counter(*this, e + "lanes.fp", "thread instructions issued: fp (active lanes)", "instructions"),
         &sim.counter(*this, e + "lanes.sfu", "thread instructions issued: sfu (active lanes)", "instructions"),
         &sim.counter(*this, e + "lanes.other", "thread instructions issued: memory, control and unit instructions (active lanes)", "instructions")},
        &sim.counter(*this, e + "shared_accesses", "shared-memory array passes: one a warp access, one more each extra way of a bank conflict", "accesses"),
        sim.config().get_uint("power.tuple_lanes")});
  }
  if (shared_port_lanes_)  // made only then: other runs' statistics unchanged
    shared_port_extra_ = &sim.counter(*this, "shared.port_cycles",
                                        "extra shared-memory port cycles from the port's width (core.shared_port_lanes)", "cycles");
  if (const std::uint64_t size = sim.config().get_size("core.const_cache_size")) {
    const_cache_ = std::make_unique<ConstCache>();
    const_cache_->array = std::make_unique<mem::CacheArray>(
        size, static_cast<std::uint32_t>(sim.config().get_uint("core.const_cache_ways")),
        static_cast<std::uint32_t>(sim.config().get_size("core.const_cache_line")), "core.const_cache");
    const_cache_->latency = static_cast<std::uint32_t>(sim.config().get_uint("core.const_cache_latency"));
    const_cache_->miss_latency = static_cast<std::uint32_t>(sim.config().get_uint("core.const_cache_miss_latency"));
    const_cache_->accesses = &sim.counter(*this, "const.accesses", "constant-cache line lookups of ld.const", "accesses");
    const_cache_->misses = &sim.counter(*this, "const.misses", "those that missed", "accesses");
  }
  l1_ = std::make_unique<mem::L1Cache>("l1", sim, index, map, pool, *this);
  sim.clock("core").add(*this);
  sim.watch(this->name(), *this);
}

bool Sm::idle() const { return resident_ == 0; }

namespace {
CtaNeeds needs(const KernelLaunch& k) {
  return {k.block.count(), k.resources.registers, k.resources.shared_bytes + k.dynamic_shared, k.ctx.companion != nullptr,
          k.companion_registers};
}
}  // namespace

bool Sm::fits(const KernelLaunch& k) const {
  const CtaNeeds n = needs(k);
  return resident_ < max_ctas_ && used_warps_ + n.warps <= max_warps_ && used_threads_ + n.threads <= max_threads_ &&
         used_registers_ + n.registers <= max_registers_ && used_shared_ + n.shared <= max_shared_;
}

std::uint32_t Sm::max_resident(const KernelLaunch& k) const {
  return ctas_per_sm({max_ctas_, max_warps_, max_threads_, max_registers_, max_shared_}, needs(k));
}

void Sm::start_cta(KernelLaunch& k, std::uint64_t id) {
  const Dim3 c{static_cast<std::uint32_t>(id % k.grid.x), static_cast<std::uint32_t>(id / k.grid.x % k.grid.y),
               static_cast<std::uint32_t>(id / (static_cast<std::uint64_t>(k.grid.x) * k.grid.y))};
  auto rc = std::make_unique<ResidentCta>();
  rc->cta = std::make_unique<Cta>(k.ctx, *k.kernel, k.grid, k.block, c, k.params, k.dynamic_shared);
  rc->cta->sm = index_;
  rc->launch = &k;
  rc->started = sim::now_ps();
  const CtaNeeds n = needs(k);
  rc->threads = n.threads;
  rc->warps = n.warps;
  rc->registers = n.registers;
  rc->shared = n.shared;
  std::size_t idx = 0;
  while (idx < ctas_.size() && ctas_[idx]) ++idx;
  if (idx == ctas_.size()) ctas_.emplace_back();
  cta_check_ = true;  // its check (ResidentCta::check) starts set
  for (auto& w : rc->cta->warps()) {
    const std::size_t s = take_slot();
    Slot& slot = slots_[s];
    slot = Slot{};
    slot.warp = w.get();
    w->set_slot(static_cast<std::uint32_t>(s));
    slot.cta = idx;
    slot.age = next_age_++;
    slot.pending.assign(pending_registers(k), 0);
    rc->slots.push_back(s);
  }
  if (k.ctx.companion) {  // the companion warp, after the CTA's own (the oldest of them issue first)
    rc->companion = std::make_unique<Cta>(k.ctx, *k.ctx.companion, k.grid, k.block, c, k.params, k.dynamic_shared);
    rc->companion->sm = index_;
    const std::size_t s = take_slot();
    Slot& slot = slots_[s];
    slot = Slot{};
    slot.gang = rc->companion.get();
    slot.warp = rc->companion->warps().front().get();
    for (auto& w : rc->companion->warps()) w->set_slot(static_cast<std::uint32_t>(s));
    slot.cta = idx;
    slot.age = next_age_++;
    slot.pending.assign(pending_registers(k), 0);
    rc->companion_slot = s;
  }
  used_threads_ += rc->threads;
  used_warps_ += rc->warps;
  used_registers_ += rc->registers;
  used_shared_ += rc->shared;
  ctas_[idx] = std::move(rc);
  ++resident_;
  slots_changed_ = true;
  active_warps_probe_.set(used_warps_);
  wake();
}

std::size_t Sm::take_slot() {
  if (!free_slots_.empty()) {
    const std::size_t s = free_slots_.front();
    free_slots_.erase(free_slots_.begin());
    return s;
  }
  slots_.emplace_back();
  return slots_.size() - 1;
}

std::vector<std::uint32_t> Sm::warp_slots(std::uint64_t cta) const {
  for (const auto& rc : ctas_)
    if (rc && rc->cta->linear_index() == cta) return {rc->slots.begin(), rc->slots.end()};
  return {};
}

// The companion warp issues for the warps of its CTA at the lowest PC (min-PC reconvergence: the
// warps that diverged meet again as the lower ones catch up), skipping those at a barrier.
Warp* Sm::companion_lead(Cta& gang) {
  Warp* lead = nullptr;
  for (auto& w : gang.warps()) {
    if (w->state() != Warp::State::ready || !w->next()) continue;
    if (!lead || w->pc() < lead->pc()) lead = w.get();
  }
  return lead;
}

std::uint32_t Sm::shared_ways(const ptx::Instruction& in, const Step& step) const {
  if (!is_memory(in.op) || async_copy(in.op) || (in.space != Space::shared && in.space != Space::none)) return 0;
  // Distinct 4-byte words per bank: lanes reading one word share it (broadcast). Atomics do not
  // share: lanes updating one word serialise like a bank conflict.
  const bool atomic = in.op == Op::atom || in.op == Op::red;
  std::uint64_t words[32][32];
  std::uint32_t count[32] = {};
  std::uint32_t ways = 0;
  for (const std::uint64_t a : step.addresses) {
    std::uint64_t offset = a;
    if (in.space == Space::none) {
      if (a < kSharedWindow || a >= kSharedWindow + kWindowSize) continue;
      offset = a - kSharedWindow;
    }
    const std::uint64_t word = offset / 4;
    const auto bank = static_cast<std::uint32_t>(word % banks_);
    std::uint32_t& n = count[bank];
    if ((atomic || std::find(words[bank], words[bank] + n, word) == words[bank] + n) && n < 32) words[bank][n++] = word;
    ways = std::max(ways, n);
  }
  return ways;
}

std::uint32_t Sm::latency(const ptx::Instruction& in) const {
  if (is_memory(in.op)) return lat_shared_;  // shared, local, param, const: the on-chip path
  if (sfu(in.op)) return lat_sfu_;
  if (ptx::is_float(in.type)) return lat_fp_;
  return lat_int_;
}

Sm::Stall Sm::ready(std::size_t s, const ptx::Instruction*& in) {
  Slot& slot = slots_[s];
  const auto cached = static_cast<Stall>(slot.stall);
  if (!slot.dirty) {
    if (cached != Stall::none && cached < Stall::unit) return cached;
    // Ready, or held only by the LD/ST queue or the SFU: nothing of the warp's own changed, so only
    // those can have (a unit's answer may change at any time: asked again in check()).
    if (cached != Stall::unit && slot.next->op != Op::extension) {
      in = slot.next;
      const Stall st = structural(*in);
      slot.stall = static_cast<int>(st);
      return st;
    }
  }
  const Stall st = check(s, in);
  slot.stall = static_cast<int>(st);
  slot.next = in;
  slot.dirty = false;
  return st;
}

Sm::Stall Sm::structural(const ptx::Instruction& in) const {
  if (is_memory(in.op) && ldst_.size() >= kLdstQueue) return Stall::ldst_full;
  if (sfu(in.op) && sfu_free_ > now_cycle_) return Stall::sfu_busy;
  return Stall::none;
}

// Scoreboard entries a warp needs: the most registers of any function it may call, so that a
// device function's write-backs are waited for before it returns (its frame goes away).
std::size_t Sm::pending_registers(const KernelLaunch& k) {
  std::size_t n = k.kernel->registers.size();
  if (k.ctx.module)
    for (const auto& f : k.ctx.module->functions) n = std::max(n, f.registers.size());
  return n;
}

Sm::Stall Sm::check(std::size_t s, const ptx::Instruction*& in) {
  Slot& slot = slots_[s];
  if (slot.gang && !slot.unit_wait) {
    Warp* lead = companion_lead(*slot.gang);
    if (!lead) {
      const auto& ws = slot.gang->warps();
      return std::any_of(ws.begin(), ws.end(), [](const auto& w) { return w->state() == Warp::State::at_barrier; })
                 ? Stall::barrier
                 : Stall::empty;
    }
    slot.warp = lead;
  }
  if (!slot.warp || slot.warp->state() == Warp::State::done) return Stall::empty;
  if (slot.warp->state() == Warp::State::at_barrier) return Stall::barrier;
  if (slot.unit_wait) return Stall::unit;
  if (slot.asleep) return Stall::dependence;
  in = slot.warp->next();
  if (!in) return Stall::empty;
  bool waits = false;
  for (const std::uint32_t r : ptx::touched_registers(*in)) waits = waits || (r < slot.pending.size() && slot.pending[r]);
  // Calls, returns, exits and barriers wait for every write-back of the warp (frames change).
  const bool drain = in->op == Op::call || in->op == Op::ret || in->op == Op::exit || in->op == Op::bar;
  bool any_pending = false;
  if (drain) any_pending = std::any_of(slot.pending.begin(), slot.pending.end(), [](std::uint8_t p) { return p != 0; });
  if (waits || any_pending) return slot.loads ? Stall::memory : Stall::dependence;
  // Fences, and the waits of asynchronous copies (cp.async.wait_group, an mbarrier arrival), wait
  // for the warp's memory operations: for a copy group or mbarrier, all of them (conservative).
  const bool arrival = in->op == Op::mbarrier && (in->mode == ptx::Mode::mb_arrive || in->mode == ptx::Mode::mb_arrive_drop);
  if ((in->op == Op::membar || in->op == Op::fence || in->op == Op::cp_async_wait || arrival) && (slot.stores || slot.loads))
    return Stall::memory;
  if (const Stall st = structural(*in); st != Stall::none) return st;
  if (in->op == Op::extension) {
    const ResidentCta& rc = *ctas_[slot.cta];
    if (SmUnit* unit = unit_for(*in, *rc.launch))  // as accept() will see it, but for the token (assigned at issue)
      if (!unit->can_accept(unit_op(s, *in, slot.warp->active_mask()))) return Stall::unit;
  }
  return Stall::none;
}

// The warp waits until `until` (a dependence stall) with nothing to write back: a nanosleep, or
// core.branch_stall after a branch.
void Sm::sleep_until(std::size_t s, std::size_t token, sim::Cycle until) {
  Pending& p = add_pending(token, s, 0, nullptr);
  p.applied = p.sleep = true;
  slots_[s].asleep = true;
  sleep_done_.emplace(until, token);
}

void Sm::hold_registers(Slot& slot, const Step& step) {
  for (const auto& w : step.writes)
    if (w.reg < slot.pending.size()) ++slot.pending[w.reg];
}

// A global load, store or atomic: its line requests into the LD/ST queue (one a thread for
// thread-serialised atomics), pending until they are answered.
void Sm::issue_global(std::size_t s, const ptx::Instruction& in, Step& step, std::size_t token,
                      const std::uint64_t (&addr)[32], std::uint32_t mask) {
  Slot& slot = slots_[s];
  const bool load = in.op == Op::ld || in.op == Op::ldu || in.op == Op::atom || in.op == Op::cp_async ||
                    (in.op == Op::cp_async_bulk && in.space == Space::shared);
  const bool atomic = in.op == Op::atom || in.op == Op::red;
  const unsigned size = async_copy(in.op) ? step.bulk_bytes : ptx::type_bits(in.type) / 8 * in.vec;
  std::uint32_t lines = 0;
  auto push = [&](std::uint64_t line, std::uint32_t sectors, std::uint32_t bytes, std::uint64_t address) {
    mem::MemAccess a;
    a.id = token;
    a.warp = static_cast<std::uint32_t>(s);
    a.pc = in.address;
    a.access = atomic ? tlm_glue::Access::atomic : load ? tlm_glue::Access::load : tlm_glue::Access::store;
    a.atomic = atomic ? tlm_glue::AtomicOp::add : tlm_glue::AtomicOp::none;
    a.line = line;
    a.sectors = sectors;
    a.bytes = bytes;
    a.address = address;
    a.uncached = in.uncached;
    ldst_.push_back(a);
    ++lines;
  };
  if (in.op == Op::cp_async_bulk) {  // every line of each thread's block, whole
    const std::uint64_t ls = coalescer_.line_size();
    const std::uint32_t all = static_cast<std::uint32_t>((1ull << (ls / coalescer_.sector_size())) - 1);
    for (unsigned l = 0; l < 32; ++l)
      if (mask >> l & 1)
        for (std::uint64_t line = addr[l] / ls * ls; line < addr[l] + size; line += ls) push(line, all, static_cast<std::uint32_t>(ls), line);
  } else if (atomic && !atomic_per_line_) {  // one request per active thread, serialised at the L2's atomic unit
    for (unsigned l = 0; l < 32; ++l)
      if (mask >> l & 1) {
        const std::uint64_t line = addr[l] / coalescer_.line_size() * coalescer_.line_size();
        push(line, 1u << ((addr[l] - line) / coalescer_.sector_size()), size, addr[l]);
      }
  } else {  // one request per line; an atomic's carries its threads' operations (atomic.coalescing: line)
    coalescer_.coalesce(addr, mask, size, lines_);
    for (const auto& la : lines_) {
      std::uint32_t bytes = 0;
      if (atomic) bytes = static_cast<std::uint32_t>(__builtin_popcount(la.threads)) * size;
      else
        for (std::uint32_t x = la.sectors; x; x &= x - 1) bytes += coalescer_.sector_size();
      push(la.line, la.sectors, bytes, la.line);
    }
  }
  if (profile_) profile_->requested(&in, lines);
  if (load) {
    ++loads_;
    load_requests_ += lines;
    ++slot.loads;
    ++loads_in_flight_;
    hold_registers(slot, step);
    add_pending(token, s, lines, &step).inst = &in;
  } else {
    slot.stores += lines;
    slot.warp->complete(step);  // a store writes no register
    add_pending(token, s, lines, nullptr).inst = &in;
  }
}

// The units that watch the issue stream (unit_port.h): at most one takes the instruction — a
// global load it answers, or arithmetic it executes beside the lanes.
SmUnit::Take Sm::ask_observers(const UnitOp& op, const Step& step, Warp& warp, bool global, const SmUnit* unit) {
  const ptx::Instruction& in = *op.instruction;
  const bool load = global && (in.op == Op::ld || in.op == Op::ldu) && !unit;
  auto arithmetic = [&] {
    return !is_memory(in.op) && !unit && !sfu(in.op) && in.op != Op::bra && in.op != Op::call && in.op != Op::ret &&
           in.op != Op::exit && in.op != Op::bar && !step.writes.empty();
  };
  SmUnit::Take take = SmUnit::Take::no;
  for (SmUnit* o : observers_) {
    const SmUnit::Take t = o->issued(op, step, warp, *this);
    if (t == SmUnit::Take::no) continue;
    if (take != SmUnit::Take::no || (t == SmUnit::Take::execute ? !arithmetic() : !load))
      throw std::logic_error(std::string(name()) + ": a unit took an instruction it may not take (" +
                             ptx::op_name(in.op) + "), or one already taken");
    take = t;
  }
  return take;
}

void Sm::issue_shared(std::size_t s, Step& step, std::size_t token, std::uint32_t ways, sim::Cycle c) {
  // Shared memory: a w-way bank conflict replays the access w times on the SM's one port,
  // each pass holding it core.shared_replay_cycles; a port core.shared_port_lanes wide takes
  // the active lanes in windows of core.shared_port_cycles.
  const sim::Cycle start = std::max<sim::Cycle>(c, shared_free_);
  std::uint64_t hold_cycles = std::uint64_t{ways} * replay_, last_pass = std::uint64_t{ways - 1} * replay_;
  bank_conflict_cycles_ += last_pass;
  if (events_) *events_->shared_accesses += ways;
  if (shared_port_lanes_) {
    const std::uint64_t windows = (step.addresses.size() + shared_port_lanes_ - 1) / shared_port_lanes_;
    if (windows * shared_port_cycles_ > hold_cycles) *shared_port_extra_ += windows * shared_port_cycles_ - hold_cycles;
    hold_cycles = std::max(hold_cycles, windows * shared_port_cycles_);
    last_pass = std::max(last_pass, (windows - 1) * shared_port_cycles_);
  }
  shared_free_ = start + hold_cycles;
  if (!step.writes.empty()) {
    hold_registers(slots_[s], step);
    add_pending(token, s, 0, &step);
    alu_done_.emplace(start + last_pass + lat_shared_, token);
  }
}

void Sm::issue(std::size_t s, const ptx::Instruction& in, sim::Cycle c) {
  Slot& slot = slots_[s];
  if (slot.gang) return issue_companion(s, in, c);
  touch(s);
  KernelLaunch& k = *ctas_[slot.cta]->launch;
  Step& step = scratch_;
  slot.warp->issue(step);
  // Settle now (reconvergence, returns, the end of the warp): a warp that has finished must not
  // look "ready" to a barrier or to its CTA's retirement until the scheduler happens to visit it.
  slot.warp->next();
  if (!step.inst) return;
  ++issued_;
  ++slot.issued;
  slot.last_issue = c;
  if (profile_) profile_->issued(&in, static_cast<std::uint32_t>(__builtin_popcount(step.active)));
  const auto cls = static_cast<std::size_t>(issue_class(in));
  ++*issued_by_class_[cls];
  const auto threads = static_cast<std::uint64_t>(__builtin_popcount(step.active));
  if (events_) count_events(in, cls, threads);
  if (sfu(in.op)) sfu_free_ = c + sfu_interval_;
  ++k.warp_instructions;
  thread_instructions_ += threads;
  k.thread_instructions += threads;
  auto hold = [&](const Step& st) { hold_registers(slot, st); };
  const std::size_t token = next_token_++;
  std::uint64_t addr[32];  // set for memory instructions only (most are not)
  const std::uint32_t mask = is_memory(in.op) && step.active ? global_lanes(in, step, addr) : 0;
  const bool global = mask != 0;
  SmUnit* unit = in.op == Op::extension ? unit_for(in, k) : nullptr;
  const std::uint32_t active = step.active;  // `step` is swapped out once the instruction is pending
  auto op = [&] {
    UnitOp o = unit_op(s, in, active);
    o.token = token;
    return o;
  };
  SmUnit::Take take = observers_.empty() ? SmUnit::Take::no : ask_observers(op(), step, *slot.warp, global, unit);
  bool executed_beside = false;
  if (take == SmUnit::Take::execute) {
    take = SmUnit::Take::no;  // executed as usual, beside the lanes: see the issue slot below
    executed_beside = true;
  }
  if (take != SmUnit::Take::no) {  // answered by a unit: a register move, now or when it says
    ++slot.loads;
    ++loads_in_flight_;
    hold(step);
    add_pending(token, s, 1, &step).taken = true;
    if (take == SmUnit::Take::now) alu_done_.emplace(c + lat_int_, token);
  } else if (unit) {
    hold(step);
    add_pending(token, s, 1, &step).unit = true;
    slot.unit_wait = true;
    if (trace_) trace_unit(*unit, token, k.ctx.extensions->at(in.extension).name, unit_args(op()));
    unit->accept(op(), *this);
  } else if (global) {
    issue_global(s, in, step, token, addr, mask);
  } else if (const std::uint32_t ways = shared_ways(in, step)) {
    issue_shared(s, step, token, ways, c);
  } else if (!step.writes.empty()) {
    const bool constant = const_cache_ && in.space == Space::constant && is_memory(in.op);
    const sim::Cycle done = constant ? const_load_done(step, c) : c + latency(in);  // before add_pending takes `step`
    hold(step);
    add_pending(token, s, 0, &step);
    alu_done_.emplace(done, token);
  } else if (in.op == Op::nanosleep && step.sleep_ns) {
    const sim::Picoseconds period = scheduler()->domain().period();
    sleep_until(s, token, c + (step.sleep_ns * 1000 + period - 1) / period);
  } else if (branch_stall_ && (in.op == Op::bra || in.op == Op::call)) {
    sleep_until(s, token, c + branch_stall_);  // the warp's fetch waits for the branch and the target's decode
  }
  if (folded(in, k)) return;  // no issue slot: the scheduler may issue again this cycle
  const std::size_t sched = sched_of(s);
  scheds_[sched].free = c + (executed_beside ? 1 : passes_);  // beside the lanes: one issue cycle
  scheds_[sched].last_issued = s;
}

void Sm::count_events(const ptx::Instruction& in, std::size_t cls, std::uint64_t lanes) {
  const std::size_t touched = ptx::touched_registers(in).size();  // kept with the instruction: no work per issue
  *events_->register_reads += in.touched.uses;
  *events_->register_writes += touched - in.touched.uses;
  *events_->lanes[std::min(cls, std::size(events_->lanes) - 1)] += lanes;  // int, fp, sfu: IssueClass's first three
}

bool Sm::folded(const ptx::Instruction& in, const KernelLaunch& k) const {
  return in.op == Op::extension && k.ctx.extensions && in.extension < k.ctx.extensions->size() &&
         k.ctx.extensions->at(in.extension).folded;
}

// One issue of a companion warp: the instruction for every warp of its CTA at it, each written
// back at once (the scoreboard alone holds the registers for the latency: nothing reads them
// earlier), counted as one warp instruction.
void Sm::issue_companion(std::size_t s, const ptx::Instruction& in, sim::Cycle c) {
  Slot& slot = slots_[s];
  touch(s);
  KernelLaunch& k = *ctas_[slot.cta]->launch;
  Step& step = scratch_;
  Step held;  // the registers written, for the scoreboard
  held.inst = &in;
  std::vector<UnitOp::Part> parts;
  auto& ws = slot.gang->warps();
  for (std::size_t i = 0; i < ws.size(); ++i) {
    Warp& w = *ws[i];
    if (w.state() != Warp::State::ready || w.next() != &in) continue;
    const std::uint32_t before = w.active_mask();
    w.issue(step);
    w.next();
    if (!step.inst) continue;
    if (is_memory(in.op) && (in.space == Space::global || in.space == Space::none || in.space == Space::shared))
      throw Error(w.where() + ": a companion stream accesses memory (" + ptx::op_name(in.op) +
                  "); it may read only parameters and thread indices");
    w.complete(step);
    parts.push_back({static_cast<std::uint32_t>(i), step.active, before});
    for (const auto& wr : step.writes)
      if (std::none_of(held.writes.begin(), held.writes.end(), [&](const Step::Write& h) { return h.reg == wr.reg; })) {
        held.writes.emplace_back();
        held.writes.back().reg = wr.reg;
      }
  }
  slot.gang->check_barrier();
  if (in.op == Op::bar && !parts.empty() &&
      std::none_of(ws.begin(), ws.end(), [](const auto& w) { return w->state() == Warp::State::at_barrier; }))
    for (auto& [route, unit] : units_) unit->barrier(ctas_[slot.cta]->cta->linear_index(), true, *this);
  if (parts.empty()) return;
  UnitOp op = unit_op(s, in, parts.front().lanes);  // token 0 until an extension instruction's goes to its unit
  op.parts = std::move(parts);
  for (auto& [route, unit] : units_) unit->companion_issued(op, *this);
  if (!companion_issued_)
    companion_issued_ = &sim_.counter(*this, "companion_instructions",
                                      "warp instructions the CTAs' companion warps issued (counted in warp_instructions too)",
                                      "instructions");
  ++*companion_issued_;
  const auto cls = static_cast<std::size_t>(issue_class(in));
  if (events_) count_events(in, cls, events_->tuple_lanes);  // once for the CTA, on a tuple
  ++issued_;
  ++*issued_by_class_[cls];
  if (sfu(in.op)) sfu_free_ = c + sfu_interval_;
  ++k.warp_instructions;  // not thread instructions: it computes once for its threads (DAC: on tuples)
  for (const auto& w : held.writes)
    if (w.reg < slot.pending.size()) ++slot.pending[w.reg];
  const std::size_t token = next_token_++;
  Pending p{s, std::move(held), 0};
  p.applied = true;
  if (SmUnit* unit = in.op == Op::extension ? unit_for(in, k) : nullptr) {
    op.token = token;
    p.unit = true;
    pending_.insert(token) = std::move(p);
    slot.unit_wait = true;
    if (trace_) trace_unit(*unit, token, k.ctx.extensions->at(in.extension).name, unit_args(op));
    unit->accept(op, *this);
  } else if (!p.step.writes.empty()) {
    pending_.insert(token) = std::move(p);
    alu_done_.emplace(c + latency(in), token);
  }
  const std::size_t sched = sched_of(s);
  scheds_[sched].free = c + passes_;
  scheds_[sched].last_issued = s;
}

Sm::Pending& Sm::add_pending(std::size_t token, std::size_t slot, std::uint32_t lines, Step* step) {
  Pending& p = pending_.insert(token);
  Step kept = std::move(p.step);  // its buffers, for the caller's next step or this one's clearing
  p = Pending{slot, Step{}, lines};
  p.step = std::move(kept);
  if (step) std::swap(p.step, *step);
  else p.step.clear();
  return p;
}

void Sm::finish(std::size_t token) {
  Pending* p = pending_.find(token);
  if (!p) return;
  Slot& slot = slots_[p->slot];
  touch(p->slot);
  note_event(p->slot);
  if (p->unit) slot.unit_wait = false;
  if (p->sleep) slot.asleep = false;
  if (p->taken) {  // a load a unit answered: its memory wait ends as an L1 hit's would
    --slot.loads;
    --loads_in_flight_;
    charge_memory(sched_of(p->slot), level_l1);
  }
  if (!p->applied) slot.warp->complete(p->step);
  for (const auto& w : p->step.writes)
    if (w.reg < slot.pending.size() && slot.pending[w.reg]) --slot.pending[w.reg];
  pending_.erase(token);
}

UnitOp Sm::unit_op(std::size_t s, const ptx::Instruction& in, std::uint32_t active) const {
  const Slot& slot = slots_[s];
  UnitOp op;
  op.sm = index_;
  op.warp = static_cast<std::uint32_t>(s);
  op.cta = ctas_[slot.cta]->cta->linear_index();
  op.active = active;
  op.instruction = &in;
  op.companion = slot.gang != nullptr;  // a CTA's companion warp
  return op;
}

SmUnit* Sm::unit_for(const ptx::Instruction& in, const KernelLaunch& k) const {
  if (!k.ctx.extensions || in.extension >= k.ctx.extensions->size()) return nullptr;
  const ptx::Extension& ext = k.ctx.extensions->at(in.extension);
  if (ext.route.empty()) return nullptr;  // timed as arithmetic
  auto it = units_.find(ext.route);
  if (it == units_.end())
    throw Error(std::string(name()) + ": " + ext.name + " needs unit " + ext.unit + " attached to the SMs (route '" +
                ext.route + "')");
  return it->second;
}

void Sm::trace_unit(const SmUnit& unit, std::uint64_t id, std::string name, const std::string& args) {
  std::string route = "observer";  // an observing unit's loads (it has no route)
  for (const auto& [r, u] : units_)
    if (u == &unit) route = r;
  unit_spans_[id] = {"unit " + route, std::move(name), args, sim::now_ps()};
}

void Sm::end_unit_span(std::uint64_t id) {
  auto it = unit_spans_.find(id);
  if (it == unit_spans_.end()) return;
  const UnitSpan& u = it->second;
  trace_->row_span("SM " + std::to_string(index_), u.row, u.name, u.start, sim::now_ps(), u.args);
  unit_spans_.erase(it);
}

void Sm::attach(const std::string& route, SmUnit& unit) {
  if (!units_.emplace(route, &unit).second) throw std::logic_error(std::string(name()) + ": two units on route " + route);
  if (unit.fetches_lines()) l1_->enable_fetches();
}

// A warp's constant load: a pass per distinct word (one word is broadcast to the lanes reading
// it), and a miss's round trip for lines not present (a line already in flight arrives once).
sim::Cycle Sm::const_load_done(const Step& step, sim::Cycle c) {
  ConstCache& cc = *const_cache_;
  std::uint64_t words[32];  // one address an active lane
  const std::size_t lanes = std::min<std::size_t>(step.addresses.size(), 32);
  for (std::size_t i = 0; i < lanes; ++i) words[i] = step.addresses[i] / 4;
  std::sort(words, words + lanes);
  const std::size_t distinct = static_cast<std::size_t>(std::unique(words, words + lanes) - words);
  sim::Cycle ready = c + cc.latency + (distinct ? distinct - 1 : 0);
  const std::uint32_t line = cc.array->line_size();
  std::uint64_t last = ~0ull;
  for (std::size_t i = 0; i < distinct; ++i) {
    const std::uint64_t l = words[i] * 4 / line * line;
    if (l == last) continue;
    last = l;
    ++*cc.accesses;
    if (auto f = cc.filling.find(l); f != cc.filling.end()) {
      if (f->second > c) {
        ready = std::max(ready, f->second);
        continue;
      }
      cc.filling.erase(f);
    }
    if (cc.array->access(l)) continue;
    ++*cc.misses;
    cc.array->fill(l, false, true);
    cc.filling[l] = c + cc.latency + cc.miss_latency;
    ready = std::max(ready, cc.filling[l]);
  }
  return ready;
}

void Sm::kernel_begin(const KernelLaunch& k) {
  if (const_cache_) {  // the host may have written constants between kernels
    const_cache_->array->clear();
    const_cache_->filling.clear();
  }
  kernel_start_ = k.ctx.cycle ? k.ctx.cycle() : 0;
  if (profile_) profile_->module(k.ctx.module);
  active_at_start_ = cycles_active_.value();
  for (auto& [route, unit] : units_) unit->kernel_begin(k, *this);
}

void Sm::kernel_end(const KernelLaunch& k) {
  const std::uint64_t length = (k.ctx.cycle ? k.ctx.cycle() : 0) - kernel_start_;
  const std::uint64_t active = cycles_active_.value() - active_at_start_;
  if (length > active) idle_cycles_ += length - active;
  for (std::uint32_t sch = 0; sch < schedulers_; ++sch)
    if (scheds_[sch].memory_episode) charge_memory(sch, scheds_[sch].last_level);
  for (auto& [route, unit] : units_) unit->kernel_end(k, *this);
}

void Sm::complete(std::uint64_t token) {
  if (!pending_.contains(token))
    throw std::logic_error(std::string(name()) + ": a unit completed an unknown operation");
  if (trace_) end_unit_span(token);
  writeback_.push_back(token);
  wake();
}

void Sm::complete(std::uint64_t token, const std::vector<LaneValue>& values) {
  Pending* p = pending_.find(token);
  if (!p) throw std::logic_error(std::string(name()) + ": a unit completed an unknown operation");
  if (p->applied && !values.empty())
    throw std::logic_error(std::string(name()) + ": a unit gave values to a companion warp's operation");
  Step& step = p->step;
  for (const LaneValue& v : values) {
    const ptx::Operand& d = step.inst->ops.at(v.operand);
    if (d.kind == ptx::OperandKind::sink) continue;
    auto w = std::find_if(step.writes.begin(), step.writes.end(), [&](const Step::Write& x) { return x.reg == d.reg; });
    if (w == step.writes.end() || v.lane >= 32 || !(w->mask >> v.lane & 1))
      throw std::logic_error(std::string(name()) + ": a unit's value for operand " + std::to_string(v.operand) + " lane " +
                             std::to_string(v.lane) + " that the semantics did not write at issue");
    w->value[v.lane] = v.value;
  }
  complete(token);
}

// A unit's access: an id of the units' range, its reply routed back to `from` with `tag`.
mem::MemAccess Sm::unit_access(SmUnit& from, mem::MemAccess a, std::uint64_t tag, const std::string& what) {
  a.id = kUnitIds + next_unit_id_++;
  a.warp = ~0u;
  unit_tags_.emplace(a.id, std::make_pair(&from, tag));
  if (trace_) trace_unit(from, a.id, what, "{\"line\":" + std::to_string(a.line) + "}");
  return a;
}

void Sm::inject(SmUnit& from, const mem::MemAccess& access, bool low_priority, std::uint64_t tag) {
  const std::string what = !trace_                    ? std::string()
                           : access.unit_partition >= 0 ? "request to partition " + std::to_string(access.unit_partition)
                                                        : std::string(tlm_glue::access_name(access.access)) + " line";
  (low_priority ? ldst_low_ : ldst_).push_back(unit_access(from, access, tag, what));
  wake();
}

void Sm::fetch_line(SmUnit& from, std::uint64_t line, std::uint64_t tag) {
  mem::MemAccess a;
  a.line = a.address = line;
  a.sectors = ~0u;
  l1_->fetch(unit_access(from, a, tag, "fetch line"));
}

void Sm::completed(const mem::MemAccess& a) {
  if (a.id >= kUnitIds) {  // a unit's own access
    auto t = unit_tags_.find(a.id);
    if (t == unit_tags_.end()) return;
    auto [unit, tag] = t->second;
    unit_tags_.erase(t);
    if (trace_) end_unit_span(a.id);
    unit->memory_reply(tag, *this);
    wake();
    return;
  }
  Pending* p = pending_.find(a.id);
  if (!p) return;
  // Asleep holding work (for the L1's input, or arithmetic's results), the SM would have been
  // stepped, its stalls counted, up to the cycle before this one: the stall this reply ends is
  // charged with them.
  if (slept_held_) charge_sleep(scheduler()->now_cycle());
  const std::size_t s = p->slot;
  Slot& slot = slots_[s];
  const bool store = a.access == tlm_glue::Access::store;
  if (store) --slot.stores;
  p->served = std::max(p->served, a.served);
  if (profile_ && p->inst && !store)  // a load's or an atomic's line: where it was served
    profile_->served(p->inst, a.served != tlm_glue::Served::l1, a.served == tlm_glue::Served::dram);
  const bool last_line = --p->lines_left == 0;
  if (last_line) {
    if (store) {
      pending_.erase(a.id);
      // A warp at a fence waits on memory with no load out: its stores' acknowledgements end it.
      if (!slot.stores && !slot.loads && static_cast<Stall>(slot.stall) == Stall::memory)
        charge_memory(sched_of(s), level_other);
    } else {
      --slot.loads;
      --loads_in_flight_;
      writeback_.push_back(a.id);
      charge_memory(sched_of(s), a.access == tlm_glue::Access::atomic ? level_atomic
                                     : static_cast<MemoryLevel>(static_cast<int>(p->served)));
    }
  }
  // A line before an access's last changes nothing the warp or its CTA is checked for (its
  // registers stay pending, its loads and pending entry in flight) unless it was the warp's last
  // store out: the SM's answers stand. It still steps at the next edge, as it always has (the
  // edge counts as active; its stalls are counted there).
  if (last_line || (store && !slot.stores)) {
    touch(s);
    note_event(s);
  }
  wake();
}

void Sm::retire_cta(std::size_t idx) {
  ResidentCta& rc = *ctas_[idx];
  std::vector<std::size_t> slots = rc.slots;
  if (rc.companion) slots.push_back(rc.companion_slot);
  for (std::size_t s : slots) {
    for (auto& [route, unit] : units_) unit->warp_exit(static_cast<std::uint32_t>(s), *this);
    if (l1_->locked_lines()) l1_->unlock_warp(static_cast<std::uint32_t>(s));
    slots_[s] = Slot{};
    free_slots_.push_back(s);
  }
  std::sort(free_slots_.begin(), free_slots_.end());
  used_threads_ -= rc.threads;
  used_warps_ -= rc.warps;
  used_registers_ -= rc.registers;
  used_shared_ -= rc.shared;
  ++rc.launch->finished_ctas;
  const std::uint64_t cta = rc.cta->linear_index();
  if (trace_)
    trace_->row_span("SM " + std::to_string(index_), "CTAs", "CTA " + std::to_string(cta), rc.started, sim::now_ps(),
                 "{\"kernel\":" + nlohmann::json(rc.launch->kernel->name).dump() + ",\"warps\":" + std::to_string(rc.warps) + "}");
  ctas_[idx].reset();
  --resident_;
  slots_changed_ = true;
  active_warps_probe_.set(used_warps_);
  cta_finished_(cta);
}

// Two-level scheduling (Narasiman et al., MICRO 2011, as GPGPU-Sim's two_level_active): a warp
// that waits on memory, at a barrier or on a unit, or has finished, leaves the active set; the
// oldest pending warps that wait on none of these take the free places. (A unit's wait may last as
// long as another warp's work: a DAC deq waits for its CTA's affine warp, which must get in.)
void Sm::refill_active(std::uint32_t sch, const std::vector<std::size_t>& by_age) {
  auto& act = active_[sch];
  auto long_wait = [&](std::size_t s) {
    const ptx::Instruction* in = nullptr;
    const Stall st = slots_[s].warp ? ready(s, in) : Stall::empty;
    return st == Stall::empty || st == Stall::memory || st == Stall::barrier || st == Stall::unit;
  };
  act.erase(std::remove_if(act.begin(), act.end(), long_wait), act.end());
  if (act.size() >= active_size_) return;
  for (std::size_t s : by_age) {
    if (act.size() >= active_size_) break;
    if (std::find(act.begin(), act.end(), s) == act.end() && !long_wait(s)) act.push_back(s);
  }
}

void Sm::index_slots() {
  for (std::uint32_t sch = 0; sch < schedulers_; ++sch) {
    by_slot_[sch].clear();
    for (std::size_t s = sch; s < slots_.size(); s += schedulers_)
      if (slots_[s].warp) by_slot_[sch].push_back(s);
    by_age_[sch] = by_slot_[sch];
    std::sort(by_age_[sch].begin(), by_age_[sch].end(),
              [&](std::size_t a, std::size_t b) { return slots_[a].age < slots_[b].age; });
  }
  slots_changed_ = false;
  for (Scheduler& x : scheds_) x.settled = Settled::no;
}

// Write-back: results that arrived (loads, units) and arithmetic due now, oldest first, as
// many as the register file has write ports; the rest wait (their registers stay held).
void Sm::write_back(sim::Cycle c) {
  while (!alu_done_.empty() && alu_done_.top().first <= c) {
    writeback_.push_back(alu_done_.top().second);
    alu_done_.pop();
  }
  while (!sleep_done_.empty() && sleep_done_.begin()->first <= c) {  // a nanosleep's end writes nothing back
    finish(sleep_done_.begin()->second);
    sleep_done_.erase(sleep_done_.begin());
  }
  for (std::uint32_t port = 0; port < writeback_ports_ && !writeback_.empty(); ++port) {
    finish(writeback_.front());
    writeback_.pop_front();
  }
  writeback_waits_ += writeback_.size();
}

// As many accesses as the L1's input takes this cycle (l1.port_accesses; one by default).
// Whether accesses wait and the L1 took none: it wakes the SM when it can take one.
bool Sm::hand_to_l1(sim::Picoseconds now) {
  bool handed = false;
  while (!ldst_.empty() || !ldst_low_.empty()) {
    if (!l1_->can_accept(now)) return !handed;
    auto& q = ldst_.empty() ? ldst_low_ : ldst_;
    l1_->accept(q.front(), now);
    q.pop_front();
    handed = true;
  }
  return false;
}

// One warp scheduler's cycle: the first ready warp in its policy's order issues (and any folded
// instructions before it); none ready, the cycle is charged to the strongest reason.
void Sm::schedule(std::uint32_t sch, sim::Cycle c, IssueCycle& cycle) {
  Scheduler& q = scheds_[sch];
  if (q.free > c) {
    cycle.soon = true;
    return;
  }
  // Candidates of this scheduler: greedy-then-oldest keeps the last warp while it can go, then
  // the oldest; loose round-robin starts after the last one; two-level runs loose round-robin
  // over its active set only.
  if (slots_changed_) index_slots();
  if (q.settled == Settled::events || (q.settled == Settled::queue && ldst_.size() >= kLdstQueue)) {
    // Every warp waits on an event (or, some, on the still full LD/ST queue) and none has had one:
    // the stall is last cycle's.
    count_stall(sch, q.slept_why, 1, q.slept_in);
    return;
  }
  // The candidates in order, without copying the lists: GTO visits the last issued first (at
  // `greedy`), then the rest oldest first; the others go round from the slot after it.
  const std::vector<std::size_t>* order = policy_ == Policy::lrr ? &by_slot_[sch] : &by_age_[sch];
  std::size_t n = order->size(), start = 0, greedy = n;
  if (policy_ == Policy::gto) {
    greedy = static_cast<std::size_t>(std::find(order->begin(), order->end(), q.last_issued) - order->begin());
  } else {
    if (policy_ == Policy::two_level) {
      refill_active(sch, *order);
      order_ = active_[sch];
      std::sort(order_.begin(), order_.end());
      order = &order_;
      n = order->size();
    }
    start = static_cast<std::size_t>(std::upper_bound(order->begin(), order->end(), q.last_issued) - order->begin());
  }
  Stall why = Stall::empty;
  const ptx::Instruction* why_in = nullptr;  // the instruction of the warp `why` is (the profile's)
  bool went = false, settled = policy_ != Policy::two_level, queue = false;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t at = start + i < n ? start + i : start + i - n;
    if (greedy < n) at = i == 0 ? greedy : i <= greedy ? i - 1 : i;
    const std::size_t s = (*order)[at];
    const ptx::Instruction* in = nullptr;
    const Stall st = ready(s, in);
    if (st == Stall::none) {
      const bool free = folded(*in, *ctas_[slots_[s].cta]->launch);
      issue(s, *in, c);
      note_event(s);  // after the issue: the warp may have reached a barrier or its end
      went = cycle.issued_any = true;
      if (!free) {
        ++cycle.issued_now;  // the probe counts issue slots used
        break;
      }
      continue;  // a folded instruction took no issue slot: another warp may issue
    }
    if (static_cast<int>(st) > static_cast<int>(why)) {
      why = st;
      why_in = in ? in : slots_[s].next;
    }
    cycle.sfu_wait = cycle.sfu_wait || st == Stall::sfu_busy;
    // Answers ready() keeps until the warp is touched, or while the LD/ST queue stays full.
    settled = settled && ((st != Stall::none && st < Stall::unit) || st == Stall::ldst_full);
    queue = queue || st == Stall::ldst_full;
  }
  if (!went && policy_ == Policy::two_level) {  // the reason is over every warp, pending ones too
    for (std::size_t s = sch; s < slots_.size(); s += schedulers_) {
      const ptx::Instruction* in = nullptr;
      if (!slots_[s].warp) continue;
      const Stall st = ready(s, in);
      if (st > why) {
        why = st;
        why_in = in ? in : slots_[s].next;
      }
      cycle.sfu_wait = cycle.sfu_wait || st == Stall::sfu_busy;
    }
  }
  if (went) {
    if (q.memory_episode) charge_memory(sch, q.last_level);  // the write-back's cycles, or new work
  } else {
    count_stall(sch, why, 1, why_in);
    q.slept_why = why;
    q.slept_in = why_in;
    q.settled = !settled ? Settled::no : queue ? Settled::queue : Settled::events;
  }
}

// Barriers, and CTAs whose warps have all finished with nothing in flight: a CTA only after an
// issue, a write-back or a memory reply of its own (the only events that change either), or
// while a warp of it waits at a barrier (its other warps are then re-checked every cycle).
// Whether a barrier released a warp.
bool Sm::check_ctas() {
  bool released = false;
  const bool any_check = cta_check_;
  cta_check_ = false;
  for (std::size_t i = 0; any_check && i < ctas_.size(); ++i) {
    if (!ctas_[i] || !ctas_[i]->check) continue;
    ResidentCta& rc = *ctas_[i];
    // One pass over the CTA's warps (its slots): whether any waits at the barrier, whether all
    // have finished with no access in flight.
    bool waiting_before = false, finished = true;
    for (std::size_t s : rc.slots) {
      const Warp::State st = slots_[s].warp->state();
      waiting_before = waiting_before || st == Warp::State::at_barrier;
      finished = finished && st == Warp::State::done && slots_[s].loads == 0 && slots_[s].stores == 0;
    }
    rc.check = waiting_before;
    cta_check_ = cta_check_ || waiting_before;
    if (waiting_before) {  // a warp that waited is released (ready) or waits still: nothing retires
      rc.cta->check_barrier();
      bool still_waiting = false;
      for (std::size_t s : rc.slots) {
        const bool go = slots_[s].warp->state() == Warp::State::ready;
        released = released || go;
        if (go) touch(s);
        still_waiting = still_waiting || slots_[s].warp->state() == Warp::State::at_barrier;
      }
      if (!still_waiting && !units_.empty())
        for (auto& [route, unit] : units_) unit->barrier(rc.cta->linear_index(), false, *this);
      continue;
    }
    if (finished && (!rc.companion || rc.companion->done())) {
      bool inflight = false;
      pending_.for_each([&](std::uint64_t, const Pending& p) {
        for (std::size_t s : rc.slots) inflight = inflight || p.slot == s;
        inflight = inflight || (rc.companion && p.slot == rc.companion_slot);
      });
      if (!inflight) retire_cta(i);
    }
  }
  return released;
}

bool Sm::tick(sim::Cycle c) {
  const sim::Picoseconds now = sim::now_ps();
  now_cycle_ = c;
  charge_sleep(c);
  write_back(c);
  const bool l1_full = hand_to_l1(now);
  if (resident_) ++cycles_active_;
  IssueCycle cycle;
  for (std::uint32_t sch = 0; sch < schedulers_; ++sch) schedule(sch, c, cycle);
  const bool released = check_ctas();
  issue_probe_.set(cycle.issued_now);
  loads_probe_.set(std::min<std::uint64_t>(loads_in_flight_, 0xffff));
  // Awake while anything can change by itself: the SFU frees with time. A full LD/ST queue
  // drains only when the L1 takes an access, and the L1 wakes the SM when it frees its input, so
  // the SM sleeps meanwhile, holding (it has work: clocks.core.active_cycles counts those edges).
  // Arithmetic in flight while every scheduler's warps wait on events, or on that full queue,
  // changes nothing before its first result: the SM sleeps, holding, until then (or until the L1
  // takes an access).
  const bool queued = !ldst_.empty() || !ldst_low_.empty();
  bool again = cycle.issued_any || released || cycle.soon || cycle.sfu_wait || !writeback_.empty() || (queued && !l1_full);
  const bool computing = !again && !alu_done_.empty();
  if (computing)
    again = std::any_of(scheds_.begin(), scheds_.end(), [](const Scheduler& x) { return x.settled == Settled::no; }) ||
            alu_done_.top().first <= c + 1;
  last_step_ = c;
  slept_resident_ = !again && !idle();
  slept_held_ = !again && (queued || computing);
  if (slept_held_) hold();
  if (!again && computing) wake_at(alu_done_.top().first);
  if (!again && !sleep_done_.empty()) wake_at(sleep_done_.begin()->first);  // the first nanosleep to end
  return again;
}

void Sm::catch_up(sim::Cycle c) {
  if (slept_held_) charge_sleep(c);
}

void Sm::input_freed() {  // the L1 took an access at this edge: it takes the next from the next edge on
  if (!ldst_.empty() || !ldst_low_.empty()) wake_at(scheduler()->now_cycle() + 1);
}

// An awake SM is stepped every cycle: only sleep leaves a gap before cycle c, charged to what held
// each scheduler when it went to sleep.
void Sm::charge_sleep(sim::Cycle c) {
  if ((slept_resident_ || slept_held_) && c > last_step_ + 1) {
    const std::uint64_t gap = c - last_step_ - 1;
    if (slept_resident_) cycles_active_ += gap;
    for (std::uint32_t sch = 0; sch < schedulers_; ++sch) count_stall(sch, scheds_[sch].slept_why, gap, scheds_[sch].slept_in);
    last_step_ = c - 1;
  }
}

void Sm::touch(std::size_t s) {
  slots_[s].dirty = true;
  scheds_[sched_of(s)].settled = Settled::no;
}

void Sm::note_event(std::size_t s) {
  // A warp still running can neither release a barrier nor retire its CTA, and a barrier another
  // warp waits at keeps its CTA checked every cycle: only a warp at a barrier or finished (or a
  // companion) has its CTA checked, sparing a walk of the CTA's warps after most events.
  const Slot& slot = slots_[s];
  if (!slot.gang && slot.warp && slot.warp->state() == Warp::State::ready) return;
  ctas_[slot.cta]->check = true;
  cta_check_ = true;
}

void Sm::count_stall(std::uint32_t sch, Stall why, std::uint64_t cycles, const ptx::Instruction* at) {
  *stall_[static_cast<int>(why)] += cycles;
  if (profile_) profile_->stalled(why == Stall::empty ? nullptr : at, static_cast<std::size_t>(why) - 1, cycles);
  if (why > Stall::unit) stall_structural_ += cycles;
  if (why == Stall::memory) scheds_[sch].memory_episode += cycles;
}

// A reply that lets warps of `sch` go again ends the memory stall its scheduler was in.
void Sm::charge_memory(std::size_t sch, MemoryLevel level) {
  *memory_by_level_[level] += scheds_[sch].memory_episode;
  scheds_[sch].memory_episode = 0;
  scheds_[sch].last_level = level;
}

std::vector<std::string> Sm::outstanding() const {
  std::vector<std::string> v;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    const Slot& slot = slots_[s];
    if (slot.gang) {  // a companion warp: each of its CTA's warps it has not finished for
      for (const auto& w : slot.gang->warps())
        if (w->state() != Warp::State::done)
          v.push_back(w->where() + ": companion, " +
                      (w->state() == Warp::State::at_barrier ? "waits at its barrier"
                       : slot.unit_wait                      ? "waits for a unit"
                                                             : "ready"));
      continue;
    }
    if (!slot.warp || slot.warp->state() == Warp::State::done) continue;
    std::string what = slot.warp->state() == Warp::State::at_barrier ? "waits at a barrier"
                       : slot.unit_wait                               ? "waits for a unit"
                       : slot.loads                                   ? "waits for " + std::to_string(slot.loads) + " loads"
                                                                      : "ready";
    // Its progress tells a warp that spins (many issued, the last recent) from one starved.
    v.push_back(slot.warp->where() + ": " + what + "; " + std::to_string(__builtin_popcount(slot.warp->active_mask())) +
                " lanes active, " + std::to_string(slot.issued) + " instructions issued" +
                (slot.issued ? ", the last at core cycle " + std::to_string(slot.last_issue) : ""));
  }
  return v;
}

}  // namespace irr::core
