// SPDX-License-Identifier: Apache-2.0
#include "models/mem/backing_store.h"

#include <algorithm>
#include <stdexcept>

namespace irr::mem {

BackingStore::Region* BackingStore::region(std::uint64_t r) const {
  if (r == last_region_) return last_;
  auto it = regions_.find(r);
  if (it == regions_.end()) return nullptr;
  last_region_ = r;
  last_ = it->second.get();
  return last_;
}

const BackingStore::Page* BackingStore::find(std::uint64_t page) const {
  const Region* t = region(page >> kRegionBits);
  return t ? (*t)[page & kSlotMask].get() : nullptr;
}

BackingStore::Page& BackingStore::touch(std::uint64_t page) {
  Region* t = region(page >> kRegionBits);
  if (!t) {
    auto& slot = regions_[page >> kRegionBits];
    slot = std::make_unique<Region>();
    t = slot.get();
  }
  auto& p = (*t)[page & kSlotMask];
  if (!p) {
    p = std::make_unique<Page>();
    p->fill(0);
    ++pages_;
  }
  return *p;
}

void BackingStore::read(std::uint64_t addr, void* out, std::size_t n) const {
  auto* dst = static_cast<std::uint8_t*>(out);
  while (n) {
    const std::uint64_t page = addr / kPageBytes, off = addr % kPageBytes;
    const std::size_t chunk = std::min<std::size_t>(n, kPageBytes - off);
    if (const Page* p = find(page)) std::memcpy(dst, p->data() + off, chunk);
    else std::memset(dst, 0, chunk);
    dst += chunk;
    addr += chunk;
    n -= chunk;
  }
}

void BackingStore::write(std::uint64_t addr, const void* in, std::size_t n) {
  auto* src = static_cast<const std::uint8_t*>(in);
  while (n) {
    const std::uint64_t page = addr / kPageBytes, off = addr % kPageBytes;
    const std::size_t chunk = std::min<std::size_t>(n, kPageBytes - off);
    if (journal_ && page != last_kept_) keep(page);
    std::memcpy(touch(page).data() + off, src, chunk);
    src += chunk;
    addr += chunk;
    n -= chunk;
  }
}

void BackingStore::keep(std::uint64_t page) {
  last_kept_ = page;
  auto [it, first] = kept_.try_emplace(page);
  if (!first) return;
  if (const Page* p = find(page)) it->second = std::make_unique<Page>(*p);
}

void BackingStore::begin_journal() {
  if (journal_) throw std::logic_error("BackingStore::begin_journal with a journal open");
  journal_ = true;
}

void BackingStore::commit_journal() {
  journal_ = false;
  kept_.clear();
  last_kept_ = ~0ull;
}

void BackingStore::rollback_journal() {
  for (auto& [page, was] : kept_) {  // each page on its own: the order does not matter
    Region& t = *region(page >> kRegionBits);  // written, so it exists
    auto& slot = t[page & kSlotMask];
    if (!was) --pages_;
    slot = std::move(was);
  }
  commit_journal();
}

std::uint64_t BackingStore::atomic(std::uint64_t addr, unsigned size, tlm_glue::AtomicOp op, std::uint64_t a,
                                   std::uint64_t b) {
  using tlm_glue::AtomicOp;
  if (size != 4 && size != 8) throw std::invalid_argument("atomics are 4 or 8 bytes");
  const std::uint64_t mask = size == 8 ? ~0ull : 0xffffffffull;
  std::uint64_t old = 0;
  read(addr, &old, size);
  std::uint64_t v = old;
  // min and max compare unsigned; the signed forms come with the PTX executor.
  switch (op) {
    case AtomicOp::add: v = old + a; break;
    case AtomicOp::min: v = std::min(old, a & mask); break;
    case AtomicOp::max: v = std::max(old, a & mask); break;
    case AtomicOp::exch: v = a; break;
    case AtomicOp::cas: v = old == (a & mask) ? b : old; break;
    case AtomicOp::and_: v = old & a; break;
    case AtomicOp::or_: v = old | a; break;
    case AtomicOp::xor_: v = old ^ a; break;
    case AtomicOp::inc: v = old >= (a & mask) ? 0 : old + 1; break;  // PTX atom.inc wraps at the operand
    case AtomicOp::dec: v = (old == 0 || old > (a & mask)) ? a : old - 1; break;
    case AtomicOp::none: throw std::invalid_argument("atomic without an operation");
  }
  v &= mask;
  write(addr, &v, size);
  return old;
}

}  // namespace irr::mem
