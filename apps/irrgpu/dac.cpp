// SPDX-License-Identifier: Apache-2.0
// `irrgpu dac split FILE.ptx`: the DAC decoupling pass on a PTX module's kernels — both streams
// with each instruction's class, and a summary of what was decoupled and why not. `irrgpu dac run`:
// the suite kernels (workloads/suite) as written and split, functionally, each checked against its
// CPU reference and the two against each other (docs/dac.md).
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "apps/irrgpu/commands.h"
#include "models/core/ptx/parser.h"
#include "models/dac/queues.h"
#include "models/dac/split.h"
#include "sim/error.h"
#include "workloads/suite/suite.h"

namespace irr::app {

int dac_split(const DacSplitOptions& o) {
  return guarded([&] {
    core::ptx::ExtensionRegistry extensions;
    dac::add_dac_instructions(extensions);
    std::ifstream in(o.file);
    if (!in) throw Error("cannot read " + o.file, Error::Kind::usage);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    const core::ptx::Module m = core::ptx::parse(text, o.file, &extensions);
    std::vector<std::string> lines;
    std::istringstream rows(text);
    for (std::string l; std::getline(rows, l);) lines.push_back(l);
    dac::Options options;
    options.tid_dims = o.tid_dims;
    options.max_divergent_conditions = o.max_divergent_conditions;
    options.dcrf_entries = o.dcrf_entries;
    std::size_t done = 0;
    for (const auto* k : m.kernels()) {
      if (!o.kernel.empty() && k->name != o.kernel) continue;
      if (done++) std::cout << "\n";
      const dac::Streams s = dac::split(*k, extensions, options);
      dac::print(std::cout, *k, s, lines);
    }
    if (!done) {
      std::string names;
      for (const auto* k : m.kernels()) names += (names.empty() ? "" : ", ") + k->name;
      throw Error(o.file + ": no kernel '" + o.kernel + "' (kernels: " + names + ")", Error::Kind::usage);
    }
    return 0;
  });
}

int dac_run(const DacRunOptions& o) {
  return guarded([&] {
    std::vector<const workloads::suite::Kernel*> run;
    for (const auto& name : o.kernels) run.push_back(&workloads::suite::kernel(name));
    if (run.empty())
      for (const auto& k : workloads::suite::kernels()) run.push_back(&k);
    dac::Options options;
    options.tid_dims = o.tid_dims;
    options.max_divergent_conditions = o.max_divergent_conditions;
    options.dcrf_entries = o.dcrf_entries;
    std::cout << std::left << std::setw(14) << "kernel" << std::right << std::setw(12) << "original" << std::setw(14)
              << "non-affine" << std::setw(14) << "affine/CTA" << std::setw(9) << "ratio" << "  check\n";
    int failed = 0;
    for (const auto* k : run) {
      mem::BackingStore m1, m2;
      runtime::Device plain(m1);
      workloads::suite::Launcher l1(plain);
      const auto a = k->run(l1);
      core::ptx::ExtensionRegistry registry;
      dac::Queues queues;
      dac::bind(registry, queues);
      runtime::Device split(m2, &registry);
      workloads::suite::Launcher l2(split, &registry, &queues, options);
      const auto b = k->run(l2);
      std::string check = "ok";
      if (!a.error.empty()) check = "as written: " + a.error;
      else if (!b.error.empty()) check = "split: " + b.error;
      else if (a.bytes != b.bytes) check = "split: outputs differ from the original's";
      failed += check != "ok";
      const std::uint64_t dp = l2.warp_instructions - l2.deq_instructions;
      const double ratio =
          l1.warp_instructions ? static_cast<double>(dp + l2.affine_per_cta) / static_cast<double>(l1.warp_instructions) : 0.0;
      std::cout << std::left << std::setw(14) << k->name << std::right << std::setw(12) << l1.warp_instructions
                << std::setw(14) << dp << std::setw(14) << l2.affine_per_cta << std::setw(9)
                << std::fixed << std::setprecision(2) << ratio << "  " << check << "\n";
    }
    std::cout << "warp instructions executed, functionally; non-affine: deq folded into its user (the dissertation's\n"
                 "ld.global r, deq.data); affine/CTA: one affine warp a CTA; ratio = (non-affine + affine/CTA) / original\n";
    if (failed) throw Error(std::to_string(failed) + " suite kernel" + (failed == 1 ? "" : "s") + " failed");
    return 0;
  });
}

}  // namespace irr::app
