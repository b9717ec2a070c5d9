// SPDX-License-Identifier: Apache-2.0
#include "sim/error.h"

namespace irr {

std::string Location::str() const {
  std::string s = file;
  if (line > 0) s += ":" + std::to_string(line);
  if (line > 0 && column > 0) s += ":" + std::to_string(column);
  return s;
}

}  // namespace irr
