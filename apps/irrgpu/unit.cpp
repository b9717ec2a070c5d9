// SPDX-License-Identifier: Apache-2.0
// `irrgpu unit BLOCK --stimulus FILE [--impl model|rtl]`: a stimulus file — one step a cycle,
// inputs and expected outputs, `*` for a field that does not matter — run against an RTL island's
// C++ model or its Verilated RTL, through the step interface both implement (sim/step_block.h).
// Each expectation passes or fails with its file:line, cycle and field; the RTL writes its FST,
// -o DIR a result.json of every expectation.
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "apps/irrgpu/commands.h"
#include "models/blocks/sync_fifo.h"
#include "models/dac/aeu.h"
#include "models/dac/expander.h"
#include "models/dac/pwaq.h"
#include "models/dats/nst_block.h"
#include "models/hwwl/blocks.h"
#include "models/iru/hash_bank_block.h"
#include "models/iru/testbench.h"
#include "models/core/ptx/parser.h"
#include "models/spref/loops.h"
#include "sim/config.h"
#include "sim/schema.h"
#include "sim/simulation.h"
#include "sim/error.h"
#include "sim/output_file.h"

namespace irr::app {
using nlohmann::json;

namespace {

std::string file_of_stimulus;  // the file being run, for the positions errors and failures name
Location at(const YAML::Node& n) { return {file_of_stimulus, n.Mark().line + 1, n.Mark().column + 1}; }
[[noreturn]] void fail(const YAML::Node& n, const std::string& why) { throw Error(at(n), why, Error::Kind::config); }

std::uint64_t number(const YAML::Node& n, const std::string& what) {
  try {
    if (n.IsScalar()) {
      const std::string s = n.Scalar();
      if (s == "true") return 1;
      if (s == "false") return 0;
      std::size_t used = 0;
      const std::uint64_t v = std::stoull(s, &used, 0);  // decimal, 0x hex
      if (used == s.size()) return v;
    }
  } catch (const std::exception&) {
  }
  fail(n, what + ": expected a number (decimal or 0x hex)");
}

// A field of a block's inputs or outputs: set from YAML (inputs), read as JSON (outputs).
template <typename T>
struct Field {
  std::string name;
  std::function<void(T&, const YAML::Node&)> set;
  std::function<json(const T&)> get;
  std::vector<std::string> names;  // an enumeration's names by value (empty: a number)
};

template <typename T, typename M>
Field<T> num(const char* name, M T::*m, std::vector<std::string> names = {}) {
  Field<T> f{name, nullptr, nullptr, names};
  f.set = [m, names, n = std::string(name)](T& t, const YAML::Node& v) {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (v.IsScalar() && v.Scalar() == names[i]) return void(t.*m = static_cast<M>(i));
    t.*m = static_cast<M>(number(v, n));
  };
  f.get = [m](const T& t) { return json(static_cast<std::uint64_t>(t.*m)); };
  return f;
}

template <typename T, typename E>
Field<T> vec(const char* name, std::vector<E> T::*m) {
  Field<T> f{name, nullptr, nullptr, {}};
  f.set = [m, n = std::string(name)](T& t, const YAML::Node& v) {
    if (!v.IsSequence()) fail(v, n + ": expected a list");
    (t.*m).clear();
    for (const auto& e : v) (t.*m).push_back(static_cast<E>(number(e, n)));
  };
  f.get = [m](const T& t) {
    json a = json::array();
    for (const auto& e : t.*m) a.push_back(static_cast<std::uint64_t>(e));
    return a;
  };
  return f;
}

// `expect` against an output: `*` anything; a list element by element; an enumeration by name.
bool matches(const YAML::Node& e, const json& actual, const std::vector<std::string>& names, const std::string& what) {
  if (e.IsScalar() && e.Scalar() == "*") return true;
  if (e.IsSequence()) {
    if (!actual.is_array() || actual.size() != e.size()) return false;
    for (std::size_t i = 0; i < e.size(); ++i)
      if (!matches(e[i], actual[i], {}, what)) return false;
    return true;
  }
  if (e.IsMap()) {
    if (!actual.is_object()) return false;
    for (const auto& kv : e) {
      const std::string k = kv.first.as<std::string>();
      if (!actual.contains(k)) fail(kv.first, what + ": no field '" + k + "'");
      if (!matches(kv.second, actual[k], {}, what + "." + k)) return false;
    }
    return true;
  }
  if (actual.is_array() || actual.is_object()) fail(e, what + ": expected a list or map, as the output is");
  if (actual.is_string()) return e.Scalar() == actual.get<std::string>();  // a name ("none")
  for (std::size_t i = 0; i < names.size(); ++i)
    if (e.Scalar() == names[i]) return actual.get<std::uint64_t>() == i;
  return number(e, what) == actual.get<std::uint64_t>();
}

std::string shown(const json& v, const std::vector<std::string>& names) {
  if (v.is_number_unsigned() && v.get<std::uint64_t>() < names.size()) return names[v.get<std::uint64_t>()];
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > 9) {
    std::ostringstream s;
    s << "0x" << std::hex << v.get<std::uint64_t>();
    return s.str();
  }
  return v.dump();
}

struct Tally {
  unsigned passed = 0, failed = 0;
  std::uint64_t cycles = 0;
  json expectations = json::array();  // where, cycle, field, expected, actual, passed
};

// One expectation: `want` against `actual` (an enumeration's value shown by `names`), tallied and,
// failed, printed with its place, cycle and field.
void expect_value(Tally& t, const YAML::Node& where, const std::string& field, std::uint64_t cycle, const YAML::Node& want,
                  const json& actual, const std::string& impl, const std::vector<std::string>& names = {}) {
  const bool ok = matches(want, actual, names, field);
  YAML::Emitter e;
  e << YAML::Flow << want;
  t.expectations.push_back({{"where", at(where).str()}, {"cycle", cycle}, {"field", field}, {"expected", e.c_str()},
                            {"actual", shown(actual, names)}, {"passed", ok}});
  ok ? ++t.passed : ++t.failed;
  if (!ok)
    std::cout << "FAIL " << at(where).str() << ": cycle " << cycle << ": " << field << ": expected " << e.c_str() << ", got "
              << shown(actual, names) << " (" << impl << ")\n";
}

template <typename T>
const Field<T>& field(const std::vector<Field<T>>& fields, const YAML::Node& key, const char* side) {
  const std::string k = key.as<std::string>();
  for (const auto& f : fields)
    if (f.name == k) return f;
  std::string all;
  for (const auto& f : fields) all += (all.empty() ? "" : ", ") + f.name;
  fail(key, "no " + std::string(side) + " '" + k + "' (" + all + ")");
}

// Each step is a cycle (or `repeat` cycles): `in` sets inputs (others idle: zero), `expect`
// checks outputs on the step's first cycle, `at` waits idle until that cycle.
template <typename In, typename Out>
Tally run_steps(sim::StepBlock<In, Out>& block, const std::vector<Field<In>>& ins, const std::vector<Field<Out>>& outs,
                const YAML::Node& steps, const std::string& impl) {
  Tally t;
  if (!steps.IsSequence()) fail(steps, "steps: expected a list of steps");
  for (const auto& step : steps) {
    if (!step.IsMap()) fail(step, "a step: expected a map (in, expect, repeat, at)");
    for (const auto& kv : step) {
      const std::string k = kv.first.as<std::string>();
      if (k != "in" && k != "expect" && k != "repeat" && k != "at") fail(kv.first, "unknown step key '" + k + "' (in, expect, repeat, at)");
    }
    if (step["at"]) {
      const std::uint64_t c = number(step["at"], "at");
      if (c < t.cycles) fail(step["at"], "at: cycle " + std::to_string(c) + " is past (this step would be cycle " + std::to_string(t.cycles) + ")");
      while (t.cycles < c) block.step(In{}), ++t.cycles;
    }
    In in{};
    if (const auto& i = step["in"]) {
      if (!i.IsMap()) fail(i, "in: expected a map of input fields");
      for (const auto& kv : i) field(ins, kv.first, "input").set(in, kv.second);
    }
    const std::uint64_t repeat = step["repeat"] ? number(step["repeat"], "repeat") : 1;
    for (std::uint64_t r = 0; r < repeat; ++r, ++t.cycles) {
      const Out out = block.eval(in);
      if (r == 0 && step["expect"]) {
        const auto& e = step["expect"];
        if (!e.IsMap()) fail(e, "expect: expected a map of output fields");
        for (const auto& kv : e) {
          const Field<Out>& f = field(outs, kv.first, "output");
          expect_value(t, kv.first, f.name, t.cycles, kv.second, f.get(out), impl, f.names);
        }
      }
      block.edge();
    }
  }
  return t;
}

// DAC's address path as one block (models/dac/expander.h): the ATQ (the model's queue in both
// implementations), the AEU and the PWAQ (model or RTL, by --impl). A step is one cycle of the
// path, so its outputs are what the cycle did: `enq` offers a tuple to the ATQ, `deq` dequeues
// warp deq_slot's record (delivered the next cycle), `pushed` is the record the AEU put in a
// warp's queue this cycle. `rst` starts the path afresh (and, with --fst, its waveforms).
struct PathIn {
  bool rst = false, enq = false, deq = false;
  dac::AddressTuple tuple;
  std::uint32_t deq_slot = 0;
};
struct PathOut {
  bool enq_ok = false, deq_ok = false, pushed = false, delivered = false, idle = true;
  std::uint32_t pushed_slot = 0, pushed_mask = 0, delivered_mask = 0, atq = 0;
  std::uint64_t pushed_line = 0, delivered_line = 0;
};
class PathBlock : public sim::StepBlock<PathIn, PathOut> {
 public:
  explicit PathBlock(const dac::ExpanderConfig& c) : c_(c), e_(std::make_unique<dac::Expander>(c)) {}
  PathOut eval(const PathIn& in) override {  // the whole cycle (the runner evaluates once a cycle)
    PathOut o;
    if (in.rst) {
      e_.reset();  // first: its waveforms close before the new path's open the same files
      e_ = std::make_unique<dac::Expander>(c_);
      return o;
    }
    if (in.enq) o.enq_ok = e_->enqueue(in.tuple);
    o.deq_ok = e_->cycle(in.deq ? std::optional<std::uint32_t>(in.deq_slot) : std::nullopt) && in.deq;
    if (!e_->pushed().empty()) {  // at most one: the path block runs at one record a cycle (no RATE parameter)
      const dac::Pushed& p = e_->pushed().front();
      o.pushed = true, o.pushed_slot = p.slot, o.pushed_line = p.record.line, o.pushed_mask = p.record.mask;
    }
    if (const auto d = e_->delivered()) o.delivered = true, o.delivered_line = d->line, o.delivered_mask = d->mask;
    o.atq = static_cast<std::uint32_t>(e_->atq_size());
    o.idle = e_->idle();
    return o;
  }
  void edge() override {}

 private:
  dac::ExpanderConfig c_;
  std::unique_ptr<dac::Expander> e_;
};

using Params = std::map<std::string, std::uint64_t>;

// SPREF's load-pair detection (models/spref/loops.h; seed 004 Table 1 [G L433-L445]) on a PTX
// kernel: each backward branch found, and Table 1's tag propagation over the two iterations the
// file gives (executed pcs; `body`: the loop's pcs in order; `{until: PC}`: the body cut before PC)
// or, with neither, the compiler-assisted variant's static view. A loop's `expect` holds its
// start, end, setp, increment and pairs ({head, tail, stride, scale}; "none" where there is none).
// The model only: SPREF has no RTL.
Tally run_spref(const Params& p, const UnitOptions& o, const YAML::Node& doc) {
  if (o.impl != "model") throw Error({"--impl", 0, 0}, "spref: the model only (SPREF has no RTL)", Error::Kind::usage);
  if (!o.vcd.empty() || !o.fst.empty()) throw Error({"--vcd", 0, 0}, "spref: Table 1 runs no clock, so no waveform", Error::Kind::usage);
  const std::string& impl = o.impl;
  if (!doc["ptx"]) fail(doc, "no 'ptx' (the kernel's PTX text)");
  const core::ptx::Module m = core::ptx::parse(doc["ptx"].as<std::string>(), file_of_stimulus + ":ptx");
  const core::ptx::Function* f = nullptr;
  const std::string kernel = doc["kernel"] ? doc["kernel"].as<std::string>() : "";
  for (const auto& fn : m.functions)
    if (!f && fn.kernel && (kernel.empty() || fn.name == kernel)) f = &fn;
  if (!f) fail(doc["kernel"] ? doc["kernel"] : doc["ptx"], kernel.empty() ? "the PTX has no kernel" : "no kernel '" + kernel + "'");
  std::vector<spref::Loop> loops = spref::find_loops(*f);
  const YAML::Node given = doc["loops"];
  if (!given || !given.IsSequence()) fail(given ? given : doc, "loops: expected a list, one map a backward branch in pc order");
  Tally t;
  const auto name = [](std::uint32_t pc) { return pc == spref::kNone ? json("none") : json(pc); };
  std::size_t i = 0;
  for (const auto& l : given) {
    if (!l.IsMap()) fail(l, "a loop: expected a map (first, second, expect)");
    if (i >= loops.size()) {
      expect_value(t, l, "loops[" + std::to_string(i++) + "]", 0, YAML::Node("a loop"), json("none"), impl);
      continue;
    }
    spref::Loop& loop = loops[i];
    const auto iteration = [&](const char* key) {
      std::vector<std::uint32_t> pcs;
      const YAML::Node n = l[key];
      const bool body = n.IsScalar() && n.Scalar() == "body";
      const std::uint64_t until = n.IsMap() && n["until"] ? number(n["until"], "until") : loop.end + 1ull;
      if (body || n.IsMap()) {
        for (std::uint32_t pc = loop.start; pc <= loop.end && pc < until; ++pc) pcs.push_back(pc);
      } else if (n.IsSequence()) {
        for (const auto& x : n) pcs.push_back(static_cast<std::uint32_t>(number(x, key)));
      } else {
        fail(n, std::string(key) + ": body, {until: PC} or a list of pcs");
      }
      return pcs;
    };
    if (l["first"] || l["second"]) {
      if (!l["first"] || !l["second"]) fail(l, "a loop: both iterations (first and second), or neither (the static view)");
      spref::find_pairs(*f, loop, iteration("first"), iteration("second"), static_cast<unsigned>(p.at("max_pairs")),
                        p.at("nc_only") != 0, p.at("through_copies") != 0);
    } else {
      spref::find_pairs_statically(*f, loop, static_cast<unsigned>(p.at("max_pairs")), p.at("nc_only") != 0, p.at("through_copies") != 0);
    }
    json a{{"start", loop.start}, {"end", loop.end}, {"setp", name(loop.setp)}, {"increment", loop.increment}, {"pairs", json::array()}};
    for (const auto& pr : loop.pairs)
      a["pairs"].push_back({{"head", name(pr.head)}, {"tail", name(pr.tail)}, {"stride", pr.stride}, {"scale", pr.scale}});
    if (const YAML::Node e = l["expect"]) {
      if (!e.IsMap()) fail(e, "expect: expected a map (start, end, setp, increment, pairs)");
      for (const auto& kv : e) {
        const std::string k = kv.first.as<std::string>();
        if (!a.contains(k)) fail(kv.first, "a loop has no field '" + k + "' (start, end, setp, increment, pairs)");
        expect_value(t, kv.first, "loops[" + std::to_string(i) + "]." + k, 0, kv.second, a[k], impl);
      }
    }
    for (const auto& kv : l) {
      const std::string k = kv.first.as<std::string>();
      if (k != "first" && k != "second" && k != "expect") fail(kv.first, "a loop: unknown key '" + k + "' (first, second, expect)");
    }
    ++i;
  }
  return t;
}

// The IRU (models/iru/iru.h) alone, as its testbench top drives it (sim.top: iru): an indices
// array (and secondary values) behind a fixed-latency memory, warps' requests at given L2 cycles,
// and the replies it sends, in order, checked against `expect.replies`; `expect.stats`, its
// statistics (iru_tb.iru.NAME). --impl rtl makes its hash banks the Verilated RTL; --vcd/--fst
// record the unit's probes (as `irrgpu run -s sim.top=iru --vcd F` does).
Tally run_iru(const Params& p, const UnitOptions& o, const YAML::Node& doc) {
  const std::string& impl = o.impl;
  iru::Params ip;
  ip.partitions = static_cast<std::uint32_t>(p.at("partitions"));
  ip.sets = static_cast<std::uint32_t>(p.at("sets"));
  ip.banks = static_cast<std::uint32_t>(p.at("banks"));
  ip.entry = static_cast<std::uint32_t>(p.at("entry"));
  ip.xor_hash = p.at("xor_hash") != 0;
  ip.timeout = p.at("timeout");
  ip.rtl_banks = impl == "rtl";
  iru::Testbench::Stimulus st;
  const YAML::Node setup = doc["setup"];
  if (!setup || !setup.IsMap()) fail(setup ? setup : doc, "setup: expected a map (indices, secondary, filter, offset)");
  for (const auto& kv : setup) {
    const std::string k = kv.first.as<std::string>();
    const auto list = [&](std::vector<std::uint32_t>& v) {
      if (!kv.second.IsSequence()) fail(kv.second, k + ": expected a list");
      for (const auto& x : kv.second) v.push_back(static_cast<std::uint32_t>(number(x, k)));
    };
    if (k == "indices") list(st.indices);
    else if (k == "secondary") list(st.secondary);
    else if (k == "offset") st.offset = number(kv.second, k);
    else if (k == "filter") {
      const std::string f = kv.second.as<std::string>();
      if (f != "none" && f != "min" && f != "add_f32") fail(kv.second, "filter: none, min or add_f32");
      st.filter = f == "min" ? iru::Filter::min : f == "add_f32" ? iru::Filter::add_f32 : iru::Filter::none;
    } else {
      fail(kv.first, "setup: no field '" + k + "' (indices, secondary, filter, offset)");
    }
  }
  if (st.indices.empty()) fail(setup, "setup: no indices");
  if (!st.secondary.empty() && st.secondary.size() != st.indices.size())
    fail(setup["secondary"], "setup: secondary needs one value an index (" + std::to_string(st.indices.size()) + ")");
  const YAML::Node requests = doc["requests"];
  if (!requests || !requests.IsSequence()) fail(requests ? requests : doc, "requests: expected a list of {at: CYCLE, lanes: N}");
  for (const auto& r : requests) {
    if (!r.IsMap() || !r["lanes"]) fail(r, "a request: expected {at: CYCLE, lanes: N}");
    st.requests.push_back({r["at"] ? number(r["at"], "at") : 0, static_cast<std::uint32_t>(number(r["lanes"], "lanes"))});
    if (st.requests.back().second == 0 || st.requests.back().second > 32) fail(r["lanes"], "lanes: 1 to 32 threads");
  }

  sim::Config cfg(sim::Schema::builtin());
  cfg.set("log.level=warn");
  sim::Simulation sim(cfg);
  sim::ObserveOptions observe;
  observe.vcd = o.vcd;
  observe.fst = o.fst;
  sim.observe(observe);
  iru::Testbench tb("iru_tb", sim, ip, st, p.at("latency"));
  const sim::RunReport report = sim.run();
  if (!report.incomplete.empty()) throw Error("iru: the run stopped: " + report.incomplete, Error::Kind::simulation);

  Tally t;
  t.cycles = tb.reply_cycles().empty() ? 0 : tb.reply_cycles().back();
  const auto check = [&](const YAML::Node& where, const std::string& field, std::uint64_t cycle, const YAML::Node& want, const json& actual) {
    expect_value(t, where, field, cycle, want, actual, impl);
  };
  const YAML::Node expect = doc["expect"];
  if (!expect) return t;
  if (!expect.IsMap()) fail(expect, "expect: expected a map (replies, stats)");
  for (const auto& kv : expect) {
    const std::string k = kv.first.as<std::string>();
    if (k == "replies") {
      if (!kv.second.IsSequence()) fail(kv.second, "replies: expected a list, one map a reply in the order sent");
      std::size_t i = 0;
      for (const auto& want : kv.second) {
        if (!want.IsMap()) fail(want, "a reply: expected a map (cycle, partition, elements, indices, positions, secondary)");
        if (i >= tb.replies().size()) {
          check(want, "replies[" + std::to_string(i++) + "]", t.cycles, YAML::Node("a reply"), json("none"));
          continue;
        }
        const iru::Reply& r = tb.replies()[i];
        json a{{"cycle", tb.reply_cycles()[i]}, {"partition", r.partition}, {"elements", r.elements.size()},
               {"indices", json::array()}, {"positions", json::array()}, {"secondary", json::array()}};
        for (const auto& e : r.elements) {
          a["indices"].push_back(e.index);
          a["positions"].push_back(e.position);
          a["secondary"].push_back(e.secondary);
        }
        for (const auto& f : want) {
          const std::string name = f.first.as<std::string>();
          if (!a.contains(name))
            fail(f.first, "a reply has no field '" + name + "' (cycle, partition, elements, indices, positions, secondary)");
          check(f.first, "replies[" + std::to_string(i) + "]." + name, tb.reply_cycles()[i], f.second, a[name]);
        }
        ++i;
      }
      if (tb.replies().size() > i)
        check(kv.first, "replies", t.cycles, YAML::Node(std::to_string(i) + " replies"), json(std::to_string(tb.replies().size()) + " replies"));
    } else if (k == "stats") {
      if (!kv.second.IsMap()) fail(kv.second, "stats: expected a map of the IRU's statistics (iru_tb.iru.NAME: value)");
      for (const auto& s : kv.second) {
        const std::string name = s.first.as<std::string>();
        const sim::Stat* stat = sim.stats().find("iru_tb.iru." + name);
        if (!stat) fail(s.first, "no statistic iru_tb.iru." + name);
        double want = 0;
        try {
          want = s.second.as<double>();
        } catch (const YAML::Exception&) {
          fail(s.second, name + ": expected a number");
        }
        const bool ok = std::abs(stat->value() - want) <= 1e-9 * std::max(1.0, std::abs(want));
        t.expectations.push_back({{"where", at(s.first).str()}, {"cycle", t.cycles}, {"field", "stats." + name},
                                  {"expected", want}, {"actual", stat->value()}, {"passed", ok}});
        ok ? ++t.passed : ++t.failed;
        if (!ok) std::cout << "FAIL " << at(s.first).str() << ": stats." << name << ": expected " << want << ", got " << stat->value() << " (" << impl << ")\n";
      }
    } else {
      fail(kv.first, "expect: no key '" + k + "' (replies, stats)");
    }
  }
  return t;
}

// The blocks: parameters (as in rtl/blocks.json), the factory, the fields.
using Run = std::function<Tally(const Params&, const std::string& impl, const std::string& waves, const YAML::Node& steps)>;
struct Block {
  Params defaults;
  Run run;
  // A block with transactions, not pins (iru): the file's other keys than `block` and
  // `parameters`, and its runner of the whole file.
  std::vector<std::string> keys = {"steps"};
  std::function<Tally(const Params&, const UnitOptions& o, const YAML::Node& doc)> run_file = nullptr;
};

std::map<std::string, Block> blocks() {
  using namespace irr;
  std::map<std::string, Block> b;
  b["sync_fifo"] = {{{"DEPTH", 8}, {"WIDTH", 16}}, [](const Params& p, const std::string& impl, const std::string& w, const YAML::Node& s) {
    using blocks::FifoIn, blocks::FifoOut;
    auto block = blocks::make_fifo(impl, {unsigned(p.at("DEPTH")), unsigned(p.at("WIDTH"))}, 1, w);
    return run_steps<FifoIn, FifoOut>(*block, {num("rst", &FifoIn::rst), num("push", &FifoIn::push), num("push_data", &FifoIn::push_data), num("pop", &FifoIn::pop)},
        {num("push_ok", &FifoOut::push_ok), num("pop_ok", &FifoOut::pop_ok), num("rd_valid", &FifoOut::rd_valid), num("rd_data", &FifoOut::rd_data),
         num("count", &FifoOut::count), num("full", &FifoOut::full), num("empty", &FifoOut::empty)}, s, impl);
  }};
  b["hwwl_bank"] = {{{"DEPTH", 32}, {"WIDTH", 24}, {"THRESHOLD", 5}}, [](const Params& p, const std::string& impl, const std::string& w, const YAML::Node& s) {
    using hwwl::BankIn, hwwl::BankOut;
    auto block = hwwl::make_bank_block(impl, {unsigned(p.at("DEPTH")), unsigned(p.at("WIDTH")), unsigned(p.at("THRESHOLD"))}, 1, w);
    return run_steps<BankIn, BankOut>(*block, {num("rst", &BankIn::rst), num("cfg_double", &BankIn::cfg_double),
        num("op", &BankIn::op, {"none", "pull", "push", "take", "put", "fill"}), num("wdata", &BankIn::wdata), num("reserve", &BankIn::reserve),
        num("kernel_end", &BankIn::kernel_end), num("retire", &BankIn::retire)},
        {num("op_ok", &BankOut::op_ok), num("reserve_ok", &BankOut::reserve_ok), num("swapped", &BankOut::swapped), num("rd_valid", &BankOut::rd_valid),
         num("rd_data", &BankOut::rd_data), num("pullable", &BankOut::pullable), num("reserved", &BankOut::reserved), num("occupied", &BankOut::occupied),
         num("push_occupied", &BankOut::push_occupied), num("push_full", &BankOut::push_full), num("empty", &BankOut::empty), num("greedy", &BankOut::greedy),
         num("needy", &BankOut::needy), num("retired", &BankOut::retired), num("double_mode", &BankOut::double_mode), num("pull_part", &BankOut::pull_part)}, s, impl);
  }};
  b["hwwl_wru_lsort"] = {{{"BANKS", 16}, {"CW", 5}, {"THRESHOLD", 5}}, [](const Params& p, const std::string& impl, const std::string& w, const YAML::Node& s) {
    using hwwl::WruIn, hwwl::WruOut;
    auto block = hwwl::make_wru_block(impl, {unsigned(p.at("BANKS")), unsigned(p.at("CW")), unsigned(p.at("THRESHOLD"))}, 1, w);
    return run_steps<WruIn, WruOut>(*block, {num("rst", &WruIn::rst), vec("occupancy", &WruIn::occupancy)},
        {vec("rank", &WruOut::rank), num("move_valid", &WruOut::move_valid), vec("move_from", &WruOut::move_from), vec("move_to", &WruOut::move_to),
         num("global_greedy", &WruOut::global_greedy), num("export_valid", &WruOut::export_valid), num("export_bank", &WruOut::export_bank)}, s, impl);
  }};
  b["dats_nst"] = {{{"ENTRIES", 128}, {"LEA", 512}, {"PUB", 64}}, [](const Params& p, const std::string& impl, const std::string& w, const YAML::Node& s) {
    using dats::NstIn, dats::NstOut;
    auto block = dats::make_nst_block(impl, {unsigned(p.at("ENTRIES")), unsigned(p.at("LEA")), unsigned(p.at("PUB"))}, 1, w);
    return run_steps<NstIn, NstOut>(*block, {num("rst", &NstIn::rst), num("op", &NstIn::op, {"none", "insert", "decrement", "issue", "retire"}),
        num("slot", &NstIn::slot), num("node", &NstIn::node), num("parents", &NstIn::parents), num("level", &NstIn::level), num("les", &NstIn::les),
        num("has_edges", &NstIn::has_edges), num("tail", &NstIn::tail), vec("hold", &NstIn::hold), num("lvl_on", &NstIn::lvl_on),
        num("lvl_lo", &NstIn::lvl_lo), num("lvl_hi", &NstIn::lvl_hi), num("bound", &NstIn::bound)},
        {num("op_ok", &NstOut::op_ok), num("resident", &NstOut::resident), num("pub_hits", &NstOut::pub_hits),
         num("rd_state", &NstOut::rd_state, {"W", "R", "P", "D"}), num("rd_parents", &NstOut::rd_parents), num("rd_level", &NstOut::rd_level),
         num("rd_node", &NstOut::rd_node), num("rd_les", &NstOut::rd_les), num("rd_has_edges", &NstOut::rd_has_edges), num("pub_count", &NstOut::pub_count),
         num("pub_full", &NstOut::pub_full), num("pick_valid", &NstOut::pick_valid), num("pick_slot", &NstOut::pick_slot)}, s, impl);
  }};
  b["iru_hash_bank"] = {{{"SETS", 128}, {"CAP", 32}}, [](const Params& p, const std::string& impl, const std::string& w, const YAML::Node& s) {
    using iru::BankIn, iru::BankOut;
    auto block = iru::make_bank_block(impl, {unsigned(p.at("SETS")), unsigned(p.at("CAP"))}, 1, w);
    Field<BankIn> element{"element", [](BankIn& in, const YAML::Node& v) {
      if (!v.IsMap()) fail(v, "element: expected a map (index, secondary, position)");
      for (const auto& kv : v) {
        const std::string k = kv.first.as<std::string>();
        std::uint32_t* f = k == "index" ? &in.element.index : k == "secondary" ? &in.element.secondary : k == "position" ? &in.element.position : nullptr;
        if (!f) fail(kv.first, "element: no field '" + k + "' (index, secondary, position)");
        *f = static_cast<std::uint32_t>(number(kv.second, "element." + k));
      }
    }, nullptr, {}};
    Field<BankOut> entry{"entry", nullptr, [](const BankOut& o) {
      json a = json::array();
      for (const auto& e : o.entry) a.push_back({{"index", e.index}, {"secondary", e.secondary}, {"position", e.position}});
      return a;
    }, {}};
    return run_steps<BankIn, BankOut>(*block, {num("rst", &BankIn::rst), num("filter", &BankIn::filter, {"none", "min", "add_f32"}),
        num("op", &BankIn::op, {"none", "insert", "take"}), num("set", &BankIn::set), num("k", &BankIn::k), element},
        {num("result", &BankOut::result, {"none", "inserted", "merged", "full"}), num("dropped", &BankOut::dropped), entry}, s, impl);
  }};
  b["dac_aeu"] = {{}, [](const Params&, const std::string& impl, const std::string& w, const YAML::Node& s) {
    using dac::AeuIn, dac::AeuOut;
    auto block = dac::make_aeu(impl, 1, w);
    return run_steps<AeuIn, AeuOut>(*block, {num("rst", &AeuIn::rst), num("start", &AeuIn::start), num("hold", &AeuIn::hold), num("a0", &AeuIn::a0),
        num("offset", &AeuIn::offset), num("active", &AeuIn::active)},
        {num("busy", &AeuOut::busy), num("done", &AeuOut::done), num("valid", &AeuOut::valid), num("line", &AeuOut::line), num("mask", &AeuOut::mask),
         num("fallback", &AeuOut::fallback)}, s, impl);
  }};
  b["dac_pwaq"] = {{{"WARPS", 48}, {"DEPTH", 4}, {"PORTS", 1}}, [](const Params& p, const std::string& impl, const std::string& w, const YAML::Node& s) {
    using dac::PwaqIn, dac::PwaqOut;
    auto block = dac::make_pwaq(impl, {unsigned(p.at("WARPS")), unsigned(p.at("DEPTH")), unsigned(p.at("PORTS"))}, 1, w);
    return run_steps<PwaqIn, PwaqOut>(*block, {num("rst", &PwaqIn::rst), num("push", &PwaqIn::push), num("push_warp", &PwaqIn::push_warp),
        num("push_line", &PwaqIn::push_line), num("push_mask", &PwaqIn::push_mask), num("pop", &PwaqIn::pop), num("pop_warp", &PwaqIn::pop_warp)},
        {num("push_ok", &PwaqOut::push_ok), num("pop_ok", &PwaqOut::pop_ok), num("rd_valid", &PwaqOut::rd_valid), num("rd_line", &PwaqOut::rd_line),
         num("rd_mask", &PwaqOut::rd_mask), num("push_count", &PwaqOut::push_count)}, s, impl);
  }};
  b["dac_path"] = {{{"WARPS", 48}, {"DEPTH", 4}, {"PORTS", 1}, {"ATQ", 24}}, [](const Params& p, const std::string& impl, const std::string& w, const YAML::Node& s) {
    dac::ExpanderConfig c;
    if (!w.empty()) {  // --fst F: the AEU's and the PWAQ's RTL waveforms, F with -aeu and -pwaq before its extension
      const std::filesystem::path f(w);
      c.aeu_fst = (f.parent_path() / (f.stem().string() + "-aeu" + f.extension().string())).string();
      c.pwaq_fst = (f.parent_path() / (f.stem().string() + "-pwaq" + f.extension().string())).string();
    }
    c.atq_entries = unsigned(p.at("ATQ"));
    c.pwaq = {unsigned(p.at("WARPS")), unsigned(p.at("DEPTH")), unsigned(p.at("PORTS"))};
    c.impl = impl;
    PathBlock block(c);
    Field<PathIn> enq{"enq", [](PathIn& in, const YAML::Node& v) {
      if (!v.IsMap()) fail(v, "enq: expected a map (base, offset, first_slot, active)");
      in.enq = true;
      for (const auto& kv : v) {
        const std::string k = kv.first.as<std::string>();
        if (k == "base") in.tuple.base = number(kv.second, "enq.base");
        else if (k == "offset") in.tuple.offset = static_cast<std::int32_t>(number(kv.second, "enq.offset"));  // -4: two's complement
        else if (k == "first_slot") in.tuple.first_slot = static_cast<std::uint32_t>(number(kv.second, "enq.first_slot"));
        else if (k == "active") {
          if (!kv.second.IsSequence()) fail(kv.second, "enq.active: expected a list, a mask per warp of the CTA");
          for (const auto& a : kv.second) in.tuple.active.push_back(static_cast<std::uint32_t>(number(a, "enq.active")));
        } else {
          fail(kv.first, "enq: no field '" + k + "' (base, offset, first_slot, active)");
        }
      }
    }, nullptr, {}};
    return run_steps<PathIn, PathOut>(block, {num("rst", &PathIn::rst), enq, num("deq", &PathIn::deq), num("deq_slot", &PathIn::deq_slot)},
        {num("enq_ok", &PathOut::enq_ok), num("deq_ok", &PathOut::deq_ok), num("pushed", &PathOut::pushed), num("pushed_slot", &PathOut::pushed_slot),
         num("pushed_line", &PathOut::pushed_line), num("pushed_mask", &PathOut::pushed_mask), num("delivered", &PathOut::delivered),
         num("delivered_line", &PathOut::delivered_line), num("delivered_mask", &PathOut::delivered_mask), num("atq", &PathOut::atq),
         num("idle", &PathOut::idle)}, s, impl);
  }};
  // The IRU's defaults: the paper's (iru.* in the schema), its testbench memory's latency.
  b["iru"] = {{{"partitions", 4}, {"sets", 1024}, {"banks", 2}, {"entry", 32}, {"xor_hash", 1}, {"timeout", 1000}, {"latency", 200}},
              nullptr, {"setup", "requests", "expect"}, run_iru};
  b["spref"] = {{{"max_pairs", 2}, {"nc_only", 1}, {"through_copies", 0}}, nullptr, {"ptx", "kernel", "loops"}, run_spref};
  return b;
}

}  // namespace

int unit(const UnitOptions& o) {
  return guarded([&] {
    const auto all = blocks();
    if (o.list) {
      for (const auto& [name, b] : all) {
        std::cout << name;
        for (const auto& [k, v] : b.defaults) std::cout << " " << k << "=" << v;
        std::cout << "\n";
      }
      return 0;
    }
    if (o.impl != "model" && o.impl != "rtl") throw Error({"--impl", 0, 0}, "'" + o.impl + "': expected model or rtl", Error::Kind::usage);
    file_of_stimulus = o.stimulus;
    YAML::Node doc;
    try {
      doc = YAML::LoadFile(o.stimulus);
    } catch (const YAML::BadFile&) {
      throw Error({o.stimulus, 0, 0}, "cannot read the stimulus file", Error::Kind::usage);
    } catch (const YAML::Exception& e) {
      throw Error({o.stimulus, e.mark.line + 1, e.mark.column + 1}, e.msg, Error::Kind::config);
    }
    if (!doc.IsMap()) throw Error({o.stimulus, 1, 1}, "expected a map: block, parameters, steps", Error::Kind::config);
    if (!doc["block"]) throw Error({o.stimulus, 1, 1}, "no 'block'", Error::Kind::config);
    const std::string name = doc["block"].as<std::string>();
    if (!o.block.empty() && o.block != name) fail(doc["block"], "the file is for block " + name + ", not " + o.block);
    auto b = all.find(name);
    if (b == all.end()) {
      std::string names;
      for (const auto& [n, x] : all) names += (names.empty() ? "" : ", ") + n;
      fail(doc["block"], "no block '" + name + "' (" + names + ")");
    }
    std::string keys = "block, parameters";
    for (const auto& k : b->second.keys) keys += ", " + k;
    for (const auto& kv : doc) {
      const std::string k = kv.first.as<std::string>();
      if (k != "block" && k != "parameters" && std::find(b->second.keys.begin(), b->second.keys.end(), k) == b->second.keys.end())
        fail(kv.first, "unknown key '" + k + "' (" + keys + ")");
    }
    Params params = b->second.defaults;
    if (const auto& p = doc["parameters"]) {
      if (!p.IsMap()) fail(p, "parameters: expected a map");
      for (const auto& kv : p) {
        const std::string k = kv.first.as<std::string>();
        if (!params.count(k)) fail(kv.first, "block " + name + " has no parameter '" + k + "'");
        params[k] = number(kv.second, k);
      }
    }
    if (!b->second.run_file && !doc["steps"]) throw Error({o.stimulus, 1, 1}, "no 'steps'", Error::Kind::config);
    if (!b->second.run_file && !o.fst.empty() && o.impl != "rtl")
      throw Error({"--fst", 0, 0}, "the FST is the RTL's: add --impl rtl", Error::Kind::usage);
    if (!b->second.run_file && !o.vcd.empty() && (o.impl != "model" || name != "sync_fifo"))
      throw Error({"--vcd", 0, 0}, "a VCD is written by sync_fifo's model only; --impl rtl --fst F writes any block's RTL waveform",
                  Error::Kind::usage);
    const std::string waves = o.impl == "rtl" ? o.fst : o.vcd;
    Tally t;
    try {
      t = b->second.run_file ? b->second.run_file(params, o, doc) : b->second.run(params, o.impl, waves, doc["steps"]);
    } catch (const YAML::Exception& e) {
      throw Error({o.stimulus, e.mark.line + 1, e.mark.column + 1}, e.msg, Error::Kind::config);
    }
    if (!o.output_dir.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(o.output_dir, ec);
      const json r{{"block", name}, {"impl", o.impl}, {"stimulus", o.stimulus}, {"parameters", params}, {"cycles", t.cycles},
                   {"passed", t.passed}, {"failed", t.failed}, {"expectations", t.expectations}};
      sim::write_file(o.output_dir + "/result.json", r.dump(2) + "\n", "stimulus result");
    }
    std::cout << name << " (" << o.impl << "): " << (t.cycles ? std::to_string(t.cycles) + " cycles, " : "") << t.passed + t.failed
              << " expectations: " << t.passed
              << " passed, " << t.failed << " failed" << (t.failed ? "" : ": PASS") << "\n";
    return t.failed ? 1 : 0;
  });
}

}  // namespace irr::app
