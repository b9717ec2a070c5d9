// SPDX-License-Identifier: Apache-2.0
#include "workloads/graph/delaunay.h"

#include <algorithm>
#include <cmath>

#include "sim/error.h"

namespace irr::workloads {

double orient(const double* a, const double* b, const double* c) {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

double incircle(const double* a, const double* b, const double* c, const double* d) {
  const double ax = a[0] - d[0], ay = a[1] - d[1], bx = b[0] - d[0], by = b[1] - d[1], cx = c[0] - d[0], cy = c[1] - d[1];
  return (ax * ax + ay * ay) * (bx * cy - cx * by) - (bx * bx + by * by) * (ax * cy - cx * ay) + (cx * cx + cy * cy) * (ax * by - bx * ay);
}

double min_angle_cos(const double* a, const double* b, const double* c) {
  const double* p[3] = {a, b, c};
  double len2[3];
  for (int i = 0; i < 3; ++i) {
    const double* s = p[(i + 1) % 3];
    const double* t = p[(i + 2) % 3];
    len2[i] = (s[0] - t[0]) * (s[0] - t[0]) + (s[1] - t[1]) * (s[1] - t[1]);
  }
  const int i = static_cast<int>(std::min_element(len2, len2 + 3) - len2);  // the shortest edge faces the smallest angle
  const double b2 = len2[(i + 1) % 3], c2 = len2[(i + 2) % 3];
  return (b2 + c2 - len2[i]) / (2 * std::sqrt(b2 * c2));
}

TriMesh TriMesh::square(const std::vector<double>& points) {
  TriMesh m;
  m.xy = {0, 0, 1, 0, 1, 1, 0, 1};
  m.v = {0, 1, 2, 0, 2, 3};
  m.nb = {kNone, 1, kNone, kNone, kNone, 0};
  for (std::size_t i = 0; i + 1 < points.size(); i += 2) m.insert(points[i], points[i + 1]);
  return m;
}

void TriMesh::insert(double x, double y) {
  const double p[2] = {x, y};
  const auto at = [&](std::uint32_t t, int i) { return &xy[2ull * v[3ull * t + i]]; };
  // Walk towards p: across any edge p lies beyond (the visibility walk ends in a Delaunay mesh).
  std::uint32_t t = last_;
  for (std::uint64_t steps = 0;; ++steps) {
    if (steps > 4ull * triangles() + 16) throw Error("delaunay: point location did not end (a point outside the square?)", Error::Kind::config);
    int beyond = -1;
    for (int i = 0; i < 3 && beyond < 0; ++i)
      if (orient(at(t, (i + 1) % 3), at(t, (i + 2) % 3), p) < 0) beyond = i;
    if (beyond < 0) break;
    const std::uint32_t next = nb[3ull * t + beyond];
    if (next == kNone) throw Error("delaunay: a point outside the unit square", Error::Kind::config);
    t = next;
  }
  // The cavity: triangles whose circumcircle holds p, grown from the one that contains it.
  std::vector<std::uint32_t> cavity{t};
  for (std::size_t k = 0; k < cavity.size(); ++k)
    for (int i = 0; i < 3; ++i) {
      const std::uint32_t u = nb[3ull * cavity[k] + i];
      if (u != kNone && std::find(cavity.begin(), cavity.end(), u) == cavity.end() && incircle(at(u, 0), at(u, 1), at(u, 2), p) > 0)
        cavity.push_back(u);
    }
  // Its border edges (a, b) counter-clockwise with the triangle outside; one new triangle (a, b, p) each.
  struct Border {
    std::uint32_t a, b, out;
  };
  std::vector<Border> border;
  for (std::uint32_t c : cavity)
    for (int i = 0; i < 3; ++i) {
      const std::uint32_t u = nb[3ull * c + i];
      if (u == kNone || std::find(cavity.begin(), cavity.end(), u) == cavity.end())
        border.push_back({v[3ull * c + (i + 1) % 3], v[3ull * c + (i + 2) % 3], u});
    }
  const auto point = static_cast<std::uint32_t>(xy.size() / 2);
  xy.push_back(x);
  xy.push_back(y);
  std::vector<std::uint32_t> slot(border.size());
  for (std::size_t j = 0; j < border.size(); ++j) {
    slot[j] = j < cavity.size() ? cavity[j] : triangles();
    if (j >= cavity.size()) v.resize(v.size() + 3), nb.resize(nb.size() + 3);
  }
  for (std::size_t j = 0; j < border.size(); ++j) {
    const Border& e = border[j];
    const std::uint64_t s = 3ull * slot[j];
    v[s] = e.a, v[s + 1] = e.b, v[s + 2] = point;
    nb[s + 2] = e.out;
    for (std::size_t k = 0; k < border.size(); ++k) {
      if (border[k].a == e.b) nb[s] = slot[k];      // across (b, p)
      if (border[k].b == e.a) nb[s + 1] = slot[k];  // across (p, a)
    }
    if (e.out != kNone)  // its edge (b, a): by the edge, as a cavity triangle's slot may be reused already
      for (int i = 0; i < 3; ++i)
        if (v[3ull * e.out + (i + 1) % 3] == e.b && v[3ull * e.out + (i + 2) % 3] == e.a) nb[3ull * e.out + i] = slot[j];
  }
  last_ = slot[0];
}

std::string TriMesh::invalid() const {
  const auto at = [&](std::uint32_t t, int i) { return &xy[2ull * v[3ull * t + i]]; };
  const auto on_border = [&](std::uint32_t p) {
    const double x = xy[2ull * p], y = xy[2ull * p + 1];
    return x == 0 || x == 1 || y == 0 || y == 1;
  };
  const auto name = [](std::uint32_t t) { return "triangle " + std::to_string(t) + ": "; };
  double area = 0;
  for (std::uint32_t t = 0; t < triangles(); ++t) {
    for (int i = 0; i < 3; ++i)
      if (v[3ull * t + i] >= xy.size() / 2) return name(t) + "point " + std::to_string(v[3ull * t + i]) + " does not exist";
    const double a = orient(at(t, 0), at(t, 1), at(t, 2));
    if (!(a > 0)) return name(t) + "not counter-clockwise (twice its area " + std::to_string(a) + ")";
    area += a / 2;
    for (int i = 0; i < 3; ++i) {
      const std::uint32_t p = v[3ull * t + (i + 1) % 3], q = v[3ull * t + (i + 2) % 3], u = nb[3ull * t + i];
      if (u == kNone) {
        if (!on_border(p) || !on_border(q) || (xy[2ull * p] != xy[2ull * q] && xy[2ull * p + 1] != xy[2ull * q + 1]))
          return name(t) + "edge " + std::to_string(p) + "-" + std::to_string(q) + " has no neighbour but is not on the square's border";
        continue;
      }
      if (u >= triangles()) return name(t) + "neighbour " + std::to_string(u) + " does not exist";
      int back = -1;
      for (int k = 0; k < 3; ++k)
        if (nb[3ull * u + k] == t) back = k;
      if (back < 0 || v[3ull * u + (back + 1) % 3] != q || v[3ull * u + (back + 2) % 3] != p)
        return name(t) + "neighbour " + std::to_string(u) + " across " + std::to_string(p) + "-" + std::to_string(q) + " does not share that edge back";
      const double* far = at(u, back);
      const double scale = std::max({1e-300, std::fabs(a) * std::fabs(a)});
      if (incircle(at(t, 0), at(t, 1), at(t, 2), far) > 1e-9 * scale)
        return name(t) + "not Delaunay: point " + std::to_string(v[3ull * u + back]) + " of triangle " + std::to_string(u) + " is inside its circumcircle";
    }
  }
  if (std::fabs(area - 1) > 1e-9) return "the triangles' areas sum to " + std::to_string(area) + ", not the square's 1";
  return "";
}

}  // namespace irr::workloads
