// SPDX-License-Identifier: Apache-2.0
#include <iostream>
#include <systemc>

int sc_main(int, char**) {
  std::cout << sc_core::sc_release() << "\n";
  return 0;
}
