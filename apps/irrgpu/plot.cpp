// SPDX-License-Identifier: Apache-2.0
// `irrgpu plot`: the plotting is Python (apps/irrgpu/plot.py, matplotlib); this hands it the
// arguments, with Debian's python3, where python3-matplotlib is installed.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <iostream>

#include "apps/irrgpu/commands.h"

namespace irr::app {

int plot(const std::vector<std::string>& args) {
  const std::string script = std::string(IRRGPU_SOURCE_DIR) + "/apps/irrgpu/plot.py";
  if (!std::filesystem::exists(script)) {
    std::cerr << "irrgpu: error: " << script << ": the plotting script is missing (irrgpu plot runs it from the source tree)\n";
    return 2;
  }
  const std::string python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  std::vector<std::string> words = {python, script};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  std::cerr << "irrgpu: error: cannot run " << python << ": " << std::strerror(errno) << "\n";
  return 2;
}

}  // namespace irr::app
