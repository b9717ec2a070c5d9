// SPDX-License-Identifier: Apache-2.0
// The functional SIMT executor. A Warp steps one instruction at a time for its active threads;
// a step has an issue half (decode, readiness, functional effect: loads read, stores write,
// atomics read-modify-write, in issue order) and a complete half (register write-back), so the
// timing core can delay write-back while functional mode completes at once. Divergence follows
// a SIMT stack reconverging at immediate post-dominators (pre-Volta): an intra-warp spin lock that
// needs independent thread scheduling does not progress (the watchdog names such a warp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/core/ptx/module.h"
#include "models/core/ptx/parser.h"
#include "models/mem/backing_store.h"

namespace irr::core {

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint64_t count() const { return static_cast<std::uint64_t>(x) * y * z; }
};

// Generic-address windows of the shared and local state spaces (everything else is global).
constexpr std::uint64_t kSharedWindow = 0x7f0000000000ull;
constexpr std::uint64_t kLocalWindow = 0x7e0000000000ull;
constexpr std::uint64_t kWindowSize = 0x10000000000ull;

// What a launch works out once for each function it runs: the reconvergence points of its
// branches, and where each register is kept — a register of 32 bits or fewer in a row of 32-bit
// lanes, a 64-bit one in a row of 64-bit lanes (half the bytes a resident warp holds and touches).
struct FunctionLayout {
  std::vector<std::uint32_t> reconvergence;  // per pc: where a branch there reconverges
  std::vector<std::uint32_t> row;            // per register: its row's index << 1, | 1 for a 64-bit row
  std::uint32_t narrow_rows = 0, wide_rows = 0;
};

class Warp;
struct LaunchProfile;

// What a launch shares: the module, its variables' device addresses, device memory, printf.
struct LaunchContext {
  const ptx::Module* module = nullptr;
  std::vector<std::uint64_t> variable_address;  // per module variable (global, const): device address
  mem::BackingStore* memory = nullptr;
  std::function<void(const std::string&)> printf_out;  // device printf text
  std::uint32_t sms = 1, warps_per_sm = 48;              // for %nsmid, %nwarpid
  const ptx::ExtensionRegistry* extensions = nullptr;     // semantics of extension instructions
  // A launch that executes more warp instructions than this fails, naming every warp and PC: an
  // endless loop, or a spin-wait that needs independent thread scheduling (pre-Volta SIMT).
  std::uint64_t max_instructions = 20'000'000'000ull;
  // The spin watch (Warp::watch_spin): once every live warp of the launch has looped this many
  // times in a row re-reading the same addresses and values, nothing can change what they read,
  // and the launch stops naming the loop — and, where lanes of a looping warp wait on its SIMT
  // stack, that it needs independent thread scheduling. 0: off.
  std::uint64_t spin_iterations = 10'000;
  // The watch's counts over this launch's warps: made, less those that finished (a warp destroyed
  // unfinished, when a run stops on an error, is not taken off: the launch is over).
  std::uint32_t live_warps = 0, spinning_warps = 0;
  const Warp* spin_suspect = nullptr;  // a spinning warp with lanes waiting on its stack
  // %clock/%clock64 in timing mode: the core cycle at issue (as clock() on hardware counts the
  // SM's clock). Unset (functional mode): the warp's instruction count, which is deterministic.
  std::function<std::uint64_t()> cycle;
  // %globaltimer in timing mode: simulated nanoseconds. Unset: the instruction count, as %clock.
  std::function<std::uint64_t()> nanoseconds;
  // Launched by a kernel on the device (CUDA dynamic parallelism), not by the host: a timed GPU
  // charges the device-side launch latency instead of the host's.
  bool from_device = false;
  // A companion stream (a unit's contract, docs/timing.md "Attaching a unit"): each CTA also runs
  // this function over the same threads, parameters and indices. A timed SM runs it as one extra
  // warp a CTA that issues each instruction once for all the CTA's threads at it (DAC's affine
  // warp); functionally its grid runs to the end before the kernel's, so it may read only
  // parameters and thread indices — nothing the kernel writes.
  const ptx::Function* companion = nullptr;
  // Recorded into at each executed instruction when set (a functional run only).
  LaunchProfile* profile = nullptr;

  // A function's layout, computed once for all the launch's CTAs.
  const FunctionLayout& layout(const ptx::Function& f);
  std::map<const ptx::Function*, FunctionLayout> layouts;
};

class Cta;

// One executed instruction, between its issue and its completion.
struct Step {
  const ptx::Instruction* inst = nullptr;
  std::uint32_t pc = 0;
  std::uint32_t active = 0;  // threads that executed it (guard applied)
  // Register write-back: (register, lane mask, values) — applied by complete().
  struct Write {
    Write() {}  // leaves value[] uninitialised: only the lanes in mask are read
    std::uint32_t reg = 0;
    std::uint32_t mask = 0;
    std::uint64_t value[32];
  };
  std::vector<Write> writes;
  std::vector<std::uint64_t> addresses;  // memory instructions: one per active thread, in lane order
  std::uint64_t sleep_ns = 0;            // nanosleep: the longest duration its threads asked for
  std::uint32_t bulk_bytes = 0;          // cp.async(.bulk): the bytes each address starts (its global side)
  void clear() {  // nothing executed; the buffers keep their capacity
    inst = nullptr;
    pc = active = 0;
    writes.clear();
    addresses.clear();
    sleep_ns = 0;
    bulk_bytes = 0;
  }
};

inline bool is_memory(ptx::Op op) {
  using ptx::Op;
  return op == Op::ld || op == Op::ldu || op == Op::st || op == Op::atom || op == Op::red || op == Op::cp_async ||
         op == Op::cp_async_bulk;
}
// An asynchronous copy: its addresses are its global side's, the bytes each starts in Step::bulk_bytes.
inline bool async_copy(ptx::Op op) { return op == ptx::Op::cp_async || op == ptx::Op::cp_async_bulk; }
// The lanes of a memory instruction's step that go to global memory (a generic address outside
// the shared and local windows included), their addresses in `addr`. Inline: the timed SM asks at
// every memory instruction it issues.
inline std::uint32_t global_lanes(const ptx::Instruction& in, const Step& step, std::uint64_t (&addr)[32]) {
  std::fill(std::begin(addr), std::end(addr), 0);
  std::uint32_t mask = 0;
  std::size_t i = 0;
  for (unsigned l = 0; l < 32 && i < step.addresses.size(); ++l)
    if (step.active >> l & 1) {
      const std::uint64_t a = step.addresses[i++];
      const bool windowed = (a >= kSharedWindow && a < kSharedWindow + kWindowSize) ||
                            (a >= kLocalWindow && a < kLocalWindow + kWindowSize);
      if (async_copy(in.op) || in.space == ptx::Space::global || (in.space == ptx::Space::none && !windowed)) {
        addr[l] = a;
        mask |= 1u << l;
      }
    }
  return mask;
}

// What a functional run of a launch records for sampled simulation (models/gpu/sampling.h): warp
// instructions at each PC of the kernel (its basic-block vector, weighted by block length; the
// last slot counts the instructions of the functions it calls; a companion stream's are not the
// kernel's and are left out, as a timed SM counts them apart), thread instructions, and each
// global line it touched, when last (a count of line touches) and whether written — in the order
// of their last touch, an LRU cache's content after the launch.
// With `ctas` (the grid's count), also each CTA's warp instructions and line touches.
struct LaunchProfile {
  explicit LaunchProfile(const ptx::Function& kernel, std::uint32_t line_bytes, std::uint64_t ctas = 0)
      : kernel(&kernel), line_bytes(line_bytes), per_pc(kernel.code.size() + 1, 0), cta_instructions(ctas, 0),
        cta_touches(ctas, 0) {}
  void record(const Step& step, std::uint64_t cta);
  struct Touch {
    std::uint64_t last = 0;
    bool written = false;
  };
  const ptx::Function* kernel;
  std::uint32_t line_bytes;
  std::vector<std::uint64_t> per_pc;
  std::uint64_t threads = 0;
  std::unordered_map<std::uint64_t, Touch> lines;  // looked up, and sorted by `last` before use
  std::uint64_t touches = 0;
  std::vector<std::uint64_t> cta_instructions, cta_touches;  // empty unless asked for
};

class Warp {
 public:
  enum class State { ready, at_barrier, done };
  Warp(Cta& cta, std::uint32_t index, std::uint32_t first_thread, std::uint32_t threads);

  State state() const { return state_; }
  // Executes the next instruction's functional effect into `step` (reused: its buffers keep
  // their capacity) — what to write back, and the addresses touched.
  void issue(Step& step);
  // The instruction issue() would execute next, without executing it (nullptr: the warp is done);
  // settles reconvergence and device-function returns first, which have no timing of their own.
  const ptx::Instruction* next();
  // The lanes that will execute next() (before its guard predicate), after next() settled them.
  std::uint32_t active_mask() const {
    return frames_.empty() || frames_.back().stack.empty() ? 0 : frames_.back().stack.back().mask;
  }
  // The frame depth: the timing core holds calls and returns until write-backs have landed.
  std::size_t depth() const { return frames_.size(); }
  void complete(const Step& s);
  void release_barrier() { state_ = State::ready; }
  std::uint32_t index() const { return index_; }
  // Its hardware warp slot on the SM (set by the timing core; the index within its CTA otherwise).
  std::uint32_t slot() const { return slot_; }
  void set_slot(std::uint32_t s) { slot_ = s; }
  const Cta& cta() const { return cta_; }
  std::uint32_t pc() const;
  std::uint64_t instructions() const { return instructions_; }
  // Register `reg` of lane `lane` in the innermost frame, as written so far.
  std::uint64_t register_value(std::uint32_t reg, unsigned lane) const { return frames_.back().reg(reg, lane); }
  std::string where() const;  // "kernel k, pc 12 (file.cu:34)" for errors and the watchdog

 private:
  struct Entry {
    std::uint32_t pc, rpc, mask;
  };
  struct Frame {
    const ptx::Function* f;
    const FunctionLayout* layout;
    std::vector<std::uint32_t> narrow;     // register rows of 32 bits or fewer: lane l of row i at [i * 32 + l]
    std::vector<std::uint64_t> wide;       // 64-bit register rows
    std::vector<std::uint8_t> args;        // parameters / returns, per lane (param_bytes each)
    std::vector<std::uint8_t> call_params; // call-site .param variables, per lane
    std::uint64_t local_base;              // this frame's local segment in each thread's stack
    std::vector<Entry> stack;
    const ptx::Instruction* call = nullptr;  // the caller's call instruction

    // Register r of lane `lane` (a narrow one zero-extended).
    std::uint64_t reg(std::uint32_t r, unsigned lane) const {
      const std::uint32_t x = layout->row[r];
      return x & 1 ? wide[(x >> 1) * 32 + lane] : narrow[(x >> 1) * 32 + lane];
    }
    // f(lanes) with register r's row of lanes: a std::uint32_t* or a std::uint64_t*.
    template <class F>
    decltype(auto) with_row(std::uint32_t r, F&& f) {
      const std::uint32_t x = layout->row[r];
      return x & 1 ? f(&wide[(x >> 1) * 32]) : f(&narrow[(x >> 1) * 32]);
    }
  };

  Frame* settle();  // the frame the next instruction is in (nullptr: the warp is done), settled once per issue
  Frame* settle_now();
  std::uint64_t read(const Frame& fr, const ptx::Operand& o, unsigned lane, ptx::Type t) const;
  std::uint64_t address_of(const Frame& fr, const ptx::Operand& o, unsigned lane, ptx::Space& space) const;
  // An mbarrier operation on the 8-byte object the operand addresses (the layout is irrgpu's: the
  // PTX ISA leaves it opaque); returns the object as it was before.
  std::uint64_t mbarrier_update(Frame& fr, const ptx::Operand& at, ptx::Space space, unsigned lane, ptx::Mode op,
                                std::uint64_t arg, bool expect_tx = false);
  static std::uint64_t mbarrier_pending(std::uint64_t state) { return state & 0xfffff; }
  void load(Frame& fr, ptx::Space space, std::uint64_t addr, unsigned lane, void* out, unsigned n);
  void store(Frame& fr, ptx::Space space, std::uint64_t addr, unsigned lane, const void* in, unsigned n);
  std::uint8_t* bytes(Frame& fr, ptx::Space& space, std::uint64_t& addr, unsigned lane, unsigned n);
  std::uint8_t* param(Frame& fr, const ptx::Operand& o, unsigned lane, unsigned n, std::uint64_t extra = 0);  // `extra` bytes on
  struct ParamPlace {
    std::uint8_t* lane0;
    std::uint64_t stride;  // bytes from one lane's to the next's
  };
  ParamPlace param_place(Frame& fr, const ptx::Operand& o, unsigned n, std::uint64_t extra = 0);
  void execute(Frame& fr, const ptx::Instruction& in, std::uint32_t active, Step& step);
  bool warp_wide(Frame& fr, const ptx::Instruction& in, std::uint32_t active, Step& step);
  void call(Frame& fr, const ptx::Instruction& in, std::uint32_t active);
  std::uint32_t indirect_target(const Frame& fr, const ptx::Instruction& in, std::uint32_t active) const;
  void vprintf(Frame& fr, const ptx::Instruction& in, std::uint32_t active);
  void do_return(std::uint32_t active);
  void branch(Frame& fr, std::uint32_t pc, const ptx::Instruction& in, std::uint32_t taken, std::uint32_t active);
  std::uint64_t special(ptx::Special s, unsigned lane) const;
  std::string location(const Frame& fr, std::uint32_t pc) const;
  Frame make_frame(const ptx::Function& f);
  void fold_reads(const Step& step);
  void watch_spin(std::uint32_t pc, std::uint32_t target);
  std::uint32_t waiting_lanes() const;
  std::string spin_report() const;  // the error's account of a suspect's loop
  void stop_spinning();
  void finished();  // the warp is done: it leaves the spin watch's counts

  Cta& cta_;
  const std::uint32_t index_, first_thread_, threads_;
  std::uint32_t slot_ = index_;
  std::uint32_t exited_ = 0;  // threads that executed exit / returned from the kernel
  State state_ = State::ready;
  std::vector<Frame> frames_;
  // settle()'s answer until the next issue (the only change to the frames and their stacks): the
  // scheduler asks for the next instruction again each time it looks at a warp.
  bool settled_ = false;
  Frame* settled_frame_ = nullptr;
  std::vector<Frame> spare_;  // returned callees' frames, for the next call
  std::vector<std::vector<std::uint8_t>> local_;  // per lane: the local stack, allocated on first use
  std::uint64_t local_extent_ = 0;                 // its size: the deepest frames' locals so far
  std::uint64_t instructions_ = 0;
  // The spin watch's state: the loop (its backward branch and target), a hash of what the current
  // iteration read (addresses and values), the previous iteration's, and how many iterations in a
  // row read the same.
  struct Spin {
    std::uint32_t branch = 0, top = 0;
    std::uint64_t hash = 0, last = 0, repeats = 0;
    bool reads = false, counted = false;
  } spin_;
};

class Cta {
 public:
  Cta(LaunchContext& ctx, const ptx::Function& kernel, Dim3 grid, Dim3 block, Dim3 ctaid,
      const std::vector<std::uint8_t>& params, std::uint32_t dynamic_shared);
  std::vector<std::unique_ptr<Warp>>& warps() { return warps_; }
  bool done() const;
  // Releases the barrier once every warp that has not finished waits at it.
  void check_barrier();
  std::uint64_t linear_index() const {  // x fastest, as %ctaid numbers CTAs
    return ctaid.x + static_cast<std::uint64_t>(grid.x) * (ctaid.y + static_cast<std::uint64_t>(grid.y) * ctaid.z);
  }

  LaunchContext& ctx;
  const ptx::Function& kernel;
  const Dim3 grid, block, ctaid;
  std::uint32_t sm = 0;  // the SM running it (timing mode; 0 in functional mode)
  const std::vector<std::uint8_t>& params;
  std::vector<std::uint8_t> shared;

 private:
  std::vector<std::unique_ptr<Warp>> warps_;
};

// Runs a whole grid functionally: up to `resident` CTAs at a time, their warps interleaved
// round-robin one instruction each, so spin-waits on other warps terminate; CTAs start in index
// order, or in `order` (linear CTA indices, each at most once: only those) when given. Throws irr::Error on a fault
// (bad address, unsupported instruction at run time) naming kernel, CTA, warp and PC.
struct GridStats {
  std::uint64_t warp_instructions = 0, thread_instructions = 0;
};
GridStats run_grid(LaunchContext& ctx, const ptx::Function& kernel, Dim3 grid, Dim3 block,
                   const std::vector<std::uint8_t>& params, std::uint32_t dynamic_shared, std::uint32_t resident,
                   const std::vector<std::uint64_t>* order = nullptr);

}  // namespace irr::core
