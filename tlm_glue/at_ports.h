// SPDX-License-Identifier: Apache-2.0
// The two ends of a TLM-2.0 approximately-timed link between clocked components, base protocol,
// 4 phases. The initiator sends BEGIN_REQ and may not send again until END_REQ; the target
// answers END_REQ at once while its input queue has room and withholds it otherwise
// (backpressure), sending it when room frees. Responses go back as BEGIN_RESP, which the
// initiator completes at once (its outstanding requests are bounded by its own MSHRs or credits).
// Everything that crosses is visible to the other side only after the instant it crossed, so
// results never depend on the order SystemC runs the two components in.
#pragma once

#include <tlm>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/bitmap.h"
#include "sim/clock.h"
#include "sim/timed_queue.h"

namespace irr::tlm_glue {

// Where a port marks that something arrived: bit `index` of `bits`, if any.
struct ArrivalFlag {
  std::vector<std::uint64_t>* bits = nullptr;
  std::size_t index = 0;
  void set() const {
    if (bits) sim::set_bit(*bits, index);
  }
};

class AtInitiator : public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_initiator_socket<> socket;

  AtInitiator(const char* name, sim::Clocked& owner) : socket(name), owner_(owner), responses_(1u << 20) {
    socket.bind(*this);
  }
  bool can_send(sim::Picoseconds now) const { return !waiting_ && freed_at_ < now; }
  // (waiting_ is the request still waiting for its END_REQ, if any.)
  // BEGIN_REQ; the payload must stay alive until its response (the pool's reference count).
  void send(tlm::tlm_generic_payload& p, sim::Picoseconds now) {
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    waiting_ = &p;
    tlm::tlm_sync_enum s = socket->nb_transport_fw(p, phase, t);
    if (s == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
      waiting_ = nullptr;
      freed_at_ = now;
    } else if (s == tlm::TLM_COMPLETED) {
      throw std::logic_error(std::string(socket.name()) + ": target completed a request in BEGIN_REQ");
    }
  }
  bool has_response(sim::Picoseconds now) const { return responses_.can_pop(now); }
  tlm::tlm_generic_payload& pop_response(sim::Picoseconds now) { return *responses_.pop(now); }
  bool idle() const { return !waiting_ && responses_.empty(); }
  bool responses_waiting() const { return !responses_.empty(); }
  // An owner of many ports may ask for bit i of `bits` to be set when a response arrives, and visit
  // only the ports whose bits are set (it clears a bit once the port has nothing waiting).
  void flag_arrivals(std::vector<std::uint64_t>& bits, std::size_t i) { flag_ = {&bits, i}; }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time&) override {
    const sim::Picoseconds now = sim::now_ps();
    if (phase == tlm::END_REQ) {
      waiting_ = nullptr;
      freed_at_ = now;
      owner_.wake();
      return tlm::TLM_ACCEPTED;
    }
    if (phase == tlm::BEGIN_RESP) {
      if (waiting_ == &p) {  // a BEGIN_RESP implies its own request's END_REQ
        waiting_ = nullptr;
        freed_at_ = now;
      }
      responses_.push(&p, now);
      flag_.set();
      owner_.wake();
      return tlm::TLM_COMPLETED;
    }
    throw std::logic_error(std::string(socket.name()) + ": unexpected phase on the backward path");
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  sim::Clocked& owner_;
  tlm::tlm_generic_payload* waiting_ = nullptr;
  sim::Picoseconds freed_at_ = 0;
  sim::TimedQueue<tlm::tlm_generic_payload*> responses_;
  ArrivalFlag flag_;
};

class AtTarget : public tlm::tlm_fw_transport_if<> {
 public:
  tlm::tlm_target_socket<> socket;

  AtTarget(const char* name, sim::Clocked& owner, std::size_t capacity)
      : socket(name), owner_(owner), requests_(capacity) {
    socket.bind(*this);
  }
  bool has_request(sim::Picoseconds now) const { return requests_.can_pop(now); }
  tlm::tlm_generic_payload& front() const { return *requests_.front(); }
  tlm::tlm_generic_payload& pop_request(sim::Picoseconds now) { return *requests_.pop(now); }
  // Call each cycle the owner ticks: takes a withheld request once its slot is free.
  void accept_pending(sim::Picoseconds now) {
    if (!pending_ || !requests_.can_push(now)) return;
    tlm::tlm_generic_payload* p = pending_;
    pending_ = nullptr;
    requests_.push(p, now);
    tlm::tlm_phase phase = tlm::END_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    socket->nb_transport_bw(*p, phase, t);
  }
  void respond(tlm::tlm_generic_payload& p) {
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    socket->nb_transport_bw(p, phase, t);
  }
  bool busy() const { return pending_ || !requests_.empty(); }
  std::size_t queued() const { return requests_.size(); }
  // As AtInitiator::flag_arrivals, for requests: bit i is set when one arrives (the owner clears
  // it once the port is not busy).
  void flag_arrivals(std::vector<std::uint64_t>& bits, std::size_t i) { flag_ = {&bits, i}; }
  bool backpressured() const { return pending_ != nullptr; }

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time&) override {
    if (phase != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;  // END_RESP: nothing to do
    const sim::Picoseconds now = sim::now_ps();
    flag_.set();
    owner_.wake();
    if (!pending_ && requests_.can_push(now)) {
      requests_.push(&p, now);
      phase = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    if (pending_) throw std::logic_error(std::string(socket.name()) + ": BEGIN_REQ while one waits for END_REQ");
    pending_ = &p;  // withhold END_REQ: backpressure
    return tlm::TLM_ACCEPTED;
  }
  void b_transport(tlm::tlm_generic_payload&, sc_core::sc_time&) override {
    throw std::logic_error(std::string(socket.name()) + ": approximately-timed only");
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }

 private:
  sim::Clocked& owner_;
  tlm::tlm_generic_payload* pending_ = nullptr;
  sim::TimedQueue<tlm::tlm_generic_payload*> requests_;
  ArrivalFlag flag_;
};

}  // namespace irr::tlm_glue
