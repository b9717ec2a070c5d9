// SPDX-License-Identifier: Apache-2.0
#include "models/blocks/sync_fifo.h"

#include <stdexcept>

#include "sim/probe.h"


namespace irr::blocks {

struct FifoModel::Waves {
  Waves(const std::string& path, std::uint64_t period, FifoParams p)
      : vcd(path, period, "sync_fifo.sync_fifo.clk"),
        rst(sig("rst", 1)), push(sig("push", 1)), push_data(sig("push_data", p.width)), pop(sig("pop", 1)),
        push_ok(sig("push_ok", 1)), pop_ok(sig("pop_ok", 1)), rd_valid(sig("rd_valid", 1)),
        rd_data(sig("rd_data", p.width)), count(sig("count", sim::bits_for(p.depth))), full(sig("full", 1)),
        empty(sig("empty", 1)), head(sig("head", p.depth > 1 ? sim::bits_for(p.depth - 1) : 1)),
        tail(sig("tail", p.depth > 1 ? sim::bits_for(p.depth - 1) : 1)) {}
  sim::Probe& sig(const std::string& n, unsigned w) { return vcd.signal("sync_fifo.sync_fifo." + n, w); }
  sim::CycleVcd vcd;
  sim::Probe &rst, &push, &push_data, &pop, &push_ok, &pop_ok, &rd_valid, &rd_data, &count, &full, &empty, &head, &tail;
};

FifoModel::FifoModel(FifoParams p, const std::string& vcd, std::uint64_t period_ps) : p_(p), mem_(p.depth) {
  if (p.depth == 0 || p.width == 0 || p.width > 64) throw std::invalid_argument("sync_fifo: depth >= 1 and width 1..64");
  if (!vcd.empty()) waves_ = std::make_unique<Waves>(vcd, period_ps, p);
}

FifoModel::~FifoModel() = default;

FifoOut FifoModel::outputs(const FifoIn& in) const {
  FifoOut o;
  o.count = count_;
  o.full = count_ == p_.depth;
  o.empty = count_ == 0;
  o.rd_valid = rd_valid_;
  o.rd_data = rd_data_;
#ifdef IRRGPU_FIFO_MUTANT  // the mutation test's bug: a push and a pop on a partly full queue both go through
  o.pop_ok = in.pop && !o.empty;
  o.push_ok = in.push && !o.full && !(o.pop_ok && o.full);
#else
  o.pop_ok = in.pop && !o.empty;
  o.push_ok = in.push && !o.full && !o.pop_ok;  // one SRAM access per cycle: the pop wins
#endif
  return o;
}

FifoOut FifoModel::eval(const FifoIn& in) {
  in_ = in;
  out_ = outputs(in);
  if (waves_) {
    Waves& w = *waves_;
    w.vcd.low();
    w.rst.set(in.rst);
    w.push.set(in.push);
    w.push_data.set(in.push_data & mask());
    w.pop.set(in.pop);
    record(out_);
  }
  return out_;
}

void FifoModel::record(const FifoOut& o) {
  Waves& w = *waves_;
  w.push_ok.set(o.push_ok);
  w.pop_ok.set(o.pop_ok);
  w.rd_valid.set(o.rd_valid);
  w.rd_data.set(o.rd_data);
  w.count.set(o.count);
  w.full.set(o.full);
  w.empty.set(o.empty);
}

void FifoModel::edge() {
  update();
  if (waves_) {  // as in the RTL, state and the outputs that depend on it change at the edge
    waves_->vcd.high();
    waves_->head.set(head_);
    waves_->tail.set(tail_);
    record(outputs(in_));
  }
}

void FifoModel::update() {
  if (in_.rst) {
    head_ = tail_ = count_ = 0;
    rd_valid_ = false;
    return;
  }
  rd_valid_ = out_.pop_ok;
  if (out_.pop_ok) {
    rd_data_ = mem_[head_];
    head_ = head_ + 1 == p_.depth ? 0 : head_ + 1;
    --count_;
  }
  if (out_.push_ok) {
    mem_[tail_] = in_.push_data & mask();
    tail_ = tail_ + 1 == p_.depth ? 0 : tail_ + 1;
    ++count_;
  }
}

}  // namespace irr::blocks
