// SPDX-License-Identifier: Apache-2.0
// An independent reference for the DATS Node State Table, written from the cycle-semantics table
// in docs/dats.md (not from dats::NodeStateTable): plain rows, and the PUB as fixed entries that
// are free or hold a node.
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

#include "models/dats/nst_block.h"

namespace irr::testing {

class NstReference : public dats::NstBlock {
 public:
  explicit NstReference(dats::NstParams p) : p_(p), rows_(p.entries), pub_(p.pub) {}

  dats::NstOut eval(const dats::NstIn& in) override {
    using dats::NstOp;
    in_ = in;
    const Row& r = rows_[in.slot];
    dats::NstOut o;
    o.resident = r.state != kD && r.node == in.node;
    o.pub_hits = static_cast<std::uint32_t>(std::count(pub_.begin(), pub_.end(), std::optional<std::uint32_t>(in.node)));
    const std::uint32_t used = static_cast<std::uint32_t>(p_.pub - std::count(pub_.begin(), pub_.end(), std::nullopt));
    switch (in.op) {
      case NstOp::insert: o.op_ok = r.state == kD && o.pub_hits <= in.parents; break;
      case NstOp::decrement: o.op_ok = o.resident ? r.state == kW && r.parents > 0 : used < p_.pub; break;
      case NstOp::issue: o.op_ok = r.state == kR; break;
      case NstOp::retire: o.op_ok = r.state == kP; break;
      case NstOp::none: break;
    }
    o.rd_state = r.state;
    o.rd_parents = r.parents;
    o.rd_level = r.level;
    o.rd_node = r.node;
    o.rd_les = r.les;
    o.rd_has_edges = r.has_edges;
    o.pub_count = used;
    o.pub_full = used == p_.pub;
    // The first ready row from the tail, circularly, not held, inside the level window.
    for (std::uint32_t k = 0; k < p_.entries && !o.pick_valid; ++k) {
      const std::uint32_t s = (in.tail + k) % p_.entries;
      const Row& c = rows_[s];
      const bool held = s < in.hold.size() && in.hold[s];
      const std::uint32_t top = std::max(c.level, in.lvl_hi), bottom = std::min(c.level, in.lvl_lo);
      if (c.state == kR && !held && (!in.lvl_on || top - bottom <= in.bound)) {
        o.pick_valid = true;
        o.pick_slot = s;
      }
    }
    out_ = o;
    return o;
  }

  void edge() override {
    using dats::NstOp;
    if (in_.rst) {
      for (Row& r : rows_) r.state = kD;
      std::fill(pub_.begin(), pub_.end(), std::nullopt);
      return;
    }
    if (!out_.op_ok) return;
    Row& r = rows_[in_.slot];
    switch (in_.op) {
      case NstOp::insert:
        for (auto& e : pub_)
          if (e == in_.node) e.reset();
        r = {in_.parents - out_.pub_hits ? kW : kR, in_.parents - out_.pub_hits, in_.level, in_.node, in_.les, in_.has_edges};
        break;
      case NstOp::decrement:
        if (out_.resident) {
          if (--r.parents == 0) r.state = kR;
        } else {
          *std::find(pub_.begin(), pub_.end(), std::nullopt) = in_.node;
        }
        break;
      case NstOp::issue: r.state = kP; break;
      case NstOp::retire: r.state = kD; break;
      case NstOp::none: break;
    }
  }

 private:
  static constexpr std::uint8_t kW = 0, kR = 1, kP = 2, kD = 3;
  struct Row {
    std::uint8_t state = kD;
    std::uint32_t parents = 0, level = 0, node = 0, les = 0;
    bool has_edges = false;
  };
  const dats::NstParams p_;
  std::vector<Row> rows_;
  std::vector<std::optional<std::uint32_t>> pub_;
  dats::NstIn in_;
  dats::NstOut out_;
};

}  // namespace irr::testing
