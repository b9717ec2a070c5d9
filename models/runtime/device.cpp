// SPDX-License-Identifier: Apache-2.0
#include "models/runtime/device.h"

#include <cstring>
#include <iostream>

#include "sim/demangle.h"
#include "sim/error.h"

namespace irr::runtime {

Device::Device(mem::BackingStore& memory, const core::ptx::ExtensionRegistry* ext) : memory_(memory), ext_(ext) {}

std::uint64_t Device::malloc(std::uint64_t bytes) {
  const std::uint64_t base = heap_;
  heap_ += (std::max<std::uint64_t>(bytes, 1) + 255) / 256 * 256;
  allocations_[base] = bytes;
  return base;
}

void Device::adopt(std::uint64_t base, std::uint64_t bytes) {
  auto after = allocations_.lower_bound(base);
  const bool overlaps = (after != allocations_.end() && after->first < base + std::max<std::uint64_t>(bytes, 1)) ||
                        (after != allocations_.begin() && std::prev(after)->first + std::prev(after)->second > base);
  if (!base || overlaps) throw Error("a managed allocation at " + std::to_string(base) + " overlaps device memory already allocated");
  allocations_[base] = bytes;
}

void Device::free(std::uint64_t ptr) {
  if (!allocations_.erase(ptr)) throw Error("free of " + std::to_string(ptr) + ", which malloc did not return");
}

void Device::memcpy_to_device(std::uint64_t dst, const void* src, std::uint64_t n) {
  if (backend_) backend_->copy(n);
  memory_.write(dst, src, n);
}
void Device::memcpy_to_host(void* dst, std::uint64_t src, std::uint64_t n) {
  if (backend_) backend_->copy(n);
  memory_.read(src, dst, n);
}
void Device::memset(std::uint64_t dst, int value, std::uint64_t n) {
  std::vector<std::uint8_t> b(n, static_cast<std::uint8_t>(value));
  memory_.write(dst, b.data(), n);
}

std::size_t Device::load_module(const std::string& path) { return install(core::ptx::parse_file(path, ext_)); }

std::size_t Device::load_module_text(const std::string& text, const std::string& name, bool per_function_errors) {
  return install(core::ptx::parse(text, name, ext_, per_function_errors));
}

std::size_t Device::load_application_module(const std::string& text, const std::string& name) {
  core::ptx::Module m = core::ptx::parse(text, name, ext_, true);
  return install(rewrite_.module ? rewrite_.module(m) : std::move(m));
}

LaunchStats Device::launch_application(std::size_t module, const std::string& kernel, Dim3 grid, Dim3 block,
                                       const Args& args, std::uint32_t dynamic_shared) {
  if (rewrite_.launch)
    if (auto s = rewrite_.launch(*this, module, kernel, grid, block, args, dynamic_shared)) return *s;
  return launch(this->kernel(module, kernel), grid, block, args, dynamic_shared);
}

// Places the module's code at the next addresses (its PCs) and its global and constant variables
// in device memory, with their initialisers.
std::size_t Device::install(core::ptx::Module m) {
  auto l = std::make_unique<Loaded>();
  l->module = std::move(m);
  for (auto& f : l->module.functions)
    for (auto& in : f.code) {
      in.address = code_;
      code_ += 8;
    }
  for (const auto& v : l->module.variables) {
    std::uint64_t a = 0;
    if (v.space == core::ptx::Space::global || v.space == core::ptx::Space::constant) {
      a = malloc(v.size);
      if (!v.init.empty()) memory_.write(a, v.init.data(), v.init.size());
    }
    l->addresses.push_back(a);
  }
  modules_.push_back(std::move(l));
  return modules_.size() - 1;
}

Kernel Device::kernel(std::size_t module, const std::string& name) const {
  const auto& m = modules_.at(module)->module;
  const core::ptx::Function* f = m.find(name);
  if (!f || !f->kernel) {
    std::string names;
    for (const auto* k : m.kernels()) names += (names.empty() ? "" : ", ") + k->name;
    throw Error(m.file + ": no kernel '" + name + "' (kernels: " + names + ")", Error::Kind::usage);
  }
  return Kernel(module, f);
}

std::uint64_t Device::symbol(std::size_t module, const std::string& name) const {
  const auto& l = *modules_.at(module);
  for (std::size_t i = 0; i < l.module.variables.size(); ++i)
    if (l.module.variables[i].name == name && l.addresses[i]) return l.addresses[i];
  throw Error(l.module.file + ": no __device__ or __constant__ variable '" + name + "'", Error::Kind::usage);
}

LaunchStats Device::launch(const Kernel& k, Dim3 grid, Dim3 block, const Args& args, std::uint32_t dynamic_shared) {
  return run(k, grid, block, args, dynamic_shared, nullptr);
}

LaunchStats Device::launch_with_plan(const Kernel& k, Dim3 grid, Dim3 block, const Args& args, const CtaPlan& plan,
                                     std::uint32_t dynamic_shared) {
  if (plan.order.size() != grid.count())
    throw std::logic_error("launch_with_plan: the plan orders " + std::to_string(plan.order.size()) + " CTAs of " +
                           std::to_string(grid.count()));
  return run(k, grid, block, args, dynamic_shared, &plan);
}

LaunchStats Device::launch_from_device(const Kernel& k, Dim3 grid, Dim3 block, const Args& args,
                                       std::uint32_t dynamic_shared) {
  return run(k, grid, block, args, dynamic_shared, nullptr, true);
}

LaunchStats Device::launch_with_companion(const Kernel& k, const Kernel& companion, Dim3 grid, Dim3 block,
                                          const Args& args, std::uint32_t dynamic_shared) {
  if (companion.module_ != k.module_ || companion.f_->param_bytes != k.f_->param_bytes ||
      companion.f_->params.size() != k.f_->params.size())
    throw Error("launch of " + k.name() + " with companion " + companion.name() +
                    ": the companion must be a kernel of the same module with the same parameters",
                Error::Kind::usage);
  return run(k, grid, block, args, dynamic_shared, nullptr, false, &companion);
}

LaunchStats Device::run(const Kernel& k, Dim3 grid, Dim3 block, const Args& args, std::uint32_t dynamic_shared,
                        const CtaPlan* plan, bool from_device, const Kernel* companion) {
  const core::ptx::Function& f = *k.f_;
  if (const std::string why = modules_.at(k.module_)->module.unsupported_from(f); !why.empty())
    throw Error("kernel " + sim::demangled(f.name) + " cannot run: " + why, Error::Kind::usage);
  if (args.values().size() != f.params.size())
    throw Error("launch of " + f.name + ": " + std::to_string(args.values().size()) + " arguments for " +
                    std::to_string(f.params.size()) + " parameters",
                Error::Kind::usage);
  if (block.count() == 0 || block.count() > 1024 || grid.count() == 0)
    throw Error("launch of " + f.name + ": bad grid or block size", Error::Kind::usage);
  std::vector<std::uint8_t> params(f.param_bytes, 0);
  for (std::size_t i = 0; i < f.params.size(); ++i) {
    const auto& p = f.params[i];
    if (args.values()[i].size() != p.size)
      throw Error("launch of " + f.name + ": argument " + std::to_string(i) + " is " + std::to_string(args.values()[i].size()) +
                      " bytes, parameter " + p.name + " is " + std::to_string(p.size),
                  Error::Kind::usage);
    std::memcpy(&params[p.offset], args.values()[i].data(), p.size);
  }
  Loaded& l = *modules_.at(k.module_);
  core::LaunchContext ctx;
  ctx.module = &l.module;
  ctx.variable_address = l.addresses;
  ctx.memory = &memory_;
  ctx.extensions = ext_;
  ctx.max_instructions = max_instructions_;
  ctx.from_device = from_device;
  ctx.companion = companion ? companion->f_ : nullptr;
  ctx.printf_out = [this](const std::string& s) {
    printf_ += s;
    if (echo_) std::cout << s << std::flush;
  };
  LaunchStats st;
  const core::ptx::Resources resources = core::ptx::kernel_resources(l.module, f);
  core::GridStats g;
  if (backend_) backend_->allocated(allocations_);
  if (plan && backend_) {
    // The plan's arrays in device memory, where the CTA scheduler reads them from, for this launch.
    struct Arrays {
      Device& d;
      std::vector<std::uint64_t> at;
      ~Arrays() {
        for (const auto a : at) d.free(a);
      }
    } in_memory{*this, {}};
    for (const auto& a : plan->arrays) {
      in_memory.at.push_back(malloc(a.size));
      memcpy_to_device(in_memory.at.back(), a.bytes.data(), a.bytes.size());
    }
    g = backend_->launch_with_plan(ctx, f, grid, block, params, dynamic_shared, resources, *plan, in_memory.at);
  } else if (backend_) g = backend_->launch(ctx, f, grid, block, params, dynamic_shared, resources);
  else if (plan) g = core::run_grid(ctx, f, grid, block, params, dynamic_shared, 1, &plan->order);  // in its order
  else g = core::run_grid(ctx, f, grid, block, params, dynamic_shared, kFunctionalResidentBlocks);
  st.warp_instructions = g.warp_instructions;
  st.thread_instructions = g.thread_instructions;
  return st;
}

core::ptx::Resources Device::resources(const Kernel& k) const {
  return core::ptx::kernel_resources(modules_.at(k.module_)->module, *k.f_);
}

std::uint64_t Device::resident_blocks(const Kernel& k, Dim3 block, std::uint32_t dynamic_shared) const {
  if (block.count() == 0 || block.count() > 1024)
    throw Error("occupancy of " + k.name() + ": a block of " + std::to_string(block.count()) + " threads (1 to 1024)",
                Error::Kind::usage);
  if (!backend_) return 0;
  return backend_->resident_blocks(*k.f_, block, dynamic_shared, core::ptx::kernel_resources(modules_.at(k.module_)->module, *k.f_));
}

namespace {

template <class Map>
[[noreturn]] void unanswered(const char* what, const std::string& name, const Map& m) {
  std::string known;
  for (const auto& [n, f] : m) known += (known.empty() ? "" : ", ") + n;
  throw Error(std::string(what) + " '" + name + "': no unit answers it (" +
                  (known.empty() ? "none registered" : "registered: " + known) + ")",
              Error::Kind::usage);
}

}  // namespace

std::uint64_t Device::query(const std::string& name) const {
  auto it = queries_.find(name);
  if (it == queries_.end()) unanswered("device query", name, queries_);
  return it->second();
}

void Device::command(const std::string& name, const std::vector<std::uint64_t>& args) {
  auto it = commands_.find(name);
  if (it == commands_.end()) unanswered("device command", name, commands_);
  it->second(args);
}

}  // namespace irr::runtime
