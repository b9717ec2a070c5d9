// SPDX-License-Identifier: Apache-2.0
// Pin-level SystemC wrapper of sync_fifo over either implementation, for standalone SystemC
// testbenches and waveform debugging (trace its ports with sc_trace). Outputs follow the RTL:
// push_ok/pop_ok combinationally from the inputs, the rest registered; state changes on the
// rising edge of clk.
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "models/blocks/sync_fifo.h"
#include "tlm_glue/block_transactor.h"

namespace irr::blocks {

class SyncFifoPins : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk, rst, push, pop;
  sc_core::sc_in<sc_dt::sc_uint<64>> push_data;
  sc_core::sc_out<bool> push_ok, pop_ok, rd_valid, full, empty;
  sc_core::sc_out<sc_dt::sc_uint<64>> rd_data;
  sc_core::sc_out<sc_dt::sc_uint<32>> count;

  SC_HAS_PROCESS(SyncFifoPins);
  SyncFifoPins(const sc_core::sc_module_name& name, std::unique_ptr<FifoBlock> block);
  // Traces every port under this module's name.
  void trace(sc_core::sc_trace_file* tf) const;

 private:
  FifoIn inputs() const;
  void drive(const FifoOut& o);
  void comb();
  void on_clock();
  std::unique_ptr<FifoBlock> block_;
  sc_core::sc_event state_changed_;
};

// push(data), pop() -> word, query() -> count, reset(): the table BlockTransactor serves.
std::vector<tlm_glue::Operation<FifoIn, FifoOut>> fifo_operations();

}  // namespace irr::blocks
