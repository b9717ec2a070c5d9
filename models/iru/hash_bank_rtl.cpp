// SPDX-License-Identifier: Apache-2.0
// The RTL side of the hash-bank island: each parameter set the build verilated
// (models/iru/CMakeLists.txt) behind HashBankBlock.
#include "models/blocks/verilated_block.h"  // first: it includes Verilator's headers with their warnings off
// Generated: the Verilated headers and IRRGPU_IRU_BANK_VARIANTS(X).
#include "iru_variants.inc"
#include "models/blocks/island.h"
#include "models/iru/hash_bank_block.h"

namespace irr::iru {

namespace {

template <typename V>
class BankRtl : public HashBankBlock {
 public:
  BankRtl(BankParams p, std::uint64_t seed, const std::string& fst) : p_(p), v_("iru_hash_bank", seed, fst, 1000) {}
  BankOut eval(const BankIn& in) override {
    V& t = v_.top();
    t.rst = in.rst;
    t.filter = static_cast<std::uint8_t>(in.filter);
    t.op = static_cast<std::uint8_t>(in.op);
    t.set_addr = in.set;
    t.k = in.k;
    t.in_index = in.element.index & 0xffffff;
    t.in_secondary = in.element.secondary;
    t.in_position = in.element.position & 0xffffff;
    v_.settle();
    BankOut o;
    o.result = static_cast<BankResult>(t.result);
    o.dropped = o.result == BankResult::merged ? t.dropped : 0;
    // Each 80-bit element is 10 bytes: position (3), secondary (4), index (3), lowest first.
    const std::vector<std::uint32_t> bytes = blocks::unpack(t.row, 10 * p_.capacity, 8);
    const auto field = [&](std::uint32_t slot, unsigned first, unsigned n) {
      std::uint32_t v = 0;
      for (unsigned i = 0; i < n; ++i) v |= bytes[slot * 10 + first + i] << (8 * i);
      return v;
    };
    for (std::uint32_t i = 0; i < t.count; ++i) {
      const std::uint32_t slot = (t.head + i) % p_.capacity;
      o.entry.push_back({field(slot, 7, 3), field(slot, 3, 4), field(slot, 0, 3)});
    }
    return o;
  }
  void edge() override { v_.rising_edge(); }

 private:
  BankParams p_;
  blocks::Verilated<V> v_;
};

using Builds = blocks::RtlBuilds<HashBankBlock, BankParams, std::uint64_t, const std::string&>;

const Builds& builds() {
  static const Builds b("iru_hash_bank", bank_name, "IRRGPU_IRU_BANK_RTL_BUILDS", "models/iru/CMakeLists.txt", {
#define IRRGPU_BUILD(S, C) {{S, C}, Builds::rtl<BankRtl<Viru_hash_bank_s##S##_c##C>>},
#define IRRGPU_COVERAGE_BUILD(S, C) {{S, C}, Builds::rtl<BankRtl<Viru_hash_bank_s##S##_c##C##_cov>>},
    IRRGPU_IRU_BANK_VARIANTS(IRRGPU_BUILD)
  }, {IRRGPU_IRU_BANK_COVERAGE_VARIANTS(IRRGPU_COVERAGE_BUILD)});
#undef IRRGPU_BUILD
#undef IRRGPU_COVERAGE_BUILD
  return b;
}

}  // namespace

std::vector<BankParams> bank_rtl_builds() { return builds().params(); }

std::unique_ptr<HashBankBlock> make_bank_rtl(BankParams p, std::uint64_t seed, const std::string& fst) {
  return builds().make(p, seed, fst);
}

}  // namespace irr::iru
