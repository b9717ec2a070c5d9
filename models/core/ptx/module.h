// SPDX-License-Identifier: Apache-2.0
// A parsed PTX module: variables, functions and kernels, and each function's instructions decoded
// once into a compact form (opcode, modifiers, operands as register indices, immediates and
// resolved addresses) so execution does no string work.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace irr::core::ptx {

enum class Type : std::uint8_t { none, b8, b16, b32, b64, u8, u16, u32, u64, s8, s16, s32, s64, f16, f32, f64, pred };
enum class Space : std::uint8_t { none, reg, global, shared, local, param, constant, generic };
enum class Cmp : std::uint8_t { none, eq, ne, lt, le, gt, ge, lo, ls, hi, hs, equ, neu, ltu, leu, gtu, geu, num, nan };
enum class BoolOp : std::uint8_t { none, and_, or_, xor_ };
enum class Round : std::uint8_t { none, rn, rz, rm, rp, rni, rzi, rmi, rpi };
enum class Mode : std::uint8_t {  // the one sub-operation of atom/red/vote/shfl/redux/mul/mad/bar
  none, add, min, max, exch, cas, and_, or_, xor_, inc, dec,  // atomics, redux
  all, any, uni, ballot,                                      // vote
  up, down, bfly, idx,                                        // shfl
  lo, hi, wide,                                               // mul, mad
  sync, arrive, red_popc, red_and, red_or,                    // bar
  left, right,                                                // shf
  mb_init, mb_arrive, mb_arrive_drop, mb_expect_tx, mb_complete_tx, mb_wait, mb_pending_count, mb_inval  // mbarrier
};

const char* type_name(Type t);
// Inline: the executor asks for every operand of every lane.
inline unsigned type_bits(Type t) {  // 0 for none
  switch (t) {
    case Type::b8: case Type::u8: case Type::s8: return 8;
    case Type::b16: case Type::u16: case Type::s16: case Type::f16: return 16;
    case Type::b32: case Type::u32: case Type::s32: case Type::f32: return 32;
    case Type::b64: case Type::u64: case Type::s64: case Type::f64: return 64;
    case Type::pred: return 1;
    case Type::none: return 0;
  }
  return 0;
}
inline bool is_signed(Type t) { return t == Type::s8 || t == Type::s16 || t == Type::s32 || t == Type::s64; }
inline bool is_float(Type t) { return t == Type::f16 || t == Type::f32 || t == Type::f64; }

enum class Op : std::uint16_t {
  mov, ld, ldu, st, cvta, cvt, add, sub, mul, mad, div, rem, min, max, abs, neg, and_, or_, xor_, not_, cnot,
  shl, shr, popc, clz, brev, bfind, bfe, bfi, prmt, setp, selp, set, bra, ret, exit, bar, membar, fence, atom,
  red, activemask, vote, shfl, match, redux, fma, rcp, sqrt, rsqrt, ex2, lg2, sin, cos, call, copysign, testp,
  shf, warpsync, nanosleep, bmsk, szext, prefetch, elect,
  cp_async, cp_async_bulk, cp_async_commit, cp_async_wait, mbarrier,  // asynchronous copies (sm_80, sm_90)
  extension
};
const char* op_name(Op op);

enum class OperandKind : std::uint8_t { none, reg, imm, special, address, label, vector, symbol, sink };

struct Operand {
  OperandKind kind = OperandKind::none;
  std::uint32_t reg = 0;        // reg: register index; address: base register (when based)
  bool based = false;           // address: has a base register
  bool narrow = false;          // address: the base register is 32-bit, so the address wraps at 2^32
  std::int64_t offset = 0;      // address: byte offset; imm: integer value
  std::uint64_t bits = 0;       // imm: the raw bits (floats as 0f/0d patterns)
  bool is_float_imm = false;
  std::uint32_t symbol = 0;     // address / symbol: index into Function::symbols or Module::variables
  bool global_symbol = false;   // symbol is a module variable (else a function-local one)
  std::uint16_t special = 0;    // special register id (see Special)
  std::vector<std::uint32_t> regs;  // vector: registers, with ~0u for a `_` sink
  bool negated = false;         // !%p as a source
};

enum class Special : std::uint16_t {
  tid_x, tid_y, tid_z, ntid_x, ntid_y, ntid_z, ctaid_x, ctaid_y, ctaid_z, nctaid_x, nctaid_y, nctaid_z,
  laneid, warpid, nwarpid, lanemask_eq, lanemask_lt, lanemask_le, lanemask_gt, lanemask_ge, clock, clock64,
  globaltimer, smid, nsmid, gridid
};

// A function's name used as a value (`mov.u64 %rd1, f;`, a function pointer) is this plus the
// function's index in Module::functions: not a memory address, only an indirect call takes it.
inline constexpr std::uint64_t kFunctionAddress = 0xF0F0000000000000ull;

struct SourceLoc {
  std::uint16_t file = 0;  // .file number (0: none)
  std::uint32_t line = 0, col = 0;
  // Code inlined from another function (CUDA's atomics, a __device__ function): the line of the
  // call it was inlined at (`inlined_at`; 0: not inlined).
  std::uint16_t call_file = 0;
  std::uint32_t call_line = 0;
};

// The registers an instruction reads or writes, as the timing core's scoreboard checks them, kept
// with the instruction once computed (ptx::touched_registers). A copy starts empty, so an edited
// copy of an instruction never carries a stale list.
class RegisterCache {
 public:
  RegisterCache() = default;
  RegisterCache(const RegisterCache&) {}
  RegisterCache& operator=(const RegisterCache&) {
    regs.clear();
    uses = 0;
    filled = false;
    return *this;
  }
  mutable std::vector<std::uint32_t> regs;  // the registers read (the first `uses`), then those written
  mutable std::uint32_t uses = 0;
  mutable bool filled = false;
};

struct Instruction {
  Op op = Op::mov;
  Type type = Type::none, type2 = Type::none;  // type2: cvt's source type
  Space space = Space::none;
  Cmp cmp = Cmp::none;
  BoolOp boolop = BoolOp::none;
  Round round = Round::none;
  Mode mode = Mode::none;
  std::uint8_t vec = 1;  // .v2 / .v4
  bool sat = false, ftz = false, approx = false, full = false, uni = false, nc = false, to = false, shiftamt = false;
  // A load the L1 must not serve (ld.volatile, .cg, .cv, or .relaxed/.acquire at .gpu/.sys
  // scope): it reads the L2, where other SMs' writes are, and allocates nothing in the L1.
  bool uncached = false;
  bool clamp = false;  // shf/bmsk/szext .clamp: the amount clamped to 32 (else .wrap: taken modulo 32)
  // Extended-precision arithmetic: add/sub/mad .cc write the carry (borrow for sub) to CC.CF, and
  // addc/subc/madc read it. CC.CF is a hidden per-thread register of the function (carry_reg).
  bool carry_out = false, carry_in = false;
  bool cache_policy = false;  // .L2::cache_hint: the policy operand was read and dropped
  // mbarrier.arrive.expect_tx (the arrival also expects bytes); mbarrier.try_wait/test_wait.parity
  // (the operand is a phase parity, not a state).
  bool expect_tx = false, parity = false;
  std::uint32_t carry_reg = 0;
  bool guarded = false, guard_negated = false;
  std::uint32_t guard = 0;        // predicate register
  std::vector<Operand> ops;       // destination(s) first, as written
  std::uint32_t target = 0;       // bra: instruction index; call: function index, or (indirect) the register
  bool indirect = false;          // call through a register holding a function address
  std::uint16_t extension = 0;    // Op::extension: registry index
  std::uint8_t ext_form = 0;      // Op::extension: which of the unit's forms (its decode sets it: enq.data, enq.pred, ...)
  std::uint8_t ext_defs = 1;      // Op::extension: how many leading operands it writes (its decode sets it)
  SourceLoc loc;                  // from the last .loc
  std::uint32_t ptx_line = 0;     // line in the PTX file
  // Its PC in the memory requests it makes (what PC-indexed predictors, bypass tables and
  // prefetchers key on): a byte address in the device's code, 8 bytes an instruction as GPGPU-Sim
  // lays PTX out, the modules' functions in load order. Set when a device loads the module; 0: none.
  std::uint64_t address = 0;
  RegisterCache touched;          // filled by touched_registers()
};

struct Variable {
  std::string name;
  Space space = Space::none;
  Type type = Type::none;
  std::uint64_t size = 0;  // bytes
  std::uint32_t align = 1;
  std::vector<std::uint8_t> init;  // initial bytes (global, const); empty: zero
  std::uint64_t offset = 0;        // byte offset within its space's segment (assigned by the parser)
  bool argument = false;           // a function's parameter or return value (else a call-site .param)
};

struct Register {
  std::string name;
  Type type;
};

struct Function {
  std::string name;
  bool kernel = false, external = false;
  std::vector<Variable> params;       // kernel or function parameters, in order (param space)
  std::vector<Variable> returns;      // .func return parameters
  std::vector<Register> registers;    // every register, index = Operand::reg
  std::vector<Variable> symbols;      // local, shared and call-site param variables
  std::vector<Instruction> code;
  std::map<std::string, std::uint32_t> labels;
  std::uint64_t shared_bytes = 0, local_bytes = 0, param_bytes = 0, call_param_bytes = 0;
  std::uint32_t line = 0;             // where it is declared
  std::uint32_t maxntid[3] = {0, 0, 0};
  // Why its body could not be read (where, and what), when the module was parsed with
  // per-function errors (ParseOptions): the function has no code, and launching a kernel that
  // reaches it is the error.
  std::string unsupported;
};

struct Module {
  std::string file;
  std::string version, target;
  unsigned address_size = 64;
  std::vector<Variable> variables;      // module-scope .global / .const / .shared
  std::vector<Function> functions;
  std::map<std::uint16_t, std::string> files;  // .file number -> path
  std::uint64_t global_bytes = 0, const_bytes = 0;
  std::uint64_t shared_bytes = 0;  // module-scope and device-function .shared variables: first in every CTA's segment

  const Function* find(const std::string& name) const;
  std::vector<const Function*> kernels() const;
  // The first `unsupported` of the function or of one it calls directly or through others; empty
  // when all of them can run.
  std::string unsupported_from(const Function& f) const;
};

}  // namespace irr::core::ptx
