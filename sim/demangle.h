// SPDX-License-Identifier: Apache-2.0
// A kernel's C++ name as the program wrote it (the PTX has the mangled one); a name that is not
// mangled comes back as it is.
#pragma once

#include <cxxabi.h>

#include <cstdlib>
#include <string>

namespace irr::sim {

inline std::string demangled(const std::string& name) {
  int status = 0;
  char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  std::string out = status == 0 && d ? d : name;
  std::free(d);
  return out;
}

}  // namespace irr::sim
