// SPDX-License-Identifier: Apache-2.0
// Thrust, from the CUDA toolkit's own headers, as an application calls it: each algorithm's result
// checked against the C++ standard library's on the host. Code nobody here wrote: the kernels are
// CUB's and Thrust's (docs/cuda-apps.md).
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/partition.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/unique.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

struct is_even {
  __host__ __device__ bool operator()(int x) const { return x % 2 == 0; }
};

int failures = 0;
void check(bool ok, const char* what) {
  std::printf("%s %s\n", ok ? "ok" : "WRONG", what);
  failures += !ok;
}

int main() {
  const int n = 1000;
  std::vector<int> h(n);
  unsigned s = 12345;
  for (auto& v : h) {
    s = s * 1103515245u + 12345u;
    v = static_cast<int>((s >> 8) % 1000);
  }
  thrust::device_vector<int> d(h.begin(), h.end());

  check(thrust::reduce(d.begin(), d.end(), 0L) == std::accumulate(h.begin(), h.end(), 0L), "reduce");

  thrust::device_vector<int> t(n);
  thrust::transform(d.begin(), d.end(), t.begin(), thrust::negate<int>());
  std::vector<int> ref(n);
  std::transform(h.begin(), h.end(), ref.begin(), [](int x) { return -x; });
  thrust::host_vector<int> got = t;
  check(std::equal(ref.begin(), ref.end(), got.begin()), "transform");

  thrust::inclusive_scan(d.begin(), d.end(), t.begin());
  std::partial_sum(h.begin(), h.end(), ref.begin());
  got = t;
  check(std::equal(ref.begin(), ref.end(), got.begin()), "inclusive_scan");

  auto end = thrust::copy_if(d.begin(), d.end(), t.begin(), is_even());
  auto ref_end = std::copy_if(h.begin(), h.end(), ref.begin(), is_even());
  got = t;
  check(end - t.begin() == ref_end - ref.begin() && std::equal(ref.begin(), ref_end, got.begin()), "copy_if");

  thrust::device_vector<int> sorted = d;
  thrust::sort(sorted.begin(), sorted.end());
  std::vector<int> hs = h;
  std::sort(hs.begin(), hs.end());
  got = sorted;
  check(std::equal(hs.begin(), hs.end(), got.begin()), "sort");

  thrust::device_vector<int> descending = d;
  thrust::sort(descending.begin(), descending.end(), thrust::greater<int>());  // a merge sort, not radix
  got = descending;
  check(std::equal(hs.rbegin(), hs.rend(), got.begin()), "sort with a comparator");

  // reduce_by_key on the sorted keys: each distinct value and how often it occurs.
  thrust::device_vector<int> ones(n, 1), keys(n), counts(n);
  auto ends = thrust::reduce_by_key(sorted.begin(), sorted.end(), ones.begin(), keys.begin(), counts.begin());
  std::vector<int> distinct = hs;
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  thrust::host_vector<int> hk = keys, hc = counts;
  bool ok = ends.first - keys.begin() == static_cast<long>(distinct.size());
  for (std::size_t i = 0; ok && i < distinct.size(); ++i)
    ok = hk[i] == distinct[i] && hc[i] == std::count(h.begin(), h.end(), distinct[i]);
  check(ok, "reduce_by_key");

  auto u = thrust::unique(sorted.begin(), sorted.end());
  check(u - sorted.begin() == static_cast<long>(distinct.size()), "unique");

  thrust::device_vector<int> parted = d;
  auto mid = thrust::stable_partition(parted.begin(), parted.end(), is_even());
  std::vector<int> hp = h;
  auto hmid = std::stable_partition(hp.begin(), hp.end(), is_even());
  got = parted;
  check(mid - parted.begin() == hmid - hp.begin() && std::equal(hp.begin(), hp.end(), got.begin()), "stable_partition");

  std::printf(failures ? "FAIL\n" : "PASS\n");
  return failures;
}
