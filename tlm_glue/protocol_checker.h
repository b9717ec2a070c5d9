// SPDX-License-Identifier: Apache-2.0
// A TLM-2.0 base-protocol checker for one approximately-timed hop, written from the rules of
// IEEE 1666-2011 clauses 14 and 15. It sits in line between an initiator socket and a target
// socket, passes every call through unchanged (it adds no time and changes no statistic) and
// throws std::logic_error naming the hop, the rule and the transaction at the first violation:
//   - 14.5   a payload on nb_transport has a memory manager and a reference count above 0, and is
//            not sent with BEGIN_REQ again while it is still in flight on this hop (payload reuse);
//   - 15.2.3 only base-protocol phases, each on its own path (BEGIN_REQ, END_RESP forward;
//            END_REQ, BEGIN_RESP backward), also as returned with TLM_UPDATED;
//   - 15.2.4 phase order BEGIN_REQ -> END_REQ -> BEGIN_RESP -> END_RESP (BEGIN_RESP may imply
//            END_REQ, TLM_COMPLETED ends the transaction);
//   - 15.2.6 request exclusion (no BEGIN_REQ before the previous request's END_REQ or
//            BEGIN_RESP) and response exclusion (no BEGIN_RESP before the previous END_RESP);
//   - 14.17  the response status is TLM_INCOMPLETE_RESPONSE at BEGIN_REQ and set by the response;
//   - 14.7   command, address and data length unchanged between the request and its response;
//   - 15.2.7 timing annotations of one transaction never go back in time.
// Not checked: the data pointer (the timing path carries addresses and metadata, not data:
// functional effects happen at issue, DESIGN.md). What is still in flight when a run ends is
// reported through sim::Outstanding, so it fails the end-of-run check.
#pragma once

#include <tlm>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/simulation.h"

namespace irr::tlm_glue {

class ProtocolChecker : public sc_core::sc_module,
                        public tlm::tlm_fw_transport_if<>,
                        public tlm::tlm_bw_transport_if<>,
                        public sim::Outstanding {
 public:
  tlm::tlm_target_socket<> target_socket;        // bind the initiator's socket here
  tlm::tlm_initiator_socket<> initiator_socket;  // and this to the target's socket

  explicit ProtocolChecker(sc_core::sc_module_name name);

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time& t) override;
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time& t) override;
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& t) override { initiator_socket->b_transport(p, t); }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& d) override { return initiator_socket->get_direct_mem_ptr(p, d); }
  unsigned int transport_dbg(tlm::tlm_generic_payload& p) override { return initiator_socket->transport_dbg(p); }
  void invalidate_direct_mem_ptr(sc_dt::uint64 a, sc_dt::uint64 b) override { target_socket->invalidate_direct_mem_ptr(a, b); }

  std::vector<std::string> outstanding() const override;
  std::uint64_t transactions() const { return transactions_; }  // completed on this hop

 private:
  // A transaction in flight on this hop: its phase and what the target may not change.
  struct InFlight {
    std::uint64_t seq = 0;  // order of its BEGIN_REQ on this hop
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    tlm::tlm_command command = tlm::TLM_IGNORE_COMMAND;
    std::uint64_t address = 0;
    unsigned length = 0;
    sc_core::sc_time begun, latest;  // BEGIN_REQ's time, the latest annotated time
  };

  [[noreturn]] void fail(const tlm::tlm_generic_payload& p, const std::string& what, const char* rule) const;
  void check_payload(const tlm::tlm_generic_payload& p, const char* call) const;
  InFlight& find(const tlm::tlm_generic_payload& p, const tlm::tlm_phase& phase, const char* call);
  void begin_request(tlm::tlm_generic_payload& p, const sc_core::sc_time& t);
  void move_to(tlm::tlm_generic_payload& p, InFlight& f, const tlm::tlm_phase& phase, const sc_core::sc_time& t);
  void backward(tlm::tlm_generic_payload& p, const tlm::tlm_phase& phase, const sc_core::sc_time& t, const char* call);
  void complete(const tlm::tlm_generic_payload& p);

  // Keyed by payload address: looked up only, never iterated on a path that decides anything
  // (outstanding() sorts by seq).
  std::map<const tlm::tlm_generic_payload*, InFlight> in_flight_;
  const tlm::tlm_generic_payload* request_open_ = nullptr;   // awaiting END_REQ
  const tlm::tlm_generic_payload* response_open_ = nullptr;  // awaiting END_RESP
  std::uint64_t next_seq_ = 0, transactions_ = 0;
};

// Binds an AT hop: directly, or through a ProtocolChecker named `name` (a child of the module
// being built) when the run checks protocols — sim.check_protocol, or any build without NDEBUG.
// The checker, if any, is kept in `keep` and watched for what it has in flight at the end.
void bind_hop(sim::Simulation& sim, tlm::tlm_initiator_socket<>& from, tlm::tlm_target_socket<>& to,
              const std::string& name, std::vector<std::unique_ptr<ProtocolChecker>>& keep);

}  // namespace irr::tlm_glue
