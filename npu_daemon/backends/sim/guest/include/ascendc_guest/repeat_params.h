// The vector instructions' repeat parameter records and lane constants, as the library spells
// them: plain uint16_t fields, the same layout on wasm32 and x86-64, so the native engine
// (ascendc_sim/vec_core.h) and the guest engine (which passes them to the host by address) share
// one definition.
#pragma once

#include <cstdint>

namespace AscendC {

// Constructed as in the library, with parentheses too (`UnaryRepeatParams(1, 1, 8, 4)`); trailing
// fields keep their defaults, so the brace lists kernels pass stay valid.
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

#ifndef ASCC_PARAM_ONE_BLK_SIZE  // guarded as BLOCK_CUBE below: the host tiling headers declare it too
#define ASCC_PARAM_ONE_BLK_SIZE
constexpr uint32_t ONE_BLK_SIZE = 32;
#endif
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr uint32_t DEFAULT_BLK_NUM = 8;
constexpr uint32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
// The 16 x 16 fractal edge, guarded as CANN guards it (ASCC_PARAM_BLOCK_CUBE): the host tiling
// headers declare the same constant, and a unit seeing both takes the first.
#ifndef ASCC_PARAM_BLOCK_CUBE
#define ASCC_PARAM_BLOCK_CUBE
constexpr uint32_t BLOCK_CUBE = 16;
#endif
constexpr int32_t DEFAULT_C0_SIZE = 32;  // bytes of one C0 block (asc-devkit kernel_utils_constants.h)
constexpr uint64_t MASK_PLACEHOLDER = 0;
// The element counts the library derives from the block and repeat sizes (asc-devkit
// kernel_utils_constants.h, reached through kernel_operator.h): kernels use them unqualified.
constexpr uint32_t ONE_BLK_HALF_NUM = ONE_BLK_SIZE / sizeof(uint16_t);
constexpr uint32_t ONE_BLK_FLOAT_NUM = ONE_BLK_SIZE / sizeof(uint32_t);
constexpr uint32_t HALF_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / sizeof(uint16_t);
constexpr uint32_t FLOAT_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / sizeof(uint32_t);
constexpr uint32_t ONE_REPEAT_HALF_SIZE = HALF_REPEAT_SIZE;
constexpr uint32_t ONE_REPEAT_FLOAT_SIZE = FLOAT_REPEAT_SIZE;
constexpr uint32_t MAX_REPEAT_HALF_SIZE = ONE_REPEAT_HALF_SIZE * MAX_REPEAT_TIMES;
constexpr uint32_t MAX_REPEAT_FLOAT_SIZE = ONE_REPEAT_FLOAT_SIZE * MAX_REPEAT_TIMES;
constexpr uint32_t BRCB_BROADCAST_NUMBER = 8;  // elements Brcb takes per repeat
constexpr uint32_t BRCB_MAX_REPEAT_SIZE = BRCB_BROADCAST_NUMBER * MAX_REPEAT_TIMES;
// The A2's buffer sizes as the library declares them (asc-devkit kernel_utils_constants.h, __NPU_ARCH__
// 2201): kernels size their tiles by them unqualified. L1 keeps KFC_L1_RESERVER_SIZE for the Matmul's
// messages there.
#ifndef KFC_L1_RESERVER_SIZE
#define KFC_L1_RESERVER_SIZE 128
#endif
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 184 * 1024;
constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;
constexpr uint32_t TMP_UB_SIZE = 8 * 1024;
constexpr uint32_t TOTAL_L1_SIZE = 512 * 1024 - KFC_L1_RESERVER_SIZE;
constexpr uint32_t TOTAL_L0A_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0B_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0C_SIZE = 128 * 1024;

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
// Copy's parameters: default-constructed, or all four given (the library's two constructors, so
// `CopyRepeatParams(1, 1, 8, 8)` and a four-element brace list both build one).
struct CopyRepeatParams {
  CopyRepeatParams() = default;
  CopyRepeatParams(uint16_t dstStrideIn, uint16_t srcStrideIn, uint16_t dstRepeatSizeIn, uint16_t srcRepeatSizeIn)
      : dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        dstRepeatSize(dstRepeatSizeIn),
        srcRepeatSize(srcRepeatSizeIn) {}
  uint16_t dstStride = 1;
  uint16_t srcStride = 1;
  uint16_t dstRepeatSize = 8;
  uint16_t srcRepeatSize = 8;
};
struct BrcbRepeatParams {
  uint16_t dstBlkStride = 1;
  uint16_t dstRepStride = 8;
};
// Gatherb's parameters: the destination's block and repeat strides in 32 B blocks; the other fields
// are kept for the layout the documentation gives and are ignored, as the A2 ignores them.
struct GatherRepeatParams {
  GatherRepeatParams() = default;
  GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn)
      : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
  uint32_t blockNumber = 8;
  uint16_t dstRepStride = 8;
  uint8_t dstBlkStride = 1;
  uint8_t src0BlkStride = 1;
  uint8_t src1BlkStride = 1;
  uint8_t src0RepStride = 8;
  uint8_t src1RepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};
static_assert(sizeof(UnaryRepeatParams) == 8 && sizeof(BinaryRepeatParams) == 12, "read by the host by address");
static_assert(sizeof(CopyRepeatParams) == 8 && sizeof(BrcbRepeatParams) == 4, "read by the host by address");

}  // namespace AscendC
