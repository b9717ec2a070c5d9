// SPDX-License-Identifier: Apache-2.0
#include "models/hwwl/bank.h"

#include <algorithm>

#include "sim/error.h"

namespace irr::hwwl {

namespace {
// One cycle's inputs of the RTL bank.
BankIn access(BankOp op, std::uint32_t data = 0) {
  BankIn in;
  in.op = op;
  in.wdata = data;
  return in;
}
BankIn control(bool reserve, bool kernel_end, bool retire) {
  BankIn in;
  in.reserve = reserve;
  in.kernel_end = kernel_end;
  in.retire = retire;
  return in;
}
}  // namespace

void check_work_id(std::uint32_t id) {
  if (id > kMaxWorkId) throw Error("wlpush: work ID " + std::to_string(id) + " does not fit the 24-bit HWWL entries");
}

Bank::Bank(std::uint32_t entries, Mode mode)
    : mode_(mode), capacity_(mode == Mode::double_buffer ? entries / 2 : entries), push_(mode == Mode::double_buffer ? 1 : 0) {
  if (capacity_ == 0)
    throw Error("hwwl.bank_entries: " + std::to_string(entries) + " leaves no entry per partition", Error::Kind::config);
  if (mode == Mode::double_buffer && entries % 2)
    throw Error("hwwl.bank_entries: " + std::to_string(entries) +
                    " entries do not split into two equal partitions (double-buffer mode needs an even number)",
                Error::Kind::config);
}

void Bank::take_port(sim::Cycle c, const char* what) {
  if (!port_free(c))
    throw std::logic_error(std::string("HWWL bank: ") + what + " in a cycle whose single port is taken");
  sim::Cycle& older = port_at_[0] < port_at_[1] ? port_at_[0] : port_at_[1];
  older = c + 1;
}

std::uint32_t Bank::pull(sim::Cycle c) {
  Partition& p = parts_[pull_];
  if (p.ids.empty()) throw std::logic_error("HWWL bank: pull from a partition with nothing to pull");
  take_port(c, "a pull");
  const std::uint32_t id = p.ids.front();
  p.ids.pop_front();
  return mirrored_read(BankOp::pull, id, "pull");
}

void Bank::push(sim::Cycle c, std::uint32_t id) {
  check_work_id(id);
  if (push_full()) throw std::logic_error("HWWL bank: push to a full partition (the HVU spills those)");
  take_port(c, "a push");
  parts_[push_].ids.push_back(id);
  retired_ = false;
  if (rtl_) mirror(access(BankOp::push, id), "push");
}

std::uint32_t Bank::move_out(sim::Cycle c) {
  Partition& p = parts_[pull_];
  if (p.ids.empty()) throw std::logic_error("HWWL bank: redistribution from a partition with nothing to give");
  take_port(c, "a redistribution read");
  const std::uint32_t id = p.ids.back();
  p.ids.pop_back();
  return mirrored_read(BankOp::take, id, "redistribution read");
}

void Bank::move_in(sim::Cycle c, std::uint32_t id) {
  if (free_pull_entries() == 0) throw std::logic_error("HWWL bank: redistribution into a full partition");
  take_port(c, "a redistribution write");
  parts_[pull_].ids.push_back(id);
  if (rtl_) mirror(access(BankOp::put, id), "redistribution write");
}

std::uint32_t Bank::move_out_second(sim::Cycle c) {
  if (rtl_) throw Error("HWWL bank " + name_ + ": the RTL bank has one port; on-demand redistribution needs a second",
                        Error::Kind::config);
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
  if (rtl_) throw Error("HWWL bank " + name_ + ": the RTL bank has one port; on-demand redistribution needs a second",
                        Error::Kind::config);
  if (!second_port_free(c)) throw std::logic_error("HWWL bank: two accesses on the second port in one cycle");
  if (free_pull_entries() == 0) throw std::logic_error("HWWL bank: redistribution into a full partition");
  used2_ = true;
  used2_at_ = c;
  parts_[pull_].ids.push_back(id);
}

void Bank::reserve(std::uint32_t n) {
  if (n > free_pull_entries()) throw std::logic_error("HWWL bank: refill reserves more entries than are free");
  parts_[pull_].reserved += n;
  for (std::uint32_t i = 0; rtl_ && i < n; ++i) mirror(control(true, false, false), "refill reservation");
}

void Bank::fill_reserved(sim::Cycle c, std::uint32_t id) {
  Partition& p = parts_[pull_];
  if (p.reserved == 0) throw std::logic_error("HWWL bank: refill write without a reserved entry");
  take_port(c, "a refill write");
  --p.reserved;
  p.ids.push_back(id);
  if (rtl_) mirror(access(BankOp::fill, id), "refill write");
}

void Bank::drain_into(std::vector<std::uint32_t>& out) {
  // Newest first, one at a time (the RTL's TAKE), then handed out oldest first.
  Partition& p = parts_[pull_];
  const std::size_t first = out.size();
  while (!p.ids.empty()) {
    const std::uint32_t id = p.ids.back();
    p.ids.pop_back();
    out.push_back(mirrored_read(BankOp::take, id, "magic drain"));
  }
  std::reverse(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

void Bank::place(std::uint32_t id) {
  if (free_pull_entries() == 0) throw std::logic_error("HWWL bank: magic placement into a full partition");
  parts_[pull_].ids.push_back(id);
  if (rtl_) mirror(access(BankOp::put, id), "magic placement");
}

bool Bank::swap() {
  if (mode_ != Mode::double_buffer || !empty()) return false;
  std::swap(pull_, push_);
  return true;
}

std::uint64_t Bank::held() const {
  return parts_[0].ids.size() + (mode_ == Mode::double_buffer ? parts_[1].ids.size() : 0);
}

void Bank::retire() {
  retired_ = true;
  if (rtl_) mirror(control(false, false, true), "retire");
}

void Bank::revive() {
  if (rtl_ && retired_) throw std::logic_error("HWWL bank: revive() alone with RTL in the loop (use kernel_end())");
  retired_ = false;
}

void Bank::attach_rtl(std::unique_ptr<BankBlock> rtl, std::string name) {
  if (held() + reserved() > 0) throw std::logic_error("HWWL bank: RTL attached to a bank in use");
  rtl_ = std::move(rtl);
  name_ = std::move(name);
  BankIn reset;
  reset.rst = true;
  reset.cfg_double = mode_ == Mode::double_buffer;
  rtl_->step(reset);
  mirror({}, "reset");
}

void Bank::mirror_kernel_end() {
  if (rtl_) mirror(control(false, true, false), "kernel end");
}

std::uint32_t Bank::mirrored_read(BankOp op, std::uint32_t model_id, const char* what) {
  if (!rtl_) return model_id;
  const std::uint32_t id = mirror(access(op), what, true);
  if (id != model_id)
    throw Error("HWWL bank " + name_ + ": the RTL read ID " + std::to_string(id) + " where the model has " +
                std::to_string(model_id) + " (" + what + ")");
  return id;  // the RTL's
}

std::uint32_t Bank::mirror(BankIn in, const char* what, bool read) {
  const BankOut o = rtl_->eval(in);
  const auto fail = [&](const std::string& why) {
    throw Error("HWWL bank " + name_ + ": the RTL and the model disagree at a " + what + ": " + why);
  };
  if (in.op != BankOp::none && !o.op_ok) fail("the RTL refused the access");
  if (in.reserve && !o.reserve_ok) fail("the RTL refused the reservation");
  rtl_->edge();
  const BankOut after = rtl_->eval({});
  if (read && !after.rd_valid) fail("no read data");
  if (after.pullable != pullable() || after.reserved != reserved() || after.push_occupied != push_occupied() ||
      after.retired != retired_ || after.pull_part != (pull_ == 1))
    fail("RTL pullable/reserved/push-side/retired/partition " + std::to_string(after.pullable) + "/" +
         std::to_string(after.reserved) + "/" + std::to_string(after.push_occupied) + "/" +
         std::to_string(after.retired) + "/" + std::to_string(after.pull_part) + ", model " +
         std::to_string(pullable()) + "/" + std::to_string(reserved()) + "/" + std::to_string(push_occupied()) + "/" +
         std::to_string(retired_) + "/" + std::to_string(pull_));
  return after.rd_data;
}

void Bank::for_each(const std::function<void(std::uint32_t)>& f) const {
  for (std::uint32_t id : parts_[0].ids) f(id);
  if (mode_ == Mode::double_buffer)
    for (std::uint32_t id : parts_[1].ids) f(id);
}

}  // namespace irr::hwwl
