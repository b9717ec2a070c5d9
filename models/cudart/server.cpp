// SPDX-License-Identifier: Apache-2.0
#include "models/cudart/server.h"

#include <unistd.h>

#include <stdexcept>

#include "models/cudart/fatbin.h"
#include "models/core/occupancy.h"
#include "sim/error.h"

namespace irr::cudart {

namespace {

bool read_all(int fd, void* p, std::size_t n) {
  auto* b = static_cast<char*>(p);
  while (n) {
    const ssize_t r = ::read(fd, b, n);
    if (r <= 0) return false;
    b += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

bool write_all(int fd, const void* p, std::size_t n) {
  const auto* b = static_cast<const char*>(p);
  while (n) {
    const ssize_t w = ::write(fd, b, n);
    if (w <= 0) return false;
    b += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

runtime::Dim3 dim(Buffer& in) {
  runtime::Dim3 d;
  d.x = in.get<std::uint32_t>();
  d.y = in.get<std::uint32_t>();
  d.z = in.get<std::uint32_t>();
  return d;
}

}  // namespace

Server::Server(runtime::Device& dev, const sim::Config& config, std::function<std::uint64_t()> now)
    : dev_(dev), config_(config), now_(std::move(now)) {}

bool Server::serve(int fd) {
  for (;;) {
    std::uint32_t head[2];
    if (!read_all(fd, head, sizeof head)) return true;  // the application closed it: done
    Buffer in, out;
    in.bytes.resize(head[1]);
    if (!read_all(fd, in.bytes.data(), head[1])) return false;
    std::int32_t status;
    try {
      status = handle(static_cast<Op>(head[0]), in, out);
    } catch (const std::out_of_range& e) {
      status = kInvalidValue;
      out = Buffer();
      out.put_bytes(e.what(), std::string(e.what()).size());
    }
    const std::uint32_t size = static_cast<std::uint32_t>(out.bytes.size());
    if (!write_all(fd, &status, sizeof status) || !write_all(fd, &size, sizeof size) ||
        !write_all(fd, out.bytes.data(), out.bytes.size()))
      return false;
  }
}

unsigned Server::compute_capability() const {
  unsigned cc = 75;
  for (unsigned a : archs_) cc = std::max(cc, a);
  return cc;
}

KernelStats& Server::stats(const std::string& kernel) {
  for (auto& [name, s] : kernels_)
    if (name == kernel) return s;
  return kernels_.emplace_back(kernel, KernelStats{}).second;
}

std::int32_t Server::handle(Op op, Buffer& in, Buffer& out) {
  // A failure the application sees as a cudaError_t, and irrgpu records: the run failed.
  auto fail = [&](std::int32_t status, const std::string& why) {
    failures_.push_back(why);
    out = Buffer();
    out.put_bytes(why.data(), why.size());
    return status;
  };
  auto module = [&](std::uint32_t m) -> std::size_t {
    if (m >= modules_.size()) throw std::out_of_range("cudart: no module " + std::to_string(m));
    return modules_[m];
  };
  try {
    switch (op) {
      case Op::hello: hello_ = true; return kSuccess;
      case Op::module: {
        const std::vector<Ptx> ptx = fatbin_ptx(in.bytes.data(), in.bytes.size());
        if (ptx.empty())
          return fail(kInvalidDeviceFunction,
                      "the program carries no PTX, only machine code: rebuild it with nvcc -arch=compute_75 (or "
                      "-gencode arch=compute_XX,code=compute_XX) so that its fatbinary keeps the PTX (docs/cuda-apps.md)");
        modules_.push_back(dev_.load_application_module(ptx.front().text, "application PTX (compute_" + std::to_string(ptx.front().arch) + ")"));
        archs_.push_back(ptx.front().arch);
        out.put(static_cast<std::uint32_t>(modules_.size() - 1));
        return kSuccess;
      }
      case Op::function: {
        const std::size_t m = module(in.get<std::uint32_t>());
        const auto k = dev_.kernel(m, in.get_string());
        out.put(static_cast<std::uint32_t>(k.function().params.size()));
        for (const auto& p : k.function().params) out.put(static_cast<std::uint32_t>(p.size));
        const core::ptx::Resources r = dev_.resources(k);  // for cudaFuncGetAttributes
        out.put(static_cast<std::uint32_t>(r.registers)).put(static_cast<std::uint64_t>(r.shared_bytes)).put(static_cast<std::uint64_t>(r.local_bytes));
        out.put(static_cast<std::uint32_t>(archs_[m]));
        return kSuccess;
      }
      case Op::variable: {
        const std::size_t m = module(in.get<std::uint32_t>());
        out.put(dev_.symbol(m, in.get_string()));
        return kSuccess;
      }
      case Op::malloc: out.put(dev_.malloc(in.get<std::uint64_t>())); return kSuccess;
      case Op::free: dev_.free(in.get<std::uint64_t>()); return kSuccess;
      case Op::copy_in: {
        const auto dst = in.get<std::uint64_t>();
        const std::size_t n = in.left();
        dev_.memcpy_to_device(dst, in.get_bytes(n), n);
        return kSuccess;
      }
      case Op::copy_out: {
        const auto src = in.get<std::uint64_t>();
        std::vector<std::uint8_t> b(in.get<std::uint64_t>());
        dev_.memcpy_to_host(b.data(), src, b.size());
        out.bytes = std::move(b);
        return kSuccess;
      }
      case Op::copy_device: {
        const auto dst = in.get<std::uint64_t>(), src = in.get<std::uint64_t>();
        std::vector<std::uint8_t> b(in.get<std::uint64_t>());
        dev_.memcpy_to_host(b.data(), src, b.size());
        dev_.memcpy_to_device(dst, b.data(), b.size());
        return kSuccess;
      }
      case Op::memset: {
        const auto dst = in.get<std::uint64_t>();
        const auto v = in.get<std::uint32_t>();
        dev_.memset(dst, static_cast<int>(v), in.get<std::uint64_t>());
        return kSuccess;
      }
      case Op::launch: {
        const std::size_t m = module(in.get<std::uint32_t>());
        const std::string name = in.get_string();
        const runtime::Dim3 grid = dim(in), block = dim(in);
        const auto shared = in.get<std::uint32_t>();
        const auto k = dev_.kernel(m, name);
        runtime::Args args;
        for (const auto& p : k.function().params) {
          std::vector<std::uint8_t> b(p.size);
          std::memcpy(b.data(), in.get_bytes(p.size), p.size);
          args.raw(std::move(b));
        }
        const runtime::LaunchStats s = dev_.launch_application(m, name, grid, block, args, shared);
        KernelStats& ks = stats(name);
        ++ks.launches;
        ks.rewrite = dev_.application_note(name);
        ks.warp_instructions += s.warp_instructions;
        ks.thread_instructions += s.thread_instructions;
        ks.cycles += dev_.last_kernel_cycles();
        return kSuccess;
      }
      case Op::adopt: {
        const auto at = in.get<std::uint64_t>();
        dev_.adopt(at, in.get<std::uint64_t>());
        return kSuccess;
      }
      case Op::poke: {
        const auto dst = in.get<std::uint64_t>();
        const std::size_t n = in.left();
        dev_.memory().write(dst, in.get_bytes(n), n);
        return kSuccess;
      }
      case Op::peek: {
        const auto src = in.get<std::uint64_t>();
        out.bytes.resize(in.get<std::uint64_t>());
        dev_.memory().read(src, out.bytes.data(), out.bytes.size());
        return kSuccess;
      }
      case Op::synchronize: dev_.synchronize(); return kSuccess;
      case Op::now: out.put(static_cast<std::uint64_t>(now_ ? now_() : 0)); return kSuccess;
      case Op::attribute: {
        const auto a = in.get<std::uint32_t>();
        std::uint64_t v = 0;
        switch (a) {
          case 1: v = std::min<std::uint64_t>(1024, config_.get_uint("core.max_threads")); break;  // max threads per block
          case 2: case 3: v = 1024; break;                                                        // block x, y
          case 4: v = 64; break;                                                                  // block z
          case 5: v = 0x7fffffff; break;                                                          // grid x
          case 6: case 7: v = 65535; break;                                                       // grid y, z
          case 8: case 81: v = config_.get_size("core.shared_memory"); break;
          case 9: v = 64 * 1024; break;  // constant memory
          case 10: v = config_.get_uint("core.warp_size"); break;
          case 12: case 82: v = config_.get_uint("core.registers"); break;
          case 13: v = static_cast<std::uint64_t>(config_.get_frequency("clocks.core") / 1000); break;  // kHz
          case 16: v = config_.get_uint("gpu.num_sms"); break;
          // A copy engine and concurrent kernels, as the modelled GPUs have; the runtime still
          // completes every call in the order made (docs/cuda-apps.md).
          case 31: case 40: v = 1; break;
          case 38: v = config_.get_size("l2.size"); break;
          case 39: v = config_.get_uint("core.max_threads"); break;
          // Compute capability: the highest PTX architecture the program brought (7.5 before any),
          // so that a library compiled for it dispatches the kernels it has.
          case 75: v = compute_capability() / 10; break;
          case 76: v = compute_capability() % 10; break;
          case 106: v = config_.get_uint("core.max_ctas"); break;
          default:
            return fail(kInvalidValue, "cudaDeviceGetAttribute: attribute " + std::to_string(a) + " is not supported by irrgpu");
        }
        out.put(static_cast<std::uint32_t>(v));
        return kSuccess;
      }
      case Op::resident: {
        const std::size_t m = module(in.get<std::uint32_t>());
        const auto k = dev_.kernel(m, in.get_string());
        const runtime::Dim3 block = dim(in);
        const auto shared = in.get<std::uint32_t>();
        const std::uint64_t sms = config_.get_uint("gpu.num_sms");
        std::uint64_t per_sm = dev_.resident_blocks(k, block, shared) / std::max<std::uint64_t>(1, sms);
        if (!per_sm) {  // functional mode has no SMs: the configuration's SM limits, as an SM applies them
          const core::ptx::Resources r = dev_.resources(k);
          const std::uint64_t threads = std::max<std::uint64_t>(1, std::uint64_t{block.x} * block.y * block.z);
          per_sm = core::ctas_per_sm(core::SmCapacity::from_config(config_), {threads, r.registers, r.shared_bytes + shared});
        }
        out.put(static_cast<std::uint32_t>(per_sm));
        return kSuccess;
      }
      case Op::query: {
        const std::string name = in.get_string();
        try {
          out.put(dev_.query(name));
        } catch (const Error& e) {  // most often a unit left disabled
          const auto unit = name.substr(0, name.find('.'));
          return fail(kInvalidValue, std::string(e.what()) + "; enable the unit in the configuration (-s " + unit + ".enabled=true)");
        }
        return kSuccess;
      }
      case Op::command: {
        const std::string name = in.get_string();
        std::vector<std::uint64_t> args(in.get<std::uint32_t>());
        for (auto& a : args) a = in.get<std::uint64_t>();
        dev_.command(name, args);
        return kSuccess;
      }
      case Op::fail: {
        const std::string what(in.bytes.begin(), in.bytes.end());
        return fail(kNotSupported, what + " is not supported by irrgpu");
      }
    }
    return fail(kNotSupported, "request " + std::to_string(static_cast<unsigned>(op)) + " is not known to irrgpu");
  } catch (const Error& e) {
    return fail(op == Op::launch ? kLaunchFailure : kInvalidValue, e.what());
  }
}

}  // namespace irr::cudart
