// SPDX-License-Identifier: Apache-2.0
#include "models/blocks/sync_fifo.h"

#include <stdexcept>


namespace irr::blocks {

FifoModel::FifoModel(FifoParams p) : p_(p), mem_(p.depth) {
  if (p.depth == 0 || p.width == 0 || p.width > 64) throw std::invalid_argument("sync_fifo: depth >= 1 and width 1..64");
}

FifoOut FifoModel::eval(const FifoIn& in) {
  in_ = in;
  out_.count = count_;
  out_.full = count_ == p_.depth;
  out_.empty = count_ == 0;
  out_.rd_valid = rd_valid_;
  out_.rd_data = rd_data_;
#ifdef IRRGPU_FIFO_MUTANT  // the mutation test's bug: a push and a pop on a partly full queue both go through
  out_.pop_ok = in.pop && !out_.empty;
  out_.push_ok = in.push && !out_.full && !(out_.pop_ok && out_.full);
#else
  out_.pop_ok = in.pop && !out_.empty;
  out_.push_ok = in.push && !out_.full && !out_.pop_ok;  // one SRAM access per cycle: the pop wins
#endif
  return out_;
}

void FifoModel::edge() {
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
    const std::uint64_t mask = p_.width == 64 ? ~0ull : (1ull << p_.width) - 1;
    mem_[tail_] = in_.push_data & mask;
    tail_ = tail_ + 1 == p_.depth ? 0 : tail_ + 1;
    ++count_;
  }
}

}  // namespace irr::blocks
