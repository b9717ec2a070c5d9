// SPDX-License-Identifier: Apache-2.0
#include "workloads/graph/graph.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "sim/error.h"

namespace irr::workloads {
namespace {

constexpr std::uint64_t kMaxEdges = 1ull << 32;

Error bad(const std::string& file, int line, const std::string& why) {
  return Error({file, line, 0}, why, Error::Kind::config);
}

// Checks a header's claims before anything is allocated for them.
void check_size(std::istream& in, const std::string& file, int line, std::uint64_t n, std::uint64_t m,
                std::uint64_t max_vertices) {
  if (n == 0) throw bad(file, line, "a graph needs at least one vertex");
  if (n >= max_vertices)
    throw bad(file, line, "too many vertices (" + std::to_string(n) + "; at most " + std::to_string(max_vertices - 1) + ")");
  if (m >= kMaxEdges) throw bad(file, line, "too many edges (" + std::to_string(m) + "; at most 2^32 - 1)");
  // Each edge takes at least 4 bytes of text ("1 2\n"): a claim far beyond the rest of the file is false.
  std::uint64_t rest = 0;  // at the end of the input (a header on the last line): nothing left
  if (!in.eof()) {
    const auto here = in.tellg();
    in.seekg(0, std::ios::end);
    const auto end = in.tellg();
    in.seekg(here);
    if (here < 0 || end < here) return;  // a stream that cannot tell
    rest = static_cast<std::uint64_t>(end - here);
  }
  if (m > rest)
    throw bad(file, line, "the header claims " + std::to_string(m) + " edges; the rest of the file has " +
                              std::to_string(rest) + " bytes");
}

std::uint64_t number(const std::string& file, int line, const std::string& tok, const char* what) {
  std::size_t pos = 0;
  std::uint64_t v = 0;
  try {
    if (!tok.empty() && tok[0] == '-') throw std::invalid_argument(tok);
    v = std::stoull(tok, &pos);
  } catch (const std::exception&) {
    pos = 0;
  }
  if (pos != tok.size() || tok.empty()) throw bad(file, line, std::string("expected ") + what + ", found '" + tok + "'");
  return v;
}

// Opens a graph file for one of the stream readers.
Graph read_file(const std::string& path, Graph (*read)(std::istream&, const std::string&, std::uint64_t)) {
  std::ifstream in(path);
  if (!in) throw bad(path, 0, "cannot read the graph file");
  return read(in, path, kMaxGraphVertices);
}

}  // namespace

Graph from_edges(std::uint32_t n, std::vector<Edge> edges, const std::string& name) {
  // The order of a sort by (source, destination, weight), in two steps: the edges placed by source
  // (a counting sort, linear), then each source's run sorted by destination and weight as one key.
  Graph g;
  g.n = n;
  g.name = name;
  g.row.assign(n + 1, 0);
  for (const Edge& e : edges) ++g.row[e.from + 1];
  for (std::uint32_t v = 0; v < n; ++v) g.row[v + 1] += g.row[v];
  std::vector<std::uint64_t> keys(edges.size());
  std::vector<std::uint32_t> next(g.row.begin(), g.row.end() - 1);
  for (const Edge& e : edges) keys[next[e.from]++] = std::uint64_t{e.to} << 32 | e.weight;
  std::vector<Edge>().swap(edges);  // freed before the CSR arrays grow
  g.col.reserve(keys.size());
  g.weight.reserve(keys.size());
  for (std::uint32_t v = 0; v < n; ++v) {
    std::sort(keys.begin() + g.row[v], keys.begin() + g.row[v + 1]);
    for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e) {
      g.col.push_back(static_cast<std::uint32_t>(keys[e] >> 32));
      g.weight.push_back(static_cast<std::uint32_t>(keys[e]));
    }
  }
  return g;
}

Graph undirected(const Graph& g) {
  std::vector<Edge> pairs;  // each edge once, lower id first
  for (std::uint32_t v = 0; v < g.n; ++v)
    for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e)
      if (g.col[e] != v) pairs.push_back({std::min(v, g.col[e]), std::max(v, g.col[e]), g.weight[e]});
  std::sort(pairs.begin(), pairs.end(), [](const Edge& a, const Edge& b) {
    return a.from != b.from ? a.from < b.from : a.to != b.to ? a.to < b.to : a.weight < b.weight;
  });
  std::vector<Edge> both;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i > 0 && pairs[i].from == pairs[i - 1].from && pairs[i].to == pairs[i - 1].to) continue;  // the lightest kept
    both.push_back(pairs[i]);
    both.push_back({pairs[i].to, pairs[i].from, pairs[i].weight});
  }
  return from_edges(g.n, std::move(both), g.name);
}

Graph read_mtx(const std::string& path) { return read_file(path, read_mtx); }

Graph read_mtx(std::istream& in, const std::string& path, std::uint64_t max_vertices) {
  std::string line;
  int ln = 0;
  if (!std::getline(in, line)) throw bad(path, 1, "empty file");
  ++ln;
  std::istringstream h(line);
  std::string banner, object, format, field, symmetry;
  h >> banner >> object >> format >> field >> symmetry;
  auto lower = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
  };
  if (banner != "%%MatrixMarket" || lower(object) != "matrix" || lower(format) != "coordinate")
    throw bad(path, 1, "not a MatrixMarket coordinate matrix ('%%MatrixMarket matrix coordinate ...')");
  field = lower(field);
  symmetry = lower(symmetry);
  if (field != "pattern" && field != "integer" && field != "real")
    throw bad(path, 1, "unsupported field '" + field + "' (pattern, integer or real)");
  if (symmetry != "general" && symmetry != "symmetric")
    throw bad(path, 1, "unsupported symmetry '" + symmetry + "' (general or symmetric)");
  std::uint64_t rows = 0, cols = 0, nnz = 0;
  while (std::getline(in, line)) {
    ++ln;
    if (line.empty() || line[0] == '%') continue;
    std::istringstream s(line);
    std::string a, b, c;
    s >> a >> b >> c;
    rows = number(path, ln, a, "the row count");
    cols = number(path, ln, b, "the column count");
    nnz = number(path, ln, c, "the entry count");
    break;
  }
  if (!rows) throw bad(path, ln, "no size line");
  const std::uint64_t n = std::max(rows, cols);
  // (Checked before it is doubled: 2^63 symmetric entries would wrap to 0 edges.)
  if (nnz >= kMaxEdges) throw bad(path, ln, "too many entries (" + std::to_string(nnz) + "; at most 2^32 - 1)");
  check_size(in, path, ln, n, nnz * (symmetry == "symmetric" ? 2 : 1), max_vertices);
  std::vector<Edge> edges;
  edges.reserve(nnz);
  std::uint64_t seen = 0;
  while (seen < nnz && std::getline(in, line)) {
    ++ln;
    if (line.empty() || line[0] == '%') continue;
    std::istringstream s(line);
    std::string a, b, w;
    s >> a >> b >> w;
    const std::uint64_t i = number(path, ln, a, "a row index"), j = number(path, ln, b, "a column index");
    if (i < 1 || i > rows || j < 1 || j > cols) throw bad(path, ln, "entry (" + a + ", " + b + ") outside the " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
    std::uint32_t weight = 1;
    if (field != "pattern") {
      if (w.empty()) throw bad(path, ln, "missing value");
      double v;
      try {
        v = std::stod(w);
      } catch (const std::exception&) {
        throw bad(path, ln, "'" + w + "' is not a number");
      }
      // Weights are positive integers for SSSP: real values are rounded, at least 1.
      weight = static_cast<std::uint32_t>(std::clamp(std::llround(std::fabs(v)), 1ll, 1ll << 30));
    }
    edges.push_back({static_cast<std::uint32_t>(i - 1), static_cast<std::uint32_t>(j - 1), weight});
    if (symmetry == "symmetric" && i != j) edges.push_back({static_cast<std::uint32_t>(j - 1), static_cast<std::uint32_t>(i - 1), weight});
    ++seen;
  }
  if (seen < nnz) throw bad(path, ln, "truncated: " + std::to_string(seen) + " of " + std::to_string(nnz) + " entries");
  return from_edges(static_cast<std::uint32_t>(n), std::move(edges), std::filesystem::path(path).filename().string());
}

Graph read_dimacs(const std::string& path) { return read_file(path, read_dimacs); }

Graph read_dimacs(std::istream& in, const std::string& path, std::uint64_t max_vertices) {
  std::string line;
  int ln = 0;
  std::uint64_t n = 0, m = 0, seen = 0;
  std::vector<Edge> edges;
  while (std::getline(in, line)) {
    ++ln;
    if (line.empty() || line[0] == 'c') continue;
    std::istringstream s(line);
    std::string kind;
    s >> kind;
    if (kind == "p") {
      if (n) throw bad(path, ln, "a second 'p sp' line");  // arcs already read may lie outside the new size
      std::string sp, a, b;
      s >> sp >> a >> b;
      if (sp != "sp") throw bad(path, ln, "expected 'p sp <vertices> <arcs>'");
      n = number(path, ln, a, "the vertex count");
      m = number(path, ln, b, "the arc count");
      check_size(in, path, ln, n, m, max_vertices);
      edges.reserve(m);
    } else if (kind == "a") {
      if (!n) throw bad(path, ln, "an arc before the 'p sp' line");
      std::string a, b, w;
      s >> a >> b >> w;
      const std::uint64_t u = number(path, ln, a, "a vertex"), v = number(path, ln, b, "a vertex"),
                          wt = number(path, ln, w, "a weight");
      if (u < 1 || u > n || v < 1 || v > n) throw bad(path, ln, "arc " + a + " -> " + b + " outside 1.." + std::to_string(n));
      edges.push_back({static_cast<std::uint32_t>(u - 1), static_cast<std::uint32_t>(v - 1),
                       static_cast<std::uint32_t>(std::clamp<std::uint64_t>(wt, 1, 1u << 30))});
      ++seen;
    } else {
      throw bad(path, ln, "unknown line '" + kind + "' (c, p or a)");
    }
  }
  if (!n) throw bad(path, ln, "no 'p sp' line");
  if (seen != m) throw bad(path, ln, "the header says " + std::to_string(m) + " arcs; the file has " + std::to_string(seen));
  return from_edges(static_cast<std::uint32_t>(n), std::move(edges), std::filesystem::path(path).filename().string());
}

Graph read_snap(const std::string& path) { return read_file(path, read_snap); }

Graph read_snap(std::istream& in, const std::string& path, std::uint64_t max_vertices) {
  std::string line;
  int ln = 0;
  std::vector<Edge> edges;
  std::uint64_t n = 0;
  while (std::getline(in, line)) {
    ++ln;
    if (line.empty() || line[0] == '#' || line[0] == '%') continue;
    std::istringstream s(line);
    std::string a, b, extra;
    if (!(s >> a >> b)) throw bad(path, ln, "expected '<from> <to>'");
    const std::uint64_t u = number(path, ln, a, "a vertex id"), v = number(path, ln, b, "a vertex id");
    // (Not `max + 1 >= bound`: vertex 2^64 - 1 would wrap it to 0.)
    if (std::max(u, v) >= max_vertices - 1) throw bad(path, ln, "vertex id too large");
    n = std::max(n, std::max(u, v) + 1);
    edges.push_back({static_cast<std::uint32_t>(u), static_cast<std::uint32_t>(v), 1});
  }
  if (!n) throw bad(path, ln, "no edges");
  return from_edges(static_cast<std::uint32_t>(n), std::move(edges), std::filesystem::path(path).filename().string());
}

bool is_generator(const std::string& spec) {
  const auto colon = spec.find(':');
  if (colon == std::string::npos) return false;
  const std::string kind = spec.substr(0, colon);
  return kind == "grid" || kind == "rmat" || kind == "random" || kind == "rgg" || kind == "mesh" || kind == "sat" ||
         kind == "plummer" || kind == "delaunay";
}

namespace {

Graph generate(const std::string& spec) {
  const std::string kind = spec.substr(0, spec.find(':'));
  std::map<std::string, std::string> kv;
  std::stringstream ss(spec.substr(spec.find(':') + 1));
  for (std::string item; std::getline(ss, item, ',');) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw Error(spec + ": '" + item + "' is not key=value", Error::Kind::config);
    kv[item.substr(0, eq)] = item.substr(eq + 1);
  }
  auto take = [&](const std::string& key, double def, bool required) {
    auto it = kv.find(key);
    if (it == kv.end()) {
      if (required) throw Error(spec + ": needs " + key + "=", Error::Kind::config);
      return def;
    }
    double v;
    try {
      std::size_t pos;
      v = std::stod(it->second, &pos);
      if (pos != it->second.size()) throw std::invalid_argument("");
    } catch (const std::exception&) {
      throw Error(spec + ": " + key + "=" + it->second + " is not a number", Error::Kind::config);
    }
    kv.erase(it);
    return v;
  };
  const auto seed = static_cast<std::uint64_t>(take("seed", 1, false));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> weight(1, 100);
  std::vector<Edge> edges;
  std::uint32_t n = 0, clauses = 0;
  std::vector<float> bodies;
  TriMesh mesh;
  if (kind == "grid") {
    const auto rows = static_cast<std::uint32_t>(take("rows", 0, true)), cols = static_cast<std::uint32_t>(take("cols", 0, true));
    if (!rows || !cols || static_cast<std::uint64_t>(rows) * cols >= kMaxGraphVertices) throw Error(spec + ": bad grid size", Error::Kind::config);
    n = rows * cols;
    // A road-like mesh: each vertex linked both ways to its right and lower neighbours.
    for (std::uint32_t r = 0; r < rows; ++r)
      for (std::uint32_t c = 0; c < cols; ++c) {
        const std::uint32_t v = r * cols + c;
        if (c + 1 < cols) {
          const std::uint32_t w = weight(rng);
          edges.push_back({v, v + 1, w});
          edges.push_back({v + 1, v, w});
        }
        if (r + 1 < rows) {
          const std::uint32_t w = weight(rng);
          edges.push_back({v, v + cols, w});
          edges.push_back({v + cols, v, w});
        }
      }
  } else if (kind == "rmat") {
    const auto scale = static_cast<unsigned>(take("scale", 0, true));
    const double ef = take("edge_factor", 16, false);
    if (scale < 1 || scale > 30) throw Error(spec + ": scale must be 1..30", Error::Kind::config);
    n = 1u << scale;
    const auto m = static_cast<std::uint64_t>(ef * n);
    // Graph500's R-MAT: a = 0.57, b = 0.19, c = 0.19, d = 0.05, then ids scrambled.
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<std::uint32_t> perm(n);
    for (std::uint32_t i = 0; i < n; ++i) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    edges.reserve(m);
    for (std::uint64_t e = 0; e < m; ++e) {
      std::uint32_t from = 0, to = 0;
      for (unsigned b = 0; b < scale; ++b) {
        const double x = u(rng);
        const unsigned q = x < 0.57 ? 0 : x < 0.76 ? 1 : x < 0.95 ? 2 : 3;
        from = from << 1 | (q >> 1);
        to = to << 1 | (q & 1);
      }
      edges.push_back({perm[from], perm[to], weight(rng)});
    }
  } else if (kind == "random") {
    n = static_cast<std::uint32_t>(take("n", 0, true));
    if (!n) throw Error(spec + ": n must be at least 1", Error::Kind::config);
    std::uniform_int_distribution<std::uint32_t> pick(0, n - 1);
    if (kv.count("degree")) {
      // LonestarGPU's random graphs (r4-2e20): every vertex exactly `degree` edges out to uniform targets.
      if (kv.count("m")) throw Error(spec + ": give m= or degree=, not both", Error::Kind::config);
      const double degree = take("degree", 0, true);
      if (degree < 1 || degree > 1024 || degree != std::floor(degree)) throw Error(spec + ": degree must be a whole number 1..1024", Error::Kind::config);
      edges.reserve(static_cast<std::uint64_t>(degree) * n);
      for (std::uint32_t v = 0; v < n; ++v)
        for (unsigned k = 0; k < degree; ++k) edges.push_back({v, pick(rng), weight(rng)});
    } else {
      const auto m = static_cast<std::uint64_t>(take("m", 0, true));
      edges.reserve(m);
      for (std::uint64_t e = 0; e < m; ++e) edges.push_back({pick(rng), pick(rng), weight(rng)});
    }
  } else if (kind == "mesh") {
    // A max-flow mesh as the Washington generator's: vertex 0 the source, rows x cols vertices
    // (row r, column c is 1 + r * cols + c), the sink last; the source feeds column 0, the last
    // column feeds the sink (capacity 10,000 each), and each vertex has arcs to its row and the two
    // next to it (cyclically) in the next column, capacities 1 to 100.
    const auto rows = static_cast<std::uint32_t>(take("rows", 0, true)), cols = static_cast<std::uint32_t>(take("cols", 0, true));
    if (!rows || !cols || static_cast<std::uint64_t>(rows) * cols + 2 >= kMaxGraphVertices) throw Error(spec + ": bad mesh size", Error::Kind::config);
    n = rows * cols + 2;
    const auto node = [&](std::uint32_t r, std::uint32_t c) { return 1 + r * cols + c; };
    for (std::uint32_t r = 0; r < rows; ++r) {
      edges.push_back({0, node(r, 0), 10000});
      edges.push_back({node(r, cols - 1), n - 1, 10000});
      for (std::uint32_t c = 0; c + 1 < cols; ++c)
        for (std::uint32_t d = 0; d < std::min(rows, 3u); ++d) edges.push_back({node(r, c), node((r + rows - 1 + d) % rows, c + 1), weight(rng)});
    }
  } else if (kind == "sat") {
    // Random K-SAT as the survey-propagation benchmarks' inputs: round(ratio x vars) clauses of K
    // distinct variables drawn uniformly, each negated with probability 1/2.
    const double vars = take("vars", 0, true), ratio = take("ratio", 4.2, false), k = take("k", 3, false);
    if (k < 1 || k > 8 || k != std::floor(k)) throw Error(spec + ": k must be a whole number 1..8", Error::Kind::config);
    if (vars < k || vars != std::floor(vars) || ratio <= 0 || vars * (1 + ratio) >= kMaxGraphVertices)
      throw Error(spec + ": needs vars >= k (a whole number) and ratio > 0", Error::Kind::config);
    clauses = static_cast<std::uint32_t>(std::max(1.0, std::round(ratio * vars)));
    n = clauses + static_cast<std::uint32_t>(vars);
    std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(vars) - 1);
    std::bernoulli_distribution negated(0.5);
    for (std::uint32_t c = 0; c < clauses; ++c) {
      std::vector<std::uint32_t> chosen;
      while (chosen.size() < k) {
        const std::uint32_t v = pick(rng);
        if (std::find(chosen.begin(), chosen.end(), v) == chosen.end()) chosen.push_back(v);
      }
      for (std::uint32_t v : chosen) {
        const std::uint32_t sign = negated(rng) ? 2 : 1;
        edges.push_back({c, clauses + v, sign});
        edges.push_back({clauses + v, c, sign});
      }
    }
  } else if (kind == "plummer") {
    // A Plummer star cluster in N-body units (Aarseth, Henon and Wielen 1974), as LonestarGPU's
    // Barnes-Hut generates its bodies: radii from the cumulative mass, speeds by rejection from the
    // distribution function, both in random directions.
    const double count = take("n", 0, true);
    if (count < 2 || count != std::floor(count) || count >= kMaxGraphVertices) throw Error(spec + ": needs n >= 2, a whole number", Error::Kind::config);
    n = static_cast<std::uint32_t>(count);
    std::uniform_real_distribution<double> u(0, 1);
    const auto direction = [&](double length, float* out) {
      double x, y, z, sq;
      do x = 2 * u(rng) - 1, y = 2 * u(rng) - 1, z = 2 * u(rng) - 1, sq = x * x + y * y + z * z;
      while (sq > 1 || sq == 0);
      const double scale = length / std::sqrt(sq);
      out[0] = static_cast<float>(x * scale), out[1] = static_cast<float>(y * scale), out[2] = static_cast<float>(z * scale);
    };
    const double rsc = 3 * M_PI / 16, vsc = std::sqrt(1 / rsc);
    bodies.resize(6ull * n);
    for (std::uint32_t i = 0; i < n; ++i) {
      const double r = 1 / std::sqrt(std::pow(u(rng) * 0.999, -2.0 / 3) - 1);
      direction(rsc * r, &bodies[6ull * i]);
      double x, y;
      do x = u(rng), y = 0.1 * u(rng);
      while (y > x * x * std::pow(1 - x * x, 3.5));
      direction(vsc * x * std::sqrt(2.0) / std::pow(1 + r * r, 0.25), &bodies[6ull * i + 3]);
    }
  } else if (kind == "delaunay") {
    // The Delaunay triangulation of the unit square's corners and N - 4 uniformly random points
    // inside (DMR's input, as LonestarGPU's meshes from Triangle), inserted in the order of a
    // serpentine over a grid so each point's location walk is short.
    const double count = take("n", 0, true);
    if (count < 4 || count != std::floor(count) || count >= kMaxGraphVertices) throw Error(spec + ": needs n >= 4, a whole number", Error::Kind::config);
    n = static_cast<std::uint32_t>(count);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<std::pair<double, double>> inside(n - 4);
    for (auto& q : inside) {
      do q = {u(rng), u(rng)};
      while (q.first == 0 || q.second == 0);
    }
    const double side = std::max(1.0, std::floor(std::sqrt((n - 4) / 4.0)));
    const auto rank = [&](const std::pair<double, double>& q) {
      const auto row = static_cast<std::uint64_t>(q.second * side), col = static_cast<std::uint64_t>(q.first * side);
      return row * 2 * static_cast<std::uint64_t>(side) + (row % 2 ? 2 * static_cast<std::uint64_t>(side) - 1 - col : col);
    };
    std::stable_sort(inside.begin(), inside.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
    std::vector<double> flat;
    for (const auto& q : inside) flat.push_back(q.first), flat.push_back(q.second);
    mesh = TriMesh::square(flat);
    for (std::uint32_t t = 0; t < mesh.triangles(); ++t)
      for (int i = 0; i < 3; ++i) {
        const std::uint32_t p = mesh.v[3ull * t + (i + 1) % 3], q = mesh.v[3ull * t + (i + 2) % 3];
        const double dx = mesh.xy[2ull * p] - mesh.xy[2ull * q], dy = mesh.xy[2ull * p + 1] - mesh.xy[2ull * q + 1];
        const auto w = 1 + static_cast<std::uint32_t>(std::min(1.0, std::sqrt(dx * dx + dy * dy)) * 99);
        edges.push_back({p, q, w});
        if (mesh.nb[3ull * t + i] == TriMesh::kNone) edges.push_back({q, p, w});  // a border edge has no triangle the other way
      }
  } else {  // rgg: random geometric, vertices in the unit square joined within `radius`
    n = static_cast<std::uint32_t>(take("n", 0, true));
    const double radius = take("radius", 0, true);
    if (!n || radius <= 0) throw Error(spec + ": needs n >= 1 and radius > 0", Error::Kind::config);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<std::pair<double, double>> p(n);
    for (auto& q : p) q = {u(rng), u(rng)};
    const auto cells = static_cast<std::uint32_t>(std::max(1.0, std::floor(1.0 / radius)));
    std::vector<std::vector<std::uint32_t>> grid(static_cast<std::size_t>(cells) * cells);
    auto cell = [&](double x) { return std::min(cells - 1, static_cast<std::uint32_t>(x * cells)); };
    for (std::uint32_t v = 0; v < n; ++v) grid[cell(p[v].first) * cells + cell(p[v].second)].push_back(v);
    for (std::uint32_t v = 0; v < n; ++v) {
      const std::uint32_t cx = cell(p[v].first), cy = cell(p[v].second);
      for (std::uint32_t x = cx ? cx - 1 : 0; x <= std::min(cells - 1, cx + 1); ++x)
        for (std::uint32_t y = cy ? cy - 1 : 0; y <= std::min(cells - 1, cy + 1); ++y)
          for (std::uint32_t w : grid[x * cells + y]) {
            if (w == v) continue;
            const double dx = p[v].first - p[w].first, dy = p[v].second - p[w].second;
            if (dx * dx + dy * dy <= radius * radius)
              edges.push_back({v, w, 1 + static_cast<std::uint32_t>(std::sqrt(dx * dx + dy * dy) / radius * 99)});
          }
    }
  }
  // scramble=1: the vertices numbered in a random order, as rmat's always are, so that ids carry no
  // locality (grid numbers its vertices row by row and delaunay along a serpentine: neighbours get
  // near ids, whose loads coalesce).
  if (take("scramble", 0, false) != 0) {
    if (kind != "grid" && kind != "random" && kind != "rgg" && kind != "delaunay")
      throw Error(spec + ": scramble= applies to grid:, random:, rgg: and delaunay:", Error::Kind::config);
    std::vector<std::uint32_t> id(n);
    for (std::uint32_t v = 0; v < n; ++v) id[v] = v;
    std::shuffle(id.begin(), id.end(), rng);
    for (Edge& e : edges) e = {id[e.from], id[e.to], e.weight};
    for (auto& p : mesh.v) p = id[p];
    std::vector<double> xy(mesh.xy.size());
    for (std::size_t v = 0; v < mesh.xy.size() / 2; ++v) xy[2ull * id[v]] = mesh.xy[2 * v], xy[2ull * id[v] + 1] = mesh.xy[2 * v + 1];
    mesh.xy = std::move(xy);
  }
  if (!kv.empty()) throw Error(spec + ": unknown parameter '" + kv.begin()->first + "'", Error::Kind::config);
  Graph g = from_edges(n, std::move(edges), spec);
  g.clauses = clauses;
  g.bodies = std::move(bodies);
  g.mesh = std::move(mesh);
  return g;
}

}  // namespace

Graph load_graph(const std::string& spec) {
  if (is_generator(spec)) return generate(spec);
  const std::string ext = std::filesystem::path(spec).extension().string();
  if (!std::filesystem::exists(spec)) throw Error({spec, 0, 0}, "no such graph file (or generator grid:, rmat:, random:, rgg:, mesh:, sat:, plummer:, delaunay:)", Error::Kind::config);
  if (ext == ".mtx") return read_mtx(spec);
  if (ext == ".gr") return read_dimacs(spec);
  return read_snap(spec);
}

}  // namespace irr::workloads
