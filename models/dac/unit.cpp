// SPDX-License-Identifier: Apache-2.0
#include "models/dac/unit.h"

#include <algorithm>
#include <map>

#include "models/core/exec/cfg.h"
#include "models/power/energy.h"
#include "sim/error.h"

namespace irr::dac {

namespace {

constexpr std::uint64_t kDataTag = 1;  // tuple tags: bit 0 set for enq.data (its lines are prefetched)

std::string hex(std::uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

}  // namespace

std::vector<LineRecord> lines_of(const std::uint64_t value[32], std::uint32_t active) {
  std::map<std::uint64_t, std::uint32_t> lines;
  for (std::uint32_t l = 0; l < 32; ++l)
    if (active >> l & 1) lines[value[l] & ~std::uint64_t{127}] |= 1u << ((value[l] >> 2) & 31);
  std::vector<LineRecord> out;
  for (const auto& [line, mask] : lines) out.push_back({line, mask});
  return out;
}

SmUnit::SmUnit(sim::Simulation& sim, core::Sm& sm, const Queues& reference, const UnitConfig& c)
    : sim_(sim),
      sm_(sm),
      reference_(reference),
      c_(c),
      name_(std::string(sm.name()) + ".dac"),
      expander_(c.expander),
      groups_(c.expander.pwaq.warps),
      ready_(c.expander.pwaq.warps, 0),
      enq_address_(sim.stats().counter(name_ + ".enq_address", "enq.data and enq.addr tuples the affine warps issued", "tuples")),
      enq_predicate_(sim.stats().counter(name_ + ".enq_predicate", "enq.pred tuples the affine warps issued", "tuples")),
      atq_full_(sim.stats().counter(name_ + ".atq_full", "cycles an affine warp's enq waited for an ATQ entry", "cycles")),
      records_(sim.stats().counter(name_ + ".records", "address records put into the PWAQ", "records")),
      lane_records_(sim.stats().counter(name_ + ".lane_records", "of them from the SIMT lanes: values not one affine sequence (divergent tuples)", "records")),
      fallback_records_(sim.stats().counter(name_ + ".fallback_records", "of them from the SIMT lanes: offsets off the AEU's fast path", "records")),
      predicate_records_(sim.stats().counter(name_ + ".predicate_records", "predicate masks put into the PWPQ", "records")),
      held_(sim.stats().counter(name_ + ".held", "cycles an expanded record waited to enter its warp's queue (the ATQ's head blocked)", "cycles")),
      held_port_(sim.stats().counter(name_ + ".held_port", "of them because a dequeue had the single-port PWAQ (the rest: the partition was full)", "cycles")),
      deq_data_(sim.stats().counter(name_ + ".deq_data", "deq.data the non-affine warps executed (a decoupled load each)", "instructions")),
      deq_addr_(sim.stats().counter(name_ + ".deq_addr", "deq.addr the non-affine warps executed (a decoupled store each)", "instructions")),
      deq_predicate_(sim.stats().counter(name_ + ".deq_predicate", "deq.pred the non-affine warps executed", "instructions")),
      prefetches_(sim.stats().counter(name_ + ".prefetches", "enq.data lines sent to the L1 ahead of their loads", "lines")),
      prefetch_replies_(sim.stats().counter(name_ + ".prefetch_replies", "of them answered", "lines")),
      locks_(sim.stats().counter(name_ + ".locks", "L1 line locks taken for a warp's prefetched line (released by its load)", "locks")),
      lock_refused_(sim.stats().counter(name_ + ".lock_refused", "prefetched lines left unlocked: their set had ways - 1 lines locked", "lines")),
      peu_comparisons_(sim.stats().counter(name_ + ".peu_comparisons", "comparisons the PEU made (1 a scalar-scalar tuple, 2 a convergent warp)", "comparisons")),
      peu_lane_warps_(sim.stats().counter(name_ + ".peu_lane_warps", "warps whose predicate the SIMT lanes compared (32 comparisons each)", "warps")),
      atq_accesses_(sim.stats().counter(name_ + ".atq_accesses", "ATQ reads and writes (energy: 5.3 pJ each [S L690])", "accesses")),
      pwaq_accesses_(sim.stats().counter(name_ + ".pwaq_accesses", "PWAQ reads and writes (energy: 3.4 pJ each [S L691])", "accesses")),
      pwpq_accesses_(sim.stats().counter(name_ + ".pwpq_accesses", "PWPQ reads and writes (energy: 1.5 pJ each [S L692])", "accesses")),
      gated_(sim.stats().counter(name_ + ".gated", "cycles the ATQ's head tuple waited for its CTA's warps to pass the barrier the affine warp passed before it", "cycles")),
      stack_pushes_(sim.stats().counter(name_ + ".stack_pushes", "affine SIMT stack (WLS) entries pushed at the affine warps' divergent branches", "entries")),
      stack_pops_(sim.stats().counter(name_ + ".stack_pops", "WLS entries popped at their reconvergence points", "entries")),
      pws_accesses_(sim.stats().counter(name_ + ".pws_accesses", "per-warp stack masks written and read: the warps whose code was 10 (energy: 2.7 pJ each [S L693])", "accesses")),
      wls_max_(sim.stats().counter(name_ + ".wls_depth_max", "the deepest WLS of an affine warp, the base entry included (dac.wls_depth: 8)", "entries")),
      pws_max_(sim.stats().counter(name_ + ".pws_depth_max", "the deepest per-warp stack (dac.pws_depth: 8)", "entries")),
      stack_overflows_(sim.stats().counter(name_ + ".stack_overflows", "pushes past dac.wls_depth or dac.pws_depth (dac.stack_overflow: count)", "pushes")),
      atq_probe_(sim.probe(name_ + ".atq", sim::bits_for(c.expander.atq_entries), "tuples in the ATQ")),
      pwaq_probe_(sim.probe(name_ + ".pwaq", 16, "address records in the PWAQ")),
      ahead_probe_(sim.probe(name_ + ".run_ahead", 16, "enqs issued whose deqs have not come: how far the affine warps run ahead")),
      locked_probe_(sim.probe(name_ + ".locked_lines", 16, "L1 lines locked for their warps' loads")) {
  if (c.expander.gate_per_cta)
    overtakes_ = &sim.stats().counter(name_ + ".overtakes", "tuples the AEU took before a head waiting at its CTA's barrier (dac.gate_scope: cta)", "tuples");
  if (c.barrier_gating)
    expander_.set_gate([this](const AddressTuple& t) {
      auto it = barriers_.find(t.cta);
      return it == barriers_.end() ? t.fence == 0 : it->second.second >= t.fence;
    });
  // Table 3.1's arrays at the thesis's own energy an access [S L690-L693] (CACTI at the GTX 480's
  // node; the energy model scales them with the preset's), entry widths as the thesis sizes them.
  const unsigned warps = c.expander.pwaq.warps;
  power::declare_array(sim, name_, {"atq", static_cast<double>(c.expander.atq_entries), 131, 5.3}, {{&atq_accesses_, 1}});
  power::declare_array(sim, name_, {"pwaq", static_cast<double>(warps * c.expander.pwaq.depth), 65, 3.4}, {{&pwaq_accesses_, 1}});
  power::declare_array(sim, name_, {"pwpq", static_cast<double>(warps * c.expander.pwpq_depth), 32, 1.5}, {{&pwpq_accesses_, 1}});
  power::declare_array(sim, name_, {"pws", static_cast<double>(warps * c.pws_depth), 32, 2.7}, {{&pws_accesses_, 1}});
  // The expansion units' ALUs: "one or two ALU operations to expand an affine tuple for a given
  // warp" [S L805] (dac.expansion_alu_ops an expansion the AEU starts), a PEU comparison one.
  if (sim.config().get_bool("power.enabled")) {
    const sim::Stat& expansions =
        sim.stats().formula(name_ + ".energy_events.aeu_expansions", "warps' address tuples the AEU started expanding (for the energy model)",
                            "expansions", [this] { return static_cast<double>(expander_.stats().expansions); });
    power::declare_alu(sim, name_, "aeu", {{&expansions, static_cast<double>(sim.config().get_uint("dac.expansion_alu_ops"))}});
    power::declare_alu(sim, name_, "peu", {{&peu_comparisons_, 1}});
  }
  sim.clock("core").add(*this);
  sim.watch(name_, *this);
}

void SmUnit::barrier(std::uint64_t cta, bool companion, core::SmPort&) {
  auto& [affine, non_affine] = barriers_[cta];
  ++(companion ? affine : non_affine);
  wake();
}

bool SmUnit::can_accept(const core::UnitOp& op) {
  if (op.companion) {  // an enq: a free ATQ entry
    const bool room = expander_.atq_size() < c_.expander.atq_entries;
    atq_full_ += !room;
    return room;
  }
  // A deq: the enq it matches has been issued (its records are owed to this warp); they may still
  // be on their way through the expansion unit — the warp waits for them at the unit.
  return op.warp < groups_.size() && !groups_[op.warp].empty();
}

void SmUnit::enq(const core::UnitOp& op, core::SmPort& port) {
  const auto form = static_cast<Form>(op.instruction->ext_form);
  const std::vector<std::uint32_t> slots = port.warp_slots(op.cta);
  AddressTuple t;
  t.predicate = form == Form::pred;
  t.tag = (next_tag_++ << 1) | (form == Form::data ? kDataTag : 0);
  t.cta = op.cta;
  t.fence = barriers_.count(op.cta) ? barriers_[op.cta].first : 0;
  std::vector<std::uint32_t> masks;
  for (const core::UnitOp::Part& part : op.parts) {
    if (part.warp >= slots.size()) throw std::logic_error(name_ + ": an enq for a warp its CTA does not have");
    const std::uint32_t slot = slots[part.warp];
    const Queues::Record* last = reference_.last(op.cta, part.warp, form);
    if (!last || last->mask != part.lanes)
      throw std::logic_error(name_ + ": the enq's record is not the reference queue's last");
    const Queues::Record& r = *last;
    Group g;
    g.predicate = t.predicate;
    g.line = r.line;
    WarpPart p;
    p.slot = slot;
    p.active = part.lanes;
    if (t.predicate) {
      for (std::uint32_t l = 0; l < 32; ++l)
        if (part.lanes >> l & 1 && r.value[l]) p.predicate |= 1u << l;
      g.records.push_back({0, p.predicate});
      masks.push_back(p.predicate);
      t.parts.push_back(std::move(p));
    } else if (part.lanes) {
      // a0 and offset where the warp's values are one affine sequence over its lanes.
      const int first = __builtin_ctz(part.lanes), last = 31 - __builtin_clz(part.lanes);
      std::int64_t offset = 0;
      bool affine = true;
      if (last > first) {
        const auto d = static_cast<std::int64_t>(r.value[last] - r.value[first]);
        affine = d % (last - first) == 0;
        offset = d / (last - first);
        for (int l = first; affine && l <= last; ++l)
          affine = !(part.lanes >> l & 1) ||
                   r.value[l] == r.value[first] + static_cast<std::uint64_t>(offset * (l - first));
        affine = affine && offset >= INT32_MIN && offset <= INT32_MAX;
      }
      if (affine) {
        p.a0 = r.value[first] - static_cast<std::uint64_t>(offset * first);
        p.offset = static_cast<std::int32_t>(offset);
        g.records = expand_by_thread(p.a0, p.offset, p.active);
      } else {
        p.by_lanes = true;
        p.lanes = lines_of(r.value, part.lanes);
        g.records = p.lanes;
      }
      t.parts.push_back(std::move(p));
    }
    groups_[slot].push_back(std::move(g));
    ++groups_queued_;
  }
  if (t.predicate) {
    ++enq_predicate_;
    // The PEU: one comparison when every warp agrees on all its threads (a scalar-scalar tuple), two
    // a warp whose threads agree (the first and the last compared), the lanes for a mixed warp.
    bool uniform = true, cta_scalar = true;
    for (std::size_t i = 0; i < t.parts.size(); ++i) {
      const std::uint32_t m = masks[i], a = t.parts[i].active;
      const bool same = m == 0 || m == a;
      uniform = uniform && same;
      cta_scalar = cta_scalar && same && (m != 0) == (masks[0] != 0);
      if (!same) ++peu_lane_warps_;
    }
    if (uniform && cta_scalar) peu_comparisons_ += 1;
    else
      for (std::size_t i = 0; i < t.parts.size(); ++i)
        if (masks[i] == 0 || masks[i] == t.parts[i].active) peu_comparisons_ += 2;
  } else {
    ++enq_address_;
  }
  if (!expander_.enqueue(std::move(t))) throw std::logic_error(name_ + ": an enq accepted with the ATQ full");
  ++atq_accesses_;
  port.complete(op.token);
}

void SmUnit::accept(const core::UnitOp& op, core::SmPort& port) {
  port_ = &port;
  wake();
  if (op.companion) return enq(op, port);
  Group g = std::move(groups_.at(op.warp).front());
  groups_[op.warp].pop_front();
  --groups_queued_;
  if (g.predicate != (static_cast<Form>(op.instruction->ext_form) == Form::pred))
    throw std::logic_error(name_ + ": a deq of another kind than its enq");
  if (g.predicate) {
    ++deq_predicate_;
    pred_deqs_.push_back(Deq{op.token, op.warp, std::move(g)});
    return;
  }
  ++(static_cast<Form>(op.instruction->ext_form) == Form::data ? deq_data_ : deq_addr_);
  if (g.records.empty()) return port.complete(op.token);  // no thread of the warp needed the value
  deqs_.push_back(Deq{op.token, op.warp, std::move(g)});
}

void SmUnit::check_record(Deq& d, const LineRecord& r) {
  const LineRecord& want = d.group.records.at(d.got);
  if (!(r == want))
    throw Error(name_ + ": warp slot " + std::to_string(d.slot) + "'s deq for enq (line " + std::to_string(d.group.line) +
                ") got the record " + hex(r.line) + "/" + hex(r.mask) + " where Eq. 3.1 gives " + hex(want.line) + "/" +
                hex(want.mask) +
                (want.line >> kPwaqAddressBits ? " (an address beyond the PWAQ's " + std::to_string(kPwaqAddressBits) + " bits)" : ""));
  ++d.got;
}

bool SmUnit::tick(sim::Cycle) {
  // One PWAQ read a cycle: the oldest waiting deq whose partition holds its next record.
  std::optional<std::uint32_t> pop;
  Deq* popping = nullptr;
  for (Deq& d : deqs_)
    if (d.requested < d.group.records.size() && ready_[d.slot] > 0) {
      pop = d.slot;
      popping = &d;
      break;
    }
  const bool served = expander_.cycle(pop);
  if (served) {
    --ready_[*pop];
    --queued_records_;
    ++popping->requested;
    ++pwaq_accesses_;
    popped_.push_back(popping->token);
  } else if (pop) {
    throw std::logic_error(name_ + ": the PWAQ refused a read of a partition holding records");
  }
  if (auto r = expander_.delivered()) {  // the read of the cycle before
    const std::uint64_t token = popped_.front();
    popped_.pop_front();
    auto it = std::find_if(deqs_.begin(), deqs_.end(), [&](const Deq& d) { return d.token == token; });
    check_record(*it, *r);
    if (it->got == it->group.records.size()) {
      port_->complete(token);
      deqs_.erase(it);
    }
  }
  // The PWPQ: one read a cycle.
  if (!pred_deqs_.empty()) {
    for (auto it = pred_deqs_.begin(); it != pred_deqs_.end(); ++it) {
      if (!expander_.predicates(it->slot)) continue;
      const std::uint32_t m = expander_.pop_predicate(it->slot);
      ++pwpq_accesses_;
      check_record(*it, LineRecord{0, m});
      port_->complete(it->token);
      pred_deqs_.erase(it);
      break;
    }
  }
  for (const Pushed& p : expander_.pushed()) {
    if (p.predicate) {
      ++predicate_records_;
      ++pwpq_accesses_;
    } else {
      ++ready_[p.slot];
      ++queued_records_;
      ++records_;
      ++pwaq_accesses_;
      if (c_.prefetch && c_.lock && (p.tag & kDataTag)) ++(port_->lock_line(p.record.line, p.slot) ? locks_ : lock_refused_);
      if (c_.prefetch && (p.tag & kDataTag) && !(p.record.line == last_line_ && p.tag == last_tag_)) {
        if (c_.dma) {
          port_->fetch_line(*this, p.record.line, p.record.line);
        } else {
          mem::MemAccess a;
          a.access = tlm_glue::Access::load;
          a.line = a.address = p.record.line;
          a.bytes = 128;
          a.sectors = ~0u;
          port_->inject(*this, a, false, p.record.line);
        }
        ++prefetches_;
        last_line_ = p.record.line;
        last_tag_ = p.tag;
      }
    }
  }
  const ExpanderStats& s = expander_.stats();
  lane_records_ += s.lane_records - lane_records_.count();
  fallback_records_ += s.fallback_records - fallback_records_.count();
  held_ += s.held - held_.count();
  held_port_ += s.held_port - held_port_.count();
  gated_ += s.gated - gated_.count();
  if (overtakes_) *overtakes_ += s.overtakes - overtakes_->count();
  atq_probe_.set(expander_.atq_size());
  pwaq_probe_.set(std::min<std::uint64_t>(queued_records_, 0xffff));
  ahead_probe_.set(std::min<std::uint64_t>(groups_queued_, 0xffff));
  if (port_) locked_probe_.set(std::min<std::uint64_t>(port_->locked_lines(), 0xffff));
  return !expander_.idle() || !deqs_.empty() || !pred_deqs_.empty() || !popped_.empty();
}

void SmUnit::memory_reply(std::uint64_t, core::SmPort&) { ++prefetch_replies_; }

void SmUnit::kernel_begin(const core::KernelLaunch& k, core::SmPort&) {
  stacks_.clear();
  stream_ = k.ctx.companion;
  rpc_ = stream_ ? core::reconvergence_points(*stream_) : std::vector<std::uint32_t>{};
  threads_.clear();
  for (std::uint64_t t = 0; t < k.block.count(); t += 32)
    threads_.push_back(k.block.count() - t >= 32 ? ~0u : (1u << (k.block.count() - t)) - 1);
}

// The affine SIMT stack follows the affine warp's branches (models/dac/affine_stack.h).
void SmUnit::companion_issued(const core::UnitOp& op, core::SmPort&) {
  if (!stream_) return;
  const auto& in = *op.instruction;
  const auto pc = static_cast<std::uint32_t>(&in - stream_->code.data());
  auto it = stacks_.try_emplace(op.cta, threads_).first;
  AffineStack& stack = it->second;
  if (const unsigned popped = stack.issued(pc)) {
    stack_pops_ += popped;
    pws_accesses_ += stack.pws_read();
  }
  if (in.op != core::ptx::Op::bra || pc >= rpc_.size()) return;
  std::vector<AffineStack::At> at;
  for (const auto& p : op.parts) at.push_back({p.warp, p.before, p.lanes});
  const unsigned pushed = stack.branch(pc, in.target, rpc_[pc], at);
  stack_pushes_ += pushed;
  pws_accesses_ += stack.pws_written();
  const unsigned wls = stack.depth(), pws = stack.pws_max();
  if (wls > wls_max_.count()) wls_max_ += wls - wls_max_.count();
  if (pws > pws_max_.count()) pws_max_ += pws - pws_max_.count();
  if (wls <= c_.wls_depth && pws <= c_.pws_depth) return;
  if (c_.stack_overflow_stops)
    throw Error(name_ + ": CTA " + std::to_string(op.cta) + "'s affine warp, branch at PTX line " +
                    std::to_string(in.ptx_line) + ", needs " + std::to_string(wls) + " WLS and " + std::to_string(pws) +
                    " PWS entries: more than the affine SIMT stack's dac.wls_depth = " + std::to_string(c_.wls_depth) +
                    " / dac.pws_depth = " + std::to_string(c_.pws_depth) +
                    " (raise them, or set dac.stack_overflow: count to measure the depth needed)");
  stack_overflows_ += pushed ? pushed : 1;
}

void SmUnit::kernel_end(const core::KernelLaunch&, core::SmPort&) {
  stacks_.clear();
  for (std::size_t s = 0; s < groups_.size(); ++s)
    if (!groups_[s].empty() || ready_[s])
      throw Error(name_ + ": warp slot " + std::to_string(s) + " ended the kernel with " +
                  std::to_string(groups_[s].size()) + " enqs (from line " +
                  (groups_[s].empty() ? std::string("?") : std::to_string(groups_[s].front().line)) +
                  ") never dequeued: every enqueued value must be dequeued by the warp it was for");
  if (!expander_.idle() || !deqs_.empty() || !pred_deqs_.empty())
    throw Error(name_ + ": the kernel ended with tuples or deqs still in the unit");
  reference_.check_drained();
  last_line_ = last_tag_ = ~0ull;
  barriers_.clear();
}

std::vector<std::string> SmUnit::outstanding() const {
  std::vector<std::string> v;
  if (expander_.atq_size()) v.push_back(name_ + ": " + std::to_string(expander_.atq_size()) + " tuples in the ATQ");
  for (const Deq& d : deqs_)
    v.push_back(name_ + ": warp slot " + std::to_string(d.slot) + " waits for " +
                std::to_string(d.group.records.size() - d.got) + " PWAQ records of enq (line " +
                std::to_string(d.group.line) + ")" + (ready_[d.slot] ? "" : ": its partition is empty"));
  for (const Deq& d : pred_deqs_)
    v.push_back(name_ + ": warp slot " + std::to_string(d.slot) + " waits for a PWPQ record of enq.pred (line " +
                std::to_string(d.group.line) + ")");
  return v;
}

}  // namespace irr::dac
