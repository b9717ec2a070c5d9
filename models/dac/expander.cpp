// SPDX-License-Identifier: Apache-2.0
#include "models/dac/expander.h"

#include "sim/error.h"

namespace irr::dac {

Expander::Expander(const ExpanderConfig& c)
    : c_(c), aeu_(make_aeu(c.impl)), pwaq_(make_pwaq(c.impl, c.pwaq)) {
  if (!c.atq_entries) throw Error("DAC: the ATQ needs at least one entry", Error::Kind::config);
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
  if (t.first_slot + t.active.size() > c_.pwaq.warps)
    throw Error("DAC: a CTA's warps " + std::to_string(t.first_slot) + ".." + std::to_string(t.first_slot + t.active.size() - 1) +
                " past the PWAQ's " + std::to_string(c_.pwaq.warps) + " partitions", Error::Kind::simulation);
  atq_.push_back(std::move(t));
  return true;
}

bool Expander::idle() const { return atq_.empty() && phase_ == Phase::idle && lanes_.empty(); }

void Expander::next_warp() {
  const AddressTuple& t = atq_.front();
  a0_ += static_cast<std::uint64_t>(static_cast<std::int64_t>(t.offset) * 32);  // the accumulation a warp
  if (++warp_ == t.active.size()) {
    atq_.pop_front();
    warp_ = 0;
  }
  phase_ = Phase::idle;
}

bool Expander::cycle(std::optional<std::uint32_t> deq_slot) {
  ++stats_.cycles;
  const AeuOut ao = aeu_->eval(AeuIn{});  // registered outputs: the inputs do not change them
  if (phase_ == Phase::starting) {
    if (ao.fallback) {
      const AddressTuple& t = atq_.front();
      for (const auto& r : expand_by_thread(a0_, t.offset, t.active[warp_])) lanes_.push_back(r);
      phase_ = Phase::lanes;
    } else {
      phase_ = Phase::expanding;
    }
  }
  if ((phase_ == Phase::expanding && !ao.busy) || (phase_ == Phase::lanes && lanes_.empty())) next_warp();

  std::optional<LineRecord> offer;
  if (phase_ == Phase::expanding && ao.valid) offer = LineRecord{ao.line, ao.mask};
  if (phase_ == Phase::lanes) offer = lanes_.front();
  PwaqIn pin;
  if (offer) {
    pin.push = true;
    pin.push_warp = atq_.front().first_slot + warp_;
    pin.push_line = offer->line >> 7;
    pin.push_mask = offer->mask;
  }
  if (deq_slot) {
    pin.pop = true;
    pin.pop_warp = *deq_slot;
  }
  const PwaqOut po = pwaq_->eval(pin);
  delivered_ = po.rd_valid ? std::optional<LineRecord>(LineRecord{po.rd_line << 7, po.rd_mask}) : std::nullopt;

  AeuIn ain;
  ain.hold = phase_ == Phase::expanding && ao.valid && !po.push_ok;
  stats_.held += ain.hold;
  if (po.push_ok) {
    ++stats_.records;
    if (phase_ == Phase::lanes) {
      lanes_.pop_front();
      ++stats_.fallback_records;
    }
  }
  if (phase_ == Phase::idle && !atq_.empty()) {  // the next warp of the head tuple
    const AddressTuple& t = atq_.front();
    if (warp_ == 0) a0_ = t.base;
    ain.start = true;
    ain.a0 = a0_;
    ain.offset = t.offset;
    ain.active = t.active[warp_];
    phase_ = Phase::starting;
  }
  aeu_->eval(ain);
  aeu_->edge();
  pwaq_->edge();
  return po.pop_ok;
}

}  // namespace irr::dac
