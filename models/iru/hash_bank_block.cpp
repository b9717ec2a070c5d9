// SPDX-License-Identifier: Apache-2.0
// The model side of the hash-bank island: HashBank stepped with the cycle semantics of
// rtl/iru/iru_hash_bank.v.
#include "models/iru/hash_bank_block.h"

#include "models/blocks/island.h"
#include "sim/error.h"

namespace irr::iru {

std::unique_ptr<HashBankBlock> make_bank_rtl(BankParams p, std::uint64_t seed, const std::string& fst);

namespace {

class BankModel : public HashBankBlock {
 public:
  explicit BankModel(BankParams p) : bank_(p.sets, p.capacity, Filter::none) {}
  BankOut eval(const BankIn& in) override {
    in_ = in;
    BankOut o;
    o.entry = bank_.entry(in.set);
    if (in.op == BankOp::insert) {
      bank_.set_filter(in.filter);
      const auto r = bank_.check(in.set, masked(in.element), o.dropped);
      o.result = r == HashBank::Insert::inserted ? BankResult::inserted
                 : r == HashBank::Insert::merged ? BankResult::merged
                                                 : BankResult::full;
      if (r != HashBank::Insert::merged) o.dropped = 0;
    } else if (in.op == BankOp::take) {
      o.result = in.k && in.k <= o.entry.size() ? BankResult::inserted : BankResult::full;
    }
    result_ = o.result;
    return o;
  }
  void edge() override {
    if (in_.rst) {
      bank_.clear();
      return;
    }
    bank_.set_filter(in_.filter);
    std::uint32_t dropped = 0;
    if (in_.op == BankOp::insert) bank_.insert(in_.set, masked(in_.element), dropped);
    if (in_.op == BankOp::take && result_ == BankResult::inserted) {
      std::vector<Element> out;
      bank_.take(in_.set, in_.k, out);
    }
  }

 private:
  static Element masked(Element e) {  // 24-bit index and position
    e.index &= 0xffffff;
    e.position &= 0xffffff;
    return e;
  }
  HashBank bank_;
  BankIn in_;
  BankResult result_ = BankResult::none;
};

}  // namespace

std::string bank_name(const BankParams& p) {
  return std::to_string(p.sets) + " sets x " + std::to_string(p.capacity) + " elements";
}

std::unique_ptr<HashBankBlock> make_bank_block(const std::string& impl, BankParams p, std::uint64_t seed,
                                               const std::string& fst) {
  return blocks::model_or_rtl<HashBankBlock>(
      "iru hash bank", impl, [&] { return std::make_unique<BankModel>(p); }, [&] { return make_bank_rtl(p, seed, fst); });
}

}  // namespace irr::iru
