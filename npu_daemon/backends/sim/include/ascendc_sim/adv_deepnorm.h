// DeepNorm of the high-level API (asc-devkit adv_api/normalization/deepnorm.h) over [B, S, H]:
// x1 = alpha * src + gx, then LayerNorm of x1 over the first originalHLength of each row of hLength
// (32 B aligned, at most 2040): mean = sum(x1 * lastDimValueBack), the population variance
// sum((x1 - mean)^2 * lastDimValueBack), rstd = 1 / sqrt(var + epsilon) and
// dst = (x1 - mean) * rstd * gamma + beta; all in float, mean and rstd written per row in T.
//
// Charged as the library's sequence of count-mode vector instructions over [B, S, H]: the casts in
// of a half src and gx, Muls(alpha), Add(gx); Muls and the reduction for the mean; the subtraction
// of the broadcast mean, the square, Muls and the reduction for the variance; Adds(epsilon), Sqrt,
// Div; the product with rstd, the gamma product, the beta sum, and the cast out of a half result.
#pragma once

#include "ascendc_sim/adv_steps.h"
#include "tiling/tiling_api.h"

namespace ascendc_sim {

template <typename T>
void DeepNormImpl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& mean,
                  const AscendC::LocalTensor<T>& rstd, const AscendC::LocalTensor<T>& src,
                  const AscendC::LocalTensor<T>& gx, const AscendC::LocalTensor<T>& beta,
                  const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<uint8_t>* tmp, float alpha,
                  float epsilon, const DeepNormTiling& tiling, bool basicBlock, const SrcLoc& loc) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "DeepNorm: the data are half or float");
  const char* api = "DeepNorm";
  const uint32_t rows = tiling.bLength * tiling.sLength, h = tiling.hLength, valid = tiling.originalHLength;
  ASCENDC_SIM_CHECK(h * sizeof(T) % 32 == 0 && h <= 2040 && valid > 0 && valid <= h, loc,
                    "%s: hLength %u must be 32 B aligned and at most 2040, originalHLength %u in (0, hLength]", api, h,
                    valid);
  ASCENDC_SIM_CHECK(!basicBlock || (h % 64 == 0 && rows % 8 == 0 && valid == h), loc,
                    "%s: isBasicBlock takes H a multiple of 64 (all valid) and B * S a multiple of 8", api);
  const uint64_t n = static_cast<uint64_t>(rows) * h;
  CheckElems(api, src, n, "srcLocal", loc);
  CheckElems(api, gx, n, "gxLocal", loc);
  CheckElems(api, dst, n, "dstLocal", loc);
  CheckElems(api, gamma, h, "gammaLocal", loc);
  CheckElems(api, beta, h, "betaLocal", loc);
  CheckElems(api, mean, rows, "meanLocal", loc);
  CheckElems(api, rstd, rows, "rstdLocal", loc);
  const int steps = 15 + (sizeof(T) == 2 ? 3 : 0);
  AdvSteps(api, steps, sizeof(float), n,
           {Touch(src, n, false), Touch(gx, n, false), Touch(gamma, h, false), Touch(beta, h, false), Scratch(tmp),
            Touch(dst, n, true), Touch(mean, rows, true), Touch(rstd, rows, true)},
           loc);
  const T *x = HostData(src), *g = HostData(gx), *ga = HostData(gamma), *be = HostData(beta);
  const float rec = tiling.lastDimValueBack;
  std::vector<float> x1(valid);
  for (uint32_t r = 0; r < rows; ++r) {
    const uint64_t row = static_cast<uint64_t>(r) * h;
    float m = 0, v = 0;
    for (uint32_t k = 0; k < valid; ++k) {
      x1[k] = static_cast<float>(x[row + k]) * alpha + static_cast<float>(g[row + k]);
      m += x1[k] * rec;
    }
    for (uint32_t k = 0; k < valid; ++k) v += (x1[k] - m) * (x1[k] - m) * rec;
    const float inv = 1.0f / std::sqrt(v + epsilon);
    for (uint32_t k = 0; k < valid; ++k)
      HostData(dst)[row + k] =
          static_cast<T>((x1[k] - m) * inv * static_cast<float>(ga[k]) + static_cast<float>(be[k]));
    HostData(mean)[r] = static_cast<T>(m);
    HostData(rstd)[r] = static_cast<T>(inv);
  }
}

}  // namespace ascendc_sim

namespace AscendC {

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
__aicore__ inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                                const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                                const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                                const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                const T alpha, const T epsilon, DeepNormTiling& tiling, ASCENDC_SIM_LOC) {
  ascendc_sim::DeepNormImpl(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal, &sharedTmpBuffer,
                            static_cast<float>(alpha), static_cast<float>(epsilon), tiling, isBasicBlock, loc);
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
__aicore__ inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                                const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                                const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                                const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon,
                                DeepNormTiling& tiling, ASCENDC_SIM_LOC) {
  ascendc_sim::DeepNormImpl(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal, nullptr,
                            static_cast<float>(alpha), static_cast<float>(epsilon), tiling, isBasicBlock, loc);
}

}  // namespace AscendC
