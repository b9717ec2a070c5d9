// SPDX-License-Identifier: Apache-2.0
// Per-instruction semantics as PTX defines them, edge cases included: each row runs one
// instruction in a generated kernel and compares with the value written here from the PTX ISA.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "models/runtime/device.h"
#include "testbenches/common/testing.h"

using namespace irr;
using irr::runtime::Args;
using irr::runtime::Device;
using irr::runtime::Dim3;

namespace {

std::uint64_t f(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}
std::uint64_t d(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, 8);
  return u;
}
std::uint64_t s32(std::int32_t v) { return static_cast<std::uint32_t>(v); }
const float kNaN = std::numeric_limits<float>::quiet_NaN();

struct Row {
  std::string op;      // with %A %B %C sources and %D destination
  char a_kind, d_kind; // register class of sources and destination: r (b32), l (b64), f (f32), g (f64), p (pred)
  std::uint64_t a, b, c, expect;
};

// Loads a, b, c (as 64-bit words) into registers of the row's class, runs the instruction,
// stores the destination as a zero-extended 64-bit word. With 32 threads every lane computes the
// same: the executor's whole-warp loops run instead of its lane-by-lane ones.
std::uint64_t run(const Row& row, unsigned threads = 1) {
  auto reg = [](char k, int i) {
    switch (k) {
      case 'r': return "%r" + std::to_string(i);
      case 'l': return "%rd" + std::to_string(i + 10);
      case 'f': return "%f" + std::to_string(i);
      case 'g': return "%fd" + std::to_string(i);
      default: return "%p" + std::to_string(i);
    }
  };
  auto from64 = [&](char k, int i, const std::string& src) -> std::string {
    switch (k) {
      case 'r': return "cvt.u32.u64 " + reg(k, i) + ", " + src + ";\n";
      case 'l': return "mov.b64 " + reg(k, i) + ", " + src + ";\n";
      case 'f': return "cvt.u32.u64 %r9, " + src + ";\nmov.b32 " + reg(k, i) + ", %r9;\n";
      case 'g': return "mov.b64 " + reg(k, i) + ", " + src + ";\n";
      default: return "setp.ne.u64 " + reg(k, i) + ", " + src + ", 0;\n";
    }
  };
  auto to64 = [&](char k, const std::string& r) -> std::string {
    switch (k) {
      case 'r': return "cvt.u64.u32 %rd20, " + r + ";\n";
      case 'l': case 'g': return "mov.b64 %rd20, " + r + ";\n";
      case 'f': return "mov.b32 %r9, " + r + ";\ncvt.u64.u32 %rd20, %r9;\n";
      default: return "selp.u64 %rd20, 1, 0, " + r + ";\n";
    }
  };
  std::string op = row.op;
  auto sub = [&](const std::string& from, const std::string& to) {
    for (std::size_t p; (p = op.find(from)) != std::string::npos;) op.replace(p, from.size(), to);
  };
  sub("%A", reg(row.a_kind, 1));
  sub("%B", reg(row.a_kind, 2));
  sub("%C", reg(row.a_kind, 3));
  sub("%D", reg(row.d_kind, 4));
  std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n"
                     ".visible .entry t(.param .u64 in, .param .u64 out)\n{\n"
                     ".reg .b16 %rs<3>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<30>;\n.reg .f32 %f<5>;\n.reg .f64 %fd<5>;\n.reg .pred %p<5>;\n"
                     "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\n"
                     "ld.global.u64 %rd3, [%rd1];\nld.global.u64 %rd4, [%rd1+8];\nld.global.u64 %rd5, [%rd1+16];\n";
  text += from64(row.a_kind, 1, "%rd3") + from64(row.a_kind, 2, "%rd4") + from64(row.a_kind, 3, "%rd5");
  text += op + "\n" + to64(row.d_kind, reg(row.d_kind, 4)) + "st.global.u64 [%rd2], %rd20;\nret;\n}\n";
  mem::BackingStore m;
  Device dev(m);
  const auto mod = dev.load_module_text(text, "row.ptx");
  const std::uint64_t in = dev.malloc(24), out = dev.malloc(8);
  const std::uint64_t v[3] = {row.a, row.b, row.c};
  dev.memcpy_to_device(in, v, 24);
  dev.launch(dev.kernel(mod, "t"), Dim3{1}, Dim3{threads}, Args() << in << out);
  std::uint64_t r;
  dev.memcpy_to_host(&r, out, 8);
  return r;
}

const std::int32_t kMin = std::numeric_limits<std::int32_t>::min(), kMax = std::numeric_limits<std::int32_t>::max();

}  // namespace

TEST(PtxSemantics, Integer) {
  const std::vector<Row> rows = {
      {"div.s32 %D, %A, %B;", 'r', 'r', s32(7), s32(-2), 0, s32(-3)},
      {"div.s32 %D, %A, %B;", 'r', 'r', s32(-7), s32(2), 0, s32(-3)},
      {"div.s32 %D, %A, %B;", 'r', 'r', s32(5), 0, 0, 0xffffffffu},         // by zero: -1
      {"div.s32 %D, %A, %B;", 'r', 'r', s32(kMin), s32(-1), 0, s32(kMin)},  // overflow wraps
      {"div.u32 %D, %A, %B;", 'r', 'r', 5, 0, 0, 0xffffffffu},
      {"rem.s32 %D, %A, %B;", 'r', 'r', s32(-7), s32(2), 0, s32(-1)},
      {"rem.u32 %D, %A, %B;", 'r', 'r', 5, 0, 0, 5},
      {"shl.b32 %D, %A, %B;", 'r', 'r', 1, 31, 0, 0x80000000u},
      {"shl.b32 %D, %A, %B;", 'r', 'r', 1, 32, 0, 0},                       // shifts of the width or more
      {"shl.b32 %D, %A, %B;", 'r', 'r', 1, 40, 0, 0},
      {"shr.s32 %D, %A, %B;", 'r', 'r', s32(-8), 1, 0, s32(-4)},
      {"shr.s32 %D, %A, %B;", 'r', 'r', s32(-8), 40, 0, s32(-1)},
      {"shr.u32 %D, %A, %B;", 'r', 'r', 0x80000000u, 40, 0, 0},
      {"mul.hi.s32 %D, %A, %B;", 'r', 'r', s32(-2), 3, 0, 0xffffffffu},
      {"mul.hi.u32 %D, %A, %B;", 'r', 'r', 0xffffffffu, 2, 0, 1},
      {"mul.wide.s32 %rd24, %A, %B; mov.b64 %D, %rd24;", 'r', 'l', s32(-3), 4, 0, static_cast<std::uint64_t>(-12)},
      {"mul.wide.u32 %rd24, %A, %B; mov.b64 %D, %rd24;", 'r', 'l', 0xffffffffu, 2, 0, 0x1fffffffeull},
      {"mul.hi.u64 %D, %A, %B;", 'l', 'l', ~0ull, 2, 0, 1},
      {"mad.lo.s32 %D, %A, %B, %C;", 'r', 'r', 3, 4, 5, 17},
      {"add.sat.s32 %D, %A, %B;", 'r', 'r', s32(kMax), 1, 0, s32(kMax)},
      {"abs.s32 %D, %A;", 'r', 'r', s32(kMin), 0, 0, s32(kMin)},
      {"clz.b32 %D, %A;", 'r', 'r', 0, 0, 0, 32},
      {"bfind.u32 %D, %A;", 'r', 'r', 0, 0, 0, 0xffffffffu},
      {"bfind.u32 %D, %A;", 'r', 'r', 0x00f00000u, 0, 0, 23},
      {"bfind.shiftamt.u32 %D, %A;", 'r', 'r', 0x00f00000u, 0, 0, 8},
      {"brev.b32 %D, %A;", 'r', 'r', 1, 0, 0, 0x80000000u},
      {"popc.b64 %r4, %A; cvt.u64.u32 %D, %r4;", 'l', 'l', 0xff000000000000ffull, 0, 0, 16},
      {"bfe.u32 %D, %A, %B, %C;", 'r', 'r', 0xf0f0, 4, 8, 0x0f},
      {"bfe.s32 %D, %A, %B, %C;", 'r', 'r', 0xf0, 4, 4, 0xffffffffu},
      {"bfi.b32 %D, %A, %B, 8, 4;", 'r', 'r', 0xff, 0, 0, 0xf00},
      {"prmt.b32 %D, %A, %B, 0x3210;", 'r', 'r', 0x44332211, 0x88776655, 0, 0x44332211},
      {"prmt.b32 %D, %A, %B, 0x0123;", 'r', 'r', 0x44332211, 0x88776655, 0, 0x11223344},
      // Funnel shifts of b:a (b high): .l keeps the high word, .r the low; .wrap takes c mod 32,
      // .clamp at most 32 (PTX ISA 9.7.8.7); with a == b, a rotate.
      {"shf.l.wrap.b32 %D, %A, %B, %C;", 'r', 'r', 0x12345678, 0x9abcdef0, 8, 0xbcdef012},
      {"shf.r.wrap.b32 %D, %A, %B, %C;", 'r', 'r', 0x12345678, 0x9abcdef0, 8, 0xf0123456},
      {"shf.l.wrap.b32 %D, %A, %B, %C;", 'r', 'r', 0x12345678, 0x9abcdef0, 40, 0xbcdef012},
      {"shf.l.clamp.b32 %D, %A, %B, %C;", 'r', 'r', 0x12345678, 0x9abcdef0, 40, 0x12345678},
      {"shf.r.clamp.b32 %D, %A, %B, %C;", 'r', 'r', 0x12345678, 0x9abcdef0, 40, 0x9abcdef0},
      {"shf.l.wrap.b32 %D, %A, %B, %C;", 'r', 'r', 0xfffffffe, 0xfffffffe, 3, 0xfffffff7},
      {"min.s32 %D, %A, %B;", 'r', 'r', s32(-1), 0, 0, s32(-1)},
      {"min.u32 %D, %A, %B;", 'r', 'r', s32(-1), 0, 0, 0},
      {"setp.lt.s32 %D, %A, %B;", 'r', 'p', s32(-1), 0, 0, 1},
      {"setp.lt.u32 %D, %A, %B;", 'r', 'p', s32(-1), 0, 0, 0},
      {"cvt.sat.s8.s32 %D, %A;", 'r', 'r', 300, 0, 0, 127},
      {"cvt.sat.u8.s32 %D, %A;", 'r', 'r', s32(-5), 0, 0, 0},
      {"cvt.s64.s32 %D, %A;", 'r', 'l', s32(-2), 0, 0, static_cast<std::uint64_t>(-2)},
      {"cvt.u32.u64 %D, %A;", 'l', 'r', 0x123456789ull, 0, 0, 0x23456789},
      // The forms the executor runs as whole-warp loops (warp_wide), at their edges.
      {"add.s32 %D, %A, %B;", 'r', 'r', s32(kMax), 1, 0, s32(kMin)},  // wraps
      {"sub.u32 %D, %A, %B;", 'r', 'r', 0, 1, 0, 0xffffffffu},
      {"add.u64 %D, %A, %B;", 'l', 'l', ~0ull, 2, 0, 1},
      {"sub.s64 %D, %A, %B;", 'l', 'l', 0, 1, 0, ~0ull},
      {"mul.lo.s32 %D, %A, %B;", 'r', 'r', 0x10000, 0x10001, 0, 0x10000},
      {"mul.lo.u64 %D, %A, %B;", 'l', 'l', 1ull << 63, 3, 0, 1ull << 63},
      {"mad.lo.s32 %D, %A, %B, %C;", 'r', 'r', s32(-3), 4, s32(-5), s32(-17)},
      {"mad.wide.s32 %rd24, %A, %B, %rd5; mov.b64 %D, %rd24;", 'r', 'l', s32(-3), 4, 2, static_cast<std::uint64_t>(-10)},
      {"mad.wide.u32 %rd24, %A, %B, %rd5; mov.b64 %D, %rd24;", 'r', 'l', 0xffffffffu, 2, 2, 0x200000000ull},
      {"and.b64 %D, %A, %B;", 'l', 'l', 0xff00ff00ff00ff00ull, 0x0ff00ff00ff00ff0ull, 0, 0x0f000f000f000f00ull},
      {"or.b32 %D, %A, %B;", 'r', 'r', 0xf0, 0x0f, 0, 0xff},
      {"xor.b32 %D, %A, %B;", 'r', 'r', 0xff, 0x0f, 0, 0xf0},
      {"cvt.u32.u64 %r5, %B; shl.b64 %D, %A, %r5;", 'l', 'l', 1, 63, 0, 1ull << 63},
      {"cvt.u32.u64 %r5, %B; shl.b64 %D, %A, %r5;", 'l', 'l', 1, 64, 0, 0},
      {"cvt.u32.u64 %r5, %B; shr.s64 %D, %A, %r5;", 'l', 'l', 1ull << 63, 70, 0, ~0ull},
      {"cvt.u32.u64 %r5, %B; shr.u64 %D, %A, %r5;", 'l', 'l', 1ull << 63, 63, 0, 1},
      {"setp.ge.s32 %D, %A, %B;", 'r', 'p', s32(-1), s32(-2), 0, 1},
      {"setp.le.s32 %D, %A, %B;", 'r', 'p', s32(-1), s32(-2), 0, 0},
      {"setp.gt.s64 %D, %A, %B;", 'l', 'p', ~0ull, 0, 0, 0},
      {"setp.ne.s32 %D, %A, %B;", 'r', 'p', 5, 5, 0, 0},
      {"setp.eq.u64 %D, %A, %B;", 'l', 'p', 5, 5, 0, 1},
      {"setp.hi.u32 %D, %A, %B;", 'r', 'p', s32(-1), 0, 0, 1},
      {"setp.ls.u32 %D, %A, %B;", 'r', 'p', s32(-1), 0, 0, 0},
      {"setp.lt.s32 %D, %A, 0;", 'r', 'p', s32(-1), 0, 0, 1},  // an immediate source
      {"setp.ne.u32 %p1, %A, 0; selp.b32 %D, %B, %C, %p1;", 'r', 'r', 1, 7, 9, 7},
      {"setp.ne.u32 %p1, %A, 0; selp.b32 %D, %B, %C, %p1;", 'r', 'r', 0, 7, 9, 9},
      {"mov.b64 %D, %A;", 'l', 'l', 0x123456789ull, 0, 0, 0x123456789ull},
      {"mov.u32 %D, 42;", 'r', 'r', 0, 0, 0, 42},
      // Masks and field extension (PTX ISA 9.7.8.8-9): .clamp takes amounts up to 32, .wrap mod 32.
      {"bmsk.clamp.b32 %D, %A, %B;", 'r', 'r', 4, 8, 0, 0xff0},
      {"bmsk.clamp.b32 %D, %A, %B;", 'r', 'r', 28, 8, 0, 0xf0000000u},  // past bit 31: cut off
      {"bmsk.clamp.b32 %D, %A, %B;", 'r', 'r', 0, 40, 0, 0xffffffffu},
      {"bmsk.wrap.b32 %D, %A, %B;", 'r', 'r', 33, 34, 0, 0x6},  // a = 1, b = 2
      {"szext.clamp.s32 %D, %A, %B;", 'r', 'r', 0x80, 8, 0, 0xffffff80u},
      {"szext.clamp.u32 %D, %A, %B;", 'r', 'r', 0x1ff, 8, 0, 0xff},
      {"szext.wrap.s32 %D, %A, %B;", 'r', 'r', 0x7f, 32, 0, 0},  // b = 0: nothing kept
      {"szext.clamp.s32 %D, %A, %B;", 'r', 'r', 0x80000000u, 40, 0, 0x80000000u},
      // Carry chains (PTX ISA 9.7.1.x): a 64-bit sum of 32-bit halves; sub's carry is the borrow;
      // mad.hi.cc's carry feeds madc.
      {"add.cc.u32 %r5, %A, %B; addc.u32 %D, %C, 0;", 'r', 'r', 0xffffffffu, 2, 7, 8},
      {"add.cc.u32 %r5, %A, %B; addc.cc.u32 %r6, %C, 0; addc.u32 %D, 0, 0;", 'r', 'r', 0xffffffffu, 1, 0xffffffffu, 1},
      {"sub.cc.u32 %r5, %A, %B; subc.u32 %D, %C, 0;", 'r', 'r', 1, 2, 10, 9},
      {"sub.cc.u32 %r5, %A, %B; subc.u32 %D, %C, 0;", 'r', 'r', 3, 2, 10, 10},
      {"mad.lo.cc.u32 %r5, %A, %B, %C; addc.u32 %D, 0, 0;", 'r', 'r', 0xffffffffu, 1, 1, 1},  // lo(a*b) + c carries
      {"mad.lo.cc.u32 %r5, %A, %B, %C; addc.u32 %D, 0, 0;", 'r', 'r', 0x80000000u, 2, 1, 0},  // the product's own does not
      {"mad.lo.cc.u32 %r5, %A, %B, %C; madc.hi.u32 %D, %A, %B, 0;", 'r', 'r', 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
      {"add.cc.u64 %rd25, %A, %B; addc.u64 %D, 0, 0;", 'l', 'l', ~0ull, 1, 0, 1},
      // Hints and the warp leader: a prefetch changes nothing; elect picks the lowest member.
      {"prefetch.global.L2 [%rd1]; prefetchu.L1 [%rd1]; mov.u32 %D, %A;", 'r', 'r', 5, 0, 0, 5},
      {"elect.sync %D|%p1, -1;", 'r', 'r', 0, 0, 0, 0},
      {"elect.sync _|%p1, -1; vote.sync.ballot.b32 %D, %p1, -1;", 'r', 'r', 0, 0, 0, 1},  // lane 0 alone
      {"elect.sync %r5|%p1, -1; add.u32 %D, %r5, 9;", 'r', 'r', 0, 0, 0, 9},  // every lane gets the leader's number
      {"ld.global.nc.L1::no_allocate.u32 %D, [%rd1];", 'r', 'r', 77, 0, 0, 77},
      // Atomics on the input word itself: forms whose old value is the same for every thread.
      {"atom.global.min.s32 %D, [%rd1], %B;", 'r', 'r', s32(-5), 3, 0, s32(-5)},
      {"atom.global.cas.b32 %D, [%rd1], %B, %C;", 'r', 'r', 7, 8, 9, 7},
      {"atom.global.max.u32 %D, [%rd1], %B;", 'r', 'r', 0xfffffff0u, 3, 0, 0xfffffff0u},
  };
  for (unsigned threads : {1u, 32u})
    for (const Row& r : rows) EXPECT_EQ(run(r, threads), r.expect) << r.op << " a=" << r.a << " b=" << r.b << ", " << threads << " threads";
}

TEST(PtxSemantics, FloatAndConversions) {
  const std::vector<Row> rows = {
      {"setp.lt.f32 %D, %A, %B;", 'f', 'p', f(kNaN), f(1), 0, 0},   // ordered: NaN is false
      {"setp.ltu.f32 %D, %A, %B;", 'f', 'p', f(kNaN), f(1), 0, 1},  // unordered: NaN is true
      {"setp.ne.f32 %D, %A, %B;", 'f', 'p', f(kNaN), f(1), 0, 0},
      {"setp.neu.f32 %D, %A, %B;", 'f', 'p', f(kNaN), f(1), 0, 1},
      {"setp.nan.f32 %D, %A, %B;", 'f', 'p', f(1), f(kNaN), 0, 1},
      {"setp.num.f32 %D, %A, %B;", 'f', 'p', f(1), f(kNaN), 0, 0},
      {"setp.equ.f32 %D, %A, %B;", 'f', 'p', f(kNaN), f(kNaN), 0, 1},
      {"setp.eq.f32 %D, %A, %B;", 'f', 'p', f(-0.0f), f(0.0f), 0, 1},  // signed zeros compare equal
      {"setp.gtu.f32 %D, %A, %B;", 'f', 'p', f(1), f(2), 0, 0},
      {"setp.ge.f64 %D, %A, %B;", 'g', 'p', d(2), d(2), 0, 1},
      {"setp.lt.f64 %D, %A, %B;", 'g', 'p', d(std::nan("")), d(2), 0, 0},
      {"setp.leu.f64 %D, %A, %B;", 'g', 'p', d(std::nan("")), d(2), 0, 1},
      {"min.f32 %D, %A, %B;", 'f', 'f', f(kNaN), f(2), 0, f(2)},   // NaN loses to a number
      {"div.rn.f32 %D, %A, %B;", 'f', 'f', f(1), f(3), 0, f(1.0f / 3.0f)},
      {"div.rz.f32 %D, %A, %B;", 'f', 'f', f(2), f(3), 0, f(0.66666663f)},
      {"rcp.rn.f64 %D, %A;", 'g', 'g', d(4), 0, 0, d(0.25)},
      {"sqrt.rn.f32 %D, %A;", 'f', 'f', f(2), 0, 0, f(std::sqrt(2.0f))},
      {"fma.rn.f32 %D, %A, %B, %C;", 'f', 'f', f(1.5f), f(2), f(-0.5f), f(2.5f)},
      {"add.sat.f32 %D, %A, %B;", 'f', 'f', f(0.75f), f(0.5f), 0, f(1.0f)},
      {"neg.f32 %D, %A;", 'f', 'f', f(0.0f), 0, 0, 0x80000000u},
      {"cvt.rzi.s32.f32 %D, %A;", 'f', 'r', f(1e10f), 0, 0, s32(kMax)},  // saturates
      {"cvt.rzi.s32.f32 %D, %A;", 'f', 'r', f(-1e10f), 0, 0, s32(kMin)},
      {"cvt.rzi.s32.f32 %D, %A;", 'f', 'r', f(kNaN), 0, 0, 0},           // NaN -> 0
      {"cvt.rni.s32.f32 %D, %A;", 'f', 'r', f(2.5f), 0, 0, 2},           // ties to even
      {"cvt.rni.s32.f32 %D, %A;", 'f', 'r', f(3.5f), 0, 0, 4},
      {"cvt.rmi.s32.f32 %D, %A;", 'f', 'r', f(-1.5f), 0, 0, s32(-2)},
      {"cvt.rpi.u32.f32 %D, %A;", 'f', 'r', f(-0.5f), 0, 0, 0},
      {"cvt.rn.f32.s32 %D, %A;", 'r', 'f', 16777217, 0, 0, f(16777216.0f)},
      {"cvt.rz.f32.s32 %D, %A;", 'r', 'f', 16777219, 0, 0, f(16777218.0f)},
      {"cvt.rp.f32.s32 %D, %A;", 'r', 'f', 16777217, 0, 0, f(16777218.0f)},
      {"cvt.f64.f32 %D, %A;", 'f', 'g', f(0.1f), 0, 0, d(static_cast<double>(0.1f))},
      {"cvt.rn.f32.f64 %D, %A;", 'g', 'f', d(0.1), 0, 0, f(0.1f)},
      {"cvt.rzi.f32.f32 %D, %A;", 'f', 'f', f(-2.7f), 0, 0, f(-2.0f)},
      {"cvt.rn.f16.f32 %rs1, %A; cvt.f32.f16 %D, %rs1;", 'f', 'f', f(1.0009765625f), 0, 0, f(1.0009765625f)},
      {"add.f32 %D, %A, %B;", 'f', 'f', f(1e30f), f(1e30f), 0, f(2e30f)},
      {"sub.rn.f32 %D, %A, %B;", 'f', 'f', f(1), f(0.25f), 0, f(0.75f)},
      {"mul.f32 %D, %A, %B;", 'f', 'f', f(3e38f), f(2), 0, f(std::numeric_limits<float>::infinity())},
      {"fma.rn.f32 %D, %A, %B, %C;", 'f', 'f', f(1.0f + 0x1p-23f), f(1.0f - 0x1p-23f), f(-1), f(-0x1p-46f)},  // one rounding
  };
  for (unsigned threads : {1u, 32u})
    for (const Row& r : rows) EXPECT_EQ(run(r, threads), r.expect) << r.op << ", " << threads << " threads";
}

// An mbarrier's phases (PTX ISA 9.7.13.15): two arrivals complete a phase of an object initialised
// for two; transaction bytes completed before they are expected (as cp.async.bulk may) hold the
// phase until the arrival that expects them; a bulk copy lands its bytes and completes them; a
// cp.async group lands its bytes, the tail past src-size zero-filled. Thread 0 alone, functional.
TEST(PtxSemantics, AsynchronousCopiesAndMbarriers) {
  const std::string text = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry t(.param .u64 in, .param .u64 out)
{
.reg .b32 %r<20>;
.reg .b64 %rd<20>;
.reg .pred %p<10>;
.shared .align 16 .b8 buf[64];
.shared .align 8 .b64 bar;
ld.param.u64 %rd1, [in];
ld.param.u64 %rd2, [out];
mov.u32 %r1, bar;
mov.u32 %r2, buf;
mbarrier.init.shared.b64 [%r1], 2;
mbarrier.arrive.shared.b64 %rd3, [%r1];
mbarrier.try_wait.parity.shared.b64 %p1, [%r1], 0;
mbarrier.arrive.shared::cta.b64 %rd4, [%r1];
mbarrier.try_wait.parity.shared.b64 %p2, [%r1], 0;
mbarrier.test_wait.shared.b64 %p3, [%r1], %rd3;
mbarrier.pending_count.b64 %r3, %rd4;
mbarrier.init.shared.b64 [%r1], 1;
cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], 32, [%r1];
mbarrier.try_wait.parity.shared.b64 %p4, [%r1], 0;
mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%r1], 32;
mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p5, [%r1], 0;
ld.shared.u32 %r4, [buf+28];
cp.async.ca.shared.global [buf+32], [%rd1], 16, 4;
cp.async.commit_group;
cp.async.wait_group 0;
ld.shared.u32 %r5, [buf+32];
ld.shared.u32 %r6, [buf+36];
selp.u32 %r10, 1, 0, %p1;
selp.u32 %r11, 2, 0, %p2;
selp.u32 %r12, 4, 0, %p3;
selp.u32 %r13, 8, 0, %p4;
selp.u32 %r14, 16, 0, %p5;
or.b32 %r10, %r10, %r11;
or.b32 %r10, %r10, %r12;
or.b32 %r10, %r10, %r13;
or.b32 %r10, %r10, %r14;
st.global.u32 [%rd2], %r10;
st.global.u32 [%rd2+4], %r3;
st.global.u32 [%rd2+8], %r4;
st.global.u32 [%rd2+12], %r5;
st.global.u32 [%rd2+16], %r6;
cp.async.bulk.global.shared::cta.bulk_group [%rd2+32], [%r2], 16;
cp.async.bulk.commit_group;
cp.async.bulk.wait_group.read 0;
fence.proxy.async.shared::cta;
ret;
}
)";
  mem::BackingStore m;
  Device dev(m);
  const auto mod = dev.load_module_text(text, "async.ptx");
  const std::uint64_t in = dev.malloc(64), out = dev.malloc(64);
  std::uint32_t words[16];
  for (std::uint32_t i = 0; i < 16; ++i) words[i] = 100 + i;
  dev.memcpy_to_device(in, words, sizeof words);
  dev.launch(dev.kernel(mod, "t"), Dim3{1}, Dim3{1}, Args() << in << out);
  std::uint32_t got[12];
  dev.memcpy_to_host(got, out, sizeof got);
  // phase 0 not done after one arrival (p1 0), done after two (p2), the first state's phase done
  // (p3); the copy's bytes alone do not complete it (p4 0), the expecting arrival does (p5).
  EXPECT_EQ(got[0], 2u | 4u | 16u);
  EXPECT_EQ(got[1], 1u);    // the completing arrival's state: the count pending before it
  EXPECT_EQ(got[2], 107u);  // the bulk copy's last word
  EXPECT_EQ(got[3], 100u);  // cp.async: 4 bytes read ...
  EXPECT_EQ(got[4], 0u);    // ... and the rest of its 16 zero-filled
  EXPECT_EQ(got[8], 100u);  // the bulk copy back to global memory
  EXPECT_EQ(got[11], 103u);
}
