// The guest engine's Cast between half and int4b_t (ascendc_guest/int4.h), run by the native
// engine's CastInt4 on tensors held to their buffers: the half side's `count` elements and the int4
// side's count / 2 bytes (the native code trusts its tensors' extents).
#include "import.h"

namespace ascendc_sim::guest {
namespace {

using AscendC::int4b_t;

void CastInt4(const Call& c, int32_t toInt4, int32_t round, uint32_t dst, uint32_t dstSize, int32_t dstPos,
              uint32_t src, uint32_t srcSize, int32_t srcPos, uint32_t count, int32_t line) {
  if (round < 0 || round > static_cast<int32_t>(AscendC::RoundMode::CAST_ODD))
    throw SimError(Status::RUNTIME_ERROR, "Cast: round mode " + std::to_string(round) + " out of range");
  const auto mode = static_cast<AscendC::RoundMode>(round);
  // The reach of each side in its buffer, then the tensors as the guest named them.
  const auto packed = [&](uint32_t addr, uint32_t size, int32_t pos) {
    (void)Local<uint8_t>(addr, count / 2, pos);
    return AscendC::LocalTensor<int4b_t>(addr, size, Position(pos));
  };
  const auto halves = [&](uint32_t addr, uint32_t size, int32_t pos) {
    (void)Local<half>(addr, count, pos);
    return AscendC::LocalTensor<half>(addr, size, Position(pos));
  };
  if (toInt4)
    AscendC::Cast(packed(dst, dstSize, dstPos), halves(src, srcSize, srcPos), mode, count, c.Loc(line));
  else
    AscendC::Cast(halves(dst, dstSize, dstPos), packed(src, srcSize, srcPos), mode, count, c.Loc(line));
}

}  // namespace

void DefineInt4Imports(wasmtime_linker_t* l) { Import<CastInt4>::Define(l, "vec_cast_int4"); }

}  // namespace ascendc_sim::guest
