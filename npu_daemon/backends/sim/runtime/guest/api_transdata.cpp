// The guest engine's transpose imports: TransDataTo5HD over 16 address lists, and Transpose of one
// 16 x 16 matrix.
#include "vec_shape.h"

namespace ascendc_sim::guest {
namespace {

void VecTrans5hd(const Call& c, int32_t elemBytes, uint32_t lists, int32_t dstHigh, int32_t srcHigh, int32_t repeats,
                 int32_t dstRep, int32_t srcRep, int32_t line) {
  const char* api = "TransDataTo5HD";
  VectorCore(api);
  if (repeats < 0 || repeats > UINT8_MAX || dstRep < 0 || dstRep > UINT16_MAX || srcRep < 0 || srcRep > UINT16_MAX)
    throw SimError(Status::RUNTIME_ERROR, "TransDataTo5HD: a TransDataTo5HDParams field out of its range");
  uint32_t addr[32];
  std::memcpy(addr, c.Bytes(lists, sizeof addr, api), sizeof addr);
  // Each address names a block of the UB (the emulation checks every block a repeat reaches).
  for (const uint32_t a : addr) (void)Local<uint8_t>(a, 32);
  uint32_t dst[16], src[16];
  std::copy(addr, addr + 16, dst);
  std::copy(addr + 16, addr + 32, src);
  const AscendC::TransDataTo5HDParams p(dstHigh != 0, srcHigh != 0, static_cast<uint8_t>(repeats),
                                        static_cast<uint16_t>(dstRep), static_cast<uint16_t>(srcRep));
  const SrcLoc loc = c.Loc(line);
  switch (elemBytes) {
    case 1:
      return ascendc_sim::TransDataTo5HD<uint8_t>(dst, src, p, {}, loc);
    case 2:
      return ascendc_sim::TransDataTo5HD<uint16_t>(dst, src, p, {}, loc);
    case 4:
      return ascendc_sim::TransDataTo5HD<uint32_t>(dst, src, p, {}, loc);
  }
  throw SimError(Status::RUNTIME_ERROR, "TransDataTo5HD: elements of " + std::to_string(elemBytes) + " bytes");
}

void VecTranspose(const Call& c, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, int32_t line) {
  VectorCore("Transpose");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (sizeof(T) == 2) return AscendC::Transpose(Local<T>(d, dn), Local<T>(a, an), c.Loc(line));
    Unsupported("Transpose", t);
  });
}

}  // namespace

void DefineTransDataImports(wasmtime_linker_t* l) {
  Import<VecTrans5hd>::Define(l, "vec_trans_5hd");
  Import<VecTranspose>::Define(l, "vec_transpose");
}

}  // namespace ascendc_sim::guest
