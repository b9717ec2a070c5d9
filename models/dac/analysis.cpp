// SPDX-License-Identifier: Apache-2.0
#include "models/dac/analysis.h"

#include "sim/error.h"

#include "models/core/exec/cfg.h"
#include "models/core/ptx/resources.h"

namespace irr::dac {

using ptx::Instruction;
using ptx::Mode;
using ptx::Op;
using ptx::Operand;
using ptx::OperandKind;
using ptx::Space;
using ptx::Special;
using ptx::Type;

const char* class_name(Class c) {
  switch (c) {
    case Class::scalar: return "scalar";
    case Class::affine: return "affine";
    case Class::non_affine: return "non-affine";
  }
  return "?";
}

const char* action_name(Action a) {
  switch (a) {
    case Action::none: return "none";
    case Action::compute: return "compute";
    case Action::enq_data: return "enq.data";
    case Action::enq_addr: return "enq.addr";
    case Action::control: return "control";
    case Action::jump: return "jump";
    case Action::barrier: return "barrier";
  }
  return "?";
}

bool pure(const Instruction& in) {
  switch (in.op) {
    case Op::ld: return in.space == Space::param;
    case Op::ldu: case Op::st: case Op::atom: case Op::red: case Op::bar: case Op::membar: case Op::fence:
    case Op::call: case Op::bra: case Op::ret: case Op::exit: case Op::vote: case Op::shfl: case Op::match:
    case Op::redux: case Op::activemask: case Op::extension:
      return false;
    default: return true;
  }
}

namespace {

// The DCRF holds each divergent affine condition an expansion checks [S L671]: an access's
// conditions are allocated there (in program order) unless that would pass its size.
bool fits_dcrf(const std::set<std::uint32_t>& address, const std::set<std::uint32_t>& guard, std::set<std::uint32_t>& dcrf,
               unsigned entries) {
  std::set<std::uint32_t> now = dcrf;
  now.insert(address.begin(), address.end());
  now.insert(guard.begin(), guard.end());
  if (now.size() > entries) return false;
  dcrf = std::move(now);
  return true;
}

bool control(const Instruction& in) { return in.op == Op::bra || in.op == Op::ret || in.op == Op::exit; }

Class special_class(std::uint16_t s, unsigned dims) {
  switch (static_cast<Special>(s)) {
    case Special::tid_x: return Class::affine;
    case Special::tid_y: return dims >= 2 ? Class::affine : Class::non_affine;
    case Special::tid_z: return dims >= 3 ? Class::affine : Class::non_affine;
    case Special::ntid_x: case Special::ntid_y: case Special::ntid_z: case Special::ctaid_x: case Special::ctaid_y:
    case Special::ctaid_z: case Special::nctaid_x: case Special::nctaid_y: case Special::nctaid_z:
    case Special::gridid: case Special::nsmid:
      return Class::scalar;
    default: return Class::non_affine;  // lane and warp ids, clocks, SM ids: not base + tid·offset
  }
}

// The class of what an instruction writes, from its sources' classes (§3.3.4's transfer rules [S
// L659]: the most general source, and non-affine for what affine arithmetic cannot do [S L468]).
Class transfer(const Instruction& in, const std::vector<Class>& src) {
  if (!pure(in)) return in.op == Op::ld && in.space == Space::param ? Class::scalar : Class::non_affine;
  Class all = Class::scalar;
  for (Class c : src) all = join(all, c);
  if (all != Class::affine) return all;
  const bool integer = !ptx::is_float(in.type) && !(in.op == Op::cvt && ptx::is_float(in.type2));
  switch (in.op) {
    case Op::mov: case Op::cvt: case Op::cvta: case Op::neg: case Op::add: case Op::sub:
      return integer ? Class::affine : Class::non_affine;
    case Op::mul: case Op::mad:  // (b,o)·(s,0) = (b·s, o·s): one factor must be scalar
      if (!integer || in.mode == Mode::hi || src.size() < 2) return Class::non_affine;
      return src[0] == Class::affine && src[1] == Class::affine ? Class::non_affine : Class::affine;
    case Op::shl: return integer && src.size() >= 2 && src[1] == Class::scalar ? Class::affine : Class::non_affine;
    case Op::setp: return integer ? Class::affine : Class::non_affine;  // a comparison: the PEU's job
    case Op::and_: case Op::or_: case Op::xor_: case Op::not_:        // masks of affine comparisons
      return in.type == Type::pred ? Class::affine : Class::non_affine;
    default: return Class::non_affine;
  }
}

class Analyzer {
 public:
  Analyzer(const ptx::Function& f, const Options& o) : f_(f), o_(o), g_(core::build_cfg(f)) {}

  Analysis run() {
    const auto n = static_cast<std::uint32_t>(f_.code.size());
    control_dependence();
    reaching_definitions();
    def_.assign(n, Class::scalar);
    def_div_.assign(n, {});
    branch_.assign(n, Class::scalar);
    // To a fixed point: classes only rise, divergent sets only grow.
    for (bool changed = true; changed;) {
      changed = false;
      for (std::uint32_t pc = 0; pc < n; ++pc) {
        const Instruction& in = f_.code[pc];
        if (in.guarded && control(in)) {
          std::set<std::uint32_t> div;
          Class c = use(in.guard, pc, div);
          if (div.size() > o_.max_divergent_conditions) c = Class::non_affine;
          if (join(branch_[pc], c) != branch_[pc]) {
            branch_[pc] = join(branch_[pc], c);
            changed = true;
          }
        }
        if (!ptx::destinations(in)) continue;
        std::set<std::uint32_t> div;
        const Class c = join(def_[pc], transfer(in, sources(pc, div)));
        const std::size_t before = def_div_[pc].size();
        if (c != Class::non_affine) def_div_[pc].insert(div.begin(), div.end());
        if (c != def_[pc] || def_div_[pc].size() != before) changed = true;
        def_[pc] = c;
      }
    }
    return decide();
  }

 private:
  const ptx::Function& f_;
  const Options o_;
  const core::Cfg g_;
  std::vector<std::set<std::uint32_t>> cd_;  // per block: the branches (pcs) it depends on, transitively
  // Per instruction: for each register it reads, the definitions (pcs) that reach it.
  std::vector<std::vector<std::pair<std::uint32_t, std::vector<std::uint32_t>>>> reach_;
  std::vector<Class> def_;                      // per instruction: the class of what it writes
  std::vector<std::set<std::uint32_t>> def_div_;  // and the divergent affine conditions behind it
  std::vector<Class> branch_;                   // per guarded bra/ret/exit: its predicate's class

  // Reaching definitions over the blocks (bit sets of definition sites), then walked through each
  // block to give every read its definitions. A guarded definition kills none.
  void reaching_definitions() {
    const auto n = static_cast<std::uint32_t>(f_.code.size());
    std::vector<std::pair<std::uint32_t, std::uint32_t>> sites;  // (pc, register)
    std::vector<std::vector<std::uint32_t>> sites_of(f_.registers.size());
    std::vector<std::uint32_t> defs, uses;
    for (std::uint32_t pc = 0; pc < n; ++pc) {
      ptx::defs_uses(f_.code[pc], defs, uses);
      for (auto r : defs) {
        sites_of[r].push_back(static_cast<std::uint32_t>(sites.size()));
        sites.push_back({pc, r});
      }
    }
    using Bits = std::vector<bool>;
    const std::size_t blocks = g_.start.size();
    auto step = [&](std::uint32_t pc, Bits& live) {
      ptx::defs_uses(f_.code[pc], defs, uses);
      for (auto r : defs) {
        if (!f_.code[pc].guarded)
          for (auto d : sites_of[r]) live[d] = false;
        for (auto d : sites_of[r])
          if (sites[d].first == pc) live[d] = true;
      }
    };
    std::vector<std::vector<std::uint32_t>> pred(blocks);
    for (std::uint32_t b = 0; b < blocks; ++b)
      for (auto t : g_.succ[b]) pred[t].push_back(b);
    std::vector<Bits> in(blocks, Bits(sites.size(), false)), out = in;
    for (bool changed = true; changed;) {
      changed = false;
      for (std::uint32_t b = 0; b + 1 < blocks; ++b) {
        Bits live(sites.size(), false);
        for (auto p : pred[b])
          for (std::size_t d = 0; d < sites.size(); ++d) live[d] = live[d] || out[p][d];
        in[b] = live;
        for (std::uint32_t pc = g_.start[b]; pc < g_.start[b + 1]; ++pc) step(pc, live);
        if (live != out[b]) {
          out[b] = std::move(live);
          changed = true;
        }
      }
    }
    reach_.assign(n, {});
    for (std::uint32_t b = 0; b + 1 < blocks; ++b) {
      Bits live = in[b];
      for (std::uint32_t pc = g_.start[b]; pc < g_.start[b + 1]; ++pc) {
        ptx::defs_uses(f_.code[pc], defs, uses);
        for (auto r : uses) {
          std::vector<std::uint32_t> from;
          for (auto d : sites_of[r])
            if (live[d]) from.push_back(sites[d].first);
          reach_[pc].push_back({r, std::move(from)});
        }
        step(pc, live);
      }
    }
  }

  const std::vector<std::uint32_t>& reaching(std::uint32_t r, std::uint32_t pc) const {
    static const std::vector<std::uint32_t> none;
    for (const auto& [reg, from] : reach_[pc])
      if (reg == r) return from;
    return none;
  }

  const std::set<std::uint32_t>& deps(std::uint32_t pc) const { return cd_[g_.block_of[pc]]; }
  bool loop(std::uint32_t b) const { return deps(b).count(b) > 0; }

  // Control dependence (Ferrante et al.): block Y depends on branch A's if Y lies on a path from
  // A's successor up the post-dominator tree to A's immediate post-dominator; then transitively.
  void control_dependence() {
    const auto blocks = static_cast<std::uint32_t>(g_.start.size());
    cd_.assign(blocks, {});
    for (std::uint32_t a = 0; a + 1 < blocks; ++a) {
      if (g_.succ[a].size() < 2) continue;
      const std::uint32_t br = g_.last(a);
      for (std::uint32_t y : g_.succ[a])
        for (std::uint32_t steps = 0; y != g_.ipdom[a] && y != g_.exit() && steps <= blocks; ++steps) {
          cd_[y].insert(br);
          y = g_.ipdom[y];
        }
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (auto& s : cd_) {
        const std::size_t before = s.size();
        for (std::uint32_t br : std::set<std::uint32_t>(s)) s.insert(cd_[g_.block_of[br]].begin(), cd_[g_.block_of[br]].end());
        changed = changed || s.size() != before;
      }
    }
  }

  // A condition that decides which definition a use sees: a scalar one is the same for every
  // thread; an affine one makes divergent tuples (counted), unless it is a loop's, whose trip
  // counts differ by thread (non-affine); a non-affine one makes a non-affine value.
  Class condition(Class c, bool is_loop, std::uint32_t pc, std::set<std::uint32_t>& div) const {
    if (c == Class::scalar) return Class::scalar;
    if (c == Class::non_affine || is_loop) return Class::non_affine;
    div.insert(pc);
    return Class::affine;
  }

  // The class of register r where pc reads it: the most general of the definitions that reach
  // it [S L659], joined with the conditions that decide which of them does (those a definition
  // depends on and pc does not). A register no definition reaches (a parameter copy) is scalar.
  Class use(std::uint32_t r, std::uint32_t pc, std::set<std::uint32_t>& div) const {
    Class c = Class::scalar;
    const Instruction& at = f_.code[pc];
    for (std::uint32_t d : reaching(r, pc)) {
      c = join(c, def_[d]);
      div.insert(def_div_[d].begin(), def_div_[d].end());
      for (std::uint32_t b : deps(d))
        if (!deps(pc).count(b)) c = join(c, condition(branch_[b], loop(b), b, div));
      const Instruction& def = f_.code[d];
      const bool same_guard = at.guarded && at.guard == def.guard && at.guard_negated == def.guard_negated;
      if (def.guarded && !same_guard) {  // a guarded definition: its guard decides
        Class g = Class::scalar;
        for (std::uint32_t p : reaching(def.guard, d)) g = join(g, def_[p]);
        c = join(c, condition(g, false, d, div));
      }
    }
    return c;
  }

  Class operand(const Operand& o, std::uint32_t pc, std::set<std::uint32_t>& div) const {
    switch (o.kind) {
      case OperandKind::reg: return use(o.reg, pc, div);
      case OperandKind::special: return special_class(o.special, o_.tid_dims);
      case OperandKind::address: return o.based ? use(o.reg, pc, div) : Class::scalar;
      case OperandKind::vector: {
        Class c = Class::scalar;
        for (auto r : o.regs)
          if (r != ~0u) c = join(c, use(r, pc, div));
        return c;
      }
      default: return Class::scalar;  // immediates, symbols, labels
    }
  }

  std::vector<Class> sources(std::uint32_t pc, std::set<std::uint32_t>& div) const {
    const Instruction& in = f_.code[pc];
    std::vector<Class> s;
    for (std::size_t i = ptx::destinations(in); i < in.ops.size(); ++i) s.push_back(operand(in.ops[i], pc, div));
    return s;
  }

  Analysis decide() const {
    const auto n = static_cast<std::uint32_t>(f_.code.size());
    Analysis a;
    a.options = o_;
    a.reg.assign(f_.registers.size(), Class::scalar);
    std::vector<std::uint32_t> defs, uses;
    for (std::uint32_t pc = 0; pc < n; ++pc) {
      ptx::defs_uses(f_.code[pc], defs, uses);
      for (auto r : defs) a.reg[r] = join(a.reg[r], def_[pc]);
    }
    a.at.resize(n);
    a.post_dominator.resize(n);
    a.cfg = g_;
    a.skip_to.assign(g_.start.size(), ~0u);
    for (std::uint32_t x = 0; x < g_.exit(); ++x) {
      // The outermost branches on non-affine predicates it depends on: those that depend on no other.
      std::vector<std::uint32_t> outer;
      for (std::uint32_t b : cd_[x]) {
        if (branch_[b] != Class::non_affine) continue;
        bool nested = false;
        for (std::uint32_t c : deps(b)) nested = nested || (c != b && branch_[c] == Class::non_affine);
        if (!nested) outer.push_back(g_.ipdom[g_.block_of[b]]);
      }
      if (outer.empty()) continue;
      // Several (a block under two independent ones): the post-dominator the others' lead to.
      std::uint32_t pick = outer.front();
      for (std::uint32_t c : outer) {
        std::uint32_t y = pick;
        for (std::uint32_t steps = 0; y != c && y != g_.exit() && steps <= g_.exit(); ++steps) y = g_.ipdom[y];
        if (y == c) pick = c;
      }
      a.skip_to[x] = g_.start[pick];
    }
    for (std::uint32_t pc = 0; pc < n; ++pc) {
      const Instruction& in = f_.code[pc];
      Info& info = a.at[pc];
      a.post_dominator[pc] = g_.start[g_.ipdom[g_.block_of[pc]]];
      std::uint32_t blocker = ~0u;  // a branch on a non-affine predicate this one depends on (a loop's own aside)
      for (std::uint32_t b : deps(pc))
        if (branch_[b] == Class::non_affine && b != pc) blocker = std::min(blocker, b);
      info.affine_control = blocker == ~0u;
      auto line_of = [&](std::uint32_t p) { return "line " + std::to_string(f_.code[p].ptx_line); };
      std::set<std::uint32_t> div;
      sources(pc, div);
      info.divergent = div;
      const bool access = in.op == Op::ld || in.op == Op::st || in.op == Op::atom || in.op == Op::red;
      const bool global = (in.op == Op::ld || in.op == Op::st) && in.space == Space::global;
      const bool decouplable_space = in.space == Space::global || in.space == Space::local ||
                                     in.space == Space::none || in.space == Space::generic;
      if (control(in)) {
        info.cls = in.guarded ? branch_[pc] : Class::scalar;
        if (!info.affine_control) continue;
        info.action = info.cls == Class::non_affine ? Action::jump : Action::control;
      } else if (in.op == Op::bar) {
        info.cls = Class::scalar;
        info.action = info.affine_control ? Action::barrier : Action::none;
      } else if (access && decouplable_space) {
        const std::size_t addr = in.op == Op::st || in.op == Op::red ? 0 : ptx::destinations(in);
        std::set<std::uint32_t> adiv;
        info.cls = addr < in.ops.size() ? operand(in.ops[addr], pc, adiv) : Class::non_affine;
        info.divergent = adiv;
        if (info.cls == Class::non_affine) continue;  // an irregular access: nothing to decouple
        std::set<std::uint32_t> gdiv;
        const Class guard = in.guarded ? use(in.guard, pc, gdiv) : Class::scalar;
        if (in.op == Op::atom || in.op == Op::red)
          info.reason = "atomics stay in the non-affine stream (enq.data/enq.addr are for loads and stores)";
        else if (!global)
          info.reason = std::string("a ") + (in.space == Space::local ? "local" : "generic") +
                        " access: only .global loads and stores are decoupled";
        else if (!info.affine_control)
          info.reason = "under a branch on a non-affine value (" + line_of(blocker) + ")";
        else if (adiv.size() > o_.max_divergent_conditions)
          info.reason = std::to_string(adiv.size()) + " divergent affine conditions reach its address (at most " +
                        std::to_string(o_.max_divergent_conditions) + ")";
        else if (guard == Class::non_affine || gdiv.size() > o_.max_divergent_conditions)
          info.reason = "guarded by a non-affine predicate";
        else if (!fits_dcrf(adiv, gdiv, a.dcrf, o_.dcrf_entries))
          info.reason = "its divergent affine conditions do not fit in the DCRF's " + std::to_string(o_.dcrf_entries) +
                        " entries, taken by earlier accesses (dac.dcrf_entries)";
        else
          info.action = in.op == Op::ld ? Action::enq_data : Action::enq_addr;
      } else {
        info.cls = ptx::destinations(in) ? def_[pc] : Class::non_affine;
        if (info.cls != Class::non_affine && pure(in) && info.affine_control) info.action = Action::compute;
      }
    }
    return a;
  }
};

}  // namespace

Analysis analyze(const ptx::Function& kernel, const Options& options) {
  if (options.tid_dims < 1 || options.tid_dims > 3)
    throw Error("DAC: the thread-index dimensions must be 1, 2 or 3, not " + std::to_string(options.tid_dims),
                Error::Kind::usage);
  return Analyzer(kernel, options).run();
}

}  // namespace irr::dac
