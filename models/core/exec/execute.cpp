// SPDX-License-Identifier: Apache-2.0
// Warp::execute: the semantics of each PTX instruction, for the active threads of a warp.
#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>

#include "models/core/exec/values.h"
#include "models/core/exec/warp.h"
#include "sim/error.h"

namespace irr::core {

using ptx::BoolOp;
using ptx::Cmp;
using ptx::Mode;
using ptx::Op;
using ptx::Operand;
using ptx::OperandKind;
using ptx::Round;
using ptx::Space;
using ptx::Type;

namespace {

unsigned tb(Type t) { return ptx::type_bits(t); }
bool flt(Type t) { return ptx::is_float(t); }
bool sgn(Type t) { return ptx::is_signed(t); }
double fv(std::uint64_t b, Type t) { return t == Type::f64 ? f64(b) : static_cast<double>(f32(b)); }
std::uint64_t fb(double v, Type t) { return t == Type::f64 ? bits(v) : bits(static_cast<float>(v)); }

double flush(double v, bool on, Type t) {
  if (on && t == Type::f32 && std::fpclassify(static_cast<float>(v)) == FP_SUBNORMAL) return std::copysign(0.0, v);
  return v;
}

// Float arithmetic in the operand type's precision and the instruction's rounding.
std::uint64_t farith(const ptx::Instruction& in, double a, double b, double c) {
  const Type t = in.type;
  const Round r = in.round == Round::none ? Round::rn : in.round;
  a = flush(a, in.ftz, t);
  b = flush(b, in.ftz, t);
  c = flush(c, in.ftz, t);
  auto f32op = [&](auto op) { return rounded(r, [&] { return static_cast<double>(op(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c))); }); };
  auto f64op = [&](auto op) { return rounded(r, [&] { return op(a, b, c); }); };
  double v = 0;
  auto pick = [&](auto op) { v = t == Type::f64 ? f64op(op) : f32op(op); };
  switch (in.op) {
    case Op::add: pick([](auto x, auto y, auto) { return x + y; }); break;
    case Op::sub: pick([](auto x, auto y, auto) { return x - y; }); break;
    case Op::mul: pick([](auto x, auto y, auto) { return x * y; }); break;
    case Op::div: pick([](auto x, auto y, auto) { return x / y; }); break;
    case Op::fma: case Op::mad: pick([](auto x, auto y, auto z) { return std::fma(x, y, z); }); break;
    case Op::min:
      v = std::isnan(a) ? b : std::isnan(b) ? a : std::min(a, b);
      break;
    case Op::max:
      v = std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b);
      break;
    case Op::abs: v = std::fabs(a); break;
    case Op::neg: v = -a; break;
    case Op::rcp: pick([](auto x, auto, auto) { return decltype(x)(1) / x; }); break;
    case Op::sqrt: pick([](auto x, auto, auto) { return std::sqrt(x); }); break;
    case Op::rsqrt: v = t == Type::f64 ? 1.0 / std::sqrt(a) : static_cast<double>(1.0f / std::sqrt(static_cast<float>(a))); break;
    case Op::ex2: v = t == Type::f64 ? std::exp2(a) : static_cast<double>(std::exp2(static_cast<float>(a))); break;
    case Op::lg2: v = t == Type::f64 ? std::log2(a) : static_cast<double>(std::log2(static_cast<float>(a))); break;
    case Op::sin: v = static_cast<double>(std::sin(static_cast<float>(a))); break;
    case Op::cos: v = static_cast<double>(std::cos(static_cast<float>(a))); break;
    case Op::copysign: v = std::copysign(b, a); break;
    default: throw std::invalid_argument(std::string(ptx::op_name(in.op)) + " on floats is not supported");
  }
  if (in.sat) v = std::isnan(v) ? 0.0 : std::clamp(v, 0.0, 1.0);
  v = flush(v, in.ftz, t);
  return fb(v, t);
}

// An f32 operation farith computes in float with round-to-nearest and no flushing or clamping:
// the float result directly is the same value.
bool plain_f32(const ptx::Instruction& in) {
  return in.type == Type::f32 && !in.ftz && !in.sat && (in.round == Round::none || in.round == Round::rn);
}

// Calls f(lane) for each lane set in `active`, in lane order; a full warp as a loop of fixed count.
template <class F>
inline __attribute__((always_inline)) void for_lanes(std::uint32_t active, F&& f) {
  if (active == ~0u) {
    for (unsigned l = 0; l < 32; ++l) f(l);
  } else {
    for (std::uint32_t m = active; m; m &= m - 1) f(static_cast<unsigned>(__builtin_ctz(m)));
  }
}

// n (1, 2, 4 or 8) little-endian bytes as a value, without a call to memcpy for the variable size.
std::uint64_t little_endian(const std::uint8_t* p, unsigned n) {
  std::uint32_t w;
  std::uint64_t v = 0;
  switch (n) {
    case 1: return *p;
    case 4: std::memcpy(&w, p, 4); return w;
    case 8: std::memcpy(&v, p, 8); return v;
    default: std::memcpy(&v, p, n); return v;
  }
}

// The value an atomic writes: its operation on the old value and the operands (c: cas's swap value).
std::uint64_t atomic_result(const ptx::Instruction& in, std::uint64_t old, std::uint64_t b, std::uint64_t c) {
  const Type t = in.type;
  if (flt(t)) {
    if (in.mode != Mode::add && in.mode != Mode::exch && in.mode != Mode::min && in.mode != Mode::max)
      throw std::invalid_argument("atomic on floats other than add, min, max, exch");
    const double x = fv(old, t), y = fv(b, t);
    return in.mode == Mode::add ? fb(x + y, t) : in.mode == Mode::exch ? b : fb(in.mode == Mode::min ? std::fmin(x, y) : std::fmax(x, y), t);
  }
  const unsigned w = tb(t);
  const bool s = sgn(t);
  switch (in.mode) {
    case Mode::add: return zext(old + b, w);
    case Mode::min: return s ? zext(static_cast<std::uint64_t>(std::min(sext(old, w), sext(b, w))), w) : std::min(zext(old, w), zext(b, w));
    case Mode::max: return s ? zext(static_cast<std::uint64_t>(std::max(sext(old, w), sext(b, w))), w) : std::max(zext(old, w), zext(b, w));
    case Mode::exch: return b;
    case Mode::cas: return zext(old, w) == zext(b, w) ? c : old;
    case Mode::and_: return old & b;
    case Mode::or_: return old | b;
    case Mode::xor_: return old ^ b;
    case Mode::inc: return zext(old, w) >= zext(b, w) ? 0 : zext(old + 1, w);
    case Mode::dec: return (zext(old, w) == 0 || zext(old, w) > zext(b, w)) ? b : zext(old - 1, w);
    default: throw std::invalid_argument("atomic without an operation");
  }
}

std::uint64_t mulhi(std::uint64_t a, std::uint64_t b, unsigned n, bool s) {
  if (n < 64) {
    if (s) return zext(static_cast<std::uint64_t>((sext(a, n) * sext(b, n)) >> n), n);
    return zext((zext(a, n) * zext(b, n)) >> n, n);
  }
  if (s) return static_cast<std::uint64_t>((static_cast<__int128>(static_cast<std::int64_t>(a)) * static_cast<std::int64_t>(b)) >> 64);
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
}

// Integer arithmetic on n-bit values (results truncated to n bits unless widened).
std::uint64_t iarith(const ptx::Instruction& in, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  const Type t = in.type;
  const unsigned n = tb(t);
  const bool s = sgn(t);
  const std::int64_t sa = sext(a, n), sb = sext(b, n);
  const std::uint64_t ua = zext(a, n), ub = zext(b, n);
  switch (in.op) {
    case Op::add:
      if (in.sat && s) return zext(static_cast<std::uint64_t>(std::clamp<std::int64_t>(sa + sb, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max())), n);
      return zext(a + b, n);
    case Op::sub:
      if (in.sat && s) return zext(static_cast<std::uint64_t>(std::clamp<std::int64_t>(sa - sb, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max())), n);
      return zext(a - b, n);
    case Op::mul:
      if (in.mode == Mode::wide) return s ? static_cast<std::uint64_t>(sa * sb) : ua * ub;  // 2n bits, n <= 32
      if (in.mode == Mode::hi) return mulhi(a, b, n, s);
      return zext(a * b, n);
    case Op::mad:
      if (in.mode == Mode::wide) return (s ? static_cast<std::uint64_t>(sa * sb) : ua * ub) + c;
      if (in.mode == Mode::hi) return zext(mulhi(a, b, n, s) + c, n);
      return zext(a * b + c, n);
    case Op::div:
      // Division by zero: all ones (unsigned), -1 (signed); INT_MIN / -1 = INT_MIN (docs/ptx.md).
      if (!ub) return low_bits(n);
      if (s) {
        if (sb == -1) return zext(static_cast<std::uint64_t>(-sa), n);
        return zext(static_cast<std::uint64_t>(sa / sb), n);
      }
      return ua / ub;
    case Op::rem:
      if (!ub) return ua;  // x % 0 = x
      if (s) return sb == -1 ? 0 : zext(static_cast<std::uint64_t>(sa % sb), n);
      return ua % ub;
    case Op::min: return s ? zext(static_cast<std::uint64_t>(std::min(sa, sb)), n) : std::min(ua, ub);
    case Op::max: return s ? zext(static_cast<std::uint64_t>(std::max(sa, sb)), n) : std::max(ua, ub);
    case Op::abs: return zext(static_cast<std::uint64_t>(sa < 0 ? -sa : sa), n);
    case Op::neg: return zext(0 - a, n);
    case Op::and_: return zext(a & b, n);
    case Op::or_: return zext(a | b, n);
    case Op::xor_: return zext(a ^ b, n);
    case Op::not_: return zext(~a, n);
    case Op::cnot: return ua == 0 ? 1 : 0;
    case Op::shl: return ub >= n ? 0 : zext(a << ub, n);  // the shift amount is an unsigned 32-bit value
    case Op::shr:
      if (s) return zext(static_cast<std::uint64_t>(sa >> std::min<std::uint64_t>(zext(b, 32), n - 1)), n);
      return zext(b, 32) >= n ? 0 : ua >> zext(b, 32);
    case Op::popc: return static_cast<std::uint64_t>(__builtin_popcountll(ua));
    case Op::clz: return n - (ua ? (64 - static_cast<unsigned>(__builtin_clzll(ua))) : 0);
    case Op::brev: {
      std::uint64_t r = 0;
      for (unsigned i = 0; i < n; ++i)
        if (ua >> i & 1) r |= 1ull << (n - 1 - i);
      return r;
    }
    case Op::bfind: {
      std::uint64_t v = s && sa < 0 ? zext(~a, n) : ua;
      if (!v) return 0xffffffffu;
      const unsigned msb = 63 - static_cast<unsigned>(__builtin_clzll(v));
      return in.shiftamt ? n - 1 - msb : msb;  // .shiftamt: the left shift that makes it the top bit
    }
    case Op::bfe: {
      const unsigned pos = static_cast<unsigned>(zext(b, 8)), len = static_cast<unsigned>(zext(c, 8));
      if (len == 0) return 0;
      std::uint64_t field = pos >= n ? 0 : ua >> pos;
      const unsigned got = pos >= n ? 0 : std::min(len, n - pos);
      field = zext(field, got);
      if (s) {  // sign from bit min(pos + len - 1, n - 1)
        const unsigned sbit = std::min(pos + len - 1, n - 1);
        const bool neg = (ua >> sbit) & 1;
        if (neg) field |= ~low_bits(std::min(len, got));
        return zext(field, n);
      }
      return field;
    }
    default: break;
  }
  throw std::invalid_argument(std::string(ptx::op_name(in.op)) + "." + ptx::type_name(t) + " is not supported");
}

std::uint64_t convert(const ptx::Instruction& in, std::uint64_t v) {
  const Type to = in.type, from = in.type2;
  if (flt(from) || flt(to)) {
    double x;
    if (from == Type::f16) x = half_to_float(static_cast<std::uint16_t>(v));
    else if (flt(from)) x = fv(v, from);
    else x = sgn(from) ? static_cast<double>(sext(v, tb(from))) : static_cast<double>(zext(v, tb(from)));
    if (flt(from) && in.ftz) x = flush(x, true, from);
    if (!flt(to)) return f2i(x, to, in.round);
    // To a float: int sources round in the destination precision; f64 -> f32 rounds too.
    double out;
    if (to == Type::f16) {
      const float f = rounded(in.round == Round::none ? Round::rn : in.round, [&] { return static_cast<float>(x); });
      return float_to_half(f);
    }
    if (to == Type::f32) {
      if (!flt(from) && sgn(from))
        out = rounded(in.round, [&] { return static_cast<double>(static_cast<float>(sext(v, tb(from)))); });
      else if (!flt(from))
        out = rounded(in.round, [&] { return static_cast<double>(static_cast<float>(zext(v, tb(from)))); });
      else
        out = rounded(in.round, [&] { return static_cast<double>(static_cast<float>(x)); });
    } else {
      if (!flt(from) && tb(from) == 64)
        out = rounded(in.round, [&] { return sgn(from) ? static_cast<double>(static_cast<std::int64_t>(v)) : static_cast<double>(v); });
      else
        out = x;
      if (in.round == Round::rni || in.round == Round::rzi || in.round == Round::rmi || in.round == Round::rpi)
        out = in.round == Round::rni ? std::nearbyint(out) : in.round == Round::rzi ? std::trunc(out)
              : in.round == Round::rmi ? std::floor(out) : std::ceil(out);
    }
    if (in.sat) out = std::isnan(out) ? 0.0 : std::clamp(out, 0.0, 1.0);
    if (to == Type::f32 && (in.round == Round::rni || in.round == Round::rzi || in.round == Round::rmi || in.round == Round::rpi))
      out = in.round == Round::rni ? std::nearbyint(out) : in.round == Round::rzi ? std::trunc(out)
            : in.round == Round::rmi ? std::floor(out) : std::ceil(out);
    return fb(out, to);
  }
  // Integer to integer: sign- or zero-extend the source, then truncate or saturate.
  const std::int64_t sv = sgn(from) ? sext(v, tb(from)) : static_cast<std::int64_t>(zext(v, tb(from)));
  if (in.sat) {
    if (!sgn(from) && tb(from) == 64) return std::min<std::uint64_t>(zext(v, 64), sgn(to) ? low_bits(tb(to) - 1) : low_bits(tb(to)));
    return saturate_int(sv, to);
  }
  return zext(static_cast<std::uint64_t>(sv), tb(to));
}

}  // namespace

// The frequent instructions as typed loops over the warp: each operand gathered once into a lane
// array, the destination's lane array written directly, no per-lane decision on operand kinds or
// write-backs (a full warp's loop has a fixed count the compiler can unroll). Same values as the
// general path in execute(), which takes every other form; false: not one of these forms.
bool Warp::warp_wide(Frame& fr, const ptx::Instruction& in, std::uint32_t active, Step& step) {
  const Type t = in.type;
  const std::size_t nops = in.ops.size();
  auto lanes = [active](auto f) __attribute__((always_inline)) { for_lanes(active, f); };
  // Operand i read as type ty for every active lane, into out[lane].
  auto gather = [&](std::size_t i, Type ty, std::uint64_t* out) __attribute__((always_inline)) {
    const Operand& o = in.ops.at(i);
    const std::uint64_t m = low_bits(tb(ty) ? tb(ty) : 64);
    if (o.kind == OperandKind::reg) {
      const std::uint64_t flip = o.negated ? 1 : 0;
      fr.with_row(o.reg, [&](const auto* r) { lanes([&](unsigned l) { out[l] = (r[l] ^ flip) & m; }); });
    } else if (o.kind == OperandKind::imm) {
      const std::uint64_t v = o.bits & m;
      lanes([&](unsigned l) { out[l] = v; });
    } else if (o.kind == OperandKind::special) {
      const auto sp = static_cast<ptx::Special>(o.special);
      lanes([&](unsigned l) { out[l] = special(sp, l) & m; });
    } else {
      lanes([&](unsigned l) { out[l] = read(fr, o, l, ty); });
    }
  };
  // The destination's values, every active lane to be written (one destination an instruction:
  // a second emplace could move the first).
  std::uint64_t discard[32];
  auto dest = [&](const Operand& d) -> std::uint64_t* {
    if (d.kind == OperandKind::sink) return discard;
    if (d.kind != OperandKind::reg) throw std::invalid_argument("the destination must be a register");
    Step::Write& w = step.writes.emplace_back();
    w.reg = d.reg;
    w.mask = active;
    return w.value;
  };
  // The address [%r+off] names for every active lane, into at[lane] and, in lane order, the step's.
  auto address = [&](const Operand& o, std::uint64_t* at) {
    const auto offset = static_cast<std::uint64_t>(o.offset);
    const std::uint64_t wrap = o.narrow ? 0xffffffffull : ~0ull;  // 32-bit address arithmetic wraps
    const std::size_t first = step.addresses.size();
    step.addresses.resize(first + static_cast<unsigned>(__builtin_popcount(active)));
    std::uint64_t* listed = step.addresses.data() + first;
    fr.with_row(o.reg, [&](const auto* base) { lanes([&](unsigned l) { *listed++ = at[l] = (base[l] + offset) & wrap; }); });
  };
  if (!step.writes.empty() || nops == 0 || in.ops[0].kind == OperandKind::vector || in.carry_in || in.carry_out) return false;
  const unsigned n = tb(t);
  const std::uint64_t m = low_bits(n);
  // Integers of any width; the shifts only at 32 and 64 bits (iarith truncates a narrower one's amount).
  const bool s = sgn(t), integer = !flt(t) && n, wide_int = integer && (n == 32 || n == 64);
  std::uint64_t a[32], b[32], c[32];
  auto map2 = [&](auto f) {
    gather(1, t, a);
    gather(2, t, b);
    std::uint64_t* out = dest(in.ops[0]);
    lanes([&](unsigned l) { out[l] = f(a[l], b[l]); });
  };
  auto map3 = [&](Type ct, auto f) {
    gather(1, t, a);
    gather(2, t, b);
    gather(3, ct, c);
    std::uint64_t* out = dest(in.ops[0]);
    lanes([&](unsigned l) { out[l] = f(a[l], b[l], c[l]); });
  };
  auto sx = [n](std::uint64_t v) { return sext(v, n); };
  switch (in.op) {
    case Op::mov:
      if (nops != 2 || in.ops[1].kind == OperandKind::vector) return false;
      gather(1, t, dest(in.ops[0]));
      return true;
    case Op::add: case Op::sub: case Op::mul:
      if (nops != 3) return false;
      if (plain_f32(in)) {
        if (in.op == Op::add) map2([](std::uint64_t x, std::uint64_t y) { return bits(f32(x) + f32(y)); });
        else if (in.op == Op::sub) map2([](std::uint64_t x, std::uint64_t y) { return bits(f32(x) - f32(y)); });
        else map2([](std::uint64_t x, std::uint64_t y) { return bits(f32(x) * f32(y)); });
        return true;
      }
      if (!integer || in.sat) return false;
      if (in.op == Op::add) map2([m](std::uint64_t x, std::uint64_t y) { return (x + y) & m; });
      else if (in.op == Op::sub) map2([m](std::uint64_t x, std::uint64_t y) { return (x - y) & m; });
      else if (in.mode == Mode::wide && s) map2([sx](std::uint64_t x, std::uint64_t y) { return static_cast<std::uint64_t>(sx(x) * sx(y)); });
      else if (in.mode == Mode::wide) map2([](std::uint64_t x, std::uint64_t y) { return x * y; });
      else if (in.mode != Mode::hi) map2([m](std::uint64_t x, std::uint64_t y) { return (x * y) & m; });
      else return false;
      return true;
    case Op::and_: case Op::or_: case Op::xor_:  // predicates too
      if (nops != 3 || !integer) return false;
      if (in.op == Op::and_) map2([](std::uint64_t x, std::uint64_t y) { return x & y; });
      else if (in.op == Op::or_) map2([](std::uint64_t x, std::uint64_t y) { return x | y; });
      else map2([](std::uint64_t x, std::uint64_t y) { return x ^ y; });
      return true;
    case Op::shl: case Op::shr: {  // the shift amount an unsigned 32-bit value
      if (nops != 3 || !wide_int) return false;
      gather(1, t, a);
      gather(2, Type::u32, b);
      std::uint64_t* out = dest(in.ops[0]);
      if (in.op == Op::shl) lanes([&](unsigned l) { out[l] = b[l] >= n ? 0 : (a[l] << b[l]) & m; });
      else if (s) lanes([&](unsigned l) { out[l] = static_cast<std::uint64_t>(sx(a[l]) >> std::min<std::uint64_t>(b[l], n - 1)) & m; });
      else lanes([&](unsigned l) { out[l] = b[l] >= n ? 0 : a[l] >> b[l]; });
      return true;
    }
    case Op::mad: case Op::fma:
      if (nops != 4) return false;
      if (plain_f32(in)) {
        map3(t, [](std::uint64_t x, std::uint64_t y, std::uint64_t z) { return bits(std::fma(f32(x), f32(y), f32(z))); });
        return true;
      }
      if (in.op != Op::mad || !integer || in.mode == Mode::hi) return false;
      if (in.mode == Mode::wide && s)
        map3(Type::s64, [sx](std::uint64_t x, std::uint64_t y, std::uint64_t z) { return static_cast<std::uint64_t>(sx(x) * sx(y)) + z; });
      else if (in.mode == Mode::wide)
        map3(Type::u64, [](std::uint64_t x, std::uint64_t y, std::uint64_t z) { return x * y + z; });
      else
        map3(t, [m](std::uint64_t x, std::uint64_t y, std::uint64_t z) { return (x * y + z) & m; });
      return true;
    case Op::setp: {  // integers, f32 and f64; one predicate, no combining
      if (nops != 3 || in.boolop != BoolOp::none || !n || t == Type::f16) return false;
      // The relation of eq..ge as a functor for f (false: not one of them).
      auto with_relation = [](Cmp c, auto f) {
        switch (c) {
          case Cmp::eq: return f(std::equal_to<>{});
          case Cmp::ne: return f(std::not_equal_to<>{});
          case Cmp::lt: return f(std::less<>{});
          case Cmp::le: return f(std::less_equal<>{});
          case Cmp::gt: return f(std::greater<>{});
          case Cmp::ge: return f(std::greater_equal<>{});
          default: return false;  // the general path names what is not defined
        }
      };
      auto compare_as = [&](Cmp c, bool on_nan, auto value) {
        return with_relation(c, [&](auto rel) {
          map2([&](std::uint64_t x, std::uint64_t y) -> std::uint64_t {
            const auto u = value(x), v = value(y);
            return u != u || v != v ? on_nan : rel(u, v);  // only a float is unequal to itself (NaN)
          });
          return true;
        });
      };
      if (flt(t)) {  // an ordered comparison is false with a NaN operand, an unordered one true
        auto as_float = [&](auto value) {
          Cmp c = in.cmp;
          if (c == Cmp::num || c == Cmp::nan) {
            map2([&](std::uint64_t x, std::uint64_t y) -> std::uint64_t {
              const auto u = value(x), v = value(y);
              return (u != u || v != v) == (c == Cmp::nan);
            });
            return true;
          }
          const bool unordered = c >= Cmp::equ && c <= Cmp::geu;
          if (unordered) c = static_cast<Cmp>(static_cast<int>(c) - static_cast<int>(Cmp::equ) + static_cast<int>(Cmp::eq));
          return compare_as(c, unordered, value);
        };
        return t == Type::f64 ? as_float([](std::uint64_t x) { return f64(x); }) : as_float([](std::uint64_t x) { return f32(x); });
      }
      Cmp cmp = in.cmp;
      if (!s) cmp = cmp == Cmp::lo ? Cmp::lt : cmp == Cmp::ls ? Cmp::le : cmp == Cmp::hi ? Cmp::gt : cmp == Cmp::hs ? Cmp::ge : cmp;
      return s ? compare_as(cmp, false, sx) : compare_as(cmp, false, [](std::uint64_t v) { return v; });
    }
    case Op::selp: {
      if (nops != 4) return false;
      gather(1, t, a);
      gather(2, t, b);
      gather(3, Type::pred, c);
      std::uint64_t* out = dest(in.ops[0]);
      lanes([&](unsigned l) { out[l] = (c[l] & 1) ? a[l] : b[l]; });
      return true;
    }
    case Op::cvt: {  // integer to integer without saturation: extend the source, truncate
      const Type from = in.type2;
      if (nops != 2 || flt(t) || flt(from) || in.sat || !n || !tb(from)) return false;
      const unsigned fn = tb(from);
      gather(1, from, a);
      std::uint64_t* out = dest(in.ops[0]);
      if (sgn(from)) lanes([&](unsigned l) { out[l] = static_cast<std::uint64_t>(sext(a[l], fn)) & m; });
      else lanes([&](unsigned l) { out[l] = a[l] & m; });
      return true;
    }
    case Op::cvta: {  // between a window of the generic space and its state space (every form)
      const std::uint64_t window = in.space == Space::shared ? kSharedWindow : in.space == Space::local ? kLocalWindow : 0;
      const std::uint64_t add = in.to ? 0 - window : window, mask = low_bits(n ? n : 64);
      gather(1, Type::u64, a);
      std::uint64_t* out = dest(in.ops[0]);
      lanes([&](unsigned l) { out[l] = (a[l] + add) & mask; });
      return true;
    }
    case Op::ld: case Op::ldu: case Op::st: {  // one register from or to a named parameter or [%r+off]
      const bool is_load = in.op != Op::st;
      if (nops != 2) return false;
      const Operand& addr_op = in.ops[is_load ? 1 : 0];
      const Operand& val_op = in.ops[is_load ? 0 : 1];
      const unsigned size = n / 8;
      if (in.space == Space::param) {  // a named parameter: the kernel's, a function's or a call site's
        if (in.vec != 1 || !(val_op.kind == OperandKind::reg || (!is_load && val_op.kind == OperandKind::imm)) || addr_op.based)
          return false;
        const ParamPlace place = param_place(fr, addr_op, size);
        step.addresses.resize(step.addresses.size() + static_cast<unsigned>(__builtin_popcount(active)), 0);
        if (!is_load) {
          gather(1, t, b);
          lanes([&](unsigned l) { std::memcpy(place.lane0 + l * place.stride, &b[l], size); });
          return true;
        }
        std::uint64_t* out = dest(val_op);
        lanes([&](unsigned l) {
          const std::uint64_t v = little_endian(place.lane0 + l * place.stride, size);
          out[l] = s ? static_cast<std::uint64_t>(sext(v, n)) : v;
        });
        return true;
      }
      if (in.vec != 1 || addr_op.kind != OperandKind::address || !addr_op.based || addr_op.global_symbol ||
          !(val_op.kind == OperandKind::reg || (!is_load && val_op.kind == OperandKind::imm)))
        return false;
      const bool shared = in.space == Space::shared;
      if (!is_load) gather(1, t, b);
      std::uint64_t* out = is_load ? dest(val_op) : nullptr;
      std::uint64_t at[32];
      address(addr_op, at);
      std::uint8_t* const shared_bytes = cta_.shared.data();
      const std::uint64_t shared_size = shared ? cta_.shared.size() : 0;
      mem::BackingStore* const global = in.space == Space::global ? cta_.ctx.memory : nullptr;
      if (shared && (size == 4 || size == 8)) {  // every lane inside the CTA's bytes: one loop of word copies
        bool inside = true;
        lanes([&](unsigned l) { inside &= at[l] + size <= shared_size; });
        auto words = [&](auto word) {
          using W = decltype(word);
          if (is_load) {
            lanes([&](unsigned l) {
              W v;
              std::memcpy(&v, shared_bytes + at[l], sizeof v);
              out[l] = s ? static_cast<std::uint64_t>(sext(v, n)) : v;
            });
          } else {
            lanes([&](unsigned l) {
              const auto v = static_cast<W>(b[l]);
              std::memcpy(shared_bytes + at[l], &v, sizeof v);
            });
          }
          return true;
        };
        if (inside) return size == 4 ? words(std::uint32_t{}) : words(std::uint64_t{});
      }
      lanes([&](unsigned l) {
        const std::uint64_t addr = at[l];
        const bool in_shared = addr + size <= shared_size;  // else load/store resolve it, or name the error
        if (!is_load) {
          if (in_shared) std::memcpy(shared_bytes + addr, &b[l], size);
          else if (global) global->write(addr, &b[l], size);
          else store(fr, in.space, addr, l, &b[l], size);
          return;
        }
        std::uint64_t v = 0;
        if (in_shared) v = little_endian(shared_bytes + addr, size);
        else if (global) global->read(addr, &v, size);
        else load(fr, in.space, addr, l, &v, size);
        out[l] = s ? static_cast<std::uint64_t>(sext(v, n)) : v;
      });
      return true;
    }
    case Op::atom: case Op::red: {  // global, at [%r+off]: read-modify-write lane after lane
      const bool has_dst = in.op == Op::atom;
      const Operand& addr_op = in.ops.at(has_dst ? 1 : 0);
      const std::size_t b_at = has_dst ? 2 : 1;
      if (in.space != Space::global || addr_op.kind != OperandKind::address || !addr_op.based || addr_op.global_symbol)
        return false;
      gather(b_at, t, b);
      if (in.mode == Mode::cas) gather(b_at + 1, t, c);
      std::uint64_t* out = has_dst ? dest(in.ops[0]) : nullptr;
      std::uint64_t at[32];
      address(addr_op, at);
      const unsigned size = n / 8;
      mem::BackingStore& memory = *cta_.ctx.memory;
      lanes([&](unsigned l) {
        const std::uint64_t addr = at[l];
        std::uint64_t old = 0;
        memory.read(addr, &old, size);
        const std::uint64_t nv = atomic_result(in, old, b[l], in.mode == Mode::cas ? c[l] : 0);
        memory.write(addr, &nv, size);  // each lane in lane order: contention serialises
        if (out) out[l] = zext(old, n);
      });
      return true;
    }
    default: return false;
  }
}

void Warp::execute(Frame& fr, const ptx::Instruction& in, std::uint32_t active, Step& step) {
  if (warp_wide(fr, in, active, step)) return;  // before the general path's set-up
  const Type t = in.type;
  // The last destination written: most instructions write one register lane after lane.
  std::size_t last = ~std::size_t{0};
  auto write = [&](const Operand& d, unsigned lane, std::uint64_t v) {
    if (d.kind == OperandKind::sink) return;
    if (d.kind != OperandKind::reg) throw std::invalid_argument("the destination must be a register");
    if (last >= step.writes.size() || step.writes[last].reg != d.reg) {
      last = 0;
      while (last < step.writes.size() && step.writes[last].reg != d.reg) ++last;
      if (last == step.writes.size()) {
        Step::Write& w = step.writes.emplace_back();
        w.reg = d.reg;
        w.mask = 0;
      }
    }
    Step::Write& w = step.writes[last];
    w.mask |= 1u << lane;
    w.value[lane] = v;
  };
  // Operands read lane after lane: a register's or an immediate's read without deciding its kind
  // again for every lane (the executor's most frequent work); others through read().
  struct Source {
    const std::uint64_t* reg = nullptr;  // a 64-bit register's row, or
    const std::uint32_t* reg32 = nullptr;  // a narrow one's
    std::uint64_t imm = 0, mask = 0, flip = 0;
    Type type = Type::none;
    bool general = true, built = false;
  };
  Source sources[5];
  auto build = [&](Source& so, std::size_t i, Type ty) __attribute__((noinline)) {
    const Operand& o = in.ops.at(i);
    const unsigned n = tb(ty) ? tb(ty) : 64;
    so = Source{};
    so.built = true;
    so.type = ty;
    so.mask = low_bits(n);
    so.general = false;
    if (o.kind == OperandKind::reg) {
      fr.with_row(o.reg, [&so](auto* r) {
        if constexpr (sizeof *r == 8) so.reg = r;
        else so.reg32 = r;
      });
      so.flip = o.negated ? 1 : 0;
    } else if (o.kind == OperandKind::imm) {
      so.imm = zext(o.bits, n);
    } else {
      so.general = true;
    }
  };
  auto src = [&](std::size_t i, unsigned lane, Type ty) __attribute__((always_inline)) -> std::uint64_t {
    if (i >= std::size(sources)) return read(fr, in.ops.at(i), lane, ty);
    Source& so = sources[i];
    if (!so.built || so.type != ty) build(so, i, ty);
    if (so.reg) return (so.reg[lane] ^ so.flip) & so.mask;
    if (so.reg32) return (so.reg32[lane] ^ so.flip) & so.mask;
    if (!so.general) return so.imm;
    return read(fr, in.ops[i], lane, ty);
  };
  auto each = [&](auto f) { for_lanes(active, f); };
  const std::size_t nops = in.ops.size();

  if (in.carry_in || in.carry_out) {  // add/sub/mad with CC.CF: n-bit arithmetic, the carry bit n
    Operand cf;
    cf.kind = OperandKind::reg;
    cf.reg = in.carry_reg;
    const unsigned n = tb(t);
    using u128 = unsigned __int128;
    const u128 m = (u128{1} << n) - 1;
    each([&](unsigned l) {
      const std::uint64_t a = src(1, l, t), b = src(2, l, t);
      const u128 cin = in.carry_in ? (fr.reg(in.carry_reg, l) & 1) : 0;
      u128 r;
      bool carry;
      if (in.op == Op::sub) {  // the carry is the borrow: a - (b + CC.CF)
        const u128 take = u128{b} + cin;
        carry = u128{a} < take;
        r = (u128{a} - take) & m;
      } else {
        u128 x = a, y = b;
        if (in.op == Op::mad) {  // (a * b).lo or .hi, then + c
          const u128 p = sgn(t) ? static_cast<u128>(static_cast<__int128>(sext(a, n)) * sext(b, n)) : u128{a} * b;
          x = in.mode == Mode::hi ? (p >> n) & m : p & m;
          y = src(3, l, t);
        }
        const u128 sum = x + y + cin;
        carry = (sum >> n) & 1;
        r = sum & m;
      }
      write(in.ops[0], l, static_cast<std::uint64_t>(r));
      if (in.carry_out) write(cf, l, carry);
    });
    return;
  }

  switch (in.op) {
    case Op::mov:
      if (in.ops[0].kind == OperandKind::vector) {  // unpack
        each([&](unsigned l) {
          const std::uint64_t v = src(1, l, t);
          const unsigned part = tb(t) / static_cast<unsigned>(in.ops[0].regs.size());
          for (std::size_t k = 0; k < in.ops[0].regs.size(); ++k)
            if (in.ops[0].regs[k] != ~0u) {
              Operand d;
              d.kind = OperandKind::reg;
              d.reg = in.ops[0].regs[k];
              write(d, l, zext(v >> (k * part), part));
            }
        });
      } else if (in.ops[1].kind == OperandKind::vector) {  // pack
        each([&](unsigned l) {
          const unsigned part = tb(t) / static_cast<unsigned>(in.ops[1].regs.size());
          std::uint64_t v = 0;
          for (std::size_t k = 0; k < in.ops[1].regs.size(); ++k)
            v |= zext(fr.reg(in.ops[1].regs[k], l), part) << (k * part);
          write(in.ops[0], l, v);
        });
      } else {
        each([&](unsigned l) { write(in.ops[0], l, src(1, l, t)); });
      }
      return;

    case Op::add: case Op::sub: case Op::mul: case Op::div: case Op::rem: case Op::min: case Op::max:
    case Op::and_: case Op::or_: case Op::xor_: case Op::shl: case Op::shr: case Op::copysign:
      each([&](unsigned l) {
        const Type srct = (in.op == Op::shl || in.op == Op::shr) ? t : t;
        const std::uint64_t a = src(1, l, srct), b = src(2, l, (in.op == Op::shl || in.op == Op::shr) ? Type::u32 : t);
        write(in.ops[0], l, flt(t) ? farith(in, fv(a, t), fv(b, t), 0) : iarith(in, a, b, 0));
      });
      return;

    case Op::abs: case Op::neg: case Op::not_: case Op::cnot: case Op::popc: case Op::clz: case Op::brev:
    case Op::bfind: case Op::rcp: case Op::sqrt: case Op::rsqrt: case Op::ex2: case Op::lg2: case Op::sin: case Op::cos:
      each([&](unsigned l) {
        const std::uint64_t a = src(1, l, t);
        write(in.ops[0], l, flt(t) ? farith(in, fv(a, t), 0, 0) : iarith(in, a, 0, 0));
      });
      return;

    case Op::mad: case Op::fma:
      each([&](unsigned l) {
        const Type ct = in.mode == Mode::wide ? (sgn(t) ? Type::s64 : Type::u64) : t;
        const std::uint64_t a = src(1, l, t), b = src(2, l, t), c = src(3, l, ct);
        write(in.ops[0], l, flt(t) ? farith(in, fv(a, t), fv(b, t), fv(c, t)) : iarith(in, a, b, c));
      });
      return;

    case Op::bfe:
      each([&](unsigned l) { write(in.ops[0], l, iarith(in, src(1, l, t), src(2, l, Type::u32), src(3, l, Type::u32))); });
      return;

    case Op::bfi:
      each([&](unsigned l) {
        const unsigned n = tb(t);
        const std::uint64_t a = src(1, l, t), b = src(2, l, t);
        const unsigned pos = static_cast<unsigned>(zext(src(3, l, Type::u32), 8)), len = static_cast<unsigned>(zext(src(4, l, Type::u32), 8));
        std::uint64_t v = b;
        if (len && pos < n) {
          const unsigned w = std::min(len, n - pos);
          const std::uint64_t m = low_bits(w) << pos;
          v = (b & ~m) | ((a << pos) & m);
        }
        write(in.ops[0], l, zext(v, n));
      });
      return;

    case Op::shf:  // funnel shift of b:a (b the high word) by c: .l keeps the high word, .r the low
      each([&](unsigned l) {
        const std::uint64_t ab = src(1, l, Type::b32) | src(2, l, Type::b32) << 32;
        const std::uint64_t c = src(3, l, Type::u32), n = in.clamp ? std::min<std::uint64_t>(c, 32) : c & 31;
        write(in.ops[0], l, in.mode == Mode::left ? zext((ab << n) >> 32, 32) : zext(ab >> n, 32));
      });
      return;

    case Op::prmt:
      each([&](unsigned l) {
        const std::uint64_t a = src(1, l, Type::b32), b = src(2, l, Type::b32), c = src(3, l, Type::b32);
        const std::uint64_t bytes8 = a | (b << 32);
        std::uint64_t r = 0;
        for (unsigned k = 0; k < 4; ++k) {
          const unsigned sel = static_cast<unsigned>(c >> (4 * k)) & 0xf;
          std::uint64_t byte = (bytes8 >> (8 * (sel & 7))) & 0xff;
          if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;  // sign-replicate
          r |= byte << (8 * k);
        }
        write(in.ops[0], l, r);
      });
      return;

    case Op::setp: case Op::set: {
      const bool two = in.op == Op::setp && nops >= 2 && in.ops[1].kind == OperandKind::reg && nops == 4 + (in.boolop != BoolOp::none);
      const std::size_t a_at = two ? 2 : 1;
      each([&](unsigned l) {
        bool r = compare(in.cmp, src(a_at, l, in.op == Op::set ? in.type2 : t), src(a_at + 1, l, in.op == Op::set ? in.type2 : t),
                         in.op == Op::set ? in.type2 : t);
        bool rn = !r;
        if (in.boolop != BoolOp::none) {
          const bool c = src(a_at + 2, l, Type::pred) & 1;
          auto combine = [&](bool x) { return in.boolop == BoolOp::and_ ? x && c : in.boolop == BoolOp::or_ ? x || c : x != c; };
          r = combine(r);
          rn = combine(rn);
        }
        if (in.op == Op::setp) {
          write(in.ops[0], l, r);
          if (two) write(in.ops[1], l, rn);
        } else {
          write(in.ops[0], l, flt(t) ? fb(r ? 1.0 : 0.0, t) : (r ? low_bits(tb(t)) : 0));
        }
      });
      return;
    }

    case Op::selp:
      each([&](unsigned l) { write(in.ops[0], l, (src(3, l, Type::pred) & 1) ? src(1, l, t) : src(2, l, t)); });
      return;

    case Op::cvt:
      each([&](unsigned l) { write(in.ops[0], l, convert(in, src(1, l, in.type2))); });
      return;

    case Op::ld: case Op::ldu: case Op::st: {
      const bool is_load = in.op != Op::st;
      const Operand& addr_op = in.ops[is_load ? 1 : 0];
      const Operand& val_op = in.ops[is_load ? 0 : 1];
      const unsigned n = tb(t) / 8, vec = in.vec;
      Operand one;  // a vector's element (built once: an operand is not cheap to make)
      one.kind = OperandKind::reg;
      each([&](unsigned l) {
        Space space = in.space;
        std::uint64_t addr = 0;
        if (space != Space::param) {
          Space sym_space = Space::none;
          addr = address_of(fr, addr_op, l, sym_space);
          if (space == Space::none && sym_space != Space::none) space = sym_space;
        }
        step.addresses.push_back(addr);
        for (unsigned k = 0; k < vec; ++k) {
          const Operand* part = &val_op;
          if (val_op.kind == OperandKind::vector) {
            if (val_op.regs[k] == ~0u) continue;
            one.reg = val_op.regs[k];
            part = &one;
          }
          std::uint64_t v = 0;
          if (space == Space::param) {
            std::uint8_t* p = param(fr, addr_op, l, n, k * n);
            if (is_load) std::memcpy(&v, p, n);
            else {
              v = read(fr, *part, l, t);
              std::memcpy(p, &v, n);
            }
          } else if (is_load) {
            load(fr, space, addr + k * n, l, &v, n);
          } else {
            v = read(fr, *part, l, t);
            store(fr, space, addr + k * n, l, &v, n);
          }
          if (is_load) write(*part, l, sgn(t) ? zext(static_cast<std::uint64_t>(sext(v, tb(t))), 64) : v);
        }
      });
      return;
    }

    case Op::atom: case Op::red: {
      const bool has_dst = in.op == Op::atom;
      const Operand& addr_op = in.ops[has_dst ? 1 : 0];
      const unsigned n = tb(t) / 8;
      each([&](unsigned l) {
        Space space = in.space, sym_space = Space::none;
        std::uint64_t addr = address_of(fr, addr_op, l, sym_space);
        if (space == Space::none && sym_space != Space::none) space = sym_space;
        step.addresses.push_back(addr);
        const std::uint64_t b = src(has_dst ? 2 : 1, l, t);
        const std::uint64_t c = in.mode == Mode::cas ? src(has_dst ? 3 : 2, l, t) : 0;
        std::uint64_t old = 0;
        load(fr, space, addr, l, &old, n);
        const std::uint64_t nv = atomic_result(in, old, b, c);
        store(fr, space, addr, l, &nv, n);  // each lane in lane order: contention serialises
        if (has_dst) write(in.ops[0], l, zext(old, tb(t)));
      });
      return;
    }

    case Op::bra: branch(fr, step.pc, in, active, active); return;  // unguarded: uniform
    case Op::ret:
      if (frames_.size() == 1) {
        do_return(active);
      } else {
        fr.stack.back().pc = static_cast<std::uint32_t>(fr.f->code.size());
      }
      return;
    case Op::exit: do_return(active); return;
    case Op::call: call(fr, in, active); return;
    case Op::bar:
      if (in.mode != Mode::sync) throw std::invalid_argument("only bar.sync / barrier.sync are supported at run time");
      state_ = State::at_barrier;
      return;
    case Op::membar: case Op::fence: return;  // memory operations already take effect in issue order
    // The SIMT stack keeps a warp's converged lanes in lockstep (pre-Volta): __syncwarp has nothing to wait for.
    case Op::warpsync: return;
    // Suspends the warp for about t ns, at most 1 ms (PTX ISA); functionally nothing happens. The
    // timing model holds the warp for the longest its threads asked.
    case Op::nanosleep:
      each([&](unsigned l) { step.sleep_ns = std::max<std::uint64_t>(step.sleep_ns, std::min<std::uint64_t>(src(0, l, Type::u32), 1000000)); });
      return;

    case Op::activemask:
      each([&](unsigned l) { write(in.ops[0], l, active); });
      return;
    case Op::bmsk:  // a mask of b ones from bit a
      each([&](unsigned l) {
        std::uint64_t a = src(1, l, Type::u32), b = src(2, l, Type::u32);
        a = in.clamp ? std::min<std::uint64_t>(a, 32) : a & 31;
        b = in.clamp ? std::min<std::uint64_t>(b, 32) : b & 31;
        write(in.ops[0], l, zext(low_bits(static_cast<unsigned>(b)) << a, 32));
      });
      return;
    case Op::szext:  // a's low b bits, sign- (.s32) or zero-extended (.u32)
      each([&](unsigned l) {
        std::uint64_t b = src(2, l, Type::u32);
        b = in.clamp ? std::min<std::uint64_t>(b, 32) : b & 31;
        const std::uint64_t a = src(1, l, Type::u32);
        const auto w = static_cast<unsigned>(b);
        write(in.ops[0], l, w == 0 ? 0 : sgn(t) ? zext(static_cast<std::uint64_t>(sext(a, w)), 32) : zext(a, w));
      });
      return;
    // A hint: the model's caches fill on demand (docs/ptx.md); the instruction takes its issue slot.
    case Op::prefetch: return;

    // Asynchronous copies move their bytes as they issue; the timing core holds the waits
    // (cp.async.wait_group, an mbarrier arrival) until the warp's copies are answered.
    case Op::cp_async: case Op::cp_async_bulk: {
      const bool bulk = in.op == Op::cp_async_bulk;
      const Space to = in.space, from = to == Space::shared ? Space::global : Space::shared;
      std::vector<std::uint8_t> buf;
      each([&](unsigned l) {
        Space unused = Space::none;
        const std::uint64_t dst = address_of(fr, in.ops[0], l, unused), source = address_of(fr, in.ops[1], l, unused);
        const auto size = static_cast<std::uint32_t>(src(2, l, Type::u32));
        // cp.async: cp-size bytes, of which src-size are read and the rest zero-filled.
        const std::uint32_t read_bytes = !bulk && nops == 4 ? std::min(size, static_cast<std::uint32_t>(src(3, l, Type::u32))) : size;
        if (bulk ? size % 16 != 0 : (size != 4 && size != 8 && size != 16))
          throw std::invalid_argument(std::string(ptx::op_name(in.op)) + ": a size of " + std::to_string(size) + " bytes");
        buf.assign(size, 0);
        load(fr, from, source, l, buf.data(), read_bytes);
        store(fr, to, dst, l, buf.data(), size);
        step.addresses.push_back(to == Space::global ? dst : source);
        step.bulk_bytes = std::max(step.bulk_bytes, size);
        if (bulk && nops == 4) mbarrier_update(fr, in.ops[3], Space::shared, l, Mode::mb_complete_tx, size);
      });
      return;
    }
    case Op::cp_async_commit: case Op::cp_async_wait: return;
    case Op::mbarrier:
      each([&](unsigned l) {
        const bool addr_first = in.mode == Mode::mb_init || in.mode == Mode::mb_expect_tx || in.mode == Mode::mb_complete_tx ||
                                in.mode == Mode::mb_inval;
        switch (in.mode) {
          case Mode::mb_pending_count: write(in.ops[0], l, mbarrier_pending(src(1, l, Type::b64))); return;
          case Mode::mb_wait: {  // done once the phase the state (or the parity) names has completed
            const std::uint64_t now = mbarrier_update(fr, in.ops[1], in.space, l, Mode::mb_wait, 0);
            const std::uint64_t phase = now >> 63, asked = in.parity ? src(2, l, Type::u32) & 1 : src(2, l, Type::b64) >> 63;
            write(in.ops[0], l, phase != asked);
            return;
          }
          default: {
            const std::uint64_t arg = nops > (addr_first ? 1u : 2u) ? src(addr_first ? 1 : 2, l, Type::u32) : 1;
            const std::uint64_t before = mbarrier_update(fr, in.ops[addr_first ? 0 : 1], in.space, l, in.mode, arg, in.expect_tx);
            if (!addr_first) write(in.ops[0], l, before);  // the state: the phase it arrived in
          }
        }
      });
      return;
    case Op::elect: {  // the lowest active lane of the member mask leads; d is its lane number
      std::uint32_t members = 0;
      each([&](unsigned l) { members |= (1u << l) & static_cast<std::uint32_t>(src(2, l, Type::u32)); });
      const unsigned leader = members ? static_cast<unsigned>(__builtin_ctz(members)) : 0;
      each([&](unsigned l) {
        write(in.ops[0], l, leader);
        write(in.ops[1], l, members && l == leader);
      });
      return;
    }
    case Op::vote: {
      std::uint32_t ballot = 0;
      each([&](unsigned l) {
        if (src(1, l, Type::pred) & 1) ballot |= 1u << l;
      });
      each([&](unsigned l) {
        switch (in.mode) {
          case Mode::all: write(in.ops[0], l, ballot == active); break;
          case Mode::any: write(in.ops[0], l, ballot != 0); break;
          case Mode::uni: write(in.ops[0], l, ballot == 0 || ballot == active); break;
          default: write(in.ops[0], l, ballot); break;
        }
      });
      return;
    }
    case Op::shfl: {
      // shfl.sync.mode.b32 d[|p], a, b, c, membermask (PTX ISA semantics).
      const bool pred_dst = nops == 6;
      const std::size_t a_at = pred_dst ? 2 : 1;
      std::uint64_t values[32];
      for (auto& v : values) v = 0;
      each([&](unsigned l) { values[l] = src(a_at, l, Type::b32); });
      each([&](unsigned l) {
        const std::uint32_t bval = static_cast<std::uint32_t>(src(a_at + 1, l, Type::u32)) & 0x1f;
        const std::uint32_t c = static_cast<std::uint32_t>(src(a_at + 2, l, Type::u32));
        const std::uint32_t cval = c & 0x1f, segmask = (c >> 8) & 0x1f;
        const std::uint32_t max_lane = (l & segmask) | (cval & ~segmask), min_lane = l & segmask;
        std::int32_t j = static_cast<std::int32_t>(l);
        bool p;
        switch (in.mode) {
          case Mode::up: j = static_cast<std::int32_t>(l) - static_cast<std::int32_t>(bval); p = j >= static_cast<std::int32_t>(max_lane); break;
          case Mode::down: j = static_cast<std::int32_t>(l + bval); p = j <= static_cast<std::int32_t>(max_lane); break;
          case Mode::bfly: j = static_cast<std::int32_t>(l ^ bval); p = j <= static_cast<std::int32_t>(max_lane); break;
          default: j = static_cast<std::int32_t>(min_lane | (bval & ~segmask)); p = j <= static_cast<std::int32_t>(max_lane); break;
        }
        if (!p || j < 0 || j > 31) j = static_cast<std::int32_t>(l);
        write(in.ops[0], l, values[j]);
        if (pred_dst) write(in.ops[1], l, p);
      });
      return;
    }
    case Op::match: {
      std::uint64_t values[32] = {};
      each([&](unsigned l) { values[l] = src(1, l, t); });
      each([&](unsigned l) {
        std::uint32_t same = 0;
        for (unsigned k = 0; k < 32; ++k)
          if ((active >> k & 1) && values[k] == values[l]) same |= 1u << k;
        if (in.mode == Mode::all) {
          const bool all = same == active;
          write(in.ops[0], l, all ? active : 0);
          if (nops == 4 && in.ops[1].kind == OperandKind::reg) write(in.ops[1], l, all);
        } else {
          write(in.ops[0], l, same);
        }
      });
      return;
    }
    case Op::redux: {
      std::uint64_t acc = 0;
      bool first = true;
      each([&](unsigned l) {
        const std::uint64_t v = src(1, l, t);
        const unsigned w = tb(t);
        if (first) {
          acc = v;
          first = false;
          return;
        }
        switch (in.mode) {
          case Mode::add: acc = zext(acc + v, w); break;
          case Mode::min: acc = sgn(t) ? zext(static_cast<std::uint64_t>(std::min(sext(acc, w), sext(v, w))), w) : std::min(acc, v); break;
          case Mode::max: acc = sgn(t) ? zext(static_cast<std::uint64_t>(std::max(sext(acc, w), sext(v, w))), w) : std::max(acc, v); break;
          case Mode::and_: acc &= v; break;
          case Mode::or_: acc |= v; break;
          case Mode::xor_: acc ^= v; break;
          default: throw std::invalid_argument("redux without an operation");
        }
      });
      each([&](unsigned l) { write(in.ops[0], l, acc); });
      return;
    }
    case Op::extension: {
      const ptx::Extension* ext = cta_.ctx.extensions && in.extension < cta_.ctx.extensions->size()
                                      ? &cta_.ctx.extensions->at(in.extension)
                                      : nullptr;
      if (!ext) throw std::invalid_argument("extension instruction without its registry");
      if (!ext->execute)
        throw std::invalid_argument(ext->name + " needs unit " + ext->unit + " enabled" +
                                    (ext->enable.empty() ? "" : " (" + ext->enable + ")"));
      struct Call : ptx::ExtensionCall {
        Warp& w;
        Frame& fr;
        const ptx::Instruction& in;
        std::uint32_t mask;
        Step& step;
        std::function<std::uint64_t(std::size_t, unsigned)> rd;
        std::function<void(std::size_t, unsigned, std::uint64_t)> wr;
        Call(Warp& w, Frame& fr, const ptx::Instruction& in, std::uint32_t mask, Step& step)
            : w(w), fr(fr), in(in), mask(mask), step(step) {}
        const ptx::Instruction& instruction() const override { return in; }
        std::uint32_t active() const override { return mask; }
        std::uint64_t read(std::size_t o, unsigned lane) override { return rd(o, lane); }
        void write(std::size_t o, unsigned lane, std::uint64_t v) override { wr(o, lane, v); }
        std::uint32_t warp() const override { return w.index(); }
        std::uint32_t slot() const override { return w.slot(); }
        std::uint64_t cta() const override { return w.cta().linear_index(); }
        std::uint32_t sm() const override { return w.cta().sm; }
        const std::string& kernel() const override { return w.cta().kernel.name; }
      } call(*this, fr, in, active, step);
      call.rd = [&](std::size_t o, unsigned lane) {
        const Operand& op = in.ops.at(o);
        if (op.kind != OperandKind::address) return src(o, lane, t);
        Space sp = Space::none;  // an address operand reads as the address it names
        return address_of(fr, op, lane, sp);
      };
      call.wr = [&](std::size_t o, unsigned lane, std::uint64_t v) { write(in.ops.at(o), lane, v); };
      ext->execute(call);
      return;
    }
    case Op::cvta: break;  // every form runs in warp_wide
    case Op::testp: break;
  }
  throw std::invalid_argument(std::string(ptx::op_name(in.op)) + " is not supported at run time");
}

}  // namespace irr::core
