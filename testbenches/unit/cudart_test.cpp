// SPDX-License-Identifier: Apache-2.0
// irrgpu exec's side of an application's CUDA calls (models/cudart): the PTX read from nvcc's
// fatbinaries (zstd-compressed and plain, one or two architectures; fixtures made from
// data/fatbin_vadd.cu), malformed ones refused, and the server answering the protocol on a
// functional device as the application's library would ask it. cuda.apps runs real programs.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <thread>

#include "models/cudart/fatbin.h"
#include "models/cudart/server.h"
#include "sim/config.h"
#include "sim/error.h"

namespace irr {
namespace {

std::vector<std::uint8_t> fixture(const std::string& name) {
  std::ifstream in(std::string(IRRGPU_SOURCE_DIR) + "/testbenches/unit/data/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(Cudart, CompressedPtxIsReadFromTheFatbinary) {
  const auto fb = fixture("vadd_compute75_zstd.fatbin");
  ASSERT_EQ(cudart::fatbin_size(fb.data(), fb.size()), fb.size());
  const auto ptx = cudart::fatbin_ptx(fb.data(), fb.size());
  ASSERT_EQ(ptx.size(), 1u);
  EXPECT_EQ(ptx[0].arch, 75u);
  EXPECT_NE(ptx[0].text.find(".target sm_75"), std::string::npos) << ptx[0].text;
  EXPECT_NE(ptx[0].text.find(".visible .entry _Z4vaddPKfS0_Pfi("), std::string::npos);
  EXPECT_NE(ptx[0].text.find(".const .align 4 .f32 scale;"), std::string::npos);
  EXPECT_EQ(ptx[0].text.find('\0'), std::string::npos);
}

TEST(Cudart, PlainPtxOfTwoArchitecturesHighestFirst) {
  const auto fb = fixture("vadd_compute75_80_plain.fatbin");
  const auto ptx = cudart::fatbin_ptx(fb.data(), fb.size());
  ASSERT_EQ(ptx.size(), 2u);
  EXPECT_EQ(ptx[0].arch, 80u);
  EXPECT_EQ(ptx[1].arch, 75u);
  EXPECT_NE(ptx[0].text.find(".target sm_80"), std::string::npos);
}

TEST(Cudart, MalformedFatbinariesAreRefused) {
  auto fb = fixture("vadd_compute75_zstd.fatbin");
  EXPECT_THROW(cudart::fatbin_ptx(fb.data(), 8), Error);  // no room for the header
  EXPECT_THROW(cudart::fatbin_ptx(fb.data(), fb.size() - 1), Error);  // shorter than it says
  auto bad = fb;
  bad[0] ^= 1;  // the magic
  EXPECT_EQ(cudart::fatbin_size(bad.data(), bad.size()), 0u);
  EXPECT_THROW(cudart::fatbin_ptx(bad.data(), bad.size()), Error);
  bad = fb;
  bad[16 + 8] = 0xff;  // the entry's padded size past the end
  EXPECT_THROW(cudart::fatbin_ptx(bad.data(), bad.size()), Error);
  bad = fb;
  bad[16 + 80 + 10] ^= 0x55;  // the compressed PTX itself
  try {
    cudart::fatbin_ptx(bad.data(), bad.size());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("does not decompress"), std::string::npos) << e.what();
  }
}

// The application's side of the protocol, by hand.
class Client {
 public:
  explicit Client(int fd) : fd_(fd) {}
  std::int32_t call(cudart::Op op, const cudart::Buffer& req, cudart::Buffer* answer = nullptr) {
    const std::uint32_t head[2] = {static_cast<std::uint32_t>(op), static_cast<std::uint32_t>(req.bytes.size())};
    EXPECT_EQ(write(fd_, head, sizeof head), static_cast<ssize_t>(sizeof head));
    if (!req.bytes.empty()) {
      EXPECT_EQ(write(fd_, req.bytes.data(), req.bytes.size()), static_cast<ssize_t>(req.bytes.size()));
    }
    std::int32_t status = 0;
    std::uint32_t size = 0;
    read_all(&status, sizeof status);
    read_all(&size, sizeof size);
    cudart::Buffer got;
    got.bytes.resize(size);
    read_all(got.bytes.data(), size);
    if (answer) *answer = std::move(got);
    return status;
  }

 private:
  void read_all(void* p, std::size_t n) {
    auto* b = static_cast<char*>(p);
    while (n) {
      const ssize_t r = read(fd_, b, n);
      ASSERT_GT(r, 0);
      b += r;
      n -= static_cast<std::size_t>(r);
    }
  }
  int fd_;
};

TEST(Cudart, ServerRunsAProgramsCalls) {
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  mem::BackingStore memory;
  runtime::Device dev(memory);
  dev.echo_printf(false);
  sim::Config config(sim::Schema::builtin());
  config.load("gtx480");
  cudart::Server server(dev, config);
  std::thread serving([&] { EXPECT_TRUE(server.serve(fds[0])); });
  {
    Client c(fds[1]);
    using cudart::Buffer;
    using cudart::Op;
    EXPECT_EQ(c.call(Op::hello, Buffer()), 0);
    const auto fb = fixture("vadd_compute75_zstd.fatbin");
    Buffer a;
    ASSERT_EQ(c.call(Op::module, Buffer().put_bytes(fb.data(), fb.size()), &a), 0);
    const auto module = a.get<std::uint32_t>();
    ASSERT_EQ(c.call(Op::function, Buffer().put(module).put_string("_Z4vaddPKfS0_Pfi"), &a), 0);
    ASSERT_EQ(a.get<std::uint32_t>(), 4u);  // a, b, c, n
    EXPECT_EQ(a.get<std::uint32_t>(), 8u);
    const int n = 100;
    std::uint64_t p[3];
    for (auto& ptr : p) {
      ASSERT_EQ(c.call(Op::malloc, Buffer().put(static_cast<std::uint64_t>(n * 4)), &a), 0);
      ptr = a.get<std::uint64_t>();
    }
    std::vector<float> x(n, 1.5f), y(n, 2.0f);
    EXPECT_EQ(c.call(Op::copy_in, Buffer().put(p[0]).put_bytes(x.data(), n * 4)), 0);
    EXPECT_EQ(c.call(Op::copy_in, Buffer().put(p[1]).put_bytes(y.data(), n * 4)), 0);
    ASSERT_EQ(c.call(Op::variable, Buffer().put(module).put_string("scale"), &a), 0);
    const float scale = 10.0f;
    EXPECT_EQ(c.call(Op::copy_in, Buffer().put(a.get<std::uint64_t>()).put_bytes(&scale, 4)), 0);
    Buffer launch;
    launch.put(module).put_string("_Z4vaddPKfS0_Pfi");
    for (std::uint32_t v : {1u, 1u, 1u, 128u, 1u, 1u, 0u}) launch.put(v);  // grid, block, shared
    launch.put(p[0]).put(p[1]).put(p[2]).put(n);
    EXPECT_EQ(c.call(Op::launch, launch), 0);
    ASSERT_EQ(c.call(Op::copy_out, Buffer().put(p[2]).put(static_cast<std::uint64_t>(n * 4)), &a), 0);
    std::vector<float> got(n);
    std::memcpy(got.data(), a.get_bytes(n * 4), n * 4);
    EXPECT_EQ(got[7], 35.0f);
    ASSERT_EQ(c.call(Op::attribute, Buffer().put(16u), &a), 0);  // SMs
    EXPECT_EQ(a.get<std::uint32_t>(), 15u);
    // Errors come back as statuses with their reason, and the run is marked failed.
    EXPECT_EQ(c.call(Op::function, Buffer().put(module).put_string("nope"), &a), cudart::kInvalidValue);
    EXPECT_NE(std::string(a.bytes.begin(), a.bytes.end()).find("no kernel 'nope'"), std::string::npos);
    Buffer bad;
    bad.put(module).put_string("_Z4vaddPKfS0_Pfi");
    for (std::uint32_t v : {1u, 1u, 1u, 4096u, 1u, 1u, 0u}) bad.put(v);  // a block of 4096 threads
    bad.put(p[0]).put(p[1]).put(p[2]).put(n);
    EXPECT_EQ(c.call(Op::launch, bad, &a), cudart::kLaunchFailure);
    EXPECT_EQ(c.call(Op::attribute, Buffer().put(999u), &a), cudart::kInvalidValue);
  }
  close(fds[1]);
  serving.join();
  close(fds[0]);
  ASSERT_EQ(server.kernels().size(), 1u);
  EXPECT_EQ(server.kernels()[0].second.launches, 1u);  // the failed launch is not counted
  EXPECT_EQ(server.failures().size(), 3u);
  EXPECT_TRUE(server.connected());
}

}  // namespace
}  // namespace irr
