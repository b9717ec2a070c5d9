// SPDX-License-Identifier: Apache-2.0
// Triangle meshes for Delaunay mesh refinement: a triangulation with adjacency, its predicates
// (orientation, in-circle, the minimum-angle test), Bowyer-Watson point insertion, and the checks
// of a valid refined mesh. The `delaunay:` generator triangulates random points with it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace irr::workloads {

struct TriMesh {
  static constexpr std::uint32_t kNone = 0xffffffffu;
  std::vector<double> xy;          // x, y of each point
  std::vector<std::uint32_t> v;    // 3 points a triangle, counter-clockwise
  std::vector<std::uint32_t> nb;   // 3 a triangle: the triangle across the edge opposite point i, or kNone
  std::uint32_t triangles() const { return static_cast<std::uint32_t>(v.size() / 3); }
  // The unit square as two triangles over its corners, then each point inserted (Bowyer-Watson).
  static TriMesh square(const std::vector<double>& points);
  void insert(double x, double y);
  // "" when the mesh is valid: every triangle counter-clockwise, neighbours mutual across the
  // same edge, an edge without one on the square's border, the areas summing to the square's, and
  // Delaunay (no point strictly inside a neighbour's circumcircle); else the first fault.
  std::string invalid() const;
  std::uint32_t last_ = 0;  // where the next point location starts walking
};

double orient(const double* a, const double* b, const double* c);  // > 0: a, b, c counter-clockwise
double incircle(const double* a, const double* b, const double* c, const double* d);  // > 0: d inside abc's circle
// The smallest angle's cosine: a triangle is bad (refined) when it exceeds cos 30 degrees.
double min_angle_cos(const double* a, const double* b, const double* c);
constexpr double kBadCos = 0.86602540378443865;  // cos 30 degrees, LonestarGPU's minimum angle

}  // namespace irr::workloads
