// SPDX-License-Identifier: Apache-2.0
// The model side of the NST island: the simulator's NodeStateTable, stepped with the cycle
// semantics of rtl/dats/dats_nst.v.
#include "models/dats/nst_block.h"

#include "models/blocks/island.h"
#include "models/dats/nst.h"
#include "sim/error.h"

namespace irr::dats {

namespace {

class NstModel : public NstBlock {
 public:
  explicit NstModel(NstParams p) : p_(p), nst_(p.entries, p.pub) {}

  NstOut eval(const NstIn& in) override {
    in_ = in;
    const std::uint32_t mask = (1u << kNstFieldBits) - 1, node = in.node & mask;
    const NodeStateTable::Entry& e = nst_.entry(in.slot);
    NstOut o;
    o.op_ok = in.op != NstOp::none && nst_.accepts(in.op, in.slot, node, in.parents & mask);
    o.resident = nst_.resident(in.slot, node);
    o.pub_hits = nst_.pub_hits(node);
    o.rd_state = static_cast<std::uint8_t>(e.state);
    o.rd_parents = e.parents;
    o.rd_level = e.level;
    o.rd_node = e.node;
    o.rd_has_edges = e.les >= 0;
    o.rd_les = o.rd_has_edges ? static_cast<std::uint32_t>(e.les) : 0;
    o.pub_count = static_cast<std::uint32_t>(nst_.pub().size());
    o.pub_full = o.pub_count == p_.pub;
    std::vector<std::uint32_t> hold;
    for (std::uint32_t s = 0; s < in.hold.size(); ++s)
      if (in.hold[s]) hold.push_back(s);
    std::optional<NodeStateTable::Window> lvl;
    if (in.lvl_on) lvl = NodeStateTable::Window{in.lvl_lo, in.lvl_hi, in.bound};
    const auto pick = nst_.pick(in.tail, p_.entries, hold, lvl);
    o.pick_valid = pick.has_value();
    o.pick_slot = pick.value_or(0);
    out_ = o;
    return o;
  }

  void edge() override {
    if (in_.rst) return nst_.reset();
    if (!out_.op_ok) return;
    const std::uint32_t mask = (1u << kNstFieldBits) - 1;
    switch (in_.op) {
      case NstOp::insert:
        nst_.insert(in_.slot, in_.node & mask, in_.parents & mask, in_.level & mask,
                    in_.has_edges ? static_cast<std::int32_t>(in_.les % p_.lea) : -1);
        break;
      case NstOp::decrement: nst_.decrement(in_.slot, in_.node & mask); break;
      case NstOp::issue: nst_.issue(in_.slot); break;
      case NstOp::retire: nst_.retire(in_.slot); break;
      case NstOp::none: break;
    }
  }

 private:
  const NstParams p_;
  NodeStateTable nst_;
  NstIn in_;
  NstOut out_;
};

}  // namespace

std::unique_ptr<NstBlock> make_nst_rtl(NstParams p, std::uint64_t seed, const std::string& fst);

std::string nst_name(const NstParams& p) {
  return std::to_string(p.entries) + " rows/LEA " + std::to_string(p.lea) + "/PUB " + std::to_string(p.pub);
}

std::unique_ptr<NstBlock> make_nst_block(const std::string& impl, NstParams p, std::uint64_t seed, const std::string& fst) {
  if (p.entries < 2 || p.lea < 2 || p.pub < 2)
    throw Error("dats_nst: rows, LEA and PUB entries need at least 2 each (" + nst_name(p) + ")", Error::Kind::config);
  return blocks::model_or_rtl<NstBlock>(
      "dats_nst", impl, [&] { return std::make_unique<NstModel>(p); }, [&] { return make_nst_rtl(p, seed, fst); });
}

}  // namespace irr::dats
