// SPDX-License-Identifier: Apache-2.0
// A first-in first-out queue in one ring buffer (a power-of-two array that doubles when full), for
// the queues every transaction passes through (ports, LD/ST queues, miss queues, links). A
// std::deque allocates a block as its back crosses into a new one and frees the block its front
// leaves, so a queue that is filled and drained forever allocated and freed all the time; this
// one allocates only to grow, and keeps its storage.
#pragma once

#include <cstddef>
#include <iterator>
#include <utility>  // std::swap
#include <vector>

namespace irr::sim {

template <class T>
class Fifo {
 public:
  template <class Q, class V>
  class Iterator {  // forward, oldest first
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = V*;
    using reference = V&;
    Iterator() = default;
    Iterator(Q* q, std::size_t i) : q_(q), i_(i) {}
    reference operator*() const { return (*q_)[i_]; }
    pointer operator->() const { return &(*q_)[i_]; }
    Iterator& operator++() {
      ++i_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator t = *this;
      ++i_;
      return t;
    }
    bool operator==(const Iterator& o) const { return i_ == o.i_; }
    bool operator!=(const Iterator& o) const { return i_ != o.i_; }

   private:
    Q* q_ = nullptr;
    std::size_t i_ = 0;
  };
  using iterator = Iterator<Fifo, T>;
  using const_iterator = Iterator<const Fifo, const T>;

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return ring_[(head_ + i) & mask_]; }  // i-th oldest
  const T& operator[](std::size_t i) const { return ring_[(head_ + i) & mask_]; }
  T& front() { return ring_[head_]; }
  const T& front() const { return ring_[head_]; }
  T& back() { return (*this)[size_ - 1]; }
  const T& back() const { return (*this)[size_ - 1]; }

  void push_back(const T& v) { slot() = v; }
  void push_back(T&& v) { slot() = std::move(v); }
  template <class... A>
  T& emplace_back(A&&... a) {
    T& s = slot();
    s = T(std::forward<A>(a)...);
    return s;
  }
  // Adds v after every element it does not go `before` (std::upper_bound's place): at the back
  // when the queue is kept in order and v comes last, as it mostly does, in one compare.
  template <class Before>
  void insert_ordered(T v, Before before) {
    push_back(std::move(v));
    for (std::size_t i = size_ - 1; i > 0 && before((*this)[i], (*this)[i - 1]); --i) std::swap((*this)[i], (*this)[i - 1]);
  }
  void pop_front() {  // the element is left as it was (overwritten by a later push)
    head_ = (head_ + 1) & mask_;
    --size_;
  }
  void clear() {
    head_ = 0;
    size_ = 0;
  }

  iterator begin() { return {this, 0}; }
  iterator end() { return {this, size_}; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

 private:
  T& slot() {  // the next free slot at the back, counted in
    if (size_ == ring_.size()) grow();
    T& s = ring_[(head_ + size_) & mask_];
    ++size_;
    return s;
  }
  void grow() {
    std::vector<T> bigger(ring_.empty() ? 8 : ring_.size() * 2);
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = std::move((*this)[i]);
    ring_ = std::move(bigger);
    head_ = 0;
    mask_ = ring_.size() - 1;
  }

  std::vector<T> ring_;
  std::size_t head_ = 0, size_ = 0, mask_ = 0;
};

}  // namespace irr::sim
