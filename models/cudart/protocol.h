// SPDX-License-Identifier: Apache-2.0
// What the CUDA runtime library an application loads (libcudart.so.13, models/cudart/cudart.cpp)
// asks of irrgpu over the socket `irrgpu exec` hands it (IRRGPU_CUDART_FD): a request is an op
// and a payload, the answer a status (a cudaError_t; 0 is success) and a payload, which on an
// error is the message. Plain bytes in the host's order: both ends run on the same machine.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace irr::cudart {

enum class Op : std::uint32_t {
  hello = 1,    // -> nothing
  module,       // fatbinary bytes -> u32 module
  function,     // u32 module, name -> u32 params, u32 size each, then u32 registers, u64 shared, u64 local, u32 PTX arch
  variable,     // u32 module, name -> u64 address
  malloc,       // u64 bytes -> u64 pointer
  free,         // u64 pointer
  copy_in,      // u64 device address, bytes
  copy_out,     // u64 device address, u64 bytes -> bytes
  copy_device,  // u64 destination, u64 source, u64 bytes
  memset,       // u64 address, u32 value, u64 bytes
  launch,       // u32 module, name, 3 x u32 grid, 3 x u32 block, u32 shared, then each parameter's bytes
  synchronize,  // -> nothing
  now,          // -> u64 simulated picoseconds (0 in functional mode)
  attribute,    // u32 cudaDeviceAttr -> u32 value
  resident,     // u32 module, name, 3 x u32 block, u32 shared -> u32 blocks per SM
  fail,         // a message: the application hit what irrgpu does not support
  query,        // name -> u64: what a unit answers the host (irrgpuQuery, runtime::Device::query)
  command,      // name, u32 count, u64 each: a unit's command (irrgpuCommand, runtime::Device::command)
  adopt,        // u64 address, u64 bytes: a managed allocation at the application's own address
  poke,         // u64 address, bytes: written without taking simulated time (managed memory's copy)
  peek,         // u64 address, u64 bytes -> bytes: read without taking simulated time
};

// cudaError_t values the two ends use.
enum Status : std::int32_t {
  kSuccess = 0,
  kInvalidValue = 1,
  kMemoryAllocation = 2,
  kInvalidSymbol = 13,
  kInvalidDeviceFunction = 98,
  kNotSupported = 801,
  kLaunchFailure = 719,
  kUnknown = 999,
};

// Builds and reads payloads.
class Buffer {
 public:
  std::vector<std::uint8_t> bytes;
  template <typename T>
  Buffer& put(const T& v) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof(T));
    return *this;
  }
  Buffer& put_string(const std::string& s) {
    put(static_cast<std::uint32_t>(s.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
    return *this;
  }
  Buffer& put_bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    bytes.insert(bytes.end(), b, b + n);
    return *this;
  }
  template <typename T>
  T get() {
    T v{};
    need(sizeof(T));
    std::memcpy(&v, bytes.data() + read_, sizeof(T));
    read_ += sizeof(T);
    return v;
  }
  std::string get_string() {
    const auto n = get<std::uint32_t>();
    need(n);
    std::string s(reinterpret_cast<const char*>(bytes.data() + read_), n);
    read_ += n;
    return s;
  }
  const std::uint8_t* get_bytes(std::size_t n) {
    need(n);
    const std::uint8_t* p = bytes.data() + read_;
    read_ += n;
    return p;
  }
  std::size_t left() const { return bytes.size() - read_; }

 private:
  void need(std::size_t n) const {
    if (read_ + n > bytes.size()) throw std::out_of_range("cudart: a message shorter than its contents");
  }
  std::size_t read_ = 0;
};

}  // namespace irr::cudart
