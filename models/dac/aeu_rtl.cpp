// SPDX-License-Identifier: Apache-2.0
// The RTL side of the AEU island: the Verilated rtl/dac/dac_aeu.v behind AeuBlock (its coverage
// build while coverage is on).
#include "models/blocks/verilated_block.h"  // first: it includes Verilator's headers with their warnings off
#include "Vdac_aeu.h"
#include "Vdac_aeu_cov.h"
#include "models/dac/aeu.h"

template <>
inline constexpr bool irr::blocks::coverage_build<Vdac_aeu_cov> = true;

namespace irr::dac {

namespace {

template <typename V>
class AeuRtl : public AeuBlock {
 public:
  AeuRtl(std::uint64_t seed, const std::string& fst) : v_("dac_aeu", seed, fst, 1000) {}
  AeuOut eval(const AeuIn& in) override {
    V& t = v_.top();
    t.rst = in.rst;
    t.start = in.start;
    t.hold = in.hold;
    t.a0 = in.a0;
    t.offset = static_cast<std::uint32_t>(in.offset);
    t.active = in.active;
    v_.settle();
    AeuOut o;
    o.busy = t.busy;
    o.done = t.done;
    o.valid = t.valid;
    o.line = t.line;
    o.mask = t.mask;
    o.fallback = t.fallback;
    return o;
  }
  void edge() override { v_.rising_edge(); }

 private:
  blocks::Verilated<V> v_;
};

}  // namespace

std::unique_ptr<AeuBlock> make_aeu_rtl(std::uint64_t seed, const std::string& fst) {
  if (!blocks::coverage_dir().empty()) return std::make_unique<AeuRtl<Vdac_aeu_cov>>(seed, fst);
  return std::make_unique<AeuRtl<Vdac_aeu>>(seed, fst);
}

}  // namespace irr::dac
