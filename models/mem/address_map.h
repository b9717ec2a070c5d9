// SPDX-License-Identifier: Apache-2.0
// Address interleaving over memory partitions: chunks of `granularity` bytes go round-robin to
// the partitions, optionally XOR-hashed with higher address bits to spread strided patterns.
#pragma once

#include <cstdint>

#include "sim/divide.h"

namespace irr::mem {

struct AddressMap {
  std::uint32_t partitions = 6;
  std::uint64_t granularity = 256;
  bool xor_hash = false;

  std::uint32_t partition(std::uint64_t addr) const {
    std::uint64_t chunk = sim::quotient(addr, granularity);
    if (xor_hash) chunk ^= chunk / partitions ^ chunk / (static_cast<std::uint64_t>(partitions) * partitions);
    return static_cast<std::uint32_t>(sim::remainder(chunk, partitions));
  }
  // The address within its partition's DRAM channel: the partition's chunks packed together.
  std::uint64_t local(std::uint64_t addr) const {
    return sim::quotient(addr, granularity * partitions) * granularity + sim::remainder(addr, granularity);
  }
};

}  // namespace irr::mem
