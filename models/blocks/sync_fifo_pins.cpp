// SPDX-License-Identifier: Apache-2.0
#include "models/blocks/sync_fifo_pins.h"

namespace irr::blocks {

SyncFifoPins::SyncFifoPins(const sc_core::sc_module_name& name, std::unique_ptr<FifoBlock> block)
    : sc_core::sc_module(name),
      clk("clk"), rst("rst"), push("push"), pop("pop"), push_data("push_data"), push_ok("push_ok"),
      pop_ok("pop_ok"), rd_valid("rd_valid"), full("full"), empty("empty"), rd_data("rd_data"), count("count"),
      block_(std::move(block)) {
  SC_METHOD(comb);
  sensitive << rst << push << pop << push_data << state_changed_;
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

FifoIn SyncFifoPins::inputs() const {
  return {rst.read(), push.read(), push_data.read().to_uint64(), pop.read()};
}

void SyncFifoPins::drive(const FifoOut& o) {
  push_ok.write(o.push_ok);
  pop_ok.write(o.pop_ok);
  rd_valid.write(o.rd_valid);
  rd_data.write(o.rd_data);
  count.write(o.count);
  full.write(o.full);
  empty.write(o.empty);
}

void SyncFifoPins::comb() { drive(block_->eval(inputs())); }

void SyncFifoPins::on_clock() {
  block_->eval(inputs());
  block_->edge();
  state_changed_.notify(sc_core::SC_ZERO_TIME);
}

void SyncFifoPins::trace(sc_core::sc_trace_file* tf) const {
  const std::string n = name();
  sc_core::sc_trace(tf, clk, n + ".clk");
  sc_core::sc_trace(tf, rst, n + ".rst");
  sc_core::sc_trace(tf, push, n + ".push");
  sc_core::sc_trace(tf, push_data, n + ".push_data");
  sc_core::sc_trace(tf, pop, n + ".pop");
  sc_core::sc_trace(tf, push_ok, n + ".push_ok");
  sc_core::sc_trace(tf, pop_ok, n + ".pop_ok");
  sc_core::sc_trace(tf, rd_valid, n + ".rd_valid");
  sc_core::sc_trace(tf, rd_data, n + ".rd_data");
  sc_core::sc_trace(tf, count, n + ".count");
  sc_core::sc_trace(tf, full, n + ".full");
  sc_core::sc_trace(tf, empty, n + ".empty");
}

std::vector<tlm_glue::Operation<FifoIn, FifoOut>> fifo_operations() {
  using Op = tlm_glue::Operation<FifoIn, FifoOut>;
  return {
      Op{"push", [](std::uint64_t d) { return FifoIn{false, true, d, false}; },
         [](const FifoOut& o) { return o.push_ok; }, 0, nullptr},
      Op{"pop", [](std::uint64_t) { return FifoIn{false, false, 0, true}; },
         [](const FifoOut& o) { return o.pop_ok; }, 1, [](const FifoOut& o) { return o.rd_data; }},
      Op{"query", [](std::uint64_t) { return FifoIn{}; }, [](const FifoOut&) { return true; }, 0,
         [](const FifoOut& o) { return std::uint64_t{o.count}; }},
      Op{"reset", [](std::uint64_t) { return FifoIn{true, false, 0, false}; }, [](const FifoOut&) { return true; }, 0,
         nullptr},
  };
}

}  // namespace irr::blocks
