// The codes and argument records that cross the boundary for the compare/select, gather,
// reduction, sort and transdata families (beside abi.h; included by their guest headers and by
// runtime/guest/vec_shape.h on the host).
#pragma once

#include <cstdint>

namespace ascendc_guest {

// How an instruction's lanes are given: the count form, a continuous mask (lanes per repeat), a
// bit mask (two words), or the core's mask registers (the isSetMask = false forms).
enum class MaskForm : int32_t { kCount = 1, kContinuous, kBits, kRegister };

// One instruction's lanes and strides, passed as a guest pointer. Plain integers only: the same
// layout on wasm32 and the host (static_assert on both sides).
struct VecShape {
  uint64_t mask[2];  // kCount: mask[0] elements; kContinuous: mask[0] lanes; kBits: both words
  int32_t form;      // MaskForm
  int32_t repeat;    // repeatTime of the mask forms
  // BinaryRepeatParams' order; a UnaryRepeatParams fills dst and src0.
  uint16_t dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep;
};
static_assert(sizeof(VecShape) == 40, "VecShape crosses the boundary as 40 bytes");

enum class RepeatReduce : int32_t {
  kWholeSum = 1,
  kWholeMax,
  kWholeMin,
  kRepeatSum,
  kBlockSum,
  kBlockMax,
  kBlockMin,
  kPairSum
};
// The special registers the reductions and MrgSort leave for the scalar unit.
enum class Spr : int32_t { kMaxMin = 1, kAccVal, kSortedNum, kMrgSortResult };

}  // namespace ascendc_guest
