// SPDX-License-Identifier: Apache-2.0
// irrgpu's side of an application's CUDA runtime calls (`irrgpu exec`, docs/cuda-apps.md): each
// request from the application's libcudart.so.13 (protocol.h) done on a runtime::Device —
// functional, or the timed GPU's — in the order the application makes them. Its modules come from
// the application's fatbinaries (the PTX they carry); units enabled in the configuration run
// their instructions from the application's inline asm like any other kernel's.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "models/cudart/protocol.h"
#include "models/runtime/device.h"
#include "sim/config.h"

namespace irr::cudart {

struct KernelStats {
  std::uint64_t launches = 0, warp_instructions = 0, thread_instructions = 0, cycles = 0;
  std::string rewrite;  // what a unit's rewrite did to it (runtime::Device::application_note); empty: none
};

class Server {
 public:
  // `now`: the simulated time in ps (functional: none). `config` answers device attributes.
  Server(runtime::Device& dev, const sim::Config& config, std::function<std::uint64_t()> now = {});
  // Answers requests on `fd` until the application closes it (exits). Returns false if the
  // connection broke mid-message.
  bool serve(int fd);
  // Per kernel, in the order of their first launch.
  const std::vector<std::pair<std::string, KernelStats>>& kernels() const { return kernels_; }
  // What went wrong on the device (a fault in a kernel, an unsupported call): the run failed
  // even if the application did not check.
  const std::vector<std::string>& failures() const { return failures_; }
  bool connected() const { return hello_; }

 private:
  // One request's answer: the status and the payload (a message when the status is an error).
  std::int32_t handle(Op op, Buffer& in, Buffer& out);
  unsigned compute_capability() const;
  KernelStats& stats(const std::string& kernel);

  runtime::Device& dev_;
  const sim::Config& config_;
  std::function<std::uint64_t()> now_;
  std::vector<std::size_t> modules_;  // the application's, in registration order: Device modules
  std::vector<unsigned> archs_;  // each module's PTX architecture (75 for compute_75)
  std::vector<std::pair<std::string, KernelStats>> kernels_;
  std::vector<std::string> failures_;
  bool hello_ = false;
};

}  // namespace irr::cudart
