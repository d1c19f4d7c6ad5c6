// Element-wise vector APIs: binary, vector-scalar and unary families, Duplicate and Cast.
// Each family is generated in its three overload forms (count; continuous mask; bit mask array)
// from one lane function, so every op shares the engine's checks and trace records.
#pragma once

#include "ascendc_sim/vec_core.h"

namespace ascendc_sim {

template <typename T>
struct Identity {
  using type = T;
};

inline Stride DstStride(const AscendC::UnaryRepeatParams& p) { return {p.dstBlkStride, p.dstRepStride}; }
inline Stride SrcStride(const AscendC::UnaryRepeatParams& p) { return {p.srcBlkStride, p.srcRepStride}; }

template <typename T>
Lanes RegisterMaskLanes(uint8_t repeatTime, const SrcLoc& loc) {
  return MaskLanes<T>(CurrentCore().mask, repeatTime, loc);
}

template <typename D, typename S0, typename S1, typename Fn>
void Binary(Op op, const char* api, const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S0>& a,
            const AscendC::LocalTensor<S1>& b, const Lanes& l, Stride sd, Stride sa, Stride sb, Fn fn, const SrcLoc& loc) {
  IssueVector(op, api, l,
              {{dst.UbAddr(), dst.GetSize(), sizeof(D), sd, true}, {a.UbAddr(), a.GetSize(), sizeof(S0), sa, false},
               {b.UbAddr(), b.GetSize(), sizeof(S1), sb, false}},
              sizeof(D), loc);
  D* d = dst.Data();
  const S0* x = a.Data();
  const S1* y = b.Data();
  ForLanes(l, sd, sa, sb, [&](uint64_t i, uint64_t j, uint64_t k) { d[i] = static_cast<D>(fn(x[j], y[k])); });
}

template <typename D, typename S, typename Fn>
void Unary(Op op, const char* api, const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src, const Lanes& l,
           Stride sd, Stride ss, Fn fn, const SrcLoc& loc) {
  IssueVector(op, api, l,
              {{dst.UbAddr(), dst.GetSize(), sizeof(D), sd, true}, {src.UbAddr(), src.GetSize(), sizeof(S), ss, false}},
              sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S), loc);
  D* d = dst.Data();
  const S* x = src.Data();
  ForLanes(l, sd, ss, ss, [&](uint64_t i, uint64_t j, uint64_t) { d[i] = static_cast<D>(fn(x[j])); });
}

}  // namespace ascendc_sim

// ---- binary: dst = f(src0, src1) ------------------------------------------------------------
#define ASCENDC_SIM_BINARY(NAME, OPCLASS, EXPR)                                                                       \
  namespace ascendc_sim::lane {                                                                                       \
  struct NAME {                                                                                                       \
    template <typename T>                                                                                             \
    T operator()(T a, T b) const { return static_cast<T>(EXPR); }                                                     \
  };                                                                                                                  \
  }                                                                                                                   \
  namespace AscendC {                                                                                                 \
  template <typename T>                                                                                               \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,      \
                              const int32_t& count, ASCENDC_SIM_LOC) {                                                \
    ascendc_sim::Binary(ascendc_sim::Op::OPCLASS, #NAME, dst, src0, src1, ascendc_sim::CountLanes<T>(count), {}, {},  \
                        {}, ascendc_sim::lane::NAME{}, loc);                                                          \
  }                                                                                                                   \
  template <typename T, bool isSetMask = true>                                                                        \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,      \
                              uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& p, ASCENDC_SIM_LOC) { \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc)                     \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                            \
    ascendc_sim::Binary(ascendc_sim::Op::OPCLASS, #NAME, dst, src0, src1, l, {p.dstBlkStride, p.dstRepStride},        \
                        {p.src0BlkStride, p.src0RepStride}, {p.src1BlkStride, p.src1RepStride},                       \
                        ascendc_sim::lane::NAME{}, loc);                                                              \
  }                                                                                                                   \
  template <typename T, bool isSetMask = true>                                                                        \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,      \
                              const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& p,           \
                              ASCENDC_SIM_LOC) {                                                                      \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::MaskLanes<T>(mask, repeatTime, loc)                               \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                            \
    ascendc_sim::Binary(ascendc_sim::Op::OPCLASS, #NAME, dst, src0, src1, l, {p.dstBlkStride, p.dstRepStride},        \
                        {p.src0BlkStride, p.src0RepStride}, {p.src1BlkStride, p.src1RepStride},                       \
                        ascendc_sim::lane::NAME{}, loc);                                                              \
  }                                                                                                                   \
  }

ASCENDC_SIM_BINARY(Add, kVecBinary, a + b)
ASCENDC_SIM_BINARY(Sub, kVecBinary, a - b)
ASCENDC_SIM_BINARY(Mul, kVecBinary, a * b)
ASCENDC_SIM_BINARY(Div, kVecDiv, a / b)
ASCENDC_SIM_BINARY(Max, kVecBinary, a > b ? a : b)
ASCENDC_SIM_BINARY(Min, kVecBinary, a < b ? a : b)

// ---- vector-scalar: dst = f(src, scalar) -----------------------------------------------------
#define ASCENDC_SIM_VEC_SCALAR(NAME, OPCLASS, EXPR)                                                                   \
  namespace ascendc_sim::lane {                                                                                       \
  template <typename T>                                                                                               \
  struct NAME {                                                                                                       \
    T s;                                                                                                              \
    T operator()(T a) const { return static_cast<T>(EXPR); }                                                          \
  };                                                                                                                  \
  }                                                                                                                   \
  namespace AscendC {                                                                                                 \
  template <typename T>                                                                                               \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                   \
                              const typename ascendc_sim::Identity<T>::type& scalar, const int32_t& count,            \
                              ASCENDC_SIM_LOC) {                                                                      \
    ascendc_sim::Unary(ascendc_sim::Op::OPCLASS, #NAME, dst, src, ascendc_sim::CountLanes<T>(count), {}, {},          \
                       ascendc_sim::lane::NAME<T>{scalar}, loc);                                                      \
  }                                                                                                                   \
  template <typename T, bool isSetMask = true>                                                                        \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                   \
                              const typename ascendc_sim::Identity<T>::type& scalar, uint64_t mask,                   \
                              const uint8_t repeatTime, const UnaryRepeatParams& p, ASCENDC_SIM_LOC) {                \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc)                     \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                            \
    ascendc_sim::Unary(ascendc_sim::Op::OPCLASS, #NAME, dst, src, l, ascendc_sim::DstStride(p),                       \
                       ascendc_sim::SrcStride(p), ascendc_sim::lane::NAME<T>{scalar}, loc);                           \
  }                                                                                                                   \
  template <typename T, bool isSetMask = true>                                                                        \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                   \
                              const typename ascendc_sim::Identity<T>::type& scalar, const uint64_t mask[],           \
                              const uint8_t repeatTime, const UnaryRepeatParams& p, ASCENDC_SIM_LOC) {                \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::MaskLanes<T>(mask, repeatTime, loc)                               \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                            \
    ascendc_sim::Unary(ascendc_sim::Op::OPCLASS, #NAME, dst, src, l, ascendc_sim::DstStride(p),                       \
                       ascendc_sim::SrcStride(p), ascendc_sim::lane::NAME<T>{scalar}, loc);                           \
  }                                                                                                                   \
  }

ASCENDC_SIM_VEC_SCALAR(Adds, kVecUnary, a + s)
ASCENDC_SIM_VEC_SCALAR(Muls, kVecUnary, a * s)
ASCENDC_SIM_VEC_SCALAR(Maxs, kVecUnary, a > s ? a : s)
ASCENDC_SIM_VEC_SCALAR(Mins, kVecUnary, a < s ? a : s)
ASCENDC_SIM_VEC_SCALAR(LeakyRelu, kVecUnary, a >= T(0) ? a : a * s)

// ---- unary: dst = f(src) ----------------------------------------------------------------------
#define ASCENDC_SIM_UNARY(NAME, OPCLASS, EXPR)                                                                        \
  namespace ascendc_sim::lane {                                                                                       \
  struct NAME {                                                                                                       \
    template <typename T>                                                                                             \
    T operator()(T a) const { return static_cast<T>(EXPR); }                                                          \
  };                                                                                                                  \
  }                                                                                                                   \
  namespace AscendC {                                                                                                 \
  template <typename T>                                                                                               \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,             \
                              ASCENDC_SIM_LOC) {                                                                      \
    ascendc_sim::Unary(ascendc_sim::Op::OPCLASS, #NAME, dst, src, ascendc_sim::CountLanes<T>(count), {}, {},          \
                       ascendc_sim::lane::NAME{}, loc);                                                               \
  }                                                                                                                   \
  template <typename T, bool isSetMask = true>                                                                        \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,                    \
                              const uint8_t repeatTime, const UnaryRepeatParams& p, ASCENDC_SIM_LOC) {                \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc)                     \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                            \
    ascendc_sim::Unary(ascendc_sim::Op::OPCLASS, #NAME, dst, src, l, ascendc_sim::DstStride(p),                       \
                       ascendc_sim::SrcStride(p), ascendc_sim::lane::NAME{}, loc);                                    \
  }                                                                                                                   \
  template <typename T, bool isSetMask = true>                                                                        \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],            \
                              const uint8_t repeatTime, const UnaryRepeatParams& p, ASCENDC_SIM_LOC) {                \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::MaskLanes<T>(mask, repeatTime, loc)                               \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                            \
    ascendc_sim::Unary(ascendc_sim::Op::OPCLASS, #NAME, dst, src, l, ascendc_sim::DstStride(p),                       \
                       ascendc_sim::SrcStride(p), ascendc_sim::lane::NAME{}, loc);                                    \
  }                                                                                                                   \
  }

// Transcendentals are evaluated in float and rounded once to T.
ASCENDC_SIM_UNARY(Relu, kVecUnary, a > T(0) ? a : T(0))
ASCENDC_SIM_UNARY(Abs, kVecUnary, a < T(0) ? -a : a)
ASCENDC_SIM_UNARY(Exp, kVecTransc, std::exp(static_cast<float>(a)))
ASCENDC_SIM_UNARY(Ln, kVecTransc, std::log(static_cast<float>(a)))
ASCENDC_SIM_UNARY(Sqrt, kVecTransc, std::sqrt(static_cast<float>(a)))
ASCENDC_SIM_UNARY(Rsqrt, kVecTransc, 1.0f / std::sqrt(static_cast<float>(a)))
ASCENDC_SIM_UNARY(Reciprocal, kVecTransc, 1.0f / static_cast<float>(a))

namespace AscendC {

// ---- Duplicate: dst = scalar ------------------------------------------------------------------
template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const typename ascendc_sim::Identity<T>::type& scalar,
                                 const int32_t& count, ASCENDC_SIM_LOC) {
  ascendc_sim::Unary(ascendc_sim::Op::kVecUnary, "Duplicate", dst, dst, ascendc_sim::CountLanes<T>(count), {}, {},
                     [s = static_cast<T>(scalar)](T) { return s; }, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const typename ascendc_sim::Identity<T>::type& scalar,
                                 uint64_t mask, const uint8_t repeatTime, const uint16_t dstBlockStride,
                                 const uint8_t dstRepeatStride, ASCENDC_SIM_LOC) {
  ascendc_sim::Lanes l = isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc)
                                   : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);
  ascendc_sim::Stride s{dstBlockStride, dstRepeatStride};
  ascendc_sim::Unary(ascendc_sim::Op::kVecUnary, "Duplicate", dst, dst, l, s, s, [v = static_cast<T>(scalar)](T) { return v; }, loc);
}

}  // namespace AscendC
