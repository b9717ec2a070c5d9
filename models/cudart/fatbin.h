// SPDX-License-Identifier: Apache-2.0
// The PTX an nvcc-built program carries in its fatbinary (the .nv_fatbin section that
// __cudaRegisterFatBinary is handed): a 16-byte header (magic 0xBA55ED50, version, size of what
// follows), then entries, each a header (kind 1 = PTX, 2 = ELF; its own size; the payload's padded
// and, when compressed, exact sizes; the virtual architecture; flags, bit 15 = compressed; the
// uncompressed size)
// and its payload, zstd-compressed unless the program was built with --no-compress.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace irr::cudart {

constexpr std::uint32_t kFatbinMagic = 0xBA55ED50u;
constexpr std::uint32_t kFatbinWrapperMagic = 0x466243B1u;  // __fatBinC_Wrapper_t, which points at the fatbinary

struct Ptx {
  unsigned arch = 0;  // 75 for compute_75
  std::string text;
};

// The whole fatbinary's size from its header (16 + the size it gives); 0 when `data` does not
// start with the magic.
inline std::size_t fatbin_size(const std::uint8_t* data, std::size_t available) {
  std::uint32_t magic;
  std::uint64_t size;
  if (available < 16) return 0;
  std::memcpy(&magic, data, 4);
  std::memcpy(&size, data + 8, 8);
  return magic == kFatbinMagic ? 16 + static_cast<std::size_t>(size) : 0;
}
// Every PTX entry, decompressed, highest architecture first. Throws irr::Error naming what is
// malformed; an empty result means the program carries no PTX (only machine code).
std::vector<Ptx> fatbin_ptx(const std::uint8_t* data, std::size_t size);

}  // namespace irr::cudart
