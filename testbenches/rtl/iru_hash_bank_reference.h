// SPDX-License-Identifier: Apache-2.0
// An independent reference for one IRU hash bank, written from the cycle semantics in
// rtl/iru/iru_hash_bank.v and docs/iru.md (not from iru::HashBank): each set a queue of
// (index, secondary, position) in arrival order; add_f32 computed in double and rounded once to
// float (exact for every sum of two floats a float can hold).
#pragma once

#include <deque>
#include <vector>

#include "models/core/exec/values.h"
#include "models/iru/hash_bank_block.h"

namespace irr::testing {

class BankReference : public iru::HashBankBlock {
 public:
  explicit BankReference(iru::BankParams p) : p_(p), sets_(p.sets) {}

  iru::BankOut eval(const iru::BankIn& in) override {
    using iru::BankOp;
    using iru::BankResult;
    in_ = in;
    const auto& q = sets_.at(in.set);
    iru::BankOut o;
    o.entry.assign(q.begin(), q.end());
    slot_ = -1;
    if (in.op == BankOp::insert) {
      const std::uint32_t index = in.element.index & 0xffffff, position = in.element.position & 0xffffff;
      for (std::size_t i = 0; in.filter != iru::Filter::none && i < q.size(); ++i)
        if (q[i].index == index) {
          slot_ = static_cast<int>(i);
          break;
        }
      if (slot_ >= 0) {
        o.result = BankResult::merged;
        const bool newcomer = in.filter == iru::Filter::min && in.element.secondary < q[slot_].secondary;
        o.dropped = newcomer ? q[slot_].position : position;
      } else {
        o.result = q.size() == p_.capacity ? BankResult::full : BankResult::inserted;
      }
    } else if (in.op == BankOp::take) {
      o.result = in.k >= 1 && in.k <= q.size() ? BankResult::inserted : BankResult::full;
    }
    out_ = o;
    return o;
  }

  void edge() override {
    using iru::BankOp;
    using iru::BankResult;
    if (in_.rst) {
      for (auto& q : sets_) q.clear();
      return;
    }
    auto& q = sets_.at(in_.set);
    const iru::Element e{in_.element.index & 0xffffff, in_.element.secondary, in_.element.position & 0xffffff};
    if (in_.op == BankOp::insert && out_.result == BankResult::inserted) q.push_back(e);
    if (in_.op == BankOp::insert && out_.result == BankResult::merged) {
      iru::Element& x = q[slot_];
      if (in_.filter == iru::Filter::add_f32) x.secondary = add(x.secondary, e.secondary);
      else if (e.secondary < x.secondary) x = e;
    }
    if (in_.op == BankOp::take && out_.result == BankResult::inserted) q.erase(q.begin(), q.begin() + in_.k);
  }

  // IEEE 754 addition; a NaN operand's payload by the block's rule (rtl/iru/iru_fadd.v: the first
  // NaN, quieted), which the host's addition does not fix (a compiler may swap the operands).
  static std::uint32_t add(std::uint32_t a, std::uint32_t b) {
    const auto nan = [](std::uint32_t x) { return (x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu); };
    if (nan(a)) return a | 0x00400000u;
    if (nan(b)) return b | 0x00400000u;
    const double sum = static_cast<double>(core::f32(a)) + static_cast<double>(core::f32(b));
    return static_cast<std::uint32_t>(core::bits(static_cast<float>(sum)));
  }

 private:
  iru::BankParams p_;
  std::vector<std::deque<iru::Element>> sets_;
  iru::BankIn in_;
  iru::BankOut out_;
  int slot_ = -1;
};

}  // namespace irr::testing
