// SPDX-License-Identifier: Apache-2.0
#include "workloads/suite/suite.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "sim/error.h"
#include "workloads/workloads.h"

namespace irr::workloads::suite {

using runtime::Args;
using runtime::Device;
using runtime::Dim3;

Launcher::Launcher(Device& d, const core::ptx::ExtensionRegistry* registry, dac::Queues* queues,
                   const dac::Options& options, bool companion)
    : dev(d), queues_(queues), companion_(companion) {
  const std::string path = kernels_dir() + "/suite.ptx";
  if (!queues) {
    module = dev.load_module(path);
    return;
  }
  if (!registry) throw std::logic_error("suite::Launcher: a split run needs the registry holding enq and deq");
  module = dev.load_module(dac::split_module(core::ptx::parse_file(path, registry), *registry, options));
}

void Launcher::launch(const std::string& kernel, Dim3 grid, Dim3 block, const Args& args) {
  ++launches;
  if (!queues_) {
    warp_instructions += dev.launch(dev.kernel(module, kernel), grid, block, args).warp_instructions;
    return;
  }
  if (companion_) {
    warp_instructions += dev.launch_with_companion(dev.kernel(module, dac::non_affine_name(kernel)),
                                                   dev.kernel(module, dac::affine_name(kernel)), grid, block, args)
                             .warp_instructions;
  } else {
    const std::uint64_t affine = dev.launch(dev.kernel(module, dac::affine_name(kernel)), grid, block, args).warp_instructions;
    affine_warp_instructions += affine;
    affine_per_cta += affine / ((block.count() + 31) / 32);
    warp_instructions += dev.launch(dev.kernel(module, dac::non_affine_name(kernel)), grid, block, args).warp_instructions;
  }
  queues_->check_drained();
  for (auto r : queues_->counts().records) deq_instructions += r;  // every record dequeued once
  queues_->clear();
}

namespace {

// A small deterministic generator (the same inputs on every platform).
struct Rng {
  std::uint64_t s;
  std::uint32_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(s >> 33);
  }
  float uniform(float lo, float hi) { return lo + (hi - lo) * static_cast<float>(next() % 1000000) / 1000000.0f; }
  std::uint32_t below(std::uint32_t n) { return next() % n; }
  std::vector<float> floats(std::size_t n, float lo, float hi) {
    std::vector<float> v(n);
    for (auto& x : v) x = uniform(lo, hi);
    return v;
  }
};

template <typename T>
std::uint64_t upload(Device& d, const std::vector<T>& v) {
  const std::uint64_t p = d.malloc(std::max<std::size_t>(1, v.size() * sizeof(T)));
  if (!v.empty()) d.memcpy_to_device(p, v.data(), v.size() * sizeof(T));
  return p;
}

template <typename T>
std::vector<T> download(Device& d, std::uint64_t p, std::size_t n) {
  std::vector<T> v(n);
  if (n) d.memcpy_to_host(v.data(), p, n * sizeof(T));
  return v;
}

std::uint32_t blocks(std::uint64_t n, std::uint32_t per) { return static_cast<std::uint32_t>((n + per - 1) / per); }

// Collects outputs and the first difference from the CPU reference.
struct Checker {
  Outcome out;
  template <typename T>
  void keep(const std::vector<T>& got) {
    const auto* b = reinterpret_cast<const std::uint8_t*>(got.data());
    out.bytes.insert(out.bytes.end(), b, b + got.size() * sizeof(T));
  }
  template <typename T>
  void exact(const std::string& what, const std::vector<T>& got, const std::vector<T>& want) {
    keep(got);
    for (std::size_t i = 0; i < want.size() && out.error.empty(); ++i)
      if (got[i] != want[i])
        out.error = what + "[" + std::to_string(i) + "] = " + std::to_string(got[i]) + ", the CPU gives " + std::to_string(want[i]);
  }
  // Within `tol` of the reference, relative to its magnitude (at least 1): the device contracts
  // a·b + c into fma and uses its approximate exp/log where the CPU does not.
  void close(const std::string& what, const std::vector<float>& got, const std::vector<float>& want, float tol = 1e-4f) {
    keep(got);
    for (std::size_t i = 0; i < want.size() && out.error.empty(); ++i)
      if (!(std::fabs(got[i] - want[i]) <= tol * std::max(1.0f, std::fabs(want[i]))))
        out.error = what + "[" + std::to_string(i) + "] = " + std::to_string(got[i]) + ", the CPU gives " + std::to_string(want[i]);
  }
};

Outcome vecadd(Launcher& l) {
  Device& d = l.dev;
  const int n = 10000 * static_cast<int>(l.scale);
  Rng r{1};
  const auto a = r.floats(n, -10, 10), b = r.floats(n, -10, 10);
  const auto pc = d.malloc(n * 4);
  l.launch("vecadd", Dim3{blocks(n, 256)}, Dim3{256}, Args() << upload(d, a) << upload(d, b) << pc << n);
  std::vector<float> want(n);
  for (int i = 0; i < n; ++i) want[i] = a[i] + b[i];
  Checker c;
  c.exact("c", download<float>(d, pc, n), want);
  return c.out;
}

Outcome saxpy(Launcher& l) {
  Device& d = l.dev;
  const int n = 10000 * static_cast<int>(l.scale);
  const float alpha = 1.5f;
  Rng r{2};
  const auto x = r.floats(n, -10, 10), y = r.floats(n, -10, 10);
  const auto py = upload(d, y);
  l.launch("saxpy", Dim3{16 * l.scale}, Dim3{128}, Args() << alpha << upload(d, x) << py << n);  // a grid-stride loop
  std::vector<float> want(n);
  for (int i = 0; i < n; ++i) want[i] = alpha * x[i] + y[i];
  Checker c;
  c.close("y", download<float>(d, py, n), want);
  return c.out;
}

Outcome stencil5(Launcher& l) {
  Device& d = l.dev;
  const int w = 70, h = 45 * static_cast<int>(l.scale);
  const float c0 = 0.5f, c1 = 0.125f;
  Rng r{3};
  const auto in = r.floats(w * h, 0, 100);
  const auto out = d.malloc(w * h * 4);
  l.launch("stencil5", Dim3{blocks(w, 16), blocks(h, 16)}, Dim3{16, 16}, Args() << upload(d, in) << out << w << h << c0 << c1);
  std::vector<float> want(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int i = y * w + x;
      want[i] = x == 0 || y == 0 || x == w - 1 || y == h - 1
                    ? in[i]
                    : c0 * in[i] + c1 * (in[i - w] + in[i + w] + in[i - 1] + in[i + 1]);
    }
  Checker c;
  c.close("out", download<float>(d, out, w * h), want);
  return c.out;
}

Outcome sgemm(Launcher& l) {
  Device& d = l.dev;
  const int m = 64 * static_cast<int>(l.scale), n = 48, k = 32;
  Rng r{4};
  const auto a = r.floats(m * k, -1, 1), b = r.floats(k * n, -1, 1);
  const auto pc = d.malloc(m * n * 4);
  l.launch("sgemm", Dim3{n / 16, static_cast<std::uint32_t>(m / 16)}, Dim3{16, 16}, Args() << upload(d, a) << upload(d, b) << pc << m << n << k);
  std::vector<float> want(m * n, 0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int t = 0; t < k; ++t) want[i * n + j] += a[i * k + t] * b[t * n + j];
  Checker c;
  c.close("C", download<float>(d, pc, m * n), want);
  return c.out;
}

Outcome hotspot(Launcher& l) {
  Device& d = l.dev;
  const int w = 50, h = 40 * static_cast<int>(l.scale);
  const float cap = 0.5f, rx = 0.1f, ry = 0.1f, rz = 0.05f, amb = 80.0f;
  Rng r{5};
  const auto power = r.floats(w * h, 0, 1), temp = r.floats(w * h, 320, 340);
  const auto out = d.malloc(w * h * 4);
  l.launch("hotspot", Dim3{blocks(w, 16), blocks(h, 16)}, Dim3{16, 16},
           Args() << upload(d, power) << upload(d, temp) << out << w << h << cap << rx << ry << rz << amb);
  std::vector<float> want(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int i = y * w + x;
      const float n = temp[std::max(y - 1, 0) * w + x], s = temp[std::min(y + 1, h - 1) * w + x];
      const float e = temp[y * w + std::min(x + 1, w - 1)], wv = temp[y * w + std::max(x - 1, 0)], t = temp[i];
      want[i] = t + cap * (power[i] + (s + n - 2.0f * t) * ry + (e + wv - 2.0f * t) * rx + (amb - t) * rz);
    }
  Checker c;
  c.close("out", download<float>(d, out, w * h), want);
  return c.out;
}

Outcome pathfinder(Launcher& l) {
  Device& d = l.dev;
  const int rows = 20, cols = 1000 * static_cast<int>(l.scale);
  Rng r{6};
  std::vector<int> wall(rows * cols);
  for (auto& v : wall) v = static_cast<int>(r.below(10));
  const auto pw = upload(d, wall);
  std::vector<int> first(wall.begin(), wall.begin() + cols);
  std::uint64_t src = upload(d, first), dst = d.malloc(cols * 4);
  for (int row = 1; row < rows; ++row) {
    l.launch("pathfinder", Dim3{blocks(cols, 256)}, Dim3{256}, Args() << pw << src << dst << cols << row);
    std::swap(src, dst);
  }
  std::vector<int> want = first;
  for (int row = 1; row < rows; ++row) {
    std::vector<int> next(cols);
    for (int c = 0; c < cols; ++c) {
      int best = want[c];
      if (c > 0) best = std::min(best, want[c - 1]);
      if (c < cols - 1) best = std::min(best, want[c + 1]);
      next[c] = wall[row * cols + c] + best;
    }
    want = next;
  }
  Checker c;
  c.exact("result", download<int>(d, src, cols), want);
  return c.out;
}

Outcome srad(Launcher& l) {
  Device& d = l.dev;
  const int rows = 40 * static_cast<int>(l.scale), cols = 48, cells = rows * cols;
  const float q0sqr = 0.05f, lambda = 0.5f;
  Rng r{7};
  auto J = r.floats(cells, 0.5f, 1.5f);
  std::vector<int> iN(rows), iS(rows), jW(cols), jE(cols);
  for (int i = 0; i < rows; ++i) iN[i] = std::max(i - 1, 0), iS[i] = std::min(i + 1, rows - 1);
  for (int j = 0; j < cols; ++j) jW[j] = std::max(j - 1, 0), jE[j] = std::min(j + 1, cols - 1);
  const auto pJ = upload(d, J), pN = upload(d, iN), pS = upload(d, iS), pW = upload(d, jW), pE = upload(d, jE);
  std::uint64_t dir[4], pc = d.malloc(cells * 4);
  for (auto& p : dir) p = d.malloc(cells * 4);
  const Dim3 grid{blocks(cols, 16), blocks(rows, 16)}, block{16, 16};
  l.launch("srad1", grid, block,
           Args() << pJ << pN << pS << pW << pE << dir[0] << dir[1] << dir[2] << dir[3] << pc << rows << cols << q0sqr);
  l.launch("srad2", grid, block,
           Args() << pJ << pS << pE << dir[0] << dir[1] << dir[2] << dir[3] << pc << rows << cols << lambda);
  std::vector<float> dn(cells), ds(cells), dw(cells), de(cells), cv(cells), want = J;
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) {
      const int k = y * cols + x;
      const float jc = J[k];
      const float n = J[iN[y] * cols + x] - jc, s = J[iS[y] * cols + x] - jc;
      const float w = J[y * cols + jW[x]] - jc, e = J[y * cols + jE[x]] - jc;
      const float g2 = (n * n + s * s + w * w + e * e) / (jc * jc), lap = (n + s + w + e) / jc;
      const float num = 0.5f * g2 - (1.0f / 16.0f) * (lap * lap);
      float den = 1 + 0.25f * lap;
      const float qsqr = num / (den * den);
      den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
      const float v = 1.0f / (1.0f + den);
      cv[k] = v < 0 ? 0 : v > 1 ? 1 : v;
      dn[k] = n, ds[k] = s, dw[k] = w, de[k] = e;
    }
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) {
      const int k = y * cols + x;
      const float dd = cv[k] * dn[k] + cv[iS[y] * cols + x] * ds[k] + cv[k] * dw[k] + cv[y * cols + jE[x]] * de[k];
      want[k] = J[k] + 0.25f * lambda * dd;
    }
  Checker c;
  c.close("c", download<float>(d, pc, cells), cv, 1e-3f);
  c.close("J", download<float>(d, pJ, cells), want, 1e-3f);
  return c.out;
}

Outcome backprop(Launcher& l) {
  Device& d = l.dev;
  const int n_in = 64, n_hid = 200 * static_cast<int>(l.scale);
  const float eta = 0.3f, momentum = 0.3f;
  Rng r{8};
  const auto in = r.floats(n_in, 0, 1), w = r.floats(n_in * n_hid, -0.5f, 0.5f), delta = r.floats(n_hid, -0.1f, 0.1f);
  const auto oldw = r.floats(n_in * n_hid, -0.05f, 0.05f);
  const auto pin = upload(d, in), pw = upload(d, w), ph = d.malloc(n_hid * 4), pold = upload(d, oldw);
  l.launch("bp_forward", Dim3{blocks(n_hid, 64)}, Dim3{64}, Args() << pin << pw << ph << n_in << n_hid);
  l.launch("bp_adjust", Dim3{blocks(n_hid, 16), blocks(n_in, 16)}, Dim3{16, 16},
           Args() << upload(d, delta) << pin << pw << pold << n_in << n_hid << eta << momentum);
  std::vector<float> hidden(n_hid), w2 = w, old2 = oldw;
  for (int j = 0; j < n_hid; ++j) {
    float sum = 0;
    for (int i = 0; i < n_in; ++i) sum += in[i] * w[i * n_hid + j];
    hidden[j] = 1.0f / (1.0f + std::exp(-sum));
  }
  for (int i = 0; i < n_in; ++i)
    for (int j = 0; j < n_hid; ++j) {
      const int k = i * n_hid + j;
      const float dw = eta * delta[j] * in[i] + momentum * oldw[k];
      w2[k] += dw;
      old2[k] = dw;
    }
  Checker c;
  c.close("hidden", download<float>(d, ph, n_hid), hidden);
  c.close("w", download<float>(d, pw, n_in * n_hid), w2);
  c.close("oldw", download<float>(d, pold, n_in * n_hid), old2);
  return c.out;
}

float cnd(float x) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f, a5 = 1.330274429f;
  const float k = 1.0f / (1.0f + 0.2316419f * std::fabs(x));
  const float c = 0.3989422804f * std::exp(-0.5f * x * x) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return x > 0 ? 1.0f - c : c;
}

Outcome blackscholes(Launcher& l) {
  Device& d = l.dev;
  const int n = 4000 * static_cast<int>(l.scale);
  const float rate = 0.02f, vol = 0.30f;
  Rng r{9};
  const auto s = r.floats(n, 5, 30), x = r.floats(n, 1, 100), t = r.floats(n, 0.25f, 10);
  const auto pcall = d.malloc(n * 4), pput = d.malloc(n * 4);
  l.launch("blackscholes", Dim3{8 * l.scale}, Dim3{128},
           Args() << upload(d, s) << upload(d, x) << upload(d, t) << pcall << pput << rate << vol << n);
  std::vector<float> call(n), put(n);
  for (int i = 0; i < n; ++i) {
    const float sq = std::sqrt(t[i]);
    const float d1 = (std::log(s[i] / x[i]) + (rate + 0.5f * vol * vol) * t[i]) / (vol * sq), d2 = d1 - vol * sq;
    const float e = x[i] * std::exp(-rate * t[i]);
    call[i] = s[i] * cnd(d1) - e * cnd(d2);
    put[i] = e * (1.0f - cnd(d2)) - s[i] * (1.0f - cnd(d1));
  }
  Checker c;  // __expf and __logf are approximations on the device
  c.close("call", download<float>(d, pcall, n), call, 1e-3f);
  c.close("put", download<float>(d, pput, n), put, 1e-3f);
  return c.out;
}

Outcome histogram(Launcher& l) {
  Device& d = l.dev;
  const int n = 20000 * static_cast<int>(l.scale);
  Rng r{10};
  std::vector<std::uint8_t> data(n);
  for (auto& v : data) v = static_cast<std::uint8_t>(r.below(256) & r.below(256));  // a skewed distribution
  const auto pb = upload(d, std::vector<std::uint32_t>(256, 0));
  l.launch("histogram", Dim3{16 * l.scale}, Dim3{256}, Args() << upload(d, data) << pb << n);
  std::vector<std::uint32_t> want(256, 0);
  for (auto v : data) ++want[v];
  Checker c;
  c.exact("bins", download<std::uint32_t>(d, pb, 256), want);
  return c.out;
}

Outcome spmv(Launcher& l) {
  Device& d = l.dev;
  const int n = 500 * static_cast<int>(l.scale);
  Rng r{11};
  std::vector<int> row(n + 1, 0), col;
  std::vector<float> val;
  for (int i = 0; i < n; ++i) {
    const auto nnz = r.below(17);
    for (std::uint32_t k = 0; k < nnz; ++k) col.push_back(static_cast<int>(r.below(n))), val.push_back(r.uniform(-1, 1));
    row[i + 1] = static_cast<int>(col.size());
  }
  const auto x = r.floats(n, -1, 1);
  const auto py = d.malloc(n * 4);
  l.launch("spmv", Dim3{blocks(n, 128)}, Dim3{128}, Args() << upload(d, row) << upload(d, col) << upload(d, val) << upload(d, x) << py << n);
  std::vector<float> want(n, 0);
  for (int i = 0; i < n; ++i)
    for (int j = row[i]; j < row[i + 1]; ++j) want[i] += val[j] * x[col[j]];
  Checker c;
  c.close("y", download<float>(d, py, n), want);
  return c.out;
}

Outcome lbm(Launcher& l) {
  Device& d = l.dev;
  const int w = 48, h = 32 * static_cast<int>(l.scale), cells = w * h;
  const float omega = 1.2f;
  Rng r{12};
  const auto f = r.floats(5 * cells, 0.1f, 1.0f);
  const auto pg = d.malloc(5 * cells * 4);
  l.launch("lbm", Dim3{blocks(w, 16), blocks(h, 16)}, Dim3{16, 16}, Args() << upload(d, f) << pg << w << h << omega);
  std::vector<float> g(5 * cells);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int i = y * w + x;
      const float f0 = f[i], f1 = f[cells + i], f2 = f[2 * cells + i], f3 = f[3 * cells + i], f4 = f[4 * cells + i];
      const float rho = f0 + f1 + f2 + f3 + f4, ux = (f1 - f2) / rho, uy = (f3 - f4) / rho;
      const float e0 = rho / 3.0f, e1 = rho / 6.0f * (1 + 3 * ux), e2 = rho / 6.0f * (1 - 3 * ux);
      const float e3 = rho / 6.0f * (1 + 3 * uy), e4 = rho / 6.0f * (1 - 3 * uy);
      g[i] = f0 + omega * (e0 - f0);
      const float p1 = f1 + omega * (e1 - f1), p2 = f2 + omega * (e2 - f2), p3 = f3 + omega * (e3 - f3), p4 = f4 + omega * (e4 - f4);
      (x + 1 < w ? g[cells + i + 1] : g[2 * cells + i]) = p1;
      (x > 0 ? g[2 * cells + i - 1] : g[cells + i]) = p2;
      (y + 1 < h ? g[3 * cells + i + w] : g[4 * cells + i]) = p3;
      (y > 0 ? g[4 * cells + i - w] : g[3 * cells + i]) = p4;
    }
  Checker c;
  c.close("g", download<float>(d, pg, 5 * cells), g);
  return c.out;
}

Outcome conv_rows(Launcher& l) {
  Device& d = l.dev;
  const int w = 70, h = 20 * static_cast<int>(l.scale), radius = 4;
  Rng r{13};
  const auto taps = r.floats(2 * radius + 1, 0, 0.2f), in = r.floats(w * h, 0, 255);
  d.memcpy_to_device(d.symbol(l.module, "taps"), taps.data(), taps.size() * 4);  // cudaMemcpyToSymbol
  const auto out = d.malloc(w * h * 4);
  l.launch("conv_rows", Dim3{blocks(w, 32), blocks(h, 4)}, Dim3{32, 4}, Args() << upload(d, in) << out << w << h);
  std::vector<float> want(w * h, 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int k = -radius; k <= radius; ++k)
        if (x + k >= 0 && x + k < w) want[y * w + x] += taps[radius + k] * in[y * w + x + k];
  Checker c;
  c.close("out", download<float>(d, out, w * h), want);
  return c.out;
}

}  // namespace

const std::vector<Kernel>& kernels() {
  static const std::vector<Kernel> all = {
      {"vecadd", "c = a + b (CUDA SDK vectorAdd)", "affine streams, a bounds check", vecadd},
      {"saxpy", "y = a·x + y in a grid-stride loop", "affine streams, a loop with an affine bound", saxpy},
      {"stencil", "2-D 5-point Jacobi step (Parboil stencil, 2-D)", "2-D blocks, neighbours at affine offsets, edge branches", stencil5},
      {"sgemm", "C = A·B in 16x16 shared-memory tiles (Parboil sgemm)", "tiles loaded to shared memory, barriers, a scalar loop", sgemm},
      {"hotspot", "a thermal step (Rodinia hotspot)", "2-D, clamped neighbours (min/max: non-affine)", hotspot},
      {"pathfinder", "a row of the dynamic programme per launch (Rodinia pathfinder)", "affine neighbours under affine edge conditions", pathfinder},
      {"srad", "speckle-reducing diffusion, two kernels (Rodinia srad v2)", "neighbours through index arrays (indirect), affine centre", srad},
      {"backprop", "a layer's forward pass and weight update (Rodinia backprop)", "a scalar-address operand, a column walk, a 2-D grid", backprop},
      {"blackscholes", "European option prices (CUDA SDK BlackScholes)", "affine streams, compute-bound", blackscholes},
      {"histogram", "256 bins in shared memory, merged by atomics (CUDA SDK histogram256)", "affine loads, data-dependent shared atomics", histogram},
      {"spmv", "y = A·x in CSR, a row a thread (Parboil spmv)", "row bounds affine, the rest indirect", spmv},
      {"lbm", "D2Q5 collide-and-stream (Parboil lbm's kind)", "planes at scalar offsets, edge-dependent stores", lbm},
      {"convolution", "a separable filter's row pass (CUDA SDK convolutionSeparable)", "constant memory, affine conditions inside a loop", conv_rows},
  };
  return all;
}

const Kernel* find(const std::string& name) {
  for (const auto& k : kernels())
    if (k.name == name) return &k;
  return nullptr;
}

const Kernel& kernel(const std::string& name) {
  std::string names;
  for (const auto& k : kernels()) {
    if (k.name == name) return k;
    names += (names.empty() ? "" : ", ") + k.name;
  }
  throw Error("unknown suite kernel '" + name + "' (known: " + names + ")", Error::Kind::usage);
}

}  // namespace irr::workloads::suite
