// SPDX-License-Identifier: Apache-2.0
// Probes: internal values a model exposes for waveforms (occupancies, pointers, states,
// counters). A model declares a probe once and calls set() when the value changes; with tracing
// off, set() only stores the value. Selected probes (by glob of hierarchical name) go to a VCD
// file with the simulated time of each change; FST is converted from it with vcd2fst.
#pragma once

#include <cstdint>
#include <deque>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/output_file.h"
#include "sim/units.h"

namespace irr::sim {

class VcdWriter;

class Probe {
 public:
  Probe(std::string name, unsigned width, std::string description);
  // Values must fit in width bits: a wider one is a model bug (std::logic_error).
  void set(std::uint64_t v) {
    if (v == value_) return;
    if (width_ < 64 && (v >> width_)) out_of_range(v);
    value_ = v;
    if (sink_) record();
  }
  std::uint64_t value() const { return value_; }
  const std::string& name() const { return names_->name; }
  unsigned width() const { return width_; }
  const std::string& description() const { return names_->description; }
  bool traced() const { return sink_ != nullptr; }

 private:
  friend class VcdWriter;
  [[noreturn]] void out_of_range(std::uint64_t v) const;
  void record();
  std::uint64_t value_ = 0;
  VcdWriter* sink_ = nullptr;
  unsigned width_;
  // Out of line, as a statistic's (sim/stats.h): the registry keeps probes side by side.
  struct Names {
    std::string name, description;
    std::string code;  // VCD identifier
  };
  std::unique_ptr<Names> names_;
};

// Writes the probes bound to it as a VCD file (timescale 1 ps).
class VcdWriter {
 public:
  // Changes are stamped with the SystemC time, or with `clock()` when one is given (a block
  // stepped outside SystemC keeps its own time).
  explicit VcdWriter(const std::string& path, std::function<Picoseconds()> clock = nullptr);
  ~VcdWriter();
  // Declares the probes (scopes from their hierarchical names) and dumps their values now.
  void start(const std::vector<Probe*>& probes, Picoseconds now);
  void change(const Probe& p, Picoseconds now);
  // Writes the final time stamp and closes the file.
  void finish(Picoseconds now);

 private:
  void stamp(Picoseconds now);
  void value(const Probe& p);
  friend class Probe;
  std::function<Picoseconds()> clock_;
  OutputFile file_;  // renamed into place by finish()
  std::ofstream& out_;
  std::vector<Probe*> probes_;
  Picoseconds last_ = 0;
  bool finished_ = false;
};

class ProbeRegistry {
 public:
  // Declares a probe; a second one of the same name is a programming error.
  Probe& add(const std::string& name, unsigned width, const std::string& description);
  // Probes whose names match any of the globs (all when the list is empty), sorted by name.
  std::vector<Probe*> select(const std::vector<std::string>& patterns);

 private:
  std::deque<Probe> probes_;  // in declaration order (a deque: addresses stay put)
};

// A waveform of a block stepped cycle by cycle outside SystemC (a model beside its RTL): the
// signals it declares plus a clock, low at the start of each cycle, high half a period later.
class CycleVcd {
 public:
  CycleVcd(const std::string& path, Picoseconds period_ps, const std::string& clock_name = "clk");
  ~CycleVcd();
  // Declare every signal before the first low().
  Probe& signal(const std::string& name, unsigned width);
  void low();   // start of a cycle: set inputs and outputs after this
  void high();  // the rising edge: set the new state after this

 private:
  ProbeRegistry probes_;
  Probe* clk_ = nullptr;
  Picoseconds time_ = 0, half_;
  bool started_ = false;
  std::unique_ptr<VcdWriter> writer_;
  std::string path_;
};

// Bits needed to hold values 0..max.
unsigned bits_for(std::uint64_t max);

// A GTKWave save file showing the probes grouped by module (their hierarchical parent).
std::string gtkw_save_file(const std::vector<Probe*>& probes, const std::string& dumpfile = "");

}  // namespace irr::sim
