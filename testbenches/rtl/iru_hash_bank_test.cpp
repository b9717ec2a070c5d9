// SPDX-License-Identifier: Apache-2.0
// The IRU hash bank island (rtl/iru/iru_hash_bank.v with iru_fadd.v): each build's Verilated RTL
// and the simulator's own HashBank against an independent reference under seeded random stimulus
// with coverage bins (insertions into full and wrapping entries, merges under min and add_f32 with
// subnormal, cancelling and rounding sums, takes), a directed sequence, the FST waveform, and the
// error for a build that does not exist.
#include <gtest/gtest.h>

#include <cstdlib>
#include <tuple>

#include "models/core/exec/values.h"
#include "models/iru/hash_bank_block.h"
#include "sim/error.h"
#include "testbenches/common/cosim.h"
#include "testbenches/common/testing.h"
#include "testbenches/rtl/iru_hash_bank_reference.h"

using namespace irr;
using namespace irr::iru;
using namespace irr::testing;

namespace {

std::uint32_t bits(float f) { return static_cast<std::uint32_t>(core::bits(f)); }

// Finite floats of every kind an addition can meet (exponents up to 250: no sum overflows).
std::uint32_t random_float(std::mt19937_64& rng) {
  const std::uint32_t sign = static_cast<std::uint32_t>(rng() & 1) << 31, frac = static_cast<std::uint32_t>(rng() & 0x7fffff);
  switch (rng() % 8) {
    case 0: return sign | frac;                                                    // subnormal
    case 1: return sign;                                                           // +-0
    case 2: return sign | (static_cast<std::uint32_t>(1 + rng() % 254) << 23) | frac;  // any exponent: overflow too
    case 3: return rng() % 4 ? sign | 0x7f800000u : sign | 0x7f800000u | (frac ? frac : 1);  // +-infinity, or a NaN
    default: return sign | (static_cast<std::uint32_t>(125 + rng() % 4) << 23) | frac;  // near 1: cancel and round
  }
}

CosimSpec<BankIn, BankOut> bank_spec(BankParams p) {
  CosimSpec<BankIn, BankOut> s;
  s.block = "iru_hash_bank";
  const auto u = [](auto f) { return [f](const BankOut& o) { return static_cast<std::uint64_t>(f(o)); }; };
  s.signals = {
      {"result", u([](const BankOut& o) { return o.result; })},
      {"dropped", u([](const BankOut& o) { return o.dropped; }), [](const BankOut& o) { return o.result == BankResult::merged; }},
      {"count", u([](const BankOut& o) { return o.entry.size(); })},
  };
  for (std::size_t i = 0; i < p.capacity; ++i) {
    const auto present = [i](const BankOut& o) { return i < o.entry.size(); };
    s.signals.push_back({"entry[" + std::to_string(i) + "].index_position",
                         [i](const BankOut& o) { return std::uint64_t{o.entry[i].index} << 24 | o.entry[i].position; }, present});
    s.signals.push_back({"entry[" + std::to_string(i) + "].secondary", [i](const BankOut& o) { return o.entry[i].secondary; }, present});
  }
  const auto merged = [](Filter f) {
    return [f](const BankIn& i, const BankOut& o) { return i.op == BankOp::insert && i.filter == f && o.result == BankResult::merged; };
  };
  const auto merged_entry = [](const BankIn& i, const BankOut& o) -> const Element* {
    for (const Element& x : o.entry)
      if (x.index == (i.element.index & 0xffffff)) return &x;
    return nullptr;
  };
  const auto sum = [merged_entry](const BankIn& i, const BankOut& o) -> std::uint32_t {
    const Element* x = merged_entry(i, o);
    return x ? BankReference::add(x->secondary, i.element.secondary) : 1;
  };
  s.bins = {
      {"insert", [](const BankIn& i, const BankOut& o) { return i.op == BankOp::insert && o.result == BankResult::inserted; }},
      {"insert into a full entry", [](const BankIn& i, const BankOut& o) { return i.op == BankOp::insert && o.result == BankResult::full; }},
      {"insert a duplicate without a filter",
       [merged_entry](const BankIn& i, const BankOut& o) { return i.op == BankOp::insert && i.filter == Filter::none && merged_entry(i, o); }},
      {"merge under min, the newcomer stays",
       [merged_entry](const BankIn& i, const BankOut& o) {
         const Element* x = merged_entry(i, o);
         return i.op == BankOp::insert && i.filter == Filter::min && x && i.element.secondary < x->secondary;
       }},
      {"merge under min, the old one stays", merged(Filter::min)},
      {"merge under add_f32", merged(Filter::add_f32)},
      {"merge into a full entry",
       [](const BankIn& i, const BankOut& o) { return i.op == BankOp::insert && o.result == BankResult::merged && o.entry.size() == 4; }},
      {"add cancels to zero",
       [sum, merged](const BankIn& i, const BankOut& o) { return merged(Filter::add_f32)(i, o) && (sum(i, o) & 0x7fffffff) == 0; }},
      {"add gives a subnormal",
       [sum, merged](const BankIn& i, const BankOut& o) {
         const std::uint32_t y = sum(i, o);
         return merged(Filter::add_f32)(i, o) && (y & 0x7f800000) == 0 && (y & 0x7fffff);
       }},
      {"take", [](const BankIn& i, const BankOut& o) { return i.op == BankOp::take && o.result == BankResult::inserted; }},
      {"take all", [](const BankIn& i, const BankOut& o) { return i.op == BankOp::take && o.result == BankResult::inserted && i.k == o.entry.size(); }},
      {"take refused", [](const BankIn& i, const BankOut& o) { return i.op == BankOp::take && o.result == BankResult::full; }},
      {"reset", [](const BankIn& i, const BankOut&) { return i.rst; }},
  };
  // A window of 4 sets that moves every 2,000 cycles, filled and drained in turns of 1,000; indices
  // mostly from 0..5 (duplicates), now and then any 24 bits (or more: the top bits are dropped) —
  // so entries fill up under the filters only through the wide indices; the filter changes every
  // 300 cycles.
  s.stimulus = [p](std::mt19937_64& rng, std::uint64_t cycle) {
    std::uniform_real_distribution<double> u(0, 1);
    std::mt19937_64 phase(cycle / 300);
    BankIn in;
    in.rst = cycle == 0 || u(rng) < 0.0005;
    in.filter = static_cast<Filter>(phase() % 3);
    const double x = u(rng), takes = cycle / 1000 % 2 ? 0.45 : 0.05;  // filling and draining in turn
    in.op = x < 0.5 ? BankOp::insert : x < 0.5 + takes ? BankOp::take : BankOp::none;
    in.set = static_cast<std::uint32_t>((cycle / 2000 * 3 + rng() % 4) % p.sets);
    in.k = static_cast<std::uint32_t>(u(rng) < 0.8 ? 1 + rng() % 4 : rng() % (p.capacity + 2));
    in.element.index = u(rng) < 0.9 ? static_cast<std::uint32_t>(rng() % 6) : static_cast<std::uint32_t>(rng());
    in.element.position = static_cast<std::uint32_t>(rng());
    in.element.secondary = in.filter == Filter::add_f32 ? random_float(rng) : static_cast<std::uint32_t>(rng() % 100);
    return in;
  };
  s.reset = [](const BankIn& in) { return in.rst; };
  return s;
}

}  // namespace

class IruBankCosim : public ::testing::TestWithParam<BankParams> {};

TEST_P(IruBankCosim, RtlAndModelAgreeWithTheReference) {
  const BankParams p = GetParam();
  auto spec = bank_spec(p);
  if (p.capacity != 4) spec.bins.erase(spec.bins.begin() + 6);  // "merge into a full entry" is the small build's
  expect_clean_cosim(
      spec, 20000, {1, 2, 3}, [&] { return make_bank_block("model", p); },
      [&](std::uint64_t seed) { return make_bank_block("rtl", p, seed); }, [&] { return std::make_unique<BankReference>(p); });
}

INSTANTIATE_TEST_SUITE_P(Builds, IruBankCosim, ::testing::ValuesIn(bank_rtl_builds()),
                         [](const auto& info) { return "s" + std::to_string(info.param.sets) + "c" + std::to_string(info.param.capacity); });

// The spec's FP_ADD example (2.9.2) and the min rule, step by step on the 8 x 4 build.
TEST(IruBankDirected, MergesAsTheSpecificationSays) {
  const BankParams p{8, 4};
  std::vector<BankIn> seq;
  const auto op = [](BankOp o, Filter f, std::uint32_t index, float value, std::uint32_t position, std::uint32_t k = 0) {
    BankIn in;
    in.op = o;
    in.filter = f;
    in.set = 3;
    in.k = k;
    in.element = {index, bits(value), position};
    return in;
  };
  BankIn reset;
  reset.rst = true;
  seq.push_back(reset);
  for (auto [i, v, pos] : {std::tuple{5u, 0.5f, 0u}, {9u, 1.0f, 1u}, {5u, 0.25f, 2u}, {7u, 2.0f, 3u}})
    seq.push_back(op(BankOp::insert, Filter::add_f32, i, v, pos));
  seq.push_back(op(BankOp::none, Filter::add_f32, 0, 0, 0));
  auto m = make_bank_block("model", p);
  auto r = make_bank_block("rtl", p, 7);
  BankReference ref(p);
  const CosimReport report = cosim_directed<BankIn, BankOut>(*m, *r, ref, bank_spec(p), seq);
  EXPECT_TRUE(report.mismatches.empty()) << report.summary();
  for (auto& b : std::vector<HashBankBlock*>{m.get(), r.get()}) {
    b->step(reset);
    for (std::size_t i = 1; i + 1 < seq.size(); ++i) b->step(seq[i]);
    const BankOut o = b->eval(seq.back());
    ASSERT_EQ(o.entry.size(), 3u);  // (5, 0.75), (9, 1.0), (7, 2.0): one element merged
    EXPECT_EQ(o.entry[0], (Element{5, bits(0.75f), 0}));
    EXPECT_EQ(o.entry[1], (Element{9, bits(1.0f), 1}));
    EXPECT_EQ(o.entry[2], (Element{7, bits(2.0f), 3}));
  }
}

// waveforms/iru_hash_bank.gtkw names signals of the 8-set build's FST, with their widths.
TEST(IruBankDirected, RtlWritesAnFstWaveformTheSaveFileNames) {
  TempDir d;
  {
    auto r = make_bank_block("rtl", BankParams{8, 4}, 1, d.path() + "/bank.fst");
    auto spec = bank_spec(BankParams{8, 4});
    std::mt19937_64 rng(5);
    for (std::uint64_t c = 0; c < 200; ++c) r->step(spec.stimulus(rng, c));
  }
  ASSERT_EQ(std::system(("fst2vcd " + d.path() + "/bank.fst > " + d.path() + "/bank.vcd 2>/dev/null").c_str()), 0);
  Vcd rtl = parse_vcd(read_file(d.path() + "/bank.vcd"));
  auto shown = gtkw_signals(read_file(std::string(IRRGPU_SOURCE_DIR) + "/waveforms/iru_hash_bank.gtkw"));
  ASSERT_EQ(shown.size(), 24u);
  for (const std::string& s : shown) {
    const std::string name = s.substr(0, s.find('['));
    const unsigned width = s.find('[') == std::string::npos ? 1 : std::stoul(s.substr(s.find('[') + 1)) + 1;
    ASSERT_TRUE(rtl.widths.count(name)) << name << " not in the RTL's FST";
    EXPECT_EQ(rtl.widths[name], width) << name;
  }
  EXPECT_GT(rtl.changes["iru_hash_bank.iru_hash_bank.count"].size(), 10u);
}

TEST(IruBankDirected, UnbuiltParametersAreAClearError) {
  try {
    make_bank_block("rtl", BankParams{64, 16});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no RTL build for 64 sets x 16 elements (built: "), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_bank_block("gates", BankParams{}), Error);
}
