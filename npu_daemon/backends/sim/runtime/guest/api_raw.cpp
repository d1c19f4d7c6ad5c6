// The guest engine's raw pointer imports: the loads, stores, copies and fills the build rewrote out of
// accesses through __gm__ and __ubuf__ pointers (guest_ir.py). Each element is the scalar access
// GlobalTensor / LocalTensor GetValue and SetValue make, with their cost, cache and race checks; a GM
// store is recorded as the native engine records a raw one (runtime/raw_access.cpp).
#include "../race_checker.h"
#include "import.h"

namespace ascendc_sim::guest {
namespace {

using ascendc_guest::kRawGm;
using ascendc_guest::kRawGuest;
using ascendc_guest::kRawUb;

// f(Tag<U>) for the unsigned integer of `bytes` bytes.
template <typename F>
decltype(auto) WithBytes(int32_t bytes, F&& f) {
  switch (bytes) {
    case 1:
      return f(Tag<uint8_t>{});
    case 2:
      return f(Tag<uint16_t>{});
    case 4:
      return f(Tag<uint32_t>{});
    case 8:
      return f(Tag<uint64_t>{});
  }
  throw SimError(Status::RUNTIME_ERROR, "a raw access of " + std::to_string(bytes) + " bytes");
}

// A raw GM store: GetValue's charge, and the bytes it wrote recorded as the native engine records a raw
// store, a store of the bytes GM already held as one (several blocks may write identical bytes).
void GmStore(const Call& c, uint32_t addr, int32_t bytes, int64_t bits) {
  const auto at = reinterpret_cast<uintptr_t>(g_module->gm.map.Resolve(addr, bytes, "a __gm__ pointer store"));
  gm_flags::RestoreView();  // before the store, or the bytes an early view replaced are put back over it
  uint8_t* host = GmHost(reinterpret_cast<void*>(at));
  const bool same = std::memcmp(host, &bits, bytes) == 0;
  uint8_t before[sizeof bits];
  std::memcpy(before, host, bytes);
  Core& core = CurrentCore();
  core.Scalar(core.ScalarGmCost(at, bytes));
  std::memcpy(host, &bits, bytes);
  core.NoteScalarStore(bytes);
  gm_flags::Stored(core, at, before, static_cast<uint32_t>(bytes));
  core.GmAccess(PIPE_S, GmPattern{at, 1, static_cast<uint32_t>(bytes), static_cast<uint64_t>(bytes)}, true, c.Loc(0),
                "raw GM store", same);
}

int64_t Load(const Call& c, int32_t space, uint32_t addr, int32_t bytes) {
  return WithBytes(bytes, [&](auto tag) -> int64_t {
    using U = typename decltype(tag)::type;
    if (space == kRawGm) return BitsOf(Global<U>(addr, 1, 1, "a __gm__ pointer load").GetValue(0, c.Loc(0)));
    if (space == kRawUb) return BitsOf(Local<U>(UbOfPointer(addr), 1).GetValue(0, c.Loc(0)));
    U v;
    std::memcpy(&v, c.Bytes(addr, sizeof v, "a raw copy"), sizeof v);
    return BitsOf(v);
  });
}

void Store(const Call& c, int32_t space, uint32_t addr, int32_t bytes, int64_t bits) {
  WithBytes(bytes, [&](auto tag) {
    using U = typename decltype(tag)::type;
    if (space == kRawGm)
      GmStore(c, addr, bytes, bits);
    else if (space == kRawUb)
      Local<U>(UbOfPointer(addr), 1).SetValue(0, FromBits<U>(bits), c.Loc(0));
    else
      std::memcpy(c.Bytes(addr, sizeof(U), "a raw copy"), &bits, sizeof(U));
  });
}

void Space(int32_t space, bool guest) {
  if (space != kRawGm && space != kRawUb && !(guest && space == kRawGuest))
    throw SimError(Status::RUNTIME_ERROR, "raw access: address space " + std::to_string(space) + " unknown");
}
int64_t RawLoad(const Call& c, int32_t space, uint32_t addr, int32_t bytes) {
  Space(space, false);
  return Load(c, space, addr, bytes);
}
void RawStore(const Call& c, int32_t space, uint32_t addr, int32_t bytes, int64_t bits) {
  Space(space, false);
  Store(c, space, addr, bytes, bits);
}

// A copy or fill the compiler made of an element loop: `elem`-byte accesses in the loop's order
// (the tail byte by byte), backwards where a forward copy would overwrite its own source.
template <typename Chunk>
void Chunks(uint32_t dst, uint32_t src, uint32_t bytes, int32_t elem, bool backward, Chunk&& chunk) {
  if (elem != 1 && elem != 2 && elem != 4 && elem != 8)
    throw SimError(Status::RUNTIME_ERROR, "raw copy: element of " + std::to_string(elem) + " bytes");
  const uint32_t whole = bytes / static_cast<uint32_t>(elem) * static_cast<uint32_t>(elem);
  auto at = [&](uint32_t k, int32_t n) { chunk(dst + k, src + k, n); };
  if (backward) {
    for (uint32_t k = bytes; k > whole;) at(--k, 1);
    for (uint32_t k = whole; k > 0;) at(k -= static_cast<uint32_t>(elem), elem);
  } else {
    for (uint32_t k = 0; k < whole; k += static_cast<uint32_t>(elem)) at(k, elem);
    for (uint32_t k = whole; k < bytes; ++k) at(k, 1);
  }
}

void RawCopy(const Call& c, int32_t dstSpace, uint32_t dst, int32_t srcSpace, uint32_t src, uint32_t bytes,
             int32_t elem) {
  Space(dstSpace, srcSpace != kRawGuest);
  Space(srcSpace, true);  // one side at least in GM or UB: a copy within guest memory is the guest's to pay
  const bool backward = dstSpace == srcSpace && dst > src && dst - src < bytes;
  Chunks(dst, src, bytes, elem, backward,
         [&](uint32_t d, uint32_t s, int32_t n) { Store(c, dstSpace, d, n, Load(c, srcSpace, s, n)); });
}

void RawFill(const Call& c, int32_t space, uint32_t addr, int32_t byte, uint32_t bytes, int32_t elem) {
  Space(space, false);
  const int64_t bits = static_cast<int64_t>(0x0101010101010101ull * static_cast<uint8_t>(byte));
  Chunks(addr, addr, bytes, elem, false, [&](uint32_t d, uint32_t, int32_t n) { Store(c, space, d, n, bits); });
}

}  // namespace

void DefineRawImports(wasmtime_linker_t* l) {
  Import<RawLoad>::Define(l, "raw_load");
  Import<RawStore>::Define(l, "raw_store");
  Import<RawCopy>::Define(l, "raw_copy");
  Import<RawFill>::Define(l, "raw_fill");
}

}  // namespace ascendc_sim::guest
