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

// An instruction a unit adds (written in CUDA as asm volatile("wlpull.b32 %0;" : "=r"(x) :: "memory")).
struct Extension {
  std::string name;  // base opcode, e.g. "wlpull"
  std::string unit;  // the unit that implements it, for "needs unit X enabled" errors
  // Checks the modifiers (the parts after the base opcode) and operands of one use; throws
  // std::invalid_argument with the reason when they are wrong. May set the instruction's type.
  std::function<void(Instruction&, const std::vector<std::string>& modifiers)> decode;
};

class ExtensionRegistry {
 public:
  std::uint16_t add(Extension e);
  const Extension* find(const std::string& name) const;
  const Extension& at(std::uint16_t index) const { return extensions_.at(index); }
  std::size_t size() const { return extensions_.size(); }

 private:
  std::vector<Extension> extensions_;
};

// Parses PTX text; `file` names it in errors.
Module parse(const std::string& text, const std::string& file, const ExtensionRegistry* extensions = nullptr);
Module parse_file(const std::string& path, const ExtensionRegistry* extensions = nullptr);

}  // namespace irr::core::ptx
