// SPDX-License-Identifier: Apache-2.0
#include "models/dac/aeu.h"

#include <map>

#include "models/blocks/island.h"
#include "sim/error.h"

namespace irr::dac {

std::unique_ptr<AeuBlock> make_aeu_rtl(std::uint64_t seed, const std::string& fst);  // aeu_rtl.cpp

namespace {

// The model: the registers of rtl/dac/dac_aeu.v and the same next-state function.
class AeuModel : public AeuBlock {
 public:
  AeuOut eval(const AeuIn& in) override {
    in_ = in;
    AeuOut o;
    o.busy = busy_;
    o.done = busy_ && j_ == last_;
    o.mask = busy_ ? line_mask() : 0;
    o.valid = busy_ && o.mask != 0;
    o.line = busy_ ? (base_line_ + j_) << 7 : 0;
    o.fallback = fallback_;
    return o;
  }
  void edge() override {
    const AeuIn& in = in_;
    if (in.rst) {
      busy_ = fallback_ = false;
      return;
    }
    fallback_ = false;
    const bool taken = !(in.hold && line_mask() != 0);
    if (in.start && (!busy_ || (j_ == last_ && taken))) {
      int lk = 0;
      bool scalar = false;
      if (!decode(in, lk, scalar)) {
        busy_ = false;
        fallback_ = true;
        return;
      }
      busy_ = true;
      base_line_ = in.a0 >> 7;
      s_ = static_cast<std::uint32_t>(in.a0 >> 2) & 31;
      lk_ = lk;
      scalar_ = scalar;
      act_ = in.active;
      j_ = 0;
      last_ = (s_ + (scalar ? 0 : 31u << lk)) >> 5;
    } else if (busy_ && taken) {
      if (j_ == last_) busy_ = false;
      j_ = (j_ + 1) & 63;
    }
  }

 private:
  static bool decode(const AeuIn& in, int& lk, bool& scalar) {
    if (in.a0 & 3) return false;
    if (in.offset == 0) return scalar = true;
    for (lk = 0; lk <= 5; ++lk)
      if (in.offset == (4 << lk)) return true;
    return false;
  }
  std::uint32_t line_mask() const {
    std::uint32_t m = 0;
    for (std::uint32_t i = 0; i < 32; ++i) {
      const std::uint32_t w = s_ + (scalar_ ? 0 : i << lk_);
      if ((act_ >> i & 1) && (w >> 5) == j_) m |= 1u << (w & 31);
    }
    return m;
  }

  AeuIn in_;
  bool busy_ = false, fallback_ = false, scalar_ = false;
  std::uint64_t base_line_ = 0;
  std::uint32_t s_ = 0, act_ = 0, j_ = 0, last_ = 0;
  int lk_ = 0;
};

}  // namespace

std::unique_ptr<AeuBlock> make_aeu(const std::string& impl, std::uint64_t seed, const std::string& fst) {
  return blocks::model_or_rtl<AeuBlock>(
      "DAC AEU", impl, [] { return std::make_unique<AeuModel>(); }, [&] { return make_aeu_rtl(seed, fst); });
}

std::vector<LineRecord> expand_by_thread(std::uint64_t a0, std::int64_t offset, std::uint32_t active) {
  std::map<std::uint64_t, std::uint32_t> lines;
  for (std::uint32_t t = 0; t < 32; ++t) {
    if (!(active >> t & 1)) continue;
    const std::uint64_t a = a0 + static_cast<std::uint64_t>(static_cast<std::int64_t>(t) * offset);
    lines[a & ~std::uint64_t{127}] |= 1u << ((a >> 2) & 31);
  }
  std::vector<LineRecord> out;
  for (const auto& [line, mask] : lines) out.push_back({line, mask});
  return out;
}

}  // namespace irr::dac
