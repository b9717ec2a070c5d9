// SPDX-License-Identifier: Apache-2.0
// `irrgpu run --workload bfs --variant hwwl` as a plain CUDA program: the kernels of
// workloads/kernels/wl_hwwl.cu, the host's calls in the order that workload's driver makes them
// (workloads/workloads.cpp: bfs, api_worklist), the HWWL's queries through irrgpuQuery. Run with
// `irrgpu exec -s hwwl.enabled=true -- hwwl_bfs CSR SOURCE`, CSR.row/.col/.weight holding the
// graph's arrays (32-bit words); it checks the levels against a BFS on the CPU.
#include <cstdio>
#include <queue>
#include <string>
#include <vector>

#include "models/cudart/irrgpu_runtime.h"
#include "workloads/kernels/wl_hwwl.cu"

static std::vector<unsigned> words(const std::string& path) {
  std::vector<unsigned> v;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    unsigned w;
    while (std::fread(&w, 4, 1, f) == 1) v.push_back(w);
    std::fclose(f);
  }
  return v;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: hwwl_bfs CSR SOURCE\n");
    return 2;
  }
  const std::string csr = argv[1];
  const unsigned src = static_cast<unsigned>(std::stoul(argv[2]));
  const std::vector<unsigned> row = words(csr + ".row"), col = words(csr + ".col"), weight = words(csr + ".weight");
  if (row.empty() || src + 1 >= row.size()) {
    std::fprintf(stderr, "hwwl_bfs: no graph at %s.row or source %u out of range\n", argv[1], src);
    return 2;
  }
  const unsigned n = static_cast<unsigned>(row.size() - 1), edges = static_cast<unsigned>(col.size());
  unsigned *drow, *dcol, *dweight, *level;
  cudaMalloc(&drow, row.size() * 4);
  cudaMalloc(&dcol, (edges ? edges : 1) * 4);
  cudaMalloc(&dweight, (edges ? edges : 1) * 4);
  cudaMemcpy(drow, row.data(), row.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dcol, col.data(), edges * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dweight, weight.data(), weight.size() * 4, cudaMemcpyHostToDevice);
  cudaMalloc(&level, n * 4);
  cudaMemset(level, 0xff, n * 4);
  const unsigned zero = 0;
  cudaMemcpy(level + src, &zero, 4, cudaMemcpyHostToDevice);

  // A double-buffered HWWL gives levels in order (bfs_wl claims each vertex once); a single
  // buffer mixes them (bfs_wl_relax lowers a level by atomicMin and pushes the vertex again).
  const bool double_buffer = irrgpuQuery("hwwl.double_buffer") != 0;
  const unsigned long long cap = double_buffer ? n : (edges ? edges : 1) + 1;
  const void* kernel = double_buffer ? reinterpret_cast<const void*>(bfs_wl) : reinterpret_cast<const void*>(bfs_wl_relax);
  int per_sm = 0, sms = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 256, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const unsigned blocks = per_sm * sms ? per_sm * sms : 120;  // a persistent grid (120 functionally)
  const unsigned long long cores = irrgpuQuery("hwwl.cores");
  unsigned* buffer;
  cudaMalloc(&buffer, cores * cap * 4);
  const unsigned mode = static_cast<unsigned>(irrgpuQuery("hwwl.double_buffer"));
  wl_hwwl_init<<<1, 256>>>(mode, reinterpret_cast<unsigned long long>(buffer), cap);
  wl_hwwl_seed<<<1, 256>>>(src);
  while (irrgpuQuery("hwwl.work_remains")) {
    if (double_buffer) bfs_wl<<<blocks, 256>>>(drow, dcol, level, 0);
    else bfs_wl_relax<<<blocks, 256>>>(drow, dcol, level, 0);
  }
  std::vector<unsigned> got(n);
  cudaMemcpy(got.data(), level, n * 4, cudaMemcpyDeviceToHost);

  std::vector<unsigned> want(n, 0xffffffffu);
  std::queue<unsigned> q;
  want[src] = 0;
  q.push(src);
  while (!q.empty()) {
    const unsigned v = q.front();
    q.pop();
    for (unsigned e = row[v]; e < row[v + 1]; ++e)
      if (want[col[e]] == 0xffffffffu) want[col[e]] = want[v] + 1, q.push(col[e]);
  }
  for (unsigned v = 0; v < n; ++v)
    if (got[v] != want[v]) {
      std::printf("FAIL level[%u] = %u, want %u\n", v, got[v], want[v]);
      return 1;
    }
  std::printf("PASS hwwl_bfs (%u vertices, %u edges)\n", n, edges);
  return 0;
}
