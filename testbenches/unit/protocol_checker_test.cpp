// SPDX-License-Identifier: Apache-2.0
// The TLM-2.0 base-protocol checker: a transaction that keeps the rules passes through unchanged,
// and each rule broken by a scripted initiator or target is caught, naming the rule.
#include <gtest/gtest.h>

#include <functional>

#include "tlm_glue/gpu_payload.h"
#include "tlm_glue/protocol_checker.h"

using namespace irr;
using tlm_glue::ProtocolChecker;

namespace {

// An initiator and a target that do what each test tells them, joined through a checker.
struct Initiator : sc_core::sc_module, tlm::tlm_bw_transport_if<> {
  tlm::tlm_initiator_socket<> socket{"socket"};
  tlm::tlm_sync_enum on_response = tlm::TLM_COMPLETED;  // what it answers to BEGIN_RESP
  explicit Initiator(sc_core::sc_module_name n) : sc_module(n) { socket.bind(*this); }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& phase, sc_core::sc_time&) override {
    return phase == tlm::BEGIN_RESP ? on_response : tlm::TLM_ACCEPTED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
};

struct Target : sc_core::sc_module, tlm::tlm_fw_transport_if<> {
  tlm::tlm_target_socket<> socket{"socket"};
  // What it does with a forward call (default: accepts a request, completes an END_RESP).
  std::function<tlm::tlm_sync_enum(tlm::tlm_generic_payload&, tlm::tlm_phase&)> on_forward =
      [](tlm::tlm_generic_payload&, tlm::tlm_phase& phase) { return phase == tlm::END_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED; };
  explicit Target(sc_core::sc_module_name n) : sc_module(n) { socket.bind(*this); }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time&) override {
    return on_forward(p, phase);
  }
  void b_transport(tlm::tlm_generic_payload&, sc_core::sc_time&) override {}
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
};

struct Hop {
  Initiator initiator{"initiator"};
  ProtocolChecker checker{"checker"};
  Target target{"target"};
  tlm_glue::PayloadPool pool;
  Hop() {
    initiator.socket.bind(checker.target_socket);
    checker.initiator_socket.bind(target.socket);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // ends elaboration: the sockets are bound
  }
  tlm::tlm_generic_payload& payload(std::uint64_t address) {
    auto& p = pool.allocate();
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_address(address);
    p.set_data_length(128);
    return p;
  }
  tlm::tlm_sync_enum forward(tlm::tlm_generic_payload& p, tlm::tlm_phase phase) {
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    return initiator.socket->nb_transport_fw(p, phase, t);
  }
  tlm::tlm_sync_enum backward(tlm::tlm_generic_payload& p, tlm::tlm_phase phase) {
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    return target.socket->nb_transport_bw(p, phase, t);
  }
  // A payload whose request the target has accepted (BEGIN_REQ, END_REQ).
  tlm::tlm_generic_payload& accepted(std::uint64_t address) {
    auto& p = payload(address);
    forward(p, tlm::BEGIN_REQ);
    backward(p, tlm::END_REQ);
    return p;
  }
  void respond(tlm::tlm_generic_payload& p) {
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    backward(p, tlm::BEGIN_RESP);
  }
};

// The checker's verdict on `step`: "" when it passed, else the message (which names the rule).
std::string violation(const std::function<void()>& step) {
  try {
    step();
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ProtocolChecker, TransactionsThatKeepTheRulesPassUnchanged) {
  Hop h;
  auto& a = h.payload(0x100);
  EXPECT_EQ(h.forward(a, tlm::BEGIN_REQ), tlm::TLM_ACCEPTED);
  EXPECT_EQ(h.backward(a, tlm::END_REQ), tlm::TLM_ACCEPTED);
  h.respond(a);  // the initiator completes it on BEGIN_RESP
  EXPECT_EQ(h.checker.transactions(), 1u);

  // All four phases: the initiator accepts BEGIN_RESP and sends END_RESP itself.
  h.initiator.on_response = tlm::TLM_ACCEPTED;
  auto& b = h.payload(0x200);
  h.forward(b, tlm::BEGIN_REQ);
  h.respond(b);  // BEGIN_RESP implies END_REQ
  EXPECT_EQ(h.forward(b, tlm::END_RESP), tlm::TLM_COMPLETED);
  EXPECT_EQ(h.checker.transactions(), 2u);

  // The target takes the request at once (TLM_UPDATED, END_REQ), and the payload is used again.
  h.target.on_forward = [](tlm::tlm_generic_payload&, tlm::tlm_phase& phase) {
    if (phase == tlm::END_RESP) return tlm::TLM_COMPLETED;
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  };
  h.initiator.on_response = tlm::TLM_COMPLETED;
  a.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  EXPECT_EQ(h.forward(a, tlm::BEGIN_REQ), tlm::TLM_UPDATED);
  h.respond(a);
  EXPECT_EQ(h.checker.transactions(), 3u);
  EXPECT_TRUE(h.checker.outstanding().empty());
  EXPECT_EQ(a.get_address(), 0x100u);  // passed through untouched
}

TEST(ProtocolChecker, BeginReqBeforeTheLastEndReqBreaksRequestExclusion) {
  Hop h;
  h.forward(h.payload(0x100), tlm::BEGIN_REQ);  // accepted, END_REQ withheld
  auto& b = h.payload(0x200);
  const std::string v = violation([&] { h.forward(b, tlm::BEGIN_REQ); });
  EXPECT_NE(v.find("request exclusion"), std::string::npos) << v;
  EXPECT_NE(v.find("15.2.6"), std::string::npos) << v;
  EXPECT_NE(v.find("checker"), std::string::npos) << v;  // names the hop
}

TEST(ProtocolChecker, PayloadReusedWhileInFlight) {
  Hop h;
  auto& a = h.accepted(0x100);
  const std::string v = violation([&] { h.forward(a, tlm::BEGIN_REQ); });
  EXPECT_NE(v.find("still in flight"), std::string::npos) << v;
}

TEST(ProtocolChecker, ResponseStatusMustBeIncompleteAtRequestAndSetAtResponse) {
  Hop h;
  auto& a = h.payload(0x100);
  a.set_response_status(tlm::TLM_OK_RESPONSE);
  EXPECT_NE(violation([&] { h.forward(a, tlm::BEGIN_REQ); }).find("14.17"), std::string::npos);

  auto& b = h.accepted(0x200);
  const std::string v = violation([&] { h.backward(b, tlm::BEGIN_RESP); });  // status not set
  EXPECT_NE(v.find("TLM_INCOMPLETE_RESPONSE"), std::string::npos) << v;
}

TEST(ProtocolChecker, PhasesOutOfOrderOrOnTheWrongPath) {
  Hop h;
  auto& a = h.payload(0x100);
  EXPECT_NE(violation([&] { h.backward(a, tlm::END_REQ); }).find("not in flight"), std::string::npos);
  h.forward(a, tlm::BEGIN_REQ);
  EXPECT_NE(violation([&] { h.forward(a, tlm::END_RESP); }).find("END_RESP after BEGIN_REQ"), std::string::npos);
  EXPECT_NE(violation([&] { h.forward(a, tlm::END_REQ); }).find("on the forward path"), std::string::npos);
  h.backward(a, tlm::END_REQ);
  EXPECT_NE(violation([&] { h.backward(a, tlm::END_REQ); }).find("END_REQ after END_REQ"), std::string::npos);
}

TEST(ProtocolChecker, BeginRespBeforeTheLastEndRespBreaksResponseExclusion) {
  Hop h;
  h.initiator.on_response = tlm::TLM_ACCEPTED;  // responses stay open until END_RESP
  auto& a = h.accepted(0x100);
  auto& b = h.accepted(0x200);
  h.respond(a);
  b.set_response_status(tlm::TLM_OK_RESPONSE);
  const std::string v = violation([&] { h.backward(b, tlm::BEGIN_RESP); });
  EXPECT_NE(v.find("response exclusion"), std::string::npos) << v;
}

TEST(ProtocolChecker, TargetMayNotChangeTheAddress) {
  Hop h;
  auto& a = h.accepted(0x100);
  a.set_address(0x180);
  a.set_response_status(tlm::TLM_OK_RESPONSE);
  const std::string v = violation([&] { h.backward(a, tlm::BEGIN_RESP); });
  EXPECT_NE(v.find("14.7"), std::string::npos) << v;
}

TEST(ProtocolChecker, PayloadWithoutMemoryManager) {
  Hop h;
  tlm::tlm_generic_payload p;  // not from a pool
  const std::string v = violation([&] { h.forward(p, tlm::BEGIN_REQ); });
  EXPECT_NE(v.find("memory manager"), std::string::npos) << v;
}

TEST(ProtocolChecker, ReportsWhatIsStillInFlight) {
  Hop h;
  h.accepted(0x100);
  const auto lines = h.checker.outstanding();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("1 transactions in flight"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("END_REQ"), std::string::npos) << lines[0];
}
