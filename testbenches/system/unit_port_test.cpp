// SPDX-License-Identifier: Apache-2.0
// The unit-attachment contract (models/core/unit_port.h) exercised end to end by a test unit: an
// extension instruction routed to it, issue-time backpressure, the whole-warp wait, completion
// through the write-back path (with values the unit decides), injected memory accesses (normal and
// low priority, and requests to a partition's unit that bypass the L1) with tagged replies, kernel
// begin/end events, and the error when no unit is attached.
#include <gtest/gtest.h>

#include <map>

#include "models/gpu/gpu.h"
#include "testbenches/common/testing.h"

using namespace irr;
using irr::runtime::Args;
using irr::runtime::Device;
using irr::runtime::Dim3;
using irr::testing::Testbench;

namespace {

// `tsum.u32 d, a`: d = a + 1000 (the functional semantics), timed by the test unit.
core::ptx::Extension tsum_extension() {
  core::ptx::Extension e;
  e.name = "tsum";
  e.unit = "test";
  e.route = "test";
  e.decode = [](core::ptx::Instruction& i, const std::vector<std::string>& mods) {
    if (mods != std::vector<std::string>{"u32"}) throw std::invalid_argument("takes .u32");
    i.type = core::ptx::Type::u32;
  };
  e.execute = [](core::ptx::ExtensionCall& c) {
    for (unsigned l = 0; l < 32; ++l)
      if (c.active() >> l & 1) c.write(0, l, c.read(1, l) + 1000);
  };
  return e;
}

const char* kTsum = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 out)
{
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
mov.u32 %r1, %tid.x;
tsum.u32 %r2, %r1;
mov.u32 %r3, 7;
add.u32 %r2, %r2, %r3;
ld.param.u64 %rd1, [out];
mul.wide.u32 %rd2, %r1, 4;
add.u64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r2;
ret;
}
)";

// One operation at a time; each reads one line of its own (alternating normal and low priority)
// and completes when the line arrives.
struct TestUnit : core::SmUnit {
  std::uint64_t base = 0;
  bool busy = false;
  std::uint64_t accepted = 0, replies = 0, begins = 0, ends = 0, refused = 0;
  std::vector<std::uint64_t> accept_ps, complete_ps;
  std::function<double()> issued;  // the SM's warp instructions so far
  std::vector<double> issued_at_accept, issued_at_complete;
  bool can_accept(const core::UnitOp& op) override {
    EXPECT_EQ(op.active, 0xffffffffu);
    refused += busy;
    return !busy;
  }
  void accept(const core::UnitOp& op, core::SmPort& port) override {
    EXPECT_FALSE(busy);
    EXPECT_EQ(op.active, 0xffffffffu);
    busy = true;
    accept_ps.push_back(sim::now_ps());
    issued_at_accept.push_back(issued());
    mem::MemAccess a;
    a.access = tlm_glue::Access::load;
    a.line = a.address = base + 128 * accepted;
    a.bytes = 128;
    a.sectors = ~0u;
    port.inject(*this, a, accepted % 2 == 1, op.token);
    ++accepted;
  }
  void memory_reply(std::uint64_t tag, core::SmPort& port) override {
    ++replies;
    busy = false;
    complete_ps.push_back(sim::now_ps());
    issued_at_complete.push_back(issued());
    port.complete(tag);
  }
  void kernel_begin(const core::KernelLaunch&, core::SmPort&) override { ++begins; }
  void kernel_end(const core::KernelLaunch&, core::SmPort&) override { ++ends; }
};

}  // namespace

TEST(UnitPort, TestUnitSeesEveryPartOfTheContract) {
  Testbench tb({"gpu.num_sms=1", "host.launch_overhead=0ps", "log.level=warn"}, "gtx480");
  auto& g = tb.add<gpu::Gpu>("gpu");
  core::ptx::ExtensionRegistry reg;
  reg.add(tsum_extension());
  Device dev(g.memory(), &reg);
  dev.set_backend(&g);
  TestUnit* unit = nullptr;
  g.attach_sm_units("test", [&](core::Sm&) {
    auto u = std::make_unique<TestUnit>();
    u->issued = [&tb] { return tb.stat("gpu.sm0.warp_instructions"); };
    unit = u.get();
    return u;
  });
  std::vector<std::uint32_t> got(128);
  double cycles = 0;
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(kTsum, "tsum.ptx");
    unit->base = dev.malloc(128 * 8);
    const std::uint64_t out = dev.malloc(4 * 128);
    auto& core = tb.sim().clock("core").domain();
    const auto t0 = core.cycle_at(sim::now_ps());
    dev.launch(dev.kernel(mod, "k"), Dim3{1}, Dim3{128}, Args() << out);  // 4 warps
    cycles = static_cast<double>(core.cycle_at(sim::now_ps()) - t0);
    dev.memcpy_to_host(got.data(), out, 4 * 128);
  });
  tb.run();
  ASSERT_TRUE(host.finished());
  for (std::uint32_t t = 0; t < 128; ++t) EXPECT_EQ(got[t], t + 1007) << t;  // semantics, then the wait
  EXPECT_EQ(unit->accepted, 4u);
  EXPECT_EQ(unit->replies, 4u);  // every injected access answered, to its tag
  EXPECT_EQ(unit->begins, 1u);
  EXPECT_EQ(unit->ends, 1u);
  EXPECT_GT(unit->refused, 0u);  // backpressure: the other warps asked while it was busy
  EXPECT_GT(tb.stat("gpu.sm0.stall.unit"), 0);
  // Whole-warp wait: while the first operation is at the unit, its warp issues nothing (not even
  // the independent mov after it) and the others are refused at their tsum.
  EXPECT_EQ(unit->issued_at_accept[0], unit->issued_at_complete[0]);
  // One at a time: each operation starts after the previous one completed, and each took a
  // DRAM round trip (its own line), so the kernel lasts at least four of them.
  for (std::size_t i = 1; i < 4; ++i) EXPECT_GE(unit->accept_ps[i], unit->complete_ps[i - 1]);
  const auto& c = tb.sim().config();
  EXPECT_GT(cycles, 4.0 * static_cast<double>(c.get_uint("l2.latency") + 2 * c.get_uint("interconnect.latency")));
}

TEST(UnitPort, ExtensionWithoutItsUnitIsAClearError) {
  IRRGPU_SKIP_UNDER_ASAN_THROWING_IN_A_THREAD();
  Testbench tb({"gpu.num_sms=1", "log.level=warn"}, "gtx480");
  auto& g = tb.add<gpu::Gpu>("gpu");
  core::ptx::ExtensionRegistry reg;
  reg.add(tsum_extension());
  Device dev(g.memory(), &reg);
  dev.set_backend(&g);
  std::string error;
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(kTsum, "tsum.ptx");
    dev.launch(dev.kernel(mod, "k"), Dim3{1}, Dim3{32}, Args() << dev.malloc(128));
  });
  try {
    tb.run();  // the SM finds no unit when the instruction comes up for issue: the run ends
  } catch (const std::exception& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("tsum needs unit test attached to the SMs (route 'test')"), std::string::npos) << error;
}

TEST(UnitPort, PartitionUnitsSeeTheRequestsOfTheirPartition) {
  Testbench tb({"gpu.num_sms=2", "host.launch_overhead=0ps", "log.level=warn"}, "gtx480");
  auto& g = tb.add<gpu::Gpu>("gpu");
  struct Counter : mem::PartitionUnit {
    std::uint64_t seen = 0;
    bool intercept(tlm::tlm_generic_payload&, mem::MemoryPartition&) override {
      ++seen;
      return false;  // the partition handles it as usual
    }
  };
  std::vector<Counter> units(g.partitions());
  for (std::size_t i = 0; i < units.size(); ++i) g.partition(i).attach(&units[i]);
  core::ptx::ExtensionRegistry reg;
  reg.add(tsum_extension());
  Device dev(g.memory(), &reg);
  dev.set_backend(&g);
  g.attach_sm_units("test", [&](core::Sm&) {
    auto u = std::make_unique<TestUnit>();
    u->issued = [] { return 0.0; };
    return u;
  });
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(kTsum, "tsum.ptx");
    dev.launch(dev.kernel(mod, "k"), Dim3{4}, Dim3{128}, Args() << dev.malloc(4 * 512));
  });
  tb.run();
  ASSERT_TRUE(host.finished());
  std::uint64_t seen = 0;
  for (const auto& u : units) seen += u.seen;
  EXPECT_EQ(static_cast<double>(seen), tb.sum(".l2.accesses"));  // every request, once
  EXPECT_GT(seen, 0u);
}

namespace {

// The partition side of the contract: requests the SMs address to a partition's unit (bypassing
// the L1) and values carried back to the warp. Each warp's `tget.u32 d` goes to partition
// warp % partitions; the unit there reads one line through its L2 and answers with a 64-byte
// reply, and the SM-side unit completes with d = 5000 + 100 * partition + lane.
struct Replier : mem::PartitionUnit {
  tlm_glue::PayloadPool* pool = nullptr;
  std::uint64_t line = 0;
  std::int32_t port = -1;  // the partition whose reply port answers (-1: its own)
  std::vector<tlm::tlm_generic_payload*> waiting;  // requests, by the tag of the unit's read
  std::uint64_t accepted = 0, responses = 0;
  bool accept(tlm::tlm_generic_payload& p, mem::MemoryPartition& part) override {
    EXPECT_TRUE(tlm_glue::gpu(p).to_unit);
    ++accepted;
    tlm::tlm_generic_payload& r = pool->allocate();
    auto& g = tlm_glue::gpu(r);
    g.access = tlm_glue::Access::load;
    g.line = line + 128 * part.index();
    g.bytes = 128;
    g.no_allocate = accepted % 2 == 0;  // every other read bypasses the L2
    g.tag = static_cast<std::uint32_t>(waiting.size());
    r.set_address(g.line);
    waiting.push_back(&p);
    part.issue(r);
    return true;
  }
  void response(tlm::tlm_generic_payload& r, mem::MemoryPartition& part) override {
    ++responses;
    tlm::tlm_generic_payload& p = *waiting.at(tlm_glue::gpu(r).tag);
    r.release();
    tlm_glue::gpu(p).bytes = 64;
    part.reply(p, port);
  }
};

struct Requester : core::SmUnit {
  std::uint32_t partitions = 1;
  std::map<std::uint32_t, std::pair<std::uint64_t, std::uint32_t>> ops;  // tag -> token, partition
  bool can_accept(const core::UnitOp&) override { return true; }
  void accept(const core::UnitOp& op, core::SmPort& port) override {
    mem::MemAccess a;
    a.unit_partition = static_cast<std::int32_t>(op.warp % partitions);
    a.tag = static_cast<std::uint32_t>(ops.size());
    ops[a.tag] = {op.token, op.warp % partitions};
    port.inject(*this, a, false, a.tag);
  }
  void memory_reply(std::uint64_t tag, core::SmPort& port) override {
    const auto [token, partition] = ops.at(static_cast<std::uint32_t>(tag));
    std::vector<core::LaneValue> v;
    for (std::uint32_t l = 0; l < 32; ++l) v.push_back({0, l, 5000 + 100 * partition + l});
    port.complete(token, v);
  }
};

const char* kTget = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 out)
{
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
mov.u32 %r1, %tid.x;
tget.u32 %r2;
ld.param.u64 %rd1, [out];
mul.wide.u32 %rd2, %r1, 4;
add.u64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r2;
ret;
}
)";

}  // namespace

// With from_next_port, each unit answers from the next partition's reply port, as a unit whose
// partitions are joined by a ring does; the response still goes back on its request's hop (the
// Testbench's protocol checkers would fail the run otherwise).
static void partition_unit_round_trip(bool from_next_port) {
  Testbench tb({"gpu.num_sms=1", "host.launch_overhead=0ps", "log.level=warn"}, "gtx480");
  auto& g = tb.add<gpu::Gpu>("gpu");
  core::ptx::ExtensionRegistry reg;
  core::ptx::Extension e;
  e.name = "tget";
  e.unit = "test";
  e.route = "test";
  e.decode = [](core::ptx::Instruction& i, const std::vector<std::string>&) { i.type = core::ptx::Type::u32; };
  e.execute = [](core::ptx::ExtensionCall& c) {  // the values come at completion; 0 at issue
    for (unsigned l = 0; l < 32; ++l)
      if (c.active() >> l & 1) c.write(0, l, 0);
  };
  reg.add(e);
  tlm_glue::PayloadPool pool;
  std::vector<Replier> units(g.partitions());
  for (std::size_t i = 0; i < units.size(); ++i) {
    units[i].pool = &pool;
    if (from_next_port) units[i].port = static_cast<std::int32_t>((i + 1) % units.size());
    g.partition(i).attach(&units[i]);
  }
  g.attach_sm_units("test", [&](core::Sm&) {
    auto u = std::make_unique<Requester>();
    u->partitions = static_cast<std::uint32_t>(g.partitions());
    return u;
  });
  Device dev(g.memory(), &reg);
  dev.set_backend(&g);
  std::vector<std::uint32_t> got(256);
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(kTget, "tget.ptx");
    const std::uint64_t out = dev.malloc(4 * 256);
    for (auto& u : units) u.line = dev.malloc(128 * 16);
    dev.launch(dev.kernel(mod, "k"), Dim3{1}, Dim3{256}, Args() << out);  // 8 warps
    dev.memcpy_to_host(got.data(), out, 4 * 256);
  });
  tb.run();
  ASSERT_TRUE(host.finished());
  const auto p = static_cast<std::uint32_t>(g.partitions());
  for (std::uint32_t t = 0; t < 256; ++t) EXPECT_EQ(got[t], 5000 + 100 * (t / 32 % p) + t % 32) << t;
  std::uint64_t accepted = 0, responses = 0;
  for (std::uint32_t i = 0; i < p; ++i) {
    accepted += units[i].accepted;
    responses += units[i].responses;
    EXPECT_EQ(units[i].accepted, (8 + p - 1 - i) / p) << "partition " << i;  // each warp at its chosen one
  }
  EXPECT_EQ(accepted, 8u);
  EXPECT_EQ(responses, 8u);
  EXPECT_EQ(tb.sum(".l1.accesses"), 8);  // the kernel's stores only: the requests bypassed it
  EXPECT_EQ(tb.sum(".l2.accesses"), 8 + 8);       // the units' reads and the stores
  EXPECT_EQ(tb.sum("interconnect.reply.bytes"), 8 * 64);  // the units set each reply's size
  EXPECT_EQ(pool.in_use(), 0u);
}

TEST(UnitPort, RequestsToAPartitionUnitBypassTheL1AndCarryValuesBack) { partition_unit_round_trip(false); }
TEST(UnitPort, APartitionUnitMayAnswerFromAnotherPartitionsReplyPort) { partition_unit_round_trip(true); }

namespace {

// Records the order CTAs run in: thread 0 of each CTA takes a ticket from a global counter.
const char* kTicket = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry ticket(.param .u64 counter, .param .u64 out)
{
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
.reg .pred %p1;
mov.u32 %r0, %tid.x;
setp.ne.u32 %p1, %r0, 0;
@%p1 bra DONE;
ld.param.u64 %rd0, [counter];
atom.global.add.u32 %r1, [%rd0], 1;
mov.u32 %r2, %ctaid.x;
ld.param.u64 %rd1, [out];
mul.wide.u32 %rd2, %r2, 4;
add.u64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r1;
DONE:
ret;
}
)";

// A replacement CTA scheduler: one CTA at a time, last index first, each started when the one
// before it is reported finished.
struct ReverseOneAtATime : gpu::CtaScheduler {
  std::vector<std::uint64_t> finished_order;
  std::uint64_t left = 0;
  bool started = false, running = false;
  void dispatch(core::KernelLaunch& k, std::vector<std::unique_ptr<core::Sm>>& sms) override {
    if (!started) left = k.ctas();
    started = true;
    if (running || left == 0) return;
    sms[left % sms.size()]->start_cta(k, left - 1);
    --left;
    running = true;
  }
  void finished(core::KernelLaunch& k, std::uint64_t cta, std::vector<std::unique_ptr<core::Sm>>& sms) override {
    finished_order.push_back(cta);
    running = false;
    dispatch(k, sms);
  }
};

}  // namespace

// The CTA-scheduler contract: a replacement starts CTAs in its own order and hears of each CTA's
// completion with its index.
TEST(CtaSchedulerPort, AReplacementChoosesTheOrderAndHearsEachCompletion) {
  Testbench tb({"gpu.num_sms=2", "host.launch_overhead=0ps", "log.level=warn"}, "gtx480");
  auto& g = tb.add<gpu::Gpu>("gpu");
  auto owned = std::make_unique<ReverseOneAtATime>();
  ReverseOneAtATime* sched = owned.get();
  g.set_cta_scheduler(std::move(owned));
  Device dev(g.memory());
  dev.set_backend(&g);
  std::vector<std::uint32_t> ticket(6);
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(kTicket, "ticket.ptx");
    const std::uint64_t counter = dev.malloc(4), out = dev.malloc(4 * 6);
    const std::uint32_t zero = 0;
    dev.memcpy_to_device(counter, &zero, 4);
    dev.launch(dev.kernel(mod, "ticket"), Dim3{6}, Dim3{64}, Args() << counter << out);
    dev.memcpy_to_host(ticket.data(), out, 4 * 6);
  });
  tb.run();
  ASSERT_TRUE(host.finished());
  for (std::uint32_t c = 0; c < 6; ++c) EXPECT_EQ(ticket[c], 5 - c) << "CTA " << c;
  EXPECT_EQ(sched->finished_order, (std::vector<std::uint64_t>{5, 4, 3, 2, 1, 0}));
}

namespace {

// A kernel and its companion stream: the companion marks (tmark, routed to a unit) the threads'
// indices, then, for threads below 40 only, their indices times 4.
const char* kCompanion = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 out)
{
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
mov.u32 %r1, %tid.x;
ld.param.u64 %rd1, [out];
mul.wide.u32 %rd2, %r1, 4;
add.u64 %rd3, %rd1, %rd2;
add.u32 %r2, %r1, 1;
st.global.u32 [%rd3], %r2;
ret;
}
.visible .entry c(.param .u64 out)
{
.reg .b32 %r<4>;
.reg .pred %p1;
mov.u32 %r1, %tid.x;
tmark.u32 %r1;
setp.lt.u32 %p1, %r1, 40;
@!%p1 bra DONE;
shl.b32 %r2, %r1, 2;
tmark.u32 %r2;
DONE:
ret;
}
.visible .entry bad(.param .u64 out)
{
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [out];
st.global.u32 [%rd1], 1;
ret;
}
)";

struct Mark {
  std::uint64_t cta;
  std::uint32_t warp, mask;
  std::uint32_t value[32];
};

core::ptx::Extension tmark_extension(std::vector<Mark>& marks) {
  core::ptx::Extension e;
  e.name = "tmark";
  e.unit = "mark";
  e.route = "mark";
  e.decode = [](core::ptx::Instruction& i, const std::vector<std::string>&) {
    i.type = core::ptx::Type::u32;
    i.ext_defs = 0;
  };
  e.execute = [&marks](core::ptx::ExtensionCall& c) {
    Mark m{c.cta(), c.warp(), c.active(), {}};
    for (unsigned l = 0; l < 32; ++l)
      if (c.active() >> l & 1) m.value[l] = static_cast<std::uint32_t>(c.read(0, l));
    marks.push_back(m);
  };
  return e;
}

struct MarkUnit : core::SmUnit {
  std::vector<core::UnitOp> ops;
  std::vector<std::vector<std::uint32_t>> slots;
  bool can_accept(const core::UnitOp& op) override {
    EXPECT_TRUE(op.companion);
    return true;
  }
  void accept(const core::UnitOp& op, core::SmPort& port) override {
    ops.push_back(op);
    slots.push_back(port.warp_slots(op.cta));
    port.complete(op.token);
  }
};

}  // namespace

// The companion-warp contract: one extra warp a CTA issues each instruction of its stream once for
// every warp at it (lowest PC first), its extension instructions reach the unit as one operation
// naming the warps and lanes it ran for, and the warp slots of the CTA are the unit's to ask.
TEST(UnitPort, ACompanionWarpIssuesOnceForItsWholeCta) {
  std::vector<Mark> marks;
  core::ptx::ExtensionRegistry reg;
  reg.add(tmark_extension(marks));
  Testbench tb({"gpu.num_sms=1", "host.launch_overhead=0ps", "log.level=warn"}, "gtx480");
  auto& g = tb.add<gpu::Gpu>("gpu");
  Device dev(g.memory(), &reg);
  dev.set_backend(&g);
  MarkUnit* unit = nullptr;
  g.attach_sm_units("mark", [&](core::Sm&) {
    auto u = std::make_unique<MarkUnit>();
    unit = u.get();
    return u;
  });
  std::vector<std::uint32_t> out(96);
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(kCompanion, "companion.ptx");
    const std::uint64_t o = dev.malloc(4 * 96);
    dev.launch_with_companion(dev.kernel(mod, "k"), dev.kernel(mod, "c"), Dim3{1}, Dim3{96}, Args() << o);
    dev.memcpy_to_host(out.data(), o, 4 * 96);
  });
  tb.run();
  ASSERT_TRUE(host.finished());
  for (std::uint32_t t = 0; t < 96; ++t) EXPECT_EQ(out[t], t + 1);
  // The kernel: 7 instructions for each of 3 warps. The companion: mov, tmark, setp, bra for the
  // three warps at once; shl, tmark for warps 0 and 1; ret for all: 7 issues.
  EXPECT_EQ(tb.stat("gpu.sm0.warp_instructions"), 3 * 7 + 7);
  ASSERT_EQ(unit->ops.size(), 2u);
  const auto& all = unit->ops[0].parts;
  ASSERT_EQ(all.size(), 3u);
  for (std::uint32_t w = 0; w < 3; ++w) {
    EXPECT_EQ(all[w].warp, w);
    EXPECT_EQ(all[w].lanes, 0xffffffffu);
  }
  const auto& below = unit->ops[1].parts;  // threads 0..39: warp 0 whole, warp 1's first 8
  ASSERT_EQ(below.size(), 2u);
  EXPECT_EQ(below[1].warp, 1u);
  EXPECT_EQ(below[1].lanes, 0xffu);
  ASSERT_EQ(unit->slots[0].size(), 3u);  // the CTA's own warps, not the companion's slot
  for (std::uint32_t s : unit->slots[0]) EXPECT_NE(s, unit->ops[0].warp);
  // Functionally each warp of the companion's CTA ran for its own threads: 5 marks, values right.
  ASSERT_EQ(marks.size(), 5u);
  for (const Mark& m : marks)
    for (unsigned l = 0; l < 32; ++l)
      if (m.mask >> l & 1) {
        EXPECT_TRUE(m.value[l] == 32 * m.warp + l || m.value[l] == 4 * (32 * m.warp + l));
      }
}

TEST(UnitPort, ACompanionRunsFirstFunctionallyAndMayNotTouchMemory) {
  std::vector<Mark> marks;
  core::ptx::ExtensionRegistry reg;
  reg.add(tmark_extension(marks));
  mem::BackingStore store;
  Device dev(store, &reg);
  const auto mod = dev.load_module_text(kCompanion, "companion.ptx");
  const std::uint64_t o = dev.malloc(4 * 96);
  const auto stats = dev.launch_with_companion(dev.kernel(mod, "k"), dev.kernel(mod, "c"), Dim3{2}, Dim3{96}, Args() << o);
  EXPECT_EQ(marks.size(), 10u);  // both CTAs' companions
  EXPECT_EQ(stats.warp_instructions, 2u * (3 * 7 + 3 * 5 + 2 * 2));  // every warp of both streams, functionally
  try {
    dev.launch_with_companion(dev.kernel(mod, "k"), dev.kernel(mod, "k"), Dim3{1}, Dim3{32}, Args());
    ADD_FAILURE() << "no error for missing arguments";
  } catch (const Error&) {
  }
  Testbench tb({"gpu.num_sms=1", "log.level=warn"}, "gtx480");
  auto& g = tb.add<gpu::Gpu>("gpu");
  Device timed(g.memory(), &reg);
  timed.set_backend(&g);
  gpu::Host host("host", [&] {
    const auto m = timed.load_module_text(kCompanion, "companion.ptx");
    const std::uint64_t p = timed.malloc(4 * 32);
    timed.launch_with_companion(timed.kernel(m, "k"), timed.kernel(m, "bad"), Dim3{1}, Dim3{32}, Args() << p);
  });
  std::string error;
  try {
    tb.run();
  } catch (const std::exception& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("a companion stream accesses memory (st)"), std::string::npos) << error;
}

namespace {

// `tpre.u32 d, a` (d = a): the unit prefetches line `base` into the L1, locks it for the issuing
// warp and completes when it arrives. The kernel then loads four other lines of the same set of the
// 4-way L1 (32 sets of 128 B: 4 KiB apart), then, once they have arrived, `base` again.
const char* kLock = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry lk(.param .u64 base)
{
.reg .b32 %r<8>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [base];
mov.u32 %r1, 0;
tpre.u32 %r2, %r1;
ld.global.u32 %r3, [%rd1+4096];
ld.global.u32 %r4, [%rd1+8192];
ld.global.u32 %r5, [%rd1+12288];
ld.global.u32 %r6, [%rd1+16384];
add.u32 %r3, %r3, %r4;
add.u32 %r3, %r3, %r5;
add.u32 %r3, %r3, %r6;
mul.lo.u32 %r3, %r3, 0;
cvt.u64.u32 %rd2, %r3;
add.u64 %rd3, %rd1, %rd2;
ld.global.u32 %r7, [%rd3];
ret;
}
)";

struct LockUnit : core::SmUnit {
  std::uint64_t base = 0, other = 0;
  bool lock = true, fetch = false;  // fetch: the line on the unit's own path (SmPort::fetch_line)
  std::vector<bool> locked_other;
  std::size_t locked_now = 0;
  std::uint64_t token = 0;
  std::uint32_t warp = 0;
  bool can_accept(const core::UnitOp&) override { return true; }
  void accept(const core::UnitOp& op, core::SmPort& port) override {
    token = op.token;
    warp = op.warp;
    if (fetch) {
      port.fetch_line(*this, base, 0);
    } else {
      mem::MemAccess a;
      a.access = tlm_glue::Access::load;
      a.line = a.address = base;
      a.bytes = 128;
      a.sectors = ~0u;
      port.inject(*this, a, false, 0);
    }
    if (lock) {
      EXPECT_TRUE(port.lock_line(base, op.warp));
    }
    // Another set: ways - 1 = 3 lines lock, the fourth is refused.
    for (std::uint64_t k = 0; k < 4; ++k) locked_other.push_back(port.lock_line(other + 4096 * k, op.warp));
    locked_now = port.locked_lines();
  }
  void memory_reply(std::uint64_t, core::SmPort& port) override { port.complete(token); }
  bool fetches_lines() const override { return fetch; }
};

// The L1's hits, and with `accesses` its line accesses from the LD/ST unit and its fetch path's lines.
double run_lock(bool lock, std::vector<bool>* others, std::size_t* locked = nullptr, bool fetch = false,
                std::pair<double, double>* accesses = nullptr) {
  Testbench tb({"gpu.num_sms=1", "host.launch_overhead=0ps", "log.level=warn"}, "gtx480");
  auto& g = tb.add<gpu::Gpu>("gpu");
  core::ptx::ExtensionRegistry reg;
  core::ptx::Extension e = tsum_extension();
  e.name = "tpre";
  e.unit = e.route = "lock";
  e.execute = [](core::ptx::ExtensionCall& c) {
    for (unsigned l = 0; l < 32; ++l)
      if (c.active() >> l & 1) c.write(0, l, c.read(1, l));
  };
  reg.add(e);
  Device dev(g.memory(), &reg);
  dev.set_backend(&g);
  LockUnit* unit = nullptr;
  g.attach_sm_units("lock", [&](core::Sm&) {
    auto u = std::make_unique<LockUnit>();
    u->lock = lock;
    u->fetch = fetch;
    unit = u.get();
    return u;
  });
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(kLock, "lock.ptx");
    const std::uint64_t base = dev.malloc(1 << 16);
    unit->base = base;
    unit->other = base + 128;  // the next set
    dev.launch(dev.kernel(mod, "lk"), Dim3{1}, Dim3{32}, Args() << base);
  });
  tb.run();
  EXPECT_TRUE(host.finished());
  if (others) *others = unit->locked_other;
  if (locked) *locked = unit->locked_now;
  if (accesses) {
    const sim::Stat* f = tb.sim().stats().find("gpu.sm0.l1.fetches");
    *accesses = {tb.stat("gpu.sm0.l1.accesses"), f ? f->value() : -1};
  }
  return tb.stat("gpu.sm0.l1.hits");
}

}  // namespace

// L1 line locks (SmPort::lock_line): a line locked for a warp outlives four other fills of its set
// until that warp loads it; a set never has all its ways locked.
TEST(UnitPort, ALockedLineStaysUntilItsWarpLoadsIt) {
  std::vector<bool> others;
  std::size_t locked = 0;
  EXPECT_EQ(run_lock(true, &others, &locked), 1);  // the last load hits the locked line
  EXPECT_EQ(others, (std::vector<bool>{true, true, true, false}));
  EXPECT_EQ(locked, 4u);  // base and the other set's three
}

TEST(UnitPort, AnUnlockedLineIsEvictedByItsSet) { EXPECT_EQ(run_lock(false, nullptr), 0); }

// The same line on the unit's own fetch path (SmPort::fetch_line): locked alike, and not one of the
// L1's input accesses — one fewer than through inject(), one on the fetch path (which only an L1
// whose SM has a unit that fetches counts at all).
TEST(UnitPort, AFetchedLineIsLockedAlikeAndTakesNoInputSlot) {
  std::pair<double, double> n;
  EXPECT_EQ(run_lock(true, nullptr, nullptr, true, &n), 1);
  EXPECT_EQ(n.second, 1);
  EXPECT_EQ(n.first, 5);  // the kernel's five loads
}

TEST(UnitPort, AnInjectedLineIsOneOfTheInputsAccesses) {
  std::pair<double, double> n;
  EXPECT_EQ(run_lock(true, nullptr, nullptr, false, &n), 1);
  EXPECT_EQ(n.second, -1);
  EXPECT_EQ(n.first, 6);
}

namespace {

// out[t] = in[t] + in[t + 128]: two global loads a thread.
const char* kTwoLoads = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry two(.param .u64 in, .param .u64 out)
{
.reg .b32 %r<5>;
.reg .b64 %rd<6>;
mov.u32 %r1, %tid.x;
ld.param.u64 %rd1, [in];
ld.param.u64 %rd2, [out];
mul.wide.u32 %rd3, %r1, 4;
add.u64 %rd4, %rd1, %rd3;
ld.global.u32 %r2, [%rd4];
ld.global.u32 %r3, [%rd4+512];
add.u32 %r4, %r2, %r3;
add.u64 %rd5, %rd2, %rd3;
st.global.u32 [%rd5], %r4;
ret;
}
)";

// Sees every instruction; answers each warp's first load at once (a register move) and its second
// when a line of its own returns (a prefetch's), as spare-register prefetching does.
struct Observer : core::SmUnit {
  std::uint64_t seen = 0, now = 0, later = 0, replies = 0, line = 0;
  std::map<std::uint64_t, std::uint64_t> waiting;  // reply tag -> the load's token
  bool can_accept(const core::UnitOp&) override { return false; }
  void accept(const core::UnitOp&, core::SmPort&) override { ADD_FAILURE() << "an observer has no instructions"; }
  Take issued(const core::UnitOp& op, const core::Step& step, const core::Warp&, core::SmPort& port) override {
    ++seen;
    if (op.instruction->op != core::ptx::Op::ld || op.instruction->space != core::ptx::Space::global) return Take::no;
    EXPECT_EQ(step.addresses.size(), 32u);
    if (op.instruction->ops[1].offset == 0) {
      ++now;
      return Take::now;
    }
    mem::MemAccess a;
    a.access = tlm_glue::Access::load;
    a.line = a.address = line + 128 * later;
    a.bytes = 128;
    a.sectors = ~0u;
    waiting[later] = op.token;
    port.inject(*this, a, false, later++);
    return Take::later;
  }
  void memory_reply(std::uint64_t tag, core::SmPort& port) override {
    ++replies;
    port.complete(waiting.at(tag));
  }
};

}  // namespace

// An observing unit (Sm::observe) sees every instruction issued, and the loads it answers make no
// memory access of their own; the warp waits for an answer given later.
TEST(UnitPort, AnObservingUnitSeesEveryInstructionAndMayAnswerLoads) {
  Testbench tb({"gpu.num_sms=1", "host.launch_overhead=0ps", "log.level=warn"}, "gtx480");
  auto& g = tb.add<gpu::Gpu>("gpu");
  Device dev(g.memory());
  dev.set_backend(&g);
  Observer* unit = nullptr;
  g.attach_sm_units(
      "observer", [&](core::Sm&) {
        auto u = std::make_unique<Observer>();
        unit = u.get();
        return u;
      },
      true);
  std::vector<std::uint32_t> in(256), got(128);
  for (std::uint32_t i = 0; i < 256; ++i) in[i] = i * 3;
  double cycles = 0;
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(kTwoLoads, "two.ptx");
    const std::uint64_t din = dev.malloc(4 * 256), out = dev.malloc(4 * 128);
    unit->line = dev.malloc(128 * 8);
    dev.memcpy_to_device(din, in.data(), 4 * 256);
    auto& core = tb.sim().clock("core").domain();
    const auto t0 = core.cycle_at(sim::now_ps());
    dev.launch(dev.kernel(mod, "two"), Dim3{1}, Dim3{128}, Args() << din << out);  // 4 warps
    cycles = static_cast<double>(core.cycle_at(sim::now_ps()) - t0);
    dev.memcpy_to_host(got.data(), out, 4 * 128);
  });
  tb.run();
  ASSERT_TRUE(host.finished());
  for (std::uint32_t t = 0; t < 128; ++t) EXPECT_EQ(got[t], in[t] + in[t + 128]) << t;  // values: the semantics'
  EXPECT_EQ(unit->seen, tb.stat("gpu.sm0.warp_instructions"));
  EXPECT_EQ(unit->now, 4u);
  EXPECT_EQ(unit->later, 4u);
  EXPECT_EQ(unit->replies, 4u);
  EXPECT_EQ(tb.stat("gpu.sm0.global_loads"), 0);       // answered by the unit, not counted as the SM's loads
  EXPECT_EQ(tb.sum(".l1.accesses"), 4 + 4);             // the unit's four lines and the four stores
  const auto& c = tb.sim().config();  // the warps waited for the unit's lines to return
  EXPECT_GT(cycles, static_cast<double>(c.get_uint("l2.latency") + 2 * c.get_uint("interconnect.latency")));
}

namespace {

// out[c * 512 + t] = 12 t + 26 through eight adds.
const char* kAdds = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry adds(.param .u64 out)
{
.reg .b32 %r<12>;
.reg .b64 %rd<4>;
mov.u32 %r1, %tid.x;
add.u32 %r2, %r1, 1;
add.u32 %r3, %r1, 2;
add.u32 %r4, %r2, %r3;
add.u32 %r5, %r2, %r4;
add.u32 %r6, %r3, %r4;
add.u32 %r7, %r5, %r6;
add.u32 %r8, %r7, 4;
add.u32 %r9, %r8, %r8;
mov.u32 %r10, %ctaid.x;
mad.lo.u32 %r11, %r10, 512, %r1;
ld.param.u64 %rd1, [out];
mul.wide.u32 %rd2, %r11, 4;
add.u64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r9;
ret;
}
)";

// Executes every 32-bit add beside the lanes (as CAE's affine units do), or none.
struct Executor : core::SmUnit {
  bool take = true;
  std::uint64_t executed = 0;
  bool can_accept(const core::UnitOp&) override { return false; }
  void accept(const core::UnitOp&, core::SmPort&) override { ADD_FAILURE() << "an observer has no instructions"; }
  Take issued(const core::UnitOp& op, const core::Step&, const core::Warp&, core::SmPort&) override {
    if (!take || op.instruction->op != core::ptx::Op::add || op.instruction->type != core::ptx::Type::u32) return Take::no;
    ++executed;
    return Take::execute;
  }
};

}  // namespace

// An observing unit may execute an arithmetic instruction beside the SIMT lanes (Take::execute):
// same values, but the lanes are free for the next warp the cycle after. Two SMs, one CTA each:
// SM 1's unit executes every 32-bit add, SM 0's none.
TEST(UnitPort, AUnitMayExecuteArithmeticBesideTheLanes) {
  // Eight lanes: a warp takes four passes on them, so the lanes, not the schedulers, limit issue.
  Testbench tb({"gpu.num_sms=2", "host.launch_overhead=0ps", "log.level=warn", "core.simd_width=8"}, "gtx480");
  auto& g = tb.add<gpu::Gpu>("gpu");
  Device dev(g.memory());
  dev.set_backend(&g);
  std::vector<Executor*> units;
  g.attach_sm_units(
      "executor", [&](core::Sm&) {
        auto u = std::make_unique<Executor>();
        u->take = !units.empty();
        units.push_back(u.get());
        return u;
      },
      true);
  std::vector<std::uint32_t> got(1024);
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(kAdds, "adds.ptx");
    const std::uint64_t out = dev.malloc(4 * 1024);
    dev.launch(dev.kernel(mod, "adds"), Dim3{2}, Dim3{512}, Args() << out);  // 16 warps a CTA
    dev.memcpy_to_host(got.data(), out, 4 * 1024);
  });
  tb.run();
  ASSERT_TRUE(host.finished());
  ASSERT_EQ(units.size(), 2u);
  for (std::uint32_t t = 0; t < 1024; ++t) EXPECT_EQ(got[t], (t % 512) * 12 + 26) << t;  // values: the semantics'
  EXPECT_EQ(units[0]->executed, 0u);
  EXPECT_EQ(units[1]->executed, 16u * 8);  // every 32-bit add of its 16 warps
  EXPECT_EQ(tb.stat("gpu.sm0.warp_instructions"), tb.stat("gpu.sm1.warp_instructions"));
  EXPECT_LT(tb.stat("gpu.sm1.active_cycles"), 0.8 * tb.stat("gpu.sm0.active_cycles"));
}
