// SPDX-License-Identifier: Apache-2.0
// The graph-aware memory hierarchy's cache policies (seed 004, ../shared/specs/graph_memory_hierarchy.md
// sections 3 and 4), each a CachePolicy on one L1 or one L2 slice, chosen by
// l1.granularity / l1.bypass and l2.granularity / l2.bypass (docs/memory.md):
//  - fill granularity: line_profiled (whole lines, the sectors used counted: the thesis's Fig. 39),
//    sector (fetch the requested sectors), spp (spatial pattern predictor),
//    lamar (LAMAR's bimodal granularity predictor), nap (neighbour-access predictor);
//  - bypass: mat (memory address table), adaptive (Gao and Wilkerson's adaptive bypass), obm
//    (optimal bypass monitor);
//  - inclusion between L1 and L2 (l2.inclusion): exclusive, flexclusion (set dueling between
//    non-inclusion and exclusion), region_exclusion (per allocated region, from its reuse);
//  - bypass_copyback (l1/l2.bypass): region exclusion with regions of no reuse bypassing the L2
//    and PCs of no L1 reuse bypassing the L1.
// Each keeps its own tables, sized by its config section, and its statistics under the cache's.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>

#include "models/mem/cache.h"
#include "sim/simulation.h"

namespace irr::mem {

// Where a policy lives: its cache's module (statistics are `<module>.<prefix><policy>.*`), the
// cache's tag array, and the sectors per line.
struct PolicySite {
  sim::Simulation& sim;
  const sc_core::sc_object& owner;
  std::string prefix;  // "" for an L1, "l2." for a partition's slice
  CacheArray& array;
  std::uint32_t sectors_per_line;
  std::uint32_t index = 0, count = 1;  // the cache's place among its level's (an L2 slice's partition)
  sim::Counter& counter(const std::string& policy, const std::string& leaf, const std::string& what,
                        const std::string& unit) const {
    return sim.counter(owner, prefix + policy + "." + leaf, what, unit);
  }
  sim::Distribution& distribution(const std::string& policy, const std::string& leaf, const std::string& what,
                                  const std::string& unit, std::size_t buckets) const {
    return sim.distribution(owner, prefix + policy + "." + leaf, what, unit, 0, 1, buckets);
  }
  sim::Probe& probe(const std::string& policy, const std::string& leaf, unsigned width, const std::string& what) const {
    return sim.probe(owner, prefix + policy + "." + leaf, width, what);
  }
  std::mt19937_64 rng(const std::string& policy) const { return sim.rng(std::string(owner.name()) + "." + prefix + policy); }
};

// Builds the policies `level` ("l1" or "l2") names in the configuration and installs them on
// `into`; turns sectors on in the array for a fine-grained granularity. Nothing when both are
// off: the cache calls no policy at all.
void install_policies(const PolicySite& site, const std::string& level, CachePolicies& into);

// The energy model's view of a mechanism's tables (`bits` of them at the cache whose statistics are
// `cache`hits and `cache`misses, e.g. "gpu.sm0.l1."): <cache><mechanism>.tables.energy, a 64-bit
// row read and written at each load look-up (our reading: each mechanism consults and trains its
// tables with every load), and its leakage. Nothing when power.enabled is off.
void declare_tables_energy(sim::Simulation& sim, const std::string& cache, const std::string& mechanism, std::uint64_t bits);

// A uniform draw in [0, 1) from 53 bits of the stream (the same on every platform).
inline double uniform(std::mt19937_64& g) { return static_cast<double>(g() >> 11) * 0x1.0p-53; }

std::unique_ptr<CachePolicy> make_granularity(const PolicySite& site, const std::string& kind);
std::unique_ptr<CachePolicy> make_bypass(const PolicySite& site, const std::string& kind);
std::unique_ptr<CachePolicy> make_inclusion(const PolicySite& site, const std::string& kind);
std::unique_ptr<CachePolicy> make_region(const PolicySite& site, const std::string& level);

}  // namespace irr::mem
