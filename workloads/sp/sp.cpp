// SPDX-License-Identifier: Apache-2.0
#include "workloads/sp/sp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>

#include "sim/error.h"
#include "sim/hash.h"
#include "workloads/runner.h"

namespace irr::workloads::sp {
namespace {

// LonestarGPU's SP (the HWWL paper's benchmark): a survey sweep gives up unconverged after
// kMaxRounds rounds (decimation stops there, the formula left to WalkSAT); each decimation step
// fixes kFraction of the formula's variables, the most biased first; the surveys are trivial
// (paramagnetic: WalkSAT's turn) once the free variables' mean polarisation is below kParamagnet.
constexpr std::uint32_t kMaxRounds = 1000;
constexpr double kFraction = 0.01;
constexpr double kParamagnet = 0.01;
constexpr std::uint32_t kMaxK = 8;  // sp.cuh's SP_MAX_K

// The formula of a factor graph, as the kernels read it (sp.cuh).
struct Formula {
  std::uint32_t m = 0, n = 0;  // clauses, variables
  std::vector<std::uint32_t> crow, lit, vrow, occ, eclause;
  explicit Formula(const Graph& g) : m(g.clauses), n(g.n - g.clauses), crow(g.row.begin(), g.row.begin() + m + 1), vrow(n + 1, 0) {
    const std::uint32_t edges = crow[m];
    lit.resize(edges);
    eclause.resize(edges);
    for (std::uint32_t a = 0; a < m; ++a)
      for (std::uint32_t e = crow[a]; e < crow[a + 1]; ++e) {
        lit[e] = (g.col[e] - m) << 1 | (g.weight[e] == 2 ? 1u : 0u);
        eclause[e] = a;
        ++vrow[(lit[e] >> 1) + 1];
      }
    for (std::uint32_t v = 0; v < n; ++v) vrow[v + 1] += vrow[v];
    occ.resize(edges);
    std::vector<std::uint32_t> at(vrow.begin(), vrow.end() - 1);
    for (std::uint32_t e = 0; e < edges; ++e) occ[at[lit[e] >> 1]++] = e;
  }
  bool true_under(std::uint32_t e, const std::vector<std::uint8_t>& value) const { return value[lit[e] >> 1] != (lit[e] & 1); }
};

std::string refuses(const Graph& g) {
  if (!g.clauses) return g.name + " is not a factor graph: sp runs on a K-SAT formula (generator sat:vars=N,ratio=R,k=K)";
  for (std::uint32_t a = 0; a < g.clauses; ++a)
    if (g.degree(a) > kMaxK) return g.name + ": clause " + std::to_string(a) + " has more than " + std::to_string(kMaxK) + " literals";
  return "";
}

// WalkSAT (noise 1/2, fewest clauses broken) over the clauses still open, the fixed variables kept:
// the flips it made, or nullopt when it gave up.
std::optional<std::uint64_t> walksat(const Formula& f, const std::vector<std::uint32_t>& csat, const std::vector<std::uint32_t>& val,
                                     std::vector<std::uint8_t>& value) {
  std::mt19937_64 rng(1);
  std::vector<std::uint32_t> true_count(f.m, 0), unsat, where(f.m, kInf);
  const auto mark = [&](std::uint32_t a) {
    if (true_count[a] == 0 && where[a] == kInf) where[a] = static_cast<std::uint32_t>(unsat.size()), unsat.push_back(a);
    if (true_count[a] != 0 && where[a] != kInf) {
      where[unsat.back()] = where[a], unsat[where[a]] = unsat.back(), unsat.pop_back(), where[a] = kInf;
    }
  };
  for (std::uint32_t a = 0; a < f.m; ++a) {
    if (csat[a]) continue;
    for (std::uint32_t e = f.crow[a]; e < f.crow[a + 1]; ++e) true_count[a] += f.true_under(e, value);
    mark(a);
  }
  const std::uint64_t budget = 100000 + 1000ull * f.n;
  for (std::uint64_t flips = 0;; ++flips) {
    if (unsat.empty()) return flips;
    if (flips == budget) return std::nullopt;
    const std::uint32_t a = unsat[rng() % unsat.size()];
    std::uint32_t pick = kInf, fewest = kInf;
    std::vector<std::uint32_t> free_vars;
    for (std::uint32_t e = f.crow[a]; e < f.crow[a + 1]; ++e) {
      const std::uint32_t v = f.lit[e] >> 1;
      if (val[v]) continue;
      free_vars.push_back(v);
      std::uint32_t breaks = 0;  // clauses v alone satisfies
      for (std::uint32_t o = f.vrow[v]; o < f.vrow[v + 1]; ++o) {
        const std::uint32_t g = f.occ[o], b = f.eclause[g];
        breaks += !csat[b] && true_count[b] == 1 && f.true_under(g, value);
      }
      if (breaks < fewest) fewest = breaks, pick = v;
    }
    if (free_vars.empty()) return std::nullopt;  // decimation left a clause with no free literal
    if (fewest > 0 && rng() % 2) pick = free_vars[rng() % free_vars.size()];
    value[pick] ^= 1;
    for (std::uint32_t o = f.vrow[pick]; o < f.vrow[pick + 1]; ++o) {
      const std::uint32_t g = f.occ[o], b = f.eclause[g];
      if (csat[b]) continue;
      true_count[b] = f.true_under(g, value) ? true_count[b] + 1 : true_count[b] - 1;
      mark(b);
    }
  }
}

Result survey_propagation(Device& d, const Graph& g, std::uint32_t, const std::string& variant) {
  if (const std::string why = refuses(g); !why.empty()) throw Error(why, Error::Kind::usage);
  const Formula f(g);
  const std::uint32_t m = f.m, n = f.n, edges = f.crow[m];
  const auto upload = [&](const std::vector<std::uint32_t>& v) {
    const std::uint64_t p = d.malloc(std::max<std::size_t>(1, v.size()) * 4);
    d.memcpy_to_device(p, v.data(), v.size() * 4);
    return p;
  };
  const std::uint64_t crow = upload(f.crow), lit = upload(f.lit), vrow = upload(f.vrow), occ = upload(f.occ), eclause = upload(f.eclause),
                      csat = d.malloc(m * 4ull), val = d.malloc(n * 4ull), eta = d.malloc(std::max(1u, edges) * 4ull),
                      bias = d.malloc(n * 4ull), polar = d.malloc(n * 4ull), chosen = d.malloc(n * 4ull), changed = d.malloc(4);
  d.memset(csat, 0, m * 4ull);
  d.memset(val, 0, n * 4ull);
  std::vector<float> initial(edges);  // random surveys in [0, 1), a fixed hash of the edge
  for (std::uint32_t e = 0; e < edges; ++e) initial[e] = static_cast<float>(sim::splitmix64(e) >> 40) / 16777216.0f;
  d.memcpy_to_device(eta, initial.data(), edges * 4ull);

  Runner run(d, "sp.ptx");
  const bool hardware = variant == "hwwl";
  std::optional<Worklist> wl;  // the worklist API's sweep (wl.cu), on the software worklist or the HWWL
  std::uint64_t queued = 0;
  if (variant == "wl" || hardware) {
    queued = d.malloc(m * 4ull);
    d.memset(queued, 0, m * 4ull);
    wl.emplace(d, hardware, "sp_update_wl", m, "sp/hwwl: survey sweeps need hwwl.mode: double (a round bounds a sweep that does not converge)");
  } else if (variant != "topology") {
    throw Error("'" + variant + "' is not a variant of sp (topology, wl, hwwl)", Error::Kind::usage);
  }
  const Args formula = Args() << crow << lit << vrow << occ << eclause;
  std::uint64_t rounds = 0, unconverged = 0;
  // Survey sweeps until none moves (or kMaxRounds), every open clause queued first.
  const auto converge = [&] {
    std::uint32_t round = 0;
    bool more = true;
    if (!wl) {
      for (; more && round < kMaxRounds; ++round) {
        run.put<int>(changed, 0);
        run.launch("sp_update_all", m, Args(formula) << csat << val << eta << m << changed);
        more = run.get<int>(changed) != 0;
      }
    } else {
      wl->seed("sp_seed_wl", m, Args() << csat << queued << m);
      for (; (more = wl->more()) && round < kMaxRounds; ++round)
        wl->round("sp_update_wl", Args(formula) << csat << val << eta << queued);
    }
    rounds += round;
    unconverged += more;
  };

  std::uint64_t steps = 0, fixed = 0;
  const auto per_step = static_cast<std::uint32_t>(std::max(1.0, std::floor(kFraction * n)));
  std::vector<std::uint32_t> host_val(n, 0), host_csat(m, 0);
  for (;;) {
    converge();
    if (unconverged) break;
    run.launch("sp_bias", n, Args() << lit << vrow << occ << eclause << csat << val << eta << bias << polar << n);
    const auto b = run.download<float>(bias, n), p = run.download<float>(polar, n);
    std::vector<std::uint32_t> order;
    double sum = 0;
    for (std::uint32_t v = 0; v < n; ++v)
      if (!host_val[v]) order.push_back(v), sum += p[v];
    if (order.empty() || sum / order.size() < kParamagnet) break;
    const auto count = std::min<std::uint32_t>(per_step, static_cast<std::uint32_t>(order.size()));
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) { return std::fabs(b[x]) > std::fabs(b[y]); });
    std::vector<std::uint32_t> pick(count);
    for (std::uint32_t i = 0; i < count; ++i) pick[i] = order[i] << 1 | (b[order[i]] < 0 ? 1u : 0u);
    d.memcpy_to_device(chosen, pick.data(), count * 4ull);
    run.launch("sp_fix", count, Args() << chosen << count << lit << vrow << occ << eclause << csat << val);
    ++steps, fixed += count;
    host_val = run.download<std::uint32_t>(val, n);
    host_csat = run.download<std::uint32_t>(csat, m);
    bool contradiction = false;  // an open clause whose every literal is fixed false
    for (std::uint32_t a = 0; a < m && !contradiction; ++a) {
      if (host_csat[a]) continue;
      contradiction = true;
      for (std::uint32_t e = f.crow[a]; e < f.crow[a + 1]; ++e) contradiction = contradiction && host_val[f.lit[e] >> 1] != 0;
    }
    if (contradiction) break;  // WalkSAT cannot mend it: the check names the clause
  }
  std::vector<std::uint8_t> value(n);
  for (std::uint32_t v = 0; v < n; ++v) value[v] = host_val[v] == 1;  // free variables start false
  const auto flips = walksat(f, host_csat, host_val, value);
  if (wl) run.absorb(wl->run);
  run.r.values.assign(g.n, 0);
  for (std::uint32_t a = 0; a < m; ++a)
    for (std::uint32_t e = f.crow[a]; e < f.crow[a + 1]; ++e) run.r.values[a] = run.r.values[a] || f.true_under(e, value);
  for (std::uint32_t v = 0; v < n; ++v) run.r.values[m + v] = value[v];
  run.r.counters = {{"rounds", rounds}, {"unconverged_sweeps", unconverged}, {"decimation_steps", steps},
                    {"variables_fixed", fixed}, {"walksat_flips", flips.value_or(0)}, {"walksat_failed", flips ? 0 : 1}};
  return run.r;
}

// What any solution has: every clause satisfied (1); a variable may take either value (NaN).
std::vector<double> reference(const Graph& g, std::uint32_t) {
  std::vector<double> want(g.n, std::numeric_limits<double>::quiet_NaN());
  std::fill(want.begin(), want.begin() + g.clauses, 1.0);
  return want;
}

// The assignment in `got` evaluated on the formula (not the run's own clause flags).
std::string satisfies(const Graph& g, const std::vector<double>& got, const std::vector<double>& want) {
  if (got.size() != g.n || want.size() != g.n) return "got " + std::to_string(got.size()) + " values, expected " + std::to_string(g.n);
  const Formula f(g);
  for (std::uint32_t v = 0; v < f.n; ++v)
    if (got[f.m + v] != 0 && got[f.m + v] != 1) return "variable " + std::to_string(v) + ": " + std::to_string(got[f.m + v]) + " is not 0 or 1";
  for (std::uint32_t a = 0; a < f.m; ++a) {
    bool sat = false;
    std::string literals;
    for (std::uint32_t e = f.crow[a]; e < f.crow[a + 1]; ++e) {
      sat = sat || (got[f.m + (f.lit[e] >> 1)] != 0) != (f.lit[e] & 1);
      literals += (literals.empty() ? "" : " ") + std::string(f.lit[e] & 1 ? "-" : "") + std::to_string(f.lit[e] >> 1);
    }
    if (sat != (want[a] == 1) || got[a] != want[a])
      return "clause " + std::to_string(a) + " (" + literals + ") " + (sat ? "satisfied" : "not satisfied") + " by the assignment";
  }
  return "";
}

}  // namespace

Workload workload() {
  return {"sp",
          "survey propagation with decimation on random K-SAT (factor graphs: sat:vars=N,ratio=R,k=K), then WalkSAT on the host",
          {{"topology", "survey sweeps over every open clause until none moves by more than 0.01 (LonestarGPU's)"},
           {"wl", "the worklist API (worklist.cuh) on the software worklist: a clause whose surveys moved queues its neighbours; a persistent grid"},
           {"hwwl", "the same kernel on the hardware worklist (timing mode, hwwl.mode: double)", "hwwl"}},
          false,
          survey_propagation,
          reference,
          satisfies,
          "every clause satisfied by the assignment",
          refuses,
          "sat:vars=40,ratio=4.0,seed=1"};
}

}  // namespace irr::workloads::sp
