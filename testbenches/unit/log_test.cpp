// SPDX-License-Identifier: Apache-2.0
#include <spdlog/spdlog.h>
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>

#include <sstream>
#include <systemc>

#include "sim/log.h"
#include "sim/simulation.h"
#include "testbenches/common/testing.h"

using namespace irr;
using namespace irr::sim;

namespace {
std::shared_ptr<spdlog::sinks::ostream_sink_mt> capture(Logging& l, std::ostringstream& out) {
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out);
  l.add_sink(sink);
  return sink;
}
}  // namespace

TEST(Log, LevelsPerPatternLastMatchWins) {
  Logging l;
  l.add_level("*=warn");
  l.add_level("l2.*=debug");
  l.add_level("l2.slice3=error");
  EXPECT_EQ(l.level_for("core0"), spdlog::level::warn);
  EXPECT_EQ(l.level_for("l2.slice0"), spdlog::level::debug);
  EXPECT_EQ(l.level_for("l2.slice3"), spdlog::level::err);
  auto existing = l.get("l1.sm0");
  l.add_level("l1.*=trace");  // applies to loggers made before too
  EXPECT_EQ(existing->level(), spdlog::level::trace);
  EXPECT_THROW(l.add_level("x=loud"), std::invalid_argument);
}

TEST(Log, LineFormatHasLevelSimTimeAndName) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  std::ostringstream out;  // before the logging, which flushes into it when it goes
  Logging l;
  capture(l, out);
  auto log = l.get("gpu.sm3.ldst");
  sc_core::sc_start(sc_core::sc_time(1429, sc_core::SC_PS));
  log->info("issued {} requests", 4);
  log->debug("not shown at info");
  EXPECT_NE(out.str().find("[info 1429 ps] gpu.sm3.ldst: issued 4 requests\n"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("not shown"), std::string::npos);
}

TEST(Log, LevelsFromConfigAndSystemCReportsShareTheSinks) {
  std::ostringstream out;  // before the simulation, whose logging flushes into it when it goes
  Simulation sim(irr::testing::make_config({"log.level=warn", "log.levels={\"example.*\": debug}"}));
  capture(sim.logging(), out);
  sim.logger("example.server")->debug("visible");
  sim.logger("other")->info("hidden");
  SC_REPORT_WARNING("irrgpu/test", "a SystemC warning");
  SC_REPORT_INFO("irrgpu/test", "a SystemC info");  // info is below the warn default
  EXPECT_NE(out.str().find("example.server: visible"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("hidden"), std::string::npos);
  EXPECT_NE(out.str().find("[warning 0 s] systemc: irrgpu/test: a SystemC warning"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("a SystemC info"), std::string::npos);
}

namespace {
struct Failing : sc_core::sc_module {
  SC_HAS_PROCESS(Failing);
  explicit Failing(const sc_core::sc_module_name& n, bool fatal) : sc_core::sc_module(n), fatal_(fatal) {
    SC_THREAD(body);
  }
  void body() {
    wait(10, sc_core::SC_NS);
    if (fatal_) SC_REPORT_FATAL("irrgpu/test", "fatal in a process");
    else SC_REPORT_ERROR("irrgpu/test", "error in a process");
  }
  bool fatal_;
};
}  // namespace

namespace {
std::string run_error(Simulation& sim) {
  try {
    sim.run();
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 1);
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}
}  // namespace

TEST(Log, ScReportErrorEndsTheRunWithAnError) {
  Simulation sim(irr::testing::make_config());
  Failing f("failing", false);
  EXPECT_EQ(run_error(sim), "[10 ns] failing.body: irrgpu/test: error in a process");
}

TEST(Log, ScReportFatalEndsTheRunWithoutAbort) {
  Simulation sim(irr::testing::make_config());
  Failing f("failing", true);
  EXPECT_EQ(run_error(sim), "[10 ns] failing.body: irrgpu/test: fatal in a process");
}

namespace {
struct Throwing : sc_core::sc_module {
  SC_HAS_PROCESS(Throwing);
  explicit Throwing(const sc_core::sc_module_name& n) : sc_core::sc_module(n) { SC_METHOD(body); }
  void body() { throw Error("bank overflow"); }
};
}  // namespace

TEST(Log, ModelExceptionEndsTheRunWithItsMessage) {
  Simulation sim(irr::testing::make_config());
  Throwing t("throwing");
  EXPECT_EQ(run_error(sim), "[0 s] throwing.body: bank overflow");
}
