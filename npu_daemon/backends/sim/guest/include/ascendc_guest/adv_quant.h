// AscendQuant, AscendAntiQuant and AscendDequant on the guest engine (the native side's
// ascendc_sim/adv_quant.h holds the semantics): each call one import, adv_quant, adv_anti_quant or
// adv_dequant, which the host serves
// with the native function after holding every tensor to its buffer. Included by kernel_operator.h.
#pragma once

#include "ascendc_guest/adv_quant_abi.h"
#include "ascendc_sim/adv_quant_params.h"

namespace ascendc_guest {
ASCENDC_GUEST_IMPORT(adv_quant)
void adv_quant(int32_t form, Dtype t, uint32_t d, uint32_t dSize, uint32_t s, uint32_t sSize, uint32_t scale,
               uint32_t scaleSize, uint32_t offset, uint32_t offsetSize, uint32_t tmp, uint32_t tmpSize,
               float scaleValue, float offsetValue, uint32_t scaleCount, uint32_t offsetCount, uint32_t calCount,
               int32_t line);
ASCENDC_GUEST_IMPORT(adv_anti_quant)
void adv_anti_quant(int32_t form, Dtype o, uint32_t d, uint32_t dSize, uint32_t s, uint32_t sSize, uint32_t offset,
                    uint32_t offsetSize, uint32_t scale, uint32_t scaleSize, uint32_t tmp, uint32_t tmpSize,
                    float offsetValue, float scaleValue, uint32_t k, const void* shape, int32_t line);
ASCENDC_GUEST_IMPORT(adv_dequant)
void adv_dequant(int32_t form, Dtype dst, Dtype scale, uint32_t d, uint32_t dSize, uint32_t s, uint32_t sSize,
                 uint32_t sc, uint32_t scSize, uint32_t tmp, uint32_t tmpSize, float scaleValue, const void* params,
                 uint32_t count, int32_t line);

// A tensor operand's (address, elements), or none.
template <typename T>
struct Operand {
  uint32_t addr = 0, size = 0;
  bool named = false;
  Operand() = default;
  Operand(const AscendC::LocalTensor<T>& t) : addr(t.UbAddr()), size(t.GetSize()), named(true) {}
};

template <typename T>
void Quant(int32_t form, const AscendC::LocalTensor<int8_t>& d, const AscendC::LocalTensor<T>& s, Operand<uint8_t> tmp,
           Operand<T> scale, Operand<T> offset, float scaleValue, float offsetValue, uint32_t scaleCount,
           uint32_t offsetCount, uint32_t calCount, int32_t line) {
  adv_quant(form | (tmp.named ? kQuantTmp : 0), DtypeOf<T>(), d.UbAddr(), d.GetSize(), s.UbAddr(), s.GetSize(),
            scale.addr, scale.size, offset.addr, offset.size, tmp.addr, tmp.size, scaleValue, offsetValue, scaleCount,
            offsetCount, calCount, line);
}

template <typename I, typename O>
void AntiQuant(int32_t form, const AscendC::LocalTensor<O>& d, const AscendC::LocalTensor<I>& s, Operand<O> offset,
               Operand<O> scale, Operand<uint8_t> tmp, float offsetValue, float scaleValue, uint32_t k,
               const AscendC::AntiQuantShapeInfo& shape, int32_t line) {
  static_assert(std::is_same_v<I, int8_t>, "AscendAntiQuant: the simulator emulates int8_t sources");
  adv_anti_quant(form | (tmp.named ? kAntiTmp : 0), DtypeOf<O>(), d.UbAddr(), d.GetSize(), s.UbAddr(), s.GetSize(),
                 offset.addr, offset.size, scale.addr, scale.size, tmp.addr, tmp.size, offsetValue, scaleValue, k,
                 &shape, line);
}

// A deqScale tensor names its type and (address, elements); a scalar its type and value.
template <typename D, typename S>
void Dequant(int32_t form, const AscendC::LocalTensor<D>& d, const AscendC::LocalTensor<int32_t>& s, Operand<S> scale,
             float scaleValue, Operand<uint8_t> tmp, const AscendC::DequantParams& params, uint32_t count,
             int32_t line) {
  adv_dequant(form | (scale.named ? kDequantTensor : 0) | (tmp.named ? kDequantTmp : 0), DtypeOf<D>(), DtypeOf<S>(),
              d.UbAddr(), d.GetSize(), s.UbAddr(), s.GetSize(), scale.addr, scale.size, tmp.addr, tmp.size, scaleValue,
              &params, count, line);
}
}  // namespace ascendc_guest

namespace AscendC {

// The call site is a CallSite, not an int: a trailing count (calCount) must never select a form
// without one by binding to the line.

#define ASCENDC_GUEST_QUANT_TEMPLATE \
  template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
#define ASCENDC_GUEST_QUANT_COUNT(name, given) (config.name ? config.name : (given))
#define ASCENDC_GUEST_QUANT_FORMS(TMP_PARAM, TMP)                                                                      \
  ASCENDC_GUEST_QUANT_TEMPLATE                                                                                         \
  void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, TMP_PARAM const float scale, \
                   const float offset, const uint32_t calCount, ASCENDC_GUEST_SITE) {                                  \
    ascendc_guest::Quant<T>(0, dstTensor, srcTensor, TMP, {}, {}, scale, offset, 0, 0,                                 \
                            ASCENDC_GUEST_QUANT_COUNT(calcCount, calCount), site.line);                                \
  }                                                                                                                    \
  ASCENDC_GUEST_QUANT_TEMPLATE                                                                                         \
  void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, TMP_PARAM const float scale, \
                   const float offset, ASCENDC_GUEST_SITE) {                                                           \
    ascendc_guest::Quant<T>(0, dstTensor, srcTensor, TMP, {}, {}, scale, offset, 0, 0,                                 \
                            ASCENDC_GUEST_QUANT_COUNT(calcCount, srcTensor.GetSize()), site.line);                     \
  }                                                                                                                    \
  ASCENDC_GUEST_QUANT_TEMPLATE                                                                                         \
  void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,                              \
                   TMP_PARAM const LocalTensor<T>& scaleTensor, const T offset, const uint32_t scaleCount,             \
                   const uint32_t calCount, ASCENDC_GUEST_SITE) {                                                      \
    ascendc_guest::Quant<T>(ascendc_guest::kQuantScaleTensor, dstTensor, srcTensor, TMP, scaleTensor, {}, 0,           \
                            static_cast<float>(offset), ASCENDC_GUEST_QUANT_COUNT(scaleCount, scaleCount), 0,          \
                            ASCENDC_GUEST_QUANT_COUNT(calcCount, calCount), site.line);                                \
  }                                                                                                                    \
  ASCENDC_GUEST_QUANT_TEMPLATE                                                                                         \
  void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,                              \
                   TMP_PARAM const LocalTensor<T>& scaleTensor, const T offset, ASCENDC_GUEST_SITE) {                  \
    ascendc_guest::Quant<T>(ascendc_guest::kQuantScaleTensor, dstTensor, srcTensor, TMP, scaleTensor, {}, 0,           \
                            static_cast<float>(offset), ASCENDC_GUEST_QUANT_COUNT(scaleCount, scaleTensor.GetSize()),  \
                            0, ASCENDC_GUEST_QUANT_COUNT(calcCount, srcTensor.GetSize()), site.line);                  \
  }                                                                                                                    \
  ASCENDC_GUEST_QUANT_TEMPLATE                                                                                         \
  void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,                              \
                   TMP_PARAM const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,                    \
                   const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount,                     \
                   ASCENDC_GUEST_SITE) {                                                                               \
    ascendc_guest::Quant<T>(ascendc_guest::kQuantScaleTensor | ascendc_guest::kQuantOffsetTensor, dstTensor,           \
                            srcTensor, TMP, scaleTensor, offsetTensor, 0, 0,                                           \
                            ASCENDC_GUEST_QUANT_COUNT(scaleCount, scaleCount),                                         \
                            ASCENDC_GUEST_QUANT_COUNT(offsetCount, offsetCount),                                       \
                            ASCENDC_GUEST_QUANT_COUNT(calcCount, calCount), site.line);                                \
  }                                                                                                                    \
  ASCENDC_GUEST_QUANT_TEMPLATE                                                                                         \
  void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,                              \
                   TMP_PARAM const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,                    \
                   ASCENDC_GUEST_SITE) {                                                                               \
    ascendc_guest::Quant<T>(ascendc_guest::kQuantScaleTensor | ascendc_guest::kQuantOffsetTensor, dstTensor,           \
                            srcTensor, TMP, scaleTensor, offsetTensor, 0, 0,                                           \
                            ASCENDC_GUEST_QUANT_COUNT(scaleCount, scaleTensor.GetSize()),                              \
                            ASCENDC_GUEST_QUANT_COUNT(offsetCount, offsetTensor.GetSize()),                            \
                            ASCENDC_GUEST_QUANT_COUNT(calcCount, srcTensor.GetSize()), site.line);                     \
  }
#define ASCENDC_GUEST_TMP_PARAM const LocalTensor<uint8_t>&sharedTmpBuffer,
ASCENDC_GUEST_QUANT_FORMS(, {})
ASCENDC_GUEST_QUANT_FORMS(ASCENDC_GUEST_TMP_PARAM, sharedTmpBuffer)
#undef ASCENDC_GUEST_QUANT_FORMS
#undef ASCENDC_GUEST_QUANT_COUNT
#undef ASCENDC_GUEST_QUANT_TEMPLATE

#define ASCENDC_GUEST_ANTI_QUANT(TMP_PARAM, TMP)                                                                   \
  template <typename InputDataType, typename OutputDataType, bool isTranspose>                                     \
  void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,              \
                       const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,        \
                       TMP_PARAM const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}, ASCENDC_GUEST_SITE) { \
    ascendc_guest::AntiQuant<InputDataType, OutputDataType>(                                                       \
        ascendc_guest::kAntiOffset | ascendc_guest::kAntiOffsetTensor | ascendc_guest::kAntiScaleTensor |          \
            (isTranspose ? ascendc_guest::kAntiTranspose : 0),                                                     \
        dst, src, offset, scale, TMP, 0, 0, k, shapeInfo, site.line);                                              \
  }                                                                                                                \
  template <typename InputDataType, typename OutputDataType, bool isTranspose>                                     \
  void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,              \
                       const OutputDataType offset, const OutputDataType scale, TMP_PARAM const uint32_t k,        \
                       const AntiQuantShapeInfo& shapeInfo = {}, ASCENDC_GUEST_SITE) {                             \
    ascendc_guest::AntiQuant<InputDataType, OutputDataType>(                                                       \
        ascendc_guest::kAntiOffset | (isTranspose ? ascendc_guest::kAntiTranspose : 0), dst, src, {}, {}, TMP,     \
        static_cast<float>(offset), static_cast<float>(scale), k, shapeInfo, site.line);                           \
  }
ASCENDC_GUEST_ANTI_QUANT(, {})
ASCENDC_GUEST_ANTI_QUANT(ASCENDC_GUEST_TMP_PARAM, sharedTmpBuffer)
#undef ASCENDC_GUEST_ANTI_QUANT
// The scale-only forms take a sharedTmpBuffer.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                     const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}, ASCENDC_GUEST_SITE) {
  ascendc_guest::AntiQuant<InputDataType, OutputDataType>(
      ascendc_guest::kAntiScaleTensor | (isTranspose ? ascendc_guest::kAntiTranspose : 0), dst, src, {}, scale,
      sharedTmpBuffer, 0, 0, k, shapeInfo, site.line);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}, ASCENDC_GUEST_SITE) {
  ascendc_guest::AntiQuant<InputDataType, OutputDataType>(isTranspose ? ascendc_guest::kAntiTranspose : 0, dst, src, {},
                                                          {}, sharedTmpBuffer, 0, static_cast<float>(scale), k,
                                                          shapeInfo, site.line);
}
#define ASCENDC_GUEST_DEQUANT_TEMPLATE \
  template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
#define ASCENDC_GUEST_DEQUANT_MODE (mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW ? ascendc_guest::kDequantSingleRow : 0)
#define ASCENDC_GUEST_DEQUANT(TMP_PARAM, TMP)                                                                          \
  ASCENDC_GUEST_DEQUANT_TEMPLATE                                                                                       \
  void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,                        \
                     const LocalTensor<scaleT>& deqScale, TMP_PARAM DequantParams params, ASCENDC_GUEST_SITE) {        \
    ascendc_guest::Dequant<dstT, scaleT>(ASCENDC_GUEST_DEQUANT_MODE, dstTensor, srcTensor, deqScale, 0, TMP, params,   \
                                         0, site.line);                                                                \
  }                                                                                                                    \
  ASCENDC_GUEST_DEQUANT_TEMPLATE                                                                                       \
  void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,                        \
                     const LocalTensor<scaleT>& deqScale, TMP_PARAM const uint32_t calCount, ASCENDC_GUEST_SITE) {     \
    ascendc_guest::Dequant<dstT, scaleT>(ASCENDC_GUEST_DEQUANT_MODE | ascendc_guest::kDequantCount, dstTensor,         \
                                         srcTensor, deqScale, 0, TMP, {}, calCount, site.line);                        \
  }                                                                                                                    \
  ASCENDC_GUEST_DEQUANT_TEMPLATE                                                                                       \
  void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,                        \
                     const LocalTensor<scaleT>& deqScale, TMP_PARAM ASCENDC_GUEST_SITE) {                              \
    ascendc_guest::Dequant<dstT, scaleT>(ASCENDC_GUEST_DEQUANT_MODE | ascendc_guest::kDequantCount, dstTensor,         \
                                         srcTensor, deqScale, 0, TMP, {}, srcTensor.GetSize(), site.line);             \
  }                                                                                                                    \
  ASCENDC_GUEST_DEQUANT_TEMPLATE                                                                                       \
  void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const scaleT deqScale, \
                     TMP_PARAM DequantParams params, ASCENDC_GUEST_SITE) {                                             \
    ascendc_guest::Dequant<dstT, scaleT>(ASCENDC_GUEST_DEQUANT_MODE, dstTensor, srcTensor, {},                         \
                                         static_cast<float>(deqScale), TMP, params, 0, site.line);                     \
  }
ASCENDC_GUEST_DEQUANT(, {})
ASCENDC_GUEST_DEQUANT(ASCENDC_GUEST_TMP_PARAM, sharedTmpBuffer)
#undef ASCENDC_GUEST_DEQUANT
#undef ASCENDC_GUEST_DEQUANT_MODE
#undef ASCENDC_GUEST_DEQUANT_TEMPLATE
#undef ASCENDC_GUEST_TMP_PARAM

}  // namespace AscendC
