// The kernel-side tiling of SoftmaxFlashV2 (asc-devkit adv_api/activation/softmaxflashv2.h), for a
// shape the host's tiling did not see: the rows split over a work space of localWorkSpaceSize
// floats as the host's SoftMaxTilingFunc splits them (ascendc_sim/host_tiling_api.h). Included by
// both engines' adv_softmax_flash.h.
#pragma once

#include <cstdint>

#include "ascendc_sim/adv_params.h"
#include "tiling/tiling_api.h"

namespace AscendC {

// The flags select device code paths with the same split: the emulation reads srcM and srcK.
inline SoftMaxTiling SoftMaxFlashV2TilingFuncImpl(const uint32_t srcM, const uint32_t srcK,
                                                  const uint32_t /*dataTypeSize1*/, const uint32_t dataTypeSize2,
                                                  const uint32_t localWorkSpaceSize, const bool /*isUpdate*/ = false,
                                                  const bool /*isBasicBlock*/ = false,
                                                  const bool /*isDataFormatNZ*/ = false,
                                                  const bool /*isFlashOutputBrc*/ = false) {
  const uint32_t block = dataTypeSize2 ? 32 / dataTypeSize2 : 0, perRow = srcK * 4 + 64;
  uint32_t split = perRow ? localWorkSpaceSize * 4 / perRow : 0;
  split = split < 1 ? 1 : split > srcM ? srcM : split;
  SoftMaxTiling t{};
  t.srcM = srcM, t.srcK = srcK, t.srcSize = srcM * srcK;
  t.outMaxM = srcM, t.outMaxK = block, t.outMaxSize = srcM * block;
  t.splitM = split, t.splitK = srcK, t.splitSize = split * srcK;
  t.reduceM = split, t.reduceK = block, t.reduceSize = split * block;
  t.rangeM = split ? srcM / split : 0, t.tailM = split ? srcM % split : 0;
  t.tailSplitSize = t.tailM * srcK, t.tailReduceSize = t.tailM * block;
  return t;
}
inline SoftMaxTiling SoftMaxFlashV2TilingFunc(const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1,
                                              const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                              const bool isUpdate = false, const bool isBasicBlock = false,
                                              const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false) {
  return SoftMaxFlashV2TilingFuncImpl(shapeInfo.srcM, shapeInfo.srcK, dataTypeSize1, dataTypeSize2,
                                      localWorkSpaceSize / 4, isUpdate, isBasicBlock, isDataFormatNZ, isFlashOutputBrc);
}

}  // namespace AscendC
