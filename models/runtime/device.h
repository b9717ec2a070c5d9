// SPDX-License-Identifier: Apache-2.0
// The host runtime, a public C++ API in the manner of CUDA's: device memory, copies, modules
// loaded from .ptx files, kernels by name, launches with grid, block, dynamic shared memory and
// arguments, synchronisation and device printf. This is the functional device; the timed one
// (models/gpu, a Backend) runs the same calls through the GPU model.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/core/exec/warp.h"
#include "models/core/ptx/parser.h"
#include "models/core/ptx/resources.h"
#include "models/mem/backing_store.h"
#include "sim/error.h"

namespace irr::runtime {

using core::Dim3;

class Device;

// A launch's CTAs in an order the host chose (a dependency-aware CTA scheduler's plan: DATS's
// DepLinks, models/dats/dep_graph.h). Functionally the CTAs run one at a time in `order`; on the
// timed GPU the backend's CTA scheduler must take the plan (else the launch is an error saying
// what it `needs`), reading `arrays`, which the runtime writes to device memory for the launch.
struct CtaPlan {
  virtual ~CtaPlan() = default;
  std::vector<std::uint64_t> order;  // every CTA's linear index once, each after those it waits for
  struct Array {
    std::vector<std::uint8_t> bytes;  // written at the array's start
    std::uint64_t size = 0;           // allocated (at least bytes.size())
  };
  std::vector<Array> arrays;
  std::string needs;  // what runs it on the timed GPU, for errors ("gpu.cta_scheduler: dats ...")
};

// Where launches and copies run: Device runs them functionally and at once by default; a timed
// backend (the GPU model) takes simulated time for them and must be called from a SystemC thread.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual core::GridStats launch(core::LaunchContext& ctx, const core::ptx::Function& kernel, Dim3 grid, Dim3 block,
                                 const std::vector<std::uint8_t>& params, std::uint32_t dynamic_shared,
                                 const core::ptx::Resources& resources) = 0;
  virtual void copy(std::uint64_t bytes) = 0;  // host <-> device transfer time
  // The allocations in device memory (base -> bytes) as a kernel is launched, for hardware that
  // tracks them (a region table the runtime fills at each launch [seed 004 L808]).
  virtual void allocated(const std::map<std::uint64_t, std::uint64_t>& /*base_to_bytes*/) {}
  // CTAs of this shape the whole device holds at once; 0 when it cannot say.
  virtual std::uint64_t resident_blocks(const core::ptx::Function&, Dim3 /*block*/, std::uint32_t /*dynamic_shared*/,
                                        const core::ptx::Resources&) const {
    return 0;
  }
  // Cycles of the last kernel, launch overhead excluded; 0 when it cannot say.
  virtual std::uint64_t last_kernel_cycles() const { return 0; }
  // A launch whose CTAs go in the plan's order (CtaPlan); `arrays`: where the plan's arrays are
  // in device memory, in its order.
  virtual core::GridStats launch_with_plan(core::LaunchContext&, const core::ptx::Function& kernel, Dim3, Dim3,
                                           const std::vector<std::uint8_t>&, std::uint32_t, const core::ptx::Resources&,
                                           const CtaPlan& plan, const std::vector<std::uint64_t>& /*arrays*/) {
    throw Error("launch of " + kernel.name + " with a CTA plan: this device has no CTA scheduler that takes one; run "
                "it functionally, or on the timed GPU with " + plan.needs, Error::Kind::usage);
  }
};

class Kernel {
 public:
  const std::string& name() const { return f_->name; }
  const core::ptx::Function& function() const { return *f_; }

 private:
  friend class Device;

  Kernel(std::size_t module, const core::ptx::Function* f) : module_(module), f_(f) {}
  std::size_t module_;
  const core::ptx::Function* f_;
};

// Kernel arguments, packed by the kernel's parameter list (sizes and alignment checked at launch).
class Args {
 public:
  template <typename T>
  Args& operator<<(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<std::uint8_t> b(sizeof(T));
    std::memcpy(b.data(), &v, sizeof(T));
    values_.push_back(std::move(b));
    return *this;
  }
  // One parameter's bytes as they are (a caller that has them packed already, as a CUDA launch does).
  Args& raw(std::vector<std::uint8_t> b) {
    values_.push_back(std::move(b));
    return *this;
  }
  const std::vector<std::vector<std::uint8_t>>& values() const { return values_; }

 private:
  std::vector<std::vector<std::uint8_t>> values_;
};

struct LaunchStats {
  std::uint64_t warp_instructions = 0, thread_instructions = 0;
};

class Device {
 public:
  explicit Device(mem::BackingStore& memory, const core::ptx::ExtensionRegistry* extensions = nullptr);

  std::uint64_t malloc(std::uint64_t bytes);  // 256-byte aligned, never 0
  void free(std::uint64_t ptr);
  // An allocation at an address the host chose (CUDA managed memory at the application's own
  // address); an irr::Error if it overlaps one malloc made.
  void adopt(std::uint64_t base, std::uint64_t bytes);
  void memcpy_to_device(std::uint64_t dst, const void* src, std::uint64_t bytes);
  void memcpy_to_host(void* dst, std::uint64_t src, std::uint64_t bytes);
  void memset(std::uint64_t dst, int value, std::uint64_t bytes);

  // Parses the module and places its global and constant variables in device memory.
  std::size_t load_module(const std::string& ptx_path);
  // per_function_errors: a kernel whose body cannot be read fails when launched, naming itself,
  // and the module's other kernels run (core::ptx::parse).
  std::size_t load_module_text(const std::string& text, const std::string& name, bool per_function_errors = false);
  // A module already parsed (or made by a pass over one, such as the DAC split).
  std::size_t load_module(core::ptx::Module m) { return install(std::move(m)); }
  Kernel kernel(std::size_t module, const std::string& name) const;
  // The device address of a module's __device__ or __constant__ variable (cudaGetSymbolAddress).
  std::uint64_t symbol(std::size_t module, const std::string& name) const;

  // Runs the grid to completion (functional); throws irr::Error on a fault or bad arguments.
  LaunchStats launch(const Kernel& k, Dim3 grid, Dim3 block, const Args& args, std::uint32_t dynamic_shared = 0);
  // The same launch made by a kernel on the device (a CUDA dynamic parallelism child kernel, the
  // host's program standing in for the parent's): a timed GPU charges host.device_launch_latency
  // instead of host.launch_overhead.
  LaunchStats launch_from_device(const Kernel& k, Dim3 grid, Dim3 block, const Args& args,
                                 std::uint32_t dynamic_shared = 0);
  // Each CTA also runs `companion` (a kernel of the same module with the same parameters) as its
  // companion stream (LaunchContext::companion): DAC's affine stream beside the non-affine one.
  LaunchStats launch_with_companion(const Kernel& k, const Kernel& companion, Dim3 grid, Dim3 block, const Args& args,
                                    std::uint32_t dynamic_shared = 0);
  // A launch whose CTAs go in the order `plan` gives (CtaPlan): functionally one at a time in
  // plan.order; timed, through a CTA scheduler that takes the plan, its arrays in device memory.
  LaunchStats launch_with_plan(const Kernel& k, Dim3 grid, Dim3 block, const Args& args, const CtaPlan& plan,
                               std::uint32_t dynamic_shared = 0);
  void synchronize() {}
  // How many blocks of `block` threads of this kernel the device runs at once, over all SMs (as
  // cudaOccupancyMaxActiveBlocksPerMultiprocessor times the SM count): the grid of a persistent
  // kernel. 0 when the device cannot say (functional mode: no SMs).
  std::uint64_t resident_blocks(const Kernel& k, Dim3 block, std::uint32_t dynamic_shared = 0) const;
  // Blocks the functional executor runs at once, round-robin (a block launched only when one ends).
  static constexpr std::uint32_t kFunctionalResidentBlocks = 64;
  // A kernel's registers per thread and static shared and local memory (cudaFuncGetAttributes).
  core::ptx::Resources resources(const Kernel& k) const;
  // Core cycles the last launch spent in the kernel, launch overhead excluded (what an event
  // pair around the kernel alone would time); 0 in functional mode, which has no time.
  std::uint64_t last_kernel_cycles() const { return backend_ ? backend_->last_kernel_cycles() : 0; }

  // Device printf output so far (also echoed to stdout unless disabled).
  const std::string& printf_output() const { return printf_; }
  void echo_printf(bool on) { echo_ = on; }
  void set_instruction_limit(std::uint64_t n) { max_instructions_ = n; }
  void set_backend(Backend* b) { backend_ = b; }
  // Queries units answer for the host, as cudaDeviceGetAttribute does for the device's properties:
  // a unit registers a name ("hwwl.work_remains"); query() of a name nobody registered is an
  // irr::Error naming the registered ones (for example: the variant needs a unit not enabled).
  void set_query(const std::string& name, std::function<std::uint64_t()> answer) { queries_[name] = std::move(answer); }
  std::uint64_t query(const std::string& name) const;
  // Commands units take from the host before a launch (the IRU's "iru.configure"), the same way:
  // command() of a name nobody registered is an irr::Error naming the registered ones.
  void set_command(const std::string& name, std::function<void(const std::vector<std::uint64_t>&)> run) {
    commands_[name] = std::move(run);
  }
  void command(const std::string& name, const std::vector<std::uint64_t>& args);
  mem::BackingStore& memory() { return memory_; }

  // A unit's rewrite of an unmodified application's modules (irrgpu exec), registered the same way
  // (DAC's decoupling pass: models/gpu/dac_gpu.cpp): `module` gives the module to install for one
  // as parsed; `launch` launches a kernel of an installed module its own way, or gives nothing
  // for a kernel it left as written; `note` says what it did to a kernel (for the kernel table).
  struct ApplicationRewrite {
    std::function<core::ptx::Module(const core::ptx::Module&)> module;
    std::function<std::optional<LaunchStats>(Device&, std::size_t module, const std::string& kernel, Dim3 grid,
                                             Dim3 block, const Args& args, std::uint32_t dynamic_shared)>
        launch;
    std::function<std::string(const std::string& kernel)> note;
  };
  void set_application_rewrite(ApplicationRewrite r) { rewrite_ = std::move(r); }
  // An application's module (per-function errors, as load_module_text), through the rewrite if
  // one is registered; and a launch of one of its kernels, the same.
  std::size_t load_application_module(const std::string& text, const std::string& name);
  LaunchStats launch_application(std::size_t module, const std::string& kernel, Dim3 grid, Dim3 block,
                                 const Args& args, std::uint32_t dynamic_shared = 0);
  std::string application_note(const std::string& kernel) const { return rewrite_.note ? rewrite_.note(kernel) : ""; }

 private:
  LaunchStats run(const Kernel& k, Dim3 grid, Dim3 block, const Args& args, std::uint32_t dynamic_shared,
                  const CtaPlan* plan, bool from_device = false, const Kernel* companion = nullptr);
  mem::BackingStore& memory_;
  const core::ptx::ExtensionRegistry* ext_;
  struct Loaded {
    core::ptx::Module module;
    std::vector<std::uint64_t> addresses;
  };
  std::size_t install(core::ptx::Module m);
  std::vector<std::unique_ptr<Loaded>> modules_;
  std::map<std::uint64_t, std::uint64_t> allocations_;  // base -> size
  std::map<std::string, std::function<std::uint64_t()>> queries_;
  std::map<std::string, std::function<void(const std::vector<std::uint64_t>&)>> commands_;
  ApplicationRewrite rewrite_;
  std::uint64_t heap_ = 0x10000000;
  std::uint64_t code_ = 0x1000;  // the next instruction's address (Instruction::address)
  std::string printf_;
  bool echo_ = true;
  std::uint64_t max_instructions_ = core::LaunchContext().max_instructions;
  Backend* backend_ = nullptr;
};

}  // namespace irr::runtime
