// SPDX-License-Identifier: Apache-2.0
// One HWWL bank (Kim & Batten, ../shared/specs/hwwl_iru_dats.md 1.4): a per-lane single-port
// (1rw) SRAM FIFO of 24-bit work IDs, used whole (single-buffer mode) or as two half-capacity
// partitions with their own pointers (double-buffer mode: pulls drain the pull partition, pushes
// fill the push partition, and the two swap at a kernel end once the pull partition is empty).
// Entries reserved for an in-flight refill count as occupied but cannot be pulled until written.
// One access per cycle: pull, push, a redistribution move or a refill write; callers with lower
// priority (redistribution, refill) check port_free() and yield.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/hwwl/blocks.h"
#include "sim/clock.h"

namespace irr::hwwl {

enum class Mode { single, double_buffer };

constexpr std::uint32_t kMaxWorkId = (1u << 24) - 1;  // 24-bit entries [K L233]
// Tokens a pull returns instead of a work ID (the paper leaves the encoding open, 1.10).
constexpr std::uint32_t kWait = 0xFFFFFFFEu;
constexpr std::uint32_t kDone = 0xFFFFFFFFu;
// Throws irr::Error when a pushed work ID does not fit the 24-bit entries.
void check_work_id(std::uint32_t id);

class Bank {
 public:
  Bank(std::uint32_t entries, Mode mode);

  Mode mode() const { return mode_; }
  int pull_partition() const { return pull_; }  // 0 or 1 (double-buffer mode swaps it)
  // Entries one partition holds: all of them in single-buffer mode, half in double-buffer mode.
  std::uint32_t capacity() const { return capacity_; }

  // Pull side (the pull partition; in single-buffer mode the one worklist).
  std::uint32_t pullable() const { return static_cast<std::uint32_t>(part(pull_).ids.size()); }
  std::uint32_t reserved() const { return part(pull_).reserved; }
  std::uint32_t occupied() const { return pullable() + reserved(); }  // for greedy / needy and refills
  bool empty() const { return occupied() == 0; }                      // the core's empty bit ANDs these
  // Push side (the push partition; in single-buffer mode the same worklist).
  std::uint32_t push_occupied() const { return static_cast<std::uint32_t>(part(push_).ids.size()) + part(push_).reserved; }
  bool push_full() const { return push_occupied() >= capacity_; }
  std::uint32_t free_pull_entries() const { return capacity_ - occupied(); }

  // The port's use is kept for two cycles, so a warp's second pass may book cycle c + 1 while
  // other accesses still go in cycle c.
  bool port_free(sim::Cycle c) const { return port_at_[0] != c + 1 && port_at_[1] != c + 1; }
  // Accesses: each takes the port for cycle `c` (a second access in the same cycle is a
  // programming error: check port_free()).
  std::uint32_t pull(sim::Cycle c);                 // needs pullable() > 0; oldest first
  void push(sim::Cycle c, std::uint32_t id);        // needs !push_full()
  std::uint32_t move_out(sim::Cycle c);             // redistribution: the newest pullable entry
  void move_in(sim::Cycle c, std::uint32_t id);     // redistribution into the pull partition
  // The same through the second port that on-demand redistribution needs [K L241]: one such
  // access per cycle, beside the pull or push of the first port.
  bool second_port_free(sim::Cycle c) const { return !used2_ || used2_at_ != c; }
  std::uint32_t move_out_second(sim::Cycle c);
  void move_in_second(sim::Cycle c, std::uint32_t id);
  void reserve(std::uint32_t n);                    // a refill of n IDs is on its way (no port)
  void fill_reserved(sim::Cycle c, std::uint32_t id);  // one refilled ID lands in a reserved entry
  // The magic scheme's port-free moves: every pullable ID out, and one ID in (needs a free entry).
  void drain_into(std::vector<std::uint32_t>& out);
  void place(std::uint32_t id);

  // Double-buffer mode at a kernel end: swaps the partitions if the pull one is empty.
  bool swap();
  void kernel_end() {  // swap() and revive() in one (the RTL's kernel_end input)
    swap();
    retired_ = false;
    mirror_kernel_end();
  }
  // Set when the bank answers DONE, cleared by a push (a live thread on the lane) or a kernel end:
  // no redistribution, ICRN delivery or refill writes into a retired bank, where no thread would
  // pull it (single-buffer termination, which the paper leaves open).
  bool retired() const { return retired_; }
  void retire();
  void revive();

  // RTL in the loop (hwwl.bank.impl: rtl): every access is applied to `rtl` too (an hwwl_bank
  // block, reset here into this bank's mode), the IDs it reads are the ones returned, and its state
  // is checked against the model's after each access; a difference is an error naming `name` and
  // the access. The RTL has one port: the second port's accesses are refused.
  void attach_rtl(std::unique_ptr<BankBlock> rtl, std::string name);
  std::uint64_t held() const;  // every ID in the bank, both partitions, reserved ones excluded
  void for_each(const std::function<void(std::uint32_t)>& f) const;  // every held ID (invariant checks)

 private:
  struct Partition {
    std::deque<std::uint32_t> ids;
    std::uint32_t reserved = 0;
  };
  const Partition& part(int i) const { return parts_[i]; }
  // Applies `in` to the RTL and checks it against the model; with `read`, returns the ID it read.
  std::uint32_t mirror(BankIn in, const char* what, bool read = false);
  std::uint32_t mirrored_read(BankOp op, std::uint32_t model_id, const char* what);
  void mirror_kernel_end();
  void take_port(sim::Cycle c, const char* what);

  const Mode mode_;
  const std::uint32_t capacity_;
  Partition parts_[2];
  int pull_ = 0, push_ = 0;  // partition indices (equal in single-buffer mode)
  std::unique_ptr<BankBlock> rtl_;
  std::string name_;
  bool retired_ = false, used2_ = false;
  sim::Cycle port_at_[2] = {0, 0};  // cycles + 1 the port is booked for (0: never)
  sim::Cycle used2_at_ = 0;
};

}  // namespace irr::hwwl
