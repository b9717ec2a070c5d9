// SPDX-License-Identifier: Apache-2.0
#include "models/spref/spref.h"

#include <algorithm>
#include <stdexcept>

#include "models/power/energy.h"
#include "sim/error.h"
#include "sim/probe.h"

namespace irr::spref {

using core::ptx::Instruction;
using core::ptx::Op;
using core::ptx::OperandKind;

Options Options::from_config(const sim::Config& c) {
  Options o;
  o.compiler = c.get_string("spref.detection") == "compiler";
  o.distance = static_cast<unsigned>(c.get_uint("spref.distance"));
  o.mid = static_cast<unsigned>(c.get_uint("spref.distance_mid"));
  o.high = static_cast<unsigned>(c.get_uint("spref.distance_high"));
  o.tail_in_cache = c.get_string("spref.tail") == "cache";
  o.nc_only = c.get_string("spref.loads") == "restrict";
  o.through_copies = c.get_bool("spref.index_through_copies");
  o.max_pairs = static_cast<unsigned>(c.get_uint("spref.max_pairs"));
  o.max_distance = static_cast<unsigned>(c.get_uint("spref.max_distance"));
  o.max_registers = static_cast<unsigned>(c.get_uint("spref.max_registers"));
  o.shadow_bits = static_cast<unsigned>(c.get_uint("spref.shadow_bits"));
  if (o.distance > o.max_distance)
    throw Error("spref.distance " + std::to_string(o.distance) + " is more than spref.max_distance " +
                         std::to_string(o.max_distance) + " (the AllocatedReg lists' entries)",
                     Error::Kind::config);
  if (o.mid > o.high)
    throw Error("spref.distance_mid must not exceed spref.distance_high (Listing 1: 4 and 6)", Error::Kind::config);
  return o;
}

std::uint64_t storage_bits(const Options& o, std::uint32_t warps) {
  const std::uint64_t reg_bits = sim::bits_for(o.max_registers);     // a register id (6 for 63 registers)
  const std::uint64_t ptr_bits = sim::bits_for(o.max_distance - 1);  // a list pointer (2 for 3 entries)
  const std::uint64_t tags = o.compiler ? 0 : 2ull * 2 * o.max_registers;   // value and load-id tags [G L500-L501]
  const std::uint64_t maxreg = 2ull * reg_bits;                              // MaxReg_s, MaxReg_d [G L502-L503]
  const std::uint64_t distance = 2ull * warps;                               // [G L504]
  const std::uint64_t shadow = std::uint64_t{o.shadow_bits} * 32 * warps;    // [G L505]
  const std::uint64_t head = o.max_distance * reg_bits + 3 * ptr_bits;       // write, read-mov, read-tail [G L507]
  const std::uint64_t tail = o.max_distance * reg_bits + 2 * ptr_bits;       // write, read-mov [G L508]
  const std::uint64_t lists = std::uint64_t{o.max_pairs} * (head + tail) * warps;  // [G L509]
  return tags + maxreg + distance + shadow + lists;
}

Spref::Spref(sim::Simulation& sim, const sc_core::sc_object& sm)
    : opt_(Options::from_config(sim.config())),
      coalescer_(mem::Coalescer::from_config(sim.config())),
      loops_found_(sim.counter(sm, "spref.loops", "loops whose load pairs were looked for (Table 1, or the compiler's marks)", "loops")),
      pairs_found_(sim.counter(sm, "spref.pairs", "load pairs found (a head load, with or without a tail)", "pairs")),
      invocations_(sim.counter(sm, "spref.invocations", "warps' runs through a loop with load pairs", "invocations")),
      no_registers_(sim.counter(sm, "spref.no_spare_registers", "invocations that could not prefetch: too few spare registers", "invocations")),
      head_prefetches_(sim.counter(sm, "spref.head_prefetches", "head loads prefetched into spare registers (warp instructions injected)", "prefetches")),
      tail_prefetches_(sim.counter(sm, "spref.tail_prefetches", "tail loads prefetched from a head's prefetched value", "prefetches")),
      lines_(sim.counter(sm, "spref.lines", "line accesses the prefetches made", "accesses")),
      moves_(sim.counter(sm, "spref.moves", "demand loads served from a spare register (a mov)", "loads")),
      waited_(sim.counter(sm, "spref.waited_moves", "... of which waited for their prefetch to return", "loads")),
      mispredicted_(sim.counter(sm, "spref.mispredicted", "demand loads whose lanes or addresses the prefetch did not cover (sent to memory)", "loads")),
      unused_(sim.counter(sm, "spref.unused", "prefetches no demand load used (the warp left the loop)", "prefetches")),
      distance_sum_(sim.counter(sm, "spref.distance_sum", "prefetch distances chosen, summed over invocations that prefetch", "iterations")),
      prefetch_probe_(sim.probe(sm, "spref.prefetches", 16, "prefetches in flight or held in spare registers for their demand loads")) {
  // The tables for the energy model: storage_bits() as one array of a row a warp (the thesis's
  // 1,365 bytes an SM [G L500-L515]); a row read at an invocation and at a demand load served, read
  // and written at each prefetch (its AllocatedReg list's pointers) — our reading of the tables' use.
  const auto warps = static_cast<std::uint32_t>(sim.config().get_uint("core.max_warps"));
  power::declare_array(sim, std::string(sm.name()) + ".spref",
                       {"tables", static_cast<double>(warps), static_cast<double>(storage_bits(opt_, warps)) / warps},
                       {{&invocations_, 1}, {&head_prefetches_, 2}, {&tail_prefetches_, 2}, {&moves_, 1}});
}

void Spref::accept(const core::UnitOp&, core::SmPort&) {
  throw std::logic_error("spref: it has no instructions to accept");
}

void Spref::kernel_begin(const core::KernelLaunch& k, core::SmPort& port) {
  kernel_ = &k;
  loops_.clear();
  const auto& f = *k.kernel;
  for (Loop& l : find_loops(f)) {
    LoopState s;
    s.loop = l;
    if (opt_.compiler) {  // marked by the compiler: known from the first iteration [G L493-L495]
      find_pairs_statically(f, s.loop, opt_.max_pairs, opt_.nc_only, opt_.through_copies);
      s.phase = Phase::ready;
      ++loops_found_;
      pairs_found_ += s.loop.pairs.size();
    }
    loops_.push_back(std::move(s));
  }
  loop_of_pc_.assign(f.code.size(), -1);
  for (std::size_t i = 0; i < loops_.size(); ++i)
    for (std::uint32_t pc = loops_[i].loop.start; pc <= loops_[i].loop.end; ++pc) {
      int& o = loop_of_pc_[pc];
      if (o < 0 || loops_[o].loop.end - loops_[o].loop.start > loops_[i].loop.end - loops_[i].loop.start)
        o = static_cast<int>(i);
    }
  // Spare registers: every thread gets MaxReg_d, the most that keeps the occupancy [G L449].
  const std::uint64_t threads = (k.block.count() + 31) / 32 * 32;
  const std::uint32_t resident = std::max<std::uint32_t>(1, port.max_resident(k));
  const auto max_d = std::min<std::uint64_t>(opt_.max_registers, port.register_file() / (resident * threads));
  spare_ = max_d > k.resources.registers ? static_cast<unsigned>(max_d - k.resources.registers) : 0;
  tracking_loop_ = -1;
  tracking_warp_ = kNone;
  warps_.clear();
  prefetches_.clear();
  note_prefetches();
}

void Spref::kernel_end(const core::KernelLaunch&, core::SmPort&) {
  for (Invocation& inv : warps_) end_invocation(inv);
  kernel_ = nullptr;
}

void Spref::warp_exit(std::uint32_t warp, core::SmPort&) {
  if (warp < warps_.size()) end_invocation(warps_[warp]);
  if (tracking_warp_ == warp) tracking_warp_ = kNone;
}

void Spref::end_invocation(Invocation& inv) {
  for (std::uint64_t id : inv.prefetches) {
    auto it = prefetches_.find(id);
    if (it == prefetches_.end()) continue;
    if (!it->second.cache_only) ++unused_;
    prefetches_.erase(it);
    note_prefetches();
  }
  inv = Invocation{};
}

// Hardware detection [G L429-L435]: a backward branch makes a loop known; the next iteration a
// warp starts is recorded (its index updates), then the next (its strided loads and their
// dependants); Table 1 over the two gives the pairs, by the end of the loop's third iteration.
void Spref::detect(std::uint32_t slot, std::uint32_t pc, const Instruction& in) {
  if (in.op == Op::bra && !in.indirect && in.target <= pc) {
    for (auto& s : loops_)
      if (s.loop.end == pc && s.phase == Phase::unseen) s.phase = Phase::seen;
  }
  if (tracking_loop_ >= 0 && tracking_warp_ == slot) {
    LoopState& s = loops_[tracking_loop_];
    auto& path = path_[s.phase == Phase::first ? 0 : 1];
    if (!s.loop.contains(pc)) {  // it left the loop mid-iteration: the next one starts over
      tracking_warp_ = kNone;
      return;
    }
    if (pc == s.loop.start && !path.empty()) path.clear();  // an iteration ended without its branch (a loop inside)
    path.push_back(pc);
    if (pc == s.loop.end) {
      tracking_warp_ = kNone;
      if (s.phase == Phase::first) {
        s.phase = Phase::second;
      } else {
        find_pairs(*kernel_->kernel, s.loop, path_[0], path_[1], opt_.max_pairs, opt_.nc_only, opt_.through_copies);
        s.phase = Phase::ready;
        tracking_loop_ = -1;
        ++loops_found_;
        pairs_found_ += s.loop.pairs.size();
      }
    }
    return;
  }
  if (tracking_warp_ != kNone) return;
  const int l = innermost(pc);
  if (l < 0 || loops_[l].loop.start != pc) return;
  LoopState& s = loops_[l];
  if (tracking_loop_ < 0 && s.phase == Phase::seen) {
    tracking_loop_ = l;
    s.phase = Phase::first;
  }
  if (tracking_loop_ != l) return;
  tracking_warp_ = slot;
  auto& path = path_[s.phase == Phase::first ? 0 : 1];
  path.assign(1, pc);
}

// The shadow iteration counts [G L482]: what the loop's compare leaves to run, per lane, from
// `from_iteration` on, in shadow_bits (saturating).
void Spref::count(Invocation& inv, const LoopState& ls, const Instruction& setp, std::uint32_t active,
                  const core::Warp& warp, std::uint64_t from_iteration) {
  const unsigned bits = core::ptx::type_bits(setp.type) ? core::ptx::type_bits(setp.type) : 32;
  const bool is_signed = setp.type == core::ptx::Type::s32 || setp.type == core::ptx::Type::s64;
  auto value = [&](std::uint32_t operand, unsigned lane) -> std::int64_t {
    const auto& o = setp.ops[operand];
    std::uint64_t v = o.kind == OperandKind::reg ? warp.register_value(o.reg, lane) : static_cast<std::uint64_t>(o.offset);
    if (bits < 64) {
      v &= (std::uint64_t{1} << bits) - 1;
      if (is_signed && (v >> (bits - 1) & 1)) v |= ~((std::uint64_t{1} << bits) - 1);
    }
    return static_cast<std::int64_t>(v);
  };
  const std::int64_t inc = ls.loop.increment;
  const bool inclusive = setp.cmp == core::ptx::Cmp::le || setp.cmp == core::ptx::Cmp::ge ||
                         setp.cmp == core::ptx::Cmp::ls || setp.cmp == core::ptx::Cmp::hs;
  const std::int64_t cap = (std::int64_t{1} << opt_.shadow_bits) - 1;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(active >> l & 1)) continue;
    const std::int64_t gap = inc > 0 ? value(ls.loop.bound_operand, l) - value(ls.loop.induction_operand, l)
                                     : value(ls.loop.induction_operand, l) - value(ls.loop.bound_operand, l);
    const std::int64_t step = inc > 0 ? inc : -inc;
    std::int64_t runs = gap > 0 ? (gap + step - 1) / step : 0;
    if (inclusive && gap >= 0 && gap % step == 0) ++runs;
    inv.runs[l] = static_cast<std::uint8_t>(std::min(runs, cap));
  }
  inv.counted = true;
  inv.counted_at = from_iteration;
}

// The distance for this invocation (Listing 1 [G L463-L472]), lowered to what the spare registers
// allow [G L459]; computed once, from the lanes' average count.
void Spref::decide(Invocation& inv, const LoopState& ls, std::uint32_t active) {
  inv.decided = true;
  ++invocations_;
  unsigned d = opt_.distance;
  if (!d) {
    unsigned sum = 0, n = 0;
    for (unsigned l = 0; l < 32; ++l)
      if (active >> l & 1) {
        sum += inv.runs[l];
        ++n;
      }
    const double avg = n ? static_cast<double>(sum) / n : 0;
    d = avg < opt_.mid ? 1 : avg < opt_.high ? 2 : 3;
  }
  if (ls.registers) d = std::min(d, spare_ / ls.registers);
  d = std::min(d, opt_.max_distance);
  inv.distance = d;
  if (!d) ++no_registers_;
  distance_sum_ += d;
}

core::SmUnit::Take Spref::issued(const core::UnitOp& op, const core::Step& step, const core::Warp& warp,
                                 core::SmPort& port) {
  if (!kernel_ || loops_.empty()) return Take::no;
  const std::uint32_t pc = step.pc, slot = op.warp;
  const Instruction& in = *op.instruction;
  if (!opt_.compiler) detect(slot, pc, in);
  if (slot >= warps_.size()) warps_.resize(slot + 1);
  Invocation& inv = warps_[slot];
  if (inv.loop >= 0 && !loops_[inv.loop].loop.contains(pc)) end_invocation(inv);
  // An iteration starts at a loop's first instruction: the next of the warp's invocation (from its
  // own backward branch), or the first of a new one.
  const int l = innermost(pc);
  if (l >= 0 && pc == loops_[l].loop.start && loops_[l].phase == Phase::ready && !loops_[l].loop.pairs.empty()) {
    LoopState& ls = loops_[l];
    if (inv.loop == l && inv.last_pc == ls.loop.end) {
      ++inv.iteration;
    } else {
      end_invocation(inv);
      inv.loop = l;
      inv.iteration = 1;
      const std::size_t n = ls.loop.pairs.size();
      inv.head_address.assign(n, {});
      inv.head_value.assign(n, {});
      inv.head_seen.assign(n, {});
      if (!ls.registers) {
        for (const Pair& p : ls.loop.pairs) ls.registers += 1 + (p.tail != kNone && p.scale && !opt_.tail_in_cache);
        ls.base.assign(n, 0);
        ls.based.assign(n, false);
      }
    }
  }
  Take take = Take::no;
  // Within the invocation (loops inside it included: a tail may be in one).
  if (inv.loop >= 0) {
    LoopState& ls = loops_[inv.loop];
    // The loop's compare: the shadow counts, every iteration; the hardware-only variant
    // decides its distance from the first [G L482].
    if (pc == ls.loop.setp && step.active) {
      count(inv, ls, in, step.active, warp, inv.iteration + 1);
      if (!inv.decided) decide(inv, ls, step.active);
    }
    for (std::size_t p = 0; p < ls.loop.pairs.size(); ++p) {
      const Pair& pair = ls.loop.pairs[p];
      if (pc == pair.head && step.active) {
        if (opt_.compiler && !inv.decided && ls.loop.setp != kNone) {  // the pre-loop compare's count
          count(inv, ls, kernel_->kernel->code[ls.loop.setp], step.active, warp, inv.iteration);
          decide(inv, ls, step.active);
        }
        take = demand(inv, p, false, op, step);
        // The prefetch of iteration i + d [G L489] for every lane the shadow counts say will run it
        // (a conditional head's too, from where the lane's address was last); a stride not from
        // immediates is the step the lane's address took since the last iteration.
        std::array<std::uint64_t, 32> address = inv.head_address[p];
        std::size_t i = 0;
        for (unsigned lane = 0; lane < 32; ++lane)
          if (step.active >> lane & 1) address[lane] = step.addresses[i++];
        const unsigned d = inv.distance;
        if (d && inv.counted && inv.counted_at <= inv.iteration) {
          std::uint32_t lanes = 0;
          std::array<std::uint64_t, 32> ahead{};
          for (unsigned lane = 0; lane < 32; ++lane) {
            const std::int64_t left = std::int64_t{inv.runs[lane]} - static_cast<std::int64_t>(inv.iteration - inv.counted_at + 1);
            const bool now = step.active >> lane & 1;
            const std::uint64_t seen = now ? inv.iteration : inv.head_seen[p][lane];
            if (left < static_cast<std::int64_t>(d) || !seen) continue;
            std::int64_t stride = pair.stride;
            if (!stride) {
              if (!now || inv.head_seen[p][lane] + 1 != inv.iteration) continue;
              stride = static_cast<std::int64_t>(address[lane] - inv.head_address[p][lane]);
            }
            ahead[lane] = address[lane] + static_cast<std::uint64_t>(stride * static_cast<std::int64_t>(inv.iteration + d - seen));
            lanes |= 1u << lane;
          }
          if (lanes) prefetch(slot, inv, p, false, inv.iteration + d, lanes, ahead, port);
        }
        // This iteration's head addresses and values (the tail's base is learnt from them).
        inv.head_address[p] = address;
        const std::uint32_t reg = in.ops[0].reg;
        for (const auto& w : step.writes)
          if (w.reg == reg)
            for (unsigned lane = 0; lane < 32; ++lane)
              if (w.mask >> lane & 1) inv.head_value[p][lane] = w.value[lane];
        for (unsigned lane = 0; lane < 32; ++lane)
          if (step.active >> lane & 1) inv.head_seen[p][lane] = inv.iteration;
      } else if (pc == pair.tail && step.active) {
        // The tail array's base, from a demand tail and its head's value (a + scale v) [G L489].
        if (!ls.based[p] && pair.scale) {
          std::size_t i = 0;
          bool one = true, first = true;
          std::uint64_t base = 0;
          for (unsigned lane = 0; lane < 32; ++lane) {
            if (!(step.active >> lane & 1)) continue;
            const std::uint64_t b = step.addresses[i++] - static_cast<std::uint64_t>(pair.scale) * inv.head_value[p][lane];
            if (inv.head_seen[p][lane] != inv.iteration) continue;
            if (first) base = b;
            one = one && b == base;
            first = false;
          }
          if (!first && one) {
            ls.base[p] = base;
            ls.based[p] = true;
          }
        }
        take = demand(inv, p, true, op, step);
      }
    }
    inv.last_pc = pc;
  }
  return take;
}

// A demand head or tail load of the invocation's current iteration: a mov from the spare register
// when its prefetch covered every lane at the same address.
core::SmUnit::Take Spref::demand(Invocation& inv, std::size_t pair, bool tail,
                                 const core::UnitOp& op, const core::Step& step) {
  auto found = std::find_if(inv.prefetches.begin(), inv.prefetches.end(), [&](std::uint64_t id) {
    const Prefetch& p = prefetches_.at(id);
    return p.pair == pair && p.tail == tail && !p.cache_only && p.iteration == inv.iteration;
  });
  if (found == inv.prefetches.end()) return Take::no;
  const std::uint64_t id = *found;
  Prefetch& p = prefetches_.at(id);
  std::array<std::uint64_t, 32> value{};
  const std::uint32_t reg = op.instruction->ops[0].reg;
  for (const auto& w : step.writes)
    if (w.reg == reg)
      for (unsigned lane = 0; lane < 32; ++lane)
        if (w.mask >> lane & 1) value[lane] = w.value[lane];
  bool covered = (step.active & ~p.lanes) == 0;
  std::size_t i = 0;
  for (unsigned lane = 0; lane < 32 && covered; ++lane)
    if (step.active >> lane & 1) covered = step.addresses[i++] == p.address[lane];
  if (!covered) {
    ++mispredicted_;
    inv.prefetches.erase(found);
    prefetches_.erase(id);
    note_prefetches();
    return Take::no;
  }
  ++moves_;
  if (p.ready) {
    check(p, step.active, value);
    inv.prefetches.erase(found);
    prefetches_.erase(id);
    note_prefetches();
    return Take::now;
  }
  ++waited_;
  p.token = op.token;
  p.demand = value;
  p.demand_lanes = step.active;
  return Take::later;
}

void Spref::prefetch(std::uint32_t slot, Invocation& inv, std::size_t pair, bool tail, std::uint64_t iteration,
                     std::uint32_t lanes, const std::array<std::uint64_t, 32>& address, core::SmPort& port) {
  const Pair& pr = loops_[inv.loop].loop.pairs[pair];
  const std::uint32_t pc = tail ? pr.tail : pr.head;
  const unsigned bytes = load_bytes(pc);
  const auto lines = coalescer_.coalesce(address.data(), lanes, bytes);
  const std::uint64_t id = next_id_++;
  Prefetch& p = prefetches_[id];
  note_prefetches();
  p.warp = slot;
  p.pair = pair;
  p.tail = tail;
  p.cache_only = tail && opt_.tail_in_cache;
  p.iteration = iteration;
  p.lanes = lanes;
  p.address = address;
  p.lines = static_cast<std::uint32_t>(lines.size());
  inv.prefetches.push_back(id);
  ++(tail ? tail_prefetches_ : head_prefetches_);
  for (const auto& la : lines) {
    mem::MemAccess a;
    a.access = tlm_glue::Access::load;
    a.pc = kernel_->kernel->code[pc].address;
    a.line = la.line;
    a.sectors = la.sectors;
    for (std::uint32_t x = la.sectors; x; x &= x - 1) a.bytes += coalescer_.sector_size();
    a.address = la.line;
    ++lines_;
    port.inject(*this, a, false, id);
  }
}

void Spref::memory_reply(std::uint64_t tag, core::SmPort& port) {
  auto it = prefetches_.find(tag);
  if (it == prefetches_.end()) return;  // its invocation ended
  Prefetch& p = it->second;
  if (--p.lines) return;
  const std::uint64_t id = it->first;
  Invocation& inv = warps_[p.warp];
  if (p.cache_only) {  // SPREF1-C's tail: in the caches now, no register holds it
    inv.prefetches.erase(std::find(inv.prefetches.begin(), inv.prefetches.end(), id));
    prefetches_.erase(it);
    note_prefetches();
    return;
  }
  // The value the spare register receives: memory as the line returns.
  const unsigned bytes = load_bytes(p.tail ? loops_[inv.loop].loop.pairs[p.pair].tail : loops_[inv.loop].loop.pairs[p.pair].head);
  for (unsigned lane = 0; lane < 32; ++lane)
    if (p.lanes >> lane & 1) {
      std::uint64_t v = 0;
      kernel_->ctx.memory->read(p.address[lane], &v, std::min(bytes, 8u));
      p.value[lane] = v;
    }
  p.ready = true;
  // A head's value is the index of its tail's prefetch [G L489].
  const LoopState& ls = loops_[inv.loop];
  const Pair& pair = ls.loop.pairs[p.pair];
  if (!p.tail && pair.tail != kNone && pair.scale && ls.based[p.pair]) {
    std::array<std::uint64_t, 32> address{};
    for (unsigned lane = 0; lane < 32; ++lane)
      if (p.lanes >> lane & 1) address[lane] = ls.base[p.pair] + static_cast<std::uint64_t>(pair.scale) * p.value[lane];
    const std::uint32_t lanes = p.lanes;
    const std::size_t which = p.pair;
    const std::uint64_t iteration = p.iteration;
    prefetch(p.warp, inv, which, true, iteration, lanes, address, port);
  }
  if (p.token) {  // (std::map keeps p where it is while prefetch() adds the tail's)
    check(p, p.demand_lanes, p.demand);
    const std::uint64_t token = p.token;
    inv.prefetches.erase(std::find(inv.prefetches.begin(), inv.prefetches.end(), id));
    prefetches_.erase(id);
    note_prefetches();
    port.complete(token);
  }
}

// A binding prefetch must read what its demand load would have: else the array changed while the
// kernel ran and the register held a stale value.
void Spref::check(const Prefetch& p, std::uint32_t lanes, const std::array<std::uint64_t, 32>& demand) const {
  const LoopState& ls = loops_[warps_[p.warp].loop];
  const std::uint32_t pc = p.tail ? ls.loop.pairs[p.pair].tail : ls.loop.pairs[p.pair].head;
  const unsigned bytes = load_bytes(pc);
  const std::uint64_t mask = bytes >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * bytes)) - 1;
  for (unsigned lane = 0; lane < 32; ++lane)
    if ((lanes >> lane & 1) && (p.value[lane] & mask) != (demand[lane] & mask)) {
      const Instruction& in = kernel_->kernel->code[pc];
      throw Error("spref: kernel " + kernel_->kernel->name + ", PTX line " + std::to_string(in.ptx_line) +
                       ": the value prefetched into a spare register for lane " + std::to_string(lane) +
                       " changed before its load (the array is written while the kernel runs, so it is not "
                       "`const __restrict`; with spref.loads: restrict only ld.global.nc loads are prefetched)");
    }
}

unsigned Spref::load_bytes(std::uint32_t pc) const {
  const Instruction& in = kernel_->kernel->code[pc];
  return std::max(1u, core::ptx::type_bits(in.type) / 8) * in.vec;
}

}  // namespace irr::spref
