// SPDX-License-Identifier: Apache-2.0
// The interconnect: a request crossbar from the SMs to the memory partitions and a reply crossbar
// back, in the interconnect clock domain. Packets are cut into flits (an address-only packet is
// one flit; a data packet is a header flit plus its data in flit_size flits). Each output link
// carries one flit per cycle; a packet granted at cycle g occupies its output link for its flits
// and is delivered at g + flits - 1 + latency. Inputs are queues of interconnect.input_buffer
// packets (backpressure to the sender when full); outputs arbitrate round-robin over inputs in
// port order; an input sends at most one packet per cycle, and its head packet blocks the ones
// behind it (an input-queued crossbar).
#pragma once

#include <memory>
#include <vector>

#include "sim/fifo.h"
#include "sim/simulation.h"
#include "tlm_glue/at_ports.h"
#include "tlm_glue/gpu_payload.h"

namespace irr::mem {

class Crossbar : public sc_core::sc_module, public sim::Clocked, public sim::Outstanding {
 public:
  std::vector<std::unique_ptr<tlm_glue::AtTarget>> sm_side;      // one per SM, then one per other source
  std::vector<std::unique_ptr<tlm_glue::AtInitiator>> mem_side;  // one per partition

  // `sources`: requesters beside the SMs (a CTA scheduler reading its own data [W L292]), inputs
  // sms, sms + 1, ...; a request carries its input's index as GpuRequest::sm, which routes the reply.
  Crossbar(const sc_core::sc_module_name& name, sim::Simulation& sim, std::uint32_t sms, std::uint32_t partitions,
           const std::vector<std::string>& sources = {});
  bool tick(sim::Cycle cycle) override;
  std::vector<std::string> outstanding() const override;
  std::uint32_t request_flits(const tlm::tlm_generic_payload& p) const;
  std::uint32_t reply_flits(const tlm::tlm_generic_payload& p) const;

 private:
  struct InFlight {
    sim::Cycle deliver_at;
    tlm::tlm_generic_payload* p;
  };
  struct Network {
    std::vector<sim::Cycle> link_free;             // per output
    std::vector<std::uint32_t> next_input;         // round-robin pointer per output
    std::vector<sim::Fifo<InFlight>> in_flight;    // per output, in delivery order
    std::vector<std::uint64_t> flying;             // bit per output: packets in flight on it
    sim::Cycle due = sim::kNever;                  // the earliest delivery of any output's first packet
  };
  bool step_requests(sim::Cycle c, sim::Picoseconds now);
  bool step_replies(sim::Cycle c, sim::Picoseconds now);
  sim::Cycle next_work(sim::Cycle c) const;

  const std::uint32_t sms_;  // inputs: the SMs and the other sources
  const std::uint32_t partitions_, latency_, flit_size_;
  Network req_, rep_;
  std::vector<sim::Fifo<tlm::tlm_generic_payload*>> replies_in_;  // per partition, from its socket
  // Bit per port, set by the port when something arrives, cleared once it has nothing waiting: a
  // cycle visits only these ports (each one its own object, a host cache miss or two to look at).
  std::vector<std::uint64_t> inputs_busy_;        // SM-side inputs holding requests
  std::vector<std::uint64_t> responses_waiting_;  // partition-side ports holding responses
  std::vector<std::uint32_t> waiting_;  // the inputs holding packets this cycle, in port order
  bool inputs_waiting_ = false;         // ... after this cycle's grants
  std::uint64_t replies_queued_ = 0;    // replies from the partitions not yet granted (in replies_in_)
  std::vector<std::uint32_t> head_;  // per SM input: the partition its head packet goes to, this cycle
  std::vector<std::uint32_t> rep_head_;  // per partition: the SM its head reply goes to (none: sms_), kept as heads change
  std::vector<std::uint32_t> wanted_;    // per partition: how many inputs' heads go to it, this cycle
  std::vector<std::uint64_t> rep_targets_;  // bit i: some partition's head reply goes to SM i, this cycle
  sim::Counter &req_packets_, &req_flits_, &rep_packets_, &rep_flits_, &req_bytes_, &rep_bytes_, &contention_;
  sim::Probe& in_flight_probe_;
  std::uint64_t in_flight_ = 0;  // packets on the links, both ways
  sim::TxnTrace* trace_;
  std::vector<sim::TxnTrace::Track> req_tracks_, rep_tracks_;  // per partition, per SM
};

}  // namespace irr::mem
