// The [A, R] normalisations of the high-level API on the A2 (asc-devkit adv_api/normalization):
// LayerNorm's form returning mean and rstd, Normalize, WelfordUpdate and WelfordFinalize. Each
// computes in float whatever its input type (the library casts half to float first) and is charged
// as the library's sequence of count-mode vector instructions (AdvSteps), every one touching the
// call's operands, so the model times and orders them as it does the basic API's.
//
// Rows are rLengthWithPadding elements apart (32 B of the input type); only the first rLength of a
// row take part and the padding of the output is left as it was.
#pragma once

#include "ascendc_sim/adv_norm_params.h"
#include "ascendc_sim/adv_steps.h"
#include "tiling/tiling_api.h"

namespace ascendc_sim {

struct NormRows {
  uint32_t a, r, pitch;
};

template <typename T>
NormRows CheckNormRows(const char* api, uint32_t a, uint32_t r, uint32_t pitch, const SrcLoc& loc) {
  ASCENDC_SIM_CHECK(r > 0 && r <= pitch && pitch * sizeof(T) % 32 == 0, loc,
                    "%s: rLengthWithPadding %u must be 32 B aligned and >= rLength %u > 0", api, pitch, r);
  return {a, r, pitch};
}

// Which of the optional operands a Normalize / LayerNorm call has.
struct NormForm {
  bool gamma, beta, stats;  // stats: mean/rstd written (not isOnlyOutput)
  bool variance = false;    // LayerNorm without isOutputRstd: the variance in rstd's place
};

// y = (x - mean) * rstd * gamma + beta per row, rstd = 1 / sqrt(var + eps), in float; rstd[A] out
// unless only the output is asked for. Charged as the library's steps: over [A]: Adds(eps), Sqrt and
// the Div into 1; over [A, R]: the subtraction of the broadcast mean, the product with the broadcast
// rstd, the gamma product and the beta sum (each when present), and a cast in and one out of a half
// input; a cast of a half gamma / beta over [R].
template <typename U, typename T>
void NormalizeRows(const char* api, const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<float>* rstd,
                   const float* mean, const float* var, const AscendC::LocalTensor<T>& x,
                   const AscendC::LocalTensor<U>& gamma, const AscendC::LocalTensor<U>& beta,
                   const AscendC::LocalTensor<uint8_t>* tmp, float epsilon, const NormRows& g, const NormForm& f,
                   const SrcLoc& loc) {
  const uint64_t n = static_cast<uint64_t>(g.a) * g.pitch;
  CheckElems(api, x, n, "inputX", loc);
  CheckElems(api, out, n, "output", loc);
  if (f.gamma) CheckElems(api, gamma, g.r, "gamma", loc);
  if (f.beta) CheckElems(api, beta, g.r, "beta", loc);
  if (f.stats) CheckElems(api, *rstd, g.a, "outputRstd", loc);
  const UbAccess rstdOut = f.stats ? Touch(*rstd, g.a, true) : UbAccess{0, 0, false};
  AdvSteps(api, 3, sizeof(float), g.a, {rstdOut, Scratch(tmp)}, loc);
  const int steps = 2 + f.gamma + f.beta + (sizeof(T) == 2 ? 2 : 0);
  AdvSteps(api, steps, sizeof(float), n,
           {Touch(x, n, false), f.gamma ? Touch(gamma, g.r, false) : UbAccess{0, 0, false},
            f.beta ? Touch(beta, g.r, false) : UbAccess{0, 0, false}, Scratch(tmp), Touch(out, n, true)},
           loc);
  if (sizeof(U) == 2 && (f.gamma || f.beta)) AdvSteps(api, f.gamma + f.beta, sizeof(float), g.r, {Scratch(tmp)}, loc);
  const T* px = HostData(x);
  T* po = HostData(out);
  for (uint32_t i = 0; i < g.a; ++i) {
    const float inv = 1.0f / std::sqrt(var[i] + epsilon);
    if (f.stats) HostData(*rstd)[i] = f.variance ? var[i] : inv;
    const uint64_t row = static_cast<uint64_t>(i) * g.pitch;
    for (uint32_t k = 0; k < g.r; ++k) {
      float y = (static_cast<float>(px[row + k]) - mean[i]) * inv;
      if (f.gamma) y *= static_cast<float>(HostData(gamma)[k]);
      if (f.beta) y += static_cast<float>(HostData(beta)[k]);
      po[row + k] = static_cast<T>(y);
    }
  }
}

template <typename U, typename T>
void NormalizeImpl(const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<float>& rstd,
                   const AscendC::LocalTensor<float>& mean, const AscendC::LocalTensor<float>& var,
                   const AscendC::LocalTensor<T>& x, const AscendC::LocalTensor<U>& gamma,
                   const AscendC::LocalTensor<U>& beta, const AscendC::LocalTensor<uint8_t>* tmp, float epsilon,
                   const AscendC::NormalizePara& para, const NormForm& f, const SrcLoc& loc) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Normalize: inputX is half or float");
  static_assert(sizeof(U) >= sizeof(T), "Normalize: gamma and beta are at least as precise as inputX");
  const char* api = "Normalize";
  const NormRows g = CheckNormRows<T>(api, para.aLength, para.rLength, para.rLengthWithPadding, loc);
  CheckElems(api, mean, g.a, "inputMean", loc);
  CheckElems(api, var, g.a, "inputVariance", loc);
  // The statistics are read before any output is written (the library takes them first).
  std::vector<float> m(HostData(mean), HostData(mean) + g.a), v(HostData(var), HostData(var) + g.a);
  AdvSteps(api, 1, sizeof(float), g.a, {Touch(mean, g.a, false), Touch(var, g.a, false), Scratch(tmp)}, loc);
  NormalizeRows<U, T>(api, out, &rstd, m.data(), v.data(), x, gamma, beta, tmp, epsilon, g, f, loc);
}

// A LayerNormConfig's operands.
constexpr NormForm LayerNormForm(const AscendC::LayerNormConfig& c) {
  return {!c.isNoGamma, !c.isNoBeta, !c.isOnlyOutput, !c.isOutputRstd};
}

// LayerNorm returning mean and rstd: per row mean = sum(x * (1 / R)) and the population variance
// sum((x - mean)^2 * (1 / R)), then Normalize's steps. Charged as Muls and the reduction for the
// mean, the subtraction of the broadcast mean, the square, Muls and the reduction for the
// variance, over [A, R]. Without isOutputRstd the third output holds the variance.
template <typename U, typename T>
void LayerNormRstdImpl(const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<float>& outMean,
                       const AscendC::LocalTensor<float>& outRstd, const AscendC::LocalTensor<T>& x,
                       const AscendC::LocalTensor<U>& gamma, const AscendC::LocalTensor<U>& beta, float epsilon,
                       const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::LayerNormPara& para, const NormForm& f,
                       const SrcLoc& loc) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "LayerNorm: inputX is half or float");
  static_assert(sizeof(U) >= sizeof(T), "LayerNorm: gamma and beta are at least as precise as inputX");
  const char* api = "LayerNorm";
  const NormRows g = CheckNormRows<T>(api, para.aLength, para.rLength, para.rLengthWithPadding, loc);
  const uint64_t n = static_cast<uint64_t>(g.a) * g.pitch;
  CheckElems(api, x, n, "inputX", loc);
  if (f.stats) CheckElems(api, outMean, g.a, "outputMean", loc);
  const UbAccess meanOut = f.stats ? Touch(outMean, g.a, true) : UbAccess{0, 0, false};
  AdvSteps(api, 6, sizeof(float), n, {Touch(x, n, false), Scratch(tmp), meanOut}, loc);
  const T* px = HostData(x);
  const float rec = 1.0f / static_cast<float>(g.r);
  std::vector<float> mean(g.a), var(g.a);
  for (uint32_t i = 0; i < g.a; ++i) {
    const uint64_t row = static_cast<uint64_t>(i) * g.pitch;
    float s = 0, q = 0;
    for (uint32_t k = 0; k < g.r; ++k) s += static_cast<float>(px[row + k]) * rec;
    for (uint32_t k = 0; k < g.r; ++k) {
      const float d = static_cast<float>(px[row + k]) - s;
      q += d * d * rec;
    }
    mean[i] = s, var[i] = q;
  }
  NormalizeRows<U, T>(api, out, &outRstd, mean.data(), var.data(), x, gamma, beta, tmp, epsilon, g, f, loc);
  if (f.stats)
    for (uint32_t i = 0; i < g.a; ++i) HostData(outMean)[i] = mean[i];
}

// WelfordUpdate over the first abComputeLength of [1, abLength]: delta = x - mean,
// mean' = delta * nRec + mean, var' = (x - mean') * delta + var, in float. With isInplace the rest
// of the outputs take the inputs' values; else they are left as they were. Charged as a cast of a
// half input, Sub, Muls, Add, Sub, Mul, Add over abComputeLength, and the two copies of the rest.
template <typename T, typename U>
void WelfordUpdateImpl(const AscendC::LocalTensor<U>& outMean, const AscendC::LocalTensor<U>& outVar,
                       const AscendC::LocalTensor<U>& inMean, const AscendC::LocalTensor<U>& inVar,
                       const AscendC::LocalTensor<T>& x, const AscendC::LocalTensor<uint8_t>* tmp,
                       const AscendC::WelfordUpdateParam& para, bool inplace, const SrcLoc& loc) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "WelfordUpdate: inputX is half or float");
  static_assert(std::is_same_v<U, float>, "WelfordUpdate: the mean and variance are float");
  const char* api = "WelfordUpdate";
  ASCENDC_SIM_CHECK(para.rnLength == 1, loc, "%s: rnLength %u must be 1", api, para.rnLength);
  ASCENDC_SIM_CHECK(para.abLength * sizeof(T) % 32 == 0, loc, "%s: abLength %u must be a multiple of %zu", api,
                    para.abLength, 32 / sizeof(T));
  ASCENDC_SIM_CHECK(para.abComputeLength > 0 && para.abComputeLength <= para.abLength, loc,
                    "%s: abComputeLength %u must be in (0, abLength %u]", api, para.abComputeLength, para.abLength);
  const uint32_t ab = para.abLength, c = para.abComputeLength;
  CheckElems(api, x, ab, "inputX", loc);
  CheckElems(api, inMean, ab, "inputMean", loc);
  CheckElems(api, inVar, ab, "inputVariance", loc);
  CheckElems(api, outMean, ab, "outputMean", loc);
  CheckElems(api, outVar, ab, "outputVariance", loc);
  const uint32_t extent = inplace ? ab : c;
  AdvSteps(api, 6 + (sizeof(T) == 2), sizeof(float), c,
           {Touch(x, c, false), Touch(inMean, extent, false), Touch(inVar, extent, false), Scratch(tmp),
            Touch(outMean, extent, true), Touch(outVar, extent, true)},
           loc);
  if (inplace && c < ab) AdvSteps(api, 2, sizeof(float), ab - c, {}, loc);
  const T* px = HostData(x);
  const U *m = HostData(inMean), *v = HostData(inVar);
  U *om = HostData(outMean), *ov = HostData(outVar);
  for (uint32_t i = 0; i < extent; ++i) {
    if (i >= c) {
      om[i] = m[i], ov[i] = v[i];
      continue;
    }
    const float xi = static_cast<float>(px[i]), delta = xi - m[i];
    const float mean = delta * para.nRec + m[i];
    ov[i] = (xi - mean) * delta + v[i];
    om[i] = mean;
  }
}

// WelfordFinalize over [abLength] float: each element's weight w is counts[i] (the counts form),
// else headCount for the first headCountLength and tailCount for the rest (with a tail: tailCount
// and tailCountLength not 0), else rnLength. mean = sum(mean_i * w_i * rRec) (without a tail
// sum(mean_i * abRec)); var = sum((var_i + w_i * (mean_i - mean)^2) * rRec). Each output holds its
// value in element 0 and 0 in elements 1..7 (one 32 B block). Charged as the library's steps over
// abLength: the mean's Muls (with a tail or counts also the weighting) and reduction, then the
// broadcast, Sub, Mul, the weighting, Add, Muls and the reduction of the variance; and the writes of
// both 32 B outputs.
inline void WelfordFinalizeImpl(const AscendC::LocalTensor<float>& outMean, const AscendC::LocalTensor<float>& outVar,
                                const AscendC::LocalTensor<float>& inMean, const AscendC::LocalTensor<float>& inVar,
                                const AscendC::LocalTensor<int32_t>* counts, const AscendC::LocalTensor<uint8_t>* tmp,
                                const AscendC::WelfordFinalizePara& para, const SrcLoc& loc) {
  const char* api = "WelfordFinalize";
  const uint32_t ab = para.abLength;
  ASCENDC_SIM_CHECK(ab > 0 && ab % 8 == 0, loc, "%s: abLength %u must be a positive multiple of 8", api, ab);
  const bool tail = !counts && para.tailCountLength != 0 && para.tailCount != 0;
  ASCENDC_SIM_CHECK(counts || para.headCountLength + para.tailCountLength == ab, loc,
                    "%s: headCountLength %u + tailCountLength %u must equal abLength %u", api, para.headCountLength,
                    para.tailCountLength, ab);
  CheckElems(api, inMean, ab, "inputMean", loc);
  CheckElems(api, inVar, ab, "inputVariance", loc);
  if (counts) CheckElems(api, *counts, ab, "counts", loc);
  CheckElems(api, outMean, 8, "outputMean", loc);
  CheckElems(api, outVar, 8, "outputVariance", loc);
  const UbAccess countsIn = counts ? Touch(*counts, ab, false) : UbAccess{0, 0, false};
  AdvSteps(api, counts || tail ? 11 : 9, sizeof(float), ab,
           {Touch(inMean, ab, false), Touch(inVar, ab, false), countsIn, Scratch(tmp)}, loc);
  AdvSteps(api, 4, sizeof(float), 8, {Touch(outMean, 8, true), Touch(outVar, 8, true)}, loc);
  const float *m = HostData(inMean), *v = HostData(inVar);
  auto weight = [&](uint32_t i) {
    if (counts) return static_cast<float>(HostData(*counts)[i]);
    if (!tail) return static_cast<float>(para.rnLength);
    return static_cast<float>(i < para.headCountLength ? para.headCount : para.tailCount);
  };
  float mean = 0;
  for (uint32_t i = 0; i < ab; ++i) mean += counts || tail ? m[i] * weight(i) * para.rRec : m[i] * para.abRec;
  float var = 0;
  for (uint32_t i = 0; i < ab; ++i) {
    const float d = m[i] - mean;
    var += (v[i] + weight(i) * (d * d)) * para.rRec;
  }
  float *om = HostData(outMean), *ov = HostData(outVar);
  for (uint32_t i = 0; i < 8; ++i) om[i] = ov[i] = 0;
  om[0] = mean, ov[0] = var;
}

}  // namespace ascendc_sim

namespace AscendC {

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon,
                                 const NormalizePara& para, ASCENDC_SIM_LOC) {
  static_assert(config.reducePattern == ReducePattern::AR, "Normalize: the A2 supports ReducePattern::AR");
  ascendc_sim::NormalizeImpl<U, T>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta, &sharedTmpBuffer,
                                   epsilon, para, {!config.isNoGamma, !config.isNoBeta, !config.isOnlyOutput}, loc);
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                                 const float epsilon, const NormalizePara& para, ASCENDC_SIM_LOC) {
  static_assert(config.reducePattern == ReducePattern::AR, "Normalize: the A2 supports ReducePattern::AR");
  ascendc_sim::NormalizeImpl<U, T>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta, nullptr, epsilon,
                                   para, {!config.isNoGamma, !config.isNoBeta, !config.isOnlyOutput}, loc);
}

template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormPara& para,
                                 const LayerNormSeparateTiling& tiling, ASCENDC_SIM_LOC) {
  (void)tiling;  // how the library splits [A, R] over its buffer: the result does not depend on it
  ascendc_sim::LayerNormRstdImpl<U, T>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon, &sharedTmpBuffer,
                                       para, ascendc_sim::LayerNormForm(config), loc);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                                 const LayerNormPara& para, const LayerNormSeparateTiling& tiling, ASCENDC_SIM_LOC) {
  (void)tiling;
  ascendc_sim::LayerNormRstdImpl<U, T>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon, nullptr, para,
                                       ascendc_sim::LayerNormForm(config), loc);
}

template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                                     const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                                     const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     const WelfordUpdateParam& para, ASCENDC_SIM_LOC) {
  ascendc_sim::WelfordUpdateImpl<T, U>(outputMean, outputVariance, inputMean, inputVariance, inputX, &sharedTmpBuffer,
                                       para, config.isInplace, loc);
}
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                                     const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                                     const LocalTensor<T>& inputX, const WelfordUpdateParam& para, ASCENDC_SIM_LOC) {
  ascendc_sim::WelfordUpdateImpl<T, U>(outputMean, outputVariance, inputMean, inputVariance, inputX, nullptr, para,
                                       config.isInplace, loc);
}

// config (isCorrection) is taken by the Ascend 950 parts only; the A2 divides by rRec.
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para,
                                       ASCENDC_SIM_LOC) {
  ascendc_sim::WelfordFinalizeImpl(outputMean, outputVariance, inputMean, inputVariance, nullptr, &sharedTmpBuffer,
                                   para, loc);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                       WelfordFinalizePara& para, ASCENDC_SIM_LOC) {
  ascendc_sim::WelfordFinalizeImpl(outputMean, outputVariance, inputMean, inputVariance, &counts, &sharedTmpBuffer,
                                   para, loc);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       WelfordFinalizePara& para, ASCENDC_SIM_LOC) {
  ascendc_sim::WelfordFinalizeImpl(outputMean, outputVariance, inputMean, inputVariance, nullptr, nullptr, para, loc);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<int32_t>& counts, WelfordFinalizePara& para, ASCENDC_SIM_LOC) {
  ascendc_sim::WelfordFinalizeImpl(outputMean, outputVariance, inputMean, inputVariance, &counts, nullptr, para, loc);
}

}  // namespace AscendC
