// SPDX-License-Identifier: Apache-2.0
// `irrgpu dac split FILE.ptx`: the DAC decoupling pass on a PTX module's kernels — both streams
// with each instruction's class, and a summary of what was decoupled and why not (docs/dac.md).
#include <fstream>
#include <iostream>
#include <sstream>

#include "apps/irrgpu/commands.h"
#include "models/core/ptx/parser.h"
#include "models/dac/queues.h"
#include "models/dac/split.h"
#include "sim/error.h"

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

}  // namespace irr::app
