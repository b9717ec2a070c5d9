// SPDX-License-Identifier: Apache-2.0
// The PTX parser on nvcc 13 output (testbenches/ptx/*.ptx) and on what it must reject.
#include <gtest/gtest.h>

#include "models/core/ptx/parser.h"
#include "models/core/ptx/resources.h"
#include "testbenches/common/testing.h"

using namespace irr;
using namespace irr::core::ptx;

namespace {
const std::string kDir = std::string(IRRGPU_SOURCE_DIR) + "/testbenches/ptx/";

std::string error_of(const std::string& body, const ExtensionRegistry* ext = nullptr) {
  const std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 k_p)\n{\n" +
                           std::string(".reg .b32 %r<4>;\n.reg .pred %p<2>;\n") + body + "\nret;\n}\n";
  try {
    parse(text, "t.ptx", ext);
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
    return e.what();
  }
  return "";
}
}  // namespace

TEST(PtxParser, NvccModuleWithLineInfo) {
  Module m = parse_file(kDir + "reduce.ptx");
  EXPECT_EQ(m.version, "9.0");
  EXPECT_EQ(m.target, "sm_75");
  ASSERT_EQ(m.kernels().size(), 2u);
  const Function* vadd = m.find("vadd");
  ASSERT_NE(vadd, nullptr);
  ASSERT_EQ(vadd->params.size(), 4u);
  EXPECT_EQ(vadd->params[3].type, Type::u32);
  EXPECT_EQ(vadd->params[3].offset, 24u);
  EXPECT_EQ(vadd->param_bytes, 28u);
  // Instructions are decoded: mad.lo.s32 %r1, %r3, %r4, %r5 with its source line.
  const Instruction* mad = nullptr;
  for (const auto& i : vadd->code)
    if (i.op == Op::mad) mad = &i;
  ASSERT_NE(mad, nullptr);
  EXPECT_EQ(mad->type, Type::s32);
  EXPECT_EQ(mad->mode, Mode::lo);
  ASSERT_EQ(mad->ops.size(), 4u);
  EXPECT_EQ(mad->ops[0].kind, OperandKind::reg);
  EXPECT_EQ(vadd->registers[mad->ops[0].reg].name, "%r1");
  EXPECT_EQ(mad->loc.file, 1u);
  EXPECT_EQ(mad->loc.line, 5u);  // `int i = blockIdx.x * blockDim.x + threadIdx.x;` in reduce.cu
  EXPECT_EQ(m.files.at(1), "reduce.cu");
  // The guarded branch resolves to its label.
  const Instruction* bra = nullptr;
  for (const auto& i : vadd->code)
    if (i.op == Op::bra) bra = &i;
  ASSERT_NE(bra, nullptr);
  EXPECT_TRUE(bra->guarded);
  EXPECT_EQ(vadd->code[bra->target].op, Op::ret);
  // reduce: demoted shared array, local depot, calls to a device function and to vprintf.
  const Function* reduce = m.find("reduce");
  EXPECT_EQ(reduce->shared_bytes, 1024u);
  EXPECT_EQ(reduce->local_bytes, 8u);
  std::vector<std::string> callees;
  for (const auto& i : reduce->code)
    if (i.op == Op::call) callees.push_back(m.functions[i.target].name);
  EXPECT_EQ(callees, (std::vector<std::string>{"_Z6helperi", "vprintf"}));
  EXPECT_TRUE(m.find("vprintf")->external);
  // The printf format string, with its initialiser.
  ASSERT_EQ(m.variables.size(), 1u);
  EXPECT_EQ(std::string(m.variables[0].init.begin(), m.variables[0].init.end() - 1), "block %d sum %d\n");
}

// Code inlined from another function keeps the line of its call (`inlined_at`): the profile's
// way from a CUDA header's atomic back to the kernel's line.
TEST(PtxParser, InlinedCodeKeepsItsCallSite) {
  const Module m = parse(".version 9.0\n.target sm_75\n.address_size 64\n.file 1 \"k.cu\"\n.file 2 \"atomics.hpp\"\n"
                         ".visible .entry k()\n{\n.reg .b32 %r<4>;\n"
                         ".loc 2 147 3, function_name $L__info_string0, inlined_at 1 115 5\nadd.s32 %r1, %r2, %r3;\n"
                         ".loc 1 116 5\nadd.s32 %r1, %r2, %r3;\nret;\n}\n",
                         "t.ptx");
  const auto& code = m.find("k")->code;
  ASSERT_EQ(code.size(), 3u);
  EXPECT_EQ(code[0].loc.file, 2u);
  EXPECT_EQ(code[0].loc.line, 147u);
  EXPECT_EQ(code[0].loc.call_file, 1u);
  EXPECT_EQ(code[0].loc.call_line, 115u);
  EXPECT_EQ(code[1].loc.line, 116u);
  EXPECT_EQ(code[1].loc.call_line, 0u);  // a later .loc without inlined_at is not inlined
  EXPECT_NE(error_of(".loc 1 2 3, inlined_at 1\nadd.s32 %r1, %r2, %r3;"), "");  // the call's line missing
}

TEST(PtxParser, WarpPrimitivesAndConversions) {
  Module m = parse_file(kDir + "warp.ptx");
  const Function* k = m.find("warp");
  ASSERT_NE(k, nullptr);
  std::map<Op, int> ops;
  for (const auto& i : k->code) ++ops[i.op];
  for (Op op : {Op::activemask, Op::shfl, Op::vote, Op::popc, Op::clz, Op::brev, Op::sqrt, Op::cvt, Op::atom, Op::div})
    EXPECT_GT(ops[op], 0) << op_name(op);
  for (const auto& i : k->code) {
    if (i.op == Op::shfl) {
      EXPECT_EQ(i.mode, Mode::down);
    }
    if (i.op == Op::atom) {
      EXPECT_EQ(i.mode, Mode::cas);
    }
    if (i.op == Op::cvt && i.round == Round::rni) {
      EXPECT_EQ(i.type, Type::s32);
      EXPECT_EQ(i.type2, Type::f32);
    }
  }
}

TEST(PtxParser, LoadsThatMustReadPastTheL1AreUncached) {
  auto uncached = [](const std::string& load) {
    const std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 k_p)\n{\n"
                             ".reg .b32 %r<2>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [k_p];\n" + load + " %r1, [%rd1];\nret;\n}\n";
    const Module m = parse(text, "t.ptx");
    return m.find("k")->code[1].uncached;
  };
  for (const char* ld : {"ld.volatile.global.u32", "ld.global.cg.u32", "ld.global.cv.u32", "ld.relaxed.gpu.global.u32",
                         "ld.acquire.sys.global.u32", "ld.volatile.u32"})
    EXPECT_TRUE(uncached(ld)) << ld;
  for (const char* ld : {"ld.global.u32", "ld.global.ca.u32", "ld.global.cs.u32", "ld.global.lu.u32",
                         "ld.relaxed.cta.global.u32", "ld.global.nc.u32"})
    EXPECT_FALSE(uncached(ld)) << ld;
  // Stores' cache operators are hints the L1's write policy decides.
  EXPECT_EQ(error_of("st.global.wt.u32 [%r1], %r2;\nst.global.cg.u32 [%r1], %r2;\nst.volatile.global.u32 [%r1], %r2;"), "");
  EXPECT_EQ(error_of("st.global.cv.u32 [%r1], %r2;"), "t.ptx:8:1: unsupported modifier '.cv' on st");
}

TEST(PtxParser, RejectsWithPositions) {
  EXPECT_NE(error_of("tex.2d.v4.f32.f32 {%r0,%r1,%r2,%r3}, [t, {%r0,%r1}];").find("t.ptx:8:1: unsupported instruction 'tex'"),
            std::string::npos);
  EXPECT_NE(error_of("add.s32.wrap %r0, %r1, %r2;").find("t.ptx:8:1: unsupported modifier '.wrap' on add"), std::string::npos);
  EXPECT_NE(error_of("add.s32 %r0, %r9, %r2;").find("t.ptx:8:14: unsupported or undeclared register '%r9'"),
            std::string::npos);
  EXPECT_NE(error_of("bra $nowhere;").find("undefined label '$nowhere'"), std::string::npos);
  EXPECT_NE(error_of("add.s32 %r0, %r1 %r2;").find("expected ';'"), std::string::npos);
  EXPECT_NE(error_of("ld.global %r0, [%r1];").find("ld without a type"), std::string::npos);
  EXPECT_NE(error_of("ld.global.u32 %r0, %r1;").find("ld needs an address operand"), std::string::npos);
  EXPECT_NE(error_of("mov.u32 %r0, #;").find("t.ptx:8:14: unexpected character '#'"), std::string::npos);
  EXPECT_NE(error_of("@%r9 bra $x;").find("not a declared predicate"), std::string::npos);
  EXPECT_NE(error_of(".reg .b32 %r<2>;").find("register %r0 declared twice"), std::string::npos);
  // A register count no kernel has (found by fuzzing: 111 M predicates took the host's memory).
  EXPECT_NE(error_of(".reg .pred %xp<111111104>;").find("too many registers (111111"), std::string::npos)
      << error_of(".reg .pred %xp<111111104>;");
  // 952,184 names took 43 s under AddressSanitizer (a fuzzing timeout); nvcc declares thousands.
  EXPECT_NE(error_of(".reg .pred p<952184>;").find("; at most 65536 a function)"), std::string::npos);
  EXPECT_EQ(error_of(".reg .b32 %q<60000>;"), "");
  // A variable no GPU holds (found by fuzzing: a 166 TB initialised array was allocated on the host).
  const std::string big = ".version 9.0\n.target sm_75\n.address_size 64\n.global .align 1 .b8 str[166666666666667] = {98, 108};\n";
  try {
    parse(big, "t.ptx");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("str: too large (at most 4294967296 bytes a variable)"), std::string::npos) << e.what();
  }
  // A float literal beyond a double's range (found by fuzzing: it escaped as std::out_of_range).
  EXPECT_NE(error_of("mov.f64 %fd0, 6E4114;").find("t.ptx:8:15: floating-point number '6E4114' out of range"), std::string::npos)
      << error_of("mov.f64 %fd0, 6E4114;");
}

TEST(PtxParser, ExtensionInstructionsThroughTheRegistry) {
  const std::string use = "wlpull.b32 %r0;";
  EXPECT_NE(error_of(use).find("unsupported instruction 'wlpull'"), std::string::npos);
  ExtensionRegistry reg;
  Extension e;
  e.name = "wlpull";
  e.unit = "hwwl";
  e.decode = [](Instruction& i, const std::vector<std::string>& mods) {
    if (mods != std::vector<std::string>{"b32"}) throw std::invalid_argument("takes .b32");
    i.type = Type::b32;
  };
  reg.add(e);
  EXPECT_EQ(error_of(use, &reg), "");
  EXPECT_NE(error_of("wlpull.b64 %r0;", &reg).find("wlpull: takes .b32"), std::string::npos);
  EXPECT_THROW(reg.add(e), std::logic_error);
}

TEST(PtxResources, PtxasMetadataOrAnEstimate) {
  Module m = parse_file(kDir + "kernels.ptx");
  Resources r = kernel_resources(m, *m.find("matmul"));
  EXPECT_EQ(r.source, "ptxas");
  EXPECT_EQ(r.registers, 38u);  // kernels.meta.json, from ptxas -v
  EXPECT_EQ(r.shared_bytes, 2048u);
  irr::testing::TempDir d;
  Module bare = parse(irr::testing::read_file(kDir + "kernels.ptx"), d.path() + "/nometa.ptx");
  for (const char* k : {"scan", "matmul", "control"}) {
    Resources e = kernel_resources(bare, *bare.find(k));
    Resources p = kernel_resources(m, *m.find(k));
    EXPECT_EQ(e.source, "estimate");
    // Near what ptxas allocates: within a factor of two either way.
    EXPECT_GE(e.registers * 2, p.registers) << k;
    EXPECT_LE(e.registers, p.registers * 2) << k;
  }
}

// nvcc writes a negative address offset as [%rd+-4] (a user's kernel, issue 22; the wavefront
// workloads); [%rd-4] and [%rd+4] as before.
TEST(PtxParser, NegativeAddressOffsets) {
  const std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 k_p)\n{\n"
                           ".reg .b32 %r<4>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [k_p];\n"
                           "ld.global.u32 %r1, [%rd1+-4];\nld.global.u32 %r2, [%rd1-8];\nld.global.u32 %r3, [%rd1+12];\nret;\n}\n";
  const Module m = parse(text, "t.ptx");
  const Function& k = *m.find("k");
  EXPECT_EQ(k.code[1].ops[1].offset, -4);
  EXPECT_EQ(k.code[2].ops[1].offset, -8);
  EXPECT_EQ(k.code[3].ops[1].offset, 12);
  EXPECT_NE(error_of("ld.global.u32 %r0, [%r1+-];").find("expected a number"), std::string::npos);
}

// A rotate (nvcc: shf.l.wrap) and __syncwarp (bar.warp.sync), from the lock benchmarks' kernels.
TEST(PtxParser, FunnelShiftWarpBarrierAndNanosleep) {
  EXPECT_EQ(error_of("shf.l.wrap.b32 %r1, %r2, %r2, %r3;"), "");
  EXPECT_EQ(error_of("shf.r.clamp.b32 %r1, %r2, %r2, 5;"), "");
  EXPECT_NE(error_of("shf.wrap.b32 %r1, %r2, %r2, %r3;").find("shf needs a direction, .l or .r"), std::string::npos);
  EXPECT_NE(error_of("shf.l.wrap.b32 %r1, %r2, %r3;").find("shf takes 4 operands, not 3"), std::string::npos);
  EXPECT_EQ(error_of("bar.warp.sync %r1;"), "");
  EXPECT_EQ(error_of("bar.warp.sync -1;"), "");
  EXPECT_NE(error_of("bar.sync.warp %r1;").find("unsupported modifier '.warp'"), std::string::npos);
  EXPECT_EQ(error_of("nanosleep.u32 %r1;"), "");
  EXPECT_EQ(error_of("nanosleep.u32 1000;"), "");
  EXPECT_NE(error_of("nanosleep.u32 %r1, %r2;").find("nanosleep takes 1 operand"), std::string::npos);
}

// Indirect calls (nvcc at -O0 -G, issue 22's PTX corpus): the call must name a .callprototype
// (or .calltargets) label declared before it, with as many returns and arguments.
TEST(PtxParser, IndirectCallsNeedAMatchingPrototype) {
  const std::string decl = ".reg .b64 %rd<2>;\n.param .b32 a;\n";
  EXPECT_EQ(error_of(decl + "p0: .callprototype _ (.param .b32 _);\ncall %rd1, (a), p0;"), "");
  EXPECT_EQ(error_of(decl + "p0: .callprototype (.param .b32 _) _ (.param .b32 _, .param .align 8 .b8 _[16]);\n"
                            "call (a), %rd1, (a, a), p0;"), "");
  EXPECT_NE(error_of(decl + "call %rd1, (a), p0;").find("not a .callprototype or .calltargets label"), std::string::npos);
  EXPECT_NE(error_of(decl + "p0: .callprototype _ (.param .b32 _);\ncall %rd1, (a, a), p0;").find("declares 0 and 1"),
            std::string::npos);
  EXPECT_NE(error_of(decl + "call %rd1, (a);").find("ends with its .callprototype"), std::string::npos);
  EXPECT_NE(error_of(decl + "t: .calltargets nowhere;").find("not a declared function"), std::string::npos);
}
