// NPU architecture numbers of the CANN platform layer (platform/soc_spec.h): the number the
// op base's tiling utilities branch on. Every SoC preset here is the 910B family, DAV_2201.
#pragma once

#include <cstdint>

enum class NpuArch : uint32_t {
  DAV_1001 = 1001,  // Ascend910
  DAV_2002 = 2002,  // Ascend310P
  DAV_2201 = 2201,  // Ascend910B / 910_93 (Atlas A2, A3): the simulated core
  DAV_3002 = 3002,  // Ascend310B
  // Further __NPU_ARCH__ values asc-devkit's kernels branch on: tilings compare with them.
  DAV_3003 = 3003,
  DAV_3102 = 3102,
  DAV_3113 = 3113,
  DAV_3510 = 3510,  // regbase
  DAV_5102 = 5102,  // regbase
  DAV_RESV = 0xFFFFFFFFu,
};
