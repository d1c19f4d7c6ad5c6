// The [A, R] normalisations, DeepNorm, LayerNormGradBeta, BatchNorm, GroupNorm and LayerNormGrad on
// the guest engine (the native side's ascendc_sim/adv_norm_ar.h, adv_deepnorm.h,
// adv_layernormgradbeta.h, adv_batchnorm.h, adv_groupnorm.h and adv_layernormgrad.h hold the
// semantics and the charge): each call one import the host serves with the native function after
// holding every tensor to its buffer. The parameter structs (ascendc_sim/adv_norm_params.h) and the
// tiling structs cross by address. Included by kernel_operator.h.
#pragma once

#include "ascendc_sim/adv_norm_params.h"
#include "tiling/tiling_api.h"

namespace ascendc_guest {

// Which operands a Normalize / LayerNorm call has, as bits of its `form` (the config's flags).
enum AdvNormForm : int32_t {
  kNormNoGamma = 1,
  kNormNoBeta = 2,
  kNormOnlyOutput = 4,
  kNormTmp = 8,
  kNormOutputVariance = 16,  // LayerNorm without isOutputRstd
};

ASCENDC_GUEST_IMPORT(adv_normalize)
void adv_normalize(int32_t form, Dtype t, Dtype u, uint32_t out, uint32_t outSize, uint32_t rstd, uint32_t rstdSize,
                   uint32_t mean, uint32_t meanSize, uint32_t var, uint32_t varSize, uint32_t x, uint32_t xSize,
                   uint32_t gamma, uint32_t gammaSize, uint32_t beta, uint32_t betaSize, uint32_t tmp, uint32_t tmpSize,
                   float epsilon, const void* para, int32_t line);
ASCENDC_GUEST_IMPORT(adv_layer_norm_rstd)
void adv_layer_norm_rstd(int32_t form, Dtype t, Dtype u, uint32_t out, uint32_t outSize, uint32_t mean,
                         uint32_t meanSize, uint32_t rstd, uint32_t rstdSize, uint32_t x, uint32_t xSize,
                         uint32_t gamma, uint32_t gammaSize, uint32_t beta, uint32_t betaSize, uint32_t tmp,
                         uint32_t tmpSize, float epsilon, const void* para, int32_t line);
ASCENDC_GUEST_IMPORT(adv_welford_update)
void adv_welford_update(int32_t inplace, Dtype t, uint32_t outMean, uint32_t outMeanSize, uint32_t outVar,
                        uint32_t outVarSize, uint32_t inMean, uint32_t inMeanSize, uint32_t inVar, uint32_t inVarSize,
                        uint32_t x, uint32_t xSize, uint32_t tmp, uint32_t tmpSize, int32_t hasTmp, const void* para,
                        int32_t line);
ASCENDC_GUEST_IMPORT(adv_welford_finalize)
void adv_welford_finalize(int32_t hasCounts, uint32_t outMean, uint32_t outMeanSize, uint32_t outVar,
                          uint32_t outVarSize, uint32_t inMean, uint32_t inMeanSize, uint32_t inVar, uint32_t inVarSize,
                          uint32_t counts, uint32_t countsSize, uint32_t tmp, uint32_t tmpSize, int32_t hasTmp,
                          const void* para, int32_t line);
ASCENDC_GUEST_IMPORT(adv_deep_norm)
void adv_deep_norm(int32_t basicBlock, Dtype t, uint32_t dst, uint32_t dstSize, uint32_t mean, uint32_t meanSize,
                   uint32_t rstd, uint32_t rstdSize, uint32_t src, uint32_t srcSize, uint32_t gx, uint32_t gxSize,
                   uint32_t beta, uint32_t betaSize, uint32_t gamma, uint32_t gammaSize, uint32_t tmp, uint32_t tmpSize,
                   int32_t hasTmp, float alpha, float epsilon, const void* tiling, int32_t line);
ASCENDC_GUEST_IMPORT(adv_layer_norm_grad_beta)
void adv_layer_norm_grad_beta(Dtype t, uint32_t pdGamma, uint32_t pdGammaSize, uint32_t pdBeta, uint32_t pdBetaSize,
                              uint32_t res, uint32_t resSize, uint32_t dy, uint32_t dySize, uint32_t tmp,
                              uint32_t tmpSize, int32_t hasTmp, const void* tiling, int32_t line);
ASCENDC_GUEST_IMPORT(adv_batch_norm)
void adv_batch_norm(int32_t basicBlock, Dtype t, uint32_t out, uint32_t outSize, uint32_t mean, uint32_t meanSize,
                    uint32_t var, uint32_t varSize, uint32_t x, uint32_t xSize, uint32_t gamma, uint32_t gammaSize,
                    uint32_t beta, uint32_t betaSize, uint32_t tmp, uint32_t tmpSize, int32_t hasTmp, float epsilon,
                    const void* tiling, int32_t line);
ASCENDC_GUEST_IMPORT(adv_group_norm)
void adv_group_norm(int32_t reuseSource, Dtype t, uint32_t out, uint32_t outSize, uint32_t mean, uint32_t meanSize,
                    uint32_t var, uint32_t varSize, uint32_t x, uint32_t xSize, uint32_t gamma, uint32_t gammaSize,
                    uint32_t beta, uint32_t betaSize, uint32_t tmp, uint32_t tmpSize, int32_t hasTmp, float epsilon,
                    const void* tiling, int32_t line);
ASCENDC_GUEST_IMPORT(adv_layer_norm_grad)
void adv_layer_norm_grad(int32_t reuseSource, Dtype t, uint32_t pdX, uint32_t pdXSize, uint32_t res, uint32_t resSize,
                         uint32_t dy, uint32_t dySize, uint32_t x, uint32_t xSize, uint32_t var, uint32_t varSize,
                         uint32_t mean, uint32_t meanSize, uint32_t gamma, uint32_t gammaSize, uint32_t tmp,
                         uint32_t tmpSize, int32_t hasTmp, float epsilon, int32_t dataFormat, const void* tiling,
                         int32_t line);

// Plain 4-byte fields on both targets: the bytes the guest hands over are the struct the host reads.
static_assert(sizeof(DeepNormTiling) == 26 * 4, "DeepNormTiling: 26 words");
static_assert(sizeof(LayerNormGradBetaTiling) == 20 * 4, "LayerNormGradBetaTiling: 20 words");
static_assert(sizeof(BatchNormTiling) == 20 * 4, "BatchNormTiling: 20 words");
static_assert(sizeof(GroupNormTiling) == 30 * 4, "GroupNormTiling: 29 words and smallShape, padded");
static_assert(sizeof(LayerNormGradTiling) == 30 * 4, "LayerNormGradTiling: 30 words");

template <typename Config>
constexpr int32_t NormForm(const Config& c, bool tmp) {
  return (c.isNoGamma ? kNormNoGamma : 0) | (c.isNoBeta ? kNormNoBeta : 0) | (c.isOnlyOutput ? kNormOnlyOutput : 0) |
         (tmp ? kNormTmp : 0);
}
constexpr int32_t LayerNormForm(const AscendC::LayerNormConfig& c, bool tmp) {
  return NormForm(c, tmp) | (c.isOutputRstd ? 0 : kNormOutputVariance);
}

}  // namespace ascendc_guest

namespace AscendC {

#define ASCENDC_GUEST_NT(x) (x).UbAddr(), (x).GetSize()

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd, const LocalTensor<float>& inputMean,
               const LocalTensor<float>& inputVariance, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
               const LocalTensor<U>& beta, const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon,
               const NormalizePara& para, ASCENDC_GUEST_LINE) {
  static_assert(config.reducePattern == ReducePattern::AR, "Normalize: the A2 supports ReducePattern::AR");
  ascendc_guest::adv_normalize(ascendc_guest::NormForm(config, true), ascendc_guest::DtypeOf<T>(),
                               ascendc_guest::DtypeOf<U>(), ASCENDC_GUEST_NT(output), ASCENDC_GUEST_NT(outputRstd),
                               ASCENDC_GUEST_NT(inputMean), ASCENDC_GUEST_NT(inputVariance), ASCENDC_GUEST_NT(inputX),
                               ASCENDC_GUEST_NT(gamma), ASCENDC_GUEST_NT(beta), ASCENDC_GUEST_NT(sharedTmpBuffer),
                               epsilon, &para, line);
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd, const LocalTensor<float>& inputMean,
               const LocalTensor<float>& inputVariance, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
               const LocalTensor<U>& beta, const float epsilon, const NormalizePara& para, ASCENDC_GUEST_LINE) {
  static_assert(config.reducePattern == ReducePattern::AR, "Normalize: the A2 supports ReducePattern::AR");
  ascendc_guest::adv_normalize(ascendc_guest::NormForm(config, false), ascendc_guest::DtypeOf<T>(),
                               ascendc_guest::DtypeOf<U>(), ASCENDC_GUEST_NT(output), ASCENDC_GUEST_NT(outputRstd),
                               ASCENDC_GUEST_NT(inputMean), ASCENDC_GUEST_NT(inputVariance), ASCENDC_GUEST_NT(inputX),
                               ASCENDC_GUEST_NT(gamma), ASCENDC_GUEST_NT(beta), 0u, 0u, epsilon, &para, line);
}

template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean, const LocalTensor<float>& outputRstd,
               const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
               const float epsilon, const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormPara& para,
               const LayerNormSeparateTiling& tiling, ASCENDC_GUEST_LINE) {
  (void)tiling;  // how the library splits [A, R] over its buffer: the result does not depend on it
  ascendc_guest::adv_layer_norm_rstd(
      ascendc_guest::LayerNormForm(config, true), ascendc_guest::DtypeOf<T>(), ascendc_guest::DtypeOf<U>(),
      ASCENDC_GUEST_NT(output), ASCENDC_GUEST_NT(outputMean), ASCENDC_GUEST_NT(outputRstd), ASCENDC_GUEST_NT(inputX),
      ASCENDC_GUEST_NT(gamma), ASCENDC_GUEST_NT(beta), ASCENDC_GUEST_NT(sharedTmpBuffer), epsilon, &para, line);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean, const LocalTensor<float>& outputRstd,
               const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
               const float epsilon, const LayerNormPara& para, const LayerNormSeparateTiling& tiling,
               ASCENDC_GUEST_LINE) {
  (void)tiling;
  ascendc_guest::adv_layer_norm_rstd(
      ascendc_guest::LayerNormForm(config, false), ascendc_guest::DtypeOf<T>(), ascendc_guest::DtypeOf<U>(),
      ASCENDC_GUEST_NT(output), ASCENDC_GUEST_NT(outputMean), ASCENDC_GUEST_NT(outputRstd), ASCENDC_GUEST_NT(inputX),
      ASCENDC_GUEST_NT(gamma), ASCENDC_GUEST_NT(beta), 0u, 0u, epsilon, &para, line);
}

template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                   const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance, const LocalTensor<T>& inputX,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const WelfordUpdateParam& para, ASCENDC_GUEST_LINE) {
  static_assert(std::is_same_v<U, float>, "WelfordUpdate: the mean and variance are float");
  ascendc_guest::adv_welford_update(config.isInplace, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_NT(outputMean),
                                    ASCENDC_GUEST_NT(outputVariance), ASCENDC_GUEST_NT(inputMean),
                                    ASCENDC_GUEST_NT(inputVariance), ASCENDC_GUEST_NT(inputX),
                                    ASCENDC_GUEST_NT(sharedTmpBuffer), 1, &para, line);
}
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                   const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance, const LocalTensor<T>& inputX,
                   const WelfordUpdateParam& para, ASCENDC_GUEST_LINE) {
  static_assert(std::is_same_v<U, float>, "WelfordUpdate: the mean and variance are float");
  ascendc_guest::adv_welford_update(config.isInplace, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_NT(outputMean),
                                    ASCENDC_GUEST_NT(outputVariance), ASCENDC_GUEST_NT(inputMean),
                                    ASCENDC_GUEST_NT(inputVariance), ASCENDC_GUEST_NT(inputX), 0u, 0u, 0, &para, line);
}

// config (isCorrection) is taken by the Ascend 950 parts only; the A2 divides by rRec.
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_welford_finalize(0, ASCENDC_GUEST_NT(outputMean), ASCENDC_GUEST_NT(outputVariance),
                                      ASCENDC_GUEST_NT(inputMean), ASCENDC_GUEST_NT(inputVariance), 0u, 0u,
                                      ASCENDC_GUEST_NT(sharedTmpBuffer), 1, &para, line);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& sharedTmpBuffer,
                     WelfordFinalizePara& para, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_welford_finalize(1, ASCENDC_GUEST_NT(outputMean), ASCENDC_GUEST_NT(outputVariance),
                                      ASCENDC_GUEST_NT(inputMean), ASCENDC_GUEST_NT(inputVariance),
                                      ASCENDC_GUEST_NT(counts), ASCENDC_GUEST_NT(sharedTmpBuffer), 1, &para, line);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     WelfordFinalizePara& para, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_welford_finalize(0, ASCENDC_GUEST_NT(outputMean), ASCENDC_GUEST_NT(outputVariance),
                                      ASCENDC_GUEST_NT(inputMean), ASCENDC_GUEST_NT(inputVariance), 0u, 0u, 0u, 0u, 0,
                                      &para, line);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<int32_t>& counts, WelfordFinalizePara& para, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_welford_finalize(1, ASCENDC_GUEST_NT(outputMean), ASCENDC_GUEST_NT(outputVariance),
                                      ASCENDC_GUEST_NT(inputMean), ASCENDC_GUEST_NT(inputVariance),
                                      ASCENDC_GUEST_NT(counts), 0u, 0u, 0, &para, line);
}

// DeepNorm over [B, S, H] (ascendc_sim/adv_deepnorm.h).
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
              const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
              const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer, const T alpha,
              const T epsilon, DeepNormTiling& tiling, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_deep_norm(isBasicBlock, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_NT(dstLocal),
                               ASCENDC_GUEST_NT(meanLocal), ASCENDC_GUEST_NT(rstdLocal), ASCENDC_GUEST_NT(srcLocal),
                               ASCENDC_GUEST_NT(gxLocal), ASCENDC_GUEST_NT(betaLocal), ASCENDC_GUEST_NT(gammaLocal),
                               ASCENDC_GUEST_NT(sharedTmpBuffer), 1, static_cast<float>(alpha),
                               static_cast<float>(epsilon), &tiling, line);
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
              const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
              const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon, DeepNormTiling& tiling,
              ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_deep_norm(isBasicBlock, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_NT(dstLocal),
                               ASCENDC_GUEST_NT(meanLocal), ASCENDC_GUEST_NT(rstdLocal), ASCENDC_GUEST_NT(srcLocal),
                               ASCENDC_GUEST_NT(gxLocal), ASCENDC_GUEST_NT(betaLocal), ASCENDC_GUEST_NT(gammaLocal), 0u,
                               0u, 0, static_cast<float>(alpha), static_cast<float>(epsilon), &tiling, line);
}

// LayerNormGradBeta over [B, S, H] (ascendc_sim/adv_layernormgradbeta.h).
template <typename T, bool isReuseSource = false>
void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                       const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                       const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormGradBetaTiling& tiling,
                       ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_layer_norm_grad_beta(
      ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_NT(outputPdGamma), ASCENDC_GUEST_NT(outputPdBeta),
      ASCENDC_GUEST_NT(resForGamma), ASCENDC_GUEST_NT(inputDy), ASCENDC_GUEST_NT(sharedTmpBuffer), 1, &tiling, line);
}
template <typename T, bool isReuseSource = false>
void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                       const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                       LayerNormGradBetaTiling& tiling, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_layer_norm_grad_beta(ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_NT(outputPdGamma),
                                          ASCENDC_GUEST_NT(outputPdBeta), ASCENDC_GUEST_NT(resForGamma),
                                          ASCENDC_GUEST_NT(inputDy), 0u, 0u, 0, &tiling, line);
}

// BatchNorm over [B, S, H] (ascendc_sim/adv_batchnorm.h).
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamm, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, BatchNormTiling& tiling,
               ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_batch_norm(isBasicBlock, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_NT(output),
                                ASCENDC_GUEST_NT(outputMean), ASCENDC_GUEST_NT(outputVariance),
                                ASCENDC_GUEST_NT(inputX), ASCENDC_GUEST_NT(gamm), ASCENDC_GUEST_NT(beta),
                                ASCENDC_GUEST_NT(sharedTmpBuffer), 1, static_cast<float>(epsilon), &tiling, line);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamm, const LocalTensor<T>& beta, const T epsilon,
               BatchNormTiling& tiling, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_batch_norm(isBasicBlock, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_NT(output),
                                ASCENDC_GUEST_NT(outputMean), ASCENDC_GUEST_NT(outputVariance),
                                ASCENDC_GUEST_NT(inputX), ASCENDC_GUEST_NT(gamm), ASCENDC_GUEST_NT(beta), 0u, 0u, 0,
                                static_cast<float>(epsilon), &tiling, line);
}

// GroupNorm over [N, C, H, W] (ascendc_sim/adv_groupnorm.h).
template <typename T, bool isReuseSource = false>
void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, GroupNormTiling& tiling,
               ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_group_norm(isReuseSource, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_NT(output),
                                ASCENDC_GUEST_NT(outputMean), ASCENDC_GUEST_NT(outputVariance),
                                ASCENDC_GUEST_NT(inputX), ASCENDC_GUEST_NT(gamma), ASCENDC_GUEST_NT(beta),
                                ASCENDC_GUEST_NT(sharedTmpBuffer), 1, static_cast<float>(epsilon), &tiling, line);
}
template <typename T, bool isReuseSource = false>
void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
               GroupNormTiling& tiling, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_group_norm(isReuseSource, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_NT(output),
                                ASCENDC_GUEST_NT(outputMean), ASCENDC_GUEST_NT(outputVariance),
                                ASCENDC_GUEST_NT(inputX), ASCENDC_GUEST_NT(gamma), ASCENDC_GUEST_NT(beta), 0u, 0u, 0,
                                static_cast<float>(epsilon), &tiling, line);
}

// LayerNormGrad over [B, S, H] (ascendc_sim/adv_layernormgrad.h).
template <typename T, bool isReuseSource = false>
void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                   const LocalTensor<T>& inputX, const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                   const LocalTensor<T>& inputGamma, LocalTensor<uint8_t>& sharedTmpBuffer, T epsilon,
                   LayerNormGradTiling& tiling, const LayerNormGradShapeInfo& shapeInfo = {}, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_layer_norm_grad(
      isReuseSource, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_NT(outputPdX), ASCENDC_GUEST_NT(resForGamma),
      ASCENDC_GUEST_NT(inputDy), ASCENDC_GUEST_NT(inputX), ASCENDC_GUEST_NT(inputVariance), ASCENDC_GUEST_NT(inputMean),
      ASCENDC_GUEST_NT(inputGamma), ASCENDC_GUEST_NT(sharedTmpBuffer), 1, static_cast<float>(epsilon),
      static_cast<int32_t>(shapeInfo.dataFormat), &tiling, line);
}
template <typename T, bool isReuseSource = false>
void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                   const LocalTensor<T>& inputX, const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                   const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling,
                   const LayerNormGradShapeInfo& shapeInfo = {}, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_layer_norm_grad(isReuseSource, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_NT(outputPdX),
                                     ASCENDC_GUEST_NT(resForGamma), ASCENDC_GUEST_NT(inputDy), ASCENDC_GUEST_NT(inputX),
                                     ASCENDC_GUEST_NT(inputVariance), ASCENDC_GUEST_NT(inputMean),
                                     ASCENDC_GUEST_NT(inputGamma), 0u, 0u, 0, static_cast<float>(epsilon),
                                     static_cast<int32_t>(shapeInfo.dataFormat), &tiling, line);
}

#undef ASCENDC_GUEST_NT

}  // namespace AscendC
