// SPDX-License-Identifier: Apache-2.0
#include "sim/probe.h"

#include <algorithm>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "sim/clock.h"
#include "sim/error.h"
#include "sim/stats.h"

namespace irr::sim {
namespace {

std::vector<std::string> split_name(const std::string& name) {
  std::vector<std::string> parts;
  std::stringstream ss(name);
  for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
  return parts;
}

std::string vcd_code(std::size_t index) {
  std::string code;
  do {
    code += static_cast<char>(33 + index % 94);
    index /= 94;
  } while (index);
  return code;
}

std::string bits(std::uint64_t v, unsigned width) {
  std::string s;
  for (int i = static_cast<int>(width) - 1; i >= 0; --i) s += ((v >> i) & 1) ? '1' : '0';
  return s;
}

std::string range(const Probe& p) { return p.width() > 1 ? "[" + std::to_string(p.width() - 1) + ":0]" : ""; }

}  // namespace

Probe::Probe(std::string name, unsigned width, std::string description)
    : width_(width), names_(std::make_unique<Names>(Names{std::move(name), std::move(description), {}})) {
  if (width_ == 0 || width_ > 64) throw std::logic_error("probe " + this->name() + ": width must be 1..64 bits");
}

void Probe::out_of_range(std::uint64_t v) const {
  throw std::logic_error("probe " + name() + ": value " + std::to_string(v) + " does not fit in " +
                         std::to_string(width_) + " bits");
}

void Probe::record() { sink_->change(*this, sink_->clock_ ? sink_->clock_() : now_ps()); }

unsigned bits_for(std::uint64_t max) {
  unsigned b = 1;
  while (b < 64 && (max >> b)) ++b;
  return b;
}

VcdWriter::VcdWriter(const std::string& path, std::function<Picoseconds()> clock)
    : clock_(std::move(clock)), file_(path, "VCD file"), out_(file_.stream()) {}

VcdWriter::~VcdWriter() {
  for (Probe* p : probes_) p->sink_ = nullptr;
}

void VcdWriter::start(const std::vector<Probe*>& probes, Picoseconds now) {
  probes_ = probes;
  out_ << "$date irrgpu $end\n$version irrgpu probes $end\n$timescale 1ps $end\n";
  std::vector<std::string> open;
  for (std::size_t i = 0; i < probes_.size(); ++i) {
    Probe& p = *probes_[i];
    p.names_->code = vcd_code(i);
    p.sink_ = this;
    std::vector<std::string> parts = split_name(p.name());
    std::size_t common = 0;
    while (common < open.size() && common + 1 < parts.size() && open[common] == parts[common]) ++common;
    for (; open.size() > common; open.pop_back()) out_ << "$upscope $end\n";
    for (; open.size() + 1 < parts.size(); open.push_back(parts[open.size()]))
      out_ << "$scope module " << parts[open.size()] << " $end\n";
    out_ << "$var wire " << p.width() << " " << p.names_->code << " " << parts.back() << (p.width() > 1 ? " " + range(p) : "")
         << " $end\n";
  }
  for (; !open.empty(); open.pop_back()) out_ << "$upscope $end\n";
  out_ << "$enddefinitions $end\n#" << now << "\n$dumpvars\n";
  for (Probe* p : probes_) value(*p);
  out_ << "$end\n";
  last_ = now;
}

void VcdWriter::stamp(Picoseconds now) {
  if (now != last_) {
    out_ << "#" << now << "\n";
    last_ = now;
  }
}

void VcdWriter::value(const Probe& p) {
  if (p.width() == 1) out_ << (p.value() ? '1' : '0') << p.names_->code << "\n";
  else out_ << "b" << bits(p.value(), p.width()) << " " << p.names_->code << "\n";
}

void VcdWriter::change(const Probe& p, Picoseconds now) {
  stamp(now);
  value(p);
}

void VcdWriter::finish(Picoseconds now) {
  if (finished_) return;
  finished_ = true;
  stamp(now);
  for (Probe* p : probes_) p->sink_ = nullptr;
  file_.commit();
}

CycleVcd::CycleVcd(const std::string& path, Picoseconds period_ps, const std::string& clock_name)
    : half_(period_ps / 2 ? period_ps / 2 : 1),
      writer_(std::make_unique<VcdWriter>(path, [this] { return time_; })),
      path_(path) {
  clk_ = &probes_.add(clock_name, 1, "clock");
}

CycleVcd::~CycleVcd() {
  try {
    if (started_) writer_->finish(time_);
  } catch (const std::exception& e) {  // a destructor must not throw
    std::cerr << "irrgpu: error: " << e.what() << "\n";
  }
}

Probe& CycleVcd::signal(const std::string& name, unsigned width) { return probes_.add(name, width, ""); }

void CycleVcd::low() {
  if (!started_) {
    started_ = true;
    writer_->start(probes_.select({}), 0);
  } else {
    time_ += half_;
  }
  clk_->set(0);
}

void CycleVcd::high() {
  time_ += half_;
  clk_->set(1);
}

Probe& ProbeRegistry::add(const std::string& name, unsigned width, const std::string& description) {
  for (const auto& p : probes_)
    if (p.name() == name) throw std::logic_error("probe '" + name + "' declared twice");
  return probes_.emplace_back(name, width, description);
}

std::vector<Probe*> ProbeRegistry::select(const std::vector<std::string>& patterns) {
  std::vector<Probe*> out;
  for (auto& p : probes_) {
    bool match = patterns.empty();
    for (const auto& pat : patterns) match = match || glob_match(pat, p.name());
    if (match) out.push_back(&p);
  }
  // Ordered by hierarchy, so that every scope's probes are contiguous.
  std::sort(out.begin(), out.end(), [](const Probe* a, const Probe* b) { return split_name(a->name()) < split_name(b->name()); });
  return out;
}

std::string gtkw_save_file(const std::vector<Probe*>& probes, const std::string& dumpfile) {
  std::ostringstream s;
  s << "[*] GTKWave save file generated by irrgpu (irrgpu gtkw); open with: gtkwave DUMP.vcd THIS.gtkw\n";
  if (!dumpfile.empty()) s << "[dumpfile] \"" << dumpfile << "\"\n";
  s << "[timestart] 0\n[sst_expanded] 1\n[signals_width] 320\n";
  std::string group;
  for (const Probe* p : probes) {
    std::string module = p->name().substr(0, p->name().rfind('.'));
    if (module != group) {
      if (!group.empty()) s << "@1000200\n-" << group << "\n";
      group = module;
      s << "@800200\n-" << group << "\n";
    }
    s << (p->width() == 1 ? "@28\n" : "@24\n") << p->name() << range(*p) << "\n";
  }
  if (!group.empty()) s << "@1000200\n-" << group << "\n";
  return s.str();
}

}  // namespace irr::sim
