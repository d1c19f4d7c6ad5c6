// The repeat forms' stride records, as the library spells them (included by kernel_operator.h
// before the families that take them).
#pragma once

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

constexpr uint32_t ONE_BLK_SIZE = 32;
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr uint32_t DEFAULT_BLK_NUM = 8;
constexpr uint32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;

}  // namespace AscendC
