// SPDX-License-Identifier: Apache-2.0
// Without libFuzzer (the gcc build): runs a fuzz target once on each file named, or on each file
// in each folder named, so its seed corpus and the inputs of every crash found and fixed stay
// tested under `make test`.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    if (fs::is_directory(argv[i])) {
      for (const auto& e : fs::recursive_directory_iterator(argv[i]))
        if (e.is_regular_file()) inputs.push_back(e.path());
    } else if (fs::exists(argv[i])) {
      inputs.push_back(argv[i]);
    } else {
      std::cerr << argv[i] << ": no such file or folder\n";
      return 2;
    }
  }
  for (const auto& p : inputs) {
    std::ifstream in(p, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::cout << p.string() << std::endl;  // the last one printed is the one that crashed
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::cout << inputs.size() << " inputs, none crashed\n";
  return inputs.empty() ? 2 : 0;
}
