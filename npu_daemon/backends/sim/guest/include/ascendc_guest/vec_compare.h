// Compare / CompareScalar into a bit mask or the CMPMASK register, and Select by a bit mask, in
// their count and mask forms (included by kernel_operator.h).
#pragma once

#include "ascendc_guest/vec_shape.h"

namespace AscendC {
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
}  // namespace AscendC

namespace ascendc_guest {
// dst: a bit mask of dBytes bytes; b == 0 with bSize == 0 and toRegister: the CMPMASK register.
ASCENDC_GUEST_IMPORT(vec_compare)
void vec_compare(Dtype t, int32_t mode, uint32_t d, uint32_t dBytes, uint32_t a, uint32_t aSize, uint32_t b,
                 uint32_t bSize, const VecShape* shape, int32_t line);
ASCENDC_GUEST_IMPORT(vec_compare_reg)
void vec_compare_reg(Dtype t, int32_t mode, uint32_t a, uint32_t aSize, uint32_t b, uint32_t bSize,
                     const VecShape* shape, int32_t line);
ASCENDC_GUEST_IMPORT(vec_compare_scalar)
void vec_compare_scalar(Dtype t, int32_t mode, uint32_t d, uint32_t dBytes, uint32_t a, uint32_t aSize, int64_t scalar,
                        const VecShape* shape, int32_t line);
// m == 0 with mBytes == 0: the CMPMASK register form.
ASCENDC_GUEST_IMPORT(vec_select)
void vec_select(Dtype t, int32_t mode, uint32_t d, uint32_t dSize, uint32_t m, uint32_t mBytes, uint32_t a,
                uint32_t aSize, uint32_t b, uint32_t bSize, const VecShape* shape, int32_t line);
ASCENDC_GUEST_IMPORT(vec_select_scalar)
void vec_select_scalar(Dtype t, int32_t mode, uint32_t d, uint32_t dSize, uint32_t m, uint32_t mBytes, uint32_t a,
                       uint32_t aSize, int64_t scalar, const VecShape* shape, int32_t line);
ASCENDC_GUEST_IMPORT(cmp_mask_move)
void cmp_mask_move(uint32_t ub, uint32_t bytes, int32_t toUb, int32_t line);
}  // namespace ascendc_guest

namespace AscendC {

// ---- Compare: dst bits = src0 <mode> src1 ----------------------------------------------------------
template <typename T, typename U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE mode,
             uint32_t count, ASCENDC_GUEST_LINE) {
  const ascendc_guest::VecShape s = ascendc_guest::CountShape(count);
  ascendc_guest::vec_compare(ascendc_guest::DtypeOf<T>(), static_cast<int32_t>(mode), dst.UbAddr(), dst.GetLength(),
                             src0.UbAddr(), src0.GetSize(), src1.UbAddr(), src1.GetSize(), &s, line);
}
#define ASCENDC_GUEST_COMPARE_MASK(MaskType)                                                                           \
  template <typename T, typename U, bool isSetMask = true>                                                             \
  void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE mode,        \
               MaskType mask, uint8_t repeatTime, const BinaryRepeatParams& p, ASCENDC_GUEST_LINE) {                   \
    const ascendc_guest::VecShape s =                                                                                  \
        ascendc_guest::WithStrides(ascendc_guest::MaskShape<isSetMask>(mask, repeatTime), p);                          \
    ascendc_guest::vec_compare(ascendc_guest::DtypeOf<T>(), static_cast<int32_t>(mode), dst.UbAddr(), dst.GetLength(), \
                               src0.UbAddr(), src0.GetSize(), src1.UbAddr(), src1.GetSize(), &s, line);                \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true>                                                                         \
  void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE mode, MaskType mask,                    \
               const BinaryRepeatParams& p, ASCENDC_GUEST_LINE) {                                                      \
    const ascendc_guest::VecShape s = ascendc_guest::WithStrides(ascendc_guest::MaskShape<isSetMask>(mask, 1), p);     \
    ascendc_guest::vec_compare_reg(ascendc_guest::DtypeOf<T>(), static_cast<int32_t>(mode), src0.UbAddr(),             \
                                   src0.GetSize(), src1.UbAddr(), src1.GetSize(), &s, line);                           \
  }                                                                                                                    \
  template <typename T, typename U, bool isSetMask = true>                                                             \
  void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,                                            \
                     const typename ascendc_guest::Identity<T>::type src1Scalar, CMPMODE mode, MaskType mask,          \
                     uint8_t repeatTime, const UnaryRepeatParams& p, ASCENDC_GUEST_LINE) {                             \
    const ascendc_guest::VecShape s =                                                                                  \
        ascendc_guest::WithStrides(ascendc_guest::MaskShape<isSetMask>(mask, repeatTime), p);                          \
    ascendc_guest::vec_compare_scalar(ascendc_guest::DtypeOf<T>(), static_cast<int32_t>(mode), dst.UbAddr(),           \
                                      dst.GetLength(), src0.UbAddr(), src0.GetSize(),                                  \
                                      ascendc_guest::BitsOf(src1Scalar), &s, line);                                    \
  }                                                                                                                    \
  template <typename T, typename U, bool isSetMask = true>                                                             \
  void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0,                                                 \
                const typename ascendc_guest::Identity<T>::type src1Scalar, CMPMODE mode, MaskType mask,               \
                uint8_t repeatTime, const UnaryRepeatParams& p, ASCENDC_GUEST_LINE) {                                  \
    CompareScalar<T, U, isSetMask>(dst, src0, src1Scalar, mode, mask, repeatTime, p, line);                            \
  }
ASCENDC_GUEST_COMPARE_MASK(const uint64_t)
ASCENDC_GUEST_COMPARE_MASK(const uint64_t*)
#undef ASCENDC_GUEST_COMPARE_MASK

// ---- CompareScalar (Compares, the current library's name): dst bits = src0 <mode> scalar ---------
template <typename T, typename U>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                   const typename ascendc_guest::Identity<T>::type src1Scalar, CMPMODE mode, uint32_t count,
                   ASCENDC_GUEST_LINE) {
  const ascendc_guest::VecShape s = ascendc_guest::CountShape(count);
  ascendc_guest::vec_compare_scalar(ascendc_guest::DtypeOf<T>(), static_cast<int32_t>(mode), dst.UbAddr(),
                                    dst.GetLength(), src0.UbAddr(), src0.GetSize(), ascendc_guest::BitsOf(src1Scalar),
                                    &s, line);
}
template <typename T, typename U>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
              const typename ascendc_guest::Identity<T>::type src1Scalar, CMPMODE mode, uint32_t count,
              ASCENDC_GUEST_LINE) {
  CompareScalar(dst, src0, src1Scalar, mode, count, line);
}

// ---- Select: dst = mask bit ? src0 : src1 (a tensor or a scalar) ---------------------------------
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE mode, uint32_t count, ASCENDC_GUEST_LINE) {
  const ascendc_guest::VecShape s = ascendc_guest::CountShape(count);
  ascendc_guest::vec_select(ascendc_guest::DtypeOf<T>(), static_cast<int32_t>(mode), dst.UbAddr(), dst.GetSize(),
                            selMask.UbAddr(), selMask.GetLength(), src0.UbAddr(), src0.GetSize(), src1.UbAddr(),
                            src1.GetSize(), &s, line);
}
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const typename ascendc_guest::Identity<T>::type src1, SELMODE mode, uint32_t count, ASCENDC_GUEST_LINE) {
  const ascendc_guest::VecShape s = ascendc_guest::CountShape(count);
  ascendc_guest::vec_select_scalar(ascendc_guest::DtypeOf<T>(), static_cast<int32_t>(mode), dst.UbAddr(), dst.GetSize(),
                                   selMask.UbAddr(), selMask.GetLength(), src0.UbAddr(), src0.GetSize(),
                                   ascendc_guest::BitsOf(src1), &s, line);
}
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE mode, uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& p,
            ASCENDC_GUEST_LINE) {
  const ascendc_guest::VecShape s = ascendc_guest::WithStrides(ascendc_guest::MaskShape<true>(mask, repeatTime), p);
  ascendc_guest::vec_select(ascendc_guest::DtypeOf<T>(), static_cast<int32_t>(mode), dst.UbAddr(), dst.GetSize(),
                            selMask.UbAddr(), selMask.GetLength(), src0.UbAddr(), src0.GetSize(), src1.UbAddr(),
                            src1.GetSize(), &s, line);
}
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const typename ascendc_guest::Identity<T>::type src1, SELMODE mode, uint64_t mask, uint8_t repeatTime,
            const BinaryRepeatParams& p, ASCENDC_GUEST_LINE) {
  const ascendc_guest::VecShape s = ascendc_guest::WithStrides(ascendc_guest::MaskShape<true>(mask, repeatTime), p);
  ascendc_guest::vec_select_scalar(ascendc_guest::DtypeOf<T>(), static_cast<int32_t>(mode), dst.UbAddr(), dst.GetSize(),
                                   selMask.UbAddr(), selMask.GetLength(), src0.UbAddr(), src0.GetSize(),
                                   ascendc_guest::BitsOf(src1), &s, line);
}
// The CMPMASK register form: every repeat, under the vector mask, takes lane e from src0 where
// register bit e is set.
template <typename T, SELMODE selMode>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint8_t repeatTime,
            const BinaryRepeatParams& p, ASCENDC_GUEST_LINE) {
  static_assert(selMode == SELMODE::VSEL_CMPMASK_SPR, "Select without a mask tensor: the CMPMASK register mode");
  const uint64_t none[2] = {0, 0};
  const ascendc_guest::VecShape s = ascendc_guest::WithStrides(ascendc_guest::MaskShape<false>(none, repeatTime), p);
  ascendc_guest::vec_select(ascendc_guest::DtypeOf<T>(), static_cast<int32_t>(selMode), dst.UbAddr(), dst.GetSize(), 0,
                            0, src0.UbAddr(), src0.GetSize(), src1.UbAddr(), src1.GetSize(), &s, line);
}

// The CMPMASK register from the first 16 B of src, or to dst.
template <typename T>
void SetCmpMask(const LocalTensor<T>& src, ASCENDC_GUEST_LINE) {
  ascendc_guest::cmp_mask_move(src.UbAddr(), src.GetLength(), 0, line);
}
template <typename T>
void GetCmpMask(const LocalTensor<T>& dst, ASCENDC_GUEST_LINE) {
  ascendc_guest::cmp_mask_move(dst.UbAddr(), dst.GetLength(), 1, line);
}

}  // namespace AscendC
