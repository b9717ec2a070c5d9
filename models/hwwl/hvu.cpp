// SPDX-License-Identifier: Apache-2.0
#include "models/hwwl/hvu.h"

#include <algorithm>

#include "sim/error.h"

namespace irr::hwwl {

namespace {
constexpr std::uint32_t kWarp = 32;      // IDs per coalesced spill store [K L255]
constexpr std::uint64_t kEntryBytes = 4; // 32-bit overflow entries: a warp's worth is 128 B
}  // namespace

Hvu::Hvu(std::uint32_t core, std::uint64_t base, std::uint64_t capacity, MemoryPort& memory, Mode mode)
    : core_(core), base_(base), capacity_(capacity), memory_(memory), mode_(mode) {}

std::uint64_t Hvu::held() const {
  return queued_.size() + storing_ids_ + overflow_.size() + requested_.size() + loading_ + landing_.size();
}

void Hvu::for_each(const std::function<void(std::uint32_t)>& f) const {
  for (const Entry& e : queued_) f(e.id);
  for (const auto& [tag, entries] : storing_)
    for (const Entry& e : entries) f(e.id);
  for (const Entry& e : overflow_) f(e.id);
  for (const auto& [bank, id] : requested_) f(id);
  for (const auto& [tag, ids] : loads_in_flight_)
    for (const auto& [bank, id] : ids) f(id);
  for (const auto& [bank, id] : landing_) f(id);
}

void Hvu::spill(std::uint32_t id) {
  if (queued_.size() + storing_ids_ + overflow_.size() >= capacity_)
    throw Error("wlpush on core " + std::to_string(core_) + ": its bank and its overflow buffer (" +
                std::to_string(capacity_) + " IDs, set by wlinit) are full — allocate a larger overflow buffer");
  queued_.push_back({id, kernel_});
  ++spilled_;
}

void Hvu::step(std::vector<Bank*>& banks, sim::Cycle c, std::uint32_t limit) {
  // Refilled IDs land in their reserved entries on cycles the bank's port is free [K L257].
  for (auto it = landing_.begin(); it != landing_.end();) {
    Bank& b = *banks[it->first];
    if (!b.port_free(c)) {
      ++it;
      continue;
    }
    b.fill_reserved(c, it->second);
    ++refilled_;
    it = landing_.erase(it);
  }
  if (!requested_.empty() && loads_in_flight_.size() < limit) {
    const auto n = static_cast<std::ptrdiff_t>(std::min<std::size_t>(requested_.size(), kWarp));
    issue({requested_.begin(), requested_.begin() + n});
    requested_.erase(requested_.begin(), requested_.begin() + n);
  }
  if (queued_.empty()) return;
  const auto n = static_cast<std::ptrdiff_t>(std::min<std::size_t>(queued_.size(), kWarp));
  std::vector<Entry> entries(queued_.begin(), queued_.begin() + n);
  queued_.erase(queued_.begin(), queued_.begin() + n);
  std::vector<std::uint32_t> ids;
  for (const Entry& e : entries) ids.push_back(e.id);
  const std::uint64_t address = base_ + (tail_ % capacity_) * kEntryBytes;
  tail_ += ids.size();
  const std::uint64_t tag = next_access_++;
  storing_ids_ += entries.size();
  storing_.emplace(tag, std::move(entries));
  ++stores_;
  memory_.store(address, std::move(ids), [this, tag] {
    auto it = storing_.find(tag);
    storing_ids_ -= it->second.size();
    for (const Entry& e : it->second) refillable_ += e.kernel < kernel_;  // spilled before a kernel end
    overflow_.insert(overflow_.end(), it->second.begin(), it->second.end());
    storing_.erase(it);
  });
}

bool Hvu::refill_all(std::vector<Bank*>& banks, std::uint32_t limit, std::uint32_t per_bank) {
  if (loads_in_flight_.size() >= limit) return false;
  for (const Bank* b : banks)
    if (!b->retired() && b->free_pull_entries() < per_bank) return false;
  return refill_free(banks, limit, per_bank);
}

bool Hvu::refill_free(std::vector<Bank*>& banks, std::uint32_t limit, std::uint32_t per_bank) {
  if (loads_in_flight_.size() >= limit) return false;
  // Round by round, so IDs too few for every target spread over the banks.
  std::vector<std::uint32_t> targets;
  for (std::uint32_t round = 0; round < per_bank; ++round)
    for (std::uint32_t i = 0; i < banks.size(); ++i)
      if (!banks[i]->retired() && banks[i]->free_pull_entries() > round) targets.push_back(i);
  const std::uint64_t before = loads_;
  load(banks, targets);
  return loads_ > before;
}

bool Hvu::request(std::vector<Bank*>& banks, std::uint32_t bank, std::uint32_t per_bank) {
  const std::uint32_t n = std::min(per_bank, banks[bank]->free_pull_entries());
  auto ids = take(std::vector<std::uint32_t>(n, bank));
  banks[bank]->reserve(static_cast<std::uint32_t>(ids.size()));
  requested_.insert(requested_.end(), ids.begin(), ids.end());
  return !ids.empty();
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> Hvu::take(const std::vector<std::uint32_t>& targets) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ids;
  for (auto it = overflow_.begin(); it != overflow_.end() && ids.size() < targets.size();) {
    if (!may_refill(*it)) {
      ++it;
      continue;
    }
    ids.emplace_back(targets[ids.size()], it->id);
    refillable_ -= it->kernel < kernel_;
    it = overflow_.erase(it);
  }
  return ids;
}

// One load of the oldest refillable IDs, one into each target bank (in order), as far as they go.
void Hvu::load(std::vector<Bank*>& banks, const std::vector<std::uint32_t>& targets) {
  auto ids = take(targets);
  if (ids.empty()) return;  // (also when every bank is retired: no target)
  for (const auto& [bank, id] : ids) banks[bank]->reserve(1);
  issue(std::move(ids));
}

void Hvu::issue(std::vector<std::pair<std::uint32_t, std::uint32_t>> ids) {
  const std::uint64_t address = base_ + (head_ % capacity_) * kEntryBytes;
  head_ += ids.size();
  const std::uint64_t tag = next_access_++;
  loading_ += ids.size();
  const auto count = static_cast<std::uint32_t>(ids.size());
  loads_in_flight_.emplace(tag, std::move(ids));
  ++loads_;
  memory_.load(address, count, [this, tag](std::vector<std::uint32_t>) {
    auto it = loads_in_flight_.find(tag);
    loading_ -= it->second.size();
    landing_.insert(landing_.end(), it->second.begin(), it->second.end());
    loads_in_flight_.erase(it);
  });
}

}  // namespace irr::hwwl
