// SPDX-License-Identifier: Apache-2.0
// Each preset against its paper's machine table, row by row: every number below is typed from the
// seed (the line cited), not read back from the preset, so a changed row fails here. Rows a preset
// does not model are listed in its comments and in docs/configuration.md.
#include <gtest/gtest.h>

#include <set>

#include "models/core/ptx/parser.h"
#include "models/gpu/hwwl_gpu.h"
#include "models/mem/cache.h"
#include "models/mem/memory_system.h"
#include "testbenches/common/testing.h"
#include "workloads/workloads.h"

using irr::sim::Config;
using irr::testing::make_config;

namespace {
constexpr std::uint64_t KiB = 1024;
// Peak DRAM bandwidth: channels x bus width x transfers per clock x clock.
double peak_bandwidth(const Config& c) {
  return static_cast<double>(c.get_uint("l2.partitions") * c.get_size("dram.bus_width") * c.get_uint("dram.data_rate")) *
         c.get_frequency("clocks.dram");
}
}  // namespace

// The graph-memory thesis, Table 3 [G L521-L539].
TEST(Presets, GraphmemCarriesTable3) {
  const Config c = make_config({}, "graphmem");
  EXPECT_EQ(c.get_uint("gpu.num_sms"), 16u);                  // L523 "Num. of cores 16"
  EXPECT_EQ(c.get_uint("core.warp_schedulers"), 2u);          // L526 "2 warp-instructions/cycle"
  EXPECT_DOUBLE_EQ(c.get_frequency("clocks.core"), 1.2e9);    // L526 "1.2 GHz"
  EXPECT_EQ(c.get_uint("core.simd_width"), 16u);              // L527 "16-wide SIMD"
  EXPECT_EQ(c.get_string("core.scheduler"), "lrr");           // L527 "in-order" round robin [G L257]
  EXPECT_EQ(c.get_uint("core.latency_int"), 4u);              // L527 "according to the CUDA manual": 4 cycles
  EXPECT_EQ(c.get_uint("core.latency_fp"), 4u);               // a warp's add, mul, mad; 16 for reciprocal,
  EXPECT_EQ(c.get_uint("core.latency_sfu"), 16u);             // rsqrt, log (its Arithmetic Instructions)
  EXPECT_EQ(c.get_uint("core.registers") * 4, 128 * KiB);     // L529 "128 KB register file"
  EXPECT_EQ(c.get_size("core.shared_memory"), 16 * KiB);      // L530 "16/48 KB" (48 KB L1 leaves 16)
  EXPECT_EQ(c.get_uint("l1.latency"), 4u);                    // L531 "4-cycle"
  EXPECT_EQ(c.get_uint("l1.ways"), 6u);                       // L531 "6-way"
  EXPECT_EQ(c.get_size("l1.size"), 48 * KiB);                 // L531 "48KB"
  EXPECT_EQ(c.get_uint("l1.port_accesses"), 16u);             // L531 "16 loads/2-cycle"
  EXPECT_EQ(c.get_uint("l1.port_cycles"), 2u);
  EXPECT_EQ(c.get_uint("core.shared_port_lanes"), 16u);       // L530 shared memory "16 loads/2-cycle"
  EXPECT_EQ(c.get_uint("core.shared_port_cycles"), 2u);
  EXPECT_EQ(c.get_size("core.const_cache_size"), 8 * KiB);    // L533 "4-cycle 8 KB constant cache"
  EXPECT_EQ(c.get_uint("core.const_cache_latency"), 4u);
  EXPECT_EQ(c.get_uint("core.const_cache_miss_latency"), 100u);  // L535 "100-cycle round trip"
  EXPECT_EQ(c.get_size("l2.size"), 768 * KiB);                // L535 "768 KB L2"
  EXPECT_EQ(c.get_size("l2.size") / c.get_size("l2.line_size") / c.get_uint("l2.ways"), 768u);  // L963 "768 sets
  EXPECT_EQ(c.get_string("l2.set_index"), "local");           // in total": each slice reaches all of its own
  EXPECT_EQ(c.get_size("dram.row_size"), 2 * KiB);            // L536 "2 KB page"
  EXPECT_EQ(c.get_uint("dram.banks"), 16u);                   // L536 "16 banks"
  EXPECT_EQ(c.get_uint("dram.queue_per_bank"), 128u);         // L537 "128 reqs/bank"
  EXPECT_EQ(c.get_uint("l2.partitions"), 6u);                 // "6 tiles, each connected to a DRAM controller" [G L713]
  EXPECT_NEAR(peak_bandwidth(c), 100.8e9, 1e6);               // L537 "100.8 GB/s"
  EXPECT_EQ(c.get_uint("dram.tCL"), 20u);                     // L539
  EXPECT_EQ(c.get_uint("dram.tRCD"), 28u);
  EXPECT_EQ(c.get_uint("dram.tRP"), 12u);
}

// The same machine at "memory bandwidth of 144 GB/s" [G L998].
TEST(Presets, Graphmem144CarriesTable3At144GBs) {
  const Config c = make_config({}, "graphmem144");
  EXPECT_NEAR(peak_bandwidth(c), 144e9, 1e6);
  EXPECT_EQ(c.get_uint("gpu.num_sms"), 16u);
  EXPECT_EQ(c.get_uint("dram.queue_per_bank"), 128u);
  EXPECT_EQ(c.get_uint("l1.port_accesses"), 16u);
}

// The HWWL paper's GPGPU-Sim machine, Table IV [K L261-L265].
TEST(Presets, Kim4x16CarriesTableIV) {
  const Config c = make_config({}, "kim4x16");
  EXPECT_EQ(c.get_string("core.scheduler"), "gto");           // L263 "greedy-then-oldest"
  EXPECT_EQ(c.get_uint("core.warp_schedulers"), 2u);          // L263 "2 issue slots per cycle"
  EXPECT_DOUBLE_EQ(c.get_frequency("clocks.core"), 700e6);    // L264 "700 MHz"
  EXPECT_EQ(c.get_uint("core.max_warps"), 48u);               // L264 "48 HW warps"
  EXPECT_EQ(c.get_uint("core.registers"), 32768u);            // L264 "32768 registers"
  EXPECT_EQ(c.get_uint("core.simd_width"), 16u);              // L264 "16 lanes"
  EXPECT_EQ(c.get_uint("core.sfu_interval"), 32u / 16u);      // L264 "1 SFU per lane": 16 SFUs, a warp of 32
  EXPECT_EQ(c.get_uint("gpu.num_sms"), 4u);                   // "4 cores x 16 lanes" [K L275]
  EXPECT_EQ(c.get_uint("l1.ways"), 4u);                       // L265 "4-way set-associative 8KB L1"
  EXPECT_EQ(c.get_size("l1.size"), 8 * KiB);
  EXPECT_EQ(c.get_uint("l2.ways"), 8u);                       // L265 "8-way set-associative 786KB L2"
  EXPECT_EQ(c.get_size("l2.size"), 786 * KiB);
  EXPECT_EQ(c.get_string("dram.model"), "fixed");             // L265 "100 cycle DRAM latency"
  EXPECT_EQ(c.get_uint("dram.latency"), 100u);
  EXPECT_EQ(c.get_uint("l2.latency"), 120u);                  // GPGPU-Sim 3's -rop_latency beside its -dram_latency 100
}

// The IRU paper's GTX 980 in GPGPU-Sim, Table 2 [S L221-L227].
TEST(Presets, Gtx980CarriesTable2) {
  const Config c = make_config({}, "gtx980");
  EXPECT_DOUBLE_EQ(c.get_frequency("clocks.core"), 1.27e9);   // L223 "1.27GHz"
  EXPECT_EQ(c.get_uint("gpu.num_sms"), 16u);                  // L224 "16 (2048 threads)"
  EXPECT_EQ(c.get_uint("core.max_threads"), 2048u);
  EXPECT_EQ(c.get_size("l1.size"), 32 * KiB);                 // L225 "32 KB, 2 MB. 128 B lines"
  EXPECT_EQ(c.get_size("l2.size"), 2048 * KiB);
  EXPECT_EQ(c.get_size("l1.line_size"), 128u);
  EXPECT_EQ(c.get_size("l2.line_size"), 128u);
  EXPECT_EQ(c.get_uint("l2.partitions"), 4u);                 // L226 "4 (4 channel GDDR5)"
  EXPECT_EQ(c.get_string("l2.set_index"), "local");           // GPGPU-Sim's L2 indexes the partition address
  EXPECT_NEAR(peak_bandwidth(c), 224e9, 1e6);                 // L227 "224 GB/s"
  EXPECT_EQ(c.get_string("atomic.coalescing"), "line");       // L251 "coalesced as long as ... parts of a cache line"
}

// The GTX 480 as Wireframe simulates it [W L409] and as the DAC thesis's Table 3.1 gives it.
TEST(Presets, Gtx480CarriesWireframesMachine) {
  const Config c = make_config({}, "gtx480");
  EXPECT_EQ(c.get_uint("gpu.num_sms"), 15u);                  // [W L409] "15 SMs"
  EXPECT_EQ(c.get_uint("core.max_ctas"), 8u);                 // "8 CTAs"
  EXPECT_EQ(c.get_uint("core.registers") * 4, 128 * KiB);     // "128KB register file"
  EXPECT_EQ(c.get_size("l1.size"), 16 * KiB);                 // "16KB L1 cache size"
  EXPECT_EQ(c.get_size("l2.size"), 786 * KiB);                // "The shared L2 cache size is 786KB"
  EXPECT_EQ(c.get_string("core.scheduler"), "gto");           // "greedy-then-oldest (GTO)"
  EXPECT_EQ(c.get_time("host.launch_overhead"), 30'000'000u); // "host-side kernel launch time of 30us" (ps)
  EXPECT_DOUBLE_EQ(c.get_frequency("clocks.core"), 700e6);    // "a core clock of 700MHz"
  EXPECT_EQ(c.get_uint("l2.partitions"), 6u);                 // DAC Table 3.1
  EXPECT_NEAR(peak_bandwidth(c), 177.4e9, 0.1e9);             // the GTX 480's 177.4 GB/s
}

TEST(Presets, Gtx480CarriesDacsTable31) {
  const Config c = make_config({}, "gtx480");
  EXPECT_EQ(c.get_uint("core.max_warps"), 48u);               // [S L680] "15 SMs, 48 warps/SM"
  EXPECT_EQ(c.get_uint("core.simd_width"), 32u);              // [S L681] "32 SIMT lanes"
  EXPECT_EQ(c.get_uint("core.warp_schedulers"), 2u);          // [S L682] "2 Schedulers/SM"
  EXPECT_EQ(c.get_uint("l1.ways"), 4u);                       // [S L683] "4 Ways, 32 MSHRs"
  EXPECT_EQ(c.get_uint("l1.mshrs"), 32u);
  EXPECT_EQ(c.get_uint("l2.ways"), 8u);                       // [S L684] "6 Partitions, 8 Ways"
  EXPECT_EQ(c.get_uint("core.sfu_interval"), 32u / 4u);       // [W L409] "4 SFUs"
}

// The decoupled-delegate dissertation's GTX 1080 Ti, Table 4.1 [S L1050-L1053].
TEST(Presets, Gtx1080tiCarriesTable41) {
  const Config c = make_config({}, "gtx1080ti");
  EXPECT_EQ(c.get_size("core.shared_memory"), 96 * KiB);      // L1050 "Scratch-Pad Per SM 96KB"
  EXPECT_DOUBLE_EQ(c.get_frequency("clocks.core"), 1.68e9);   // L1051 "Shader Clock Rate 1.68 GHz"
  EXPECT_EQ(c.get_uint("gpu.num_sms"), 28u);                  // L1052 "SM Count 28"
  EXPECT_EQ(c.get_size("l2.size"), 2816 * KiB);               // L1052 "L2 Size 2.75MB"
  EXPECT_EQ(c.get_uint("core.max_threads"), 2048u);           // L1053 "Max Threads Per SM 2048"
  EXPECT_EQ(c.get_size("l2.line_size"), 128u);                // L1053 "L2 Cache Line Size 128 Byte"
  EXPECT_NEAR(peak_bandwidth(c), 484e9, 1e6);                 // GP102: 352 bits of GDDR5X at 11 Gb/s
}

// The dissertation's RTX 2080 Ti, Table 5.1 [S L1471-L1474].
TEST(Presets, Rtx2080tiCarriesTable51) {
  const Config c = make_config({}, "rtx2080ti");
  EXPECT_EQ(c.get_uint("gpu.num_sms"), 68u);                  // L1471 "SM Count 68"
  EXPECT_EQ(c.get_uint("core.max_threads"), 1024u);           // L1471 "Threads Per SM 1024"
  EXPECT_DOUBLE_EQ(c.get_frequency("clocks.core"), 1.75e9);   // L1472 "Max Clock Rate 1.75 GHz"
  EXPECT_NEAR(peak_bandwidth(c), 616e9, 1e6);                 // L1472 "GDDR6 Bandwidth 616 GB/s"
  EXPECT_EQ(c.get_size("l2.size"), 5632 * KiB);               // L1473 "L2 Size 5.5 MB"
  EXPECT_EQ(c.get_size("core.shared_memory"), 48 * KiB);      // L1474 "Scratchpad Per SM 48 KB"
}

// The graph-memory thesis's Tesla K40c [G L1460]: the thesis gives no table; the K40 board's and
// GK110's published figures.
TEST(Presets, K40cCarriesTheK40sFigures) {
  const Config c = make_config({}, "k40c");
  EXPECT_EQ(c.get_uint("gpu.num_sms"), 15u);                  // 15 SMX
  EXPECT_DOUBLE_EQ(c.get_frequency("clocks.core"), 745e6);    // 745 MHz base clock
  EXPECT_NEAR(peak_bandwidth(c), 288e9, 1e6);                 // 288 GB/s
  EXPECT_EQ(c.get_size("l2.size"), 1536 * KiB);               // 1.5 MB L2
  EXPECT_EQ(c.get_uint("core.max_threads"), 2048u);           // 2048 threads, 16 blocks, 64 K registers an SMX
  EXPECT_EQ(c.get_uint("core.max_ctas"), 16u);
  EXPECT_EQ(c.get_uint("core.registers"), 65536u);
  EXPECT_EQ(c.get_uint("core.sfu_interval"), 32u / 32u);      // 32 SFUs an SMX
}

// Every preset's L2 slice reaches every one of its sets. A slice receives every partitions-th
// interleaving chunk; indexed by the line address (l2.set_index global) the bits that choose the
// partition select too few sets when the slice's set count shares factors with the chunk stride
// (k40c's 64 sets over 12 partitions: a quarter; graphmem's 128 over 6: half), so those presets
// index locally. gtx480's and kim4x16's 131 sets (786 KB / 6 / 8 ways / 128 B) and the 11-partition
// presets reach every set either way.
TEST(Presets, EveryL2SliceReachesEverySet) {
  for (const char* preset : {"graphmem", "graphmem144", "gtx480", "gtx980", "gtx1080ti", "k40c", "kim4x16", "rtx2080ti"}) {
    const Config c = make_config({}, preset);
    const irr::mem::AddressMap map = irr::mem::address_map(c);
    irr::mem::CacheArray slice(c.get_size("l2.size") / map.partitions, static_cast<std::uint32_t>(c.get_uint("l2.ways")),
                               static_cast<std::uint32_t>(c.get_size("l2.line_size")), "slice");
    if (c.get_string("l2.set_index") == "local") slice.index_locally(map);
    std::set<std::uint32_t> sets;
    // Addresses up to four times the L2: four slices' worth of partition 0's lines, every set they can reach.
    const std::uint64_t end = 4 * c.get_size("l2.size");
    for (std::uint64_t a = 0; a < end && sets.size() < slice.sets(); a += slice.line_size())
      if (map.partition(a) == 0) sets.insert(slice.set_of(a));
    EXPECT_EQ(sets.size(), slice.sets()) << preset << " (l2.set_index " << c.get_string("l2.set_index") << ")";
  }
}

// The instruction caches of graphmem (Table 3's 4 KB [G L524]) and kim4x16 (Table IV's 8 KB
// [K L263]) are not modelled because every kernel their studies run fits: only the first fetch of
// each line per SM could miss. At 8 bytes a SASS instruction and, for margin, two SASS
// instructions a PTX instruction, a kernel fits in size / 16 PTX instructions. A kernel that
// grows past that fails here: then the I-cache has to be modelled.
TEST(Presets, InstructionCachesNotModelledHoldEveryKernelOfTheirStudies) {
  const struct {
    const char* preset;
    std::uint64_t icache;
    std::vector<const char*> modules;
  } machines[] = {{"graphmem", 4 * KiB, {"graphmem.ptx"}}, {"kim4x16", 8 * KiB, {"wl.ptx", "wl_hwwl.ptx", "sp.ptx", "bh.ptx", "dmr.ptx"}}};
  irr::core::ptx::ExtensionRegistry hwwl;  // wl_hwwl.ptx's pushes and pulls
  irr::gpu::add_hwwl_instructions(hwwl);
  for (const auto& m : machines)
    for (const char* file : m.modules) {
      const auto module = irr::core::ptx::parse_file(irr::workloads::kernels_dir() + "/" + file, &hwwl);
      ASSERT_FALSE(module.functions.empty()) << file;
      for (const auto& f : module.functions)
        EXPECT_LE(f.code.size() * 16, m.icache) << m.preset << ": " << file << " " << f.name << " has " << f.code.size()
                                                << " instructions";
    }
}
