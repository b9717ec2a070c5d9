// SPDX-License-Identifier: Apache-2.0
// irrgpu's libcudart.so.13: the CUDA runtime API's C ABI as nvcc-generated host code and
// applications call it, forwarding every call over the socket `irrgpu exec` opened
// (IRRGPU_CUDART_FD) to the simulated GPU there (models/cudart/server.h). It holds no simulator:
// only the application's registrations (fatbinaries, kernels, variables), launch configurations,
// streams, events and the sticky error. A function it does not define is not here at all, so the
// dynamic linker stops the application naming it (docs/cuda-apps.md).
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "models/cudart/fatbin.h"
#include "models/cudart/protocol.h"

using irr::cudart::Buffer;
using irr::cudart::Op;

extern "C" {
struct dim3 {
  unsigned x, y, z;
};
struct uint3 {
  unsigned x, y, z;
};
typedef int cudaError_t;
typedef void* cudaStream_t;
typedef void* cudaEvent_t;
typedef void* cudaKernel_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
                      cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };
// The CUDA 13 layouts of the structures these calls take (checked against the toolkit's headers
// by testbenches/cuda/runtime_calls.cu).
struct cudaPos {
  std::size_t x, y, z;
};
struct cudaExtent {
  std::size_t width, height, depth;
};
struct cudaPitchedPtr {
  void* ptr;
  std::size_t pitch, xsize, ysize;
};
struct cudaMemcpy3DParms {
  void* srcArray;
  cudaPos srcPos;
  cudaPitchedPtr srcPtr;
  void* dstArray;
  cudaPos dstPos;
  cudaPitchedPtr dstPtr;
  cudaExtent extent;
  int kind;
};
struct cudaLaunchConfig_t {
  dim3 gridDim, blockDim;
  std::size_t dynamicSmemBytes;
  cudaStream_t stream;
  void* attrs;
  unsigned numAttrs;
};
struct cudaPointerAttributes {
  int type;  // cudaMemoryType: 0 unregistered, 1 host, 2 device, 3 managed
  int device;
  void* devicePointer;
  void* hostPointer;
};
typedef void (*cudaHostFn_t)(void*);
typedef void (*cudaStreamCallback_t)(cudaStream_t, cudaError_t, void*);
}

namespace {

struct Kernel {
  std::uint32_t module;
  std::string name;
  bool known = false;
  std::vector<std::uint32_t> params;  // each parameter's size
  std::uint32_t registers = 0;        // per thread, and static shared and local bytes
  std::uint64_t shared = 0, local = 0;
  std::uint32_t arch = 75;            // its module's PTX architecture
};
struct Variable {
  std::uint32_t module;
  std::string name;
  std::uint64_t address = 0;
};
struct Launch {
  dim3 grid, block;
  std::size_t shared;
  void* stream;
};

struct Runtime {
  int fd = -1;
  std::mutex lock;
  std::map<const void*, Kernel> kernels;       // by the host stub's address
  std::map<const void*, Variable> variables;   // by the host shadow's address
  std::vector<Launch> configs;                 // <<<...>>> pushed, not yet popped
  cudaError_t error = 0;                       // sticky until cudaGetLastError
  std::map<const void*, std::uint64_t> events;  // recorded time, ps
  std::string message;                          // the last error's text from irrgpu
  // Device allocations (cudaMalloc) and managed ones (cudaMallocManaged), base -> bytes. Managed
  // memory is host memory at the same address in the device's memory: the host's copy is sent
  // before each launch and the device's brought back after it, without simulated time.
  std::map<std::uint64_t, std::uint64_t> device, managed;

  Runtime() {
    const char* env = std::getenv("IRRGPU_CUDART_FD");
    if (!env) {
      std::fprintf(stderr, "irrgpu: this libcudart.so.13 is irrgpu's CUDA runtime: run the program with `irrgpu exec -- PROGRAM` (docs/cuda-apps.md)\n");
      std::_Exit(2);
    }
    fd = std::atoi(env);
    call(Op::hello, Buffer());
  }

  static void io(bool ok) {
    if (ok) return;
    std::fprintf(stderr, "irrgpu: the CUDA runtime lost its connection to irrgpu\n");
    std::_Exit(1);
  }
  static void write_all(int fd, const void* p, std::size_t n) {
    const auto* b = static_cast<const char*>(p);
    while (n) {
      const ssize_t w = ::write(fd, b, n);
      io(w > 0);
      b += w;
      n -= static_cast<std::size_t>(w);
    }
  }
  static void read_all(int fd, void* p, std::size_t n) {
    auto* b = static_cast<char*>(p);
    while (n) {
      const ssize_t r = ::read(fd, b, n);
      io(r > 0);
      b += r;
      n -= static_cast<std::size_t>(r);
    }
  }

  // One request and its answer; the status becomes the sticky error when it is one.
  cudaError_t call(Op op, const Buffer& request, Buffer* answer = nullptr) {
    const std::uint32_t head[2] = {static_cast<std::uint32_t>(op), static_cast<std::uint32_t>(request.bytes.size())};
    write_all(fd, head, sizeof head);
    write_all(fd, request.bytes.data(), request.bytes.size());
    std::int32_t status;
    std::uint32_t size;
    read_all(fd, &status, sizeof status);
    read_all(fd, &size, sizeof size);
    Buffer got;
    got.bytes.resize(size);
    read_all(fd, got.bytes.data(), size);
    if (status) {
      error = status;
      message.assign(got.bytes.begin(), got.bytes.end());
    } else if (answer) {
      *answer = std::move(got);
    }
    return status;
  }

  Kernel* kernel(const void* stub) {
    auto it = kernels.find(stub);
    if (it == kernels.end()) return nullptr;
    Kernel& k = it->second;
    if (!k.known) {
      Buffer a;
      if (call(Op::function, Buffer().put(k.module).put_string(k.name), &a)) return nullptr;
      const auto n = a.get<std::uint32_t>();
      for (std::uint32_t i = 0; i < n; ++i) k.params.push_back(a.get<std::uint32_t>());
      k.registers = a.get<std::uint32_t>();
      k.shared = a.get<std::uint64_t>();
      k.local = a.get<std::uint64_t>();
      k.arch = a.get<std::uint32_t>();
      k.known = true;
    }
    return &k;
  }

  cudaError_t launch(const void* stub, dim3 grid, dim3 block, void** args, std::size_t shared) {
    Kernel* k = kernel(stub);
    if (!k) return error ? error : (error = irr::cudart::kInvalidDeviceFunction);
    Buffer b;
    b.put(k->module).put_string(k->name).put(grid).put(block).put(static_cast<std::uint32_t>(shared));
    for (std::size_t i = 0; i < k->params.size(); ++i) b.put_bytes(args[i], k->params[i]);
    for (const auto& [base, n] : managed)
      if (const cudaError_t e = call(Op::poke, Buffer().put(base).put_bytes(reinterpret_cast<const void*>(base), n))) return e;
    const cudaError_t e = call(Op::launch, b);
    for (const auto& [base, n] : managed) {
      Buffer a;
      if (!call(Op::peek, Buffer().put(base).put(n), &a)) std::memcpy(reinterpret_cast<void*>(base), a.get_bytes(n), n);
    }
    return e;
  }

  // Whether p lies in device memory (a cudaMalloc'd block), as unified addressing tells.
  bool on_device(const void* p) const {
    const auto a = reinterpret_cast<std::uint64_t>(p);
    auto it = device.upper_bound(a);
    return it != device.begin() && a < std::prev(it)->first + std::max<std::uint64_t>(std::prev(it)->second, 1);
  }
  bool is_managed(const void* p) const {
    const auto a = reinterpret_cast<std::uint64_t>(p);
    auto it = managed.upper_bound(a);
    return it != managed.begin() && a < std::prev(it)->first + std::prev(it)->second;
  }

  std::uint64_t address(const void* symbol) {
    auto it = variables.find(symbol);
    if (it == variables.end()) return 0;
    Variable& v = it->second;
    if (!v.address) {
      Buffer a;
      if (!call(Op::variable, Buffer().put(v.module).put_string(v.name), &a)) v.address = a.get<std::uint64_t>();
    }
    return v.address;
  }
};

Runtime& rt() {
  static Runtime r;
  return r;
}

// A copy between host and device memory. Which side each pointer is on comes from the kind or,
// with cudaMemcpyDefault, from where it was allocated (unified addressing); managed memory is the
// host's copy between launches, so a copy to or from it is a host-side one.
cudaError_t copy_locked(Runtime& r, void* dst, const void* src, std::size_t n, int kind) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return r.error = irr::cudart::kInvalidValue;
  if (!n) return 0;
  const bool from_device = (kind == cudaMemcpyDefault ? r.on_device(src) : kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice) && !r.is_managed(src);
  const bool to_device = (kind == cudaMemcpyDefault ? r.on_device(dst) : kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice) && !r.is_managed(dst);
  const auto d = reinterpret_cast<std::uint64_t>(dst), s = reinterpret_cast<std::uint64_t>(src);
  if (!from_device && !to_device) {
    std::memmove(dst, src, n);
    return 0;
  }
  if (!from_device) return r.call(Op::copy_in, Buffer().put(d).put_bytes(src, n));
  if (to_device) return r.call(Op::copy_device, Buffer().put(d).put(s).put(static_cast<std::uint64_t>(n)));
  Buffer a;
  const cudaError_t e = r.call(Op::copy_out, Buffer().put(s).put(static_cast<std::uint64_t>(n)), &a);
  if (!e) std::memcpy(dst, a.get_bytes(n), n);
  return e;
}

cudaError_t copy(void* dst, const void* src, std::size_t n, int kind) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  return copy_locked(r, dst, src, n, kind);
}

// Rows of `width` bytes, `height` x `depth` of them, each side with its own pitch.
cudaError_t copy_rows(char* dst, std::size_t dpitch, std::size_t dslice, const char* src, std::size_t spitch,
                      std::size_t sslice, std::size_t width, std::size_t height, std::size_t depth, int kind) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  if (width > dpitch || width > spitch) return r.error = irr::cudart::kInvalidValue;
  for (std::size_t z = 0; z < depth; ++z)
    for (std::size_t y = 0; y < height; ++y)
      if (const cudaError_t e = copy_locked(r, dst + z * dslice + y * dpitch, src + z * sslice + y * spitch, width, kind)) return e;
  return 0;
}

cudaError_t set_locked(Runtime& r, void* ptr, int value, std::size_t n) {
  if (r.is_managed(ptr)) {
    std::memset(ptr, value, n);
    return 0;
  }
  return r.call(Op::memset, Buffer().put(reinterpret_cast<std::uint64_t>(ptr)).put(static_cast<std::uint32_t>(value)).put(static_cast<std::uint64_t>(n)));
}

// What irrgpu does not provide for an application it does run: the call fails, naming itself.
cudaError_t unsupported(const std::string& what) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  return r.call(Op::fail, Buffer().put_bytes(what.data(), what.size()));
}

}  // namespace

extern "C" {

// --- what nvcc's generated host code calls ---
void** __cudaRegisterFatBinary(void* wrapper) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  const auto* w = static_cast<const std::uint32_t*>(wrapper);
  const std::uint8_t* data = nullptr;
  if (w[0] == irr::cudart::kFatbinWrapperMagic) std::memcpy(&data, static_cast<const char*>(wrapper) + 8, sizeof data);
  const std::size_t size = data ? irr::cudart::fatbin_size(data, 16) : 0;
  Buffer a;
  if (!size) {
    std::fprintf(stderr, "irrgpu: the program's fatbinary is not one irrgpu can read\n");
    std::_Exit(2);
  }
  if (r.call(Op::module, Buffer().put_bytes(data, size), &a)) std::_Exit(2);  // irrgpu exec says why
  auto* handle = new void*;
  *handle = reinterpret_cast<void*>(static_cast<std::uintptr_t>(a.get<std::uint32_t>()));
  return handle;
}

void __cudaRegisterFatBinaryEnd(void**) {}
void __cudaUnregisterFatBinary(void**) {}
char __cudaInitModule(void**) { return 1; }

void __cudaRegisterFunction(void** handle, const char* stub, char*, const char* name, int, uint3*, uint3*, dim3*, dim3*,
                            int*) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  Kernel k;
  k.module = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(*handle));
  k.name = name;
  r.kernels[stub] = std::move(k);
}

void __cudaRegisterVar(void** handle, char* shadow, char*, const char* name, int, std::size_t, int, int) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  Variable v;
  v.module = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(*handle));
  v.name = name;
  r.variables[shadow] = std::move(v);
}

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, std::size_t shared, void* stream) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  r.configs.push_back({grid, block, shared, stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, std::size_t* shared, void* stream) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  if (r.configs.empty()) return irr::cudart::kInvalidValue;
  const Launch l = r.configs.back();
  r.configs.pop_back();
  *grid = l.grid;
  *block = l.block;
  *shared = l.shared;
  *static_cast<void**>(stream) = l.stream;
  return 0;
}

cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* stub) {
  *kernel = const_cast<void*>(stub);  // the stub's address names the kernel
  return 0;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, std::size_t shared, cudaStream_t) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  return r.launch(kernel, grid, block, args, shared);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, std::size_t shared,
                                    cudaStream_t stream) {
  return __cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, std::size_t shared, cudaStream_t stream) {
  return __cudaLaunchKernel(const_cast<void*>(func), grid, block, args, shared, stream);
}

// --- memory ---
cudaError_t cudaMalloc(void** ptr, std::size_t size) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  Buffer a;
  const cudaError_t e = r.call(Op::malloc, Buffer().put(static_cast<std::uint64_t>(size)), &a);
  *ptr = e ? nullptr : reinterpret_cast<void*>(a.get<std::uint64_t>());
  if (!e) r.device[reinterpret_cast<std::uint64_t>(*ptr)] = size;
  return e;
}
cudaError_t cudaMallocAsync(void** ptr, std::size_t size, cudaStream_t) { return cudaMalloc(ptr, size); }

// Managed memory: pages of the application's own, at the same address in the device's memory.
cudaError_t cudaMallocManaged(void** ptr, std::size_t size, unsigned) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  const std::size_t n = std::max<std::size_t>(size, 1);
  void* p = ::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return r.error = irr::cudart::kMemoryAllocation;
  const auto base = reinterpret_cast<std::uint64_t>(p);
  if (const cudaError_t e = r.call(Op::adopt, Buffer().put(base).put(static_cast<std::uint64_t>(n)))) {
    ::munmap(p, n);
    return e;
  }
  r.managed[base] = n;
  *ptr = p;
  return 0;
}

cudaError_t cudaFree(void* ptr) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  if (!ptr) return 0;  // cudaFree(0): the customary way to initialise the runtime
  const auto base = reinterpret_cast<std::uint64_t>(ptr);
  const cudaError_t e = r.call(Op::free, Buffer().put(base));
  if (e) return e;
  if (auto m = r.managed.find(base); m != r.managed.end()) {
    ::munmap(ptr, m->second);
    r.managed.erase(m);
  }
  r.device.erase(base);
  return 0;
}
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t) { return cudaFree(ptr); }

cudaError_t cudaMallocPitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height) {
  *pitch = (std::max<std::size_t>(width, 1) + 255) / 256 * 256;  // rows 256-byte aligned, as cudaMalloc's blocks
  return cudaMalloc(ptr, *pitch * height);
}
cudaError_t cudaMalloc3D(cudaPitchedPtr* p, cudaExtent e) {
  std::size_t pitch = 0;
  const cudaError_t err = cudaMallocPitch(&p->ptr, &pitch, e.width, e.height * std::max<std::size_t>(e.depth, 1));
  p->pitch = pitch;
  p->xsize = e.width;
  p->ysize = e.height;
  return err;
}

cudaError_t cudaMemGetInfo(std::size_t* free, std::size_t* total) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  std::uint64_t used = 0;
  for (const auto& [base, n] : r.device) used += n;
  *total = std::size_t{4} << 30;  // as cudaGetDeviceProperties' totalGlobalMem
  *free = used < *total ? *total - used : 0;
  return 0;
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* a, const void* ptr) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  const bool managed = r.is_managed(ptr), device = r.on_device(ptr);
  a->type = managed ? 3 : device ? 2 : 0;
  a->device = managed || device ? 0 : -2;
  a->devicePointer = managed || device ? const_cast<void*>(ptr) : nullptr;
  a->hostPointer = managed ? const_cast<void*>(ptr) : nullptr;
  return 0;
}

cudaError_t cudaHostRegister(void*, std::size_t, unsigned) { return 0; }  // pinning: nothing to do here
cudaError_t cudaHostUnregister(void*) { return 0; }

// Pinned host memory is ordinary host memory here: copies are not timed by their source's kind.
cudaError_t cudaMallocHost(void** ptr, std::size_t size) {
  *ptr = std::malloc(size ? size : 1);
  return *ptr ? 0 : irr::cudart::kMemoryAllocation;
}
cudaError_t cudaHostAlloc(void** ptr, std::size_t size, unsigned) { return cudaMallocHost(ptr, size); }
cudaError_t cudaFreeHost(void* ptr) {
  std::free(ptr);
  return 0;
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t n, int kind) { return copy(dst, src, n, kind); }
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t n, int kind, cudaStream_t) { return copy(dst, src, n, kind); }
cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                         std::size_t height, int kind) {
  return copy_rows(static_cast<char*>(dst), dpitch, 0, static_cast<const char*>(src), spitch, 0, width, height, 1, kind);
}
cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                              std::size_t height, int kind, cudaStream_t) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  if (p->srcArray || p->dstArray) return unsupported("cudaMemcpy3D with a CUDA array");
  auto at = [](const cudaPitchedPtr& q, const cudaPos& pos) {
    return static_cast<char*>(q.ptr) + pos.x + pos.y * q.pitch + pos.z * q.pitch * q.ysize;
  };
  return copy_rows(at(p->dstPtr, p->dstPos), p->dstPtr.pitch, p->dstPtr.pitch * p->dstPtr.ysize, at(p->srcPtr, p->srcPos),
                   p->srcPtr.pitch, p->srcPtr.pitch * p->srcPtr.ysize, p->extent.width, p->extent.height,
                   std::max<std::size_t>(p->extent.depth, 1), p->kind);
}
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t) { return cudaMemcpy3D(p); }

cudaError_t cudaMemset(void* ptr, int value, std::size_t n) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  return set_locked(r, ptr, value, n);
}
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t n, cudaStream_t) { return cudaMemset(ptr, value, n); }
cudaError_t cudaMemset2D(void* ptr, std::size_t pitch, int value, std::size_t width, std::size_t height) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  for (std::size_t y = 0; y < height; ++y)
    if (const cudaError_t e = set_locked(r, static_cast<char*>(ptr) + y * pitch, value, width)) return e;
  return 0;
}
cudaError_t cudaMemset2DAsync(void* ptr, std::size_t pitch, int value, std::size_t width, std::size_t height, cudaStream_t) {
  return cudaMemset2D(ptr, pitch, value, width, height);
}

cudaError_t cudaGetSymbolAddress(void** ptr, const void* symbol) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  const std::uint64_t a = r.address(symbol);
  *ptr = reinterpret_cast<void*>(a);
  return a ? 0 : (r.error = irr::cudart::kInvalidSymbol);
}

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, std::size_t n, std::size_t offset, int kind) {
  void* base = nullptr;
  if (const cudaError_t e = cudaGetSymbolAddress(&base, symbol)) return e;
  return copy(static_cast<char*>(base) + offset, src, n, kind == cudaMemcpyDeviceToDevice ? kind : cudaMemcpyHostToDevice);
}

cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, std::size_t n, std::size_t offset, int kind) {
  void* base = nullptr;
  if (const cudaError_t e = cudaGetSymbolAddress(&base, symbol)) return e;
  return copy(dst, static_cast<char*>(base) + offset, n, kind == cudaMemcpyDeviceToDevice ? kind : cudaMemcpyDeviceToHost);
}
cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, std::size_t n, std::size_t offset, int kind, cudaStream_t) {
  return cudaMemcpyToSymbol(symbol, src, n, offset, kind);
}
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, std::size_t n, std::size_t offset, int kind, cudaStream_t) {
  return cudaMemcpyFromSymbol(dst, symbol, n, offset, kind);
}

// --- device, streams, events: one device, one timeline (every call completes in order) ---
cudaError_t cudaGetDeviceCount(int* n) {
  rt();
  *n = 1;
  return 0;
}
cudaError_t cudaGetDevice(int* d) {
  *d = 0;
  return 0;
}
cudaError_t cudaSetDevice(int d) { return d == 0 ? 0 : irr::cudart::kInvalidValue; }
cudaError_t cudaDeviceReset() { return 0; }

cudaError_t cudaDeviceSynchronize() {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  return r.call(Op::synchronize, Buffer());
}
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaDeviceSynchronize(); }
cudaError_t cudaStreamCreate(cudaStream_t* s) {
  *s = new char;
  return 0;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned) { return cudaStreamCreate(s); }
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* s, unsigned, int) { return cudaStreamCreate(s); }
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = 0;  // one priority: every call completes in the order made
  if (greatest) *greatest = 0;
  return 0;
}
cudaError_t cudaStreamGetFlags(cudaStream_t, unsigned* flags) {
  *flags = 0;
  return 0;
}
// Every call has completed by the time it returns: a wait has nothing to wait for, a query is done.
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned) { return 0; }
cudaError_t cudaStreamQuery(cudaStream_t) { return 0; }
cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t fn, void* data) {
  fn(data);  // what came before it in the stream has completed
  return 0;
}
cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t fn, void* data, unsigned) {
  fn(s, 0, data);
  return 0;
}
cudaError_t cudaStreamDestroy(cudaStream_t s) {
  delete static_cast<char*>(s);
  return 0;
}

cudaError_t cudaDeviceGetAttribute(int* value, int attribute, int device) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  if (device != 0) return r.error = irr::cudart::kInvalidValue;
  Buffer a;
  const cudaError_t e = r.call(Op::attribute, Buffer().put(static_cast<std::uint32_t>(attribute)), &a);
  if (!e) *value = static_cast<int>(a.get<std::uint32_t>());
  return e;
}

// struct cudaDeviceProp as CUDA 13 lays it out (1,008 bytes; the offsets of the fields irrgpu
// fills, checked against the toolkit's header by testbenches/cuda/device_props.cu); the rest zero.
cudaError_t cudaGetDeviceProperties(void* prop, int device) {
  if (device != 0) return irr::cudart::kInvalidValue;
  auto* p = static_cast<char*>(prop);
  std::memset(p, 0, 1008);
  std::snprintf(p, 256, "irrgpu (simulated)");
  auto attr = [](int a) {
    int v = 0;
    cudaDeviceGetAttribute(&v, a, 0);
    return v;
  };
  auto put32 = [&](std::size_t off, int v) { std::memcpy(p + off, &v, 4); };
  auto put64 = [&](std::size_t off, std::uint64_t v) { std::memcpy(p + off, &v, 8); };
  put64(288, 4ull << 30);         // totalGlobalMem: the simulated memory is sparse; 4 GiB
  put64(296, static_cast<std::uint64_t>(attr(8)));  // sharedMemPerBlock
  put32(304, attr(12));           // regsPerBlock
  put32(308, attr(10));           // warpSize
  put64(312, 1ull << 31);         // memPitch
  put32(320, attr(1));            // maxThreadsPerBlock
  put32(324, attr(2)), put32(328, attr(3)), put32(332, attr(4));  // maxThreadsDim
  put32(336, attr(5)), put32(340, attr(6)), put32(344, attr(7));  // maxGridSize
  put64(352, static_cast<std::uint64_t>(attr(9)));  // totalConstMem
  put32(360, attr(75)), put32(364, attr(76));       // major, minor
  put64(368, 512);                // textureAlignment
  put32(384, attr(16));           // multiProcessorCount
  put32(560, attr(31));           // concurrentKernels
  put32(584, attr(40));           // asyncEngineCount
  put32(596, attr(38));           // l2CacheSize
  put32(604, attr(39));           // maxThreadsPerMultiProcessor
  put64(624, static_cast<std::uint64_t>(attr(81)));  // sharedMemPerMultiprocessor
  put32(632, attr(82));           // regsPerMultiprocessor
  put64(672, static_cast<std::uint64_t>(attr(8)));  // sharedMemPerBlockOptin
  put32(688, attr(106));          // maxBlocksPerMultiProcessor
  return rt().error;
}

// struct cudaFuncAttributes as CUDA 13 lays it out (144 bytes; checked by device_props.cu).
cudaError_t cudaFuncGetAttributes(void* attr, const void* func) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  Kernel* k = r.kernel(func);
  if (!k) return r.error = irr::cudart::kInvalidDeviceFunction;
  auto* p = static_cast<char*>(attr);
  std::memset(p, 0, 144);
  const std::uint64_t sizes[3] = {k->shared, 0, k->local};  // shared, constant (module-wide: 0), local
  std::memcpy(p, sizes, sizeof sizes);
  const int arch = static_cast<int>(k->arch);
  const int ints[5] = {1024, static_cast<int>(k->registers), arch, arch, 0};  // max threads, registers, PTX and binary version
  std::memcpy(p + 24, ints, sizeof ints);
  return 0;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func, int block, std::size_t shared) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  Kernel* k = r.kernel(func);
  if (!k) return r.error = irr::cudart::kInvalidDeviceFunction;
  Buffer a;
  const dim3 b{static_cast<unsigned>(block), 1, 1};
  const cudaError_t e = r.call(Op::resident, Buffer().put(k->module).put_string(k->name).put(b).put(static_cast<std::uint32_t>(shared)), &a);
  if (!e) *blocks = static_cast<int>(a.get<std::uint32_t>());
  return e;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* func, int block, std::size_t shared,
                                                                  unsigned) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, func, block, shared);
}

// The dynamic shared memory a block may take with `blocks` of them on an SM.
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(std::size_t* bytes, const void* func, int blocks, int) {
  int per_sm = 0;
  if (const cudaError_t e = cudaDeviceGetAttribute(&per_sm, 81, 0)) return e;
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  Kernel* k = r.kernel(func);
  if (!k) return r.error = irr::cudart::kInvalidDeviceFunction;
  const std::uint64_t each = static_cast<std::uint64_t>(per_sm) / static_cast<std::uint64_t>(std::max(blocks, 1));
  *bytes = each > k->shared ? each - k->shared : 0;
  return 0;
}

// Cache and shared-memory preferences, and the maximum dynamic shared memory a kernel opts into:
// the configuration fixes the L1/shared split, and a launch is checked against the SM's shared
// memory whatever was asked, so these are accepted and change nothing.
cudaError_t cudaFuncSetAttribute(const void*, int, int) { return 0; }
cudaError_t cudaFuncSetCacheConfig(const void*, int) { return 0; }
cudaError_t cudaDeviceSetCacheConfig(int) { return 0; }
cudaError_t cudaDeviceGetCacheConfig(int* c) {
  *c = 0;  // cudaFuncCachePreferNone
  return 0;
}
cudaError_t cudaDeviceSetSharedMemConfig(int) { return 0; }
cudaError_t cudaSetDeviceFlags(unsigned) { return 0; }
cudaError_t cudaGetDeviceFlags(unsigned* f) {
  *f = 0;
  return 0;
}
cudaError_t cudaDeviceCanAccessPeer(int* can, int, int) {
  *can = 0;  // one device
  return 0;
}
// Limits a kernel's threads might reach (stack, printf buffer, device heap): the model keeps no
// such bound, so a set is accepted and a get answers CUDA's defaults.
cudaError_t cudaDeviceSetLimit(int, std::size_t) { return 0; }
cudaError_t cudaDeviceGetLimit(std::size_t* v, int limit) {
  switch (limit) {
    case 0: *v = 1024; return 0;             // cudaLimitStackSize
    case 1: *v = 1 << 20; return 0;          // cudaLimitPrintfFifoSize
    case 2: *v = 8 << 20; return 0;          // cudaLimitMallocHeapSize
    default: *v = 0; return 0;
  }
}

// The extensible launch: grid, block, dynamic shared memory and stream from the configuration; its
// attributes (clusters, priorities, programmatic serialisation) change nothing here.
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* c, const void* func, void** args) {
  return cudaLaunchKernel(func, c->gridDim, c->blockDim, args, c->dynamicSmemBytes, c->stream);
}

cudaError_t cudaEventCreate(cudaEvent_t* e) {
  *e = new char;
  return 0;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned) { return cudaEventCreate(e); }
cudaError_t cudaEventDestroy(cudaEvent_t e) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  r.events.erase(e);
  delete static_cast<char*>(e);
  return 0;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  Buffer a;
  const cudaError_t err = r.call(Op::now, Buffer(), &a);
  if (!err) r.events[e] = a.get<std::uint64_t>();
  return err;
}
cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned) { return cudaEventRecord(e, s); }
cudaError_t cudaEventSynchronize(cudaEvent_t) { return 0; }
cudaError_t cudaEventQuery(cudaEvent_t) { return 0; }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  auto a = r.events.find(start), b = r.events.find(end);
  if (a == r.events.end() || b == r.events.end()) return r.error = irr::cudart::kInvalidValue;
  *ms = static_cast<float>(static_cast<double>(b->second - a->second) / 1e9);  // ps -> ms
  return 0;
}

// --- errors ---
cudaError_t cudaGetLastError() {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  const cudaError_t e = r.error;
  r.error = 0;
  return e;
}
cudaError_t cudaPeekAtLastError() {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  return r.error;
}
const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case 0: return "cudaSuccess";
    case irr::cudart::kInvalidValue: return "cudaErrorInvalidValue";
    case irr::cudart::kMemoryAllocation: return "cudaErrorMemoryAllocation";
    case irr::cudart::kInvalidSymbol: return "cudaErrorInvalidSymbol";
    case irr::cudart::kInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case irr::cudart::kLaunchFailure: return "cudaErrorLaunchFailure";
    case irr::cudart::kNotSupported: return "cudaErrorNotSupported";
    default: return "cudaErrorUnknown";
  }
}
const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case 0: return "no error";
    case irr::cudart::kInvalidValue: return "invalid argument";
    case irr::cudart::kMemoryAllocation: return "out of memory";
    case irr::cudart::kInvalidSymbol: return "invalid device symbol";
    case irr::cudart::kInvalidDeviceFunction: return "invalid device function";
    case irr::cudart::kLaunchFailure: return "unspecified launch failure";
    case irr::cudart::kNotSupported: return "operation not supported";
    default: return "unknown error";
  }
}

// The driver API's entry points: irrgpu has no driver, so none is found (cudaSuccess, a null
// pointer and the not-found status, as the runtime answers for a symbol the driver lacks).
cudaError_t cudaGetDriverEntryPointByVersion(const char*, void** fn, unsigned, unsigned long long, int* status) {
  *fn = nullptr;
  if (status) *status = 1;  // cudaDriverEntryPointSymbolNotFound
  return 0;
}
cudaError_t cudaGetDriverEntryPoint(const char* symbol, void** fn, unsigned long long flags, int* status) {
  return cudaGetDriverEntryPointByVersion(symbol, fn, 13000, flags, status);
}

// --- irrgpu's own (models/cudart/irrgpu_runtime.h): what units answer and take from the host ---
unsigned long long irrgpuQuery(const char* name) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  Buffer a;
  if (r.call(Op::query, Buffer().put_string(name), &a)) std::_Exit(2);  // irrgpu exec says why
  return a.get<std::uint64_t>();
}

cudaError_t irrgpuCommand(const char* name, const unsigned long long* args, int count) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  Buffer b;
  b.put_string(name).put(static_cast<std::uint32_t>(count));
  for (int i = 0; i < count; ++i) b.put(static_cast<std::uint64_t>(args[i]));
  return r.call(Op::command, b);
}

cudaError_t cudaRuntimeGetVersion(int* v) {
  *v = 13000;
  return 0;
}
cudaError_t cudaDriverGetVersion(int* v) {
  *v = 13000;
  return 0;
}

// The per-thread default stream's forms (nvcc --default-stream per-thread): one timeline here, so
// the same functions.
#define IRRGPU_SAME_AS(name, suffix) decltype(name) name##suffix __attribute__((alias(#name)));
IRRGPU_SAME_AS(cudaEventRecord, _ptsz)
IRRGPU_SAME_AS(cudaEventRecordWithFlags, _ptsz)
IRRGPU_SAME_AS(cudaFreeAsync, _ptsz)
IRRGPU_SAME_AS(cudaLaunchHostFunc, _ptsz)
IRRGPU_SAME_AS(cudaLaunchKernel, _ptsz)
IRRGPU_SAME_AS(cudaLaunchKernelExC, _ptsz)
IRRGPU_SAME_AS(cudaMallocAsync, _ptsz)
IRRGPU_SAME_AS(cudaMemcpy2DAsync, _ptsz)
IRRGPU_SAME_AS(cudaMemcpy3DAsync, _ptsz)
IRRGPU_SAME_AS(cudaMemcpyAsync, _ptsz)
IRRGPU_SAME_AS(cudaMemcpyFromSymbolAsync, _ptsz)
IRRGPU_SAME_AS(cudaMemcpyToSymbolAsync, _ptsz)
IRRGPU_SAME_AS(cudaMemset2DAsync, _ptsz)
IRRGPU_SAME_AS(cudaMemsetAsync, _ptsz)
IRRGPU_SAME_AS(cudaStreamAddCallback, _ptsz)
IRRGPU_SAME_AS(cudaStreamGetFlags, _ptsz)
IRRGPU_SAME_AS(cudaStreamQuery, _ptsz)
IRRGPU_SAME_AS(cudaStreamSynchronize, _ptsz)
IRRGPU_SAME_AS(cudaStreamWaitEvent, _ptsz)
IRRGPU_SAME_AS(cudaMemcpy, _ptds)
IRRGPU_SAME_AS(cudaMemcpy2D, _ptds)
IRRGPU_SAME_AS(cudaMemcpy3D, _ptds)
IRRGPU_SAME_AS(cudaMemcpyFromSymbol, _ptds)
IRRGPU_SAME_AS(cudaMemcpyToSymbol, _ptds)
IRRGPU_SAME_AS(cudaMemset, _ptds)
IRRGPU_SAME_AS(cudaMemset2D, _ptds)
#undef IRRGPU_SAME_AS

}  // extern "C"
