// The repeat forms' stride records, as the library spells them. The elementwise family's
// ascendc_guest/vec_core.h defines them beside the mask state; where the tree has it, its
// definition is the one (this header's own serves a tree without it).
#pragma once

#if __has_include("ascendc_guest/vec_core.h")
#include "ascendc_guest/vec_core.h"
#else
namespace AscendC {

// Constructed with parentheses or braces; trailing fields keep their defaults.
struct UnaryRepeatParams {
  UnaryRepeatParams(uint16_t dstBlk = 1, uint16_t srcBlk = 1, uint16_t dstRep = 8, uint16_t srcRep = 8)
      : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep) {}
  uint16_t dstBlkStride;
  uint16_t srcBlkStride;
  uint16_t dstRepStride;
  uint16_t srcRepStride;
};
struct BinaryRepeatParams {
  BinaryRepeatParams(uint16_t dstBlk = 1, uint16_t src0Blk = 1, uint16_t src1Blk = 1, uint16_t dstRep = 8,
                     uint16_t src0Rep = 8, uint16_t src1Rep = 8)
      : dstBlkStride(dstBlk),
        src0BlkStride(src0Blk),
        src1BlkStride(src1Blk),
        dstRepStride(dstRep),
        src0RepStride(src0Rep),
        src1RepStride(src1Rep) {}
  uint16_t dstBlkStride;
  uint16_t src0BlkStride;
  uint16_t src1BlkStride;
  uint16_t dstRepStride;
  uint16_t src0RepStride;
  uint16_t src1RepStride;
};

}  // namespace AscendC
#endif
