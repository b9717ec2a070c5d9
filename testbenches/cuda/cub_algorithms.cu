// SPDX-License-Identifier: Apache-2.0
// CUB's device-wide algorithms, from the CUDA toolkit's own headers, as an application calls them
// (temporary storage asked for, then the run); each result checked on the host.
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

#define CHECK(x)                                                     \
  do {                                                               \
    if (cudaError_t e = (x)) {                                       \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e));            \
      return 1;                                                      \
    }                                                                \
  } while (0)

int failures = 0;
void check(bool ok, const char* what) {
  std::printf("%s %s\n", ok ? "ok" : "WRONG", what);
  failures += !ok;
}

// Asks for the temporary storage, allocates it, runs: CUB's two-call convention.
template <typename F>
cudaError_t with_storage(F run) {
  void* tmp = nullptr;
  std::size_t bytes = 0;
  if (cudaError_t e = run(tmp, bytes)) return e;
  if (cudaError_t e = cudaMalloc(&tmp, bytes)) return e;
  cudaError_t e = run(tmp, bytes);
  cudaFree(tmp);
  return e;
}

int main() {
  const int n = 3000;
  std::vector<unsigned> h(n);
  unsigned s = 777;
  for (auto& v : h) {
    s = s * 1664525u + 1013904223u;
    v = s >> 12;
  }
  unsigned *in, *out, *vals_in, *vals_out;
  CHECK(cudaMalloc(&in, n * 4));
  CHECK(cudaMalloc(&out, n * 4));
  CHECK(cudaMalloc(&vals_in, n * 4));
  CHECK(cudaMalloc(&vals_out, n * 4));
  CHECK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
  std::vector<unsigned> got(n), ref = h, idx(n);
  std::sort(ref.begin(), ref.end());

  CHECK(with_storage([&](void* t, std::size_t& b) { return cub::DeviceRadixSort::SortKeys(t, b, in, out, n); }));
  CHECK(cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost));
  check(got == ref, "DeviceRadixSort::SortKeys");

  // Pairs: the values are the keys' original positions, so the order of equal keys is checked too.
  std::iota(idx.begin(), idx.end(), 0u);
  CHECK(cudaMemcpy(vals_in, idx.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(with_storage([&](void* t, std::size_t& b) { return cub::DeviceRadixSort::SortPairs(t, b, in, out, vals_in, vals_out, n); }));
  std::stable_sort(idx.begin(), idx.end(), [&](unsigned a, unsigned b) { return h[a] < h[b]; });
  CHECK(cudaMemcpy(got.data(), vals_out, n * 4, cudaMemcpyDeviceToHost));
  check(got == idx, "DeviceRadixSort::SortPairs (stable)");

  std::vector<unsigned long long> h64(h.begin(), h.end());
  unsigned long long *in64, *sum;
  CHECK(cudaMalloc(&in64, n * 8));
  CHECK(cudaMalloc(&sum, 8));
  CHECK(cudaMemcpy(in64, h64.data(), n * 8, cudaMemcpyHostToDevice));
  CHECK(with_storage([&](void* t, std::size_t& b) { return cub::DeviceReduce::Sum(t, b, in64, sum, n); }));
  unsigned long long total = 0;
  CHECK(cudaMemcpy(&total, sum, 8, cudaMemcpyDeviceToHost));
  check(total == std::accumulate(h64.begin(), h64.end(), 0ull), "DeviceReduce::Sum");

  CHECK(with_storage([&](void* t, std::size_t& b) { return cub::DeviceScan::ExclusiveSum(t, b, in, out, n); }));
  CHECK(cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost));
  std::exclusive_scan(h.begin(), h.end(), ref.begin(), 0u);
  check(got == ref, "DeviceScan::ExclusiveSum");

  std::vector<int> hv(n), bins(16), hist(16);
  for (int i = 0; i < n; ++i) hv[i] = static_cast<int>(h[i] % 16);
  for (int v : hv) ++bins[v];
  int *samples, *counts;
  CHECK(cudaMalloc(&samples, n * 4));
  CHECK(cudaMalloc(&counts, 16 * 4));
  CHECK(cudaMemcpy(samples, hv.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(with_storage([&](void* t, std::size_t& b) { return cub::DeviceHistogram::HistogramEven(t, b, samples, counts, 17, 0, 16, n); }));
  CHECK(cudaMemcpy(hist.data(), counts, 16 * 4, cudaMemcpyDeviceToHost));
  check(hist == bins, "DeviceHistogram::HistogramEven");

  int* selected;
  CHECK(cudaMalloc(&selected, 4));
  auto odd = [] __device__(unsigned x) { return (x & 1) != 0; };
  CHECK(with_storage([&](void* t, std::size_t& b) { return cub::DeviceSelect::If(t, b, in, out, selected, n, odd); }));
  int nsel = 0;
  CHECK(cudaMemcpy(&nsel, selected, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost));
  auto ref_end = std::copy_if(h.begin(), h.end(), ref.begin(), [](unsigned x) { return (x & 1) != 0; });
  check(nsel == ref_end - ref.begin() && std::equal(ref.begin(), ref_end, got.begin()), "DeviceSelect::If");

  std::printf(failures ? "FAIL\n" : "PASS\n");
  return failures;
}
