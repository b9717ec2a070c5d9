// SPDX-License-Identifier: Apache-2.0
// The RTL side of the NST island: each parameter set the build verilated
// (models/dats/CMakeLists.txt) behind NstBlock.
#include "models/blocks/verilated_block.h"  // first: it includes Verilator's headers with their warnings off
// Generated: the Verilated headers and IRRGPU_DATS_NST_VARIANTS(X).
#include "dats_variants.inc"
#include "models/blocks/island.h"
#include "models/dats/nst_block.h"

namespace irr::dats {

namespace {

template <typename V>
class NstRtl : public NstBlock {
 public:
  NstRtl(NstParams p, std::uint64_t seed, const std::string& fst)
      : hold_(p.entries, 0), v_("dats_nst", seed, fst, 1000) {}
  NstOut eval(const NstIn& in) override {
    V& t = v_.top();
    t.rst = in.rst;
    t.op = static_cast<std::uint8_t>(in.op);
    t.slot = in.slot;
    t.node = in.node;
    t.parents = in.parents;
    t.level = in.level;
    t.les = in.les;
    t.has_edges = in.has_edges;
    t.tail = in.tail;
    for (std::size_t s = 0; s < hold_.size(); ++s) hold_[s] = s < in.hold.size() && in.hold[s];
    blocks::pack(t.hold, hold_, 1);
    t.lvl_on = in.lvl_on;
    t.lvl_lo = in.lvl_lo;
    t.lvl_hi = in.lvl_hi;
    t.bound = in.bound;
    v_.settle();
    NstOut o;
    o.op_ok = t.op_ok;
    o.resident = t.resident;
    o.pub_hits = t.pub_hits;
    o.rd_state = t.rd_state;
    o.rd_parents = t.rd_parents;
    o.rd_level = t.rd_level;
    o.rd_node = t.rd_node;
    o.rd_les = t.rd_les;
    o.rd_has_edges = t.rd_has_edges;
    o.pub_count = t.pub_count;
    o.pub_full = t.pub_full;
    o.pick_valid = t.pick_valid;
    o.pick_slot = t.pick_slot;
    return o;
  }
  void edge() override { v_.rising_edge(); }

 private:
  std::vector<std::uint32_t> hold_;
  blocks::Verilated<V> v_;
};

using NstBuilds = blocks::RtlBuilds<NstBlock, NstParams, std::uint64_t, const std::string&>;

const NstBuilds& nst_builds() {
  static const NstBuilds b("dats_nst", nst_name, "IRRGPU_DATS_NST_RTL_BUILDS", "models/dats/CMakeLists.txt", {
#define IRRGPU_BUILD(E, L, P) {{E, L, P}, NstBuilds::rtl<NstRtl<Vdats_nst_e##E##_l##L##_p##P>>},
#define IRRGPU_COVERAGE_BUILD(E, L, P) {{E, L, P}, NstBuilds::rtl<NstRtl<Vdats_nst_e##E##_l##L##_p##P##_cov>>},
    IRRGPU_DATS_NST_VARIANTS(IRRGPU_BUILD)
  }, {IRRGPU_DATS_NST_COVERAGE_VARIANTS(IRRGPU_COVERAGE_BUILD)});
#undef IRRGPU_BUILD
#undef IRRGPU_COVERAGE_BUILD
  return b;
}

}  // namespace

std::vector<NstParams> nst_rtl_builds() { return nst_builds().params(); }

std::unique_ptr<NstBlock> make_nst_rtl(NstParams p, std::uint64_t seed, const std::string& fst) {
  return nst_builds().make(p, seed, fst);
}

}  // namespace irr::dats
