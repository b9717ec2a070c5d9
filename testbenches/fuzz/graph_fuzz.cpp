// SPDX-License-Identifier: Apache-2.0
// Fuzz target: one graph reader (IRRGPU_FUZZ_GRAPH: read_mtx, read_dimacs or read_snap), then a
// check of the CSR it built. Bad input must be an irr::Error naming the line.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "sim/error.h"
#include "workloads/graph/graph.h"

// Under libFuzzer graphs are bounded at 2^16 vertices (2^28 in irrgpu): the same check, but a
// 20-byte line naming vertex 10^8 would otherwise spend the fuzzer's time filling a row array, not
// parsing. The replay of seeds and regressions keeps irrgpu's bound.
#ifdef IRRGPU_LIBFUZZER
constexpr std::uint64_t kMaxVertices = 1u << 16;
#else
constexpr std::uint64_t kMaxVertices = irr::workloads::kMaxGraphVertices;
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const irr::workloads::Graph g = irr::workloads::IRRGPU_FUZZ_GRAPH(in, "fuzz", kMaxVertices);
    // A CSR that does not hold together is a bug, whatever the input.
    if (g.row.size() != std::size_t{g.n} + 1 || g.row[g.n] != g.edges() || g.weight.size() != g.edges())
      __builtin_trap();
    // (The walk over vertices only for graphs of modest size: a regression's legal graph of 10^8
    // isolated vertices would take seconds.)
    for (std::uint32_t v = 0; v < g.n && g.n <= (1u << 20); ++v)
      if (g.row[v] > g.row[v + 1]) __builtin_trap();
    for (std::uint32_t c : g.col)
      if (c >= g.n) __builtin_trap();
  } catch (const irr::Error&) {
  }
  return 0;
}
