// SPDX-License-Identifier: Apache-2.0
// `irrgpu formal`: the properties written in an RTL block (its `ifdef FORMAL` section) proved with
// yosys-smtbmc — k-induction where it closes, bounded model checking to a stated depth where it
// does not — each reported proved, bounded or failed, a failure with its counterexample as a VCD
// and a GTKWave save file (docs/rtl.md "Formal").
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace irr::app {

struct FormalOptions {
  std::string block;                  // a name from rtl/blocks.json
  std::vector<std::string> params;    // NAME=VALUE over the block's formal parameters
  unsigned depth = 0;                 // 0: the block's formal depth
  std::string solver = "z3";
  unsigned timeout = 900;             // seconds per solver call
  std::string out;                    // counterexamples here (default formal-BLOCK)
  std::string json;                   // write the report here too
  bool mutant = false;                // check the block's declared mutant instead: caught = some property fails
  bool list = false;
  bool dry_run = false;
};

// The report as JSON (what --json writes); throws irr::Error on bad input or a failed tool.
nlohmann::json formal_report(const FormalOptions& options);
int formal(const FormalOptions& options);

}  // namespace irr::app
