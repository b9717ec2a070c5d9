// SPDX-License-Identifier: Apache-2.0
#include "models/core/ptx/resources.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sim/bitmap.h"
#include "sim/error.h"

namespace irr::core::ptx {
// Registers an instruction writes (defs) and reads (uses).
std::size_t destinations(const Instruction& in) {
  switch (in.op) {
    case Op::st: case Op::red: case Op::bra: case Op::ret: case Op::exit: case Op::bar: case Op::membar:
    case Op::fence: case Op::call: case Op::warpsync: case Op::nanosleep: case Op::prefetch:
    case Op::cp_async: case Op::cp_async_bulk: case Op::cp_async_commit: case Op::cp_async_wait:
      return 0;
    case Op::mbarrier:
      return in.mode == Mode::mb_arrive || in.mode == Mode::mb_arrive_drop || in.mode == Mode::mb_wait ||
                     in.mode == Mode::mb_pending_count
                 ? 1
                 : 0;
    case Op::elect: return 2;
    case Op::setp:
      return in.ops.size() >= 2 && in.ops[1].kind == OperandKind::reg && in.ops.size() == 4u + (in.boolop != BoolOp::none)
                 ? 2
                 : 1;
    case Op::shfl: return in.ops.size() == 6 ? 2 : 1;
    case Op::extension: return in.ext_defs;
    default: return 1;
  }
}

void defs_uses(const Instruction& in, std::vector<std::uint32_t>& defs, std::vector<std::uint32_t>& uses) {
  defs.clear();
  uses.clear();
  if (in.guarded) uses.push_back(in.guard);
  auto regs_of = [](const Operand& o, std::vector<std::uint32_t>& into) {
    if (o.kind == OperandKind::reg) into.push_back(o.reg);
    if (o.kind == OperandKind::address && o.based) into.push_back(o.reg);
    if (o.kind == OperandKind::vector)
      for (auto r : o.regs)
        if (r != ~0u) into.push_back(r);
  };
  const std::size_t ndefs = destinations(in);
  for (std::size_t i = 0; i < in.ops.size(); ++i) {
    const Operand& o = in.ops[i];
    if (i < ndefs && o.kind != OperandKind::address) regs_of(o, defs);
    else regs_of(o, uses);
  }
  if (in.carry_in) uses.push_back(in.carry_reg);
  if (in.carry_out) defs.push_back(in.carry_reg);
}

const std::vector<std::uint32_t>& touched_registers(const Instruction& in) {
  if (!in.touched.filled) {
    std::vector<std::uint32_t> defs, uses;
    defs_uses(in, defs, uses);
    in.touched.uses = static_cast<std::uint32_t>(uses.size());
    in.touched.regs = std::move(uses);
    in.touched.regs.insert(in.touched.regs.end(), defs.begin(), defs.end());
    in.touched.filled = true;
  }
  return in.touched.regs;
}

unsigned estimate_registers(const Function& f) {
  const std::size_t n = f.code.size(), regs = f.registers.size();
  if (!n) return 0;
  const std::size_t words = (regs + 63) / 64;
  std::vector<std::vector<std::uint64_t>> live_in(n + 1, std::vector<std::uint64_t>(words, 0));
  std::vector<std::uint32_t> defs, uses;
  auto succ = [&](std::size_t pc, std::vector<std::size_t>& s) {
    s.clear();
    const auto& in = f.code[pc];
    if (in.op == Op::ret || in.op == Op::exit) {
      if (in.guarded) s.push_back(pc + 1);
      return;
    }
    if (in.op == Op::bra) {
      s.push_back(in.target);
      if (in.guarded) s.push_back(pc + 1);
      return;
    }
    s.push_back(pc + 1);
  };
  std::vector<std::size_t> next;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t pc = n; pc-- > 0;) {
      std::vector<std::uint64_t> out(words, 0);
      succ(pc, next);
      for (std::size_t s : next)
        for (std::size_t w = 0; w < words; ++w) out[w] |= live_in[s][w];
      defs_uses(f.code[pc], defs, uses);
      for (auto d : defs) sim::clear_bit(out, d);
      for (auto u : uses) sim::set_bit(out, u);
      if (out != live_in[pc]) {
        live_in[pc] = std::move(out);
        changed = true;
      }
    }
  }
  unsigned best = 0;
  for (std::size_t pc = 0; pc < n; ++pc) {
    unsigned units = 0;
    for (std::size_t r = 0; r < regs; ++r)
      if (sim::test_bit(live_in[pc], r)) {
        const Type t = f.registers[r].type;
        if (t != Type::pred) units += type_bits(t) > 32 ? 2 : 1;
      }
    best = std::max(best, units);
  }
  return best;
}

Resources kernel_resources(const Module& m, const Function& k, const std::map<std::string, unsigned>& override_regs) {
  Resources r;
  r.shared_bytes = (m.shared_bytes + 15) / 16 * 16 + k.shared_bytes;
  r.local_bytes = k.local_bytes;
  if (auto it = override_regs.find(k.name); it != override_regs.end()) {
    r.registers = it->second;
    r.source = "config";
    return r;
  }
  std::filesystem::path meta = m.file;
  meta.replace_extension(".meta.json");
  if (std::filesystem::exists(meta)) {
    try {
      const auto j = nlohmann::json::parse(std::ifstream(meta));
      if (j.contains("kernels") && j["kernels"].contains(k.name)) {
        const auto& e = j["kernels"][k.name];
        r.registers = e.at("registers").get<unsigned>();
        r.shared_bytes = e.at("shared_bytes").get<std::uint64_t>();
        r.local_bytes = e.at("local_bytes").get<std::uint64_t>();
        r.source = "ptxas";
        return r;
      }
    } catch (const std::exception& e) {
      throw Error({meta.string(), 0, 0}, std::string("bad kernel metadata: ") + e.what(), Error::Kind::config);
    }
  }
  r.registers = estimate_registers(k);
  r.source = "estimate";
  return r;
}

}  // namespace irr::core::ptx
