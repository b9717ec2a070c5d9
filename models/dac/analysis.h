// SPDX-License-Identifier: Apache-2.0
// The decoupling pass's analysis (seed 001 §3.3.4, specs/dac_decoupled_delegate.md §1.11): every
// register of a kernel classified scalar ⊑ affine ⊑ non-affine over its definitions, to a fixed
// point; control dependence on the CFG's post-dominators; divergent affine conditions counted;
// and for each instruction what the split does with it (docs/dac.md).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "models/core/exec/cfg.h"
#include "models/core/ptx/module.h"

namespace irr::dac {

namespace ptx = core::ptx;

// The lattice, most specific first [S L655]: a scalar is one value for the whole CTA, an affine
// value is base + tid·offset (one offset per thread-index dimension), anything else is non-affine.
enum class Class : std::uint8_t { scalar, affine, non_affine };
const char* class_name(Class c);  // "scalar", "affine", "non-affine"
inline Class join(Class a, Class b) { return a > b ? a : b; }

struct Options {
  // Thread-index dimensions that are affine roots: 1 (%tid.x only, Eq. 3.1's single thread ID) or
  // 3 (%tid.x, %tid.y, %tid.z, one offset each: 2-D blocks' addresses stay affine).
  unsigned tid_dims = 3;
  // At most this many divergent affine conditions may reach an operand [S L653] (4 tuples).
  unsigned max_divergent_conditions = 2;
  // Divergent affine conditions the DCRF holds for the kernel (dac.dcrf_entries) [S L671, L813].
  unsigned dcrf_entries = 8;
};

// What the split does with one instruction of the original kernel.
enum class Action : std::uint8_t {
  none,      // the non-affine stream only
  compute,   // computes a scalar or affine value: the affine stream (the other too while still used there)
  enq_data,  // a global load with a scalar/affine address: enq.data | deq.data + the load
  enq_addr,  // a global store with a scalar/affine address: enq.addr | deq.addr + the store
  control,   // bra/ret/exit on a scalar/affine predicate (or none): both streams, enq.pred | deq.pred when guarded
  jump,      // a branch on a non-affine predicate: the affine stream jumps to its post-dominator
  barrier,   // bar: both streams [S L625]
};
const char* action_name(Action a);

struct Info {
  Class cls = Class::non_affine;  // of what it writes; of its address (ld/st) or guard (control)
  Action action = Action::none;
  bool affine_control = true;     // every branch it depends on has a scalar/affine predicate
  std::set<std::uint32_t> divergent;  // divergent affine conditions (branch pcs) reaching its sources
  std::string reason;             // a global load/store or a branch that could have been decoupled: why not
};

struct Analysis {
  Options options;
  std::vector<Info> at;                 // per instruction
  std::vector<std::uint32_t> post_dominator;  // per instruction: its block's immediate post-dominator's first pc
  std::vector<Class> reg;               // per register: the join over its definitions
  std::set<std::uint32_t> dcrf;         // the divergent affine conditions (branch pcs) given DCRF entries
  core::Cfg cfg;
  // Per block: where the affine stream goes on entering it when it lies under a branch on a
  // non-affine predicate (the post-dominator of the outermost such branch; code.size(): the exit),
  // ~0u for the blocks the affine stream runs.
  std::vector<std::uint32_t> skip_to;
};

// No effect beyond its destination registers (ld.param reads the kernel's read-only parameters).
bool pure(const ptx::Instruction& in);

Analysis analyze(const ptx::Function& kernel, const Options& options = {});

}  // namespace irr::dac
