// The tiling struct, a plain C++ struct the host fills through GetTilingData<T>() and the kernel
// reads with GET_TILING_DATA_WITH_STRUCT (the op_host has no header of its own).
#pragma once
#include <cstdint>

struct OffsetBlendTiling {
  uint32_t total;
  uint32_t perCore;
  float scale;
  float offset;
};
