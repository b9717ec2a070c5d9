// SPDX-License-Identifier: Apache-2.0
// `irrgpu area`: Yosys synthesis of an RTL block with the project's 45 nm-class liberty (or the
// user's), the first-order SRAM model for its memories, ABC's critical path, and with --sta
// OpenSTA's setup check at the preset's clock (docs/rtl.md).
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
  std::string liberty;                     // the user's liberty (default: rtl/lib/irrgpu45.lib); implies sta
  bool sta = false;                        // OpenSTA's setup check of the mapped netlist
  std::string clock;                       // the clock for STA ("1.27GHz"; default: the block's preset's core clock)
  std::string preset;                      // the preset whose clocks.core STA uses (default: the block's)
  unsigned paths = 5;                      // worst paths listed
};

// The report as JSON (what --json writes); throws irr::Error on bad input or a failed synthesis.
nlohmann::json area_report(const AreaOptions& options);
int area(const AreaOptions& options);

// A file's text and a JSON file, errors naming the file (shared by the RTL commands).
std::string slurp(const std::filesystem::path& p);
nlohmann::json load_json(const std::filesystem::path& p);
// A temporary folder (/tmp/PREFIX-XXXXXX), removed with its contents when this goes.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};
// Whether a program is on the PATH; require_tool: an error naming a missing one, "WHAT is not
// installed (make deps)".
bool have_tool(const std::string& command);
void require_tool(const std::string& command, const std::string& what);
// --param NAME=VALUE overrides over a block's parameters (a usage error for a bad one).
void override_params(std::map<std::string, std::string>& params, const std::vector<std::string>& overrides);
// A block's entry in rtl/blocks.json; a usage error listing the blocks when there is none.
const nlohmann::json& rtl_block(const nlohmann::json& blocks, const std::string& name);

// Where rtl/ is: $IRRGPU_RTL_DIR, the installed share/irrgpu/rtl, or the source tree.
std::string rtl_dir();

}  // namespace irr::app
