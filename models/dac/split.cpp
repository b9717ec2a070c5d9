// SPDX-License-Identifier: Apache-2.0
#include "models/dac/split.h"

#include <iomanip>
#include <map>
#include <ostream>
#include <regex>

#include "models/core/ptx/resources.h"
#include "models/dac/queues.h"

namespace irr::dac {

using core::ptx::Function;
using core::ptx::Instruction;
using core::ptx::Op;
using core::ptx::Operand;
using core::ptx::OperandKind;
using core::ptx::Space;
using core::ptx::Type;

std::string affine_name(const std::string& kernel) { return kernel + "_dac_affine"; }
std::string non_affine_name(const std::string& kernel) { return kernel + "_dac_dp"; }

namespace {

// A stream under construction: instructions with their origin, then branch targets (original
// pcs until finish()) mapped to the first instruction emitted at or after them.
class Stream {
 public:
  Stream(const Function& k, const std::string& name) : k_(k), f_(k) {
    f_.name = name;
    f_.code.clear();
    f_.labels.clear();
    first_.assign(k.code.size() + 1, 0);
  }
  void at(std::uint32_t pc) {  // instructions emitted from here on come from original pc
    for (std::uint32_t p = next_; p <= pc; ++p) first_[p] = static_cast<std::uint32_t>(f_.code.size());
    next_ = pc + 1;
    pc_ = pc;
  }
  void emit(Instruction in, Line::Kind kind) {
    in.ptx_line = k_.code[pc_].ptx_line;
    in.loc = k_.code[pc_].loc;
    f_.code.push_back(std::move(in));
    lines_.push_back({pc_, kind});
  }
  std::uint32_t reg(const std::string& prefix, Type t) {
    const auto r = static_cast<std::uint32_t>(f_.registers.size());
    f_.registers.push_back({prefix + std::to_string(r), t});
    return r;
  }
  // Branch targets to the new pcs; then dead pure code removed (ADCE: from every instruction with
  // an effect, the definitions of what it reads, transitively, by register).
  void finish(Function& out, std::vector<Line>& lines) {
    at(static_cast<std::uint32_t>(k_.code.size()));
    for (auto& in : f_.code)
      if (in.op == Op::bra) in.target = first_[in.target];
    const std::size_t n = f_.code.size();
    std::vector<bool> live(n, false), reg_live(f_.registers.size(), false);
    std::vector<std::vector<std::uint32_t>> defs_of(f_.registers.size());
    std::vector<std::uint32_t> defs, uses, work;
    for (std::uint32_t i = 0; i < n; ++i) {
      core::ptx::defs_uses(f_.code[i], defs, uses);
      for (auto r : defs) defs_of[r].push_back(i);
      if (!pure(f_.code[i])) work.push_back(i);
    }
    for (auto i : work) live[i] = true;
    while (!work.empty()) {
      const std::uint32_t i = work.back();
      work.pop_back();
      core::ptx::defs_uses(f_.code[i], defs, uses);
      for (auto r : uses) {
        if (reg_live[r]) continue;
        reg_live[r] = true;
        for (auto d : defs_of[r])
          if (!live[d]) live[d] = true, work.push_back(d);
      }
    }
    std::vector<std::uint32_t> index(n + 1);
    std::uint32_t kept = 0;
    for (std::uint32_t i = 0; i <= n; ++i) {
      index[i] = kept;
      if (i < n && live[i]) ++kept;
    }
    out = f_;
    out.code.clear();
    lines.clear();
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!live[i]) continue;
      out.code.push_back(f_.code[i]);
      if (out.code.back().op == Op::bra) out.code.back().target = index[out.code.back().target];
      lines.push_back(lines_[i]);
    }
    for (const auto& [name, pc] : k_.labels) out.labels[name] = index[first_[pc]];
  }

 private:
  const Function& k_;
  Function f_;
  std::vector<Line> lines_;
  std::vector<std::uint32_t> first_;
  std::uint32_t next_ = 0, pc_ = 0;
};

Instruction extension(std::uint16_t index, Form form, std::uint8_t defs, Operand op) {
  Instruction in;
  in.op = Op::extension;
  in.extension = index;
  in.ext_form = static_cast<std::uint8_t>(form);
  in.ext_defs = defs;
  in.type = form == Form::pred ? Type::pred : Type::u64;
  in.ops.push_back(std::move(op));
  return in;
}

Operand reg_operand(std::uint32_t r) {
  Operand o;
  o.kind = OperandKind::reg;
  o.reg = r;
  return o;
}

Instruction jump(std::uint32_t target, std::uint32_t end) {
  Instruction in;
  in.op = target >= end ? Op::ret : Op::bra;
  in.target = target;
  return in;
}

}  // namespace

Streams split(const Function& k, const core::ptx::ExtensionRegistry& registry, const Options& options) {
  Streams s;
  s.analysis = analyze(k, options);
  const Analysis& a = s.analysis;
  const std::uint16_t enq = registry.index_of("enq"), deq = registry.index_of("deq");
  const auto n = static_cast<std::uint32_t>(k.code.size());
  Summary& sum = s.summary;
  sum.original = n;

  // Blocks the affine stream does not run, and whether it can enter them other than by a jump.
  const core::Cfg& g = a.cfg;
  std::vector<bool> entered(g.start.size(), false);
  for (std::uint32_t b = 0; b < g.exit(); ++b) {
    if (a.skip_to[b] != ~0u || a.at[g.last(b)].action == Action::jump) continue;
    for (auto t : g.succ[b]) entered[t] = true;
  }

  Stream af(k, affine_name(k.name)), dp(k, non_affine_name(k.name));
  for (std::uint32_t pc = 0; pc < n; ++pc) {
    const Instruction& in = k.code[pc];
    const Info& info = a.at[pc];
    af.at(pc);
    dp.at(pc);
    const std::uint32_t b = g.block_of[pc];
    if (pc == g.start[b] && a.skip_to[b] != ~0u && entered[b]) af.emit(jump(a.skip_to[b], n), Line::Kind::added);
    const bool affine_block = a.skip_to[b] == ~0u;
    if ((in.op == Op::ld || in.op == Op::st) && in.space == Space::global) ++(in.op == Op::ld ? sum.loads : sum.stores);
    if (!info.reason.empty()) sum.not_decoupled.push_back({in.ptx_line, info.reason});
    switch (info.action) {
      case Action::none: dp.emit(in, Line::Kind::copy); break;
      case Action::compute:
        if (affine_block) af.emit(in, Line::Kind::copy);
        dp.emit(in, Line::Kind::copy);
        break;
      case Action::barrier:
        ++sum.barriers;
        af.emit(in, Line::Kind::copy);
        dp.emit(in, Line::Kind::copy);
        break;
      case Action::jump:
        af.emit(jump(a.post_dominator[pc], n), Line::Kind::added);
        dp.emit(in, Line::Kind::copy);
        break;
      case Action::control:
      case Action::enq_data:
      case Action::enq_addr: {
        Instruction d = in;
        if (in.guarded) {  // the predicate crosses over: enq.pred | deq.pred
          Operand p = reg_operand(in.guard);
          af.emit(extension(enq, Form::pred, 0, p), Line::Kind::added);
          d.guard = dp.reg("%dac_p", Type::pred);
          dp.emit(extension(deq, Form::pred, 1, reg_operand(d.guard)), Line::Kind::added);
          ++sum.predicates_decoupled;
        }
        if (info.action == Action::control) {
          af.emit(in, Line::Kind::copy);
          dp.emit(d, in.guarded ? Line::Kind::changed : Line::Kind::copy);
          break;
        }
        const bool load = info.action == Action::enq_data;
        const Form form = load ? Form::data : Form::addr;
        ++(load ? sum.loads_decoupled : sum.stores_decoupled);
        const std::size_t at = load ? core::ptx::destinations(in) : 0;  // the address operand
        Instruction e = extension(enq, form, 0, in.ops[at]);
        e.guarded = in.guarded, e.guard = in.guard, e.guard_negated = in.guard_negated;
        af.emit(e, Line::Kind::added);
        const std::uint32_t r = dp.reg("%dac_a", Type::u64);
        Instruction q = extension(deq, form, 1, reg_operand(r));
        q.guarded = d.guarded, q.guard = d.guard, q.guard_negated = d.guard_negated;
        dp.emit(q, Line::Kind::added);
        d.ops[at] = Operand{};
        d.ops[at].kind = OperandKind::address;
        d.ops[at].based = true;
        d.ops[at].reg = r;
        dp.emit(d, Line::Kind::changed);
        break;
      }
    }
  }
  af.finish(s.affine, s.affine_lines);
  dp.finish(s.non_affine, s.non_affine_lines);
  sum.affine = s.affine.code.size();
  sum.non_affine = s.non_affine.code.size();
  std::vector<bool> kept(n, false);
  for (const Line& l : s.non_affine_lines)
    if (l.kind != Line::Kind::added) kept[l.origin] = true;
  for (std::uint32_t pc = 0; pc < n; ++pc) sum.removed += !kept[pc];
  return s;
}

core::ptx::Module split_module(const core::ptx::Module& m, const core::ptx::ExtensionRegistry& registry,
                               const Options& options) {
  core::ptx::Module out = m;
  for (const auto* k : m.kernels()) {
    Streams s = split(*k, registry, options);
    out.functions.push_back(std::move(s.affine));
    out.functions.push_back(std::move(s.non_affine));
  }
  return out;
}

namespace {

std::string trim(const std::string& t) {
  const auto b = t.find_first_not_of(" \t");
  const auto e = t.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : t.substr(b, e - b + 1);
}

class Printer {
 public:
  Printer(const Function& k, const std::vector<std::string>& text) : k_(k), text_(text) {}

  void stream(std::ostream& out, const Function& f, const std::vector<Line>& lines, const Analysis& a,
              const std::string& title) {
    std::map<std::uint32_t, std::string> label;
    for (const auto& [name, pc] : f.labels) label.emplace(pc, name);
    for (const auto& in : f.code)
      if (in.op == Op::bra && !label.count(in.target)) label[in.target] = "$DAC_" + std::to_string(label.size());
    out << "// " << title << ": " << f.name << ", " << f.code.size() << " instructions\n";
    for (std::size_t i = 0; i <= f.code.size(); ++i) {
      if (auto it = label.find(static_cast<std::uint32_t>(i)); it != label.end()) out << it->second << ":\n";
      if (i == f.code.size()) break;
      const Instruction& in = f.code[i];
      const Line& l = lines[i];
      std::string t = text(f, in, l, label);
      std::string note;
      if (l.kind == Line::Kind::added && in.op == Op::extension)
        note = "from line " + std::to_string(in.ptx_line);
      else if (l.kind == Line::Kind::added)
        note = "skips code under a non-affine branch";
      else {
        const Op op = k_.code[l.origin].op;  // a memory access's class is its address's
        const bool access = op == Op::ld || op == Op::st || op == Op::atom || op == Op::red;
        note = std::string(access ? "address " : "") + class_name(a.at[l.origin].cls);
      }
      out << "        " << std::left << std::setw(56) << t << " // " << note << "\n";
    }
  }

 private:
  const Function& k_;
  const std::vector<std::string>& text_;

  std::string original(std::uint32_t pc) const {
    const std::uint32_t line = k_.code[pc].ptx_line;
    return line >= 1 && line <= text_.size() ? trim(text_[line - 1]) : std::string(core::ptx::op_name(k_.code[pc].op)) + " ...;";
  }
  static std::string guard(const Function& f, const Instruction& in) {
    return in.guarded ? std::string("@") + (in.guard_negated ? "!" : "") + f.registers[in.guard].name + " " : "";
  }

  std::string text(const Function& f, const Instruction& in, const Line& l,
                   const std::map<std::uint32_t, std::string>& label) const {
    if (in.op == Op::bra) return guard(f, in) + (in.uni ? "bra.uni " : "bra ") + label.at(in.target) + ";";
    if (in.op == Op::ret && l.kind == Line::Kind::added) return "ret;";
    const std::string orig = original(l.origin);
    if (in.op == Op::extension) {
      const auto form = static_cast<Form>(in.ext_form);
      const std::string op = std::string(in.ext_defs ? "deq." : "enq.") + form_name(form) + " ";
      if (in.ext_defs || form == Form::pred) return guard(f, in) + op + f.registers[in.ops[0].reg].name + ";";
      std::smatch m;
      const std::string addr = std::regex_search(orig, m, std::regex(R"(\[[^\]]*\])")) ? m.str() : "[?]";
      return guard(f, in) + op + addr + ";";
    }
    if (l.kind == Line::Kind::copy) return orig;
    // A load or store now addressed by what deq gave it, perhaps under a dequeued predicate.
    std::string t = std::regex_replace(orig, std::regex(R"(^@!?%[\w$]+\s+)"), "");
    for (const auto& o : in.ops)
      if (o.kind == OperandKind::address && o.based && o.reg >= k_.registers.size())
        t = std::regex_replace(t, std::regex(R"(\[[^\]]*\])"), "[" + f.registers[o.reg].name + "]");
    return guard(f, in) + t;
  }
};

}  // namespace

void print(std::ostream& out, const Function& k, const Streams& s, const std::vector<std::string>& text) {
  Printer p(k, text);
  p.stream(out, s.affine, s.affine_lines, s.analysis, "affine stream (one warp per CTA)");
  out << "\n";
  p.stream(out, s.non_affine, s.non_affine_lines, s.analysis, "non-affine stream");
  const Summary& m = s.summary;
  out << "\nsummary of " << k.name << ": " << m.original << " instructions -> affine " << m.affine << " + non-affine "
      << m.non_affine << " (" << m.removed << " of the original moved out of the non-affine stream)\n"
      << "  global loads decoupled: " << m.loads_decoupled << " of " << m.loads << "; global stores decoupled: "
      << m.stores_decoupled << " of " << m.stores << "; predicates sent: " << m.predicates_decoupled
      << "; barriers replicated: " << m.barriers << "; DCRF entries: " << s.analysis.dcrf.size() << " of "
      << s.analysis.options.dcrf_entries << "\n";
  if (!m.decoupled()) out << "  not decoupled: no global load or store has a scalar or affine address it may take\n";
  for (const auto& l : m.not_decoupled) out << "  line " << l.line << ": not decoupled: " << l.why << "\n";
}

}  // namespace irr::dac
