// SPDX-License-Identifier: Apache-2.0
#include "models/cudart/fatbin.h"

#include <zstd.h>

#include <algorithm>
#include <cstring>

#include "sim/error.h"

namespace irr::cudart {

namespace {

template <typename T>
T at(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

constexpr std::uint16_t kPtxKind = 1;
constexpr std::uint64_t kCompressed = 1u << 15;
constexpr std::size_t kEntryBase = 64;  // the fields below; some entries carry more

}  // namespace

std::vector<Ptx> fatbin_ptx(const std::uint8_t* data, std::size_t size) {
  const std::size_t total = fatbin_size(data, size);
  if (!total) throw Error("fatbinary: no fatbinary header (magic 0xBA55ED50)");
  if (total > size) throw Error("fatbinary: the header claims " + std::to_string(total) + " bytes, " + std::to_string(size) + " given");
  std::vector<Ptx> out;
  for (std::size_t off = at<std::uint16_t>(data + 6); off + kEntryBase <= total;) {
    const std::uint8_t* e = data + off;
    const auto kind = at<std::uint16_t>(e);
    const auto header = at<std::uint32_t>(e + 4);
    const auto padded = at<std::uint32_t>(e + 8);
    const auto flags = at<std::uint64_t>(e + 40);
    // The payload's exact size is given for a compressed one; a plain one fills its padded size.
    const std::uint32_t stored = flags & kCompressed ? at<std::uint32_t>(e + 16) : padded;
    const auto arch = at<std::uint32_t>(e + 28);
    const auto plain = at<std::uint64_t>(e + 56);
    const std::string where = "fatbinary entry at byte " + std::to_string(off);
    if (header < kEntryBase || off + header + padded > total || stored > padded)
      throw Error(where + ": sizes do not fit the fatbinary");
    const std::uint8_t* payload = e + header;
    if (kind == kPtxKind) {
      Ptx p;
      p.arch = arch;
      if (flags & kCompressed) {
        if (plain > (1u << 30)) throw Error(where + ": claims " + std::to_string(plain) + " bytes of PTX");
        p.text.resize(plain);
        const std::size_t got = ZSTD_decompress(p.text.data(), p.text.size(), payload, stored);
        if (ZSTD_isError(got))
          throw Error(where + ": its PTX does not decompress (" + ZSTD_getErrorName(got) +
                      "); rebuild the program with nvcc --no-compress");
        p.text.resize(got);
      } else {
        p.text.assign(reinterpret_cast<const char*>(payload), stored);
      }
      p.text.resize(std::min(p.text.size(), p.text.find('\0')));  // padded with NULs
      out.push_back(std::move(p));
    }
    off += header + padded;
  }
  std::stable_sort(out.begin(), out.end(), [](const Ptx& a, const Ptx& b) { return a.arch > b.arch; });
  return out;
}

}  // namespace irr::cudart
