// SPDX-License-Identifier: Apache-2.0
// The Node State Table (NST) of the dependency graph buffer with its Pending Update Buffer (PUB)
// [W L304-L372], spec 3.5-3.6: one row per Local Node Array slot, and the operations that change
// them, each one cycle of rtl/dats/dats_nst.v (docs/dats.md). The Dgb (models/dats/dgb.h) decides
// which operation happens; this class holds the rows and, with RTL in the loop (dats.nst.impl:
// rtl), applies every operation and pick to a Verilated dats_nst as well, returns the RTL's answers
// and checks its state against its own after each one.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/dats/nst_block.h"

namespace irr::dats {

class NodeStateTable {
 public:
  enum class State : std::uint8_t { waiting = 0, ready = 1, processing = 2, done = 3 };  // the RTL's codes
  struct Entry {
    State state = State::done;  // done: the row is free
    std::uint32_t parents = 0, level = 0, node = 0;  // unfinished parents, level, global node # (VID)
    std::int32_t les = -1;                           // local edge start, -1 without children
    bool valid() const { return state != State::done; }
  };
  struct Window {  // LVL: keep max(level, hi) - min(level, lo) <= bound, lo <= hi the running levels
    std::uint32_t lo, hi, bound;
  };

  NodeStateTable(std::uint32_t entries, std::uint32_t pub);

  std::uint32_t size() const { return static_cast<std::uint32_t>(rows_.size()); }
  const Entry& entry(std::uint32_t slot) const { return rows_[slot]; }
  bool resident(std::uint32_t slot, std::uint32_t node) const { return rows_[slot].valid() && rows_[slot].node == node; }
  std::uint32_t pub_hits(std::uint32_t node) const;
  const std::vector<std::uint32_t>& pub() const { return pub_; }
  // Whether the RTL would accept this operation now (op_ok): an insert into a free row with no
  // more PUB entries for it than parents; a decrement of a waiting resident child with parents
  // left, or of a non-resident one with PUB room; an issue of a ready row; a retire of a running one.
  bool accepts(NstOp op, std::uint32_t slot, std::uint32_t node, std::uint32_t parents = 0) const;

  // The operations, one cycle each; each must be accepted (a logic_error otherwise).
  void insert(std::uint32_t slot, std::uint32_t node, std::uint32_t parents, std::uint32_t level, std::int32_t les);
  bool decrement(std::uint32_t slot, std::uint32_t node);  // true: the child was resident
  void issue(std::uint32_t slot);
  void retire(std::uint32_t slot);
  void reset();

  // The first ready row at or after `tail` (circularly, over `span` rows: the rest are free), not
  // in `hold`, within `lvl` when given.
  std::optional<std::uint32_t> pick(std::uint32_t tail, std::uint32_t span, const std::vector<std::uint32_t>& hold,
                                    const std::optional<Window>& lvl) const;

  // RTL in the loop: reset, then stepped with every operation.
  void attach_rtl(std::unique_ptr<NstBlock> rtl);

 private:
  void mirror(const NstIn& in, const char* what, const NstOut* expect);
  [[noreturn]] void disagree(const char* what, const std::string& why) const;

  std::vector<Entry> rows_;
  std::vector<std::uint32_t> pub_;
  std::uint32_t pub_entries_;
  std::unique_ptr<NstBlock> rtl_;
};

}  // namespace irr::dats
