// The tiling data, a plain struct the host fills through GetTilingData<T>().
#pragma once
#include <cstdint>

struct AffineRowsTilingData {
  uint32_t total;
  float scale;
  float shift;
};
