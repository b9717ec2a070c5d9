// SPDX-License-Identifier: Apache-2.0
// A kernel's resource use for occupancy: registers per thread, static shared and local memory.
// From the metadata written when the PTX was generated (NAME.meta.json beside NAME.ptx: what
// `ptxas -v` reported), or, for PTX ptxas refuses (extension instructions), an estimate: the most
// 32-bit register units live at once (predicates excluded), from a liveness analysis of the PTX.
// The estimate ignores ptxas's own temporaries and scheduling: near, not equal to, what it allocates.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "models/core/ptx/module.h"

namespace irr::core::ptx {

struct Resources {
  unsigned registers = 0;
  std::uint64_t shared_bytes = 0, local_bytes = 0;
  std::string source;  // "ptxas" or "estimate"
};

unsigned estimate_registers(const Function& f);
// How many leading operands an instruction writes (setp's `p|q`, shfl's predicate, an extension's own count).
std::size_t destinations(const Instruction& in);
// The registers an instruction writes (defs) and reads (uses, guard included).
void defs_uses(const Instruction& in, std::vector<std::uint32_t>& defs, std::vector<std::uint32_t>& uses);
// Every register in uses then defs, computed on the first call for this instruction and kept in it
// (in.touched.uses says where the defs start).
const std::vector<std::uint32_t>& touched_registers(const Instruction& in);
// A configured register count (core.kernel_registers) wins; else `<ptx path without
// .ptx>.meta.json` when it exists and names the kernel; else the estimate.
Resources kernel_resources(const Module& m, const Function& kernel,
                           const std::map<std::string, unsigned>& registers_override = {});

}  // namespace irr::core::ptx
