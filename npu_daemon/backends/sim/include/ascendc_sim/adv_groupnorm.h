// GroupNorm of the high-level API (asc-devkit adv_api/normalization/groupnorm.h) over [N, C, H, W],
// each channel's H * W padded to hwAlignSize (32 B): the C channels of a sample in g groups of d;
// per group, over its d * H * W valid elements, mean = sum(x) * factor, the population variance
// sum((x - mean)^2) * factor (factor = 1 / (d * H * W), the tiling's), and
// out = (x - mean) / sqrt(var + epsilon) * gamma[c] + beta[c]; all in float, mean and variance
// written as T over [N, g]. The padding of the output is left as it was.
//
// Charged as the library's sequence of count-mode vector instructions over [N, C, hwAlignSize]:
// the cast in of a half input; the reductions of the sum and the mean (ReduceSum twice, Muls);
// Sub of the broadcast mean, Mul (the square), the two reductions and Muls of the variance; the
// product with the broadcast rstd; the gamma Muls and beta Adds per channel; the cast out of a
// half result. Over [N, g]: Adds(epsilon), Sqrt and Div for rstd, and the casts out of a half mean
// and variance.
#pragma once

#include "ascendc_sim/adv_steps.h"
#include "ascendc_sim/norm_tmp_sizes.h"
#include "tiling/tiling_api.h"

namespace ascendc_sim {

template <typename T>
void GroupNormImpl(const AscendC::LocalTensor<T>& output, const AscendC::LocalTensor<T>& outputMean,
                   const AscendC::LocalTensor<T>& outputVariance, const AscendC::LocalTensor<T>& inputX,
                   const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<T>& beta,
                   const AscendC::LocalTensor<uint8_t>* tmp, float epsilon, const GroupNormTiling& tiling,
                   bool isReuseSource, const SrcLoc& loc) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "GroupNorm: the data are half or float");
  const char* api = "GroupNorm";
  const uint32_t ns = tiling.n, c = tiling.c, hw = tiling.hw, g = tiling.g, d = tiling.d, hwa = tiling.hwAlignSize;
  ASCENDC_SIM_CHECK(ns > 0 && hw > 0 && g > 0 && d > 0 && uint64_t{g} * d == c, loc,
                    "%s: n %u, hw %u positive and c %u = g %u x d %u", api, ns, hw, c, g, d);
  ASCENDC_SIM_CHECK(hwa >= hw && hwa * sizeof(T) % 32 == 0, loc,
                    "%s: hwAlignSize %u must hold hw %u and be 32 B aligned", api, hwa, hw);
  const TmpRange range = GroupNormTmpRange(ns, c, hw, g, sizeof(T), isReuseSource);
  CheckTmpMin(api, tmp, range.minValue, "GetGroupNormMaxMinTmpSize", loc);
  const uint64_t n = static_cast<uint64_t>(ns) * c * hwa, groups = static_cast<uint64_t>(ns) * g;
  CheckElems(api, inputX, n, "inputX", loc);
  CheckElems(api, output, n, "output", loc);
  CheckElems(api, gamma, c, "gamma", loc);
  CheckElems(api, beta, c, "beta", loc);
  CheckElems(api, outputMean, groups, "outputMean", loc);
  CheckElems(api, outputVariance, groups, "outputVariance", loc);
  const bool b16 = sizeof(T) == 2;
  AdvSteps(api, 12 + (b16 ? 2 : 0), sizeof(float), n,
           {Touch(inputX, n, false), Touch(gamma, c, false), Touch(beta, c, false), Scratch(tmp, range.maxValue),
            Touch(output, n, true)},
           loc);
  AdvSteps(api, 3 + (b16 ? 2 : 0), sizeof(float), groups,
           {Scratch(tmp, range.maxValue), Touch(outputMean, groups, true), Touch(outputVariance, groups, true)}, loc);
  const T *x = HostData(inputX), *ga = HostData(gamma), *be = HostData(beta);
  std::vector<float> in(x, x + n);  // read before writing: output may be inputX
  const float factor = tiling.factor;
  for (uint64_t grp = 0; grp < groups; ++grp) {
    const uint64_t base = grp * d * hwa;  // group grp % g of sample grp / g: d channels from here
    float sum = 0, sq = 0;
    for (uint32_t ch = 0; ch < d; ++ch)
      for (uint32_t k = 0; k < hw; ++k) sum += in[base + static_cast<uint64_t>(ch) * hwa + k];
    const float m = sum * factor;
    for (uint32_t ch = 0; ch < d; ++ch)
      for (uint32_t k = 0; k < hw; ++k) {
        const float dv = in[base + static_cast<uint64_t>(ch) * hwa + k] - m;
        sq += dv * dv;
      }
    const float v = sq * factor, rstd = 1.0f / std::sqrt(v + epsilon);
    for (uint32_t ch = 0; ch < d; ++ch) {
      const uint32_t channel = static_cast<uint32_t>(grp % g) * d + ch;
      const float gm = static_cast<float>(ga[channel]), bt = static_cast<float>(be[channel]);
      for (uint32_t k = 0; k < hw; ++k) {
        const uint64_t i = base + static_cast<uint64_t>(ch) * hwa + k;
        HostData(output)[i] = static_cast<T>((in[i] - m) * rstd * gm + bt);
      }
    }
    HostData(outputMean)[grp] = static_cast<T>(m);
    HostData(outputVariance)[grp] = static_cast<T>(v);
  }
  // A lent float inputX is the library's first work tensor (asc-devkit's GetGroupNormNDTensorInfo).
  LeaveSourceLent(isReuseSource, output, inputX, n);
}

}  // namespace ascendc_sim

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, GroupNormTiling& tiling,
                                 ASCENDC_SIM_LOC) {
  ascendc_sim::GroupNormImpl(output, outputMean, outputVariance, inputX, gamma, beta, &sharedTmpBuffer,
                             static_cast<float>(epsilon), tiling, isReuseSource, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
                                 GroupNormTiling& tiling, ASCENDC_SIM_LOC) {
  ascendc_sim::GroupNormImpl(output, outputMean, outputVariance, inputX, gamma, beta, nullptr,
                             static_cast<float>(epsilon), tiling, isReuseSource, loc);
}

}  // namespace AscendC
