// SPDX-License-Identifier: Apache-2.0
#include "models/hwwl/bank.h"

#include "sim/error.h"

namespace irr::hwwl {

Bank::Bank(std::uint32_t entries, Mode mode)
    : mode_(mode), capacity_(mode == Mode::double_buffer ? entries / 2 : entries), push_(mode == Mode::double_buffer ? 1 : 0) {
  if (capacity_ == 0)
    throw Error("hwwl.bank_entries: " + std::to_string(entries) + " leaves no entry per partition", Error::Kind::config);
}

void Bank::take_port(sim::Cycle c, const char* what) {
  if (!port_free(c))
    throw std::logic_error(std::string("HWWL bank: ") + what + " in a cycle whose single port is taken");
  used_ = true;
  used_at_ = c;
}

std::uint32_t Bank::pull(sim::Cycle c) {
  Partition& p = parts_[pull_];
  if (p.ids.empty()) throw std::logic_error("HWWL bank: pull from a partition with nothing to pull");
  take_port(c, "a pull");
  const std::uint32_t id = p.ids.front();
  p.ids.pop_front();
  return id;
}

void Bank::push(sim::Cycle c, std::uint32_t id) {
  if (id > kMaxWorkId) throw Error("wlpush: work ID " + std::to_string(id) + " does not fit the 24-bit HWWL entries");
  if (push_full()) throw std::logic_error("HWWL bank: push to a full partition (the HVU spills those)");
  take_port(c, "a push");
  parts_[push_].ids.push_back(id);
  retired_ = false;
}

std::uint32_t Bank::move_out(sim::Cycle c) {
  Partition& p = parts_[pull_];
  if (p.ids.empty()) throw std::logic_error("HWWL bank: redistribution from a partition with nothing to give");
  take_port(c, "a redistribution read");
  const std::uint32_t id = p.ids.back();
  p.ids.pop_back();
  return id;
}

void Bank::move_in(sim::Cycle c, std::uint32_t id) {
  if (free_pull_entries() == 0) throw std::logic_error("HWWL bank: redistribution into a full partition");
  take_port(c, "a redistribution write");
  parts_[pull_].ids.push_back(id);
}

std::uint32_t Bank::move_out_second(sim::Cycle c) {
  if (!second_port_free(c)) throw std::logic_error("HWWL bank: two accesses on the second port in one cycle");
  Partition& p = parts_[pull_];
  if (p.ids.empty()) throw std::logic_error("HWWL bank: redistribution from a partition with nothing to give");
  used2_ = true;
  used2_at_ = c;
  const std::uint32_t id = p.ids.back();
  p.ids.pop_back();
  return id;
}

void Bank::move_in_second(sim::Cycle c, std::uint32_t id) {
  if (!second_port_free(c)) throw std::logic_error("HWWL bank: two accesses on the second port in one cycle");
  if (free_pull_entries() == 0) throw std::logic_error("HWWL bank: redistribution into a full partition");
  used2_ = true;
  used2_at_ = c;
  parts_[pull_].ids.push_back(id);
}

void Bank::reserve(std::uint32_t n) {
  if (n > free_pull_entries()) throw std::logic_error("HWWL bank: refill reserves more entries than are free");
  parts_[pull_].reserved += n;
}

void Bank::fill_reserved(sim::Cycle c, std::uint32_t id) {
  Partition& p = parts_[pull_];
  if (p.reserved == 0) throw std::logic_error("HWWL bank: refill write without a reserved entry");
  take_port(c, "a refill write");
  --p.reserved;
  p.ids.push_back(id);
}

void Bank::drain_into(std::vector<std::uint32_t>& out) {
  Partition& p = parts_[pull_];
  out.insert(out.end(), p.ids.begin(), p.ids.end());
  p.ids.clear();
}

void Bank::place(std::uint32_t id) {
  if (free_pull_entries() == 0) throw std::logic_error("HWWL bank: magic placement into a full partition");
  parts_[pull_].ids.push_back(id);
}

bool Bank::swap() {
  if (mode_ != Mode::double_buffer || !empty()) return false;
  std::swap(pull_, push_);
  return true;
}

std::uint64_t Bank::held() const {
  return parts_[0].ids.size() + (mode_ == Mode::double_buffer ? parts_[1].ids.size() : 0);
}

void Bank::for_each(const std::function<void(std::uint32_t)>& f) const {
  for (std::uint32_t id : parts_[0].ids) f(id);
  if (mode_ == Mode::double_buffer)
    for (std::uint32_t id : parts_[1].ids) f(id);
}

}  // namespace irr::hwwl
