// The vector instructions: elementwise, with a scalar, Duplicate, Cast and Axpy in their count and
// mask/repeat forms (ascendc_guest/vec_core.h), the other elementwise instructions, and the count
// forms of the whole-range reductions (included by kernel_operator.h).
#pragma once

#include "ascendc_guest/vec_core.h"

namespace ascendc_guest {
ASCENDC_GUEST_IMPORT(vec_binary)
void vec_binary(Binary op, Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, uint32_t b, uint32_t bSize,
                int32_t count, int32_t line);
ASCENDC_GUEST_IMPORT(vec_unary)
void vec_unary(Unary op, Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, int32_t count, int32_t line);
ASCENDC_GUEST_IMPORT(vec_scalar)
void vec_scalar(WithScalar op, Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, int64_t scalar,
                int32_t count, int32_t line);
ASCENDC_GUEST_IMPORT(vec_dup)
void vec_dup(Dtype t, uint32_t d, uint32_t dSize, int64_t value, int32_t count, int32_t line);
ASCENDC_GUEST_IMPORT(vec_cast)
void vec_cast(Dtype dt, Dtype st, int32_t round, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, int32_t count,
              int32_t line);
ASCENDC_GUEST_IMPORT(vec_binary_rep)
void vec_binary_rep(Binary op, Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, uint32_t b,
                    uint32_t bSize, MaskKind kind, int64_t maskLow, int64_t maskHigh, int32_t repeat,
                    const AscendC::BinaryRepeatParams* p, int32_t line);
ASCENDC_GUEST_IMPORT(vec_unary_rep)
void vec_unary_rep(Unary op, Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, MaskKind kind,
                   int64_t maskLow, int64_t maskHigh, int32_t repeat, const AscendC::UnaryRepeatParams* p,
                   int32_t line);
ASCENDC_GUEST_IMPORT(vec_scalar_rep)
void vec_scalar_rep(WithScalar op, Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, int64_t scalar,
                    MaskKind kind, int64_t maskLow, int64_t maskHigh, int32_t repeat,
                    const AscendC::UnaryRepeatParams* p, int32_t line);
ASCENDC_GUEST_IMPORT(vec_dup_rep)
void vec_dup_rep(Dtype t, uint32_t d, uint32_t dSize, int64_t value, MaskKind kind, int64_t maskLow, int64_t maskHigh,
                 int32_t repeat, int32_t dstBlk, int32_t dstRep, int32_t line);
ASCENDC_GUEST_IMPORT(vec_cast_rep)
void vec_cast_rep(Dtype dt, Dtype st, int32_t round, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize,
                  MaskKind kind, int64_t maskLow, int64_t maskHigh, int32_t repeat, const AscendC::UnaryRepeatParams* p,
                  int32_t line);
ASCENDC_GUEST_IMPORT(vec_axpy)
void vec_axpy(Dtype dt, Dtype st, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, int64_t scalar, int32_t count,
              int32_t line);
ASCENDC_GUEST_IMPORT(vec_axpy_rep)
void vec_axpy_rep(Dtype dt, Dtype st, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, int64_t scalar,
                  MaskKind kind, int64_t maskLow, int64_t maskHigh, int32_t repeat, const AscendC::UnaryRepeatParams* p,
                  int32_t line);
ASCENDC_GUEST_IMPORT(vec_copy_rep)
void vec_copy_rep(Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, MaskKind kind, int64_t maskLow,
                  int64_t maskHigh, int32_t repeat, const AscendC::CopyRepeatParams* p, int32_t line);
ASCENDC_GUEST_IMPORT(vec_brcb)
void vec_brcb(Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, int32_t repeat, int32_t dstBlk,
              int32_t dstRep, int32_t line);
ASCENDC_GUEST_IMPORT(vec_index)
void vec_index(Dtype t, uint32_t d, uint32_t dSize, int64_t first, int32_t count, int32_t line);
ASCENDC_GUEST_IMPORT(vec_transpose)
void vec_transpose(Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, int32_t line);
ASCENDC_GUEST_IMPORT(set_deq_scale)
void set_deq_scale(int64_t scale);
ASCENDC_GUEST_IMPORT(scalar_cast)
int64_t scalar_cast(Dtype u, int32_t round, int64_t value, int32_t line);
// The count forms; `option`: calIndex for ReduceMax / ReduceMin, isSetMask for ReduceSum.
ASCENDC_GUEST_IMPORT(vec_reduce)
void vec_reduce(Reduce op, Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, uint32_t w, uint32_t wSize,
                int32_t count, int32_t option, int32_t line);

// A mask form's lanes as the imports take them: a continuous mask (a lane count) or a bit mask of
// two words; with isSetMask = false, the mask registers as the kernel set them.
struct Lanes {
  MaskKind kind;
  int64_t low, high;
};
template <bool isSetMask>
Lanes LanesOf(uint64_t mask) {
  return {isSetMask ? MaskKind::kContinuous : MaskKind::kRegister, static_cast<int64_t>(mask), 0};
}
template <bool isSetMask>
Lanes LanesOf(const uint64_t* mask) {
  if constexpr (isSetMask) return {MaskKind::kBits, static_cast<int64_t>(mask[0]), static_cast<int64_t>(mask[1])};
  return {MaskKind::kRegister, 0, 0};
}
}  // namespace ascendc_guest

namespace AscendC {

// Each instruction in its count form and its mask forms (a continuous mask or a bit mask array,
// told apart by the mask's type); the count forms' code is what it was, so are their costs.
#define ASCENDC_GUEST_BINARY(Name, Code)                                                                               \
  template <typename T>                                                                                                \
  void Name(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b, int32_t count,                  \
            ASCENDC_GUEST_LINE) {                                                                                      \
    ascendc_guest::vec_binary(ascendc_guest::Binary::Code, ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(),       \
                              a.UbAddr(), a.GetSize(), b.UbAddr(), b.GetSize(), count, line);                          \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true, typename M>                                                             \
  void Name(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b, M mask,                         \
            const uint8_t repeatTime, const BinaryRepeatParams& p, ASCENDC_GUEST_LINE) {                               \
    const ascendc_guest::Lanes m = ascendc_guest::LanesOf<isSetMask>(mask);                                            \
    ascendc_guest::vec_binary_rep(ascendc_guest::Binary::Code, ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(),   \
                                  a.UbAddr(), a.GetSize(), b.UbAddr(), b.GetSize(), m.kind, m.low, m.high, repeatTime, \
                                  &p, line);                                                                           \
  }                                                                                                                    \
  template <typename T, typename R>                                                                                    \
  R Name(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b, const int32_t& count) {            \
    return Name<T>(d, a, b, count, ascendc_guest::kThroughAddress);                                                    \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true, typename R>                                                             \
  R Name(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b, uint64_t mask,                     \
         const uint8_t repeatTime, const BinaryRepeatParams& p) {                                                      \
    return Name<T, isSetMask>(d, a, b, mask, repeatTime, p, ascendc_guest::kThroughAddress);                           \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true, typename R>                                                             \
  R Name(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b, uint64_t mask[],                   \
         const uint8_t repeatTime, const BinaryRepeatParams& p) {                                                      \
    return Name<T, isSetMask>(d, a, b, static_cast<const uint64_t*>(mask), repeatTime, p,                              \
                              ascendc_guest::kThroughAddress);                                                         \
  }
ASCENDC_GUEST_BINARY(Add, kAdd)
ASCENDC_GUEST_BINARY(Sub, kSub)
ASCENDC_GUEST_BINARY(Mul, kMul)
ASCENDC_GUEST_BINARY(Div, kDiv)
ASCENDC_GUEST_BINARY(Max, kMax)
ASCENDC_GUEST_BINARY(Min, kMin)
ASCENDC_GUEST_BINARY(And, kAnd)
ASCENDC_GUEST_BINARY(Or, kOr)
ASCENDC_GUEST_BINARY(AddRelu, kAddRelu)
ASCENDC_GUEST_BINARY(SubRelu, kSubRelu)
ASCENDC_GUEST_BINARY(MulAddDst, kMulAddDst)
ASCENDC_GUEST_BINARY(FusedMulAdd, kFusedMulAdd)
ASCENDC_GUEST_BINARY(FusedMulAddRelu, kFusedMulAddRelu)
#undef ASCENDC_GUEST_BINARY

#define ASCENDC_GUEST_UNARY(Name, Code)                                                                            \
  template <typename T>                                                                                            \
  void Name(const LocalTensor<T>& d, const LocalTensor<T>& a, int32_t count, ASCENDC_GUEST_LINE) {                 \
    ascendc_guest::vec_unary(ascendc_guest::Unary::Code, ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(),     \
                             a.UbAddr(), a.GetSize(), count, line);                                                \
  }                                                                                                                \
  template <typename T, bool isSetMask = true, typename M>                                                         \
  void Name(const LocalTensor<T>& d, const LocalTensor<T>& a, M mask, const uint8_t repeatTime,                    \
            const UnaryRepeatParams& p, ASCENDC_GUEST_LINE) {                                                      \
    const ascendc_guest::Lanes m = ascendc_guest::LanesOf<isSetMask>(mask);                                        \
    ascendc_guest::vec_unary_rep(ascendc_guest::Unary::Code, ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(), \
                                 a.UbAddr(), a.GetSize(), m.kind, m.low, m.high, repeatTime, &p, line);            \
  }                                                                                                                \
  template <typename T, typename R>                                                                                \
  R Name(const LocalTensor<T>& d, const LocalTensor<T>& a, const int32_t& count) {                                 \
    return Name<T>(d, a, count, ascendc_guest::kThroughAddress);                                                   \
  }                                                                                                                \
  template <typename T, bool isSetMask = true, typename R>                                                         \
  R Name(const LocalTensor<T>& d, const LocalTensor<T>& a, uint64_t mask, const uint8_t repeatTime,                \
         const UnaryRepeatParams& p) {                                                                             \
    return Name<T, isSetMask>(d, a, mask, repeatTime, p, ascendc_guest::kThroughAddress);                          \
  }                                                                                                                \
  template <typename T, bool isSetMask = true, typename R>                                                         \
  R Name(const LocalTensor<T>& d, const LocalTensor<T>& a, uint64_t mask[], const uint8_t repeatTime,              \
         const UnaryRepeatParams& p) {                                                                             \
    return Name<T, isSetMask>(d, a, static_cast<const uint64_t*>(mask), repeatTime, p,                             \
                              ascendc_guest::kThroughAddress);                                                     \
  }
ASCENDC_GUEST_UNARY(Exp, kExp)
ASCENDC_GUEST_UNARY(Ln, kLn)
ASCENDC_GUEST_UNARY(Abs, kAbs)
ASCENDC_GUEST_UNARY(Reciprocal, kReciprocal)
ASCENDC_GUEST_UNARY(Sqrt, kSqrt)
ASCENDC_GUEST_UNARY(Rsqrt, kRsqrt)
ASCENDC_GUEST_UNARY(Relu, kRelu)
ASCENDC_GUEST_UNARY(Not, kNot)
#undef ASCENDC_GUEST_UNARY

#define ASCENDC_GUEST_SCALAR(Name, Code)                                                                               \
  template <typename T, typename U>                                                                                    \
  void Name(const LocalTensor<T>& d, const LocalTensor<T>& a, U scalar, int32_t count, ASCENDC_GUEST_LINE) {           \
    ascendc_guest::vec_scalar(ascendc_guest::WithScalar::Code, ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(),   \
                              a.UbAddr(), a.GetSize(), ascendc_guest::BitsOf(static_cast<T>(scalar)), count, line);    \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true, typename U, typename M>                                                 \
  void Name(const LocalTensor<T>& d, const LocalTensor<T>& a, U scalar, M mask, const uint8_t repeatTime,              \
            const UnaryRepeatParams& p, ASCENDC_GUEST_LINE) {                                                          \
    const ascendc_guest::Lanes m = ascendc_guest::LanesOf<isSetMask>(mask);                                            \
    ascendc_guest::vec_scalar_rep(ascendc_guest::WithScalar::Code, ascendc_guest::DtypeOf<T>(), d.UbAddr(),            \
                                  d.GetSize(), a.UbAddr(), a.GetSize(), ascendc_guest::BitsOf(static_cast<T>(scalar)), \
                                  m.kind, m.low, m.high, repeatTime, &p, line);                                        \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true, typename R>                                                             \
  R Name(const LocalTensor<T>& d, const LocalTensor<T>& a, const T& scalar, const int32_t& count) {                    \
    return Name<T>(d, a, scalar, count, ascendc_guest::kThroughAddress);                                               \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true, typename R>                                                             \
  R Name(const LocalTensor<T>& d, const LocalTensor<T>& a, const T& scalar, uint64_t mask, const uint8_t repeatTime,   \
         const UnaryRepeatParams& p) {                                                                                 \
    return Name<T, isSetMask>(d, a, scalar, mask, repeatTime, p, ascendc_guest::kThroughAddress);                      \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true, typename R>                                                             \
  R Name(const LocalTensor<T>& d, const LocalTensor<T>& a, const T& scalar, uint64_t mask[], const uint8_t repeatTime, \
         const UnaryRepeatParams& p) {                                                                                 \
    return Name<T, isSetMask>(d, a, scalar, static_cast<const uint64_t*>(mask), repeatTime, p,                         \
                              ascendc_guest::kThroughAddress);                                                         \
  }
ASCENDC_GUEST_SCALAR(Adds, kAdds)
ASCENDC_GUEST_SCALAR(Muls, kMuls)
ASCENDC_GUEST_SCALAR(Maxs, kMaxs)
ASCENDC_GUEST_SCALAR(Mins, kMins)
ASCENDC_GUEST_SCALAR(LeakyRelu, kLeakyRelu)
ASCENDC_GUEST_SCALAR(ShiftLeft, kShiftLeft)
ASCENDC_GUEST_SCALAR(ShiftRight, kShiftRight)
#undef ASCENDC_GUEST_SCALAR

template <typename T, typename U>
void Duplicate(const LocalTensor<T>& d, U value, int32_t count, ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_dup(ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(),
                         ascendc_guest::BitsOf(static_cast<T>(value)), count, line);
}
template <typename T, bool isSetMask = true, typename U, typename M>
void Duplicate(const LocalTensor<T>& d, U value, M mask, const uint8_t repeatTime, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride, ASCENDC_GUEST_LINE) {
  const ascendc_guest::Lanes m = ascendc_guest::LanesOf<isSetMask>(mask);
  ascendc_guest::vec_dup_rep(ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(),
                             ascendc_guest::BitsOf(static_cast<T>(value)), m.kind, m.low, m.high, repeatTime,
                             dstBlockStride, dstRepeatStride, line);
}

enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };
template <typename D, typename S>
void Cast(const LocalTensor<D>& d, const LocalTensor<S>& a, const RoundMode& round, uint32_t count,
          ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_cast(ascendc_guest::DtypeOf<D>(), ascendc_guest::DtypeOf<S>(), static_cast<int32_t>(round),
                          d.UbAddr(), d.GetSize(), a.UbAddr(), a.GetSize(), static_cast<int32_t>(count), line);
}
template <typename D, typename S, bool isSetMask = true, typename M>
void Cast(const LocalTensor<D>& d, const LocalTensor<S>& a, const RoundMode& round, M mask, const uint8_t repeatTime,
          const UnaryRepeatParams& p, ASCENDC_GUEST_LINE) {
  const ascendc_guest::Lanes m = ascendc_guest::LanesOf<isSetMask>(mask);
  ascendc_guest::vec_cast_rep(ascendc_guest::DtypeOf<D>(), ascendc_guest::DtypeOf<S>(), static_cast<int32_t>(round),
                              d.UbAddr(), d.GetSize(), a.UbAddr(), a.GetSize(), m.kind, m.low, m.high, repeatTime, &p,
                              line);
}

// The scalar unit's conversions of a float (kernel_operator_scalar_intf.h), computed by the host as
// on the native engine, with its warning for the pairs and modes the A2 answers with 0.
template <typename T, typename U, RoundMode roundMode>
U Cast(T valueIn, ASCENDC_GUEST_LINE) {
  static_assert(sizeof(U) == 2 || sizeof(U) == 4, "Cast: the scalar target is half or int32_t");
  return ascendc_guest::FromBits<U>(
      ascendc_guest::scalar_cast(ascendc_guest::DtypeOf<U>(), static_cast<int32_t>(roundMode),
                                 ascendc_guest::BitsOf(static_cast<float>(valueIn)), line));
}
template <typename T, typename U, RoundMode roundMode>
U ScalarCast(T valueIn, ASCENDC_GUEST_LINE) {
  return Cast<T, U, roundMode>(valueIn, line);
}
inline bfloat16_t Cast(const float& fVal) { return bfloat16_t(fVal); }
inline float Cast(const bfloat16_t& bVal) { return static_cast<float>(bVal); }

// dst += src * scalar (dst may be float with a half source).
template <typename T, typename U>
void Axpy(const LocalTensor<T>& d, const LocalTensor<U>& a, const U scalar, int32_t count, ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_axpy(ascendc_guest::DtypeOf<T>(), ascendc_guest::DtypeOf<U>(), d.UbAddr(), d.GetSize(), a.UbAddr(),
                          a.GetSize(), ascendc_guest::BitsOf(scalar), count, line);
}
template <typename T, typename U, bool isSetMask = true>
void Axpy(const LocalTensor<T>& d, const LocalTensor<U>& a, const U scalar, uint64_t mask, const uint8_t repeatTime,
          const UnaryRepeatParams& p, ASCENDC_GUEST_LINE) {
  const ascendc_guest::Lanes m = ascendc_guest::LanesOf<isSetMask>(mask);
  ascendc_guest::vec_axpy_rep(ascendc_guest::DtypeOf<T>(), ascendc_guest::DtypeOf<U>(), d.UbAddr(), d.GetSize(),
                              a.UbAddr(), a.GetSize(), ascendc_guest::BitsOf(scalar), m.kind, m.low, m.high, repeatTime,
                              &p, line);
}

// The int32_t -> half Cast computes half(src * scale).
inline void SetDeqScale(half scale) { ascendc_guest::set_deq_scale(ascendc_guest::BitsOf(scale)); }

// Vector copy UB -> UB, strides in 32 B blocks.
template <typename T, bool isSetMask = true, typename M>
void Copy(const LocalTensor<T>& d, const LocalTensor<T>& a, M mask, const uint8_t repeatTime, const CopyRepeatParams& p,
          ASCENDC_GUEST_LINE) {
  const ascendc_guest::Lanes m = ascendc_guest::LanesOf<isSetMask>(mask);
  ascendc_guest::vec_copy_rep(ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(), a.UbAddr(), a.GetSize(), m.kind,
                              m.low, m.high, repeatTime, &p, line);
}

// Each source element fills one 32 B block of dst, 8 elements per repeat.
template <typename T>
void Brcb(const LocalTensor<T>& d, const LocalTensor<T>& a, const uint8_t repeatTime, const BrcbRepeatParams& p,
          ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_brcb(ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(), a.UbAddr(), a.GetSize(), repeatTime,
                          p.dstBlkStride, p.dstRepStride, line);
}

// One 16 x 16 matrix of 2-byte elements: dst[j][i] = src[i][j].
template <typename T>
void Transpose(const LocalTensor<T>& d, const LocalTensor<T>& a, ASCENDC_GUEST_LINE) {
  static_assert(sizeof(T) == 2, "Transpose (16 x 16) takes half, int16_t or uint16_t");
  ascendc_guest::vec_transpose(ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(), a.UbAddr(), a.GetSize(), line);
}

// dst[i] = firstValue + i.
template <typename T>
void CreateVecIndex(const LocalTensor<T>& d, const T& firstValue, uint32_t count, ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_index(ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(), ascendc_guest::BitsOf(firstValue),
                           static_cast<int32_t>(count), line);
}

// The count forms of the whole-range reductions. ReduceSum's isSetMask = false takes the lanes from
// the mask registers as the kernel set them and ignores `count`.
template <typename T, bool isSetMask = true>
void ReduceSum(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& work, int32_t count,
               ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_reduce(ascendc_guest::Reduce::kSum, ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(),
                            a.UbAddr(), a.GetSize(), work.UbAddr(), work.GetSize(), count, isSetMask, line);
}
template <typename T>
void ReduceMax(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& work, int32_t count,
               bool calIndex = false, ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_reduce(ascendc_guest::Reduce::kMax, ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(),
                            a.UbAddr(), a.GetSize(), work.UbAddr(), work.GetSize(), count, calIndex, line);
}
template <typename T>
void ReduceMin(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& work, int32_t count,
               bool calIndex = false, ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_reduce(ascendc_guest::Reduce::kMin, ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(),
                            a.UbAddr(), a.GetSize(), work.UbAddr(), work.GetSize(), count, calIndex, line);
}

}  // namespace AscendC
