// SPDX-License-Identifier: Apache-2.0
// The RTL side of the hash-bank island: each parameter set the build verilated
// (models/iru/CMakeLists.txt) behind HashBankBlock.
#include "models/blocks/verilated_block.h"  // first: it includes Verilator's headers with their warnings off
// Generated: the Verilated headers and IRRGPU_IRU_BANK_VARIANTS(X).
#include "iru_variants.inc"
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
    for (std::uint32_t i = 0; i < t.count; ++i) {
      const std::uint32_t slot = (t.head + i) % p_.capacity;
      o.entry.push_back({bits(t.row, slot * 80 + 56, 24), bits(t.row, slot * 80 + 24, 32), bits(t.row, slot * 80, 24)});
    }
    return o;
  }
  void edge() override { v_.rising_edge(); }

 private:
  template <typename W>
  static std::uint32_t bits(const W& w, unsigned lsb, unsigned width) {
    std::uint32_t v = 0;
    for (unsigned b = 0; b < width; ++b) v |= static_cast<std::uint32_t>(w[(lsb + b) / 32] >> ((lsb + b) % 32) & 1) << b;
    return v;
  }
  BankParams p_;
  blocks::Verilated<V> v_;
};

}  // namespace

std::vector<BankParams> bank_rtl_builds() {
  std::vector<BankParams> v;
#define IRRGPU_LIST(S, C) v.push_back({S, C});
  IRRGPU_IRU_BANK_VARIANTS(IRRGPU_LIST)
#undef IRRGPU_LIST
  return v;
}

std::unique_ptr<HashBankBlock> make_bank_rtl(BankParams p, std::uint64_t seed, const std::string& fst) {
#define IRRGPU_MAKE(S, C) \
  if (p == BankParams{S, C}) return std::make_unique<BankRtl<Viru_hash_bank_s##S##_c##C>>(p, seed, fst);
  IRRGPU_IRU_BANK_VARIANTS(IRRGPU_MAKE)
#undef IRRGPU_MAKE
  std::string built;
  for (const BankParams& b : bank_rtl_builds()) built += (built.empty() ? "" : ", ") + bank_name(b);
  throw Error("iru_hash_bank: no RTL build for " + bank_name(p) + " (built: " + built +
                  "; add it to IRRGPU_IRU_BANK_RTL_BUILDS in models/iru/CMakeLists.txt)",
              Error::Kind::config);
}

}  // namespace irr::iru
