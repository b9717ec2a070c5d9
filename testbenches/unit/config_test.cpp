// SPDX-License-Identifier: Apache-2.0
// Configuration: presets, includes, overrides, validation errors with positions, unused keys.
#include <gtest/gtest.h>

#include "sim/config.h"
#include "testbenches/common/testing.h"

using namespace irr;
using namespace irr::sim;
using irr::testing::make_config;
using irr::testing::TempDir;

namespace {
// The message of the irr::Error `f` throws; fails the test when it throws none.
template <typename F>
std::string error_of(F f, Error::Kind kind = Error::Kind::config) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(static_cast<int>(e.kind()), static_cast<int>(kind)) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error thrown";
  return "";
}
}  // namespace

// The schema a run reads (parsed by the build, read back from JSON) is the schema files as parsed
// now: every key and section with every field, defaults and bounds exact.
TEST(Config, CompiledSchemaIsTheSchemaFiles) {
  const Schema parsed = Schema::from_files(schema_files());
  const Schema compiled = Schema::builtin();
  EXPECT_EQ(compiled.serialize(), parsed.serialize());
  ASSERT_EQ(compiled.order(), parsed.order());
  ASSERT_EQ(compiled.section_order(), parsed.section_order());
  for (const auto& [path, k] : parsed.keys()) {
    const KeySpec* c = compiled.key(path);
    ASSERT_NE(c, nullptr) << path;
    EXPECT_EQ(c->default_value.canonical, k.default_value.canonical) << path;
    EXPECT_EQ(c->default_value.d, k.default_value.d) << path;
    EXPECT_EQ(c->default_value.u, k.default_value.u) << path;
    EXPECT_EQ(c->min, k.min) << path;
    EXPECT_EQ(c->max, k.max) << path;
    EXPECT_EQ(c->values, k.values) << path;
  }
  EXPECT_EQ(compiled.markdown(), parsed.markdown());
  // A key's value parses the same against either.
  Config a(compiled), b(parsed);
  a.set("l1.size=64KiB");
  b.set("l1.size=64KiB");
  EXPECT_EQ(a.get_size("l1.size"), b.get_size("l1.size"));
}

TEST(Config, BuiltinSchemaAndEveryPresetLoad) {
  Schema s = Schema::builtin();
  ASSERT_NE(s.key("sim.seed"), nullptr);
  ASSERT_NE(s.key("clocks.core"), nullptr);
  ASSERT_GE(preset_files().size(), 3u);
  for (const auto& p : preset_files()) {
    std::string name = p.path.substr(p.path.rfind('/') + 1);
    name = name.substr(0, name.size() - 5);
    EXPECT_NO_THROW(make_config({}, name)) << name;
  }
}

TEST(Config, DefaultsComeFromTheSchema) {
  Config c = make_config();
  EXPECT_EQ(c.get_uint("sim.seed"), 1u);
  EXPECT_EQ(c.setting("sim.seed").origin, Origin::schema_default);
}

TEST(Config, FileIncludesPresetAndOverrides) {
  TempDir d;
  std::string f = d.write("my.yaml", "include: kim4x16\nl1:\n  size: 16KiB\nsim: {seed: 7}\n");
  Config c(Schema::builtin());
  c.load(f);
  EXPECT_EQ(c.get_size("l1.size"), 16u * 1024);        // overridden
  EXPECT_EQ(c.get_uint("l1.ways"), 4u);                // from the preset
  EXPECT_EQ(c.get_uint("sim.seed"), 7u);
  EXPECT_EQ(c.setting("l1.size").origin, Origin::user);
  EXPECT_EQ(c.setting("l1.size").where.str(), f + ":3:3");
  EXPECT_EQ(c.setting("l1.ways").origin, Origin::preset);
  EXPECT_EQ(c.presets(), std::vector<std::string>{"kim4x16"});
}

TEST(Config, IncludeByRelativePathAndLaterFilesOverride) {
  TempDir d;
  d.write("base.yaml", "include: [gtx480]\nexample: {servers: 2}\n");
  std::string top = d.write("top.yaml", "include: base.yaml\nexample: {gap: 10}\n");
  std::string last = d.write("last.yaml", "example: {gap: 20}\n");
  Config c(Schema::builtin());
  c.load(top);
  EXPECT_EQ(c.get_uint("example.servers"), 2u);
  EXPECT_EQ(c.get_uint("example.gap"), 10u);
  c.load(last);
  EXPECT_EQ(c.get_uint("example.gap"), 20u);
  c.set("example.gap=30");
  EXPECT_EQ(c.get_uint("example.gap"), 30u);
  EXPECT_EQ(c.setting("example.gap").origin, Origin::command_line);
}

TEST(Config, UnknownKeyNamesFileLineAndSuggests) {
  TempDir d;
  std::string f = d.write("bad.yaml", "l1:\n  size: 16KiB\n  sise: 8KiB\n");
  Config c(Schema::builtin());
  std::string e = error_of([&] { c.load(f); });
  EXPECT_NE(e.find(f + ":3:3"), std::string::npos) << e;
  EXPECT_NE(e.find("l1.sise: unknown key"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'l1.size'"), std::string::npos) << e;
}

TEST(Config, UnknownSectionSuggests) {
  TempDir d;
  std::string f = d.write("bad.yaml", "clock:\n  core: 700MHz\n");
  Config c(Schema::builtin());
  std::string e = error_of([&] { c.load(f); });
  EXPECT_NE(e.find("did you mean 'clocks'"), std::string::npos) << e;
}

TEST(Config, WrongTypeAndRangeNameKeyAndPosition) {
  TempDir d;
  Config c(Schema::builtin());
  std::string f = d.write("t.yaml", "sim:\n  seed: banana\n");
  std::string e = error_of([&] { c.load(f); });
  EXPECT_NE(e.find(f + ":2:3: sim.seed: 'banana' is not a whole number"), std::string::npos) << e;
  f = d.write("r.yaml", "example:\n  issue_probability: 1.5\n");
  e = error_of([&] { c.load(f); });
  EXPECT_NE(e.find("example.issue_probability: '1.5' is out of range [0.001, 1]"), std::string::npos) << e;
  f = d.write("u.yaml", "clocks: {core: 700}\n");
  e = error_of([&] { c.load(f); });
  EXPECT_NE(e.find("missing frequency unit"), std::string::npos) << e;
  f = d.write("e.yaml", "core: {scheduler: fifo}\n");
  e = error_of([&] { c.load(f); });
  EXPECT_NE(e.find("'fifo' is not one of: lrr, gto, two_level"), std::string::npos) << e;
  f = d.write("s.yaml", "l1: 16KiB\n");
  e = error_of([&] { c.load(f); });
  EXPECT_NE(e.find("l1: is a section"), std::string::npos) << e;
}

TEST(Config, YamlSyntaxErrorHasPosition) {
  TempDir d;
  std::string f = d.write("syn.yaml", "sim:\n  seed: [1, 2\n");
  Config c(Schema::builtin());
  std::string e = error_of([&] { c.load(f); });
  EXPECT_NE(e.find(f + ":"), std::string::npos) << e;
  EXPECT_NE(e.find("YAML syntax"), std::string::npos) << e;
}

TEST(Config, IncludeCycleAndMissingFiles) {
  TempDir d;
  d.write("a.yaml", "include: b.yaml\n");
  std::string b = d.write("b.yaml", "include: a.yaml\n");
  Config c(Schema::builtin());
  EXPECT_NE(error_of([&] { c.load(b); }).find("include cycle"), std::string::npos);
  EXPECT_NE(error_of([&] { c.load(d.path() + "/none.yaml"); }).find("no such configuration file"), std::string::npos);
  EXPECT_NE(error_of([&] { c.load("gtx9999"); }).find("unknown preset 'gtx9999'"), std::string::npos);
  // A path too long for the system is a missing file, not an exception escaping (fuzz_config).
  const std::string long_path = "/" + std::string(5000, 'z') + ".yaml";
  EXPECT_NE(error_of([&] { c.load(long_path); }).find("no such configuration file"), std::string::npos);
  Config u(Schema::builtin());
  const std::string e = error_of([&] { u.load_yaml("include: " + long_path + "\n", "my.yaml", d.path()); });
  EXPECT_NE(e.find("include: no such file"), std::string::npos) << e;
}

TEST(Config, SetErrors) {
  Config c(Schema::builtin());
  EXPECT_NE(error_of([&] { c.set("sim.seed"); }).find("expected key.path=value"), std::string::npos);
  std::string e = error_of([&] { c.set("sim.sed=3"); });
  EXPECT_NE(e.find("--set: sim.sed: unknown key (did you mean 'sim.seed'?)"), std::string::npos) << e;
  EXPECT_NE(error_of([&] { c.set("sim=3"); }).find("is a section"), std::string::npos);
  EXPECT_NE(error_of([&] { c.set("l1.size=lots"); }).find("l1.size"), std::string::npos);
}

TEST(Config, UserKeyNoModelReadsIsAnError) {
  TempDir d;
  std::string f = d.write("u.yaml", "include: gtx480\nexample: {gap: 5}\ncore: {registers: 65536}\n");
  Config c(Schema::builtin());
  c.load(f);
  std::string e = error_of([&] { c.check_unused(); });
  EXPECT_NE(e.find(f + ":2:11: example.gap is set but no model in this run reads it"), std::string::npos) << e;
  EXPECT_NE(e.find("core.registers is set but no model in this run reads it"), std::string::npos) << e;
  c.get_uint("example.gap");
  c.get_uint("core.registers");
  EXPECT_NO_THROW(c.check_unused());
}

TEST(Config, PresetKeysAndUnchangedValuesAreNotUnused) {
  Config c = make_config({"l1.size=16KiB"}, "gtx480");  // the preset's own value
  EXPECT_NO_THROW(c.check_unused());
  c.set("l1.ways=8");
  EXPECT_THROW(c.check_unused(), Error);
}

TEST(Config, EffectiveYamlRoundTrips) {
  Config a = make_config({"example.gap=77", "log.levels={\"example.*\": debug}"}, "gtx980");
  TempDir d;
  std::string f = d.write("effective.yaml", a.to_yaml());
  Config b(Schema::builtin());
  b.load(f);
  for (const auto& path : a.schema().order())
    EXPECT_EQ(a.setting(path).value.canonical, b.setting(path).value.canonical) << path;
  // Every key is now set by a user file, yet only the one that differs from the preset counts.
  std::string e = error_of([&] { b.check_unused(); });
  EXPECT_NE(e.find("example.gap"), std::string::npos);
  EXPECT_EQ(e.find("l1.size"), std::string::npos) << e;
  EXPECT_EQ(b.get_map("log.levels").at(0).first, "example.*");
}

TEST(Config, OriginsAreShown) {
  Config c = make_config({"sim.seed=3"}, "kim4x16");
  std::string y = c.to_yaml(true);
  EXPECT_NE(y.find("seed: 3  # command line: --set"), std::string::npos) << y;
  EXPECT_NE(y.find("# preset: configs/kim4x16.yaml:"), std::string::npos) << y;
}

TEST(Config, WrongGetterIsAProgrammingError) {
  Config c = make_config();
  EXPECT_THROW(c.get_size("sim.seed"), std::logic_error);
  EXPECT_THROW(c.get_uint("no.such.key"), std::logic_error);
}

TEST(Config, ReferenceDocIsUpToDate) {
  std::string doc = irr::testing::read_file(std::string(IRRGPU_SOURCE_DIR) + "/docs/configuration.md");
  EXPECT_EQ(doc, irr::sim::configuration_reference()) << "regenerate with: make docs";
}
