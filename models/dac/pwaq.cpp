// SPDX-License-Identifier: Apache-2.0
#include "models/dac/pwaq.h"

#include <deque>

#include "models/blocks/island.h"
#include "sim/error.h"

namespace irr::dac {

std::unique_ptr<PwaqBlock> make_pwaq_rtl(PwaqParams p, std::uint64_t seed, const std::string& fst);  // pwaq_rtl.cpp

namespace {

constexpr std::uint64_t kLineMask = (std::uint64_t{1} << kPwaqLineBits) - 1;

// The model: a FIFO per warp with the RTL's port rules.
class PwaqModel : public PwaqBlock {
 public:
  explicit PwaqModel(PwaqParams p) : p_(p), q_(p.warps) {}
  PwaqOut eval(const PwaqIn& in) override {
    in_ = in;
    PwaqOut o;
    o.pop_ok = in.pop && in.pop_warp < p_.warps && !q_[in.pop_warp].empty();
    o.push_ok = in.push && in.push_warp < p_.warps && (p_.ports > 1 || !o.pop_ok) && q_[in.push_warp].size() < p_.depth;
    o.push_count = in.push_warp < p_.warps ? static_cast<std::uint32_t>(q_[in.push_warp].size()) : 0;
    o.rd_valid = rd_valid_;
    o.rd_line = rd_.first;
    o.rd_mask = rd_.second;
    ok_ = o;
    return o;
  }
  void edge() override {
    if (in_.rst) {
      for (auto& q : q_) q.clear();
      rd_valid_ = false;
      return;
    }
    rd_valid_ = ok_.pop_ok;
    if (ok_.pop_ok) {
      rd_ = q_[in_.pop_warp].front();
      q_[in_.pop_warp].pop_front();
    }
    if (ok_.push_ok) {
      q_[in_.push_warp].push_back({in_.push_line & kLineMask, in_.push_mask});
    }
  }

 private:
  PwaqParams p_;
  std::vector<std::deque<std::pair<std::uint64_t, std::uint32_t>>> q_;
  PwaqIn in_;
  PwaqOut ok_;
  bool rd_valid_ = false;
  std::pair<std::uint64_t, std::uint32_t> rd_{0, 0};
};

}  // namespace

std::unique_ptr<PwaqBlock> make_pwaq(const std::string& impl, PwaqParams p, std::uint64_t seed, const std::string& fst) {
  if (!p.warps || !p.depth) throw Error("DAC PWAQ: warps and depth must be at least 1", Error::Kind::config);
  if (p.ports != 1 && p.ports != 2) throw Error("DAC PWAQ: ports must be 1 or 2", Error::Kind::config);
  return blocks::model_or_rtl<PwaqBlock>(
      "DAC PWAQ", impl, [&] { return std::make_unique<PwaqModel>(p); }, [&] { return make_pwaq_rtl(p, seed, fst); });
}

}  // namespace irr::dac
