// SPDX-License-Identifier: Apache-2.0
// The contract a unit attaches to an SM through (DESIGN.md, "Units attach to the core through one
// contract"). An extension instruction whose registry entry names a route goes, at issue, to the
// unit attached under that route:
//   - issue-time backpressure: the SM asks can_accept(); no means the warp stalls ("unit");
//   - whole-warp wait: the issuing warp issues nothing more until the unit completes the operation;
//   - write-back: SmPort::complete() releases the instruction's registers through the same
//     completion path as loads;
//   - memory: SmPort::inject() puts unit-generated line accesses into the LD/ST path (behind or
//     ahead of the warps' accesses), and replies come back tagged through memory_reply(); an
//     access with MemAccess::unit_partition set bypasses the L1 and goes to the unit beside that
//     partition's L2 (mem::PartitionUnit::accept), which answers it; SmPort::fetch_line() brings a
//     line into the L1 on the unit's own path, beside the LD/ST unit (a DMA engine's), for a unit
//     that says it will (SmUnit::fetches_lines);
//   - values: SmPort::complete() may carry per-lane values for the instruction's destination
//     operands, decided by the unit when it completes (a reply from memory, not the issue-time
//     semantics);
//   - kernel begin/end events, and warp exits (a warp slot freed when its CTA retires);
//   - a companion warp per CTA (LaunchContext::companion) whose extension instructions reach the
//     unit as one operation naming the CTA's warps it ran for (UnitOp::parts), and whose every
//     instruction the unit sees (SmUnit::companion_issued);
//   - L1 line locks held for a warp until its next load of the line (SmPort::lock_line);
//   - barrier releases, of a CTA's warps and of its companion warp (SmUnit::barrier);
//   - observing (Sm::observe): every instruction the warps issue, with its values and addresses,
//     and the right to answer a global load from the unit instead of memory, or to execute an
//     arithmetic instruction beside the SIMT lanes (SmUnit::issued).
// The functional effect of the instruction is its registry semantics, applied at issue like every
// instruction's; the unit decides only when it completes and what traffic it causes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/core/exec/warp.h"
#include "models/core/ptx/module.h"
#include "models/mem/l1_cache.h"

namespace irr::core {

struct KernelLaunch;
class Sm;
class SmUnit;

// One extension instruction a warp issued to a unit.
struct UnitOp {
  std::uint64_t token = 0;           // names the operation in SmPort::complete() (0 in can_accept)
  std::uint32_t sm = 0, warp = 0;    // SM index and warp slot within it
  std::uint64_t cta = 0;             // linear CTA index within the launch
  std::uint32_t active = 0;          // lanes executing it (can_accept: before the guard predicate)
  const ptx::Instruction* instruction = nullptr;
  // From a CTA's companion warp (LaunchContext::companion): the CTA's warps it executed for, each
  // as (warp index within the CTA, its lanes after the guard); empty in can_accept and for an
  // ordinary warp. A companion's results are written at issue: complete() without values.
  struct Part {
    std::uint32_t warp = 0, lanes = 0;
    std::uint32_t before = 0;  // its lanes at the instruction, before the guard (a branch: lanes - taken)
  };
  bool companion = false;
  std::vector<Part> parts;
};

// A value a unit delivers at completion: lane `lane` of destination operand `operand`.
struct LaneValue {
  std::uint32_t operand = 0, lane = 0;
  std::uint64_t value = 0;
};

// What an SM offers the units attached to it.
class SmPort {
 public:
  virtual ~SmPort() = default;
  // The operation is done: its register writes become visible and its warp may issue again.
  virtual void complete(std::uint64_t token) = 0;
  // The same, with values for the instruction's destination registers: each replaces what the
  // issue-time semantics wrote for that lane (they must have written every lane it names).
  virtual void complete(std::uint64_t token, const std::vector<LaneValue>& values) = 0;
  // A line access on behalf of unit `from` (access.id and warp are ignored); `low_priority` ones
  // wait until no warp access is queued. Its reply comes back through from.memory_reply(tag).
  virtual void inject(SmUnit& from, const mem::MemAccess& access, bool low_priority, std::uint64_t tag) = 0;
  // Brings `line` into the L1 on a path of the unit's own, as a DMA engine beside the LD/ST unit
  // would (DAC's, seed 001 Fig. 3.1 ③): no slot of the L1's input, l1.fetch_lookups tag lookups a
  // cycle, a miss taking an MSHR and the miss path (mem::L1Cache::fetch). The reply comes through
  // from.memory_reply(tag) once the line is in the L1. Only for a unit whose fetches_lines() is true.
  virtual void fetch_line(SmUnit& from, std::uint64_t line, std::uint64_t tag) = 0;
  virtual std::uint32_t sm_index() const = 0;
  // The warp slots of a resident CTA's warps, in warp order (its companion warp not included);
  // empty when the CTA is not resident here.
  virtual std::vector<std::uint32_t> warp_slots(std::uint64_t cta) const = 0;
  // Locks `line` in the L1 for warp slot `warp` until that warp's next load of it (or its CTA's
  // retirement) releases it (mem::L1Cache::lock); false when its set has no way left to lock.
  virtual bool lock_line(std::uint64_t line, std::uint32_t warp) = 0;
  virtual std::size_t locked_lines() const = 0;  // lines the L1 holds locked now
  // How many CTAs of the launch the SM holds at once (its occupancy), and its register file.
  virtual std::uint32_t max_resident(const KernelLaunch& k) const = 0;
  virtual std::uint32_t register_file() const = 0;  // 32-bit registers
};

// A unit as one SM sees it; models/gpu attaches one per SM (or one shared by several SMs).
class SmUnit {
 public:
  virtual ~SmUnit() = default;
  virtual bool can_accept(const UnitOp& op) = 0;
  virtual void accept(const UnitOp& op, SmPort& port) = 0;
  virtual void memory_reply(std::uint64_t /*tag*/, SmPort& /*port*/) {}
  // True for a unit that will call SmPort::fetch_line: asked once, when it is attached, so the L1
  // declares its fetch path's statistics (only L1s that may fetch have them).
  virtual bool fetches_lines() const { return false; }
  virtual void kernel_begin(const KernelLaunch& /*k*/, SmPort& /*port*/) {}
  virtual void kernel_end(const KernelLaunch& /*k*/, SmPort& /*port*/) {}
  // The warp in slot `warp` has exited (its CTA retired; the slot may be reused).
  virtual void warp_exit(std::uint32_t /*warp*/, SmPort& /*port*/) {}
  // Every instruction a CTA's companion warp issued (op.parts: the warps it ran for, each with its
  // lanes before and after the guard; op.token 0): what the unit's control of it needs to see —
  // where its warps' branches diverge (DAC's affine SIMT stack). Extension instructions also go
  // to accept(), after this.
  virtual void companion_issued(const UnitOp& /*op*/, SmPort& /*port*/) {}
  // A CTA's warps were released from a barrier (`companion`: its companion warp's were).
  virtual void barrier(std::uint64_t /*cta*/, bool /*companion*/, SmPort& /*port*/) {}
  // An observing unit (Sm::observe) sees every instruction an ordinary warp issues, after its
  // functional effect: `step` holds its pc, lanes, the values it writes and the addresses it
  // touches; `warp` its registers as the instruction read them (its writes are not applied yet).
  // A global load (ld, ldu) the unit may take over: `now`, it becomes a register move (integer
  // latency); `later`, the unit calls SmPort::complete(op.token) when its value is ready. A load
  // taken makes no memory access, and its warp waits on it as on a load. Other instructions: no,
  // or, for an arithmetic one (no memory, no unit, no control), `execute`: the unit runs it on a
  // datapath of its own beside the SIMT lanes (CAE's affine units): the result is the same, written
  // after the usual latency, but the lanes are not held — the scheduler may issue again next cycle
  // however many passes a warp takes on them (core.simd_width).
  enum class Take { no, now, later, execute };
  virtual Take issued(const UnitOp& /*op*/, const Step& /*step*/, const Warp& /*warp*/, SmPort& /*port*/) {
    return Take::no;
  }
};

// Where a unit attaches on a GPU (models/gpu's Gpu): one SmUnit per SM on a route. A unit's folder
// attaches itself through this, without knowing the GPU's assembly (the unit registry calls it).
class UnitSites {
 public:
  virtual ~UnitSites() = default;
  // Attaches a unit to every SM on `route` (the route its extension instructions name), one made
  // by `make` per SM and owned by the GPU; `observe`: each also sees every instruction its SM's
  // warps issue (SmUnit::issued).
  virtual void attach_sm_units(const std::string& route, const std::function<std::unique_ptr<SmUnit>(Sm&)>& make,
                               bool observe = false) = 0;
  virtual std::size_t sms() const = 0;
};

}  // namespace irr::core
