// SPDX-License-Identifier: Apache-2.0
// The one payload extension for GPU metadata, and the pool payloads come from. Every memory
// request between an SM and a memory partition is a tlm_generic_payload from a PayloadPool with
// a GpuRequest attached; the timing path carries addresses and metadata, not data (functional
// effects happen at issue).
#pragma once

#include <tlm>

#include <cstdint>
#include <string>
#include <vector>

namespace irr::tlm_glue {

enum class Access : std::uint8_t { load, store, atomic };
const char* access_name(Access a);

enum class AtomicOp : std::uint8_t { none, add, min, max, exch, cas, and_, or_, xor_, inc, dec };

// Where a load's data came from, set on the way back (statistics: what a warp waited on).
enum class Served : std::uint8_t { l1, l2, dram };

class GpuRequest : public tlm::tlm_extension<GpuRequest> {
 public:
  tlm::tlm_extension_base* clone() const override { return new GpuRequest(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const GpuRequest&>(o); }

  std::uint64_t id = 0;          // unique per request, for traces
  std::uint32_t sm = 0;          // requesting SM (routes the reply)
  std::uint32_t warp = 0;
  std::uint64_t pc = 0;
  Access access = Access::load;
  AtomicOp atomic = AtomicOp::none;
  std::uint64_t line = 0;        // line address (aligned)
  std::uint32_t sectors = 0;     // sector mask within the line
  std::uint32_t bytes = 0;       // bytes the request moves (data of a store, or asked for by a load)
  std::uint32_t partition = 0;   // destination memory partition
  std::int32_t reply_port = -1;  // the partition whose reply port a response leaves by (-1: the one it went to)
  std::uint64_t issued_ps = 0;   // when the SM issued it
  std::uint32_t tag = 0;         // the requester's own tag (e.g. a unit's), returned with the reply
  std::uint64_t txn = 0;         // transaction-trace id (0 when not traced)
  Served served = Served::l2;    // a partition sets dram when the line came from DRAM
  bool to_unit = false;          // for the unit beside the partition's L2, not the L2 (it sets bytes of the reply)
  bool from_unit = false;        // a partition unit's own request into its L2: the reply goes back to it
  bool no_allocate = false;      // a load that must not allocate in the L2 (a unit's bypassing read)
  bool uncached = false;         // a load the L1 did not look up: its reply completes it, fills nothing
  bool copyback = false;         // a clean line an L1 evicted, written back to its L2 slice (a write of the line)
  bool owned = false;            // on a load's reply: the L2 kept no copy; the L1 copies the line back when it evicts it
  std::uint8_t hint = 0;         // a load: its L1's policies' bits for the L2's (mem::CachePolicy::hint)
  std::uint8_t feedback = 0;     // on a load's reply: the L2's policies' bits for the L1's (CachePolicy::feedback)
};

// A payload of the pool with its GpuRequest inside it: gpu() reaches the request without the
// extension look-up (a call into SystemC's library on every hop); it is also set as the payload's
// extension, for code that asks by extension.
class GpuPayload : public tlm::tlm_generic_payload {
 public:
  explicit GpuPayload(tlm::tlm_mm_interface* mm) : tlm::tlm_generic_payload(mm) { set_extension(&request); }
  ~GpuPayload() override { clear_extension(&request); }
  GpuRequest request;
};

// Pooled payloads, each with a GpuRequest; counts what is in use so a run that ends with a
// payload still allocated can be reported (a leak, or a request never answered).
class PayloadPool : public tlm::tlm_mm_interface {
 public:
  ~PayloadPool() override;
  // A payload with reference count 1 and a reset GpuRequest.
  tlm::tlm_generic_payload& allocate();
  void free(tlm::tlm_generic_payload* p) override;
  std::size_t in_use() const { return in_use_; }
  std::size_t allocated() const { return all_.size(); }

 private:
  std::vector<GpuPayload*> free_, all_;
  std::size_t in_use_ = 0;
};

// The GPU metadata of a payload from a PayloadPool (every GPU memory request is one).
inline GpuRequest& gpu(tlm::tlm_generic_payload& p) { return static_cast<GpuPayload&>(p).request; }
inline const GpuRequest& gpu(const tlm::tlm_generic_payload& p) { return static_cast<const GpuPayload&>(p).request; }

}  // namespace irr::tlm_glue
