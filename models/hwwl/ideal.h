// SPDX-License-Identifier: Apache-2.0
// The limit study's idealised HWWL [K L281-L288]: "a single infinite-capacity worklist with
// unlimited bandwidth" for the whole GPU — no banks, ports, redistribution or virtualization, a
// pull or push taking no time — in FIFO order, or sorted by work ID before every pull (the pull
// takes the smallest ID held). In double-buffer mode it has a pull side and a push side that swap
// at a kernel end once the pull side is empty, as a bank's partitions do.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>

#include "models/hwwl/bank.h"

namespace irr::hwwl {

enum class Ideal { none, fifo, sorted };

class IdealList {
 public:
  IdealList(Ideal order, Mode mode) : order_(order) { set_mode(mode); }

  void set_mode(Mode mode) { pull_ = 0, push_ = mode == Mode::double_buffer ? 1 : 0; }
  void push(std::uint32_t id) {
    auto& s = side_[push_];
    s.push_back(id);
    if (order_ == Ideal::sorted) std::push_heap(s.begin(), s.end(), std::greater<>());
  }
  std::optional<std::uint32_t> pull() {
    auto& s = side_[pull_];
    if (s.empty()) return std::nullopt;
    if (order_ == Ideal::sorted) std::pop_heap(s.begin(), s.end(), std::greater<>());
    const std::uint32_t id = order_ == Ideal::sorted ? s.back() : s.front();
    order_ == Ideal::sorted ? s.pop_back() : s.pop_front();
    return id;
  }
  std::uint64_t pullable() const { return side_[pull_].size(); }
  std::uint64_t held() const { return side_[0].size() + side_[1].size(); }
  void kernel_end() {
    if (pull_ != push_ && side_[pull_].empty()) std::swap(pull_, push_);
  }
  void for_each(const std::function<void(std::uint32_t)>& f) const {
    for (const auto& s : side_)
      for (std::uint32_t id : s) f(id);
  }

 private:
  const Ideal order_;
  std::deque<std::uint32_t> side_[2];  // FIFO order, or a min-heap of IDs (sorted)
  int pull_ = 0, push_ = 0;
};

}  // namespace irr::hwwl
