// SPDX-License-Identifier: Apache-2.0
// The RTL side of the HWWL's islands: each parameter set the build verilated
// (models/hwwl/CMakeLists.txt) behind BankBlock and WruBlock.
#include "models/blocks/verilated_block.h"  // first: it includes Verilator's headers with their warnings off
// Generated: the Verilated headers and IRRGPU_HWWL_{BANK,WRU}_VARIANTS(X).
#include "hwwl_variants.inc"
#include "models/blocks/island.h"
#include "models/hwwl/blocks.h"
#include "sim/probe.h"

namespace irr::hwwl {

namespace {

template <typename V>
class BankRtl : public BankBlock {
 public:
  BankRtl(BankParams p, std::uint64_t seed, const std::string& fst) : mask_((1u << p.width) - 1), v_("hwwl_bank", seed, fst, 1000) {}
  BankOut eval(const BankIn& in) override {
    V& t = v_.top();
    t.rst = in.rst;
    t.cfg_double = in.cfg_double;
    t.op = static_cast<std::uint8_t>(in.op);
    t.wdata = in.wdata & mask_;
    t.reserve = in.reserve;
    t.kernel_end = in.kernel_end;
    t.retire = in.retire;
    v_.settle();
    BankOut o;
    o.op_ok = t.op_ok;
    o.reserve_ok = t.reserve_ok;
    o.swapped = t.swapped;
    o.rd_valid = t.rd_valid;
    o.rd_data = t.rd_data;
    o.pullable = t.pullable;
    o.reserved = t.reserved;
    o.occupied = t.occupied;
    o.push_occupied = t.push_occupied;
    o.push_full = t.push_full;
    o.empty = t.empty;
    o.greedy = t.greedy;
    o.needy = t.needy;
    o.retired = t.retired;
    o.double_mode = t.double_mode;
    o.pull_part = t.pull_part;
    return o;
  }
  void edge() override { v_.rising_edge(); }

 private:
  std::uint32_t mask_;
  blocks::Verilated<V> v_;
};

template <typename V>
class WruRtl : public WruBlock {
 public:
  WruRtl(WruParams p, std::uint64_t seed, const std::string& fst)
      : p_(p), iw_(sim::bits_for(p.banks - 1)), v_("hwwl_wru_lsort", seed, fst, 1000) {}  // iw_: $clog2(BANKS)
  WruOut eval(const WruIn& in) override {
    V& t = v_.top();
    t.rst = in.rst;
    blocks::pack(t.occ, in.occupancy, p_.count_width);
    v_.settle();
    WruOut o;
    o.rank = blocks::unpack(t.rank, p_.banks, iw_);
    o.move_valid = t.move_valid;
    o.move_from = blocks::unpack(t.move_from, p_.banks / 2, iw_);
    o.move_to = blocks::unpack(t.move_to, p_.banks / 2, iw_);
    o.global_greedy = t.global_greedy;
    o.export_valid = t.export_valid;
    o.export_bank = t.export_bank;
    return o;
  }
  void edge() override { v_.rising_edge(); }

 private:
  const WruParams p_;
  const unsigned iw_;
  blocks::Verilated<V> v_;
};

std::string bank_name(const BankParams& p) {
  return std::to_string(p.depth) + "x" + std::to_string(p.width) + "/T" + std::to_string(p.threshold);
}
std::string wru_name(const WruParams& p) {
  return std::to_string(p.banks) + " banks x " + std::to_string(p.count_width) + " bits/T" + std::to_string(p.threshold);
}

using BankBuilds = blocks::RtlBuilds<BankBlock, BankParams, std::uint64_t, const std::string&>;
using WruBuilds = blocks::RtlBuilds<WruBlock, WruParams, std::uint64_t, const std::string&>;

const BankBuilds& bank_builds() {
  static const BankBuilds b("hwwl_bank", bank_name, "IRRGPU_HWWL_BANK_RTL_BUILDS", "models/hwwl/CMakeLists.txt", {
#define IRRGPU_BUILD(D, W, T) {{D, W, T}, BankBuilds::rtl<BankRtl<Vhwwl_bank_d##D##_w##W##_t##T>>},
#define IRRGPU_COVERAGE_BUILD(D, W, T) {{D, W, T}, BankBuilds::rtl<BankRtl<Vhwwl_bank_d##D##_w##W##_t##T##_cov>>},
    IRRGPU_HWWL_BANK_VARIANTS(IRRGPU_BUILD)
  }, {IRRGPU_HWWL_BANK_COVERAGE_VARIANTS(IRRGPU_COVERAGE_BUILD)});
#undef IRRGPU_BUILD
#undef IRRGPU_COVERAGE_BUILD
  return b;
}

const WruBuilds& wru_builds() {
  static const WruBuilds b("hwwl_wru_lsort", wru_name, "IRRGPU_HWWL_WRU_RTL_BUILDS", "models/hwwl/CMakeLists.txt", {
#define IRRGPU_BUILD(B, C, T) {{B, C, T}, WruBuilds::rtl<WruRtl<Vhwwl_wru_lsort_b##B##_c##C##_t##T>>},
#define IRRGPU_COVERAGE_BUILD(B, C, T) {{B, C, T}, WruBuilds::rtl<WruRtl<Vhwwl_wru_lsort_b##B##_c##C##_t##T##_cov>>},
    IRRGPU_HWWL_WRU_VARIANTS(IRRGPU_BUILD)
  }, {IRRGPU_HWWL_WRU_COVERAGE_VARIANTS(IRRGPU_COVERAGE_BUILD)});
#undef IRRGPU_BUILD
#undef IRRGPU_COVERAGE_BUILD
  return b;
}

}  // namespace

std::vector<BankParams> bank_rtl_builds() { return bank_builds().params(); }
std::vector<WruParams> wru_rtl_builds() { return wru_builds().params(); }

std::unique_ptr<BankBlock> make_bank_rtl(BankParams p, std::uint64_t seed, const std::string& fst) {
  return bank_builds().make(p, seed, fst);
}

std::unique_ptr<WruBlock> make_wru_rtl(WruParams p, std::uint64_t seed, const std::string& fst) {
  return wru_builds().make(p, seed, fst);
}

}  // namespace irr::hwwl
