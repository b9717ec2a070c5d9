// SPDX-License-Identifier: Apache-2.0
// The IRU as a clocked unit in the L2 clock domain (../shared/specs/hwwl_iru_dats.md part 2), one
// partition beside each memory partition. configure() (the host's configure_iru) names the arrays;
// from start() each partition's prefetcher reads the lines of the indices array its memory holds
// (with the matching secondary values), its classifier queues pass the elements on one per queue
// per cycle, and data processing (ring arrivals first) inserts those whose hash set it owns into its
// banks and sends the others round the ring. Warp requests (the SMs' ldiru) wait in a partition's
// FIFO; its replier answers the oldest one per cycle from an entry holding enough elements, or
// after the timeout from the fullest entries, handing it on to the next partition when it has too
// few. Filtered elements let as many threads go without one (whole disabled warps where possible).
// Each cycle runs, per partition: replier, data processing, classifier, prefetcher; then the ring.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <vector>

#include "models/iru/hash_bank.h"
#include "models/iru/hash_bank_block.h"
#include "sim/simulation.h"

namespace irr::iru {

// The iru.* configuration.
struct Params {
  std::uint32_t partitions = 4, sets = 1024, banks = 2, entry = 32;
  bool xor_hash = true;
  std::uint32_t prefetches = 8, prefetch_buffer = 256;
  bool bypass_l2 = false;
  std::uint32_t classifier_queues = 2, classifier_buffer = 120, process_width = 4;
  bool bidirectional = false;
  std::uint32_t ring_buffer = 280, ring_width = 4, request_buffer = 128;
  std::uint64_t timeout = 1000, watchdog = 2000000;
  std::uint32_t line = 128;  // l2.line_size
  bool rtl_banks = false;    // iru.bank.impl: rtl
  static Params from(const sim::Config& c, std::uint32_t partitions);
};

// configure_iru's arguments.
struct Setup {
  std::uint64_t target = 0, target_size = 4, indices = 0, secondary = 0, n = 0;  // secondary 0: none
  Filter filter = Filter::none;
};

// What the IRU needs of the memory system.
class Memory {
 public:
  virtual ~Memory() = default;
  // A line read for a partition's prefetcher, into the L2 of the partition whose memory holds it
  // (bypassing the L2 when asked); answered later with Iru::read_done(tag).
  virtual void read(std::uint32_t partition, std::uint64_t line, bool bypass_l2, std::uint64_t tag) = 0;
  virtual std::uint32_t home(std::uint64_t line) const = 0;  // the partition whose memory holds it
  virtual std::uint32_t load32(std::uint64_t address) const = 0;  // the value there (functional)
};

// A warp's ldiru: `lanes` threads each want one element.
struct Request {
  std::uint64_t id = 0;
  std::uint32_t lanes = 0, sm = 0, warp = 0;
};

// The answer: elements for the first elements.size() of the request's threads, none (load_iru
// false) for the rest.
struct Reply {
  std::uint64_t id = 0;
  std::uint32_t partition = 0;  // the one that answered
  std::vector<Element> elements;
};

class Iru : public sc_core::sc_module, public sim::Clocked, public sim::Outstanding {
 public:
  Iru(const sc_core::sc_module_name& name, sim::Simulation& sim, const Params& p, Memory& memory,
      std::function<void(const Reply&)> reply);

  // Before a kernel: the arrays and the filter. Throws irr::Error on bad arguments.
  void configure(const Setup& s);
  bool configured() const { return configured_; }
  const Setup& setup() const { return setup_; }
  // The kernel starts: prefetching begins.
  void start();
  // The kernel ended: every element must have been delivered or merged (else irr::Error naming
  // where the rest is); the unit is idle until the next configure.
  void finish();

  bool can_request(std::uint32_t partition) const;
  void request(std::uint32_t partition, const Request& r);
  void read_done(std::uint64_t tag);

  // Which hash set, partition and bank an index's element goes to.
  std::uint32_t set_of(std::uint32_t index) const;
  // Sets are interleaved over the partitions (consecutive lines, consecutive sets, spread over
  // all of them); within a partition, over its banks.
  std::uint32_t owner(std::uint32_t set) const { return set % p_.partitions; }
  std::uint32_t local(std::uint32_t set) const { return set / p_.partitions; }
  std::uint32_t line_of(std::uint32_t index) const;  // the target line its access touches

  bool tick(sim::Cycle cycle) override;
  std::vector<std::string> outstanding() const override;
  const Params& params() const { return p_; }

 private:
  struct Fetch {  // one index line and the secondary lines of its elements
    std::uint64_t first = 0, count = 0;  // positions
    std::uint32_t reads_left = 0;
  };
  struct Waiting {  // a request in a replier's FIFO
    Request r;
    sim::Cycle arrived = 0, deadline = 0, since = 0;  // since: first arrival anywhere
    sim::Cycle progress = 0;                          // timed out: when it last gathered an element
    std::vector<Element> got;                         // gathered on the way
    bool own = true;        // came from the network here (counts against the FIFO's size)
    bool timed_out = false;
  };
  struct Hop {  // an element on the ring
    Element e;
    std::uint32_t to = 0;
    sim::Cycle moved = ~sim::Cycle{0};  // the cycle it last moved (one hop per cycle)
  };
  struct Handed {  // a request on its way to another partition, one hop per link
    Waiting w;
    std::uint32_t to = 0, hops = 1;
  };
  // Orders entries so that the last is the fullest, the lowest set among equals.
  struct Fuller {
    bool operator()(const std::pair<std::uint32_t, std::uint32_t>& a, const std::pair<std::uint32_t, std::uint32_t>& b) const {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    }
  };
  struct Partition {
    std::vector<std::uint64_t> lines;  // index lines its memory holds
    std::size_t next_line = 0;
    std::deque<std::uint64_t> to_issue;  // line reads of the fetch being issued
    std::uint64_t fetch_tag = 0;         // ... and that fetch
    std::uint32_t in_flight = 0, reserved = 0;
    std::deque<Element> prefetched, classified, ring_in;
    std::deque<Hop> ring_out[2];   // toward the next partition, and (bidirectional) the previous
    std::deque<Handed> requests_out;  // handed-on requests waiting for the request ring
    std::vector<HashBank> banks;
    std::set<std::pair<std::uint32_t, std::uint32_t>, Fuller> fill;  // (count, local set) of non-empty entries
    std::uint64_t held = 0;
    std::deque<Waiting> fifo;
    std::uint64_t own_requests = 0;  // FIFO entries that came from the network (the buffer's limit)
    std::uint32_t incoming = 0;      // handed-on requests on their way here
  };

  void prefetch(std::uint32_t p, sim::Cycle c);
  void classify(std::uint32_t p);
  void process(std::uint32_t p, sim::Cycle c);
  void reply(std::uint32_t p, sim::Cycle c);
  void move_ring(sim::Cycle c);
  bool insert(std::uint32_t p, const Element& e);  // false: its entry is full
  void take(std::uint32_t p, std::uint32_t local, std::uint32_t k, std::vector<Element>& out);
  void send(std::uint32_t p, Waiting& w);
  void hand_on(std::uint32_t p, std::uint32_t to);
  void steal(sim::Cycle c);
  void enqueue(std::uint32_t p, Waiting w);
  std::uint32_t direction(std::uint32_t from, std::uint32_t to) const;
  std::uint32_t next(std::uint32_t p, std::uint32_t dir) const;
  bool input_done() const { return arrived_ == setup_.n; }  // every element reached a hash
  std::uint64_t held() const;

  sim::Simulation& sim_;
  sim::ClockScheduler& clock_;
  const Params p_;
  Memory& memory_;
  std::function<void(const Reply&)> reply_;
  std::uint32_t sets_per_bank_ = 0, set_bits_ = 0;  // sets_per_bank_: the largest partition's
  Setup setup_;
  bool configured_ = false, running_ = false;
  std::vector<Partition> parts_;
  std::map<std::uint64_t, Fetch> fetches_;  // by the tag of the index line's read
  struct Read {
    std::uint64_t fetch;
    sim::Cycle issued;
  };
  std::map<std::uint64_t, Read> read_fetch_;  // read tag -> its fetch and issue cycle
  std::uint64_t next_tag_ = 0;
  std::vector<std::uint8_t> fate_;  // per position: 0 pending, 1 delivered, 2 merged
  std::uint64_t arrived_ = 0, merged_ = 0, delivered_ = 0, disabled_ = 0;
  std::vector<sim::Cycle> request_link_free_;  // per partition: its outgoing request link
  // Scratch of the per-cycle and per-reply work, kept to spare allocations.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> scratch_moves_;
  std::vector<std::size_t> scratch_into_in_, scratch_into_out_;
  std::vector<Hop> scratch_hops_;
  std::vector<std::uint32_t> scratch_lines_;
  std::vector<std::unique_ptr<HashBankBlock>> rtl_;  // iru.bank.impl: rtl — per partition, per bank
  // The RTL bank beside `bank` steps `in`, after its entry was checked against the model's.
  BankOut step_rtl(std::uint32_t p, std::uint32_t b, const BankIn& in);

  sim::Counter &requests_, &replies_, &elements_, &delivered_stat_, &merged_stat_, &disabled_stat_, &timeouts_,
      &handed_on_, &final_replies_, &reads_, &ring_hops_, &full_stalls_;
  sim::Distribution& lines_per_reply_;
  sim::Distribution& prefetch_latency_;
  struct Probes {
    sim::Probe *fifo, *ring, *prefetches, *fullest, *timeout;
  };
  std::vector<Probes> probes_;
};

}  // namespace irr::iru
