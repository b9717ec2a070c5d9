// SPDX-License-Identifier: Apache-2.0
#include "models/hwwl/hvu.h"

#include <algorithm>

#include "sim/error.h"

namespace irr::hwwl {

namespace {
constexpr std::uint32_t kWarp = 32;      // IDs per coalesced spill store [K L255]
constexpr std::uint64_t kEntryBytes = 4; // 32-bit overflow entries: a warp's worth is 128 B
}  // namespace

Hvu::Hvu(std::uint32_t core, std::uint64_t base, std::uint64_t capacity, MemoryPort& memory)
    : core_(core), base_(base), capacity_(capacity), memory_(memory) {}

std::uint64_t Hvu::held() const {
  return queued_.size() + storing_ + overflow_.size() + loading_ + landing_.size();
}

void Hvu::spill(std::uint32_t id) {
  if (queued_.size() + storing_ + overflow_.size() >= capacity_)
    throw Error("wlpush on core " + std::to_string(core_) + ": its bank and its overflow buffer (" +
                std::to_string(capacity_) + " IDs, set by wlinit) are full — allocate a larger overflow buffer");
  queued_.push_back(id);
}

void Hvu::step(std::vector<Bank*>& banks, bool refill_point, sim::Cycle c) {
  // Refilled IDs land in their reserved entries on cycles the bank's port is free [K L257].
  for (auto it = landing_.begin(); it != landing_.end();) {
    Bank& b = *banks[it->first];
    if (!b.port_free(c)) {
      ++it;
      continue;
    }
    b.fill_reserved(c, it->second);
    it = landing_.erase(it);
  }
  if (!queued_.empty()) {
    const auto n = std::min<std::size_t>(queued_.size(), kWarp);
    std::vector<std::uint32_t> ids(queued_.begin(), queued_.begin() + static_cast<std::ptrdiff_t>(n));
    queued_.erase(queued_.begin(), queued_.begin() + static_cast<std::ptrdiff_t>(n));
    storing_ += n;
    ++stores_;
    const std::uint64_t address = base_ + ((head_ + overflow_.size() + storing_ - n) % capacity_) * kEntryBytes;
    memory_.store(address, ids, [this, ids] {
      storing_ -= ids.size();
      overflow_.insert(overflow_.end(), ids.begin(), ids.end());
    });
  }
  if (!refill_point || overflow_.empty()) return;
  if (!std::all_of(banks.begin(), banks.end(), [](const Bank* b) { return b->free_pull_entries() > 0; })) return;
  const auto n = static_cast<std::uint32_t>(std::min<std::size_t>(overflow_.size(), banks.size()));
  std::vector<std::uint32_t> ids(overflow_.begin(), overflow_.begin() + n);
  overflow_.erase(overflow_.begin(), overflow_.begin() + n);
  const std::uint64_t address = base_ + (head_ % capacity_) * kEntryBytes;
  head_ += n;
  for (std::uint32_t i = 0; i < n; ++i) banks[i]->reserve(1);
  loading_ += n;
  ++loads_;
  memory_.load(address, n, [this, ids](std::vector<std::uint32_t>) {
    loading_ -= ids.size();
    for (std::uint32_t i = 0; i < ids.size(); ++i) landing_.emplace_back(i, ids[i]);
  });
}

}  // namespace irr::hwwl
