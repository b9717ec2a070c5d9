// SPDX-License-Identifier: Apache-2.0
// The DAC decoupling pass (models/dac, docs/dac.md): the dissertation's worked examples (Figs.
// 3.2-3.4, 3.6) as classification and expansion vectors, divergent tuples and their limit,
// non-affine control, the queues' checks, a property test on random affine PTX, and every suite
// kernel split and run equal to its original.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "models/core/ptx/parser.h"
#include "models/dac/affine_stack.h"
#include "models/dac/peu.h"
#include "models/dac/queues.h"
#include "models/dac/split.h"
#include "models/runtime/device.h"
#include "sim/error.h"
#include "workloads/suite/suite.h"

namespace irr {
namespace {

using core::ptx::Function;
using core::ptx::Module;
using dac::Class;
using runtime::Args;
using runtime::Device;
using runtime::Dim3;

constexpr const char* kHeader = ".version 9.0\n.target sm_75\n.address_size 64\n";

// Fig. 3.3's pseudo-assembly as PTX, line for line (the 64-bit widening of the 32-bit products added).
const std::string kFig33 = std::string(kHeader) + R"(
.visible .entry example_kernel(.param .u64 A, .param .u64 B, .param .u32 dim, .param .u32 num)
{
  .reg .pred %p0;
  .reg .b32 %bx, %bd, %tx, %r0, %t, %r1, %i, %dim, %num, %tmp, %r2, %r3;
  .reg .b64 %A, %B, %w1, %w3, %addrA, %addrB;
  ld.param.u64 %A, [A];
  ld.param.u64 %B, [B];
  ld.param.u32 %dim, [dim];
  ld.param.u32 %num, [num];
  mov.u32 %bx, %ctaid.x;
  mov.u32 %bd, %ntid.x;
  mov.u32 %tx, %tid.x;
  mul.lo.s32 %r0, %bx, %bd;
  add.s32 %t, %tx, %r0;
  mul.lo.s32 %r1, %t, 4;
  cvt.s64.s32 %w1, %r1;
  add.s64 %addrA, %A, %w1;
  add.s64 %addrB, %B, %w1;
  mov.u32 %i, 0;
LOOP:
  ld.global.u32 %tmp, [%addrA];
  add.s32 %r2, %tmp, 1;
  st.global.u32 [%addrB], %r2;
  add.s32 %i, %i, 1;
  mul.lo.s32 %r3, %num, 4;
  cvt.s64.s32 %w3, %r3;
  add.s64 %addrA, %w3, %addrA;
  add.s64 %addrB, %w3, %addrB;
  setp.ne.s32 %p0, %dim, %i;
  @%p0 bra LOOP;
  ret;
}
)";

struct Parsed {
  core::ptx::ExtensionRegistry registry;
  Module module;
  explicit Parsed(const std::string& text) {
    dac::add_dac_instructions(registry);
    module = core::ptx::parse(text, "test.ptx", &registry);
  }
  const Function& kernel() const { return *module.kernels().front(); }
};

Class class_of(const Function& f, const dac::Analysis& a, const std::string& reg) {
  for (std::size_t r = 0; r < f.registers.size(); ++r)
    if (f.registers[r].name == reg) return a.reg[r];
  ADD_FAILURE() << "no register " << reg;
  return Class::non_affine;
}

// The stream's extension instructions in order, as "enq.data", "deq.pred", ...
std::vector<std::string> queue_ops(const Function& f) {
  std::vector<std::string> v;
  for (const auto& in : f.code)
    if (in.op == core::ptx::Op::extension)
      v.push_back(std::string(in.ext_defs ? "deq." : "enq.") + dac::form_name(static_cast<dac::Form>(in.ext_form)));
  return v;
}

TEST(Dac, Fig33OperandsClassifiedAsTheDissertationDoes) {
  Parsed p(kFig33);
  const auto a = dac::analyze(p.kernel());
  // Scalars: the block offset, the loop counter, the stride; affine: everything from the thread
  // index; non-affine: what memory gives (Fig. 3.4's tuples: #3 r1, #4 addrA, #12 r3, #13 addrA).
  for (const char* r : {"%bx", "%bd", "%r0", "%i", "%dim", "%num", "%r3", "%w3", "%A", "%B", "%p0"})
    EXPECT_EQ(class_of(p.kernel(), a, r), Class::scalar) << r;
  for (const char* r : {"%tx", "%t", "%r1", "%w1", "%addrA", "%addrB"}) EXPECT_EQ(class_of(p.kernel(), a, r), Class::affine) << r;
  for (const char* r : {"%tmp", "%r2"}) EXPECT_EQ(class_of(p.kernel(), a, r), Class::non_affine) << r;
}

TEST(Dac, Fig36StreamsEnqueueAndDequeueInProgramOrder) {
  Parsed p(kFig33);
  const dac::Streams s = dac::split(p.kernel(), p.registry);
  // Per iteration the ATQ receives data(addrA), addr(addrB), pred(p0) [Fig. 3.6]; the non-affine
  // warps dequeue them in that order.
  EXPECT_EQ(queue_ops(s.affine), (std::vector<std::string>{"enq.data", "enq.addr", "enq.pred"}));
  EXPECT_EQ(queue_ops(s.non_affine), (std::vector<std::string>{"deq.data", "deq.addr", "deq.pred"}));
  // The non-affine stream keeps only the data computation: deq, ld, add, deq, st, deq, bra, ret.
  EXPECT_EQ(s.non_affine.code.size(), 8u);
  EXPECT_EQ(s.summary.loads_decoupled, 1u);
  EXPECT_EQ(s.summary.stores_decoupled, 1u);
  EXPECT_EQ(s.summary.predicates_decoupled, 1u);
  EXPECT_TRUE(s.summary.not_decoupled.empty());
  // The affine stream computes no data: no global load or store is left in it.
  for (const auto& in : s.affine.code) EXPECT_FALSE(in.op == core::ptx::Op::ld && in.space == core::ptx::Space::global);
}

// A split launch: the affine stream's grid, then the non-affine stream's.
struct SplitDevice {
  mem::BackingStore memory;
  core::ptx::ExtensionRegistry registry;
  dac::Queues queues;
  Device d{memory, &registry};
  std::size_t plain = 0, split = 0;
  explicit SplitDevice(const std::string& text) {
    dac::bind(registry, queues);
    plain = d.load_module_text(text, "test.ptx");
    split = d.load_module(dac::split_module(core::ptx::parse(text, "test.ptx", &registry), registry));
  }
  void run(const std::string& k, Dim3 grid, Dim3 block, const Args& args) {
    d.launch(d.kernel(split, dac::affine_name(k)), grid, block, args);
    d.launch(d.kernel(split, dac::non_affine_name(k)), grid, block, args);
    queues.check_drained();
    queues.clear();
  }
};

TEST(Dac, Fig34TuplesExpandToTheDissertationsAddresses) {
  SplitDevice s(kFig33);
  const std::uint32_t num = 1024, dim = 3;  // r3 = num·4 = 0x1000 [Fig. 3.4]
  const auto A = s.d.malloc(4 * num * dim), B = s.d.malloc(4 * num * dim);
  // The affine stream alone: what it leaves in warp 0's address queue of CTA 0.
  s.d.launch(s.d.kernel(s.split, dac::affine_name("example_kernel")), Dim3{2}, Dim3{64}, Args() << A << B << dim << num);
  const auto records = s.queues.pending(0, 0, dac::Form::data);
  ASSERT_EQ(records.size(), 2u * dim);  // enq.data and enq.addr per iteration
  for (std::uint32_t it = 0; it < dim; ++it) {
    const auto& data = records[2 * it];
    EXPECT_EQ(data.form, dac::Form::data);
    EXPECT_EQ(data.mask, 0xffffffffu);
    for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(data.value[t], A + 0x1000 * it + 4 * t) << "iteration " << it << " thread " << t;
    EXPECT_EQ(records[2 * it + 1].value[3], B + 0x1000 * it + 12);
  }
  // Warp 1 of CTA 1 (threads 96..127 of the grid): base + 4·(global thread id).
  EXPECT_EQ(s.queues.pending(1, 1, dac::Form::data).front().value[0], A + 4 * 96);
  // Predicates: dim != i after the increment, the same for every thread: 1, 1, then 0.
  const auto preds = s.queues.pending(0, 0, dac::Form::pred);
  ASSERT_EQ(preds.size(), dim);
  EXPECT_EQ(preds[0].value[5], 1u);
  EXPECT_EQ(preds[2].value[5], 0u);
}

TEST(Dac, Fig33SplitRunsEqualToTheOriginal) {
  SplitDevice s(kFig33);
  const std::uint32_t num = 256, dim = 5, n = num * dim;
  std::vector<std::uint32_t> a(n);
  for (std::uint32_t i = 0; i < n; ++i) a[i] = i * 7 + 3;
  const auto A = s.d.malloc(4 * n), B1 = s.d.malloc(4 * n), B2 = s.d.malloc(4 * n);
  s.d.memcpy_to_device(A, a.data(), 4 * n);
  s.d.launch(s.d.kernel(s.plain, "example_kernel"), Dim3{2}, Dim3{128}, Args() << A << B1 << dim << num);
  s.run("example_kernel", Dim3{2}, Dim3{128}, Args() << A << B2 << dim << num);
  std::vector<std::uint32_t> b1(n), b2(n);
  s.d.memcpy_to_host(b1.data(), B1, 4 * n);
  s.d.memcpy_to_host(b2.data(), B2, 4 * n);
  EXPECT_EQ(b1, b2);
  EXPECT_EQ(b2[300], a[300] + 1);
  // Every enqueued value was dequeued once: 2 CTAs x 4 warps x 5 iterations of data, addr, pred.
  EXPECT_EQ(s.queues.counts().records[0], 0u);  // cleared after the run
}

// Fig. 3.2: A = (100,1), B = (200,1), C = A + B = (300,2), D = 2, E = C·D = (600,4); A·B is not affine.
const std::string kFig32 = std::string(kHeader) + R"(
.visible .entry fig32(.param .u64 buf, .param .u32 d, .param .u64 out)
{
  .reg .b32 %t, %a, %b, %c, %d, %e, %f, %v1, %v2;
  .reg .b64 %buf, %out, %we, %wf, %ae, %af, %wt, %at;
  ld.param.u64 %buf, [buf];
  ld.param.u64 %out, [out];
  ld.param.u32 %d, [d];
  mov.u32 %t, %tid.x;
  add.s32 %a, %t, 100;
  add.s32 %b, %t, 200;
  add.s32 %c, %a, %b;
  mul.lo.s32 %e, %c, %d;
  mul.lo.s32 %f, %a, %b;
  cvt.u64.u32 %we, %e;
  add.s64 %ae, %buf, %we;
  ld.global.u32 %v1, [%ae];
  cvt.u64.u32 %wf, %f;
  add.s64 %af, %buf, %wf;
  ld.global.u32 %v2, [%af];
  add.s32 %v1, %v1, %v2;
  mul.wide.u32 %wt, %t, 4;
  add.s64 %at, %out, %wt;
  st.global.u32 [%at], %v1;
  ret;
}
)";

TEST(Dac, Fig32AffineArithmetic) {
  Parsed p(kFig32);
  const auto a = dac::analyze(p.kernel());
  EXPECT_EQ(class_of(p.kernel(), a, "%c"), Class::affine);
  EXPECT_EQ(class_of(p.kernel(), a, "%d"), Class::scalar);
  EXPECT_EQ(class_of(p.kernel(), a, "%e"), Class::affine);      // (bC,oC)·(bD,0): one factor scalar
  EXPECT_EQ(class_of(p.kernel(), a, "%f"), Class::non_affine);  // affine · affine [S L468]
  const dac::Streams s = dac::split(p.kernel(), p.registry);
  EXPECT_EQ(s.summary.loads_decoupled, 1u);  // buf + E, not buf + A·B
  EXPECT_EQ(s.summary.stores_decoupled, 1u);

  SplitDevice dev(kFig32);
  const auto buf = dev.d.malloc(4 * 400 * 400), out = dev.d.malloc(4 * 32);
  dev.d.launch(dev.d.kernel(dev.split, dac::affine_name("fig32")), Dim3{1}, Dim3{32}, Args() << buf << 2u << out);
  const auto r = dev.queues.pending(0, 0, dac::Form::data).front();
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(r.value[t] - buf, 600u + 4 * t) << t;  // the tuple (600, 4)
}

// An offset that depends on `conditions` affine branches: with at most 2 (4 tuples) the load is
// decoupled and runs right; with 3 it is not, and the summary says why.
std::string divergent(int conditions) {
  std::ostringstream k;
  k << kHeader << ".visible .entry div(.param .u64 buf, .param .u64 out)\n{\n"
    << "  .reg .pred %p<4>;\n  .reg .b32 %t, %off, %v;\n  .reg .b64 %buf, %out, %w, %a, %wt, %at;\n"
    << "  ld.param.u64 %buf, [buf];\n  ld.param.u64 %out, [out];\n  mov.u32 %t, %tid.x;\n  mov.u32 %off, 0;\n";
  const int bound[] = {16, 8, 4};
  for (int c = 0; c < conditions; ++c)
    k << "  setp.lt.u32 %p" << c << ", %t, " << bound[c] << ";\n  @%p" << c << " bra L" << c << ";\n  add.s32 %off, %off, "
      << (4 << c) << ";\nL" << c << ":\n";
  k << "  cvt.u64.u32 %w, %off;\n  add.s64 %a, %buf, %w;\n  ld.global.u32 %v, [%a];\n"
    << "  mul.wide.u32 %wt, %t, 4;\n  add.s64 %at, %out, %wt;\n  st.global.u32 [%at], %v;\n  ret;\n}\n";
  return k.str();
}

TEST(Dac, TwoDivergentConditionsAreDecoupledAndRunRight) {
  Parsed p(divergent(2));
  const dac::Streams s = dac::split(p.kernel(), p.registry);
  EXPECT_EQ(s.summary.loads_decoupled, 1u);
  SplitDevice dev(divergent(2));
  std::vector<std::uint32_t> words(16);
  for (std::uint32_t i = 0; i < 16; ++i) words[i] = 100 + i;
  const auto buf = dev.d.malloc(64), out = dev.d.malloc(4 * 32);
  dev.d.memcpy_to_device(buf, words.data(), 64);
  dev.run("div", Dim3{1}, Dim3{32}, Args() << buf << out);
  std::vector<std::uint32_t> got(32);
  dev.d.memcpy_to_host(got.data(), out, 4 * 32);
  for (std::uint32_t t = 0; t < 32; ++t) EXPECT_EQ(got[t], 100 + (t >= 16 ? 1 : 0) + (t >= 8 ? 2 : 0)) << t;
}

TEST(Dac, ThreeDivergentConditionsAreNotDecoupled) {
  Parsed p(divergent(3));
  const dac::Streams s = dac::split(p.kernel(), p.registry);
  EXPECT_EQ(s.summary.loads_decoupled, 0u);
  EXPECT_EQ(s.summary.stores_decoupled, 1u);  // out[t] is still affine
  ASSERT_EQ(s.summary.not_decoupled.size(), 1u);
  EXPECT_NE(s.summary.not_decoupled[0].why.find("3 divergent affine conditions"), std::string::npos)
      << s.summary.not_decoupled[0].why;
  // The dissertation's limit is a parameter: allow 3 and it is decoupled.
  dac::Options o;
  o.max_divergent_conditions = 3;
  EXPECT_EQ(dac::split(p.kernel(), p.registry, o).summary.loads_decoupled, 1u);
}

// The DCRF holds the divergent conditions the expansions check [S L671]: a load whose two do not
// fit stays in the non-affine stream, with the reason.
TEST(Dac, DivergentConditionsTakeDcrfEntries) {
  Parsed p(divergent(2));
  EXPECT_EQ(dac::split(p.kernel(), p.registry).analysis.dcrf.size(), 2u);
  dac::Options o;
  o.dcrf_entries = 1;
  const dac::Streams s = dac::split(p.kernel(), p.registry, o);
  EXPECT_EQ(s.summary.loads_decoupled, 0u);
  EXPECT_TRUE(s.analysis.dcrf.empty());
  ASSERT_EQ(s.summary.not_decoupled.size(), 1u);
  EXPECT_NE(s.summary.not_decoupled[0].why.find("DCRF's 1 entries"), std::string::npos) << s.summary.not_decoupled[0].why;
}

// The affine SIMT stack [S L629-L637], Fig. 3.9's situation: at a branch warps 0 and 1 all take
// it, warp 2 is mixed, warp 3 (16 threads) all fall through; only warp 2 writes its PWS.
TEST(Dac, AffineStackCodesAndPerWarpMasks) {
  dac::AffineStack st({~0u, ~0u, ~0u, 0xffffu});
  EXPECT_EQ(st.depth(), 1u);
  // A branch every thread takes one way pushes nothing.
  EXPECT_EQ(st.branch(10, 20, 30, {{0, ~0u, ~0u}, {1, ~0u, ~0u}}), 0u);
  // Divergent, both paths before the reconvergence point: two entries.
  EXPECT_EQ(st.branch(10, 20, 30, {{0, ~0u, ~0u}, {1, ~0u, ~0u}, {2, ~0u, 0xff00ff00u}, {3, 0xffffu, 0}}), 2u);
  EXPECT_EQ(st.depth(), 3u);
  EXPECT_EQ(st.pws_depth(2), 2u);  // its masks on both paths (code 10 on each)
  EXPECT_EQ(st.pws_depth(3), 0u);  // 00 on one path, 11 on the other: its 16 threads are all of it
  EXPECT_EQ(st.pws_written(), 2u);
  // Nested: an if-then whose taken path is the join (one entry), in warp 2 only.
  EXPECT_EQ(st.branch(21, 25, 25, {{2, 0xff00ff00u, 0xff000000u}}), 1u);
  EXPECT_EQ(st.depth(), 4u);
  EXPECT_EQ(st.pws_max(), 3u);
  EXPECT_EQ(st.issued(22), 0u);
  EXPECT_EQ(st.issued(25), 1u);  // the inner join
  EXPECT_EQ(st.pws_read(), 1u);
  EXPECT_EQ(st.issued(30), 2u);  // the outer one
  EXPECT_EQ(st.depth(), 1u);
  EXPECT_EQ(st.pws_max(), 0u);
}

// A loop's exit taken by some threads each iteration updates the entry instead of pushing again.
TEST(Dac, AffineStackLoopExitDoesNotGrow) {
  dac::AffineStack st({~0u, ~0u});
  EXPECT_EQ(st.branch(8, 3, 9, {{0, ~0u, 0x0000ffffu}, {1, ~0u, ~0u}}), 1u);  // back edge: only the loop path
  EXPECT_EQ(st.depth(), 2u);
  for (std::uint32_t left = 0xffu; left; left >>= 1) {
    st.issued(3);
    EXPECT_EQ(st.branch(8, 3, 9, {{0, left << 1 | 1, left}, {1, ~0u, ~0u}}), 0u);
    EXPECT_EQ(st.depth(), 2u);
  }
  EXPECT_EQ(st.issued(9), 1u);
  EXPECT_EQ(st.depth(), 1u);
}

// A store under a branch on loaded data stays whole in the non-affine stream; the load is decoupled.
const std::string kDataBranch = std::string(kHeader) + R"(
.visible .entry branchy(.param .u64 in, .param .u64 out)
{
  .reg .pred %p;
  .reg .b32 %t, %v;
  .reg .b64 %in, %out, %w, %a, %b;
  ld.param.u64 %in, [in];
  ld.param.u64 %out, [out];
  mov.u32 %t, %tid.x;
  mul.wide.u32 %w, %t, 4;
  add.s64 %a, %in, %w;
  ld.global.u32 %v, [%a];
  setp.eq.s32 %p, %v, 0;
  @%p bra SKIP;
  add.s64 %b, %out, %w;
  st.global.u32 [%b], %t;
SKIP:
  ret;
}
)";

TEST(Dac, BranchOnDataKeepsWhatItControls) {
  Parsed p(kDataBranch);
  const dac::Streams s = dac::split(p.kernel(), p.registry);
  EXPECT_EQ(s.summary.loads_decoupled, 1u);
  EXPECT_EQ(s.summary.stores_decoupled, 0u);
  ASSERT_EQ(s.summary.not_decoupled.size(), 1u);
  EXPECT_NE(s.summary.not_decoupled[0].why.find("under a branch on a non-affine value"), std::string::npos);
  SplitDevice dev(kDataBranch);
  std::vector<std::uint32_t> in(64);
  for (std::uint32_t i = 0; i < 64; ++i) in[i] = i % 3;
  const auto pin = dev.d.malloc(256), out = dev.d.malloc(256);
  dev.d.memcpy_to_device(pin, in.data(), 256);
  dev.d.memset(out, 0xff, 256);
  dev.run("branchy", Dim3{1}, Dim3{64}, Args() << pin << out);
  std::vector<std::uint32_t> got(64);
  dev.d.memcpy_to_host(got.data(), out, 256);
  for (std::uint32_t t = 0; t < 64; ++t) EXPECT_EQ(got[t], in[t] == 0 ? 0xffffffffu : t) << t;
}

TEST(Dac, QueuesNameWhatDisagrees) {
  dac::Queues q;
  dac::Queues::Record r{dac::Form::data, 0xffu, 12, {}};
  q.enq(0, 1, r);
  try {
    q.deq(0, 1, dac::Form::addr, 0xffu, 20);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("found the record of enq.data (line 12)"), std::string::npos) << e.what();
  }
  try {
    q.deq(0, 1, dac::Form::data, 0x0fu, 20);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("enqueued for lanes 0x000000ff"), std::string::npos) << e.what();
  }
  EXPECT_THROW(q.deq(3, 0, dac::Form::pred, 1, 5), std::invalid_argument);  // nothing queued
  try {
    q.check_drained();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("warp 1 of CTA 0 left 1 address"), std::string::npos) << e.what();
  }
  EXPECT_EQ(q.deq(0, 1, dac::Form::data, 0xffu, 20).line, 12u);
  EXPECT_NO_THROW(q.check_drained());
}

// Property: random straight-line affine address arithmetic (add, shl, mul and mad by a scalar),
// loads at those addresses, some under affine predicates, summed to out[gid]: the split kernel
// leaves the same memory image as the original.
std::string random_kernel(std::mt19937& rng, int& loads) {
  std::ostringstream k;
  const int regs = 12;
  k << kHeader << ".visible .entry prop(.param .u64 buf, .param .u64 out, .param .u32 s0, .param .u32 s1)\n{\n"
    << "  .reg .pred %q<" << regs << ">;\n  .reg .b32 %a<" << regs + 4 << ">, %v<" << regs << ">, %acc, %s0, %s1;\n"
    << "  .reg .b64 %buf, %out, %w<" << regs << ">, %d<" << regs << ">, %wo, %ao;\n"
    << "  ld.param.u64 %buf, [buf];\n  ld.param.u64 %out, [out];\n  ld.param.u32 %s0, [s0];\n  ld.param.u32 %s1, [s1];\n"
    << "  mov.u32 %a0, %tid.x;\n  mov.u32 %a1, %ctaid.x;\n  mov.u32 %a2, %ntid.x;\n  mad.lo.s32 %a3, %a1, %a2, %a0;\n"
    << "  mov.u32 %acc, 0;\n";
  // Upper bounds (tid < 64, 2 CTAs, scalars <= 3) keep every address inside a 1 MiB buffer.
  std::vector<std::uint64_t> ub = {63, 1, 64, 127};
  std::vector<bool> scalar = {false, true, true, false};
  loads = 0;
  for (int i = 4; i < regs + 4; ++i) {
    std::uint64_t bound = 0;
    std::string op;
    for (int tries = 0; tries < 20; ++tries) {
      const int x = static_cast<int>(rng() % i), y = static_cast<int>(rng() % i);
      switch (rng() % 5) {
        case 0: op = "add.s32 %a" + std::to_string(i) + ", %a" + std::to_string(x) + ", %a" + std::to_string(y), bound = ub[x] + ub[y]; break;
        case 1: op = "add.s32 %a" + std::to_string(i) + ", %a" + std::to_string(x) + ", 17", bound = ub[x] + 17; break;
        case 2: op = "shl.b32 %a" + std::to_string(i) + ", %a" + std::to_string(x) + ", 2", bound = ub[x] * 4; break;
        case 3: op = "mul.lo.s32 %a" + std::to_string(i) + ", %a" + std::to_string(x) + ", %s" + std::to_string(rng() % 2), bound = ub[x] * 3; break;
        default:
          op = "mad.lo.s32 %a" + std::to_string(i) + ", %s" + std::to_string(rng() % 2) + ", %a" + std::to_string(x) + ", %a" + std::to_string(y);
          bound = ub[x] * 3 + ub[y];
      }
      if (bound < (1u << 18)) break;
      op = "mov.u32 %a" + std::to_string(i) + ", %a0", bound = 63;
    }
    k << "  " << op << ";\n";
    ub.push_back(bound);
    scalar.push_back(false);
    if (rng() % 3 == 0) continue;
    const int v = i - 4;
    ++loads;
    k << "  mul.wide.u32 %w" << v << ", %a" << i << ", 4;\n  add.s64 %d" << v << ", %buf, %w" << v << ";\n  mov.u32 %v" << v << ", 0;\n";
    if (rng() % 2) {
      k << "  setp.lt.u32 %q" << v << ", %a" << i << ", %a" << rng() % i << ";\n  @%q" << v << " ld.global.u32 %v" << v << ", [%d" << v << "];\n";
    } else {
      k << "  ld.global.u32 %v" << v << ", [%d" << v << "];\n";
    }
    k << "  add.s32 %acc, %acc, %v" << v << ";\n";
  }
  k << "  mul.wide.u32 %wo, %a3, 4;\n  add.s64 %ao, %out, %wo;\n  st.global.u32 [%ao], %acc;\n  ret;\n}\n";
  return k.str();
}

TEST(Dac, RandomAffinePtxSplitsAndRunsEqual) {
  std::mt19937 rng(2017);
  for (int trial = 0; trial < 25; ++trial) {
    int loads = 0;
    const std::string text = random_kernel(rng, loads);
    Parsed p(text);
    const dac::Streams st = dac::split(p.kernel(), p.registry);
    EXPECT_EQ(st.summary.loads_decoupled, static_cast<std::size_t>(loads)) << text;
    EXPECT_EQ(st.summary.stores_decoupled, 1u);
    SplitDevice s(text);
    const std::uint64_t words = 1u << 18;
    std::vector<std::uint32_t> data(words);
    for (std::uint64_t i = 0; i < words; ++i) data[i] = static_cast<std::uint32_t>(rng());
    const auto buf = s.d.malloc(4 * words), o1 = s.d.malloc(4 * 128), o2 = s.d.malloc(4 * 128);
    s.d.memcpy_to_device(buf, data.data(), 4 * words);
    const std::uint32_t s0 = 2, s1 = 3;
    s.d.launch(s.d.kernel(s.plain, "prop"), Dim3{2}, Dim3{64}, Args() << buf << o1 << s0 << s1);
    s.run("prop", Dim3{2}, Dim3{64}, Args() << buf << o2 << s0 << s1);
    std::vector<std::uint32_t> r1(128), r2(128);
    s.d.memcpy_to_host(r1.data(), o1, 4 * 128);
    s.d.memcpy_to_host(r2.data(), o2, 4 * 128);
    ASSERT_EQ(r1, r2) << text;
  }
}

TEST(Dac, OneDimensionalTuplesLeaveTidYNonAffine) {
  Parsed p(std::string(kHeader) + R"(
.visible .entry two(.param .u64 out)
{
  .reg .b32 %x, %y, %i;
  .reg .b64 %out, %w, %a;
  ld.param.u64 %out, [out];
  mov.u32 %x, %tid.x;
  mov.u32 %y, %tid.y;
  mad.lo.s32 %i, %y, 16, %x;
  mul.wide.u32 %w, %i, 4;
  add.s64 %a, %out, %w;
  st.global.u32 [%a], %i;
  ret;
}
)");
  EXPECT_EQ(dac::split(p.kernel(), p.registry).summary.stores_decoupled, 1u);  // default: x, y, z
  dac::Options o;
  o.tid_dims = 1;
  EXPECT_EQ(dac::split(p.kernel(), p.registry, o).summary.stores_decoupled, 0u);  // Eq. 3.1's one thread ID
  o.tid_dims = 4;
  EXPECT_THROW(dac::analyze(p.kernel(), o), Error);
}

// Every suite kernel: as written and split, each passes its CPU reference, and the two leave
// the same bytes.
class SuiteSplit : public ::testing::TestWithParam<std::string> {};

TEST_P(SuiteSplit, RunsEqualToTheOriginal) {
  const auto& k = workloads::suite::kernel(GetParam());
  mem::BackingStore m1, m2;
  Device plain(m1);
  workloads::suite::Launcher l1(plain);
  const auto a = k.run(l1);
  EXPECT_EQ(a.error, "");
  core::ptx::ExtensionRegistry registry;
  dac::Queues queues;
  dac::bind(registry, queues);
  Device dd(m2, &registry);
  workloads::suite::Launcher l2(dd, &registry, &queues);
  const auto b = k.run(l2);
  EXPECT_EQ(b.error, "");
  EXPECT_TRUE(a.bytes == b.bytes) << "the split kernel's outputs differ from the original's";
  EXPECT_FALSE(a.bytes.empty());
  // Decoupling removes work from the data-parallel warps wherever it moved anything.
  EXPECT_LE(l2.warp_instructions, l1.warp_instructions);
}

std::vector<std::string> suite_names() {
  std::vector<std::string> v;
  for (const auto& k : workloads::suite::kernels()) v.push_back(k.name);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Dac, SuiteSplit, ::testing::ValuesIn(suite_names()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(Dac, SuiteNamesAnUnknownKernel) {
  try {
    workloads::suite::kernel("nope");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("known: vecadd, saxpy"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace irr

namespace irr {
namespace {

using core::ptx::Cmp;

// The PEU: scalar against scalar is one comparison for the CTA [S L613]; an affine operand
// against a scalar is two comparisons a convergent warp, the lanes otherwise [S L615].
TEST(DacPeu, ScalarScalarIsOneComparison) {
  const auto e = dac::expand_predicate(Cmp::ne, true, 7, 0, 3, {~0u, ~0u, 0xffu});  // Fig. 3.6's dim != i
  EXPECT_EQ(e.comparisons, 1u);
  EXPECT_EQ(e.masks, (std::vector<std::uint32_t>{~0u, ~0u, 0xffu}));
  EXPECT_EQ(dac::expand_predicate(Cmp::ne, true, 3, 0, 3, {~0u}).masks[0], 0u);  // the last iteration
}

TEST(DacPeu, AffineAgainstScalarTwoComparisonsAWarpWhenConvergent) {
  // tid < 40 over 3 warps: warp 0 all true, warp 1 mixed (lanes), warp 2 all false.
  const auto e = dac::expand_predicate(Cmp::lt, true, 0, 1, 40, {~0u, ~0u, ~0u});
  EXPECT_EQ(e.masks, (std::vector<std::uint32_t>{~0u, 0xffu, 0u}));
  EXPECT_EQ(e.comparisons, 6u);
  EXPECT_EQ(e.lane_warps, 1u);
}

TEST(DacPeu, MatchesLaneByLaneOnRandomTuples) {
  std::mt19937_64 rng(31);
  const Cmp cmps[] = {Cmp::eq, Cmp::ne, Cmp::lt, Cmp::le, Cmp::gt, Cmp::ge, Cmp::lo, Cmp::ls, Cmp::hi, Cmp::hs};
  for (int trial = 0; trial < 3000; ++trial) {
    const Cmp c = cmps[rng() % std::size(cmps)];
    const bool sgn = rng() % 2;
    const auto base = static_cast<std::int64_t>(rng() % 2000) - 1000, off = static_cast<std::int64_t>(rng() % 9) - 4;
    const auto b = static_cast<std::int64_t>(rng() % 3000) - 1500;
    std::vector<std::uint32_t> active;
    for (int w = 0; w < 4; ++w) active.push_back(rng() % 3 ? ~0u : static_cast<std::uint32_t>(rng()));
    const auto e = dac::expand_predicate(c, sgn, base, off, b, active);
    for (std::uint32_t w = 0; w < active.size(); ++w)
      for (unsigned l = 0; l < 32; ++l) {
        const std::int64_t v = base + static_cast<std::int64_t>(32 * w + l) * off;
        const auto uv = static_cast<std::uint64_t>(v), ub = static_cast<std::uint64_t>(b);
        bool want = false;
        switch (c) {
          case Cmp::eq: want = v == b; break;
          case Cmp::ne: want = v != b; break;
          case Cmp::lt: want = sgn ? v < b : uv < ub; break;
          case Cmp::le: want = sgn ? v <= b : uv <= ub; break;
          case Cmp::gt: want = sgn ? v > b : uv > ub; break;
          case Cmp::ge: want = sgn ? v >= b : uv >= ub; break;
          case Cmp::lo: want = uv < ub; break;
          case Cmp::ls: want = uv <= ub; break;
          case Cmp::hi: want = uv > ub; break;
          default: want = uv >= ub; break;
        }
        want = want && (active[w] >> l & 1);
        ASSERT_EQ(e.masks[w] >> l & 1, want ? 1u : 0u) << "trial " << trial << " warp " << w << " lane " << l << " cmp "
                                                        << static_cast<int>(c) << " signed " << sgn << " tuple (" << base << ", "
                                                        << off << ") b " << b << " active " << active[w];
      }
  }
}

}  // namespace
}  // namespace irr
