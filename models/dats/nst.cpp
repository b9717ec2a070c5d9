// SPDX-License-Identifier: Apache-2.0
#include "models/dats/nst.h"

#include <algorithm>
#include <stdexcept>

#include "sim/error.h"

namespace irr::dats {

namespace {

NstIn on_row(NstOp op, std::uint32_t slot) {
  NstIn in;
  in.op = op;
  in.slot = slot;
  return in;
}

}  // namespace

NodeStateTable::NodeStateTable(std::uint32_t entries, std::uint32_t pub) : rows_(entries), pub_entries_(pub) {}

std::uint32_t NodeStateTable::pub_hits(std::uint32_t node) const {
  return static_cast<std::uint32_t>(std::count(pub_.begin(), pub_.end(), node));
}

bool NodeStateTable::accepts(NstOp op, std::uint32_t slot, std::uint32_t node, std::uint32_t parents) const {
  const Entry& e = rows_[slot];
  switch (op) {
    case NstOp::insert: return !e.valid() && pub_hits(node) <= parents;
    case NstOp::decrement:
      return resident(slot, node) ? e.state == State::waiting && e.parents > 0 : pub_.size() < pub_entries_;
    case NstOp::issue: return e.state == State::ready;
    case NstOp::retire: return e.state == State::processing;
    case NstOp::none: break;
  }
  return false;
}

void NodeStateTable::insert(std::uint32_t slot, std::uint32_t node, std::uint32_t parents, std::uint32_t level,
                            std::int32_t les) {
  if (!accepts(NstOp::insert, slot, node, parents))
    throw std::logic_error("dats NST: insert into a row in use, or with more pending updates than parents");
  // Decrements that waited for this node [W L386].
  const std::uint32_t hits = pub_hits(node);
  pub_.erase(std::remove(pub_.begin(), pub_.end(), node), pub_.end());
  Entry& e = rows_[slot];
  e = {parents - hits ? State::waiting : State::ready, parents - hits, level, node, les};
  if (!rtl_) return;
  NstIn in = on_row(NstOp::insert, slot);
  in.node = node;
  in.parents = parents;
  in.level = level;
  in.has_edges = les >= 0;
  in.les = in.has_edges ? static_cast<std::uint32_t>(les) : 0;
  NstOut expect;
  expect.pub_hits = hits;
  mirror(in, "node insertion", &expect);
}

bool NodeStateTable::decrement(std::uint32_t slot, std::uint32_t node) {
  if (!accepts(NstOp::decrement, slot, node)) throw std::logic_error("dats NST: a decrement with nowhere to go");
  const bool on_chip = resident(slot, node);
  if (on_chip) {
    Entry& e = rows_[slot];
    if (--e.parents == 0) e.state = State::ready;
  } else {
    pub_.push_back(node);  // [W L370]
  }
  if (rtl_) {
    NstIn in = on_row(NstOp::decrement, slot);
    in.node = node;
    NstOut expect;
    expect.resident = on_chip;
    mirror(in, "parent-count update", &expect);
  }
  return on_chip;
}

void NodeStateTable::issue(std::uint32_t slot) {
  if (!accepts(NstOp::issue, slot, 0)) throw std::logic_error("dats NST: issuing a row that is not ready");
  rows_[slot].state = State::processing;
  if (rtl_) mirror(on_row(NstOp::issue, slot), "block issue", nullptr);
}

void NodeStateTable::retire(std::uint32_t slot) {
  if (!accepts(NstOp::retire, slot, 0)) throw std::logic_error("dats NST: retiring a row that is not running");
  rows_[slot].state = State::done;
  if (rtl_) mirror(on_row(NstOp::retire, slot), "block completion", nullptr);
}

void NodeStateTable::reset() {
  std::fill(rows_.begin(), rows_.end(), Entry{});
  pub_.clear();
  if (!rtl_) return;
  NstIn in;
  in.rst = true;
  mirror(in, "reset", nullptr);
}

std::optional<std::uint32_t> NodeStateTable::pick(std::uint32_t tail, std::uint32_t span,
                                                  const std::vector<std::uint32_t>& hold,
                                                  const std::optional<Window>& lvl) const {
  std::optional<std::uint32_t> found;
  for (std::uint32_t k = 0; k < span && !found; ++k) {
    const std::uint32_t s = (tail + k) % size();
    const Entry& e = rows_[s];
    if (e.state != State::ready || std::find(hold.begin(), hold.end(), s) != hold.end()) continue;
    if (lvl && std::max(e.level, lvl->hi) - std::min(e.level, lvl->lo) > lvl->bound) continue;  // [W L403]
    found = s;
  }
  if (!rtl_) return found;
  NstIn in;
  in.tail = tail;
  in.hold.assign(size(), false);
  for (std::uint32_t s : hold) in.hold[s] = true;
  if (lvl) {
    in.lvl_on = true;
    in.lvl_lo = lvl->lo;
    in.lvl_hi = lvl->hi;
    in.bound = std::min<std::uint32_t>(lvl->bound, (1u << kNstFieldBits) - 1);
  }
  const NstOut o = rtl_->eval(in);
  if (o.pick_valid != found.has_value() || (found && o.pick_slot != *found))
    disagree("pick", "the RTL picks " + (o.pick_valid ? "row " + std::to_string(o.pick_slot) : std::string("none")) +
                         ", the model " + (found ? "row " + std::to_string(*found) : std::string("none")));
  return o.pick_valid ? std::optional<std::uint32_t>(o.pick_slot) : std::nullopt;  // the RTL's
}

void NodeStateTable::attach_rtl(std::unique_ptr<NstBlock> rtl) {
  rtl_ = std::move(rtl);
  reset();
}

void NodeStateTable::disagree(const char* what, const std::string& why) const {
  throw Error("dats NST: the RTL and the model disagree at a " + std::string(what) + ": " + why);
}

void NodeStateTable::mirror(const NstIn& in, const char* what, const NstOut* expect) {
  const NstOut o = rtl_->eval(in);
  if (!in.rst && !o.op_ok) disagree(what, "the RTL refused it");
  if (expect && in.op == NstOp::decrement && o.resident != expect->resident)
    disagree(what, "the RTL finds node " + std::to_string(in.node) + (o.resident ? "" : " not") + " resident");
  if (expect && in.op == NstOp::insert && o.pub_hits != expect->pub_hits)
    disagree(what, "the RTL finds " + std::to_string(o.pub_hits) + " PUB entries for node " + std::to_string(in.node) +
                       ", the model " + std::to_string(expect->pub_hits));
  rtl_->edge();
  NstIn read;
  read.slot = in.slot;
  const NstOut after = rtl_->eval(read);
  const Entry& e = rows_[in.slot];
  const auto field = [&](const char* name, std::uint32_t rtl, std::uint32_t model) {
    if (rtl != model)
      disagree(what, "row " + std::to_string(in.slot) + " " + name + ": RTL " + std::to_string(rtl) + ", model " +
                         std::to_string(model));
  };
  field("state", after.rd_state, static_cast<std::uint32_t>(e.state));
  if (e.valid()) {
    field("parent count", after.rd_parents, e.parents);
    field("level", after.rd_level, e.level);
    field("node", after.rd_node, e.node);
    field("edge start", after.rd_has_edges ? after.rd_les : ~0u, e.les < 0 ? ~0u : static_cast<std::uint32_t>(e.les));
  }
  field("PUB entries", after.pub_count, static_cast<std::uint32_t>(pub_.size()));
}

}  // namespace irr::dats
