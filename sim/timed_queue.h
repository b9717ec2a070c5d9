// SPDX-License-Identifier: Apache-2.0
// A bounded FIFO between two components that may tick at the same simulated instant (in one
// domain or two). A push at time t is visible to the consumer only after t, and a slot freed by a
// pop at t is free for the producer only after t, so the outcome never depends on which of the
// two SystemC happened to run first at t.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <utility>

#include "sim/fifo.h"
#include "sim/units.h"

namespace irr::sim {

template <typename T>
class TimedQueue {
 public:
  explicit TimedQueue(std::size_t capacity) : capacity_(capacity) {
    if (capacity == 0) throw std::invalid_argument("TimedQueue capacity must be at least 1");
  }

  bool can_push(Picoseconds now) const {
    return items_.size() + (pop_time_ == now ? pops_at_pop_time_ : 0) < capacity_;
  }
  void push(T value, Picoseconds now) {
    if (!can_push(now)) throw std::logic_error("TimedQueue::push on a full queue");
    items_.push_back({std::move(value), now});
  }
  bool can_pop(Picoseconds now) const { return !items_.empty() && items_.front().time < now; }
  T pop(Picoseconds now) {
    if (!can_pop(now)) throw std::logic_error("TimedQueue::pop with nothing visible");
    if (pop_time_ != now) {
      pop_time_ = now;
      pops_at_pop_time_ = 0;
    }
    ++pops_at_pop_time_;
    T v = std::move(items_.front().value);
    items_.pop_front();
    return v;
  }
  const T& front() const { return items_.front().value; }
  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  std::size_t capacity() const { return capacity_; }

 private:
  struct Item {
    T value;
    Picoseconds time;
  };
  std::size_t capacity_;
  Fifo<Item> items_;
  Picoseconds pop_time_ = ~Picoseconds{0};
  std::size_t pops_at_pop_time_ = 0;
};

}  // namespace irr::sim
