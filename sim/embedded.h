// SPDX-License-Identifier: Apache-2.0
// Text files compiled into the binary (configuration schema, presets): see cmake/EmbedFiles.cmake.
#pragma once

#include <string>
#include <vector>

namespace irr::sim {

struct EmbeddedFile {
  std::string path;  // relative to the source tree, e.g. "configs/gtx480.yaml"
  std::string text;
};

std::vector<EmbeddedFile> schema_files();  // every folder's schema.yaml
std::vector<EmbeddedFile> preset_files();  // configs/*.yaml
const char* compiled_schema();             // schema_files() as the build parsed them: Schema::serialize()

}  // namespace irr::sim
