// SPDX-License-Identifier: Apache-2.0
// Puts a block that is not memory-mapped (a queue, a hash, a worklist bank) behind a TLM-2.0
// target socket. A transaction names one operation of the block's declared operation table in a
// BlockOp extension (push, pop, query, ...); the transactor presents the operation's inputs until
// the block accepts it, waits the operation's latency, returns the result, and gives up with
// TLM_GENERIC_ERROR_RESPONSE after `hang_cycles` (a hang timeout). The block is stepped only while
// an operation is in progress, one step per clock period.
#pragma once

#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <functional>
#include <string>
#include <systemc>
#include <vector>

#include "sim/step_block.h"

namespace irr::tlm_glue {

// The operation a transaction asks for, its argument and (on return) its result.
class BlockOp : public tlm::tlm_extension<BlockOp> {
 public:
  BlockOp() = default;
  BlockOp(std::string op, std::uint64_t arg = 0) : op(std::move(op)), arg(arg) {}
  tlm::tlm_extension_base* clone() const override { return new BlockOp(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override { *this = static_cast<const BlockOp&>(other); }

  std::string op;
  std::uint64_t arg = 0;
  std::uint64_t result = 0;
  std::uint64_t cycles = 0;  // block cycles the operation took
};

template <typename In, typename Out>
struct Operation {
  std::string name;
  std::function<In(std::uint64_t arg)> inputs;       // presented until accepted
  std::function<bool(const Out&)> accepted;          // the block took it this cycle
  unsigned latency = 0;                              // cycles from acceptance to the result
  std::function<std::uint64_t(const Out&)> result;   // read `latency` cycles after acceptance
};

template <typename In, typename Out>
class BlockTransactor : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<BlockTransactor> socket;

  BlockTransactor(const sc_core::sc_module_name& name, sim::StepBlock<In, Out>& block,
                  std::vector<Operation<In, Out>> operations, sc_core::sc_time period, std::uint64_t hang_cycles)
      : sc_core::sc_module(name), socket("socket"), block_(block), ops_(std::move(operations)), period_(period),
        hang_cycles_(hang_cycles) {
    socket.register_b_transport(this, &BlockTransactor::b_transport);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    BlockOp* ext = p.template get_extension<BlockOp>();
    const Operation<In, Out>* op = nullptr;
    for (const auto& o : ops_)
      if (ext && o.name == ext->op) op = &o;
    if (!op) {
      p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      SC_REPORT_WARNING("irrgpu/transactor", (std::string(name()) + ": no operation '" + (ext ? ext->op : "") +
                                              "' in the block's table").c_str());
      return;
    }
    wait(delay);
    delay = sc_core::SC_ZERO_TIME;
    // Start on the next clock edge of this block's clock.
    const sc_core::sc_time phase = sc_core::sc_time_stamp() % period_;
    if (phase != sc_core::SC_ZERO_TIME) wait(period_ - phase);
    ext->cycles = 0;
    Out out;
    for (;;) {
      out = block_.step(op->inputs(ext->arg));
      ++ext->cycles;
      wait(period_);
      if (op->accepted(out)) break;
      if (ext->cycles >= hang_cycles_) {
        p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        SC_REPORT_WARNING("irrgpu/transactor", (std::string(name()) + ": operation '" + op->name + "' not accepted in " +
                                                std::to_string(hang_cycles_) + " cycles (hang timeout)").c_str());
        return;
      }
    }
    for (unsigned i = 0; i < op->latency; ++i) {
      out = block_.step(In{});
      ++ext->cycles;
      wait(period_);
    }
    if (op->result) ext->result = op->result(out);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  sim::StepBlock<In, Out>& block_;
  std::vector<Operation<In, Out>> ops_;
  sc_core::sc_time period_;
  std::uint64_t hang_cycles_;
};

}  // namespace irr::tlm_glue
