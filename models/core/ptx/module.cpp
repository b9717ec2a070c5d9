// SPDX-License-Identifier: Apache-2.0
#include "models/core/ptx/module.h"

#include <algorithm>

namespace irr::core::ptx {

const char* type_name(Type t) {
  static const char* const names[] = {"none", "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64",
                                      "s8", "s16", "s32", "s64", "f16", "f32", "f64", "pred"};
  return names[static_cast<int>(t)];
}

const char* op_name(Op op) {
  static const char* const names[] = {
      "mov", "ld", "ldu", "st", "cvta", "cvt", "add", "sub", "mul", "mad", "div", "rem", "min", "max", "abs", "neg",
      "and", "or", "xor", "not", "cnot", "shl", "shr", "popc", "clz", "brev", "bfind", "bfe", "bfi", "prmt", "setp",
      "selp", "set", "bra", "ret", "exit", "bar", "membar", "fence", "atom", "red", "activemask", "vote", "shfl",
      "match", "redux", "fma", "rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "call", "copysign", "testp",
      "shf", "bar.warp", "nanosleep", "bmsk", "szext", "prefetch", "elect", "cp.async", "cp.async.bulk",
      "cp.async.commit_group", "cp.async.wait_group", "mbarrier", "extension"};
  return names[static_cast<int>(op)];
}

const Function* Module::find(const std::string& name) const {
  for (const auto& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

std::vector<const Function*> Module::kernels() const {
  std::vector<const Function*> k;
  for (const auto& f : functions)
    if (f.kernel) k.push_back(&f);
  return k;
}

std::string Module::unsupported_from(const Function& f) const {
  std::vector<const Function*> todo{&f}, seen;
  while (!todo.empty()) {
    const Function* g = todo.back();
    todo.pop_back();
    if (std::find(seen.begin(), seen.end(), g) != seen.end()) continue;
    seen.push_back(g);
    if (!g->unsupported.empty()) return g->unsupported;
    for (const auto& in : g->code)
      if (in.op == Op::call && !in.indirect && in.target < functions.size()) todo.push_back(&functions[in.target]);
  }
  return {};
}

}  // namespace irr::core::ptx
