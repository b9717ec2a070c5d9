// SPDX-License-Identifier: Apache-2.0
// The PTX parser: what nvcc 12/13 emits for sm_75 on ordinary kernels, with and without
// -lineinfo. Anything it does not support is an irr::Error "file:line:col: unsupported ..." —
// never executed wrongly. Units add instructions through the ExtensionRegistry without touching
// the parser.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "models/core/ptx/module.h"

namespace irr::core::ptx {

// What an extension instruction's semantics see when a warp executes it.
class ExtensionCall {
 public:
  virtual ~ExtensionCall() = default;
  virtual const Instruction& instruction() const = 0;
  virtual std::uint32_t active() const = 0;  // lanes executing it
  // As the instruction's type; an address operand ([%rd+8]) reads as the address it names.
  virtual std::uint64_t read(std::size_t operand, unsigned lane) = 0;
  virtual void write(std::size_t operand, unsigned lane, std::uint64_t value) = 0;
  virtual std::uint32_t warp() const = 0;  // warp index within its CTA
  virtual std::uint32_t slot() const = 0;  // the warp's hardware slot on its SM (= warp() in functional mode)
  virtual std::uint64_t cta() const = 0;   // linear CTA index
  virtual std::uint32_t sm() const = 0;    // the SM running the warp (0 in functional mode)
  virtual const std::string& kernel() const = 0;  // the kernel's name, for errors
};

// An instruction a unit adds (written in CUDA as asm volatile("wlpull.b32 %0;" : "=r"(x) :: "memory")).
struct Extension {
  std::string name;  // base opcode, e.g. "wlpull"
  std::string unit;  // the unit that implements it, for "needs unit X enabled" errors
  // Checks the modifiers (the parts after the base opcode) and operands of one use; throws
  // std::invalid_argument with the reason when they are wrong. May set the instruction's type.
  std::function<void(Instruction&, const std::vector<std::string>& modifiers)> decode;
  // Functional semantics; empty while the unit is not enabled, and executing the instruction is
  // then an error "needs unit X enabled".
  std::function<void(ExtensionCall&)> execute = {};
  std::string route = {};  // the timing core's route for it (the unit port it goes to)
  std::string enable = {};  // how a user enables the unit, for the error (e.g. "iru.enabled: true")
  // Part of the instruction after it in the ISA the unit stands for (DAC's deq is the operand of a
  // load: `ld.global r, deq.data`): the timing core counts it but it takes no issue slot.
  bool folded = false;
};

class ExtensionRegistry {
 public:
  std::uint16_t add(Extension e);
  const Extension* find(const std::string& name) const;
  std::uint16_t index_of(const std::string& name) const;  // std::logic_error when it is not registered
  const Extension& at(std::uint16_t index) const { return extensions_.at(index); }
  Extension& at(std::uint16_t index) { return extensions_.at(index); }
  std::size_t size() const { return extensions_.size(); }

 private:
  std::vector<Extension> extensions_;
};

// Parses PTX text; `file` names it in errors.
// per_function_errors: an error inside a function's body (an instruction not supported, most
// often) is kept as that function's `unsupported` instead of refusing the module, so that an
// application's other kernels still run (a CUDA program's module); errors outside bodies refuse it.
Module parse(const std::string& text, const std::string& file, const ExtensionRegistry* extensions = nullptr,
             bool per_function_errors = false);
Module parse_file(const std::string& path, const ExtensionRegistry* extensions = nullptr);

}  // namespace irr::core::ptx
