// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the tests: configurations from inline YAML, temporary files, running the CLI.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "sim/config.h"
#include "sim/simulation.h"

// AddressSanitizer reports false errors once an exception unwinds on a SystemC thread's stack
// (a QuickThreads coroutine: Debian's libsystemc carries no fiber annotations, and ASan itself
// warns "False positive error reports may follow"). A test whose error is thrown there skips
// itself under ASan, saying why (docs/reliability.md "Sanitizers").
#if defined(__SANITIZE_ADDRESS__)
#define IRRGPU_SKIP_UNDER_ASAN_THROWING_IN_A_THREAD() \
  GTEST_SKIP() << "under AddressSanitizer: an exception unwinding on a SystemC thread's stack gives false reports"
#else
#define IRRGPU_SKIP_UNDER_ASAN_THROWING_IN_A_THREAD() static_cast<void>(0)
#endif

namespace irr::testing {

// A temporary directory removed when the object goes.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  // Writes `text` to path()/name and returns the full path.
  std::string write(const std::string& name, const std::string& text) const;

 private:
  std::string path_;
};

std::string read_file(const std::string& path);

// The built-in schema and configuration with `sets` ("key=value") applied as from --set.
sim::Config make_config(const std::vector<std::string>& sets = {}, const std::string& preset = "");

// Runs a SystemC testbench inside a test case: a Simulation from a preset and --set style
// overrides, the modules the test elaborates with add<M>(args...), then run().
//   Testbench tb({"example.requests=10"});
//   tb.add<example::Pipeline>("example");
//   tb.run();
//   EXPECT_EQ(tb.stat("example.server.completed"), 10);
double stat_sum(sim::Simulation& sim, const std::string& suffix);

// Every testbench checks the TLM base protocol on every hop (a test may set it off); with
// IRRGPU_TEST_SEED set, its seed is that unless the test sets its own; IRRGPU_TEST_SET ("key=value")
// is set unless the test sets that key (the determinism test's run with sim.run_ahead=false).
class Testbench {
 public:
  explicit Testbench(const std::vector<std::string>& sets = {}, const std::string& preset = "");
  sim::Simulation& sim() { return *sim_; }
  // Constructs M(name, sim(), args...) and keeps it for the test's lifetime.
  template <typename M, typename... A>
  M& add(const char* name, A&&... args) {
    auto m = std::make_shared<M>(name, *sim_, std::forward<A>(args)...);
    modules_.push_back(m);
    return *m;
  }
  // Runs the simulation. With IRRGPU_TEST_OUTPUTS set, also writes its outputs to
  // $IRRGPU_TEST_OUTPUTS/<suite.test> for the determinism check (determinism_test.py).
  sim::RunReport run();
  // The headline value of a statistic; fails the test (throws) if there is none of that name.
  double stat(const std::string& name) const;
  // A statistic summed over every instance whose name ends in `suffix` (".l2.hits": all
  // partitions), summary formulas (".total.") left out.
  double sum(const std::string& suffix) const { return stat_sum(*sim_, suffix); }

 private:
  std::unique_ptr<sim::Simulation> sim_;
  std::vector<std::shared_ptr<void>> modules_;
};

// A VCD file's signals ("scope.scope.name" -> width) and value changes (name -> (time, value);
// the low 64 bits of wider vectors).
struct Vcd {
  std::map<std::string, unsigned> widths;
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> changes;
};
Vcd parse_vcd(const std::string& text);
// The signals a GTKWave save file shows, as "name[msb:0]" or "name".
std::vector<std::string> gtkw_signals(const std::string& text);

struct CliResult {
  int exit_code;
  std::string out, err;
};
// Runs the irrgpu command line with these arguments (each shell-quoted); with interrupt_after,
// sends it SIGINT (Ctrl-C) after that many seconds if it is still running.
CliResult run_cli(const std::vector<std::string>& args, double interrupt_after = 0);

}  // namespace irr::testing
