// SPDX-License-Identifier: Apache-2.0
#include "workloads/wavefront/wavefront.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "models/dats/host_api.h"
#include "workloads/workloads.h"

namespace irr::workloads::wavefront {
namespace {

using runtime::Args;
using runtime::Device;
using runtime::Dim3;

// Runs `kernel` over the tile grid in `variant`'s way; `args(diag)` makes its arguments for a wave
// (diag >= 0) or for the whole grid (diag = -1); `shared`: each block's dynamic shared memory in bytes.
Result launch(Device& dev, const std::string& kernel, const Shape& s, const std::string& v,
              const std::function<Args(int)>& args, std::uint32_t shared = 0) {
  const Variant& var = variant(v);
  const auto module = dev.load_module(kernels_dir() + "/wavefront.ptx");
  const runtime::Kernel k = dev.kernel(module, kernel);
  Result r;
  auto add = [&r](const runtime::LaunchStats& st) {
    ++r.launches;
    r.warp_instructions += st.warp_instructions;
    r.thread_instructions += st.thread_instructions;
  };
  if (!var.dependencies) {
    const int waves = static_cast<int>(s.tiles_x + s.tiles_y - 1);
    for (int d = 0; d < waves; ++d) {
      const int first = std::max(0, d - static_cast<int>(s.tiles_y) + 1), last = std::min(d, static_cast<int>(s.tiles_x) - 1);
      const Dim3 grid{static_cast<std::uint32_t>(last - first + 1)};
      if (v == "cdp" && d > 0) add(dev.launch_from_device(k, grid, Dim3{s.tile}, args(d), shared));
      else add(dev.launch(k, grid, Dim3{s.tile}, args(d), shared));
    }
    return r;
  }
  const dats::Policy policy = v == "lvl" ? dats::Policy::lvl : v == "lrr" ? dats::Policy::lrr : dats::Policy::in_order;
  add(dats::launch_with_dependencies(dev, k, Dim3{s.tiles_x, s.tiles_y}, Dim3{s.tile}, args(-1), [policy](dats::DepLinks& l) {
    l.add_dependency(Dim3{l.block().x - 1, l.block().y, 0});  // west (outside the grid at x = 0: ignored)
    l.add_dependency(Dim3{l.block().x, l.block().y - 1, 0});  // north
    l.set_policy(policy, policy == dats::Policy::lvl ? 3 : 0);
  }, shared));
  return r;
}

template <typename T>
std::uint64_t upload(Device& dev, const std::vector<T>& v) {
  const std::uint64_t p = dev.malloc(std::max<std::uint64_t>(sizeof(T) * v.size(), 4));
  dev.memcpy_to_device(p, v.data(), sizeof(T) * v.size());
  return p;
}

template <typename T>
std::vector<T> download(Device& dev, std::uint64_t p, std::size_t n) {
  std::vector<T> v(n);
  dev.memcpy_to_host(v.data(), p, sizeof(T) * n);
  return v;
}

// The first cell where got and want differ (floats: by more than a relative 1e-4), or "".
template <typename T>
std::string compare(const std::vector<T>& got, const std::vector<T>& want, std::uint32_t m) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double g = static_cast<double>(got[i]), w = static_cast<double>(want[i]);
    const bool same = std::is_integral_v<T> ? got[i] == want[i] : std::fabs(g - w) <= 1e-4 * std::max(1.0, std::fabs(w));
    if (!same) {
      std::ostringstream o;
      o << "element " << i << " (row " << i / m << ", column " << i % m << "): " << g << ", expected " << w;
      return o.str();
    }
  }
  return "";
}

std::uint32_t rows(const Shape& s) { return s.tiles_y * s.tile; }
std::uint32_t cols(const Shape& s) { return s.tiles_x * s.tile; }

Result run_dtw(Device& dev, const Shape& s, const std::string& v) {
  const std::uint32_t n = rows(s), m = cols(s);
  std::mt19937_64 rng(s.seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<float> a(n), b(m);
  for (auto& x : a) x = u(rng);
  for (auto& x : b) x = u(rng);
  const std::uint64_t da = upload(dev, a), db = upload(dev, b), dd = dev.malloc(4ull * n * m);
  Result r = launch(dev, "dtw", s, v, [&](int diag) { return Args() << da << db << dd << n << m << diag; });
  std::vector<float> d(std::size_t{n} * m);
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint32_t j = 0; j < m; ++j) {
      float best = 3.0e38f;
      if (i == 0 && j == 0) best = 0.0f;
      if (i > 0) best = std::min(best, d[(i - 1) * m + j]);
      if (j > 0) best = std::min(best, d[i * m + j - 1]);
      if (i > 0 && j > 0) best = std::min(best, d[(i - 1) * m + j - 1]);
      d[i * m + j] = std::fabs(a[i] - b[j]) + best;
    }
  r.check = compare(download<float>(dev, dd, d.size()), d, m);
  return r;
}

Result run_sw(Device& dev, const Shape& s, const std::string& v) {
  const std::uint32_t n = rows(s), m = cols(s);
  std::mt19937_64 rng(s.seed);
  const char bases[] = "ACGT";
  std::vector<std::uint8_t> a(n), b(m);
  for (auto& x : a) x = static_cast<std::uint8_t>(bases[rng() % 4]);
  for (auto& x : b) x = static_cast<std::uint8_t>(bases[rng() % 4]);
  const std::uint64_t da = upload(dev, a), db = upload(dev, b), dh = dev.malloc(4ull * n * m);
  Result r = launch(dev, "sw", s, v, [&](int diag) { return Args() << da << db << dh << n << m << diag; });
  std::vector<std::int32_t> h(std::size_t{n} * m);
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint32_t j = 0; j < m; ++j) {
      const int nw = i > 0 && j > 0 ? h[(i - 1) * m + j - 1] : 0, up = i > 0 ? h[(i - 1) * m + j] : 0,
                left = j > 0 ? h[i * m + j - 1] : 0;
      h[i * m + j] = std::max({nw + (a[i] == b[j] ? 3 : -3), up - 2, left - 2, 0});
    }
  r.check = compare(download<std::int32_t>(dev, dh, h.size()), h, m);
  return r;
}

// HEAT2D and SOR: one in-place sweep, u = u + c0 u + c1 (N + S + W + E) over the interior.
Result run_stencil(Device& dev, const Shape& s, const std::string& v, const char* kernel, float param, float c0, float c1) {
  const std::uint32_t n = rows(s), m = cols(s);
  std::mt19937_64 rng(s.seed);
  std::uniform_real_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> u(std::size_t{n} * m);
  for (auto& x : u) x = dist(rng);
  const std::uint64_t du = upload(dev, u);
  Result r = launch(dev, kernel, s, v, [&](int diag) { return Args() << du << n << m << diag << param; });
  for (std::uint32_t i = 1; i + 1 < n; ++i)
    for (std::uint32_t j = 1; j + 1 < m; ++j) {
      const float c = u[i * m + j];
      const float sum = u[(i - 1) * m + j] + u[(i + 1) * m + j] + u[i * m + j - 1] + u[i * m + j + 1];
      u[i * m + j] = c + c0 * c + c1 * sum;
    }
  r.check = compare(download<float>(dev, du, u.size()), u, m);
  return r;
}

// Integral images of `img` for the values in each of `bins` equal bins of [lo, 256).
std::vector<std::uint32_t> integral(const std::vector<std::uint8_t>& img, std::uint32_t n, std::uint32_t m, unsigned lo,
                                    unsigned hi) {
  std::vector<std::uint32_t> out(std::size_t{n} * m);
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint32_t j = 0; j < m; ++j) {
      const std::uint32_t v = img[i * m + j] >= lo && img[i * m + j] < hi;
      out[i * m + j] = v + (i ? out[(i - 1) * m + j] : 0) + (j ? out[i * m + j - 1] : 0) - (i && j ? out[(i - 1) * m + j - 1] : 0);
    }
  return out;
}

constexpr int kBins = 4;  // HIST's bins (the paper's count is not given)

Result run_integral(Device& dev, const Shape& s, const std::string& v, bool histogram) {
  const std::uint32_t n = rows(s), m = cols(s);
  std::mt19937_64 rng(s.seed);
  std::vector<std::uint8_t> img(std::size_t{n} * m);
  for (auto& x : img) x = static_cast<std::uint8_t>(rng());
  const int bins = histogram ? kBins : 1;
  const std::uint64_t di = upload(dev, img), dout = dev.malloc(4ull * n * m * bins);
  Result r = launch(dev, histogram ? "hist" : "int_img", s, v, [&](int diag) {
    Args a;
    a << di << dout << n << m << diag;
    if (histogram) a << bins;
    return a;
  }, 4 * s.tile * s.tile);  // the tile's column sums
  std::vector<std::uint32_t> want;
  for (int b = 0; b < bins; ++b) {
    const auto one = histogram ? integral(img, n, m, b * 256u / bins, (b + 1) * 256u / bins) : integral(img, n, m, 128, 256);
    want.insert(want.end(), one.begin(), one.end());
  }
  r.check = compare(download<std::uint32_t>(dev, dout, want.size()), want, m);
  return r;
}

}  // namespace

const std::vector<Variant>& variants() {
  static const std::vector<Variant> all = {
      {"global", "one host launch per wave of tiles (global barriers)", false},
      {"cdp", "one device-side launch per wave (dynamic parallelism, nested); the first is the host's", false},
      {"deplinks", "one launch with west and north dependencies, blocks in launch order (no run-ahead)", true},
      {"lrr", "one launch with dependencies, DATS loose round-robin", true},
      {"lvl", "one launch with dependencies, DATS level-bound (bound 3)", true}};
  return all;
}

const Variant& variant(const std::string& name) {
  std::string known;
  for (const auto& v : variants()) {
    if (v.name == name) return v;
    known += (known.empty() ? "" : ", ") + v.name;
  }
  throw Error({"--variant", 0, 0}, "'" + name + "' is not a wavefront variant (" + known + ")", Error::Kind::usage);
}

const std::vector<Workload>& workloads() {
  static const std::vector<Workload> all = {
      {"dtw", "dynamic time warping cost matrix of two random series", "exact up to 1e-4 relative",
       [](Device& d, const Shape& s, const std::string& v) { return run_dtw(d, s, v); }},
      {"heat2d", "one in-place (Gauss-Seidel) heat-equation sweep, alpha 0.2", "1e-4 relative",
       [](Device& d, const Shape& s, const std::string& v) { return run_stencil(d, s, v, "heat2d", 0.2f, -0.8f, 0.2f); }},
      {"hist", "integral histogram of a random 8-bit image, 4 bins", "exact",
       [](Device& d, const Shape& s, const std::string& v) { return run_integral(d, s, v, true); }},
      {"int_img", "integral image of a random bitmap", "exact",
       [](Device& d, const Shape& s, const std::string& v) { return run_integral(d, s, v, false); }},
      {"sor", "one successive over-relaxation sweep of a five-point stencil, omega 1.5", "1e-4 relative",
       [](Device& d, const Shape& s, const std::string& v) { return run_stencil(d, s, v, "sor", 1.5f, -1.5f, 0.375f); }},
      {"sw", "Smith-Waterman local alignment scores of two random DNA strings", "exact",
       [](Device& d, const Shape& s, const std::string& v) { return run_sw(d, s, v); }}};
  return all;
}

const Workload* find(const std::string& name) {
  for (const auto& w : workloads())
    if (w.name == name) return &w;
  return nullptr;
}

void parse_tiles(const std::string& text, Shape& shape) {
  unsigned long x = 0, y = 0;
  char sep = 0, extra = 0;
  std::istringstream in(text);
  const bool ok = (in >> x) && ((in >> sep) ? sep == 'x' && (in >> y) && !(in >> extra) : (y = x, true));
  if (!ok || text.find('-') != std::string::npos || x == 0 || y == 0 || x > 65536 || y > 65536 || x * y > 65536)
    throw Error({"--tiles", 0, 0}, "'" + text + "' is not WxH tiles (or N for N x N), at most 65,536 in all", Error::Kind::usage);
  shape.tiles_x = static_cast<std::uint32_t>(x);
  shape.tiles_y = static_cast<std::uint32_t>(y);
}

}  // namespace irr::workloads::wavefront
