// SPDX-License-Identifier: Apache-2.0
#include "tlm_glue/gpu_payload.h"

namespace irr::tlm_glue {

const char* access_name(Access a) {
  switch (a) {
    case Access::load: return "load";
    case Access::store: return "store";
    case Access::atomic: return "atomic";
  }
  return "?";
}

PayloadPool::~PayloadPool() {
  for (auto* p : all_) {
    p->clear_extension(&p->request);
    p->free_all_extensions();
    delete p;
  }
}

tlm::tlm_generic_payload& PayloadPool::allocate() {
  GpuPayload* p;
  if (free_.empty()) {
    p = new GpuPayload(this);
    all_.push_back(p);
  } else {
    p = free_.back();
    free_.pop_back();
  }
  p->request = GpuRequest();
  p->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  p->acquire();
  ++in_use_;
  return *p;
}

void PayloadPool::free(tlm::tlm_generic_payload* p) {
  // Called by release() at reference count 0: back to the pool, extension kept.
  --in_use_;
  free_.push_back(static_cast<GpuPayload*>(p));  // every payload it lends is one
}

}  // namespace irr::tlm_glue
