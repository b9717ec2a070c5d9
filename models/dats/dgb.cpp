// SPDX-License-Identifier: Apache-2.0
#include "models/dats/dgb.h"

#include <algorithm>

#include "sim/error.h"

namespace irr::dats {

Dgb::Dgb(const DependencyGraph& g, DgbParams p)
    : graph_(g),
      params_(p),
      nst_(p.lna, p.pub),
      lea_(p.lea, 0),
      blocked_(p.lna, 0),
      reserved_at_(p.lna, 0),
      processing_per_level_(g.levels, 0) {
  if (!p.lna || !p.lea || !p.chunk) throw Error("dats: the LNA, the LEA and a chunk need at least one entry", Error::Kind::config);
  if (p.chunk >= p.lna)  // with one node left on chip (the head) another chunk must still fit
    throw Error("dats: a chunk of " + std::to_string(p.chunk) + " nodes needs an LNA of more entries than " +
                std::to_string(p.lna), Error::Kind::config);
  for (std::uint32_t v = 0; v < g.nodes(); ++v)
    if (g.children(v) > p.lea)
      throw Error("dats: " + g.name(v) + " has " + std::to_string(g.children(v)) + " children, more than the " +
                  std::to_string(p.lea) + "-entry LEA holds: it could never be loaded", Error::Kind::config);
}

void Dgb::attach_rtl(std::unique_ptr<NstBlock> rtl) {
  if (next_vid_) throw std::logic_error("dats: RTL attached to a buffer in use");
  const std::uint32_t limit = 1u << kNstFieldBits;
  std::uint32_t most_parents = 0;
  for (std::uint32_t v = 0; v < graph_.nodes(); ++v) most_parents = std::max(most_parents, graph_.parents[v]);
  if (graph_.nodes() > limit || most_parents >= limit || graph_.levels > limit)
    throw Error("dats.nst.impl: rtl: the RTL node state table holds " + std::to_string(kNstFieldBits) +
                    "-bit node numbers, parent counts and levels [W L452]; this graph has " +
                    std::to_string(graph_.nodes()) + " nodes, up to " + std::to_string(most_parents) + " parents, " +
                    std::to_string(graph_.levels) + " levels",
                Error::Kind::config);
  nst_.attach_rtl(std::move(rtl));
}

bool Dgb::resident(std::uint32_t vid) const { return nst_.resident(vid % params_.lna, vid); }

bool Dgb::fits(std::uint32_t v) const {
  // Not when the slot is still held or the edges do not fit [W L328, L384].
  const std::uint32_t lea_used = graph_.edge_start[next_vid_] - graph_.edge_start[tail_vid_];
  return v == next_vid_ && !nst_.entry(v % params_.lna).valid() && lea_used + graph_.children(v) <= params_.lea;
}

void Dgb::park(std::uint32_t v) {
  if (v != next_vid_ || (nib_ && *nib_ != v)) throw std::logic_error("dats: parking " + graph_.name(v) + " out of order");
  nib_ = v;
}

bool Dgb::try_insert(std::uint32_t v) {
  if (!fits(v)) {
    park(v);
    return false;
  }
  const std::uint32_t ges = graph_.edge_start[v], n = graph_.children(v);
  requests_ += n ? (ges + n - 1) * params_.edge_bytes / 128 - ges * params_.edge_bytes / 128 + 1 : 0;
  insert(v);
  return true;
}

void Dgb::insert(std::uint32_t v) {
  if (!fits(v)) throw std::logic_error("dats: inserting " + graph_.name(v) + ", which does not fit");
  const std::uint32_t ges = graph_.edge_start[v], n = graph_.children(v);
  for (std::uint32_t k = 0; k < n; ++k) lea_[(ges + k) % params_.lea] = graph_.edges[ges + k];
  // The row, with the decrements that waited for this node in the PUB applied [W L386].
  nst_.insert(v % params_.lna, v, graph_.parents[v], graph_.level[v], n ? static_cast<std::int32_t>(ges % params_.lea) : -1);
  accesses_.nst += 1;
  accesses_.lea += n;
  accesses_.pub += 1;
  nib_.reset();
  next_vid_ = v + 1;
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> Dgb::chunk_wanted() const {
  if (nib_ || next_vid_ >= graph_.nodes()) return std::nullopt;
  // A chunk is requested when the LNA has room for all of it between head and tail (holes left by
  // early finishers do not count) [W L324, Figure 7d].
  const std::uint32_t want = std::min(params_.chunk, graph_.nodes() - next_vid_);
  if (params_.lna - (next_vid_ - tail_vid_) < want) return std::nullopt;
  return std::make_pair(next_vid_, next_vid_ + want);
}

std::uint32_t Dgb::load() {
  const std::uint64_t before = requests_;
  if (nib_) {  // the parked node is on chip already: no new request
    if (fits(*nib_)) try_insert(*nib_);
    return static_cast<std::uint32_t>(requests_ - before);
  }
  const auto chunk = chunk_wanted();
  if (!chunk) return 0;
  ++requests_;  // the chunk's node entries
  for (std::uint32_t v = chunk->first; v < chunk->second; ++v)
    if (!try_insert(v)) break;  // the transfer terminates; the rest is requested again later
  return static_cast<std::uint32_t>(requests_ - before);
}

std::uint32_t Dgb::off_chip_children(std::uint32_t v) const {
  std::uint32_t n = 0;
  for (std::uint32_t e = graph_.edge_start[v]; e < graph_.edge_start[v + 1]; ++e) n += !resident(graph_.edges[e]);
  return n;
}

bool Dgb::lacks_pub_room(std::uint32_t v) const {
  return params_.reserve_pub && nst_.pub().size() + reserved_ + off_chip_children(v) > params_.pub;
}

bool Dgb::schedulable(std::uint32_t v) const {
  if (!resident(v) || nst_.entry(v % params_.lna).state != State::ready || lacks_pub_room(v)) return false;
  // The head node's child count needs the next node's edge start [W L330], which a node parked in
  // the NIB has brought (without that, a head node whose successor waits for its LEA room would
  // wait for itself).
  return !(v + 1 == next_vid_ && graph_.children(v) > 0 && nib_ != v + 1);
}

std::pair<std::uint32_t, std::uint32_t> Dgb::running_levels() const {
  std::uint32_t lo = 0, hi = 0;
  bool any = false;
  for (std::uint32_t l = 0; l < processing_per_level_.size(); ++l)
    if (processing_per_level_[l]) {
      if (!any) lo = l;
      hi = l;
      any = true;
    }
  return {lo, hi};
}

std::optional<std::uint32_t> Dgb::pick(Policy policy, std::uint32_t bound) const {
  if (tail_vid_ == next_vid_) return std::nullopt;
  std::optional<NodeStateTable::Window> lvl;
  if (policy == Policy::lvl && std::any_of(processing_per_level_.begin(), processing_per_level_.end(), [](auto n) { return n; })) {
    const auto [lo, hi] = running_levels();
    lvl = NodeStateTable::Window{lo, hi, bound};
  }
  // Rows the NST's pick must pass over: the head node with children (its child count needs the
  // next node's edge start [W L330], which a node parked in the NIB has brought), and ready nodes
  // whose off-chip children the PUB has no room for (reserve_pub).
  std::vector<std::uint32_t>& hold = hold_;
  hold.clear();
  const std::uint32_t head = next_vid_ - 1;
  if (graph_.children(head) > 0 && nib_ != next_vid_) hold.push_back(head % params_.lna);
  std::uint32_t from = tail_vid_;
  for (;;) {
    const auto s = nst_.pick(from % params_.lna, next_vid_ - from, hold, lvl);
    if (!s) return std::nullopt;
    const std::uint32_t v = nst_.entry(*s).node;
    if (!lacks_pub_room(v)) return v;
    hold.push_back(*s);
    from = v + 1;  // the rows before it are not eligible either
  }
}

void Dgb::issue(std::uint32_t v) {
  if (!schedulable(v)) throw std::logic_error("dats: issuing " + graph_.name(v) + ", which is not schedulable");
  const std::uint32_t slot = v % params_.lna;
  nst_.issue(slot);
  accesses_.nst += 1;
  if (params_.reserve_pub) reserved_ += reserved_at_[slot] = off_chip_children(v);
  ++processing_per_level_[graph_.level[v]];
}

bool Dgb::complete(std::uint32_t v) {
  const std::uint32_t slot = v % params_.lna;
  if (!resident(v) || nst_.entry(slot).state != State::processing)
    throw std::logic_error("dats: " + graph_.name(v) + " completed without running");
  const std::uint32_t ges = graph_.edge_start[v], n = graph_.children(v);
  std::uint32_t outside = 0;
  for (std::uint32_t k = 0; k < n; ++k) outside += !resident(lea_[(ges + k) % params_.lea]);
  reserved_ -= reserved_at_[slot];  // a child off chip at issue is off chip now: the reservation covers it
  reserved_at_[slot] = 0;
  if (nst_.pub().size() + outside > params_.pub) {  // [W L372]
    blocked_[slot] = outside;
    return false;
  }
  for (std::uint32_t k = 0; k < n; ++k) {  // resident children's counts drop, the others' wait in the PUB
    const std::uint32_t c = lea_[(ges + k) % params_.lea];
    nst_.decrement(c % params_.lna, c);
  }
  accesses_.lea += n;
  accesses_.nst += 1 + 2 * (n - outside);
  accesses_.pub += outside;
  pub_high_ = std::max(pub_high_, static_cast<std::uint32_t>(nst_.pub().size()));
  --processing_per_level_[graph_.level[v]];
  blocked_[slot] = 0;
  nst_.retire(slot);
  ++completed_;
  advance_tail();
  return true;
}

void Dgb::advance_tail() {  // only over invalidated entries: an early finisher leaves a hole [W L368]
  while (tail_vid_ < next_vid_ && !nst_.entry(tail_vid_ % params_.lna).valid()) ++tail_vid_;
}

std::vector<std::string> Dgb::waiting() const {
  std::vector<std::string> v;
  for (std::uint32_t i = tail_vid_; i < next_vid_; ++i) {
    const Entry& e = nst_.entry(i % params_.lna);
    if (!e.valid()) continue;
    std::string what = e.state == State::waiting ? "waits for " + std::to_string(e.parents) + " parents"
                       : blocked_[i % params_.lna] ? "finished; its completion needs " + std::to_string(blocked_[i % params_.lna]) + " PUB entries"
                       : e.state == State::processing ? "runs"
                       : schedulable(i)               ? "is ready"
                       : lacks_pub_room(i)            ? "is ready but its children off chip need more PUB entries than are free or reserved"
                           : "is ready but is the head node (its child count is not known)";
    v.push_back(graph_.name(i) + " (node " + std::to_string(i) + ", level " + std::to_string(e.level) + ") " + what);
  }
  if (nib_) v.push_back(graph_.name(*nib_) + " (node " + std::to_string(*nib_) + ") waits in the NIB for its LNA slot or LEA room");
  if (!nst_.pub().empty() || reserved_)
    v.push_back(std::to_string(nst_.pub().size()) + " of " + std::to_string(params_.pub) + " PUB entries in use, " +
                std::to_string(reserved_) + " reserved");
  return v;
}

}  // namespace irr::dats
