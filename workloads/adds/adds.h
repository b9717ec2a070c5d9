// SPDX-License-Identifier: Apache-2.0
// SSSP with a decoupled worklist (ADDS, seed 001 chapter 5; workloads/kernels/adds.cu) and the
// near-far baseline it is measured against, as variants `adds` and `nearfar` of sssp, with the
// CPU model of a bucketed worklist that §4.8's trace (Fig. 5.2) checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "workloads/workloads.h"

namespace irr::workloads::adds {

bool sssp_variant(const std::string& variant);  // adds, adds_spin, nearfar, nearfar_host
Result sssp(runtime::Device& d, const Graph& g, std::uint32_t source, const std::string& variant);
std::vector<Variant> sssp_variants();

// ADDS with its storage chosen: data blocks of 2^block_log2 ids (§4.5: 64K), the pool's blocks (0:
// enough for the graph), idle workers spinning.
struct AddsOptions {
  std::uint32_t block_log2 = 16;
  std::uint64_t pool_blocks = 0;
  bool spin = false;
};
Result adds_sssp(runtime::Device& d, const Graph& g, std::uint32_t source, const AddsOptions& o);

// Delta as the chapter's baselines set it: c * (average weight) / (average degree), c = 32 (§4.7),
// at least 1; ADDS starts from it rounded to a power of two (§4.6) and returns log2 of that.
std::uint64_t nearfar_delta(const Graph& g);
std::uint32_t adds_initial_shift(const Graph& g);

// One step of a sequential bucketed worklist: the vertex processed, the distances after it and
// the worklist after it (in processing order).
struct Step {
  std::uint32_t vertex;
  std::vector<std::uint64_t> dist;  // UINT64_MAX: not reached
  std::vector<std::uint32_t> worklist;
};
// Sequential SSSP over FIFO buckets of width `delta` (one bucket when delta is huge: the plain
// FIFO worklist of Fig. 5.2): pops the lowest bucket's oldest vertex, relaxes its edges, appends
// each vertex it lowers to its distance's bucket. The trace of every step.
std::vector<Step> bucketed_trace(const Graph& g, std::uint32_t source, std::uint64_t delta);

}  // namespace irr::workloads::adds
