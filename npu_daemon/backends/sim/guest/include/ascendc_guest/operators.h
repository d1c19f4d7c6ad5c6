// The library's symbol overloads on local tensors, shared by both engines (the native includes it
// from ascendc_sim/vec_compare.h): dst = a + b, a - b, a * b, a / b, a | b, a & b over dst's
// elements; dst = a < b (...) over a's elements into dst's bit mask. The right-hand side is an
// expression LocalTensor::operator= runs; the vector calls are found at instantiation (by ADL).
#pragma once

namespace AscendC {

#define ASCENDC_GUEST_OPERATOR(SYM, NAME)                                        \
  template <typename T>                                                          \
  struct NAME##Expr {                                                            \
    LocalTensor<T> a, b;                                                         \
    template <typename D>                                                        \
    void Run(const LocalTensor<D>& dst) const {                                  \
      NAME(dst, a, b, static_cast<int32_t>(dst.GetSize()));                      \
    }                                                                            \
  };                                                                             \
  template <typename T>                                                          \
  NAME##Expr<T> operator SYM(const LocalTensor<T>& a, const LocalTensor<T>& b) { \
    return {a, b};                                                               \
  }
ASCENDC_GUEST_OPERATOR(+, Add)
ASCENDC_GUEST_OPERATOR(-, Sub)
ASCENDC_GUEST_OPERATOR(*, Mul)
ASCENDC_GUEST_OPERATOR(/, Div)
ASCENDC_GUEST_OPERATOR(|, Or)
ASCENDC_GUEST_OPERATOR(&, And)
#undef ASCENDC_GUEST_OPERATOR

template <typename T>
struct CompareExpr {
  LocalTensor<T> a, b;
  CMPMODE mode;
  template <typename D>
  void Run(const LocalTensor<D>& dst) const {
    Compare(dst, a, b, mode, a.GetSize());
  }
};
#define ASCENDC_GUEST_CMP_OPERATOR(SYM, MODE)                                     \
  template <typename T>                                                           \
  CompareExpr<T> operator SYM(const LocalTensor<T>& a, const LocalTensor<T>& b) { \
    return {a, b, CMPMODE::MODE};                                                 \
  }
ASCENDC_GUEST_CMP_OPERATOR(<, LT)
ASCENDC_GUEST_CMP_OPERATOR(>, GT)
ASCENDC_GUEST_CMP_OPERATOR(==, EQ)
ASCENDC_GUEST_CMP_OPERATOR(<=, LE)
ASCENDC_GUEST_CMP_OPERATOR(>=, GE)
ASCENDC_GUEST_CMP_OPERATOR(!=, NE)
#undef ASCENDC_GUEST_CMP_OPERATOR

}  // namespace AscendC
