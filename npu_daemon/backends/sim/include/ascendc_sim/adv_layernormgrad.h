// LayerNormGrad of the high-level API (asc-devkit adv_api/normalization/layernormgrad.h) over
// [B, S, H] (H 32 B aligned, its first originalHLength valid), the page's formulas per row with
// rstd = (variance + epsilon)^-0.5, x1 = dy * gamma and x2 = x - mean:
//   pdVar  = sum(-0.5 * x1 * x2 * rstd^3)
//   pdMean = sum(-x1 * rstd) + pdVar * 1/H * sum(-2 * x2)
//   pdX    = x1 * rstd + pdVar * 2/H * x2 + pdMean * 1/H,   resForGamma = x2 * rstd
// the sums over the valid H, 1/H and 2/H the tiling's lastDimValueBack(MulTwo) (float bits); all in
// float, written as T. The padding of both outputs is left as it was.
//
// Charged as the library's sequence of count-mode vector instructions over [B, S, H]: the casts in
// of a half dy and x; ComputePdX1 (Mul by gamma);
// ComputePdX2 (Brcb of the mean, Sub); ComputePdVar (Mul, Mul by the broadcast rstd^3, Muls, the
// reduction); ComputePdMean (the broadcast rstd and its Mul, Muls, the reduction, Muls of x2, the
// reduction, Mul, Add) and resForGamma (Mul); ComputePdX (Mul, the broadcast pdVar and its Mul,
// Muls, the broadcast pdMean, Muls, two Adds); the casts out of a half pdX and resForGamma. Over
// [B, S]: Adds(epsilon), Sqrt, Div and the two Mul of rstd^3.
#pragma once

#include <cstring>

#include "ascendc_sim/adv_norm_params.h"
#include "ascendc_sim/adv_steps.h"
#include "ascendc_sim/norm_tmp_sizes.h"
#include "tiling/tiling_api.h"

namespace ascendc_sim {

inline float FloatOfBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline void CheckNdFormat(const char* api, AscendC::DataFormat f, const SrcLoc& loc) {
  ASCENDC_SIM_CHECK(f == AscendC::DataFormat::ND, loc, "%s: the ND layout only, not dataFormat %u", api,
                    static_cast<unsigned>(f));
}

template <typename T>
void LayerNormGradImpl(const AscendC::LocalTensor<T>& outputPdX, const AscendC::LocalTensor<T>& resForGamma,
                       const AscendC::LocalTensor<T>& inputDy, const AscendC::LocalTensor<T>& inputX,
                       const AscendC::LocalTensor<T>& inputVariance, const AscendC::LocalTensor<T>& inputMean,
                       const AscendC::LocalTensor<T>& inputGamma, const AscendC::LocalTensor<uint8_t>* tmp,
                       float epsilon, const LayerNormGradTiling& tiling, bool isReuseSource, const SrcLoc& loc) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "LayerNormGrad: the data are half or float");
  const char* api = "LayerNormGrad";
  const uint32_t rows = tiling.bLength * tiling.sLength, h = tiling.hLength, valid = tiling.originalHLength;
  ASCENDC_SIM_CHECK(rows > 0 && h * sizeof(T) % 32 == 0 && valid > 0 && valid <= h, loc,
                    "%s: B * S %u positive, hLength %u 32 B aligned, originalHLength %u in (0, hLength]", api, rows, h,
                    valid);
  const TmpRange range = LayerNormGradTmpRange(tiling.bLength, tiling.sLength, h, sizeof(T), isReuseSource);
  CheckTmpMin(api, tmp, range.minValue, "GetLayerNormGradMaxMinTmpSize", loc);
  const uint64_t n = static_cast<uint64_t>(rows) * h;
  CheckElems(api, inputDy, n, "inputDy", loc);
  CheckElems(api, inputX, n, "inputX", loc);
  CheckElems(api, outputPdX, n, "outputPdX", loc);
  CheckElems(api, resForGamma, n, "resForGamma", loc);
  CheckElems(api, inputVariance, rows, "inputVariance", loc);
  CheckElems(api, inputMean, rows, "inputMean", loc);
  CheckElems(api, inputGamma, h, "inputGamma", loc);
  const bool b16 = sizeof(T) == 2;
  AdvSteps(api, 25 + (b16 ? 4 : 0), sizeof(float), n,
           {Touch(inputDy, n, false), Touch(inputX, n, false), Touch(inputGamma, h, false),
            Scratch(tmp, range.maxValue), Touch(outputPdX, n, true), Touch(resForGamma, n, true)},
           loc);
  AdvSteps(api, 5, sizeof(float), rows,
           {Touch(inputVariance, rows, false), Touch(inputMean, rows, false), Scratch(tmp, range.maxValue)}, loc);
  const float rec = FloatOfBits(tiling.lastDimValueBack), rec2 = FloatOfBits(tiling.lastDimValueBackMulTwo);
  // Every input is read before an output is written: the outputs may share the inputs' space.
  const T *pdy = HostData(inputDy), *px = HostData(inputX), *pg = HostData(inputGamma);
  std::vector<float> dy(pdy, pdy + n), x(px, px + n), gamma(pg, pg + h);
  std::vector<float> var(HostData(inputVariance), HostData(inputVariance) + rows);
  std::vector<float> mean(HostData(inputMean), HostData(inputMean) + rows);
  for (uint32_t r = 0; r < rows; ++r) {
    const uint64_t row = static_cast<uint64_t>(r) * h;
    const float rstd = 1.0f / std::sqrt(var[r] + epsilon), rstd3 = rstd * rstd * rstd;
    float pdVar = 0, sumX1 = 0, sumX2 = 0;
    for (uint32_t k = 0; k < valid; ++k) {
      const float x1 = dy[row + k] * gamma[k], x2 = x[row + k] - mean[r];
      pdVar += -0.5f * x1 * x2 * rstd3;
      sumX1 += -x1 * rstd;
      sumX2 += -2.0f * x2;
    }
    const float pdMean = sumX1 + pdVar * rec * sumX2;
    for (uint32_t k = 0; k < valid; ++k) {
      const float x1 = dy[row + k] * gamma[k], x2 = x[row + k] - mean[r];
      HostData(outputPdX)[row + k] = static_cast<T>(x1 * rstd + pdVar * rec2 * x2 + pdMean * rec);
      HostData(resForGamma)[row + k] = static_cast<T>(x2 * rstd);
    }
  }
}

}  // namespace ascendc_sim

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                                     const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                                     const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                                     const LocalTensor<T>& inputGamma, LocalTensor<uint8_t>& sharedTmpBuffer, T epsilon,
                                     LayerNormGradTiling& tiling, const LayerNormGradShapeInfo& shapeInfo = {},
                                     ASCENDC_SIM_LOC) {
  ascendc_sim::CheckNdFormat("LayerNormGrad", shapeInfo.dataFormat, loc);
  ascendc_sim::LayerNormGradImpl(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma,
                                 &sharedTmpBuffer, static_cast<float>(epsilon), tiling, isReuseSource, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                                     const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                                     const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                                     const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling,
                                     const LayerNormGradShapeInfo& shapeInfo = {}, ASCENDC_SIM_LOC) {
  ascendc_sim::CheckNdFormat("LayerNormGrad", shapeInfo.dataFormat, loc);
  ascendc_sim::LayerNormGradImpl(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma, nullptr,
                                 static_cast<float>(epsilon), tiling, isReuseSource, loc);
}

}  // namespace AscendC
