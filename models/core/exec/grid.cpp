// SPDX-License-Identifier: Apache-2.0
// Functional execution of a whole grid.
#include <algorithm>
#include <functional>

#include "models/core/exec/warp.h"
#include "sim/error.h"

namespace irr::core {

void LaunchProfile::record(const Step& step, std::uint64_t cta) {
  const ptx::Instruction* first = kernel->code.data();
  const bool own = std::less_equal<>()(first, step.inst) && std::less<>()(step.inst, first + kernel->code.size());
  ++per_pc[own ? static_cast<std::size_t>(step.inst - first) : kernel->code.size()];
  threads += static_cast<std::uint64_t>(__builtin_popcount(step.active));
  const bool per_cta = cta < cta_instructions.size();
  if (per_cta) ++cta_instructions[cta];
  const ptx::Op op = step.inst->op;
  if (!is_memory(op) || !step.active) return;
  std::uint64_t addr[32];
  const std::uint32_t mask = global_lanes(*step.inst, step, addr);
  const bool write = op == ptx::Op::st || op == ptx::Op::atom || op == ptx::Op::red ||
                     (op == ptx::Op::cp_async_bulk && step.inst->space != ptx::Space::shared);
  std::uint64_t previous = ~0ull;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(mask >> l & 1)) continue;
    const std::uint64_t line = addr[l] / line_bytes * line_bytes;
    if (line == previous) continue;  // a coalesced warp names its line once
    previous = line;
    Touch& t = lines[line];
    t.last = ++touches;
    t.written |= write;
    if (per_cta) ++cta_touches[cta];
  }
}

GridStats run_grid(LaunchContext& ctx, const ptx::Function& kernel, Dim3 grid, Dim3 block,
                   const std::vector<std::uint8_t>& params, std::uint32_t dynamic_shared, std::uint32_t resident,
                   const std::vector<std::uint64_t>* order) {
  GridStats first;
  if (ctx.companion) {  // the companion stream's grid first (warp.h: it reads only parameters and indices)
    LaunchContext alone = ctx;
    alone.companion = nullptr;
    alone.profile = nullptr;  // a timed SM's companion warp issues apart from the kernel's: not its work
    first = run_grid(alone, *ctx.companion, grid, block, params, dynamic_shared, resident, order);
  }
  const std::uint64_t ctas = order ? order->size() : grid.count();  // an order may start only some
  std::uint64_t next = 0, instructions = 0, threads = 0;
  std::vector<std::unique_ptr<Cta>> live;
  auto launch = [&] {
    const std::uint64_t id = order ? order->at(next++) : next++;
    const Dim3 c{static_cast<std::uint32_t>(id % grid.x), static_cast<std::uint32_t>(id / grid.x % grid.y),
                 static_cast<std::uint32_t>(id / (static_cast<std::uint64_t>(grid.x) * grid.y))};
    live.push_back(std::make_unique<Cta>(ctx, kernel, grid, block, c, params, dynamic_shared));
  };
  while (next < ctas && live.size() < std::max<std::uint32_t>(1, resident)) launch();
  // Round-robin over every resident warp, one instruction each; a CTA that finishes makes room.
  std::uint64_t idle_rounds = 0;
  Step s;
  while (!live.empty()) {
    bool progressed = false;
    for (auto& cta : live) {
      for (auto& w : cta->warps()) {
        if (w->state() != Warp::State::ready) continue;
        w->issue(s);
        w->complete(s);
        if (s.inst) {
          if (ctx.profile) ctx.profile->record(s, cta->linear_index());
          ++instructions;
          threads += static_cast<std::uint64_t>(__builtin_popcount(s.active));
          progressed = true;
        }
        if (instructions > ctx.max_instructions) {
          std::string who;
          for (auto& c : live)
            for (auto& x : c->warps())
              if (x->state() != Warp::State::done) who += "\n  " + x->where();
          throw Error("kernel " + kernel.name + " exceeded " + std::to_string(ctx.max_instructions) +
                      " warp instructions (an endless loop, or a spin-wait that needs independent thread "
                      "scheduling, which pre-Volta SIMT execution does not provide); still running:" + who);
        }
      }
      cta->check_barrier();
    }
    for (std::size_t i = 0; i < live.size();) {
      if (live[i]->done()) {
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
        if (next < ctas) launch();
      } else {
        ++i;
      }
    }
    if (!progressed && !live.empty()) {
      // Every live warp waits at a barrier that cannot release: some warps of a CTA finished while
      // others wait (a barrier in divergent or conditional code).
      if (++idle_rounds > 1) {
        std::string who;
        for (auto& cta : live)
          for (auto& w : cta->warps())
            if (w->state() == Warp::State::at_barrier) who += "\n  " + w->where() + ": waits at a barrier";
        throw Error("kernel " + kernel.name + " deadlocked:" + who);
      }
    } else {
      idle_rounds = 0;
    }
  }
  return {first.warp_instructions + instructions, first.thread_instructions + threads};
}

}  // namespace irr::core
