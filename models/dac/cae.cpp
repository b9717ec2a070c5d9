// SPDX-License-Identifier: Apache-2.0
#include "models/dac/cae.h"

#include <stdexcept>

#include "models/core/exec/values.h"

namespace irr::dac {

using core::ptx::Op;
using core::ptx::OperandKind;

Cae::Cae(sim::Simulation& sim, const sc_core::sc_object& sm)
    : executed_(sim.counter(sm, "cae.affine_instructions", "warp instructions the affine unit executed instead of the SIMT lanes", "instructions")),
      candidates_(sim.counter(sm, "cae.candidates", "integer add/sub/mul/mad/shl/mov/cvt warp instructions issued (what could be affine)", "instructions")),
      affine_writes_(sim.counter(sm, "cae.affine_writes", "register writes of a whole warp whose values are affine (or uniform)", "writes")),
      executed_probe_(sim.probe(sm, "cae.executed", 16, "warp instructions the affine unit executed so far, modulo 2^16")) {}

void Cae::accept(const core::UnitOp&, core::SmPort&) { throw std::logic_error("cae: it has no instructions to accept"); }

namespace {

// The kinds of instruction the affine unit can execute.
bool affine_kind(Op op) {
  return op == Op::mov || op == Op::cvt || op == Op::cvta || op == Op::add || op == Op::sub || op == Op::mul ||
         op == Op::mad || op == Op::shl;
}

}  // namespace

Cae::Value Cae::classify(const std::uint64_t* v, std::uint32_t mask, unsigned bits) {
  if (mask != ~0u) return Value::vector;
  const std::uint64_t m = core::low_bits(bits);
  const std::uint64_t stride = (v[1] - v[0]) & m;
  for (unsigned l = 2; l < 32; ++l)
    if (((v[l] - v[0]) & m) != ((stride * l) & m)) return Value::vector;
  return stride == 0 ? Value::uniform : Value::affine;
}

bool Cae::eligible(const core::ptx::Instruction& in, const std::vector<Value>& s) {
  if (core::ptx::is_float(in.type) || (in.op == Op::cvt && core::ptx::is_float(in.type2))) return false;
  for (const Value v : s)
    if (v == Value::vector) return false;
  auto uniform = [&](std::size_t i) { return i < s.size() && s[i] == Value::uniform; };
  switch (in.op) {
    case Op::mul: case Op::mad:  // the single offset ALU: (b + l*s) * c only when c is uniform
      return in.mode != core::ptx::Mode::hi && (uniform(0) || uniform(1));
    case Op::shl:
      return uniform(1);
    default:
      return affine_kind(in.op);
  }
}

Cae::Value Cae::state(std::uint32_t warp, std::uint32_t reg) const {
  if (warp >= regs_.size() || reg >= regs_[warp].size()) return Value::vector;
  return regs_[warp][reg];
}

core::SmUnit::Take Cae::issued(const core::UnitOp& op, const core::Step& step, const core::Warp&, core::SmPort&) {
  const auto& in = *op.instruction;
  // The destination's width: a .wide product is twice its sources'.
  const unsigned bits = core::ptx::type_bits(in.type) * (in.mode == core::ptx::Mode::wide ? 2 : 1);
  Take take = Take::no;
  const bool candidate = affine_kind(in.op) && !core::ptx::is_float(in.type) && step.writes.size() == 1;
  if (candidate) {
    ++candidates_;
    sources_.clear();
    bool known = step.active == ~0u;
    for (std::size_t i = 1; i < in.ops.size() && known; ++i) {
      const auto& o = in.ops[i];
      if (o.kind == OperandKind::reg) sources_.push_back(state(op.warp, o.reg));
      else if (o.kind == OperandKind::imm || o.kind == OperandKind::symbol) sources_.push_back(Value::uniform);
      else if (o.kind == OperandKind::special) sources_.push_back(Value::affine);  // the result's values decide
      else known = false;
    }
    const auto& w = step.writes.front();
    if (known && eligible(in, sources_) && classify(w.value, w.mask, bits) != Value::vector) {
      ++executed_;
      executed_probe_.set(static_cast<std::uint64_t>(executed_.value()) & 0xffff);
      take = Take::execute;
    }
  }
  if (regs_.size() <= op.warp) regs_.resize(op.warp + 1);
  auto& regs = regs_[op.warp];
  for (const auto& w : step.writes) {
    if (regs.size() <= w.reg) regs.resize(w.reg + 1, Value::vector);
    // Predicates are masks, not values CAE tracks.
    regs[w.reg] = in.op == Op::setp || bits == 0 ? Value::vector : classify(w.value, w.mask, bits);
    if (regs[w.reg] != Value::vector) ++affine_writes_;
  }
  return take;
}

void Cae::warp_exit(std::uint32_t warp, core::SmPort&) {
  if (warp < regs_.size()) regs_[warp].clear();
}

}  // namespace irr::dac
