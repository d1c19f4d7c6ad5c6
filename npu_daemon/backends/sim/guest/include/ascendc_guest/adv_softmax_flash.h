// The Softmax flash family on the guest engine (SoftmaxFlash, SoftmaxFlashV2; the native side's
// ascendc_sim/adv_softmax_flash.h holds the semantics): each call one import, adv_softmax_flash,
// which the host serves with the native function after checking every tensor against its buffer.
// Included by kernel_operator.h.
#pragma once

#include "ascendc_guest/adv_softmax_flash_abi.h"
#include "ascendc_sim/adv_params.h"
#include "ascendc_sim/adv_softmax_params.h"
#include "ascendc_sim/adv_softmax_tiling.h"

namespace ascendc_guest {
ASCENDC_GUEST_IMPORT(adv_softmax_flash)
void adv_softmax_flash(int32_t form, Dtype t, Dtype u, const FlashHandles* tensors, const void* tiling,
                       const void* shape, uint32_t cfgM, uint32_t cfgK, int32_t line);

// One call: `form` the AdvFlash bits of the version, update and broadcast; S the source's type, U the statistics'.
template <typename S, typename U>
void SoftmaxFlashCall(int32_t form, const AscendC::LocalTensor<S>& dst, const AscendC::LocalTensor<U>& sum,
                      const AscendC::LocalTensor<U>& max, const AscendC::LocalTensor<S>& src,
                      const AscendC::LocalTensor<S>& expMax, const AscendC::LocalTensor<U>& inSum,
                      const AscendC::LocalTensor<U>& inMax, const AscendC::LocalTensor<S>* reduceMax,
                      const AscendC::LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                      const AscendC::SoftMaxShapeInfo& shape, const AscendC::SoftmaxConfig& config, int32_t line) {
  FlashHandles h{{dst.UbAddr(), sum.UbAddr(), max.UbAddr(), src.UbAddr(), expMax.UbAddr(), inSum.UbAddr(),
                  inMax.UbAddr(), reduceMax ? reduceMax->UbAddr() : 0u, tmp ? tmp->UbAddr() : 0u},
                 {dst.GetSize(), sum.GetSize(), max.GetSize(), src.GetSize(), expMax.GetSize(), inSum.GetSize(),
                  inMax.GetSize(), reduceMax ? reduceMax->GetSize() : 0u, tmp ? tmp->GetSize() : 0u}};
  if (tmp) form |= kFlashTmp;
  adv_softmax_flash(form, DtypeOf<S>(), DtypeOf<U>(), &h, &tiling, &shape, config.oriSrcM, config.oriSrcK, line);
}

template <bool isUpdate, bool isDataFormatNZ, const AscendC::SoftmaxConfig& config>
constexpr int32_t FlashV2Form(bool maxForm) {
  static_assert(!isDataFormatNZ, "SoftmaxFlashV2: the simulator emulates the ND layout");
  return kFlashV2 | (isUpdate ? kFlashUpdate : 0) | (maxForm ? kFlashMaxForm : 0) |
         (config.mode == AscendC::SoftmaxMode::SOFTMAX_NORMAL ? kFlashBrc : 0);
}
}  // namespace ascendc_guest

namespace AscendC {

// SoftmaxFlashV2: one type throughout, or a half source with float statistics; with the
// framework's temporary space or a sharedTmpBuffer.
#define ASCENDC_GUEST_FLASH_V2_TEMPLATE                                                               \
  template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false, \
            bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
#define ASCENDC_GUEST_FLASH_V2(S, U, TMP_PARAM, TMP)                                                                   \
  ASCENDC_GUEST_FLASH_V2_TEMPLATE                                                                                      \
  void SoftmaxFlashV2(const LocalTensor<S>& dstTensor, const LocalTensor<U>& expSumTensor,                             \
                      const LocalTensor<U>& maxTensor, const LocalTensor<S>& srcTensor,                                \
                      const LocalTensor<S>& expMaxTensor, const LocalTensor<U>& inExpSumTensor,                        \
                      const LocalTensor<U>& inMaxTensor, TMP_PARAM const SoftMaxTiling& tiling,                        \
                      const SoftMaxShapeInfo& softmaxShapeInfo = {}, ASCENDC_GUEST_LINE) {                             \
    ascendc_guest::SoftmaxFlashCall<S, U>(ascendc_guest::FlashV2Form<isUpdate, isDataFormatNZ, config>(false),         \
                                          dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, \
                                          inMaxTensor, nullptr, TMP, tiling, softmaxShapeInfo, config, line);          \
  }
#define ASCENDC_GUEST_TMP_PARAM const LocalTensor<uint8_t>&sharedTmpBuffer,
ASCENDC_GUEST_FLASH_V2(T, T, , nullptr)
ASCENDC_GUEST_FLASH_V2(T, T, ASCENDC_GUEST_TMP_PARAM, &sharedTmpBuffer)
ASCENDC_GUEST_FLASH_V2(half, float, , nullptr)
ASCENDC_GUEST_FLASH_V2(half, float, ASCENDC_GUEST_TMP_PARAM, &sharedTmpBuffer)
#undef ASCENDC_GUEST_FLASH_V2

// The forms that also write the first reduce's row max (outReduceMax), in SOFTMAX_OUTPUT_WITHOUT_BRC.
#define ASCENDC_GUEST_FLASH_V2_MAX(TMP_PARAM, TMP)                                                                    \
  ASCENDC_GUEST_FLASH_V2_TEMPLATE                                                                                     \
  void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,                            \
                      const LocalTensor<T>& outExpSum, const LocalTensor<T>& outMax, const LocalTensor<T>& srcTensor, \
                      const LocalTensor<T>& outExpMax, const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax,   \
                      TMP_PARAM const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},           \
                      ASCENDC_GUEST_LINE) {                                                                           \
    ascendc_guest::SoftmaxFlashCall<T, T>(                                                                            \
        ascendc_guest::FlashV2Form<isUpdate, isDataFormatNZ, config>(true), dstTensor, outExpSum, outMax, srcTensor,  \
        outExpMax, inExpSum, inMax, isUpdate ? &outReduceMax : nullptr, TMP, tiling, softmaxShapeInfo, config, line); \
  }
ASCENDC_GUEST_FLASH_V2_MAX(, nullptr)
ASCENDC_GUEST_FLASH_V2_MAX(ASCENDC_GUEST_TMP_PARAM, &sharedTmpBuffer)
#undef ASCENDC_GUEST_FLASH_V2_MAX
#undef ASCENDC_GUEST_FLASH_V2_TEMPLATE

// SoftmaxFlash (deprecated by the library for V2): isUpdate a call argument, statistics broadcast.
#define ASCENDC_GUEST_FLASH_V1(S, U, TMP_PARAM, TMP)                                                                   \
  template <typename T, bool isReuseSource = false, bool isBasicBlock = false>                                         \
  void SoftmaxFlash(const LocalTensor<S>& dstTensor, const LocalTensor<U>& sumTensor, const LocalTensor<U>& maxTensor, \
                    const LocalTensor<S>& srcTensor, const LocalTensor<S>& expMaxTensor,                               \
                    const LocalTensor<U>& inSumTensor, const LocalTensor<U>& inMaxTensor,                              \
                    TMP_PARAM const SoftMaxTiling& tiling, bool isUpdate = false,                                      \
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, ASCENDC_GUEST_LINE) {                               \
    ascendc_guest::SoftmaxFlashCall<S, U>(ascendc_guest::kFlashBrc | (isUpdate ? ascendc_guest::kFlashUpdate : 0),     \
                                          dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor,       \
                                          inMaxTensor, nullptr, TMP, tiling, softmaxShapeInfo, SOFTMAX_DEFAULT_CFG,    \
                                          line);                                                                       \
  }
ASCENDC_GUEST_FLASH_V1(T, T, , nullptr)
ASCENDC_GUEST_FLASH_V1(T, T, ASCENDC_GUEST_TMP_PARAM, &sharedTmpBuffer)
ASCENDC_GUEST_FLASH_V1(half, float, , nullptr)
ASCENDC_GUEST_FLASH_V1(half, float, ASCENDC_GUEST_TMP_PARAM, &sharedTmpBuffer)
#undef ASCENDC_GUEST_FLASH_V1
#undef ASCENDC_GUEST_TMP_PARAM

}  // namespace AscendC
