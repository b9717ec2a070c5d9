// SPDX-License-Identifier: Apache-2.0
#include "tlm_glue/protocol_checker.h"

#include <sstream>
#include <stdexcept>

#include "tlm_glue/gpu_payload.h"

namespace irr::tlm_glue {
namespace {

std::string phase_name(const tlm::tlm_phase& phase) {
  std::ostringstream s;
  s << phase;
  return s.str();
}

}  // namespace

ProtocolChecker::ProtocolChecker(sc_core::sc_module_name name)
    : sc_core::sc_module(name), target_socket("target_socket"), initiator_socket("initiator_socket") {
  target_socket.bind(*this);
  initiator_socket.bind(*this);
}

void ProtocolChecker::fail(const tlm::tlm_generic_payload& p, const std::string& what, const char* rule) const {
  std::ostringstream s;
  s << name() << ": TLM-2.0 base protocol violated (IEEE 1666-2011 " << rule << "): " << what << " [transaction at "
    << sc_core::sc_time::from_value(sim::now_ps()) << ": " << (p.is_read() ? "read" : p.is_write() ? "write" : "ignore") << " 0x" << std::hex
    << p.get_address() << std::dec;
  if (const auto* g = p.get_extension<GpuRequest>()) s << ", request #" << g->id << " from SM " << g->sm << " warp " << g->warp;
  s << "]";
  throw std::logic_error(s.str());
}

void ProtocolChecker::check_payload(const tlm::tlm_generic_payload& p, const char* call) const {
  if (!p.has_mm()) fail(p, std::string("payload passed to ") + call + " without a memory manager", "14.5 i)");
  if (p.get_ref_count() == 0) fail(p, std::string("payload passed to ") + call + " with reference count 0", "14.5 t)");
}

ProtocolChecker::InFlight& ProtocolChecker::find(const tlm::tlm_generic_payload& p, const tlm::tlm_phase& phase,
                                                 const char* call) {
  auto it = in_flight_.find(&p);
  if (it == in_flight_.end())
    fail(p, phase_name(phase) + " in " + call + " for a transaction not in flight on this hop (no BEGIN_REQ, or already completed)",
         "15.2.4");
  return it->second;
}

void ProtocolChecker::begin_request(tlm::tlm_generic_payload& p, const sc_core::sc_time& t) {
  if (in_flight_.count(&p))
    fail(p, "BEGIN_REQ with a payload still in flight on this hop (reused before its transaction completed)", "14.5 x)");
  if (request_open_) fail(p, "BEGIN_REQ before the previous request's END_REQ (request exclusion rule)", "15.2.6 e)");
  if (p.get_response_status() != tlm::TLM_INCOMPLETE_RESPONSE)
    fail(p, "BEGIN_REQ with a response status other than TLM_INCOMPLETE_RESPONSE", "14.17 e)");
  InFlight f;
  f.seq = next_seq_++;
  f.command = p.get_command();
  f.address = p.get_address();
  f.length = p.get_data_length();
  f.begun = f.latest = sc_core::sc_time::from_value(sim::now_ps()) + t;
  in_flight_.emplace(&p, f);
  request_open_ = &p;
}

void ProtocolChecker::move_to(tlm::tlm_generic_payload& p, InFlight& f, const tlm::tlm_phase& phase, const sc_core::sc_time& t) {
  const sc_core::sc_time at = sc_core::sc_time::from_value(sim::now_ps()) + t;
  if (at < f.latest) fail(p, phase_name(phase) + " annotated earlier than the transaction's previous phase", "15.2.7 c)");
  if (p.get_command() != f.command || p.get_address() != f.address || p.get_data_length() != f.length)
    fail(p, "command, address or data length changed during the transaction", "14.7");
  f.latest = at;
  f.phase = phase;
}

void ProtocolChecker::complete(const tlm::tlm_generic_payload& p) {
  in_flight_.erase(&p);
  if (request_open_ == &p) request_open_ = nullptr;
  if (response_open_ == &p) response_open_ = nullptr;
  ++transactions_;
}

// END_REQ or BEGIN_RESP, arriving on the backward path or returned on the forward one.
void ProtocolChecker::backward(tlm::tlm_generic_payload& p, const tlm::tlm_phase& phase, const sc_core::sc_time& t,
                               const char* call) {
  if (phase == tlm::END_REQ) {
    InFlight& f = find(p, phase, call);
    if (f.phase != tlm::BEGIN_REQ) fail(p, "END_REQ after " + phase_name(f.phase), "15.2.4");
    move_to(p, f, phase, t);
    request_open_ = nullptr;
  } else if (phase == tlm::BEGIN_RESP) {
    InFlight& f = find(p, phase, call);
    if (f.phase != tlm::BEGIN_REQ && f.phase != tlm::END_REQ) fail(p, "BEGIN_RESP after " + phase_name(f.phase), "15.2.4");
    if (response_open_) fail(p, "BEGIN_RESP before the previous response's END_RESP (response exclusion rule)", "15.2.6 f)");
    if (p.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE)
      fail(p, "BEGIN_RESP with the response status still TLM_INCOMPLETE_RESPONSE", "14.17");
    move_to(p, f, phase, t);
    if (request_open_ == &p) request_open_ = nullptr;  // BEGIN_RESP implies END_REQ
    response_open_ = &p;
  } else {
    fail(p, phase_name(phase) + " on the backward path (in " + call + ")", "15.2.3 c)");
  }
}

tlm::tlm_sync_enum ProtocolChecker::nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time& t) {
  check_payload(p, "nb_transport_fw");
  const tlm::tlm_phase start = phase;
  if (phase == tlm::BEGIN_REQ) {
    begin_request(p, t);
  } else if (phase == tlm::END_RESP) {
    InFlight& f = find(p, phase, "nb_transport_fw");
    if (f.phase != tlm::BEGIN_RESP) fail(p, "END_RESP after " + phase_name(f.phase), "15.2.4");
    move_to(p, f, phase, t);
  } else {
    fail(p, phase_name(phase) + " on the forward path", "15.2.3 c)");
  }
  const tlm::tlm_sync_enum s = initiator_socket->nb_transport_fw(p, phase, t);
  if (start == tlm::END_RESP) {
    if (s == tlm::TLM_UPDATED) fail(p, "TLM_UPDATED returned for END_RESP", "15.2.3 c)");
    complete(p);
  } else if (s == tlm::TLM_ACCEPTED) {
    if (phase != start) fail(p, "phase changed to " + phase_name(phase) + " with TLM_ACCEPTED", "15.2.3 b)");
  } else if (s == tlm::TLM_UPDATED) {
    backward(p, phase, t, "the return of nb_transport_fw");
  } else {
    if (p.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE)
      fail(p, "TLM_COMPLETED with the response status still TLM_INCOMPLETE_RESPONSE", "14.17");
    complete(p);
  }
  return s;
}

tlm::tlm_sync_enum ProtocolChecker::nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time& t) {
  check_payload(p, "nb_transport_bw");
  const tlm::tlm_phase start = phase;
  backward(p, phase, t, "nb_transport_bw");
  const tlm::tlm_sync_enum s = target_socket->nb_transport_bw(p, phase, t);
  if (s == tlm::TLM_ACCEPTED) {
    if (phase != start) fail(p, "phase changed to " + phase_name(phase) + " with TLM_ACCEPTED", "15.2.3 b)");
  } else if (s == tlm::TLM_UPDATED) {
    if (phase != tlm::END_RESP || start != tlm::BEGIN_RESP)
      fail(p, phase_name(phase) + " returned from nb_transport_bw for " + phase_name(start), "15.2.4");
    move_to(p, in_flight_.at(&p), phase, t);
    complete(p);
  } else {
    complete(p);
  }
  return s;
}

std::vector<std::string> ProtocolChecker::outstanding() const {
  if (in_flight_.empty()) return {};
  const InFlight* oldest = nullptr;
  for (const auto& [p, f] : in_flight_)
    if (!oldest || f.seq < oldest->seq) oldest = &f;
  std::ostringstream s;
  s << in_flight_.size() << " transactions in flight on this hop, the oldest at " << oldest->phase << " (begun at "
    << oldest->begun << ")";
  return {s.str()};
}

void bind_hop(sim::Simulation& sim, tlm::tlm_initiator_socket<>& from, tlm::tlm_target_socket<>& to,
              const std::string& name, std::vector<std::unique_ptr<ProtocolChecker>>& keep) {
  if (!sim.check_protocol()) {
    from.bind(to);
    return;
  }
  auto c = std::make_unique<ProtocolChecker>(name.c_str());
  from.bind(c->target_socket);
  c->initiator_socket.bind(to);
  sim.watch(c->name(), *c);
  keep.push_back(std::move(c));
}

}  // namespace irr::tlm_glue
