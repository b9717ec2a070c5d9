// SPDX-License-Identifier: Apache-2.0
// Apart from schema.cpp: the build's schema compiler links that file, and this one reads its output.
#include "sim/embedded.h"
#include "sim/schema.h"

namespace irr::sim {

Schema Schema::builtin() { return deserialize(compiled_schema()); }

}  // namespace irr::sim
