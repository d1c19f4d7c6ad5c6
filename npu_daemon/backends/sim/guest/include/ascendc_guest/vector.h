// The vector instructions' count forms: elementwise, with a scalar, Duplicate, Cast and the
// whole-range reductions (included by kernel_operator.h).
#pragma once

namespace ascendc_guest {
extern "C" {
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
ASCENDC_GUEST_IMPORT(vec_reduce)
void vec_reduce(Reduce op, Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, uint32_t w, uint32_t wSize,
                int32_t count, int32_t calIndex, int32_t line);
}
}  // namespace ascendc_guest

namespace AscendC {

#define ASCENDC_GUEST_BINARY(Name, Code)                                                                         \
  template <typename T>                                                                                          \
  void Name(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b, int32_t count,            \
            ASCENDC_GUEST_LINE) {                                                                                \
    ascendc_guest::vec_binary(ascendc_guest::Binary::Code, ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(), \
                              a.UbAddr(), a.GetSize(), b.UbAddr(), b.GetSize(), count, line);                    \
  }
ASCENDC_GUEST_BINARY(Add, kAdd)
ASCENDC_GUEST_BINARY(Sub, kSub)
ASCENDC_GUEST_BINARY(Mul, kMul)
ASCENDC_GUEST_BINARY(Div, kDiv)
ASCENDC_GUEST_BINARY(Max, kMax)
ASCENDC_GUEST_BINARY(Min, kMin)
#undef ASCENDC_GUEST_BINARY

#define ASCENDC_GUEST_UNARY(Name, Code)                                                                        \
  template <typename T>                                                                                        \
  void Name(const LocalTensor<T>& d, const LocalTensor<T>& a, int32_t count, ASCENDC_GUEST_LINE) {             \
    ascendc_guest::vec_unary(ascendc_guest::Unary::Code, ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(), \
                             a.UbAddr(), a.GetSize(), count, line);                                            \
  }
ASCENDC_GUEST_UNARY(Exp, kExp)
ASCENDC_GUEST_UNARY(Ln, kLn)
ASCENDC_GUEST_UNARY(Abs, kAbs)
ASCENDC_GUEST_UNARY(Reciprocal, kReciprocal)
ASCENDC_GUEST_UNARY(Sqrt, kSqrt)
ASCENDC_GUEST_UNARY(Rsqrt, kRsqrt)
ASCENDC_GUEST_UNARY(Relu, kRelu)
#undef ASCENDC_GUEST_UNARY

#define ASCENDC_GUEST_SCALAR(Name, Code)                                                                             \
  template <typename T, typename U>                                                                                  \
  void Name(const LocalTensor<T>& d, const LocalTensor<T>& a, U scalar, int32_t count, ASCENDC_GUEST_LINE) {         \
    ascendc_guest::vec_scalar(ascendc_guest::WithScalar::Code, ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(), \
                              a.UbAddr(), a.GetSize(), ascendc_guest::BitsOf(static_cast<T>(scalar)), count, line);  \
  }
ASCENDC_GUEST_SCALAR(Adds, kAdds)
ASCENDC_GUEST_SCALAR(Muls, kMuls)
ASCENDC_GUEST_SCALAR(Maxs, kMaxs)
ASCENDC_GUEST_SCALAR(Mins, kMins)
ASCENDC_GUEST_SCALAR(LeakyRelu, kLeakyRelu)
#undef ASCENDC_GUEST_SCALAR

template <typename T, typename U>
void Duplicate(const LocalTensor<T>& d, U value, int32_t count, ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_dup(ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(),
                         ascendc_guest::BitsOf(static_cast<T>(value)), count, line);
}

enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };
template <typename D, typename S>
void Cast(const LocalTensor<D>& d, const LocalTensor<S>& a, const RoundMode& round, uint32_t count,
          ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_cast(ascendc_guest::DtypeOf<D>(), ascendc_guest::DtypeOf<S>(), static_cast<int32_t>(round),
                          d.UbAddr(), d.GetSize(), a.UbAddr(), a.GetSize(), static_cast<int32_t>(count), line);
}

// The count forms of the whole-range reductions.
template <typename T>
void ReduceSum(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& work, int32_t count,
               ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_reduce(ascendc_guest::Reduce::kSum, ascendc_guest::DtypeOf<T>(), d.UbAddr(), d.GetSize(),
                            a.UbAddr(), a.GetSize(), work.UbAddr(), work.GetSize(), count, 0, line);
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
