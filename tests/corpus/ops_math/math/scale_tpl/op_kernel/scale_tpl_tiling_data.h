// The tiling data, a plain struct the host fills through GetTilingData<T>().
#pragma once
#include <cstdint>

struct ScaleTplTilingData {
  uint32_t total;
};
