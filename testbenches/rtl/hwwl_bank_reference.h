// SPDX-License-Identifier: Apache-2.0
// An independent reference for the HWWL bank, written from the cycle-semantics table in
// docs/hwwl.md (not from hwwl::Bank): two plain vectors as the partitions, counts from their sizes.
#pragma once

#include <vector>

#include "models/hwwl/blocks.h"

namespace irr::testing {

class BankReference : public hwwl::BankBlock {
 public:
  explicit BankReference(hwwl::BankParams p) : p_(p) {}

  hwwl::BankOut eval(const hwwl::BankIn& in) override {
    using hwwl::BankOp;
    in_ = in;
    auto& pull = part_[pull_part_];
    const auto& push = part_[double_ ? 1 - pull_part_ : pull_part_];
    const unsigned cap = double_ ? p_.depth / 2 : p_.depth;
    hwwl::BankOut o;
    o.pullable = static_cast<std::uint32_t>(pull.size());
    o.reserved = reserved_;
    o.occupied = o.pullable + reserved_;
    o.push_occupied = static_cast<std::uint32_t>(push.size()) + (double_ ? 0 : reserved_);
    o.push_full = o.push_occupied >= cap;
    o.empty = o.occupied == 0;
    o.greedy = o.occupied > p_.threshold;
    o.needy = o.occupied < p_.threshold;
    o.retired = retired_;
    o.double_mode = double_;
    o.pull_part = pull_part_ == 1;
    o.rd_valid = rd_valid_;
    o.rd_data = rd_data_;
    // Which op can go: something to read, room to write, a reserved entry to fill.
    o.op_ok = (in.op == BankOp::pull || in.op == BankOp::take) ? !pull.empty()
              : in.op == BankOp::push                          ? !o.push_full
              : in.op == BankOp::put                           ? o.occupied < cap
              : in.op == BankOp::fill                          ? reserved_ > 0
                                                               : false;
    int after = static_cast<int>(o.occupied);
    if (o.op_ok && (in.op == BankOp::put || (in.op == BankOp::push && !double_))) ++after;
    if (o.op_ok && (in.op == BankOp::pull || in.op == BankOp::take)) --after;
    o.reserve_ok = in.reserve && after < static_cast<int>(cap);
    o.swapped = in.kernel_end && double_ && o.empty && in.op == BankOp::none && !in.reserve;
    out_ = o;
    return o;
  }

  void edge() override {
    using hwwl::BankOp;
    if (in_.rst) {
      part_[0].clear();
      part_[1].clear();
      reserved_ = 0;
      retired_ = rd_valid_ = false;
      double_ = in_.cfg_double;
      pull_part_ = 0;
      return;
    }
    auto& pull = part_[pull_part_];
    auto& push = part_[double_ ? 1 - pull_part_ : pull_part_];
    const std::uint32_t data = in_.wdata & ((1u << p_.width) - 1);
    rd_valid_ = false;
    if (out_.op_ok) {
      if (in_.op == BankOp::pull) {
        rd_data_ = pull.front();
        pull.erase(pull.begin());
        rd_valid_ = true;
      } else if (in_.op == BankOp::take) {
        rd_data_ = pull.back();
        pull.pop_back();
        rd_valid_ = true;
      } else if (in_.op == BankOp::push) {
        push.push_back(data);
      } else {
        pull.push_back(data);
        if (in_.op == BankOp::fill) --reserved_;
      }
    }
    if (out_.reserve_ok) ++reserved_;
    if (out_.swapped) pull_part_ = 1 - pull_part_;
    if (in_.kernel_end || (out_.op_ok && in_.op == BankOp::push)) retired_ = false;
    else if (in_.retire) retired_ = true;
  }

 private:
  const hwwl::BankParams p_;
  hwwl::BankIn in_;
  hwwl::BankOut out_;
  std::vector<std::uint32_t> part_[2];
  std::uint32_t reserved_ = 0;
  bool double_ = false, retired_ = false, rd_valid_ = false;
  int pull_part_ = 0;
  std::uint32_t rd_data_ = 0;
};

}  // namespace irr::testing
