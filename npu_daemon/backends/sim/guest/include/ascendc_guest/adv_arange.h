// Arange on the guest engine: the page's algorithm is ArithProgression's, whose import
// (adv_arith_progression, ascendc_guest/adv.h) serves it, so it is charged and rounds as on the
// native engine (ascendc_sim/adv_arange.h). Included by kernel_operator.h.
#pragma once

namespace AscendC {

template <typename T>
void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count) {
  static_assert(
      std::is_same_v<T, int16_t> || std::is_same_v<T, half> || std::is_same_v<T, int32_t> || std::is_same_v<T, float>,
      "Arange: int16_t, half, int32_t or float on the A2");
  ArithProgression(dst, firstValue, diffValue, count);
}

}  // namespace AscendC
