// BatchNorm of the high-level API (asc-devkit adv_api/normalization/batchnorm.h) over [B, S, H]
// with S * H 32 B aligned: per column j of the S * H, over the B rows, mean = sum(x * 1/B), the
// population variance sum((x - mean)^2 * 1/B), and out = (x - mean) / sqrt(var + epsilon) *
// gamma[b] + beta[b]; all in float (1/B is the tiling's firstDimValueBack), mean and variance
// written as T over [S, H].
//
// Charged as the library's sequence of count-mode vector instructions over [B, S, H]: the cast in
// of a half input; Muls and the row-by-row Add of the mean; Sub of the broadcast mean, Mul (the
// square), Muls and the Add of the variance; the product with the broadcast rstd; the broadcast of
// gamma, its Mul, the broadcast of beta and its Add; the cast out of a half result. Over [S, H]:
// Adds(epsilon), Sqrt and Div for rstd, and the casts out of a half mean and variance.
#pragma once

#include "ascendc_sim/adv_steps.h"
#include "ascendc_sim/norm_tmp_sizes.h"
#include "tiling/tiling_api.h"

namespace ascendc_sim {

template <typename T>
void BatchNormImpl(const AscendC::LocalTensor<T>& output, const AscendC::LocalTensor<T>& outputMean,
                   const AscendC::LocalTensor<T>& outputVariance, const AscendC::LocalTensor<T>& inputX,
                   const AscendC::LocalTensor<T>& gamm, const AscendC::LocalTensor<T>& beta,
                   const AscendC::LocalTensor<uint8_t>* tmp, float epsilon, const BatchNormTiling& tiling,
                   bool basicBlock, const SrcLoc& loc) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "BatchNorm: the data are half or float");
  const char* api = "BatchNorm";
  const uint32_t b = tiling.originalBLength, sh = tiling.meanVarSize;
  ASCENDC_SIM_CHECK(b > 0 && sh > 0 && sh * sizeof(T) % 32 == 0, loc,
                    "%s: originalBLength %u must be positive and S * H (meanVarSize %u) 32 B aligned", api, b, sh);
  ASCENDC_SIM_CHECK(!basicBlock || (b % 8 == 0 && sh % 64 == 0 && sh < 2048), loc,
                    "%s: isBasicBlock takes B a multiple of 8 and S * H a multiple of 64 under 2048", api);
  const TmpRange range = BatchNormTmpRange(b, sh, sizeof(T), basicBlock);
  CheckTmpMin(api, tmp, range.minValue, "GetBatchNormMaxMinTmpSize", loc);
  const uint64_t n = static_cast<uint64_t>(b) * sh;
  CheckElems(api, inputX, n, "inputX", loc);
  CheckElems(api, output, n, "output", loc);
  CheckElems(api, gamm, b, "gamm", loc);
  CheckElems(api, beta, b, "beta", loc);
  CheckElems(api, outputMean, sh, "outputMean", loc);
  CheckElems(api, outputVariance, sh, "outputVariance", loc);
  const bool b16 = sizeof(T) == 2;
  AdvSteps(api, 12 + (b16 ? 2 : 0), sizeof(float), n,
           {Touch(inputX, n, false), Touch(gamm, b, false), Touch(beta, b, false), Scratch(tmp, range.maxValue),
            Touch(output, n, true)},
           loc);
  AdvSteps(api, 3 + (b16 ? 2 : 0), sizeof(float), sh,
           {Scratch(tmp, range.maxValue), Touch(outputMean, sh, true), Touch(outputVariance, sh, true)}, loc);
  const T *x = HostData(inputX), *g = HostData(gamm), *be = HostData(beta);
  const float rec = tiling.firstDimValueBack;
  std::vector<float> in(x, x + n), out(n);  // read before writing: output may be inputX
  for (uint32_t j = 0; j < sh; ++j) {
    float m = 0, v = 0;
    for (uint32_t r = 0; r < b; ++r) m += in[static_cast<uint64_t>(r) * sh + j] * rec;
    for (uint32_t r = 0; r < b; ++r) {
      const float d = in[static_cast<uint64_t>(r) * sh + j] - m;
      v += d * d * rec;
    }
    const float rstd = 1.0f / std::sqrt(v + epsilon);
    for (uint32_t r = 0; r < b; ++r) {
      const uint64_t i = static_cast<uint64_t>(r) * sh + j;
      out[i] = (in[i] - m) * rstd * static_cast<float>(g[r]) + static_cast<float>(be[r]);
    }
    HostData(outputMean)[j] = static_cast<T>(m);
    HostData(outputVariance)[j] = static_cast<T>(v);
  }
  for (uint64_t i = 0; i < n; ++i) HostData(output)[i] = static_cast<T>(out[i]);
}

}  // namespace ascendc_sim

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamm, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, BatchNormTiling& tiling,
                                 ASCENDC_SIM_LOC) {
  ascendc_sim::BatchNormImpl(output, outputMean, outputVariance, inputX, gamm, beta, &sharedTmpBuffer,
                             static_cast<float>(epsilon), tiling, isBasicBlock, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamm, const LocalTensor<T>& beta, const T epsilon,
                                 BatchNormTiling& tiling, ASCENDC_SIM_LOC) {
  ascendc_sim::BatchNormImpl(output, outputMean, outputVariance, inputX, gamm, beta, nullptr,
                             static_cast<float>(epsilon), tiling, isBasicBlock, loc);
}

}  // namespace AscendC
