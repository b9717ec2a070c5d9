// SPDX-License-Identifier: Apache-2.0
#include "models/mem/policy/policy.h"

#include <cmath>

#include "models/mem/policy/bypass.h"
#include "models/mem/policy/granularity.h"
#include "models/mem/policy/inclusion.h"
#include "models/mem/policy/region.h"
#include "models/power/energy.h"
#include "sim/error.h"

namespace irr::mem {

namespace {
double power_of_two(const sim::Config& c, const std::string& key) {
  const double p = c.get_real(key);
  int e = 0;
  if (p <= 0 || std::frexp(p, &e) != 0.5)
    throw Error(key + ": " + std::to_string(p) + " is not a power of two (1/2, 1/4, ... : adaptive bypass keeps 2^-k)",
                Error::Kind::config);
  return p;
}
// A section's counter width, with its threshold and initial value checked to fit in it.
std::uint32_t counter_bits(const sim::Config& c, const std::string& section) {
  const auto bits = static_cast<std::uint32_t>(c.get_uint(section + ".counter_bits"));
  for (const char* leaf : {".threshold", ".initial"})
    if (c.get_uint(section + leaf) > (1u << bits) - 1)
      throw Error(section + leaf + ": " + std::to_string(c.get_uint(section + leaf)) + " does not fit " + section +
                      ".counter_bits = " + std::to_string(bits),
                  Error::Kind::config);
  return bits;
}
}  // namespace

std::unique_ptr<CachePolicy> make_granularity(const PolicySite& site, const std::string& kind) {
  const sim::Config& c = site.sim.config();
  if (kind == "sector") return std::make_unique<SectorFetch>(site);
  if (kind == "line_profiled") return std::make_unique<LineProfile>(site);
  if (kind == "spp") {
    const auto entries = static_cast<std::uint32_t>(c.get_uint("spp.entries"));
    const auto ways = static_cast<std::uint32_t>(c.get_uint("spp.ways"));
    if (entries % ways)
      throw Error("spp.entries (" + std::to_string(entries) + ") must be a multiple of spp.ways (" + std::to_string(ways) + ")",
                  Error::Kind::config);
    return std::make_unique<SpatialPatternPredictor>(site, entries, ways, c.get_string("spp.default") == "line");
  }
  if (kind == "lamar")
    return std::make_unique<BimodalGranularityPredictor>(
        site, static_cast<std::uint32_t>(c.get_uint("lamar.bits")), static_cast<std::uint32_t>(c.get_uint("lamar.hashes")),
        static_cast<std::uint32_t>(c.get_uint("lamar.refresh")), c.get_real("lamar.skew"),
        static_cast<std::uint32_t>(c.get_uint("lamar.fine_threshold")));
  if (kind == "nap") {
    const std::uint32_t bits = counter_bits(c, "nap");
    return std::make_unique<NeighbourAccessPredictor>(site, static_cast<std::uint32_t>(c.get_uint("nap.entries")), bits,
                                                      static_cast<std::uint32_t>(c.get_uint("nap.threshold")),
                                                      static_cast<std::uint32_t>(c.get_uint("nap.initial")));
  }
  throw std::logic_error("no granularity policy " + kind);
}

std::unique_ptr<CachePolicy> make_bypass(const PolicySite& site, const std::string& kind) {
  const sim::Config& c = site.sim.config();
  if (kind == "mat")
    return std::make_unique<MemoryAddressTable>(site, static_cast<std::uint32_t>(c.get_uint("mat.entries")),
                                                c.get_size("mat.macroblock"), c.get_real("mat.fraction"),
                                                static_cast<std::uint32_t>(c.get_uint("mat.counter_bits")));
  if (kind == "adaptive") {
    const double lo = power_of_two(c, "adaptive_bypass.min_probability"), hi = power_of_two(c, "adaptive_bypass.max_probability");
    const double p = power_of_two(c, "adaptive_bypass.probability");
    if (p < lo || p > hi)
      throw Error("adaptive_bypass.probability must lie between min_probability and max_probability", Error::Kind::config);
    return std::make_unique<AdaptiveBypass>(site, p, c.get_real("adaptive_bypass.virtual_probability"), lo, hi);
  }
  if (kind == "obm") {
    const std::uint32_t bits = counter_bits(c, "obm");
    return std::make_unique<OptimalBypassMonitor>(
        site, static_cast<std::uint32_t>(c.get_uint("obm.rht_entries")), c.get_real("obm.insert_probability"),
        static_cast<std::uint32_t>(c.get_uint("obm.bdct_entries")), bits, static_cast<std::uint32_t>(c.get_uint("obm.threshold")),
        static_cast<std::uint32_t>(c.get_uint("obm.initial")));
  }
  throw std::logic_error("no bypass policy " + kind);
}

std::unique_ptr<CachePolicy> make_inclusion(const PolicySite& site, const std::string& kind) {
  if (kind == "exclusive") return std::make_unique<Inclusion>(site, 0, 0);
  const sim::Config& c = site.sim.config();
  const auto leaders = static_cast<std::uint32_t>(c.get_uint("flexclusion.leader_sets"));
  const std::uint64_t sets = static_cast<std::uint64_t>(site.array.sets()) * site.count;
  if (2ull * leaders > sets)
    throw Error("flexclusion.leader_sets: " + std::to_string(leaders) + " of each kind need " + std::to_string(2 * leaders) +
                    " L2 sets; the L2 has " + std::to_string(sets),
                Error::Kind::config);
  return std::make_unique<Inclusion>(site, leaders, static_cast<std::uint32_t>(c.get_uint("flexclusion.psel_bits")));
}

// Region exclusion (l2.inclusion region_exclusion) and bypass + copyback (l1/l2.bypass
// bypass_copyback): one mechanism with a half on each L1 and a half on each L2 slice; nullptr when
// neither is on. B+C extends R-EX: with both keys the mechanism is B+C.
std::unique_ptr<CachePolicy> make_region(const PolicySite& site, const std::string& level) {
  const sim::Config& c = site.sim.config();
  const std::string inclusion = c.get_string("l2.inclusion");
  const bool l1_bypass = c.get_string("l1.bypass") == "bypass_copyback", l2_bypass = c.get_string("l2.bypass") == "bypass_copyback";
  const bool at_l2 = l2_bypass || inclusion == "region_exclusion";
  if (l2_bypass && inclusion != "non_inclusive" && inclusion != "region_exclusion")
    throw Error("l2.bypass: bypass_copyback extends region exclusion; it cannot be combined with l2.inclusion: " + inclusion,
                Error::Kind::config);
  const std::string name = l1_bypass || l2_bypass ? "bypass_copyback" : "region_exclusion";
  const auto cores = static_cast<std::uint32_t>(c.get_uint("gpu.num_sms"));
  if (level == "l2") return at_l2 ? std::make_unique<RegionTags>(site, name, cores) : nullptr;
  if (!at_l2 && !l1_bypass) return nullptr;
  RegionTracking t;
  const auto get = [&](const char* leaf) { return static_cast<std::uint32_t>(c.get_uint(std::string("region_tracking.") + leaf)); };
  t.region_table = get("region_table");
  t.rtt = get("rtt_entries");
  t.ptt = get("ptt_entries");
  t.upat = get("upat_entries");
  t.counter_bits = get("counter_bits");
  t.period = get("period");
  t.divisor = get("divisor");
  t.exclusion = at_l2;
  t.l2_bypass = l2_bypass;
  t.l1_bypass = l1_bypass;
  return std::make_unique<RegionReuse>(site, name, t);
}

void install_policies(const PolicySite& site, const std::string& level, CachePolicies& into) {
  const sim::Config& c = site.sim.config();
  const std::string granularity = c.get_string(level + ".granularity"), bypass = c.get_string(level + ".bypass");
  if (granularity != "line") {
    if (c.get_size("l1.line_size") != c.get_size("l2.line_size"))
      throw Error(level + ".granularity: " + granularity + " needs l1.line_size = l2.line_size (the sector masks are the L1's)",
                  Error::Kind::config);
    site.array.set_sectored(true);
    into.add(make_granularity(site, granularity));
  }
  if (bypass != "none" && bypass != "bypass_copyback") into.add(make_bypass(site, bypass));
  const std::string inclusion = c.get_string("l2.inclusion");
  if (level == "l2" && inclusion != "non_inclusive" && inclusion != "region_exclusion") into.add(make_inclusion(site, inclusion));
  if (auto region = make_region(site, level)) into.add(std::move(region));
  for (const auto& p : into.list())
    if (p->storage_bits()) {
      site.counter(p->name(), "storage_bits", "storage the mechanism adds to this cache", "bits") += p->storage_bits();
      declare_tables_energy(site.sim, std::string(site.owner.name()) + "." + site.prefix, p->name(), p->storage_bits());
    }
}

void declare_tables_energy(sim::Simulation& sim, const std::string& cache, const std::string& mechanism, std::uint64_t bits) {
  if (!sim.config().get_bool("power.enabled")) return;
  auto& stats = sim.stats();
  const sim::Stat* hits = stats.find(cache + "hits");
  const sim::Stat* misses = stats.find(cache + "misses");
  if (!hits || !misses) throw std::logic_error(cache + ": no hits or misses for " + mechanism + "'s energy");
  constexpr double row = 64;
  power::declare_array(sim, cache + mechanism, {"tables", std::ceil(static_cast<double>(bits) / row), row},
                       {{hits, 2}, {misses, 2}});
}

}  // namespace irr::mem
