// SPDX-License-Identifier: Apache-2.0
// The sync_fifo reference (scoreboard), written from the specification table in docs/rtl.md,
// not from the model: a queue of words, the last popped word, and the rules of the table.
#pragma once

#include <deque>

#include "models/blocks/sync_fifo.h"

namespace irr::testing {

class FifoReference : public blocks::FifoBlock {
 public:
  explicit FifoReference(blocks::FifoParams p) : p_(p) {}
  blocks::FifoOut eval(const blocks::FifoIn& in) override {
    in_ = in;
    blocks::FifoOut o;
    o.count = static_cast<std::uint32_t>(words_.size());
    o.empty = words_.empty();
    o.full = words_.size() == p_.depth;
    // "A pop is accepted whenever the queue is not empty."
    o.pop_ok = in.pop && !words_.empty();
    // "A push is accepted when there is room and no pop takes this cycle's SRAM access."
    o.push_ok = in.push && words_.size() < p_.depth && !o.pop_ok;
    // "Read latency 1: the popped word appears the cycle after, with rd_valid."
    o.rd_valid = popped_;
    o.rd_data = last_word_;
    out_ = o;
    return o;
  }
  void edge() override {
    if (in_.rst) {  // "Reset empties the queue and clears rd_valid."
      words_.clear();
      popped_ = false;
      return;
    }
    popped_ = out_.pop_ok;
    if (out_.pop_ok) {
      last_word_ = words_.front();
      words_.pop_front();
    } else if (out_.push_ok) {
      words_.push_back(p_.width == 64 ? in_.push_data : in_.push_data & ((1ull << p_.width) - 1));
    }
  }

 private:
  blocks::FifoParams p_;
  std::deque<std::uint64_t> words_;
  bool popped_ = false;
  std::uint64_t last_word_ = 0;
  blocks::FifoIn in_;
  blocks::FifoOut out_;
};

}  // namespace irr::testing
