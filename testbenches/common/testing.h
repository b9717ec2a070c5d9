// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the tests: configurations from inline YAML, temporary files, running the CLI.
#pragma once

#include <string>
#include <vector>

#include "sim/config.h"

namespace irr::testing {

// A temporary directory removed when the object goes.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  // Writes `text` to path()/name and returns the full path.
  std::string write(const std::string& name, const std::string& text) const;

 private:
  std::string path_;
};

std::string read_file(const std::string& path);

// The built-in schema and configuration with `sets` ("key=value") applied as from --set.
sim::Config make_config(const std::vector<std::string>& sets = {}, const std::string& preset = "");

struct CliResult {
  int exit_code;
  std::string out, err;
};
// Runs the irrgpu command line with these arguments (each shell-quoted).
CliResult run_cli(const std::vector<std::string>& args);

}  // namespace irr::testing
