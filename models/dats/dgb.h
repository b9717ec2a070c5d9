// SPDX-License-Identifier: Apache-2.0
// The dependency graph buffer (DGB) of Wireframe's dependency-aware thread-block scheduler [W
// L296-L403], spec 3.5-3.7: the window of the launch's dependency graph that the CTA scheduler
// holds on chip. Nodes are loaded in VID order, a chunk (the nodes of one 128-byte request) at a
// time, into the Local Node Array (LNA) and its Node State Table, their children into the Local
// Edge Array (LEA), both circular buffers addressed by modulus (LNID = VID % |LNA|, LES = GES %
// |LEA|); a completed block decrements its resident children's parent counts and parks the others'
// decrements in the Pending Update Buffer (PUB), which an insertion drains. A node that cannot be
// inserted (its slot still held, or its edges do not fit) waits in the Node Insertion Buffer (NIB)
// and loading halts behind it. This is the behaviour, step by step, without time: the CTA
// scheduler decides when each step happens.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/dats/dep_graph.h"
#include "models/dats/nst.h"

namespace irr::dats {

struct DgbParams {
  std::uint32_t lna = 128;   // Local Node Array entries (LVL; the paper's LRR runs use 512) [W L417]
  std::uint32_t lea = 512;   // Local Edge Array entries (LVL; LRR 2K) [W L417]
  std::uint32_t pub = 64;    // Pending Update Buffer entries [W L417]
  std::uint32_t chunk = 16;  // nodes per 128-byte request (8-byte node entries; the paper's example: 2)
  std::uint32_t edge_bytes = kEdgeEntryBytes;  // bytes per global edge entry (for the requests it counts)
  // Reserve, when a node issues, PUB entries for its children not on chip then, and issue a node
  // only while they fit: a completion then never waits for PUB room, and the buffer cannot stop
  // with its tail node finished but blocked (irrgpu's rule; the paper's is to wait [W L372]).
  bool reserve_pub = false;
};

class Dgb {
 public:
  using State = NodeStateTable::State;
  using Entry = NodeStateTable::Entry;  // one LNA entry's Node State Table row

  // Checks what can never fit: a node with more children than the LEA, a chunk larger than the LNA.
  Dgb(const DependencyGraph& g, DgbParams p);
  // The Node State Table as Verilated RTL in the loop (dats.nst.impl: rtl): its build must match
  // the LNA, LEA and PUB sizes, and the graph fit its 16-bit node numbers, parent counts and levels.
  void attach_rtl(std::unique_ptr<NstBlock> rtl);

  // One loader step without time: inserts the NIB's node if it now fits, else (the NIB empty and
  // room for a chunk between the LNA's head and tail) requests the next chunk and inserts its
  // nodes in order until one does not fit. Returns the 128-byte requests made (node chunk and
  // edge lines, counted per node).
  std::uint32_t load();
  // The same steps apart, for a loader whose requests take time: the nodes [first, end) of the
  // chunk to request now (none while the NIB holds a node or the LNA lacks room); whether a node
  // fits now (its slot free, its edges in the LEA's room); inserting one that fits (applying the
  // PUB's decrements for it), or parking one that does not in the NIB, which halts loading.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> chunk_wanted() const;
  bool fits(std::uint32_t vid) const;
  void insert(std::uint32_t vid);
  void park(std::uint32_t vid);
  // The schedulable node the policy picks (smallest VID first; LVL keeps the running blocks'
  // level range within the bound), if any [W L392-L403].
  std::optional<std::uint32_t> pick(Policy policy, std::uint32_t bound) const;
  bool schedulable(std::uint32_t vid) const;
  void issue(std::uint32_t vid);
  // A block finished: false (nothing changed) while its non-resident children's decrements do not
  // fit in the PUB [W L372]; the caller tries again after the loader has drained the PUB.
  bool complete(std::uint32_t vid);

  bool finished() const { return completed_ == graph_.nodes(); }
  // Why nothing can move, for the watchdog: the blocks waiting and what they wait for.
  std::vector<std::string> waiting() const;

  // State, for tests, waveforms and statistics.
  const Entry& slot(std::uint32_t i) const { return nst_.entry(i); }
  std::uint32_t lea_entry(std::uint32_t i) const { return lea_[i]; }
  const std::vector<std::uint32_t>& pub() const { return nst_.pub(); }
  std::optional<std::uint32_t> nib() const { return nib_; }
  std::uint32_t lna_tail() const { return tail_vid_ % params_.lna; }
  std::uint32_t lna_head() const { return next_vid_ % params_.lna; }
  std::uint32_t lea_tail() const { return graph_.edge_start[tail_vid_] % params_.lea; }
  std::uint32_t lea_head() const { return graph_.edge_start[next_vid_] % params_.lea; }
  std::uint32_t inserted() const { return next_vid_; }
  bool resident(std::uint32_t vid) const;
  std::uint32_t pub_high_water() const { return pub_high_; }
  std::uint64_t requests() const { return requests_; }
  // Reads and writes of the buffer's arrays, the events the energy model prices: a Node State
  // Table row written on insertion, issue and retirement, read and written for each resident child's
  // decrement; an LEA entry written on insertion and read on completion; the PUB searched on each
  // insertion and written for each decrement parked in it.
  struct Accesses {
    std::uint64_t nst = 0, lea = 0, pub = 0;
  };
  const Accesses& accesses() const { return accesses_; }
  std::pair<std::uint32_t, std::uint32_t> running_levels() const;  // min, max over processing nodes

 private:
  bool try_insert(std::uint32_t vid);  // false: parked in the NIB
  std::uint32_t off_chip_children(std::uint32_t vid) const;
  bool lacks_pub_room(std::uint32_t vid) const;  // reserve_pub: its off-chip children do not fit
  void advance_tail();

  const DependencyGraph& graph_;
  const DgbParams params_;
  NodeStateTable nst_;
  std::vector<std::uint32_t> lea_;
  // Per LNA slot, the controller's own: a finished block's off-chip children the PUB has no room
  // for yet, and the PUB entries reserved at its issue (reserve_pub).
  std::vector<std::uint32_t> blocked_, reserved_at_;
  mutable std::vector<std::uint32_t> hold_;  // pick()'s scratch: no allocation per pick
  std::optional<std::uint32_t> nib_;
  std::uint32_t next_vid_ = 0;  // the next node to insert (after the NIB's)
  std::uint32_t tail_vid_ = 0;  // the oldest node not yet invalidated
  std::uint32_t completed_ = 0, pub_high_ = 0, reserved_ = 0;
  std::uint64_t requests_ = 0;
  Accesses accesses_;
  std::vector<std::uint32_t> processing_per_level_;
};

}  // namespace irr::dats
