// SPDX-License-Identifier: Apache-2.0
// Spare-register prefetching's load-pair detection (seed 004 Table 1 [G L433-L445]) on the thesis's
// edge loop (Listing 2 [G L718-L742], as nvcc compiles hbfs_restrict), and its storage (section 3.4).
#include <gtest/gtest.h>

#include "models/core/ptx/parser.h"
#include "models/spref/loops.h"
#include "models/spref/spref.h"

using namespace irr;
using spref::kNone;

namespace {

// H-BFS's edge loop: id = col[i] (head: the pointer %rd5 steps by 4), visited[id] (tail: its address
// from the head's value), the index %r4 compared with the end %r3 (LD is `ld.global.nc` or not).
std::string edge_loop(const std::string& ld) {
  return R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 col, .param .u64 visited, .param .u64 cost, .param .u32 start, .param .u32 end)
{
.reg .pred %p<2>;
.reg .b16 %rs<2>;
.reg .b32 %r<6>;
.reg .b64 %rd<12>;
ld.param.u64 %rd1, [col];
ld.param.u64 %rd2, [visited];
ld.param.u64 %rd3, [cost];
ld.param.u32 %r4, [start];
ld.param.u32 %r3, [end];
mul.wide.u32 %rd4, %r4, 4;
add.s64 %rd5, %rd1, %rd4;
$L_loop:
)" + ld + R"(.u32 %r1, [%rd5];
cvt.u64.u32 %rd6, %r1;
add.s64 %rd7, %rd2, %rd6;
)" + ld + R"(.u8 %rs1, [%rd7];
shl.b64 %rd8, %rd6, 2;
add.s64 %rd9, %rd3, %rd8;
st.global.u32 [%rd9], %r4;
add.s32 %r4, %r4, 1;
add.s64 %rd5, %rd5, 4;
setp.lt.u32 %p1, %r4, %r3;
@%p1 bra $L_loop;
ret;
}
)";
}

// pcs: 0-6 the set-up, 7 the head, 8 cvt, 9 add, 10 the tail, ..., 14 the index update, 16 setp, 17 bra.
constexpr std::uint32_t kHead = 7, kTail = 10, kIndexUpdate = 14, kSetp = 16, kBranch = 17;

}  // namespace

TEST(Spref, TableOneFindsTheHeadAndTailOfAnEdgeLoop) {
  const auto m = core::ptx::parse(edge_loop("ld.global.nc"), "loop.ptx");
  const auto& f = m.functions.at(0);
  ASSERT_EQ(f.code[kBranch].op, core::ptx::Op::bra);
  auto loops = spref::find_loops(f);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].start, kHead);
  EXPECT_EQ(loops[0].end, kBranch);
  spref::find_pairs_statically(f, loops[0], 2, true);
  ASSERT_EQ(loops[0].pairs.size(), 1u);
  const auto& p = loops[0].pairs[0];
  EXPECT_EQ(p.head, kHead);
  EXPECT_EQ(p.tail, kTail);
  EXPECT_EQ(p.stride, 4);  // the pointer's step
  EXPECT_EQ(p.scale, 1);   // visited is a byte array: its address moves by 1 a unit of the id
  // The iteration count: the compare of the index (updated by 1) with the end.
  EXPECT_EQ(loops[0].setp, kSetp);
  EXPECT_EQ(loops[0].induction_operand, 1u);
  EXPECT_EQ(loops[0].bound_operand, 2u);
  EXPECT_EQ(loops[0].increment, 1);
}

// The hardware learns the index updates in one iteration and uses them in the next: a first
// iteration cut off before them finds no strided load [G L433].
TEST(Spref, HardwareDetectionNeedsTheFirstIterationsIndexUpdates) {
  const auto m = core::ptx::parse(edge_loop("ld.global.nc"), "loop.ptx");
  const auto& f = m.functions.at(0);
  auto loop = spref::find_loops(f).at(0);
  std::vector<std::uint32_t> body, cut;
  for (std::uint32_t pc = loop.start; pc <= loop.end; ++pc) {
    body.push_back(pc);
    if (pc < kIndexUpdate) cut.push_back(pc);
  }
  spref::find_pairs(f, loop, cut, body, 2, true);
  EXPECT_TRUE(loop.pairs.empty());
  EXPECT_EQ(loop.setp, kNone);
  spref::find_pairs(f, loop, body, body, 2, true);
  ASSERT_EQ(loop.pairs.size(), 1u);
  EXPECT_EQ(loop.pairs[0].tail, kTail);
}

// Only `const __restrict` arrays' loads (ld.global.nc) may be prefetched into registers [G L427]
// unless the configuration says every global load may.
TEST(Spref, OnlyRestrictLoadsQualifyUnlessAsked) {
  const auto m = core::ptx::parse(edge_loop("ld.global"), "loop.ptx");
  auto loop = spref::find_loops(m.functions.at(0)).at(0);
  spref::find_pairs_statically(m.functions.at(0), loop, 2, true);
  EXPECT_TRUE(loop.pairs.empty());
  spref::find_pairs_statically(m.functions.at(0), loop, 2, false);
  ASSERT_EQ(loop.pairs.size(), 1u);
  EXPECT_EQ(loop.pairs[0].head, kHead);
  EXPECT_EQ(loop.pairs[0].tail, kTail);
}

// Section 3.4's sum for 63 registers and 48 warps [G L500-L515]; the compiler-assisted variant
// needs no tags [G L515].
TEST(Spref, StorageIsTheThesisSum) {
  spref::Options o;
  EXPECT_EQ(spref::storage_bits(o, 48), 1365u * 8);
  o.compiler = true;
  EXPECT_EQ(spref::storage_bits(o, 48), 1365u * 8 - 2 * 126);
}

// LS-MST as nvcc 13 compiles it: the index goes through two conversions before its increment, no
// WAR update of one register; spref.index_through_copies takes it.
TEST(Spref, AnIndexUpdatedThroughCopiesNeedsTheOption) {
  const char* ptx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 w, .param .u32 start, .param .u32 end)
{
.reg .pred %p<2>;
.reg .b32 %r<8>;
.reg .b64 %rd<8>;
ld.param.u64 %rd1, [w];
ld.param.u32 %r4, [start];
ld.param.u32 %r3, [end];
$L_loop:
cvt.u64.u32 %rd2, %r4;
mul.wide.u32 %rd3, %r4, 4;
add.s64 %rd4, %rd1, %rd3;
ld.global.nc.u32 %r1, [%rd4];
cvt.u32.u64 %r5, %rd2;
add.s32 %r4, %r5, 1;
setp.lt.u32 %p1, %r4, %r3;
@%p1 bra $L_loop;
ret;
}
)";
  const auto m = core::ptx::parse(ptx, "copies.ptx");
  auto loop = spref::find_loops(m.functions.at(0)).at(0);
  spref::find_pairs_statically(m.functions.at(0), loop, 2, true);
  EXPECT_TRUE(loop.pairs.empty());
  spref::find_pairs_statically(m.functions.at(0), loop, 2, true, true);
  ASSERT_EQ(loop.pairs.size(), 1u);
  EXPECT_EQ(loop.pairs[0].head, 6u);
  EXPECT_EQ(loop.pairs[0].stride, 4);
  EXPECT_EQ(loop.pairs[0].tail, kNone);
  EXPECT_EQ(loop.increment, 1);
}
