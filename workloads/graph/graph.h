// SPDX-License-Identifier: Apache-2.0
// Graphs for the workloads: CSR with 32-bit vertex ids and weights, read from MatrixMarket (.mtx),
// DIMACS shortest-path (.gr) and SNAP edge lists (.txt, .el, anything else), or generated:
// grid:rows=R,cols=C  rmat:scale=S,edge_factor=E  random:n=N,m=M (or degree=D: D edges out of every
// vertex, as LonestarGPU's r4-2e20)  rgg:n=N,radius=R
// mesh:rows=R,cols=C (a max-flow mesh: source 0, sink last)
// sat:vars=N,ratio=R,k=K (random K-SAT's factor graph: see Graph::clauses)
// plummer:n=N (N bodies of a Plummer star cluster, no edges: see Graph::bodies)
// delaunay:n=N (a Delaunay triangulation of the unit square: see Graph::mesh), each with seed=K. Vertex ids are 0-based (row i of a .mtx or .gr file is vertex i-1). Bad input is an
// irr::Error naming file:line and why.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "workloads/graph/delaunay.h"

namespace irr::workloads {

struct Graph {
  std::uint32_t n = 0;
  std::vector<std::uint32_t> row;     // n + 1 offsets
  std::vector<std::uint32_t> col;     // m destinations
  std::vector<std::uint32_t> weight;  // m weights (1 when the input has none)
  std::string name;
  // A factor graph (sat: generator) when not 0: vertices 0 .. clauses-1 are clauses, the rest
  // variables (variable i is vertex clauses + i); an edge joins a clause and a variable of it both
  // ways, weight 1 when the variable appears plain, 2 when negated.
  std::uint32_t clauses = 0;
  // Bodies (plummer: generator) when not empty: x, y, z, vx, vy, vz of each vertex, every body of
  // mass 1/n.
  std::vector<float> bodies;
  // A triangulation (delaunay: generator) when it has triangles: the vertices are its points, the
  // edges its triangles' edges both ways.
  TriMesh mesh;
  std::uint64_t edges() const { return col.size(); }
  std::uint32_t degree(std::uint32_t v) const { return row[v + 1] - row[v]; }
};

struct Edge {
  std::uint32_t from, to, weight;
};

// Sorted by source then destination; self loops kept, parallel edges kept.
Graph from_edges(std::uint32_t n, std::vector<Edge> edges, const std::string& name);
// The undirected simple graph of g: every edge both ways, self loops dropped, parallel edges as
// the lightest (colouring, independent sets, connectivity and spanning trees are defined on it).
Graph undirected(const Graph& g);

Graph read_mtx(const std::string& path);
Graph read_dimacs(const std::string& path);
Graph read_snap(const std::string& path);
// 2^28 vertices make a 1 GiB row array and are far beyond what simulates in days; the bound
// keeps a bogus header from allocating the host's memory.
constexpr std::uint64_t kMaxGraphVertices = 1ull << 28;

// The same from a stream; `path` names it in errors. A graph of `max_vertices` or more is an
// error (the fuzz targets bound it lower, to spend their time on parsing, not on row arrays).
Graph read_mtx(std::istream& in, const std::string& path, std::uint64_t max_vertices = kMaxGraphVertices);
Graph read_dimacs(std::istream& in, const std::string& path, std::uint64_t max_vertices = kMaxGraphVertices);
Graph read_snap(std::istream& in, const std::string& path, std::uint64_t max_vertices = kMaxGraphVertices);
// "kind:key=value,..." or a file path (by extension: .mtx, .gr, else SNAP).
Graph load_graph(const std::string& spec);
bool is_generator(const std::string& spec);

}  // namespace irr::workloads
