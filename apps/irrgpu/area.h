// SPDX-License-Identifier: Apache-2.0
// `irrgpu area`: Yosys synthesis of an RTL block with the project's 45 nm-class liberty, the
// first-order SRAM model for its memories, and ABC's critical path (docs/rtl.md).
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace irr::app {

struct AreaOptions {
  std::string block;                       // a name from rtl/blocks.json, or empty with top/sources
  std::string top;
  std::vector<std::string> sources;
  std::vector<std::string> params;         // NAME=VALUE overrides
  std::string json;                        // write the report here too
  bool list = false;
  bool dry_run = false;                    // check the block, sources and parameters; synthesise nothing
};

// The report as JSON (what --json writes); throws irr::Error on bad input or a failed synthesis.
nlohmann::json area_report(const AreaOptions& options);
int area(const AreaOptions& options);

// A file's text and a JSON file, errors naming the file (shared by the RTL commands).
std::string slurp(const std::filesystem::path& p);
nlohmann::json load_json(const std::filesystem::path& p);
// A block's entry in rtl/blocks.json; a usage error listing the blocks when there is none.
const nlohmann::json& rtl_block(const nlohmann::json& blocks, const std::string& name);

// Where rtl/ is: $IRRGPU_RTL_DIR, the installed share/irrgpu/rtl, or the source tree.
std::string rtl_dir();

}  // namespace irr::app
