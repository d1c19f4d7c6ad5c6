// Arange (asc-devkit's Arange page, index computation): the arithmetic sequence dst[i] = firstValue
// + i * diffValue for i < count. The page's algorithm (the first block by scalar writes, then Adds
// block by block to one repeat, then repeat by repeat) is ArithProgression's (adv_index.h), which
// it runs, so it is charged and rounds as that does; the page's types on the A2: int16_t, half,
// int32_t, float.
#pragma once

#include "ascendc_sim/adv_index.h"

namespace AscendC {

template <typename T>
__aicore__ inline void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count) {
  static_assert(
      std::is_same_v<T, int16_t> || std::is_same_v<T, half> || std::is_same_v<T, int32_t> || std::is_same_v<T, float>,
      "Arange: int16_t, half, int32_t or float on the A2");
  ArithProgression(dst, firstValue, diffValue, count);
}

}  // namespace AscendC
