// SPDX-License-Identifier: Apache-2.0
#include "models/core/ptx/parser.h"

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "models/core/ptx/lexer.h"
#include "sim/error.h"

namespace irr::core::ptx {

std::uint16_t ExtensionRegistry::add(Extension e) {
  if (find(e.name)) throw std::logic_error("extension instruction '" + e.name + "' registered twice");
  extensions_.push_back(std::move(e));
  return static_cast<std::uint16_t>(extensions_.size() - 1);
}

const Extension* ExtensionRegistry::find(const std::string& name) const {
  for (const auto& e : extensions_)
    if (e.name == name) return &e;
  return nullptr;
}

std::uint16_t ExtensionRegistry::index_of(const std::string& name) const {
  for (std::uint16_t i = 0; i < extensions_.size(); ++i)
    if (extensions_[i].name == name) return i;
  throw std::logic_error("extension instruction '" + name + "' is not registered");
}

namespace {

constexpr std::uint64_t kMaxRegisters = 1u << 16;
constexpr std::uint64_t kMaxVariableBytes = std::uint64_t{1} << 32;

const std::unordered_map<std::string, Op> kOps = {
    {"mov", Op::mov},     {"ld", Op::ld},       {"ldu", Op::ldu},       {"st", Op::st},       {"cvta", Op::cvta},
    {"cvt", Op::cvt},     {"add", Op::add},     {"sub", Op::sub},       {"mul", Op::mul},     {"mad", Op::mad},
    {"div", Op::div},     {"rem", Op::rem},     {"min", Op::min},       {"max", Op::max},     {"abs", Op::abs},
    {"neg", Op::neg},     {"and", Op::and_},    {"or", Op::or_},        {"xor", Op::xor_},    {"not", Op::not_},
    {"cnot", Op::cnot},   {"shl", Op::shl},     {"shr", Op::shr},       {"popc", Op::popc},   {"clz", Op::clz},
    {"brev", Op::brev},   {"bfind", Op::bfind}, {"bfe", Op::bfe},       {"bfi", Op::bfi},     {"prmt", Op::prmt},   {"shf", Op::shf},     {"nanosleep", Op::nanosleep},
    {"bmsk", Op::bmsk},   {"szext", Op::szext}, {"prefetch", Op::prefetch}, {"prefetchu", Op::prefetch}, {"elect", Op::elect},
    {"addc", Op::add},    {"subc", Op::sub},    {"madc", Op::mad},  {"cp", Op::cp_async}, {"mbarrier", Op::mbarrier},
    {"setp", Op::setp},   {"selp", Op::selp},   {"set", Op::set},       {"bra", Op::bra},     {"ret", Op::ret},
    {"exit", Op::exit},   {"bar", Op::bar},     {"barrier", Op::bar},   {"membar", Op::membar}, {"fence", Op::fence},
    {"atom", Op::atom},   {"red", Op::red},     {"activemask", Op::activemask}, {"vote", Op::vote},
    {"shfl", Op::shfl},   {"match", Op::match}, {"redux", Op::redux},   {"fma", Op::fma},     {"rcp", Op::rcp},
    {"sqrt", Op::sqrt},   {"rsqrt", Op::rsqrt}, {"ex2", Op::ex2},       {"lg2", Op::lg2},     {"sin", Op::sin},
    {"cos", Op::cos},     {"call", Op::call},   {"copysign", Op::copysign}, {"testp", Op::testp}};

const std::unordered_map<std::string, Type> kTypes = {
    {"b8", Type::b8},   {"b16", Type::b16}, {"b32", Type::b32}, {"b64", Type::b64}, {"u8", Type::u8},
    {"u16", Type::u16}, {"u32", Type::u32}, {"u64", Type::u64}, {"s8", Type::s8},   {"s16", Type::s16},
    {"s32", Type::s32}, {"s64", Type::s64}, {"f16", Type::f16}, {"f32", Type::f32}, {"f64", Type::f64},
    {"pred", Type::pred}};

const std::unordered_map<std::string, Space> kSpaces = {
    {"global", Space::global}, {"shared", Space::shared}, {"local", Space::local},
    {"param", Space::param},   {"const", Space::constant}};

const std::unordered_map<std::string, Cmp> kCmps = {
    {"eq", Cmp::eq},   {"ne", Cmp::ne},   {"lt", Cmp::lt},   {"le", Cmp::le},   {"gt", Cmp::gt},   {"ge", Cmp::ge},
    {"lo", Cmp::lo},   {"ls", Cmp::ls},   {"hi", Cmp::hi},   {"hs", Cmp::hs},   {"equ", Cmp::equ}, {"neu", Cmp::neu},
    {"ltu", Cmp::ltu}, {"leu", Cmp::leu}, {"gtu", Cmp::gtu}, {"geu", Cmp::geu}, {"num", Cmp::num}, {"nan", Cmp::nan}};

const std::unordered_map<std::string, Round> kRounds = {
    {"rn", Round::rn},   {"rz", Round::rz},   {"rm", Round::rm},   {"rp", Round::rp},
    {"rni", Round::rni}, {"rzi", Round::rzi}, {"rmi", Round::rmi}, {"rpi", Round::rpi}};

const std::unordered_map<std::string, Mode> kAtomModes = {
    {"add", Mode::add}, {"min", Mode::min}, {"max", Mode::max}, {"exch", Mode::exch}, {"cas", Mode::cas},
    {"and", Mode::and_}, {"or", Mode::or_}, {"xor", Mode::xor_}, {"inc", Mode::inc}, {"dec", Mode::dec}};

// Memory-ordering and scope qualifiers: accepted and ignored (the functional model executes
// every memory operation in issue order).
const char* const kIgnored[] = {"release", "acq_rel", "sc", "cta", "gl", "aligned", "weak", "mmio"};
// Cache operators: those of loads that read past the L1 (global level, volatile) make the load
// uncached; the others are hints the model takes as the default (.ca, .cs, .lu; stores write
// through or evict as the L1 is configured).
const char* const kLoadCacheHints[] = {"ca", "cs", "lu"};
const char* const kStoreCacheHints[] = {"wb", "cg", "cs", "wt"};

const std::unordered_map<std::string, Special> kSpecials = {
    {"%tid.x", Special::tid_x},         {"%tid.y", Special::tid_y},           {"%tid.z", Special::tid_z},
    {"%ntid.x", Special::ntid_x},       {"%ntid.y", Special::ntid_y},         {"%ntid.z", Special::ntid_z},
    {"%ctaid.x", Special::ctaid_x},     {"%ctaid.y", Special::ctaid_y},       {"%ctaid.z", Special::ctaid_z},
    {"%nctaid.x", Special::nctaid_x},   {"%nctaid.y", Special::nctaid_y},     {"%nctaid.z", Special::nctaid_z},
    {"%laneid", Special::laneid},       {"%warpid", Special::warpid},         {"%nwarpid", Special::nwarpid},
    {"%lanemask_eq", Special::lanemask_eq}, {"%lanemask_lt", Special::lanemask_lt},
    {"%lanemask_le", Special::lanemask_le}, {"%lanemask_gt", Special::lanemask_gt},
    {"%lanemask_ge", Special::lanemask_ge}, {"%clock", Special::clock},       {"%clock64", Special::clock64},
    {"%globaltimer", Special::globaltimer}, {"%smid", Special::smid},         {"%nsmid", Special::nsmid},
    {"%gridid", Special::gridid}};

struct Name {
  enum Kind { reg, symbol } kind;
  std::uint32_t index;
};

class Parser {
 public:
  Parser(std::vector<Token> tokens, std::string file, const ExtensionRegistry* ext, bool per_function_errors)
      : t_(std::move(tokens)), file_(std::move(file)), ext_(ext), per_function_errors_(per_function_errors) {}

  Module run() {
    m_.file = file_;
    while (peek().kind != Token::end) top_level();
    resolve_calls();
    m_.global_bytes = segment(Space::global);
    m_.const_bytes = segment(Space::constant);
    return std::move(m_);
  }

 private:
  // --- tokens -----------------------------------------------------------------------------------
  const Token& peek(std::size_t k = 0) const { return t_[std::min(pos_ + k, t_.size() - 1)]; }
  const Token& next() {
    const Token& t = peek();
    if (pos_ < t_.size() - 1) ++pos_;
    return t;
  }
  bool is(const Token& t, const char* punct) const { return t.kind == Token::punct && t.text == punct; }
  bool accept(const char* punct) {
    if (!is(peek(), punct)) return false;
    next();
    return true;
  }
  bool accept_directive(const char* d) {
    if (peek().kind != Token::directive || peek().text != d) return false;
    next();
    return true;
  }
  Error error(const Token& t, const std::string& why) const {
    return Error({file_, t.line, t.col}, why, Error::Kind::config);
  }
  const Token& expect(const char* punct) {
    if (!is(peek(), punct)) throw error(peek(), std::string("expected '") + punct + "', found " + describe(peek()));
    return next();
  }
  std::string describe(const Token& t) const { return t.kind == Token::end ? "the end of the file" : "'" + t.text + "'"; }
  std::uint64_t integer() {
    const Token& t = next();
    if (t.kind != Token::integer) throw error(t, "expected a number, found " + describe(t));
    return t.u;
  }
  std::string identifier() {
    const Token& t = next();
    if (t.kind != Token::ident) throw error(t, "expected a name, found " + describe(t));
    return t.text;
  }
  Type type_directive() {
    const Token& t = next();
    auto it = t.kind == Token::directive ? kTypes.find(t.text.substr(1)) : kTypes.end();
    if (it == kTypes.end()) throw error(t, "unsupported type " + describe(t));
    return it->second;
  }

  // --- module -----------------------------------------------------------------------------------
  void top_level() {
    const Token& t = peek();
    if (t.kind != Token::directive) throw error(t, "expected a directive, found " + describe(t));
    if (accept_directive(".version")) {
      const Token& v = next();
      m_.version = v.text;
      return;
    }
    if (accept_directive(".target")) {
      m_.target = identifier();
      while (accept(",")) identifier();
      return;
    }
    if (accept_directive(".address_size")) {
      m_.address_size = static_cast<unsigned>(integer());
      if (m_.address_size != 64) throw error(t, "only .address_size 64 is supported");
      return;
    }
    if (accept_directive(".file")) {
      const auto n = static_cast<std::uint16_t>(integer());
      const Token& path = next();
      if (path.kind != Token::string) throw error(path, "expected the file's path");
      m_.files[n] = path.text;
      while (accept(",")) next();  // timestamp, size
      return;
    }
    if (accept_directive(".section")) {  // debug sections: skipped, balanced braces
      next();
      expect("{");
      for (int depth = 1; depth;) {
        const Token& s = next();
        if (s.kind == Token::end) throw error(s, "unterminated .section");
        if (is(s, "{")) ++depth;
        if (is(s, "}")) --depth;
      }
      return;
    }
    bool external = false;
    while (peek().kind == Token::directive &&
           (peek().text == ".visible" || peek().text == ".extern" || peek().text == ".weak" || peek().text == ".common")) {
      external = external || peek().text == ".extern";
      next();
    }
    if (accept_directive(".entry")) return function(true, external);
    if (accept_directive(".func")) return function(false, external);
    const Token& sp = peek();
    auto it = sp.kind == Token::directive ? kSpaces.find(sp.text.substr(1)) : kSpaces.end();
    if (it != kSpaces.end() && it->second != Space::param && it->second != Space::local) {
      next();
      Variable v = variable(it->second, sp);
      expect(";");
      m_.variables.push_back(std::move(v));
      return;
    }
    throw error(t, "unsupported directive " + describe(t));
  }

  // `[.align N] [.vN] .type name[N]... [= init]` after the state space.
  Variable variable(Space space, const Token& at) {
    Variable v;
    v.space = space;
    unsigned vec = 1;
    for (;;) {
      if (accept_directive(".align")) v.align = static_cast<std::uint32_t>(integer());
      else if (accept_directive(".v2")) vec = 2;
      else if (accept_directive(".v4")) vec = 4;
      else if (accept_directive(".ptr")) {
        if (peek().kind == Token::directive && kSpaces.count(peek().text.substr(1))) next();
      } else break;
    }
    v.type = type_directive();
    v.name = identifier();
    std::uint64_t count = vec;
    while (accept("[")) {
      if (is(peek(), "]")) {
        count = 0;  // extern .shared array of unknown size: dynamic shared memory
      } else if (__builtin_mul_overflow(count, integer(), &count)) {
        count = ~std::uint64_t{0};
      }
      expect("]");
    }
    const unsigned elem = std::max(1u, type_bits(v.type) / 8);
    // Nothing a GPU holds is larger; a bound keeps a bogus size from taking the host's memory.
    if (count > kMaxVariableBytes / elem)
      throw error(at, v.name + ": too large (at most " + std::to_string(kMaxVariableBytes) + " bytes a variable)");
    v.size = count * elem;
    if (v.align < elem) v.align = elem;
    if (accept("=")) {
      std::vector<std::uint64_t> values;
      if (accept("{")) {
        do {
          values.push_back(constant());
        } while (accept(","));
        expect("}");
      } else {
        values.push_back(constant());
      }
      if (values.size() > count) throw error(at, v.name + ": more initialisers than elements");
      v.init.resize(v.size, 0);
      for (std::size_t i = 0; i < values.size(); ++i) std::memcpy(&v.init[i * elem], &values[i], elem);
    }
    return v;
  }
  std::uint64_t constant() {
    const bool neg = accept("-");
    const Token& t = next();
    if (t.kind == Token::integer) return neg ? static_cast<std::uint64_t>(-static_cast<std::int64_t>(t.u)) : t.u;
    if (t.kind == Token::floating) {
      if (!neg) return t.u;
      return t.u ^ (t.f64 ? 0x8000000000000000ull : 0x80000000ull);
    }
    throw error(t, "unsupported initialiser " + describe(t) + " (numbers only)");
  }

  // --- functions --------------------------------------------------------------------------------
  void function(bool kernel, bool external) {
    Function f;
    f.kernel = kernel;
    f.external = external;
    f.line = static_cast<std::uint32_t>(peek().line);
    scopes_.assign(1, {});
    call_shapes_.clear();
    if (!kernel && is(peek(), "(")) param_list(f, f.returns);
    f.name = identifier();
    if (is(peek(), "(")) param_list(f, f.params);
    for (;;) {  // performance directives
      if (accept_directive(".maxntid") || accept_directive(".reqntid")) {
        f.maxntid[0] = static_cast<std::uint32_t>(integer());
        for (int d = 1; d < 3 && accept(","); ++d) f.maxntid[d] = static_cast<std::uint32_t>(integer());
      } else if (accept_directive(".minnctapersm") || accept_directive(".maxnreg") || accept_directive(".maxnctapersm")) {
        integer();
      } else if (accept_directive(".noreturn")) {
      } else break;
    }
    if (accept(";")) {  // a prototype
      if (!m_.find(f.name)) m_.functions.push_back(std::move(f));
      return;
    }
    const Token& open = expect("{");
    const std::size_t start = pos_, calls = pending_calls_.size();
    try {
      body(f, open);
      resolve_labels(f);
    } catch (const Error& e) {
      if (!per_function_errors_) throw;
      f.unsupported = e.what();
      f.code.clear();
      f.labels.clear();
      pending_labels_.clear();
      pending_calls_.erase(pending_calls_.begin() + static_cast<std::ptrdiff_t>(calls), pending_calls_.end());
      pos_ = start;  // past the body: its braces balanced
      for (int depth = 1; depth;) {
        const Token& t = next();
        if (t.kind == Token::end) throw;
        depth += is(t, "{") ? 1 : is(t, "}") ? -1 : 0;
      }
    }
    for (auto& existing : m_.functions)
      if (existing.name == f.name) {
        existing = std::move(f);
        return;
      }
    m_.functions.push_back(std::move(f));
  }

  void param_list(Function& f, std::vector<Variable>& into) {
    expect("(");
    if (!is(peek(), ")")) {
      do {
        const Token& at = peek();
        if (!accept_directive(".param") && !accept_directive(".reg"))
          throw error(at, "expected .param, found " + describe(at));
        Variable v = variable(Space::param, at);
        v.argument = true;
        f.param_bytes = (f.param_bytes + v.align - 1) / v.align * v.align;
        v.offset = f.param_bytes;
        f.param_bytes += v.size;
        into.push_back(v);
        scopes_.back()[v.name] = {Name::symbol, static_cast<std::uint32_t>(f.symbols.size())};
        f.symbols.push_back(v);
      } while (accept(","));
    }
    expect(")");
  }

  void body(Function& f, const Token& open) {
    (void)open;
    int depth = 1;
    while (depth) {
      const Token& t = peek();
      if (t.kind == Token::end) throw error(t, "unterminated function body of " + f.name);
      if (accept("{")) {
        ++depth;
        scopes_.emplace_back();
        continue;
      }
      if (accept("}")) {
        --depth;
        if (depth) scopes_.pop_back();
        continue;
      }
      if (t.kind == Token::directive) {
        declaration(f);
        continue;
      }
      if (t.kind == Token::ident && is(peek(1), ":")) {
        next();
        next();
        if (peek().kind == Token::directive && (peek().text == ".callprototype" || peek().text == ".calltargets")) {
          call_declaration(t);
          continue;
        }
        if (f.labels.count(t.text)) throw error(t, "label " + t.text + " defined twice");
        f.labels[t.text] = static_cast<std::uint32_t>(f.code.size());
        continue;
      }
      f.code.push_back(instruction(f));
    }
  }

  // `name: .callprototype [(.param .b64 _)] _ (.param .b64 _, ...) [.noreturn];` or
  // `name: .calltargets f, g;` — what an indirect call through a register may call.
  void call_declaration(const Token& name) {
    const Token& d = next();
    CallShape shape;
    if (d.text == ".calltargets") {
      shape.targets = true;
      do {
        const Token& fn = next();
        if (fn.kind != Token::ident || function_index(fn.text) < 0) throw error(fn, "calltargets: " + describe(fn) + " is not a declared function");
      } while (accept(","));
    } else {
      auto count = [&] {  // the entries of a parenthesised list
        expect("(");
        std::size_t n = 0, depth = 0;
        bool any = false;
        while (depth || !is(peek(), ")")) {
          const Token& x = next();
          if (x.kind == Token::end) throw error(d, "unterminated .callprototype");
          if (is(x, "[")) ++depth;
          if (is(x, "]")) --depth;
          if (!depth && is(x, ",")) ++n;
          any = true;
        }
        expect(")");
        return any ? n + 1 : 0;
      };
      if (is(peek(), "(")) shape.returns = count();
      if (peek().kind != Token::ident || peek().text != "_")
        throw error(peek(), ".callprototype: expected '_' for the function's name, found " + describe(peek()));
      next();
      if (is(peek(), "(")) shape.params = count();
      accept_directive(".noreturn");
    }
    expect(";");
    call_shapes_[name.text] = shape;
  }

  std::int64_t function_index(const std::string& name) const {
    for (std::size_t i = 0; i < m_.functions.size(); ++i)
      if (m_.functions[i].name == name) return static_cast<std::int64_t>(i);
    return -1;
  }

  void declaration(Function& f) {
    const Token& d = next();
    if (d.text == ".reg") {
      unsigned vec = 1;
      if (accept_directive(".v2")) vec = 2;
      else if (accept_directive(".v4")) vec = 4;
      if (vec != 1) throw error(d, "unsupported vector registers");
      const Type type = type_directive();
      do {
        const std::string name = identifier();
        if (accept("<")) {
          const std::uint64_t n = integer();
          expect(">");
          // nvcc declares a few thousand at most; a bound keeps a bogus count from taking the host's memory.
          if (n + f.registers.size() > kMaxRegisters)
            throw error(d, "too many registers (" + std::to_string(n + f.registers.size()) + "; at most " +
                               std::to_string(kMaxRegisters) + " a function)");
          for (std::uint64_t i = 0; i < n; ++i) add_register(f, name + std::to_string(i), type, d);
        } else {
          add_register(f, name, type, d);
        }
      } while (accept(","));
      expect(";");
      return;
    }
    if (d.text == ".loc") {
      loc_.file = static_cast<std::uint16_t>(integer());
      loc_.line = static_cast<std::uint32_t>(integer());
      loc_.col = static_cast<std::uint32_t>(integer());
      loc_.call_file = 0;
      loc_.call_line = 0;
      while (peek().line == d.line && peek().kind != Token::end)  // , function_name NAME, inlined_at FILE LINE COL
        if (next().text == "inlined_at") {
          loc_.call_file = static_cast<std::uint16_t>(integer());
          loc_.call_line = static_cast<std::uint32_t>(integer());
        }
      return;
    }
    if (d.text == ".pragma") {
      while (!accept(";")) {
        if (peek().kind == Token::end) throw error(d, "unterminated .pragma");
        next();
      }
      return;
    }
    auto it = kSpaces.find(d.text.substr(1));
    if (it != kSpaces.end() && it->second != Space::global && it->second != Space::constant) {
      Variable v = variable(it->second, d);
      expect(";");
      std::uint64_t* seg = it->second == Space::shared  ? &f.shared_bytes
                           : it->second == Space::local ? &f.local_bytes
                                                        : &f.call_param_bytes;
      *seg = (*seg + v.align - 1) / v.align * v.align;
      v.offset = *seg;
      *seg += v.size;
      scopes_.back()[v.name] = {Name::symbol, static_cast<std::uint32_t>(f.symbols.size())};
      f.symbols.push_back(std::move(v));
      return;
    }
    throw error(d, "unsupported directive " + describe(d) + " in a function body");
  }

  void add_register(Function& f, const std::string& name, Type type, const Token& at) {
    if (scopes_.back().count(name)) throw error(at, "register " + name + " declared twice");
    scopes_.back()[name] = {Name::reg, static_cast<std::uint32_t>(f.registers.size())};
    f.registers.push_back({name, type});
  }

  // CC.CF: one hidden predicate register a function, made when its first carry chain is read.
  std::uint32_t carry_register(Function& f) {
    for (std::uint32_t r = 0; r < f.registers.size(); ++r)
      if (f.registers[r].name == "%CC.CF") return r;
    f.registers.push_back({"%CC.CF", Type::pred});
    return static_cast<std::uint32_t>(f.registers.size() - 1);
  }

  const Name* lookup(const std::string& name) const {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      auto it = s->find(name);
      if (it != s->end()) return &it->second;
    }
    return nullptr;
  }

  // --- instructions -----------------------------------------------------------------------------
  Instruction instruction(Function& f) {
    Instruction ins;
    ins.loc = loc_;
    ins.ptx_line = static_cast<std::uint32_t>(peek().line);
    if (accept("@")) {
      ins.guarded = true;
      ins.guard_negated = accept("!");
      const Token& p = next();
      const Name* n = p.kind == Token::ident ? lookup(p.text) : nullptr;
      if (!n || n->kind != Name::reg) throw error(p, "guard " + describe(p) + " is not a declared predicate");
      ins.guard = n->index;
    }
    const Token& op = next();
    if (op.kind != Token::ident) throw error(op, "expected an instruction, found " + describe(op));
    decode(op, ins);
    if (ins.op == Op::call) {
      call_operands(f, ins, op);
    } else if (!is(peek(), ";")) {
      do {
        ins.ops.push_back(operand(f, ins));
        if (accept("|")) ins.ops.push_back(operand(f, ins));  // setp's second destination
      } while (accept(","));
    }
    expect(";");
    if (ins.cache_policy && !ins.ops.empty()) ins.ops.pop_back();  // the L2::cache_hint policy operand
    if (ins.carry_in || ins.carry_out) ins.carry_reg = carry_register(f);
    check_operands(ins, op);
    if (ins.op == Op::extension) {
      // The unit's decode sees modifiers and operands. (Its type is not known while the operands
      // are read, so an f64 immediate written as 0f... is not widened for it.)
      const Extension& e = ext_->at(ins.extension);
      try {
        e.decode(ins, ext_modifiers_);
      } catch (const std::invalid_argument& why) {
        throw error(op, e.name + ": " + why.what());
      }
    }
    return ins;
  }

  std::vector<std::string> ext_modifiers_;  // of the extension instruction being read

  void decode(const Token& t, Instruction& ins) {
    std::vector<std::string> parts;
    std::stringstream ss(t.text);
    for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
    const std::string& base = parts[0];
    auto it = kOps.find(base);
    if (it == kOps.end()) {
      const Extension* e = ext_ ? ext_->find(base) : nullptr;
      if (!e) throw error(t, "unsupported instruction '" + base + "'");
      ins.op = Op::extension;
      for (std::uint16_t i = 0; i < ext_->size(); ++i)
        if (&ext_->at(i) == e) ins.extension = i;
      ext_modifiers_.assign(parts.begin() + 1, parts.end());  // decoded once the operands are read
      return;
    }
    ins.op = it->second;
    if (ins.op == Op::cp_async) return decode_cp(t, parts, ins);
    if (ins.op == Op::mbarrier) return decode_mbarrier(t, parts, ins);
    if (base == "barrier") ins.mode = Mode::sync;
    ins.carry_in = base == "addc" || base == "subc" || base == "madc";
    bool strong = false, wide_scope = false;  // .relaxed/.acquire, at .gpu/.sys scope
    for (std::size_t i = 1; i < parts.size(); ++i) {
      std::string m = parts[i];
      auto bad = [&] { return error(t, "unsupported modifier '." + m + "' on " + base); };
      if (const auto sub = m.find("::"); sub != std::string::npos) {
        // A cache-eviction or size hint (L1::evict_last, L1::no_allocate, L2::128B): the model's
        // caches take their configured policy. L2::cache_hint names a policy operand, dropped.
        if (m.compare(0, 4, "L1::") == 0 || m.compare(0, 4, "L2::") == 0) {
          ins.cache_policy = m == "L2::cache_hint";
          continue;
        }
        m = m.substr(0, sub);  // shared::cta, shared::cluster: this CTA's shared memory (one CTA a cluster)
        if (m != "shared") throw bad();
      }
      if (auto ty = kTypes.find(m); ty != kTypes.end()) {
        if (ins.type == Type::none) ins.type = ty->second;
        else if (ins.type2 == Type::none) ins.type2 = ty->second;
        else throw bad();
      } else if (auto sp = kSpaces.find(m); sp != kSpaces.end() && ins.op != Op::bar) {
        ins.space = sp->second;
      } else if (m == "v2" || m == "v4") {
        ins.vec = static_cast<std::uint8_t>(m[1] - '0');
      } else if (auto c = kCmps.find(m); c != kCmps.end() && (ins.op == Op::setp || ins.op == Op::set) && ins.cmp == Cmp::none) {
        ins.cmp = c->second;
      } else if ((m == "and" || m == "or" || m == "xor") && (ins.op == Op::setp || ins.op == Op::set)) {
        ins.boolop = m == "and" ? BoolOp::and_ : m == "or" ? BoolOp::or_ : BoolOp::xor_;
      } else if (auto r = kRounds.find(m); r != kRounds.end()) {
        ins.round = r->second;
      } else if (auto a = kAtomModes.find(m);
                 a != kAtomModes.end() && (ins.op == Op::atom || ins.op == Op::red || ins.op == Op::redux)) {
        ins.mode = a->second;
      } else if ((m == "all" || m == "any" || m == "uni" || m == "ballot") && (ins.op == Op::vote || ins.op == Op::match)) {
        ins.mode = m == "all" ? Mode::all : m == "any" ? Mode::any : m == "uni" ? Mode::uni : Mode::ballot;
      } else if ((m == "up" || m == "down" || m == "bfly" || m == "idx") && ins.op == Op::shfl) {
        ins.mode = m == "up" ? Mode::up : m == "down" ? Mode::down : m == "bfly" ? Mode::bfly : Mode::idx;
      } else if (m == "warp" && ins.op == Op::bar && i == 1) {
        ins.op = Op::warpsync;  // bar.warp.sync: a warp's own barrier, not its CTA's
      } else if ((m == "l" || m == "r") && ins.op == Op::shf) {
        ins.mode = m == "l" ? Mode::left : Mode::right;
      } else if ((m == "wrap" || m == "clamp") && (ins.op == Op::shf || ins.op == Op::bmsk || ins.op == Op::szext)) {
        ins.clamp = m == "clamp";
      } else if ((m == "lo" || m == "hi" || m == "wide") && (ins.op == Op::mul || ins.op == Op::mad)) {
        ins.mode = m == "lo" ? Mode::lo : m == "hi" ? Mode::hi : Mode::wide;
      } else if (m == "sync" || m == "arrive") {
        if (ins.op == Op::bar) ins.mode = m == "sync" ? Mode::sync : Mode::arrive;
        else if (ins.op != Op::vote && ins.op != Op::shfl && ins.op != Op::match && ins.op != Op::redux && ins.op != Op::warpsync &&
                 ins.op != Op::elect)
          throw bad();
      } else if (m == "cc" && (ins.op == Op::add || ins.op == Op::sub || ins.op == Op::mad)) {
        ins.carry_out = true;
      } else if ((m == "proxy" || m == "async" || m == "mbarrier_init") && ins.op == Op::fence) {
      } else if ((m == "L1" || m == "L2") && ins.op == Op::prefetch) {
      } else if (m == "red" && ins.op == Op::bar) {
        ins.mode = Mode::red_popc;  // refined by the next modifier
      } else if ((m == "popc" || m == "and" || m == "or") && ins.op == Op::bar && ins.mode == Mode::red_popc) {
        ins.mode = m == "popc" ? Mode::red_popc : m == "and" ? Mode::red_and : Mode::red_or;
      } else if (m == "uni" && (ins.op == Op::bra || ins.op == Op::call)) {
        ins.uni = true;
      } else if (m == "sat") {
        ins.sat = true;
      } else if (m == "ftz") {
        ins.ftz = true;
      } else if (m == "approx") {
        ins.approx = true;
      } else if (m == "full") {
        ins.full = true;
      } else if (m == "nc" && ins.op == Op::ld) {
        ins.nc = true;
      } else if (m == "shiftamt" && ins.op == Op::bfind) {
        ins.shiftamt = true;
      } else if (m == "to" && ins.op == Op::cvta) {
        ins.to = true;
      } else if (m == "volatile" || ((m == "cg" || m == "cv") && (ins.op == Op::ld || ins.op == Op::ldu))) {
        ins.uncached = ins.op == Op::ld || ins.op == Op::ldu;
      } else if (m == "relaxed" || m == "acquire") {
        strong = true;
      } else if (m == "gpu" || m == "sys") {
        wide_scope = true;
      } else if ((ins.op == Op::ld && std::find(std::begin(kLoadCacheHints), std::end(kLoadCacheHints), m) != std::end(kLoadCacheHints)) ||
                 (ins.op == Op::st && std::find(std::begin(kStoreCacheHints), std::end(kStoreCacheHints), m) != std::end(kStoreCacheHints))) {
      } else if (std::find(std::begin(kIgnored), std::end(kIgnored), m) != std::end(kIgnored)) {
      } else {
        throw bad();
      }
    }
    if (strong && wide_scope && ins.op == Op::ld) ins.uncached = true;
    if (ins.op == Op::bar && ins.mode == Mode::none) ins.mode = Mode::sync;  // bar.sync is also spelt bar
  }

  // cp.async (sm_80): a thread's 4-16 bytes from global to shared memory, waited for by group;
  // cp.async.bulk (sm_90): a block of bytes between global and shared memory, completing on an
  // mbarrier (global to shared) or in a bulk group (shared to global). Cache hints are taken as
  // the default (the '::' sub-qualifiers were read in decode).
  void decode_cp(const Token& t, const std::vector<std::string>& parts, Instruction& ins) {
    auto bad = [&](const std::string& m) { return error(t, "unsupported modifier '." + m + "' on cp"); };
    if (parts.size() < 2 || parts[1] != "async") throw error(t, "unsupported instruction '" + t.text + "'");
    std::size_t i = 2;
    const bool bulk = i < parts.size() && parts[i] == "bulk";
    if (bulk) ++i;
    if (i < parts.size() && parts[i] == "commit_group") {
      ins.op = Op::cp_async_commit;
      ++i;
    } else if (i < parts.size() && (parts[i] == "wait_group" || parts[i] == "wait_all")) {
      ins.op = Op::cp_async_wait;
      ++i;
      if (i < parts.size() && parts[i] == "read") ++i;  // bulk.wait_group.read: the sources may be reused
    } else {
      ins.op = bulk ? Op::cp_async_bulk : Op::cp_async;
      Space dst = Space::none, src = Space::none;
      for (; i < parts.size(); ++i) {
        const std::string& m = parts[i];
        const std::string head = m.substr(0, m.find("::"));
        if (head == "shared" || head == "global") {
          (dst == Space::none ? dst : src) = head == "shared" ? Space::shared : Space::global;
        } else if (m == "ca" || m == "cg" || m == "bulk_group" || m == "mbarrier::complete_tx::bytes" ||
                   m.compare(0, 4, "L1::") == 0 || m.compare(0, 4, "L2::") == 0) {
          ins.cache_policy = ins.cache_policy || m == "L2::cache_hint";
        } else {
          throw bad(m);
        }
      }
      if (!bulk && (dst != Space::shared || src != Space::global)) throw error(t, "cp.async copies from .global to .shared");
      if (bulk && !((dst == Space::shared && src == Space::global) || (dst == Space::global && src == Space::shared)))
        throw error(t, "cp.async.bulk copies between .global and .shared (tensors and multicast are not supported)");
      ins.space = dst;  // cp.async: shared; cp.async.bulk: which way it goes
      return;
    }
    if (i != parts.size()) throw bad(parts[i]);
  }

  // mbarrier (sm_80/sm_90): a barrier object of 8 bytes in shared memory that counts arrivals and,
  // on sm_90, transaction bytes; a phase completes when both are done.
  void decode_mbarrier(const Token& t, const std::vector<std::string>& parts, Instruction& ins) {
    static const std::unordered_map<std::string, Mode> kForms = {
        {"init", Mode::mb_init},         {"arrive", Mode::mb_arrive},         {"arrive_drop", Mode::mb_arrive_drop},
        {"expect_tx", Mode::mb_expect_tx}, {"complete_tx", Mode::mb_complete_tx}, {"test_wait", Mode::mb_wait},
        {"try_wait", Mode::mb_wait},     {"pending_count", Mode::mb_pending_count}, {"inval", Mode::mb_inval}};
    for (std::size_t i = 1; i < parts.size(); ++i) {
      const std::string& m = parts[i];
      const std::string head = m.substr(0, m.find("::"));
      if (auto f = kForms.find(m); f != kForms.end() && ins.mode == Mode::none) {
        ins.mode = f->second;
      } else if (m == "expect_tx" && (ins.mode == Mode::mb_arrive || ins.mode == Mode::mb_arrive_drop)) {
        ins.expect_tx = true;
      } else if (m == "parity" && ins.mode == Mode::mb_wait) {
        ins.parity = true;
      } else if (head == "shared") {
        ins.space = Space::shared;
      } else if (m == "b64") {
        ins.type = Type::b64;
      } else if (m == "release" || m == "acquire" || m == "relaxed" || m == "cta" || m == "cluster" || m == "noComplete") {
      } else {
        throw error(t, "unsupported modifier '." + m + "' on mbarrier");
      }
    }
    if (ins.mode == Mode::none) throw error(t, "mbarrier needs an operation (init, arrive, expect_tx, complete_tx, try_wait, ...)");
  }

  Operand operand(Function& f, Instruction& ins) {
    Operand o;
    const Token& t = peek();
    if (accept("[")) {
      o.kind = OperandKind::address;
      const Token& b = next();
      if (b.kind == Token::integer) {
        o.offset = static_cast<std::int64_t>(b.u);
      } else if (b.kind == Token::ident) {
        const Name* n = lookup(b.text);
        if (n && n->kind == Name::reg) {
          o.based = true;
          o.reg = n->index;
          o.narrow = type_bits(f.registers[n->index].type) <= 32;
        } else {
          symbol(f, b, o);
          o.kind = OperandKind::address;
        }
      } else {
        throw error(b, "unsupported address " + describe(b));
      }
      // nvcc writes a negative offset as [%r+-4]
      if (accept("+")) o.offset += accept("-") ? -static_cast<std::int64_t>(integer()) : static_cast<std::int64_t>(integer());
      else if (accept("-")) o.offset -= static_cast<std::int64_t>(integer());
      expect("]");
      return o;
    }
    if (accept("{")) {
      o.kind = OperandKind::vector;
      do {
        const Token& r = next();
        const Name* n = r.kind == Token::ident ? lookup(r.text) : nullptr;
        if (r.text == "_") o.regs.push_back(~0u);
        else if (n && n->kind == Name::reg) o.regs.push_back(n->index);
        else throw error(r, "expected a register in the vector, found " + describe(r));
      } while (accept(","));
      expect("}");
      return o;
    }
    const bool neg = accept("-");
    const bool bang = !neg && accept("!");
    const Token& v = next();
    if (v.kind == Token::integer) {
      o.kind = OperandKind::imm;
      o.offset = neg ? -static_cast<std::int64_t>(v.u) : static_cast<std::int64_t>(v.u);
      o.bits = static_cast<std::uint64_t>(o.offset);
      return o;
    }
    if (v.kind == Token::floating) {
      o.kind = OperandKind::imm;
      o.is_float_imm = true;
      o.bits = neg ? v.u ^ (v.f64 ? 0x8000000000000000ull : 0x80000000ull) : v.u;
      if (!v.f64 && ins.type == Type::f64) {  // a 0f literal used as f64: widen
        float x;
        std::uint32_t b32 = static_cast<std::uint32_t>(o.bits);
        std::memcpy(&x, &b32, 4);
        double d = x;
        std::memcpy(&o.bits, &d, 8);
      }
      return o;
    }
    if (v.kind != Token::ident) throw error(v, "unexpected operand " + describe(v));
    if (neg) throw error(t, "'-' before a register is not PTX");
    if (v.text == "_") {
      o.kind = OperandKind::sink;
      return o;
    }
    if (auto s = kSpecials.find(v.text); s != kSpecials.end()) {
      o.kind = OperandKind::special;
      o.special = static_cast<std::uint16_t>(s->second);
      return o;
    }
    if (v.text[0] == '%' && !lookup(v.text)) throw error(v, "unsupported or undeclared register " + describe(v));
    if (const Name* n = lookup(v.text); n && n->kind == Name::reg) {
      o.kind = OperandKind::reg;
      o.reg = n->index;
      o.negated = bang;
      return o;
    }
    if (const std::int64_t fn = function_index(v.text); fn >= 0 && !lookup(v.text)) {  // a function pointer
      o.kind = OperandKind::imm;
      o.bits = kFunctionAddress + static_cast<std::uint64_t>(fn);
      o.offset = static_cast<std::int64_t>(o.bits);
      return o;
    }
    if (ins.op == Op::bra) {
      o.kind = OperandKind::label;
      pending_labels_.push_back({static_cast<std::uint32_t>(f.code.size()), v.text, v});
      return o;
    }
    symbol(f, v, o);
    return o;
  }

  void symbol(Function& f, const Token& name, Operand& o) {
    o.kind = OperandKind::symbol;
    if (const Name* n = lookup(name.text); n && n->kind == Name::symbol) {
      o.symbol = n->index;
      return;
    }
    for (std::uint32_t i = 0; i < m_.variables.size(); ++i)
      if (m_.variables[i].name == name.text) {
        o.symbol = i;
        o.global_symbol = true;
        return;
      }
    (void)f;
    throw error(name, "undeclared name '" + name.text + "'");
  }

  // call[.uni] [(ret, ...),] func[, (arg, ...)]
  void call_operands(Function& f, Instruction& ins, const Token& at) {
    std::vector<Operand> rets, args;
    auto list = [&](std::vector<Operand>& into) {
      expect("(");
      if (!is(peek(), ")")) do {
          into.push_back(operand(f, ins));
        } while (accept(","));
      expect(")");
    };
    if (is(peek(), "(")) {
      list(rets);
      expect(",");
    }
    const Token& callee = next();
    if (callee.kind != Token::ident) throw error(callee, "expected the called function");
    if (accept(",")) list(args);
    if (const Name* n = lookup(callee.text); n && n->kind == Name::reg) {
      // call through a register: its prototype (or call targets) follows the arguments.
      ins.indirect = true;
      ins.target = n->index;
      if (!accept(",")) throw error(peek(), "an indirect call ends with its .callprototype or .calltargets label");
      const Token& proto = next();
      auto it = call_shapes_.find(proto.text);
      if (proto.kind != Token::ident || it == call_shapes_.end())
        throw error(proto, describe(proto) + " is not a .callprototype or .calltargets label declared before the call");
      if (!it->second.targets && (it->second.returns != rets.size() || it->second.params != args.size()))
        throw error(proto, "call through " + callee.text + ": " + std::to_string(rets.size()) + " returns and " +
                               std::to_string(args.size()) + " arguments, but " + proto.text + " declares " +
                               std::to_string(it->second.returns) + " and " + std::to_string(it->second.params));
    } else {
      pending_calls_.push_back({&f, static_cast<std::uint32_t>(f.code.size()), callee});
    }
    Operand count;
    count.kind = OperandKind::imm;
    count.offset = static_cast<std::int64_t>(rets.size());
    ins.ops.push_back(count);  // ops: [#returns, returns..., arguments...]
    ins.ops.insert(ins.ops.end(), rets.begin(), rets.end());
    ins.ops.insert(ins.ops.end(), args.begin(), args.end());
    (void)at;
  }

  void check_operands(const Instruction& ins, const Token& at) {
    auto need = [&](std::size_t n) {
      if (ins.ops.size() != n)
        throw error(at, std::string(op_name(ins.op)) + " takes " + std::to_string(n) + " operands, not " +
                            std::to_string(ins.ops.size()));
    };
    switch (ins.op) {
      case Op::ret: case Op::exit: case Op::membar: case Op::fence: need(0); break;
      case Op::bra: need(1); break;
      case Op::activemask: case Op::warpsync: case Op::nanosleep: need(1); break;
      case Op::selp: case Op::mad: case Op::fma: case Op::bfe: case Op::prmt: case Op::shf: need(4); break;
      case Op::bfi: need(5); break;
      case Op::bmsk: case Op::szext: need(3); break;
      case Op::cp_async:
        if (ins.ops.size() < 3 || ins.ops.size() > 4 || ins.ops[0].kind != OperandKind::address || ins.ops[1].kind != OperandKind::address)
          throw error(at, "cp.async takes [shared], [global], size[, source size]");
        break;
      case Op::cp_async_bulk:
        if (ins.ops.size() < 3 || ins.ops.size() > 4 || ins.ops[0].kind != OperandKind::address || ins.ops[1].kind != OperandKind::address ||
            (ins.ops.size() == 4 && ins.ops[3].kind != OperandKind::address))
          throw error(at, "cp.async.bulk takes [destination], [source], size[, [mbarrier]]");
        break;
      case Op::mbarrier: {
        const std::size_t n = ins.ops.size();
        const bool addr_first = ins.mode == Mode::mb_init || ins.mode == Mode::mb_expect_tx || ins.mode == Mode::mb_complete_tx ||
                                ins.mode == Mode::mb_inval;
        const std::size_t at_addr = addr_first ? 0 : 1;
        const bool ok = ins.mode == Mode::mb_pending_count ? n == 2
                        : ins.mode == Mode::mb_inval        ? n == 1
                        : addr_first                        ? n == 2
                        : ins.mode == Mode::mb_wait         ? n == 3 || n == 4
                                                            : n == 2 || n == 3;
        if (!ok || (ins.mode != Mode::mb_pending_count && ins.ops[at_addr].kind != OperandKind::address))
          throw error(at, "mbarrier: wrong operands for this operation (PTX ISA 9.7.13.15)");
        break;
      }
      case Op::cp_async_commit: need(0); break;
      case Op::cp_async_wait: if (ins.ops.size() > 1) need(1); break;
      case Op::prefetch:
        need(1);
        if (ins.ops[0].kind != OperandKind::address) throw error(at, "prefetch needs an address operand in brackets");
        break;
      case Op::elect:
        need(3);
        if (ins.ops[1].kind != OperandKind::reg) throw error(at, "elect writes its predicate after '|': elect.sync d|p, membermask");
        break;
      case Op::ld: case Op::ldu: case Op::st:
        need(2);
        if (ins.ops[ins.op == Op::st ? 0 : 1].kind != OperandKind::address)
          throw error(at, std::string(op_name(ins.op)) + " needs an address operand in brackets");
        break;
      default: break;
    }
    if (ins.op == Op::shf && ins.mode == Mode::none) throw error(at, "shf needs a direction, .l or .r");
    if ((ins.op == Op::ld || ins.op == Op::st || ins.op == Op::atom || ins.op == Op::red) && ins.type == Type::none)
      throw error(at, std::string(op_name(ins.op)) + " without a type");
    if (ins.op == Op::cvt && (ins.type == Type::none || ins.type2 == Type::none))
      throw error(at, "cvt needs a destination and a source type");
  }

  // --- resolution -------------------------------------------------------------------------------
  void resolve_labels(Function& f) {
    for (const auto& p : pending_labels_) {
      auto it = f.labels.find(p.name);
      if (it == f.labels.end()) throw error(p.at, "undefined label '" + p.name + "'");
      f.code[p.index].target = it->second;
    }
    pending_labels_.clear();
  }

  void resolve_calls() {
    for (const auto& c : pending_calls_) {
      std::uint32_t idx = 0;
      bool found = false;
      for (std::uint32_t i = 0; i < m_.functions.size(); ++i)
        if (m_.functions[i].name == c.callee.text) {
          idx = i;
          found = true;
        }
      if (!found) throw error(c.callee, "call to undeclared function '" + c.callee.text + "'");
      for (auto& f : m_.functions)
        if (f.name == c.caller_name) f.code[c.index].target = idx;
    }
  }

  std::uint64_t segment(Space space) {
    std::uint64_t end = 0;
    for (auto& v : m_.variables) {
      if (v.space != space) continue;
      end = (end + v.align - 1) / v.align * v.align;
      v.offset = end;
      end += v.size;
    }
    return end;
  }

  struct PendingLabel {
    std::uint32_t index;
    std::string name;
    Token at;
  };
  struct PendingCall {
    std::string caller_name;
    std::uint32_t index;
    Token callee;
    PendingCall(Function* f, std::uint32_t i, Token c) : caller_name(f->name), index(i), callee(std::move(c)) {}
  };

  std::vector<Token> t_;
  std::size_t pos_ = 0;
  std::string file_;
  const ExtensionRegistry* ext_;
  bool per_function_errors_;
  Module m_;
  SourceLoc loc_;
  std::vector<std::map<std::string, Name>> scopes_;
  std::vector<PendingLabel> pending_labels_;
  std::vector<PendingCall> pending_calls_;
  struct CallShape {
    std::size_t returns = 0, params = 0;
    bool targets = false;  // .calltargets: any of the listed functions (their own shapes)
  };
  std::map<std::string, CallShape> call_shapes_;  // the function's .callprototype / .calltargets labels so far
};

}  // namespace

Module parse(const std::string& text, const std::string& file, const ExtensionRegistry* extensions, bool per_function_errors) {
  Module m = Parser(lex(text, file), file, extensions, per_function_errors).run();
  // Module-scope .shared variables come first in every kernel's shared segment, then those a
  // device function declares (nvcc at -O0 keeps a function's static __shared__ in the function):
  // one per CTA, like a module-scope one, not at the kernel's own offsets.
  std::uint64_t shared = 0;
  auto place = [&](Variable& v) {
    shared = (shared + v.align - 1) / v.align * v.align;
    v.offset = shared;
    shared += v.size;
  };
  for (auto& v : m.variables)
    if (v.space == Space::shared) place(v);
  for (auto& f : m.functions) {
    if (f.kernel) continue;
    for (auto& s : f.symbols)
      if (s.space == Space::shared) place(s);
    f.shared_bytes = 0;
  }
  m.shared_bytes = shared;
  for (auto& f : m.functions)
    if (f.kernel)
      for (auto& s : f.symbols)
        if (s.space == Space::shared) s.offset += (shared + 15) / 16 * 16;
  return m;
}

Module parse_file(const std::string& path, const ExtensionRegistry* extensions) {
  std::ifstream in(path);
  if (!in) throw Error({path, 0, 0}, "cannot read the PTX file", Error::Kind::config);
  std::stringstream ss;
  ss << in.rdbuf();
  return parse(ss.str(), path, extensions);
}

}  // namespace irr::core::ptx
