// LayerNormGradBeta of the high-level API (asc-devkit adv_api/normalization/layernormgradbeta.h)
// over [B, S, H] (H 32 B aligned): per column, pdGamma = sum over the rows of dy * resForGamma and
// pdBeta = sum over the rows of dy, accumulated in float in row order, written as T over [H].
//
// Charged as the library's sequence of count-mode vector instructions over [B, S, H]: the casts in
// of half dy and resForGamma, the product, and the two row-by-row sums; and over [H] the casts out
// of half results.
#pragma once

#include "ascendc_sim/adv_steps.h"
#include "tiling/tiling_api.h"

namespace ascendc_sim {

template <typename T>
void LayerNormGradBetaImpl(const AscendC::LocalTensor<T>& pdGamma, const AscendC::LocalTensor<T>& pdBeta,
                           const AscendC::LocalTensor<T>& resForGamma, const AscendC::LocalTensor<T>& dy,
                           const AscendC::LocalTensor<uint8_t>* tmp, const LayerNormGradBetaTiling& tiling,
                           const SrcLoc& loc) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "LayerNormGradBeta: the data are half or float");
  const char* api = "LayerNormGradBeta";
  const uint32_t rows = tiling.bLength * tiling.sLength, h = tiling.hLength;
  ASCENDC_SIM_CHECK(h > 0 && h * sizeof(T) % 32 == 0, loc, "%s: hLength %u must be 32 B aligned", api, h);
  const uint64_t n = static_cast<uint64_t>(rows) * h;
  CheckElems(api, dy, n, "inputDy", loc);
  CheckElems(api, resForGamma, n, "resForGamma", loc);
  CheckElems(api, pdGamma, h, "outputPdGamma", loc);
  CheckElems(api, pdBeta, h, "outputPdBeta", loc);
  const bool b16 = sizeof(T) == 2;
  AdvSteps(api, 3 + (b16 ? 2 : 0), sizeof(float), n,
           {Touch(dy, n, false), Touch(resForGamma, n, false), Scratch(tmp), Touch(pdGamma, h, true),
            Touch(pdBeta, h, true)},
           loc);
  if (b16) AdvSteps(api, 2, sizeof(float), h, {Touch(pdGamma, h, true), Touch(pdBeta, h, true)}, loc);
  const T *d = HostData(dy), *res = HostData(resForGamma);
  for (uint32_t k = 0; k < h; ++k) {
    float g = 0, b = 0;
    for (uint32_t r = 0; r < rows; ++r) {
      const uint64_t i = static_cast<uint64_t>(r) * h + k;
      g += static_cast<float>(d[i]) * static_cast<float>(res[i]);
      b += static_cast<float>(d[i]);
    }
    HostData(pdGamma)[k] = static_cast<T>(g);
    HostData(pdBeta)[k] = static_cast<T>(b);
  }
}

}  // namespace ascendc_sim

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                                         const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                                         const LocalTensor<uint8_t>& sharedTmpBuffer,
                                         const LayerNormGradBetaTiling& tiling, ASCENDC_SIM_LOC) {
  ascendc_sim::LayerNormGradBetaImpl(outputPdGamma, outputPdBeta, resForGamma, inputDy, &sharedTmpBuffer, tiling, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                                         const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                                         LayerNormGradBetaTiling& tiling, ASCENDC_SIM_LOC) {
  ascendc_sim::LayerNormGradBetaImpl(outputPdGamma, outputPdBeta, resForGamma, inputDy, nullptr, tiling, loc);
}

}  // namespace AscendC
