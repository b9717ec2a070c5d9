// SPDX-License-Identifier: Apache-2.0
#include "models/dac/queues.h"

#include <algorithm>
#include <stdexcept>

#include "sim/error.h"

namespace irr::dac {

using core::ptx::Instruction;
using core::ptx::OperandKind;
using core::ptx::Type;

const char* form_name(Form f) {
  switch (f) {
    case Form::data: return "data";
    case Form::addr: return "addr";
    case Form::pred: return "pred";
  }
  return "?";
}

namespace {

Form form_of(const std::string& name, const std::vector<std::string>& mods) {
  if (mods.size() == 1) {
    if (mods[0] == "data") return Form::data;
    if (mods[0] == "addr") return Form::addr;
    if (mods[0] == "pred") return Form::pred;
  }
  throw std::invalid_argument(name + " takes one of .data, .addr, .pred");
}

std::string hex(std::uint32_t m) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", m);
  return b;
}

}  // namespace

void add_dac_instructions(core::ptx::ExtensionRegistry& registry) {
  if (registry.find("enq")) return;
  core::ptx::Extension enq;
  enq.name = "enq";
  enq.unit = "dac";
  enq.route = "dac";
  enq.enable = "a kernel split by the DAC pass, run with its queues (docs/dac.md)";
  enq.decode = [](Instruction& in, const std::vector<std::string>& mods) {
    const Form f = form_of("enq", mods);
    if (in.ops.size() != 1) throw std::invalid_argument("enq takes one operand");
    const auto k = in.ops[0].kind;
    if (f == Form::pred ? k != OperandKind::reg : k != OperandKind::address)
      throw std::invalid_argument(f == Form::pred ? "enq.pred takes a predicate register" : "enq.data and enq.addr take an address [a]");
    in.ext_form = static_cast<std::uint8_t>(f);
    in.ext_defs = 0;
    in.type = f == Form::pred ? Type::pred : Type::u64;
  };
  registry.add(enq);
  core::ptx::Extension deq = enq;
  deq.name = "deq";
  deq.decode = [](Instruction& in, const std::vector<std::string>& mods) {
    const Form f = form_of("deq", mods);
    if (in.ops.size() != 1 || in.ops[0].kind != OperandKind::reg)
      throw std::invalid_argument("deq takes one destination register");
    in.ext_form = static_cast<std::uint8_t>(f);
    in.ext_defs = 1;
    in.type = f == Form::pred ? Type::pred : Type::u64;
  };
  registry.add(deq);
}

void Queues::enq(std::uint64_t cta, std::uint32_t warp, const Record& r) {
  Warp& w = warps_[{cta, warp}];
  (r.form == Form::pred ? w.predicate : w.address).push_back(r);
  const auto f = static_cast<std::size_t>(r.form);
  ++counts_.records[f];
  counts_.values[f] += static_cast<std::uint64_t>(__builtin_popcount(r.mask));
  counts_.peak = std::max<std::uint64_t>(counts_.peak, w.address.size() + w.predicate.size());
}

Queues::Record Queues::deq(std::uint64_t cta, std::uint32_t warp, Form form, std::uint32_t mask, std::uint32_t line) {
  auto it = warps_.find({cta, warp});
  std::deque<Record>* q = nullptr;
  if (it != warps_.end()) q = form == Form::pred ? &it->second.predicate : &it->second.address;
  const std::string what = std::string("deq.") + form_name(form) + " (line " + std::to_string(line) + ")";
  if (!q || q->empty())
    throw std::invalid_argument(what + ": the warp's " + (form == Form::pred ? "predicate" : "address") +
                                " queue is empty: the affine stream enqueued nothing for it");
  Record r = q->front();
  if (r.form != form)
    throw std::invalid_argument(what + " found the record of enq." + form_name(r.form) + " (line " +
                                std::to_string(r.line) + "): the streams disagree on the order");
  if (r.mask != mask)
    throw std::invalid_argument(what + " runs for lanes " + hex(mask) + " but enq." + form_name(r.form) + " (line " +
                                std::to_string(r.line) + ") enqueued for lanes " + hex(r.mask));
  q->pop_front();
  return r;
}

std::vector<Queues::Record> Queues::pending(std::uint64_t cta, std::uint32_t warp, Form form) const {
  auto it = warps_.find({cta, warp});
  if (it == warps_.end()) return {};
  const auto& q = form == Form::pred ? it->second.predicate : it->second.address;
  return {q.begin(), q.end()};
}

const Queues::Record* Queues::last(std::uint64_t cta, std::uint32_t warp, Form form) const {
  auto it = warps_.find({cta, warp});
  if (it == warps_.end()) return nullptr;
  const auto& q = form == Form::pred ? it->second.predicate : it->second.address;
  return q.empty() ? nullptr : &q.back();
}

void Queues::check_drained() const {
  for (const auto& [key, w] : warps_) {
    if (w.address.empty() && w.predicate.empty()) continue;
    const Record& r = w.address.empty() ? w.predicate.front() : w.address.front();
    throw Error("DAC: warp " + std::to_string(key.second) + " of CTA " + std::to_string(key.first) + " left " +
                std::to_string(w.address.size()) + " address and " + std::to_string(w.predicate.size()) +
                " predicate records undequeued (the first from enq." + form_name(r.form) + ", line " +
                std::to_string(r.line) + ")");
  }
}

void Queues::clear() {
  warps_.clear();
  counts_ = {};
}

void bind(core::ptx::ExtensionRegistry& registry, Queues& queues) {
  add_dac_instructions(registry);
  registry.at(registry.index_of("enq")).execute = [&queues](core::ptx::ExtensionCall& c) {
    const Instruction& in = c.instruction();
    Queues::Record r;
    r.form = static_cast<Form>(in.ext_form);
    r.mask = c.active();
    r.line = in.ptx_line;
    for (unsigned l = 0; l < 32; ++l) r.value[l] = r.mask >> l & 1 ? c.read(0, l) : 0;
    queues.enq(c.cta(), c.warp(), r);
  };
  registry.at(registry.index_of("deq")).execute = [&queues](core::ptx::ExtensionCall& c) {
    const Instruction& in = c.instruction();
    const Queues::Record r = queues.deq(c.cta(), c.warp(), static_cast<Form>(in.ext_form), c.active(), in.ptx_line);
    for (unsigned l = 0; l < 32; ++l)
      if (r.mask >> l & 1) c.write(0, l, r.value[l]);
  };
}

}  // namespace irr::dac
