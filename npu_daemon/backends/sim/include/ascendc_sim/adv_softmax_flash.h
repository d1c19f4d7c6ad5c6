// The Softmax flash family (asc-devkit adv_api/activation/softmaxflash.h, softmaxflashv2.h): the
// row-wise softmax of FlashAttention, which carries each row's running max and exp-sum from one
// block of the last axis to the next. ND layout; an NZ one is a compile error saying so.
//
// SoftmaxFlashV2, per row of x with M = rowmax(x):
//   isUpdate false: max = M, dst = exp(x - max), expSum = rowsum(dst)
//   isUpdate true:  max = max(inMax, M), dst = exp(x - max), expMax = exp(inMax - max),
//                   expSum = expMax * inExpSum + rowsum(dst)
// SoftmaxFlash (V1) divides dst by its expSum, and with isUpdate writes expMax * inSum / expSum.
// The statistics hold each row's value across one 32 B block (SOFTMAX_NORMAL) or once a row
// (SOFTMAX_OUTPUT_WITHOUT_BRC). Computed in float, rounded once to each output's type.
//
// Charged as the library's documented vector steps: the row-sized ones (reducemax, sub, exp,
// reducesum, V1's div; a cast each way for a half source with float statistics) over the rows of
// srcK elements, the statistic-sized ones (broadcast, max, sub and exp of the old max, mul, add)
// over each row's block.
#pragma once

#include "ascendc_sim/adv_norm.h"
#include "ascendc_sim/adv_softmax_params.h"
#include "ascendc_sim/adv_softmax_tiling.h"
#include "ascendc_sim/adv_steps.h"

namespace ascendc_sim {

// One call's form: SoftmaxFlash (version 1) or SoftmaxFlashV2, update or not, broadcast statistics or not.
struct FlashForm {
  int version;
  bool update;
  bool brc;
};

// The tensors of one call: T the source's and expMax's type, U the statistics'.
template <typename T, typename U>
struct FlashTensors {
  const AscendC::LocalTensor<T>& dst;
  const AscendC::LocalTensor<U>& sum;
  const AscendC::LocalTensor<U>& max;
  const AscendC::LocalTensor<T>& src;
  const AscendC::LocalTensor<T>& expMax;
  const AscendC::LocalTensor<U>& inSum;
  const AscendC::LocalTensor<U>& inMax;
  const AscendC::LocalTensor<T>* reduceMax;  // SoftmaxFlashV2's outReduceMax, or none
  const AscendC::LocalTensor<uint8_t>* tmp;  // the sharedTmpBuffer, or none
};

// The rows: the shape's (else the tiling's), or the config's constant shape where it sets one.
inline RowGeometry FlashRows(const SoftMaxTiling& t, const AscendC::SoftMaxShapeInfo& s, uint32_t cfgM, uint32_t cfgK) {
  RowGeometry g = SoftMaxRows(t, s);
  if (cfgM) g.rows = cfgM;
  if (cfgK) g.valid = cfgK;
  return g;
}

template <typename T, typename U>
void ChargeFlash(const char* api, const FlashForm& f, const FlashTensors<T, U>& x, const RowGeometry& g,
                 const SrcLoc& loc) {
  const uint64_t n = static_cast<uint64_t>(g.rows) * g.pitch;
  const uint64_t su = static_cast<uint64_t>(g.rows) * (f.brc ? 32 / sizeof(U) : 1);
  const uint64_t st = static_cast<uint64_t>(g.rows) * (f.brc ? 32 / sizeof(T) : 1);
  const int rowSteps = 4 + (f.version == 1) + (std::is_same_v<T, U> ? 0 : 2);
  // The buffer from the helper's minimum, one row (GetSoftMaxFlashMinTmpSize's or
  // GetSoftMaxFlashV2MinTmpSize's: under it the library works past the buffer), up to its maximum,
  // GetSoftMaxFlashMaxTmpSize's or GetSoftMaxFlashV2MaxTmpSize's: what the kernel keeps past that is its own.
  if (f.version == 1)
    CheckTmpMin(api, x.tmp, SoftMaxFlashMinTmpBytes(g.pitch, sizeof(T), f.update), "GetSoftMaxFlashMinTmpSize", loc);
  else
    CheckTmpMin(api, x.tmp, SoftMaxFlashV2MinTmpBytes(g.pitch, sizeof(T), sizeof(U)), "GetSoftMaxFlashV2MinTmpSize",
                loc);
  const UbAccess scratch =
      Scratch(x.tmp, f.version == 1 ? SoftMaxFlashMaxTmpBytes(g.rows, g.pitch, sizeof(T), f.update)
                                    : SoftMaxFlashV2MaxTmpBytes(g.rows, g.pitch, sizeof(T), sizeof(U)));
  AdvSteps(api, rowSteps, sizeof(T), n, {Touch(x.src, n, false), scratch, Touch(x.dst, n, true)}, loc);
  if (!f.update) {
    AdvSteps(api, 2, sizeof(U), su, {Touch(x.max, su, true), Touch(x.sum, su, true)}, loc);
    return;
  }
  const int statSteps = f.version == 1 ? 9 : 7;
  AdvSteps(api, statSteps, sizeof(U), su,
           {Touch(x.inMax, su, false), Touch(x.inSum, su, false), Touch(x.max, su, true), Touch(x.sum, su, true),
            Touch(x.expMax, st, true), x.reduceMax ? Touch(*x.reduceMax, st, true) : scratch},
           loc);
}

template <typename T, typename U>
void SoftmaxFlashImpl(const char* api, const FlashForm& f, const FlashTensors<T, U>& x, const RowGeometry& g,
                      const SrcLoc& loc) {
  const uint64_t n = static_cast<uint64_t>(g.rows) * g.pitch;
  const uint32_t wu = f.brc ? 32 / sizeof(U) : 1, wt = f.brc ? 32 / sizeof(T) : 1;
  const uint64_t su = static_cast<uint64_t>(g.rows) * wu, st = static_cast<uint64_t>(g.rows) * wt;
  CheckElems(api, x.src, n, "source", loc);
  CheckElems(api, x.dst, n, "destination", loc);
  CheckElems(api, x.sum, su, "expSum tensor", loc);
  CheckElems(api, x.max, su, "max tensor", loc);
  if (f.update) {
    CheckElems(api, x.inSum, su, "inExpSum tensor", loc);
    CheckElems(api, x.inMax, su, "inMax tensor", loc);
    CheckElems(api, x.expMax, st, "expMax tensor", loc);
    if (x.reduceMax) CheckElems(api, *x.reduceMax, st, "outReduceMax tensor", loc);
  }
  ASCENDC_SIM_CHECK(g.valid <= g.pitch && g.pitch * sizeof(T) % 32 == 0, loc,
                    "%s: srcK %u must be 32 B aligned and >= oriSrcK %u", api, g.pitch, g.valid);
  ChargeFlash(api, f, x, g, loc);
  const T* s = HostData(x.src);
  T* d = HostData(x.dst);
  for (uint32_t r = 0; r < g.rows; ++r) {
    const uint64_t row = static_cast<uint64_t>(r) * g.pitch;
    float rowMax = -std::numeric_limits<float>::infinity();
    for (uint32_t k = 0; k < g.valid; ++k) rowMax = std::max(rowMax, static_cast<float>(s[row + k]));
    // The old statistics are read before the new are written: max and inMax may share a tensor.
    const float inMax = f.update ? static_cast<float>(HostData(x.inMax)[r * wu]) : rowMax;
    const float inSum = f.update ? static_cast<float>(HostData(x.inSum)[r * wu]) : 0.0f;
    const float newMax = std::max(rowMax, inMax);
    float total = 0;
    for (uint32_t k = 0; k < g.pitch; ++k) {
      const float e = std::exp(static_cast<float>(s[row + k]) - newMax);
      if (k < g.valid) total += e;
      d[row + k] = static_cast<T>(e);
    }
    const float expMax = std::exp(inMax - newMax);
    const float sum = f.update ? expMax * inSum + total : total;
    if (f.version == 1)
      for (uint32_t k = 0; k < g.pitch; ++k) d[row + k] = static_cast<T>(static_cast<float>(d[row + k]) / sum);
    for (uint32_t k = 0; k < wu; ++k) {
      HostData(x.max)[r * wu + k] = static_cast<U>(newMax);
      HostData(x.sum)[r * wu + k] = static_cast<U>(sum);
    }
    if (!f.update) continue;
    const float outExpMax = f.version == 1 ? expMax * inSum / sum : expMax;
    for (uint32_t k = 0; k < wt; ++k) {
      HostData(x.expMax)[r * wt + k] = static_cast<T>(outExpMax);
      if (x.reduceMax) HostData(*x.reduceMax)[r * wt + k] = static_cast<T>(rowMax);
    }
  }
}

// SoftmaxFlashV2 as its overloads call it: the outReduceMax forms run only in the non-broadcast
// mode (asc-devkit: in SOFTMAX_NORMAL they compute and write nothing).
template <typename T, typename U, bool isUpdate, bool isDataFormatNZ, const AscendC::SoftmaxConfig& config>
void FlashV2(bool maxForm, const FlashTensors<T, U>& x, const SoftMaxTiling& tiling,
             const AscendC::SoftMaxShapeInfo& shape, const SrcLoc& loc) {
  static_assert(!isDataFormatNZ, "SoftmaxFlashV2: the simulator emulates the ND layout");
  const bool brc = config.mode == AscendC::SoftmaxMode::SOFTMAX_NORMAL;
  if (maxForm && brc) return;
  SoftmaxFlashImpl("SoftmaxFlashV2", FlashForm{2, isUpdate, brc}, x,
                   FlashRows(tiling, shape, config.oriSrcM, config.oriSrcK), loc);
}

}  // namespace ascendc_sim

namespace AscendC {

// SoftmaxFlashV2: one type throughout, or a half source with float statistics; with the
// framework's temporary space or a sharedTmpBuffer.
#define ASCENDC_SIM_FLASH_V2_TEMPLATE                                                                 \
  template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false, \
            bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
#define ASCENDC_SIM_FLASH_V2(S, U, TMP_PARAM, TMP)                                                                \
  ASCENDC_SIM_FLASH_V2_TEMPLATE                                                                                   \
  __aicore__ inline void SoftmaxFlashV2(const LocalTensor<S>& dstTensor, const LocalTensor<U>& expSumTensor,      \
                                        const LocalTensor<U>& maxTensor, const LocalTensor<S>& srcTensor,         \
                                        const LocalTensor<S>& expMaxTensor, const LocalTensor<U>& inExpSumTensor, \
                                        const LocalTensor<U>& inMaxTensor, TMP_PARAM const SoftMaxTiling& tiling, \
                                        const SoftMaxShapeInfo& softmaxShapeInfo = {}, ASCENDC_SIM_LOC) {         \
    ascendc_sim::FlashV2<S, U, isUpdate, isDataFormatNZ, config>(                                                 \
        false,                                                                                                    \
        {dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, nullptr, TMP}, \
        tiling, softmaxShapeInfo, loc);                                                                           \
  }
#define ASCENDC_SIM_TMP_PARAM const LocalTensor<uint8_t>&sharedTmpBuffer,
ASCENDC_SIM_FLASH_V2(T, T, , nullptr)
ASCENDC_SIM_FLASH_V2(T, T, ASCENDC_SIM_TMP_PARAM, &sharedTmpBuffer)
ASCENDC_SIM_FLASH_V2(half, float, , nullptr)
ASCENDC_SIM_FLASH_V2(half, float, ASCENDC_SIM_TMP_PARAM, &sharedTmpBuffer)
#undef ASCENDC_SIM_FLASH_V2

// The forms that also write the first reduce's row max (outReduceMax), in SOFTMAX_OUTPUT_WITHOUT_BRC.
#define ASCENDC_SIM_FLASH_V2_MAX(TMP_PARAM, TMP)                                                                  \
  ASCENDC_SIM_FLASH_V2_TEMPLATE                                                                                   \
  __aicore__ inline void SoftmaxFlashV2(                                                                          \
      const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax, const LocalTensor<T>& outExpSum,       \
      const LocalTensor<T>& outMax, const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,             \
      const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax, TMP_PARAM const SoftMaxTiling& tiling,         \
      const SoftMaxShapeInfo& softmaxShapeInfo = {}, ASCENDC_SIM_LOC) {                                           \
    ascendc_sim::FlashV2<T, T, isUpdate, isDataFormatNZ, config>(                                                 \
        true,                                                                                                     \
        {dstTensor, outExpSum, outMax, srcTensor, outExpMax, inExpSum, inMax, isUpdate ? &outReduceMax : nullptr, \
         TMP},                                                                                                    \
        tiling, softmaxShapeInfo, loc);                                                                           \
  }
ASCENDC_SIM_FLASH_V2_MAX(, nullptr)
ASCENDC_SIM_FLASH_V2_MAX(ASCENDC_SIM_TMP_PARAM, &sharedTmpBuffer)
#undef ASCENDC_SIM_FLASH_V2_MAX
#undef ASCENDC_SIM_FLASH_V2_TEMPLATE

// SoftmaxFlash (deprecated by the library for V2): isUpdate a call argument, statistics broadcast.
#define ASCENDC_SIM_FLASH_V1(S, U, TMP_PARAM, TMP)                                                            \
  template <typename T, bool isReuseSource = false, bool isBasicBlock = false>                                \
  __aicore__ inline void SoftmaxFlash(                                                                        \
      const LocalTensor<S>& dstTensor, const LocalTensor<U>& sumTensor, const LocalTensor<U>& maxTensor,      \
      const LocalTensor<S>& srcTensor, const LocalTensor<S>& expMaxTensor, const LocalTensor<U>& inSumTensor, \
      const LocalTensor<U>& inMaxTensor, TMP_PARAM const SoftMaxTiling& tiling, bool isUpdate = false,        \
      const SoftMaxShapeInfo& softmaxShapeInfo = {}, ASCENDC_SIM_LOC) {                                       \
    ascendc_sim::SoftmaxFlashImpl<S, U>(                                                                      \
        "SoftmaxFlash", ascendc_sim::FlashForm{1, isUpdate, true},                                            \
        {dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor, nullptr, TMP},   \
        ascendc_sim::SoftMaxRows(tiling, softmaxShapeInfo), loc);                                             \
  }
ASCENDC_SIM_FLASH_V1(T, T, , nullptr)
ASCENDC_SIM_FLASH_V1(T, T, ASCENDC_SIM_TMP_PARAM, &sharedTmpBuffer)
ASCENDC_SIM_FLASH_V1(half, float, , nullptr)
ASCENDC_SIM_FLASH_V1(half, float, ASCENDC_SIM_TMP_PARAM, &sharedTmpBuffer)
#undef ASCENDC_SIM_FLASH_V1
#undef ASCENDC_SIM_TMP_PARAM

}  // namespace AscendC
