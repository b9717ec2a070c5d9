// SPDX-License-Identifier: Apache-2.0
// Mutation check: the co-simulation must catch one flipped behaviour in the RTL (built with
// MUTATE: a push wins over a pop) and one in the model (built with IRRGPU_FIFO_MUTANT: a push and
// a pop on a partly full queue both go through). This file is built twice, once per mutant, so
// each executable holds exactly one faulty implementation beside a correct one.
#include <gtest/gtest.h>

#include "models/blocks/sync_fifo_rtl.h"
#include "testbenches/rtl/sync_fifo_cosim.h"
#include "testbenches/rtl/sync_fifo_reference.h"

#ifdef IRRGPU_FIFO_MUTANT
#include "Vsync_fifo_good.h"
using Rtl = irr::blocks::FifoRtl<Vsync_fifo_good>;
const char* const kMutant = "model";
#else
#include "Vsync_fifo_mutant.h"
using Rtl = irr::blocks::FifoRtl<Vsync_fifo_mutant>;
const char* const kMutant = "rtl";
#endif

using namespace irr;
using namespace irr::blocks;
using namespace irr::testing;

TEST(SyncFifoMutation, CosimCatchesTheMutant) {
  const FifoParams p{8, 16};
  FifoModel model(p);
  Rtl rtl(p, 1, "", 1000);
  FifoReference ref(p);
  CosimReport r = cosim_random<FifoIn, FifoOut>(model, rtl, ref, fifo_cosim_spec(p), 12000, 1, 1);
  ASSERT_FALSE(r.mismatches.empty()) << "the " << kMutant << " mutant went unnoticed";
  const Mismatch& m = r.mismatches.front();
  // The faulty side disagrees with the reference; the correct side agrees.
  const bool model_wrong = m.model != m.reference, rtl_wrong = m.rtl != m.reference;
  EXPECT_EQ(model_wrong, std::string(kMutant) == "model") << m.str();
  EXPECT_EQ(rtl_wrong, std::string(kMutant) == "rtl") << m.str();
  EXPECT_NE(m.str().find("cycle " + std::to_string(m.cycle) + ": "), std::string::npos);
  std::cout << "caught the " << kMutant << " mutant: " << m.str() << "\n";
}
