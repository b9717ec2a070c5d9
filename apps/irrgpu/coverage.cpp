// SPDX-License-Identifier: Apache-2.0
// `irrgpu coverage BLOCK`: runs the block's stimulus files on its coverage build (Verilator's
// line, branch and toggle counters and the block's `cover` statements, its functional bins), adds
// the counts other runs left in --data folders (the co-simulation tests under $IRRGPU_COVERAGE,
// with their own bins), merges them and reports each kind per block, with the points never hit
// and the source annotated by verilator_coverage (docs/rtl.md "Coverage").
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "apps/irrgpu/area.h"
#include "apps/irrgpu/commands.h"
#include "models/blocks/coverage.h"
#include "sim/error.h"
#include "sim/output_file.h"

namespace irr::app {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// One coverage point of Verilator's .dat: its fields (f file, l line, page v_KIND/module,
// o name, h hierarchy) and its count summed over every file read.
struct Point {
  std::map<char, std::string> field;
  std::uint64_t count = 0;
  std::string kind() const {  // line, branch, toggle, cover (Verilator's "user": the `cover` statements)
    const std::string& page = field.at('p');
    const std::string k = page.substr(2, page.find('/') - 2);
    return k == "user" ? "cover" : k;
  }
};

// Keys are the point's text as Verilator writes it, so the same point from two runs adds up.
void read_dat(const fs::path& file, std::map<std::string, Point>& points) {
  std::ifstream in(file);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    const auto open = line.find('\''), close = line.rfind('\'');
    if (line.rfind("C '", 0) != 0 || close == open)
      throw Error({file.string(), n, 1}, "not a Verilator coverage line", Error::Kind::usage);
    const std::string key = line.substr(open + 1, close - open - 1), count = line.substr(close + 1);
    if (count.find_first_not_of(" 0123456789") != std::string::npos || count.find_first_of("0123456789") == std::string::npos)
      throw Error({file.string(), n, static_cast<int>(close) + 2}, "a coverage count is not a number", Error::Kind::usage);
    Point& p = points[key];
    p.count += std::stoull(count);
    if (!p.field.empty()) continue;
    // \001 starts a field, \002 separates its name (page: "page", the rest one letter) from its value.
    for (std::size_t at = key.find('\1'); at != std::string::npos;) {
      const std::size_t next = key.find('\1', at + 1), sep = key.find('\2', at);
      if (sep != std::string::npos && sep < next) p.field[key[at + 1]] = key.substr(sep + 1, next == std::string::npos ? next : next - sep - 1);
      at = next;
    }
    if (!p.field.count('p') || !p.field.count('f') || !p.field.count('l'))
      throw Error({file.string(), n, 1}, "a coverage point without file, line or page", Error::Kind::usage);
  }
}

void write_dat(const fs::path& file, const std::map<std::string, Point>& points) {
  std::ostringstream s;
  s << "# SystemC::Coverage-3\n";
  for (const auto& [key, p] : points) s << "C '" << key << "' " << p.count << "\n";
  sim::write_file(file.string(), s.str(), "merged coverage");
}

// The block's example stimulus files: BLOCK.yaml and BLOCK-*.yaml beside the RTL (source tree:
// testbenches/stimuli; installed: share/irrgpu/stimuli).
std::vector<std::string> examples(const std::string& block) {
  std::vector<std::string> found;
  for (const fs::path& dir : {fs::path(rtl_dir()) / ".." / "testbenches" / "stimuli", fs::path(rtl_dir()) / ".." / "stimuli"}) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string stem = e.path().stem().string();
      if (e.path().extension() == ".yaml" && (stem == block || stem.rfind(block + "-", 0) == 0)) found.push_back(e.path().string());
    }
    if (!found.empty()) break;
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::string percent(std::uint64_t hit, std::uint64_t total) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << (total ? 100.0 * hit / total : 0.0) << " %";
  return s.str();
}

}  // namespace

int coverage(const CoverageOptions& o) {
  return guarded([&] {
    rtl_block(load_json(fs::path(rtl_dir()) / "blocks.json"), o.block);  // an RTL block, or the list of them
    const std::string out = o.out.empty() ? "coverage-" + o.block : o.out;
    const fs::path data = fs::path(out) / "data";
    std::error_code ec;
    for (const auto& d : o.data)
      if (!fs::is_directory(d, ec)) throw Error({d, 0, 0}, "--data: no such folder", Error::Kind::usage);
    fs::remove_all(data, ec);
    blocks::set_coverage_dir(data.string(), true);

    // This run's stimulus files on the coverage build (each instance writes its .dat when done).
    const std::vector<std::string> stimuli = o.stimuli.empty() ? examples(o.block) : o.stimuli;
    unsigned failed = 0;
    for (const auto& s : stimuli) {
      UnitOptions u;  // any block's file: a path of several blocks (dac_path) covers each
      u.stimulus = s;
      u.impl = "rtl";
      const int rc = unit(u);
      if (rc > 1) return rc;  // the file's error is reported
      failed += rc;
    }

    // Every .dat and bins file of the block: this run's and the --data folders'.
    std::map<std::string, Point> points;
    std::map<std::string, std::uint64_t> bins;  // the harnesses' functional bins
    unsigned files = 0;
    std::vector<fs::path> dirs{data};
    dirs.insert(dirs.end(), o.data.begin(), o.data.end());
    for (const auto& dir : dirs) {
      if (!fs::is_directory(dir, ec)) continue;
      for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (name.rfind(o.block + "-", 0) != 0) continue;
        if (name.rfind(o.block + "-bins-", 0) == 0 && e.path().extension() == ".json") {
          const json counts = load_json(e.path());
          for (const auto& [bin, hits] : counts.items()) bins[bin] += hits.get<std::uint64_t>();
          ++files;
        } else if (e.path().extension() == ".dat") {
          read_dat(e.path(), points);
          ++files;
        }
      }
    }
    if (points.empty())
      throw Error(o.block + ": no coverage was recorded (no stimulus file ran and no --data folder holds " + o.block +
                      "-*.dat)",
                  Error::Kind::usage);

    // Per kind: points, hit, and the ones never hit; `cover` statements listed each with its count.
    json report{{"block", o.block}, {"stimuli", stimuli}, {"data", o.data}, {"files", files}, {"kinds", json::object()},
                {"cover", json::object()}, {"bins", bins}, {"missed", json::array()}};
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> kinds;  // kind: hit, total
    for (const auto& [key, p] : points) {
      auto& [hit, total] = kinds[p.kind()];
      ++total;
      if (p.count) ++hit;
      const std::string where = fs::path(p.field.at('f')).filename().string() + ":" + p.field.at('l');
      const std::string name = p.field.count('o') ? p.field.at('o') : "";
      if (p.kind() == "cover") report["cover"][name] = p.count;
      if (!p.count) report["missed"].push_back({{"kind", p.kind()}, {"where", where}, {"name", name}});
    }
    for (const auto& [kind, ht] : kinds) report["kinds"][kind] = {{"hit", ht.first}, {"points", ht.second}};

    fs::create_directories(out, ec);
    write_dat(fs::path(out) / "merged.dat", points);
    // The source with each line's counts: verilator_coverage's annotation (every count >= 1 covered).
    bool annotated = false;
    if (have_tool("verilator_coverage")) {
      const fs::path dir = fs::path(out) / "annotated";
      const std::string cmd = "verilator_coverage --annotate \"" + dir.string() + "\" --annotate-min 1 \"" +
                              (fs::path(out) / "merged.dat").string() + "\" > \"" + (fs::path(out) / "annotate.log").string() + "\" 2>&1";
      annotated = std::system(cmd.c_str()) == 0;
      if (annotated) report["annotated"] = dir.string();
    }
    sim::write_file((fs::path(out) / "coverage.json").string(), report.dump(2) + "\n", "coverage report");
    if (!o.json.empty()) sim::write_report(o.json, report.dump(2) + "\n", "coverage report");

    std::cout << o.block << " coverage (stimulus files " << stimuli.size() << ", data files " << files << "):\n";
    for (const auto& [kind, ht] : kinds)
      std::cout << "  " << std::left << std::setw(8) << kind << std::right << std::setw(6) << ht.first << " / " << std::setw(6)
                << ht.second << "  " << percent(ht.first, ht.second) << "\n";
    unsigned missed_bins = 0;
    for (const auto& [name, hits] : report["cover"].items()) {
      std::cout << "  cover   " << name << ": " << hits.get<std::uint64_t>() << "\n";
      missed_bins += hits.get<std::uint64_t>() == 0;
    }
    for (const auto& [name, hits] : bins) {
      std::cout << "  bin     " << name << ": " << hits << "\n";
      missed_bins += hits == 0;
    }
    unsigned shown = 0;  // the first 20 points never hit, lines and branches before toggles (bins: above)
    for (const char* kind : {"line", "branch", "toggle"})
      for (const auto& m : report["missed"]) {
        if (m["kind"] != kind || shown > 20) continue;
        if (++shown > 20) {
          std::cout << "  ... (every missed point in " << (fs::path(out) / "coverage.json").string() << ")\n";
          continue;
        }
        std::cout << "  missed " << kind << " " << m["where"].get<std::string>() << " " << m["name"].get<std::string>() << "\n";
      }
    std::cout << "  report " << (fs::path(out) / "coverage.json").string()
              << (annotated ? ", annotated source in " + (fs::path(out) / "annotated").string() : "") << "\n";
    if (o.require_bins && missed_bins) {
      std::cout << o.block << ": " << missed_bins << " functional bins never hit\n";
      return 1;
    }
    return failed ? 1 : 0;
  });
}

}  // namespace irr::app
