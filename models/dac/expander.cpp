// SPDX-License-Identifier: Apache-2.0
#include "models/dac/expander.h"

#include <algorithm>

#include "sim/error.h"

namespace irr::dac {

Expander::Expander(const ExpanderConfig& c)
    : c_(c), aeu_(make_aeu(c.impl, 1, c.aeu_fst)), pwaq_(make_pwaq(c.impl, c.pwaq, 1, c.pwaq_fst)), pwpq_(c.pwaq.warps) {
  if (!c.atq_entries) throw Error("DAC: the ATQ needs at least one entry", Error::Kind::config);
  if (!c.pwpq_depth) throw Error("DAC: the PWPQ needs at least one entry a warp", Error::Kind::config);
  if (!c.rate) throw Error("DAC: the AEU must expand at least one record a cycle (dac.aeu_rate)", Error::Kind::config);
  if (c.rate > 1 && c.impl != "model")
    throw Error("DAC: dac.aeu_rate " + std::to_string(c.rate) + " needs dac.impl model (the RTL island expands one record a cycle)",
                Error::Kind::config);
  AeuIn r;
  r.rst = true;
  aeu_->step(r);
  PwaqIn q;
  q.rst = true;
  pwaq_->step(q);
}

bool Expander::enqueue(AddressTuple t) {
  if (atq_.size() >= c_.atq_entries) {
    ++stats_.refused;
    return false;
  }
  if (t.parts.empty()) {  // the CTA's warps in consecutive partitions, a0 accumulating 32·offset a warp
    if (t.first_slot + t.active.size() > c_.pwaq.warps)
      throw Error("DAC: a CTA's warps " + std::to_string(t.first_slot) + ".." +
                      std::to_string(t.first_slot + t.active.size() - 1) + " past the PWAQ's " +
                      std::to_string(c_.pwaq.warps) + " partitions",
                  Error::Kind::simulation);
    for (std::size_t w = 0; w < t.active.size(); ++w) {
      WarpPart p;
      p.slot = t.first_slot + static_cast<std::uint32_t>(w);
      p.a0 = t.base + static_cast<std::uint64_t>(static_cast<std::int64_t>(t.offset) * 32 * static_cast<std::int64_t>(w));
      p.offset = t.offset;
      p.active = t.active[w];
      t.parts.push_back(std::move(p));
    }
  }
  for (const WarpPart& p : t.parts)
    if (p.slot >= c_.pwaq.warps)
      throw Error("DAC: warp slot " + std::to_string(p.slot) + " past the " + std::to_string(c_.pwaq.warps) +
                      " queue partitions (dac.pwaq_entries / dac.pwaq_depth)",
                  Error::Kind::simulation);
  if (t.parts.empty()) return true;  // nothing for any warp: the tuple takes no ATQ entry
  atq_.push_back(std::move(t));
  return true;
}

std::uint32_t Expander::pop_predicate(std::uint32_t slot) {
  const std::uint32_t m = pwpq_.at(slot).front();
  pwpq_[slot].pop_front();
  return m;
}

bool Expander::idle() const { return atq_.empty() && phase_ == Phase::idle && lanes_.empty(); }

// A CTA's tuples keep their order (its warps' queues take records in program order); another CTA's
// may pass a head that waits for its CTA's warps to reach a barrier.
void Expander::overtake() {
  if (!c_.gate_per_cta || !gate_ || warp_ != 0 || phase_ != Phase::idle || atq_.size() < 2 || gate_(atq_.front())) return;
  for (auto it = std::next(atq_.begin()); it != atq_.end(); ++it) {
    const bool oldest_of_its_cta = std::none_of(atq_.begin(), it, [&](const AddressTuple& t) { return t.cta == it->cta; });
    if (oldest_of_its_cta && gate_(*it)) {
      AddressTuple t = std::move(*it);
      atq_.erase(it);
      atq_.push_front(std::move(t));
      ++stats_.overtakes;
      return;
    }
  }
}

void Expander::next_warp() {
  if (++warp_ == atq_.front().parts.size()) {
    atq_.pop_front();
    warp_ = 0;
  }
  phase_ = Phase::idle;
}

bool Expander::cycle(std::optional<std::uint32_t> deq_slot) {
  ++stats_.cycles;
  pushed_.clear();
  delivered_ = carried_;  // a faster AEU's steps read the PWAQ's answer within the cycle: kept for the next
  carried_.reset();
  const bool served = step(deq_slot, true);
  for (unsigned i = 1; i < c_.rate; ++i) step(std::nullopt, false);
  return served;
}

bool Expander::step(std::optional<std::uint32_t> deq_slot, bool first) {
  const AeuOut ao = aeu_->eval(AeuIn{});  // registered outputs: the inputs do not change them
  if (phase_ == Phase::starting) {
    if (ao.fallback) {
      const WarpPart& p = atq_.front().parts[warp_];
      for (const auto& r : expand_by_thread(p.a0, p.offset, p.active)) lanes_.push_back(r);
      phase_ = Phase::lanes;
    } else {
      phase_ = Phase::expanding;
    }
  }
  if ((phase_ == Phase::expanding && !ao.busy) || (phase_ == Phase::lanes && lanes_.empty())) next_warp();

  // The predicate expansion unit: a predicate tuple's part a cycle into its warp's PWPQ partition.
  overtake();
  const bool gated = phase_ == Phase::idle && !atq_.empty() && !may_start();
  stats_.gated += gated;
  if (phase_ == Phase::idle && !atq_.empty() && atq_.front().predicate && !gated) {
    const WarpPart& p = atq_.front().parts[warp_];
    if (pwpq_[p.slot].size() < c_.pwpq_depth) {
      pwpq_[p.slot].push_back(p.predicate);
      ++stats_.predicate_records;
      pushed_.push_back(Pushed{p.slot, LineRecord{0, p.predicate}, true, atq_.front().tag});
      next_warp();
    } else {
      ++stats_.held;
    }
  }

  std::optional<LineRecord> offer;
  if (phase_ == Phase::expanding && ao.valid) offer = LineRecord{ao.line, ao.mask};
  if (phase_ == Phase::lanes) offer = lanes_.front();
  PwaqIn pin;
  if (offer) {
    pin.push = true;
    pin.push_warp = atq_.front().parts[warp_].slot;
    pin.push_line = offer->line >> 7;
    pin.push_mask = offer->mask;
  }
  if (deq_slot) {
    pin.pop = true;
    pin.pop_warp = *deq_slot;
  }
  const PwaqOut po = pwaq_->eval(pin);
  if (po.rd_valid) (first ? delivered_ : carried_) = LineRecord{po.rd_line << 7, po.rd_mask};

  AeuIn ain;
  ain.hold = phase_ == Phase::expanding && ao.valid && !po.push_ok;
  if (offer && !po.push_ok) {  // the record waits: its warp's partition is full, or a dequeue had the port
    ++stats_.held;
    stats_.held_port += po.pop_ok && c_.pwaq.ports == 1;
  }
  if (po.push_ok) {
    ++stats_.records;
    pushed_.push_back(Pushed{pin.push_warp, *offer, false, atq_.front().tag});
    if (phase_ == Phase::lanes) {
      lanes_.pop_front();
      ++(atq_.front().parts[warp_].by_lanes ? stats_.lane_records : stats_.fallback_records);
    }
  }
  // The warp's last record went this cycle: the next warp starts now, without a gap.
  if ((phase_ == Phase::expanding && ao.done && !ain.hold) || (phase_ == Phase::lanes && lanes_.empty())) next_warp();
  overtake();
  if (phase_ == Phase::idle && !atq_.empty() && !atq_.front().predicate && may_start()) {  // the head tuple's next warp
    const WarpPart& p = atq_.front().parts[warp_];
    if (p.by_lanes) {  // records from the lanes, no AEU
      lanes_.assign(p.lanes.begin(), p.lanes.end());
      phase_ = Phase::lanes;
    } else {
      ain.start = true;
      ++stats_.expansions;
      ain.a0 = p.a0;
      ain.offset = p.offset;
      ain.active = p.active;
      phase_ = Phase::starting;
    }
  }
  aeu_->eval(ain);
  aeu_->edge();
  pwaq_->edge();
  return po.pop_ok;
}

}  // namespace irr::dac
