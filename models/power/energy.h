// SPDX-License-Identifier: Apache-2.0
// The energy model: energy per event for every component the timing model counts, static power
// per SM, L2 slice, DRAM channel and the rest of the chip, and one SRAM model for every array. It
// reads the statistics the timing run keeps (and the few events counted for it alone,
// gpu.smN.energy_events.*) and declares the energy.* statistics as formulas over them: nothing is
// computed while the GPU runs, and nothing it does changes timing. Constants: power.* (schema.yaml
// beside this file), each cited in docs/power.md.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/simulation.h"

namespace irr::power {

// One access of `access_bits` to an SRAM array of `array_bits` (power.sram_*): b x k x B^p for the
// bank reached (B at most power.sram_bank), plus the wire from the array's edge to that bank when
// the array has more than one.
struct SramModel {
  double k_pj = 0, exponent = 0, bank_bits = 0;
  double bitcell_mm2 = 0;  // per bit, with the array's periphery (the area flow's bitcell / efficiency)
  double wire_pj_per_bit_mm = 0;
  double access_pj(double access_bits, double array_bits) const;
};

// The configured constants, on-chip ones scaled to the preset's node and voltage.
struct Table {
  double scale = 1;  // (technology_nm / 40) x vdd^2: applied to every on-chip figure below
  double instruction_pj, register_lane_pj, lane_pj, int_lane_pj, fp_lane_pj, sfu_lane_pj, atomic_pj;
  double wire_pj_per_bit_mm, mean_wire_mm;
  SramModel sram;
  double unit_alu_pj;
  double sm_leakage_w, sm_clock_w, l2_leakage_w, uncore_w;
  double leakage_w_per_mm2;  // the SMs' and L2 slices' leakage over the die: a unit array's, by its area
  // DRAM, per chip (not scaled)
  double dram_vdd, dram_chips, idd0, idd2n, idd3n, idd4r, idd4w, idd5;  // A
  double refresh_interval_s, refresh_time_s, io_pj_per_bit;
};
Table table(const sim::Config& config);

// The GPU's geometry the model needs beside the statistics.
struct Geometry {
  std::string prefix;  // the GPU's statistics, e.g. "gpu."
  std::uint32_t sms = 0, partitions = 0;
};

// An array a unit adds (a queue, a table, a stack, a hash bank), priced by the SRAM model from its
// geometry: declare_array makes the statistic <owner>.<name>.energy (uJ) over its accesses (counters
// and formulas, each with a weight: an ID moved between banks is a read and a write), and
// <owner>.<name>.static_energy, its leakage over the time inside kernels (its area at the chip's
// leakage density); energy.units and energy.static.units add them up. Nothing when power.enabled is off.
struct Array {
  std::string name;  // e.g. "atq"
  double entries = 0, width_bits = 0;
  double stated_pj = 0;    // the paper's own figure at the 40 nm reference, when it gives one: used instead of the model
  double access_bits = 0;  // bits an access reads or writes, when not a whole entry (an element of a wide entry)
  double copies = 1;       // identical arrays the accesses spread over (banks, partitions): each leaks
};
using Accesses = std::vector<std::pair<const sim::Stat*, double>>;
void declare_array(sim::Simulation& sim, const std::string& owner, const Array& array, const Accesses& accesses);
// A unit's own logic, priced per operation into <owner>.<name>.energy (in energy.units): each an
// operation of a small ALU (power.unit_alu_pj), or each a transfer of `bits` over the mean on-chip
// wire (as an interconnect flit's bits).
void declare_alu(sim::Simulation& sim, const std::string& owner, const std::string& name, const Accesses& operations);
void declare_wire(sim::Simulation& sim, const std::string& owner, const std::string& name, double bits,
                  const Accesses& transfers);

// Declares energy.* on `sim`'s statistics (when power.enabled): totals, dynamic and static, each
// component, each SM, and the average power inside kernels.
void declare(sim::Simulation& sim, const Geometry& gpu);

}  // namespace irr::power
