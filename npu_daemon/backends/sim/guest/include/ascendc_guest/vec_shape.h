// How the compare/select, gather and reduction families pass an instruction's lanes to the host:
// one VecShape record (vec_abi.h) built from the count or the mask form's arguments.
#pragma once

#include "ascendc_guest/repeat_params.h"
#include "ascendc_guest/vec_abi.h"

namespace ascendc_guest {
// A special register the reductions or MrgSort left for the scalar unit (vec_abi.h: Spr).
ASCENDC_GUEST_IMPORT(vec_spr) int64_t vec_spr(Spr which);

// An instruction's lanes for the host (vec_abi.h): the count form, or a mask form's mask, repeats
// and strides.
inline VecShape CountShape(uint32_t count) { return VecShape{{count, 0}, static_cast<int32_t>(MaskForm::kCount), 0}; }
template <bool isSetMask>
VecShape MaskShape(uint64_t mask, uint32_t repeat) {
  return VecShape{{mask, 0},
                  static_cast<int32_t>(isSetMask ? MaskForm::kContinuous : MaskForm::kRegister),
                  static_cast<int32_t>(repeat)};
}
template <bool isSetMask>
VecShape MaskShape(const uint64_t mask[], uint32_t repeat) {
  return VecShape{{mask[0], mask[1]},
                  static_cast<int32_t>(isSetMask ? MaskForm::kBits : MaskForm::kRegister),
                  static_cast<int32_t>(repeat)};
}
inline VecShape WithStrides(VecShape s, const AscendC::BinaryRepeatParams& p) {
  s.dstBlk = p.dstBlkStride, s.src0Blk = p.src0BlkStride, s.src1Blk = p.src1BlkStride;
  s.dstRep = p.dstRepStride, s.src0Rep = p.src0RepStride, s.src1Rep = p.src1RepStride;
  return s;
}
inline VecShape WithStrides(VecShape s, const AscendC::UnaryRepeatParams& p) {
  s.dstBlk = p.dstBlkStride, s.src0Blk = p.srcBlkStride, s.dstRep = p.dstRepStride, s.src0Rep = p.srcRepStride;
  return s;
}
// Keeps a scalar argument from deducing T (the library's scalar overloads take T's own type).
template <typename T>
struct Identity {
  using type = T;
};

}  // namespace ascendc_guest
