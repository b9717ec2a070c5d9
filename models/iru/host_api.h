// SPDX-License-Identifier: Apache-2.0
// The IRU's host API [S L184] on the runtime (docs/iru.md): configure_iru names, before the kernel
// that calls load_iru, the irregularly accessed array (its base and element size, from which the
// IRU computes the lines the indices touch), the indices array, optionally a secondary array
// reordered with it, the element count, and optionally a filter for duplicates. It is the runtime
// command "iru.configure", which the IRU answers when it is attached (iru.enabled, timing mode).
#pragma once

#include <cstdint>

#include "models/runtime/device.h"

namespace irr::iru {

// Indices and positions are 24-bit [S L177]: one configure_iru takes at most this many elements.
constexpr std::uint32_t kIndexLimit = 1u << 24;

enum filter_op_t : std::uint64_t { IRU_FILTER_NONE = 0, IRU_FILTER_MIN = 1, IRU_FILTER_ADD_F32 = 2 };

inline void configure_iru(runtime::Device& d, std::uint64_t target_array, std::uint64_t target_array_data_type_size,
                          std::uint64_t indices_array, std::uint64_t secondary_array, std::uint64_t number_elements,
                          filter_op_t filter_op) {
  d.command("iru.configure",
            {target_array, target_array_data_type_size, indices_array, secondary_array, number_elements, filter_op});
}
inline void configure_iru(runtime::Device& d, std::uint64_t target_array, std::uint64_t target_array_data_type_size,
                          std::uint64_t indices_array, std::uint64_t secondary_array, std::uint64_t number_elements) {
  configure_iru(d, target_array, target_array_data_type_size, indices_array, secondary_array, number_elements,
                IRU_FILTER_NONE);
}
inline void configure_iru(runtime::Device& d, std::uint64_t target_array, std::uint64_t target_array_data_type_size,
                          std::uint64_t indices_array, std::uint64_t number_elements) {
  configure_iru(d, target_array, target_array_data_type_size, indices_array, 0, number_elements, IRU_FILTER_NONE);
}

}  // namespace irr::iru
