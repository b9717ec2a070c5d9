// SPDX-License-Identifier: Apache-2.0
// sync_fifo in SystemC: the pin-level wrapper under a clocked testbench (with a VCD of its
// ports), and the TLM transactor serving push/pop/query with its hang timeout; each over the
// model and over the RTL.
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>

#include "models/blocks/sync_fifo_pins.h"
#include "testbenches/common/testing.h"

using namespace irr;
using namespace irr::blocks;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

std::unique_ptr<FifoBlock> make(const std::string& impl) { return make_fifo(impl, {8, 16}, 5); }

struct PinBench : sc_core::sc_module {
  sc_core::sc_clock clk{"clk", sc_time(1, SC_NS)};
  sc_core::sc_signal<bool> rst{"rst"}, push{"push"}, pop{"pop"}, push_ok{"push_ok"}, pop_ok{"pop_ok"},
      rd_valid{"rd_valid"}, full{"full"}, empty{"empty"};
  sc_core::sc_signal<sc_dt::sc_uint<64>> push_data{"push_data"}, rd_data{"rd_data"};
  sc_core::sc_signal<sc_dt::sc_uint<32>> count{"count"};
  SyncFifoPins dut;
  struct Seen {
    std::string oks;  // push_ok pop_ok rd_valid
    std::uint64_t rd_data;
    std::uint32_t count;
  };
  std::vector<Seen> log;

  SC_HAS_PROCESS(PinBench);
  PinBench(const sc_core::sc_module_name& n, std::unique_ptr<FifoBlock> block) : sc_core::sc_module(n), dut("sync_fifo", std::move(block)) {
    dut.clk(clk);
    dut.rst(rst);
    dut.push(push);
    dut.pop(pop);
    dut.push_data(push_data);
    dut.push_ok(push_ok);
    dut.pop_ok(pop_ok);
    dut.rd_valid(rd_valid);
    dut.rd_data(rd_data);
    dut.count(count);
    dut.full(full);
    dut.empty(empty);
    SC_THREAD(drive);
  }
  // Inputs change on the falling edge; outputs are sampled just before the next rising edge.
  void cycle(bool r, bool pu, std::uint64_t d, bool po) {
    wait(clk.negedge_event());
    rst = r;
    push = pu;
    push_data = d;
    pop = po;
    wait(sc_time(400, sc_core::SC_PS));
    log.push_back({std::to_string(push_ok.read()) + std::to_string(pop_ok.read()) + std::to_string(rd_valid.read()),
                   rd_data.read().to_uint64(), count.read().to_uint()});
  }
  void drive() {
    cycle(true, false, 0, false);
    cycle(false, true, 11, false);
    cycle(false, true, 22, false);
    cycle(false, true, 33, true);   // partly full: the pop wins
    cycle(false, false, 0, false);  // 11 appears
    cycle(false, false, 0, true);
    cycle(false, false, 0, false);  // 22 appears
    sc_core::sc_stop();
  }
};

void pins(const std::string& impl) {
  irr::testing::TempDir d;
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  PinBench tb("tb", make(impl));
  sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file((d.path() + "/fifo").c_str());
  tb.dut.trace(tf);
  sc_core::sc_start();
  sc_core::sc_close_vcd_trace_file(tf);
  // Cycle by cycle after the reset: accepts, then rd_data where it is defined (rd_valid, or held
  // after a read), then count.
  ASSERT_EQ(tb.log.size(), 7u);
  const std::vector<std::string> oks = {"100", "100", "010", "001", "010", "001"};
  const std::vector<std::uint32_t> counts = {0, 1, 2, 1, 1, 0};
  for (std::size_t c = 1; c < 7; ++c) {
    EXPECT_EQ(tb.log[c].oks, oks[c - 1]) << "cycle " << c;
    EXPECT_EQ(tb.log[c].count, counts[c - 1]) << "cycle " << c;
  }
  EXPECT_EQ(tb.log[4].rd_data, 11u);
  EXPECT_EQ(tb.log[5].rd_data, 11u);  // held
  EXPECT_EQ(tb.log[6].rd_data, 22u);
  std::string vcd = irr::testing::read_file(d.path() + "/fifo.vcd");
  EXPECT_NE(vcd.find("push_ok"), std::string::npos);
  EXPECT_NE(vcd.find("rd_data"), std::string::npos);
}

}  // namespace

TEST(SyncFifoPins, ModelUnderAClockedTestbench) { pins("model"); }
TEST(SyncFifoPins, RtlUnderAClockedTestbench) { pins("rtl"); }

namespace {

struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
  std::vector<std::string> log;
  SC_HAS_PROCESS(Initiator);
  explicit Initiator(const sc_core::sc_module_name& n) : sc_core::sc_module(n) { SC_THREAD(run); }
  std::string call(const std::string& op, std::uint64_t arg = 0) {
    tlm::tlm_generic_payload p;
    tlm_glue::BlockOp ext(op, arg);
    p.set_extension(&ext);
    sc_time delay = sc_core::SC_ZERO_TIME;
    const sc_time t0 = sc_core::sc_time_stamp();
    socket->b_transport(p, delay);
    p.clear_extension(&ext);
    return op + "=" + std::to_string(ext.result) + (p.is_response_ok() ? "" : " ERROR") + " in " +
           std::to_string(ext.cycles) + " cycles, " + (sc_core::sc_time_stamp() - t0).to_string();
  }
  void run() {
    log.push_back(call("reset"));
    for (std::uint64_t v = 1; v <= 8; ++v) call("push", v);
    log.push_back(call("query"));
    log.push_back(call("push", 9));  // full, nobody pops: the hang timeout
    log.push_back(call("pop"));
    log.push_back(call("pop"));
    log.push_back(call("frobnicate"));
  }
};

void transactor(const std::string& impl) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  auto block = make(impl);
  tlm_glue::BlockTransactor<FifoIn, FifoOut> t("fifo", *block, fifo_operations(), sc_time(1, SC_NS), 20);
  Initiator i("initiator");
  i.socket.bind(t.socket);
  sc_core::sc_start();
  EXPECT_EQ(i.log, (std::vector<std::string>{
                       "reset=0 in 1 cycles, 1 ns",
                       "query=8 in 1 cycles, 1 ns",
                       "push=0 ERROR in 20 cycles, 20 ns",
                       "pop=1 in 2 cycles, 2 ns",  // accepted, then the read latency of one cycle
                       "pop=2 in 2 cycles, 2 ns",
                       "frobnicate=0 ERROR in 0 cycles, 0 s",
                   }));
}

}  // namespace

TEST(SyncFifoTransactor, ServesTheOperationTableOverTheModel) { transactor("model"); }
TEST(SyncFifoTransactor, ServesTheOperationTableOverTheRtl) { transactor("rtl"); }
