// SPDX-License-Identifier: Apache-2.0
// irrgpu's libcudart.so.13: the CUDA runtime API's C ABI as nvcc-generated host code and
// applications call it, forwarding every call over the socket `irrgpu exec` opened
// (IRRGPU_CUDART_FD) to the simulated GPU there (models/cudart/server.h). It holds no simulator:
// only the application's registrations (fatbinaries, kernels, variables), launch configurations,
// streams, events and the sticky error. A function it does not define is not here at all, so the
// dynamic linker stops the application naming it (docs/cuda-apps.md).
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
}

namespace {

struct Kernel {
  std::uint32_t module;
  std::string name;
  bool known = false;
  std::vector<std::uint32_t> params;  // each parameter's size
  std::uint32_t registers = 0;        // per thread, and static shared and local bytes
  std::uint64_t shared = 0, local = 0;
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
    return call(Op::launch, b);
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

cudaError_t copy(void* dst, const void* src, std::size_t n, int kind) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  const auto d = reinterpret_cast<std::uint64_t>(dst), s = reinterpret_cast<std::uint64_t>(src);
  switch (kind) {
    case cudaMemcpyHostToHost: std::memcpy(dst, src, n); return 0;
    case cudaMemcpyHostToDevice: return r.call(Op::copy_in, Buffer().put(d).put_bytes(src, n));
    case cudaMemcpyDeviceToHost: {
      Buffer a;
      const cudaError_t e = r.call(Op::copy_out, Buffer().put(s).put(static_cast<std::uint64_t>(n)), &a);
      if (!e) std::memcpy(dst, a.get_bytes(n), n);
      return e;
    }
    case cudaMemcpyDeviceToDevice:
      return r.call(Op::copy_device, Buffer().put(d).put(s).put(static_cast<std::uint64_t>(n)));
    default:  // cudaMemcpyDefault needs unified addressing, which the simulated device has not
      static const std::string what = "cudaMemcpy with cudaMemcpyDefault (unified addressing)";
      return r.call(Op::fail, Buffer().put_bytes(what.data(), what.size()));
  }
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
  return e;
}

cudaError_t cudaFree(void* ptr) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  if (!ptr) return 0;  // cudaFree(0): the customary way to initialise the runtime
  return r.call(Op::free, Buffer().put(reinterpret_cast<std::uint64_t>(ptr)));
}

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

cudaError_t cudaMemset(void* ptr, int value, std::size_t n) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> g(r.lock);
  return r.call(Op::memset, Buffer().put(reinterpret_cast<std::uint64_t>(ptr)).put(static_cast<std::uint32_t>(value)).put(static_cast<std::uint64_t>(n)));
}
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t n, cudaStream_t) { return cudaMemset(ptr, value, n); }

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
  put32(560, 1);                  // concurrentKernels
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
  const int ints[5] = {1024, static_cast<int>(k->registers), 75, 75, 0};  // max threads, registers, PTX and binary version
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

}  // extern "C"
