// SPDX-License-Identifier: Apache-2.0
// The step interface of an RTL island: a block that a SystemC model and Verilated RTL both
// implement, so a unit picks `impl: model | rtl` and steps it only on cycles with work.
//
// A cycle is: present the inputs, read the outputs (registered state as of the start of the
// cycle, and combinational outputs of these inputs), then the clock edge updates the state.
// eval() is the first half and may be called again with other inputs before edge(); edge() takes
// the inputs of the last eval(). step() is one whole cycle.
#pragma once

namespace irr::sim {

template <typename In, typename Out>
class StepBlock {
 public:
  using Inputs = In;
  using Outputs = Out;
  virtual ~StepBlock() = default;
  virtual Out eval(const In& in) = 0;
  virtual void edge() = 0;
  Out step(const In& in) {
    Out out = eval(in);
    edge();
    return out;
  }
};

}  // namespace irr::sim
