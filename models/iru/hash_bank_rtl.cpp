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
  blocks::no_rtl_build("iru_hash_bank", p, bank_rtl_builds(), bank_name, "IRRGPU_IRU_BANK_RTL_BUILDS",
                       "models/iru/CMakeLists.txt");
}

}  // namespace irr::iru
