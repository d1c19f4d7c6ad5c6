// The tiling data, a plain struct the host fills through GetTilingData<T>().
#pragma once
#include <cstdint>

struct OffsetRowsTilingData {
  uint32_t total;
  uint32_t perCore;
  float scale;
  float offset;
};
