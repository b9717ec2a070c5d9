// SPDX-License-Identifier: Apache-2.0
// The one error type for bad input: it names where (file:line:col, key path) and why.
#pragma once

#include <stdexcept>
#include <string>

namespace irr {

// Where a piece of input came from: a file position, a command-line argument, or a key path.
struct Location {
  std::string file;  // file name, "--set", "<default>", ...
  int line = 0;      // 1-based; 0 when unknown
  int column = 0;    // 1-based; 0 when unknown

  std::string str() const;
  bool empty() const { return file.empty(); }
};

class Error : public std::runtime_error {
 public:
  enum class Kind { usage, config, simulation, interrupted };

  explicit Error(const std::string& why, Kind kind = Kind::simulation)
      : std::runtime_error(why), kind_(kind) {}
  Error(const Location& where, const std::string& why, Kind kind = Kind::simulation)
      : std::runtime_error(where.empty() ? why : where.str() + ": " + why), kind_(kind) {}

  Kind kind() const { return kind_; }
  // Process exit code the command line uses for this error: 2 usage/config, 1 simulation,
  // 130 interrupted (the shell's code for a process ended by Ctrl-C).
  int exit_code() const {
    return kind_ == Kind::simulation ? 1 : kind_ == Kind::interrupted ? 130 : 2;
  }

 private:
  Kind kind_;
};

// Bad configuration: exit code 2.
inline Error config_error(const Location& where, const std::string& why) {
  return Error(where, why, Error::Kind::config);
}

}  // namespace irr
