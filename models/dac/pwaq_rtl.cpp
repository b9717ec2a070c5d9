// SPDX-License-Identifier: Apache-2.0
// The RTL side of the PWAQ island: each parameter set the build verilated (models/dac/CMakeLists.txt).
#include "models/blocks/verilated_block.h"  // first: it includes Verilator's headers with their warnings off
// Generated: the Verilated headers and IRRGPU_DAC_PWAQ_VARIANTS(X).
#include "dac_variants.inc"
#include "models/blocks/island.h"
#include "models/dac/pwaq.h"

namespace irr::dac {

namespace {

template <typename V>
class PwaqRtl : public PwaqBlock {
 public:
  PwaqRtl(const PwaqParams&, std::uint64_t seed, const std::string& fst) : v_("dac_pwaq", seed, fst, 1000) {}
  PwaqOut eval(const PwaqIn& in) override {
    V& t = v_.top();
    t.rst = in.rst;
    t.push = in.push;
    t.push_warp = in.push_warp;
    t.push_line = in.push_line & ((std::uint64_t{1} << kPwaqLineBits) - 1);
    t.push_mask = in.push_mask;
    t.pop = in.pop;
    t.pop_warp = in.pop_warp;
    v_.settle();
    PwaqOut o;
    o.push_ok = t.push_ok;
    o.pop_ok = t.pop_ok;
    o.rd_valid = t.rd_valid;
    o.rd_line = t.rd_line;
    o.rd_mask = t.rd_mask;
    o.push_count = t.push_count;
    return o;
  }
  void edge() override { v_.rising_edge(); }

 private:
  blocks::Verilated<V> v_;
};

std::string name(const PwaqParams& p) {
  return std::to_string(p.warps) + " warps x " + std::to_string(p.depth) + (p.ports > 1 ? ", 2 ports" : "");
}

using PwaqBuilds = blocks::RtlBuilds<PwaqBlock, PwaqParams, std::uint64_t, const std::string&>;

const PwaqBuilds& pwaq_builds() {
  static const PwaqBuilds b("dac_pwaq", name, "IRRGPU_DAC_PWAQ_RTL_BUILDS", "models/dac/CMakeLists.txt", {
#define IRRGPU_BUILD(W, D, P) {{W, D, P}, PwaqBuilds::rtl<PwaqRtl<Vdac_pwaq_w##W##_d##D##_p##P>>},
#define IRRGPU_COVERAGE_BUILD(W, D, P) {{W, D, P}, PwaqBuilds::rtl<PwaqRtl<Vdac_pwaq_w##W##_d##D##_p##P##_cov>>},
    IRRGPU_DAC_PWAQ_VARIANTS(IRRGPU_BUILD)
  }, {IRRGPU_DAC_PWAQ_COVERAGE_VARIANTS(IRRGPU_COVERAGE_BUILD)});
#undef IRRGPU_BUILD
#undef IRRGPU_COVERAGE_BUILD
  return b;
}

}  // namespace

std::vector<PwaqParams> pwaq_rtl_builds() { return pwaq_builds().params(); }

std::unique_ptr<PwaqBlock> make_pwaq_rtl(PwaqParams p, std::uint64_t seed, const std::string& fst) {
  return pwaq_builds().make(p, seed, fst);
}

}  // namespace irr::dac
