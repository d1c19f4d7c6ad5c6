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

namespace lane {
template <typename T>
T ReluOf(T v) {
  return v > T(0) ? v : T(0);
}
// Integer lanes wrap (two's complement): formed on unsigned values, since a signed overflow is
// undefined in C++. Floating lanes compute in their type (half: in float, rounded once).
template <typename T>
using Unsigned = std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>;
template <typename T>
T Plus(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<Unsigned<T>>(a) + static_cast<Unsigned<T>>(b));
  else
    return static_cast<T>(a + b);
}
template <typename T>
T Minus(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<Unsigned<T>>(a) - static_cast<Unsigned<T>>(b));
  else
    return static_cast<T>(a - b);
}
template <typename T>
T Times(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<Unsigned<T>>(a) * static_cast<Unsigned<T>>(b));
  else
    return static_cast<T>(a * b);
}
}  // namespace lane

inline Stride DstStride(const AscendC::UnaryRepeatParams& p) { return {p.dstBlkStride, p.dstRepStride}; }
inline Stride SrcStride(const AscendC::UnaryRepeatParams& p) { return {p.srcBlkStride, p.srcRepStride}; }

template <typename T>
Lanes RegisterMaskLanes(uint32_t repeatTime, const SrcLoc& loc) {
  // A 32-bit op reads the low mask register; the high one stays as ResetMask or a 128-lane
  // continuous mask left it (full).
  const uint64_t* reg = CurrentCore().Registers().mask;
  const uint64_t bits[2] = {reg[0], sizeof(T) == 2 ? reg[1] : 0};
  return MaskLanes<T>(bits, repeatTime, loc);
}

template <typename T>
Stride Blocks(Stride s) {
  s.perBlock = 32 / sizeof(T);
  return s;
}

// dst = fn(a, b) lane by lane; with `accumulate`, fn also sees the old dst value (fn(a, b, d)).
template <bool accumulate = false, typename D, typename S0, typename S1, typename Fn>
void Binary(Op op, const char* api, const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S0>& a,
            const AscendC::LocalTensor<S1>& b, const Lanes& l, Stride sd, Stride sa, Stride sb, Fn fn,
            const SrcLoc& loc) {
  sd = Blocks<D>(sd), sa = Blocks<S0>(sa), sb = Blocks<S1>(sb);
  IssueVector(op, api, l,
              {{dst.UbAddr(), dst.GetSize(), sizeof(D), sd, true},
               {a.UbAddr(), a.GetSize(), sizeof(S0), sa, false},
               {b.UbAddr(), b.GetSize(), sizeof(S1), sb, false}},
              sizeof(D), loc);
  D* d = ascendc_sim::HostData(dst);
  const S0* x = ascendc_sim::HostData(a);
  const S1* y = ascendc_sim::HostData(b);
  if constexpr (accumulate)
    ForLanes(l, sd, sa, sb, [&](uint64_t i, uint64_t j, uint64_t k) { d[i] = static_cast<D>(fn(x[j], y[k], d[i])); });
  else
    ForLanes(l, sd, sa, sb, [&](uint64_t i, uint64_t j, uint64_t k) { d[i] = static_cast<D>(fn(x[j], y[k])); });
}

template <typename D, typename S, typename Fn>
void Unary(Op op, const char* api, const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src,
           const Lanes& l, Stride sd, Stride ss, Fn fn, const SrcLoc& loc, std::initializer_list<UbAccess> extra = {}) {
  sd = Blocks<D>(sd), ss = Blocks<S>(ss);
  IssueVector(op, api, l,
              {{dst.UbAddr(), dst.GetSize(), sizeof(D), sd, true}, {src.UbAddr(), src.GetSize(), sizeof(S), ss, false}},
              sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S), loc, extra);
  D* d = ascendc_sim::HostData(dst);
  const S* x = ascendc_sim::HostData(src);
  ForLanes(l, sd, ss, ss, [&](uint64_t i, uint64_t j, uint64_t) { d[i] = static_cast<D>(fn(x[j])); });
}

// Fill: dst = fn(lane index in the flat count), no source read.
template <typename D, typename Fn>
void Fill(Op op, const char* api, const AscendC::LocalTensor<D>& dst, const Lanes& l, Stride sd, Fn fn,
          const SrcLoc& loc) {
  sd = Blocks<D>(sd);
  IssueVector(op, api, l, {{dst.UbAddr(), dst.GetSize(), sizeof(D), sd, true}}, sizeof(D), loc);
  D* d = ascendc_sim::HostData(dst);
  ForLanes(l, sd, sd, sd, [&](uint64_t i, uint64_t, uint64_t) { d[i] = fn(i); });
}

// Every lane of every repeat: the instructions that ignore the mask (Brcb, Gatherb), and the
// A2's compare into a bit tensor (vcmpv / vcmpvs): the mask and mask[] of the repeat forms of
// Compare and CompareScalar are reserved parameters without effect on the A2 (asc-devkit Compare
// and Compares: "保留参数，设置无效"; the dav_c220 library discards them), and the mask register, in
// normal or counter mode, is not read either.
template <typename T>
Lanes EveryLane(uint8_t repeatTime) {
  Lanes l;
  l.perRepeat = 256 / sizeof(T);
  l.perBlock = 32 / sizeof(T);
  l.repeats = repeatTime;
  l.bits[0] = ~0ull;
  l.bits[1] = sizeof(T) == 2 ? ~0ull : 0;
  return l;
}

}  // namespace ascendc_sim

// The binary and dst-accumulating families' documented signatures (SrcLoc::ThroughAddress).
#define ASCENDC_SIM_BINARY_AT_ADDRESS(NAME)                                                                           \
  template <typename T, typename R>                                                                                   \
  __aicore__ R NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,                \
                    const int32_t& count) {                                                                           \
    return NAME<T>(dst, src0, src1, count, ascendc_sim::SrcLoc::ThroughAddress());                                    \
  }                                                                                                                   \
  template <typename T, bool isSetMask = true, typename R>                                                            \
  __aicore__ R NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, \
                    const uint8_t repeatTime, const BinaryRepeatParams& p) {                                          \
    return NAME<T, isSetMask>(dst, src0, src1, mask, repeatTime, p, ascendc_sim::SrcLoc::ThroughAddress());           \
  }                                                                                                                   \
  template <typename T, bool isSetMask = true, typename R>                                                            \
  __aicore__ R NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,                \
                    uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& p) {                         \
    return NAME<T, isSetMask>(dst, src0, src1, static_cast<const uint64_t*>(mask), repeatTime, p,                     \
                              ascendc_sim::SrcLoc::ThroughAddress());                                                 \
  }

// ---- binary: dst = f(src0, src1) ------------------------------------------------------------
// Each family also has its documented signatures' address forms (SrcLoc::ThroughAddress).
#define ASCENDC_SIM_BINARY(NAME, OPCLASS, EXPR)                                                                      \
  namespace ascendc_sim::lane {                                                                                      \
  struct NAME {                                                                                                      \
    template <typename T>                                                                                            \
    T operator()(T a, T b) const {                                                                                   \
      return static_cast<T>(EXPR);                                                                                   \
    }                                                                                                                \
  };                                                                                                                 \
  }                                                                                                                  \
  namespace AscendC {                                                                                                \
  template <typename T>                                                                                              \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,            \
                       const int32_t& count, ASCENDC_SIM_LOC) {                                                      \
    ascendc_sim::Binary(ascendc_sim::Op::OPCLASS, #NAME, dst, src0, src1, ascendc_sim::CountLanes<T>(count), {}, {}, \
                        {}, ascendc_sim::lane::NAME{}, loc);                                                         \
  }                                                                                                                  \
  template <typename T, bool isSetMask = true>                                                                       \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,            \
                       uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& p, ASCENDC_SIM_LOC) {      \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc)                    \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                           \
    ascendc_sim::Binary(ascendc_sim::Op::OPCLASS, #NAME, dst, src0, src1, l, {p.dstBlkStride, p.dstRepStride},       \
                        {p.src0BlkStride, p.src0RepStride}, {p.src1BlkStride, p.src1RepStride},                      \
                        ascendc_sim::lane::NAME{}, loc);                                                             \
  }                                                                                                                  \
  template <typename T, bool isSetMask = true>                                                                       \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,            \
                       const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& p,                 \
                       ASCENDC_SIM_LOC) {                                                                            \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::MaskLanes<T>(mask, repeatTime, loc)                              \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                           \
    ascendc_sim::Binary(ascendc_sim::Op::OPCLASS, #NAME, dst, src0, src1, l, {p.dstBlkStride, p.dstRepStride},       \
                        {p.src0BlkStride, p.src0RepStride}, {p.src1BlkStride, p.src1RepStride},                      \
                        ascendc_sim::lane::NAME{}, loc);                                                             \
  }                                                                                                                  \
  ASCENDC_SIM_BINARY_AT_ADDRESS(NAME)                                                                                \
  }

ASCENDC_SIM_BINARY(Add, kVecBinary, ascendc_sim::lane::Plus(a, b))
ASCENDC_SIM_BINARY(Sub, kVecBinary, ascendc_sim::lane::Minus(a, b))
ASCENDC_SIM_BINARY(Mul, kVecBinary, ascendc_sim::lane::Times(a, b))
ASCENDC_SIM_BINARY(Div, kVecDiv, a / b)
ASCENDC_SIM_BINARY(Max, kVecBinary, a > b ? a : b)
ASCENDC_SIM_BINARY(Min, kVecBinary, a < b ? a : b)
ASCENDC_SIM_BINARY(And, kVecBinary, a& b)
ASCENDC_SIM_BINARY(Or, kVecBinary, a | b)
ASCENDC_SIM_BINARY(AddRelu, kVecBinary, ascendc_sim::lane::ReluOf(ascendc_sim::lane::Plus(a, b)))
ASCENDC_SIM_BINARY(SubRelu, kVecBinary, ascendc_sim::lane::ReluOf(ascendc_sim::lane::Minus(a, b)))

// ---- dst-accumulating: dst = f(src0, src1, dst) --------------------------------------------------
#define ASCENDC_SIM_BINARY_ACC(NAME, OPCLASS, EXPR)                                                                    \
  namespace ascendc_sim::lane {                                                                                        \
  struct NAME {                                                                                                        \
    template <typename T>                                                                                              \
    T operator()(T a, T b, T d) const {                                                                                \
      return static_cast<T>(EXPR);                                                                                     \
    }                                                                                                                  \
  };                                                                                                                   \
  }                                                                                                                    \
  namespace AscendC {                                                                                                  \
  template <typename T>                                                                                                \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,              \
                       const int32_t& count, ASCENDC_SIM_LOC) {                                                        \
    ascendc_sim::Binary<true>(ascendc_sim::Op::OPCLASS, #NAME, dst, src0, src1, ascendc_sim::CountLanes<T>(count), {}, \
                              {}, {}, ascendc_sim::lane::NAME{}, loc);                                                 \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true>                                                                         \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,              \
                       uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& p, ASCENDC_SIM_LOC) {        \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc)                      \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                             \
    ascendc_sim::Binary<true>(ascendc_sim::Op::OPCLASS, #NAME, dst, src0, src1, l, {p.dstBlkStride, p.dstRepStride},   \
                              {p.src0BlkStride, p.src0RepStride}, {p.src1BlkStride, p.src1RepStride},                  \
                              ascendc_sim::lane::NAME{}, loc);                                                         \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true>                                                                         \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,              \
                       const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& p,                   \
                       ASCENDC_SIM_LOC) {                                                                              \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::MaskLanes<T>(mask, repeatTime, loc)                                \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                             \
    ascendc_sim::Binary<true>(ascendc_sim::Op::OPCLASS, #NAME, dst, src0, src1, l, {p.dstBlkStride, p.dstRepStride},   \
                              {p.src0BlkStride, p.src0RepStride}, {p.src1BlkStride, p.src1RepStride},                  \
                              ascendc_sim::lane::NAME{}, loc);                                                         \
  }                                                                                                                    \
  ASCENDC_SIM_BINARY_AT_ADDRESS(NAME)                                                                                  \
  }

// Each product is rounded to T before the add, as two chained vector ops would be.
ASCENDC_SIM_BINARY_ACC(MulAddDst, kVecFma, static_cast<T>(a* b) + d)
ASCENDC_SIM_BINARY_ACC(FusedMulAdd, kVecFma, static_cast<T>(a* d) + b)
ASCENDC_SIM_BINARY_ACC(FusedMulAddRelu, kVecFma, ascendc_sim::lane::ReluOf(static_cast<T>(static_cast<T>(a* d) + b)))

// ---- vector-scalar: dst = f(src, scalar) -----------------------------------------------------
#define ASCENDC_SIM_VEC_SCALAR(NAME, OPCLASS, EXPR)                                                                    \
  namespace ascendc_sim::lane {                                                                                        \
  template <typename T>                                                                                                \
  struct NAME {                                                                                                        \
    T s;                                                                                                               \
    T operator()(T a) const { return static_cast<T>(EXPR); }                                                           \
  };                                                                                                                   \
  }                                                                                                                    \
  namespace AscendC {                                                                                                  \
  template <typename T>                                                                                                \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                           \
                       const typename ascendc_sim::Identity<T>::type& scalar, const int32_t& count, ASCENDC_SIM_LOC) { \
    ascendc_sim::Unary(ascendc_sim::Op::OPCLASS, #NAME, dst, src, ascendc_sim::CountLanes<T>(count), {}, {},           \
                       ascendc_sim::lane::NAME<T>{scalar}, loc);                                                       \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true>                                                                         \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                           \
                       const typename ascendc_sim::Identity<T>::type& scalar, uint64_t mask, const uint8_t repeatTime, \
                       const UnaryRepeatParams& p, ASCENDC_SIM_LOC) {                                                  \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc)                      \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                             \
    ascendc_sim::Unary(ascendc_sim::Op::OPCLASS, #NAME, dst, src, l, ascendc_sim::DstStride(p),                        \
                       ascendc_sim::SrcStride(p), ascendc_sim::lane::NAME<T>{scalar}, loc);                            \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true>                                                                         \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                           \
                       const typename ascendc_sim::Identity<T>::type& scalar, const uint64_t mask[],                   \
                       const uint8_t repeatTime, const UnaryRepeatParams& p, ASCENDC_SIM_LOC) {                        \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::MaskLanes<T>(mask, repeatTime, loc)                                \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                             \
    ascendc_sim::Unary(ascendc_sim::Op::OPCLASS, #NAME, dst, src, l, ascendc_sim::DstStride(p),                        \
                       ascendc_sim::SrcStride(p), ascendc_sim::lane::NAME<T>{scalar}, loc);                            \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true, typename R>                                                             \
  __aicore__ R NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar, const int32_t& count) {     \
    return NAME<T>(dst, src, scalar, count, ascendc_sim::SrcLoc::ThroughAddress());                                    \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true, typename R>                                                             \
  __aicore__ R NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar, uint64_t mask,              \
                    const uint8_t repeatTime, const UnaryRepeatParams& p) {                                            \
    return NAME<T, isSetMask>(dst, src, scalar, mask, repeatTime, p, ascendc_sim::SrcLoc::ThroughAddress());           \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true, typename R>                                                             \
  __aicore__ R NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar, uint64_t mask[],            \
                    const uint8_t repeatTime, const UnaryRepeatParams& p) {                                            \
    return NAME<T, isSetMask>(dst, src, scalar, static_cast<const uint64_t*>(mask), repeatTime, p,                     \
                              ascendc_sim::SrcLoc::ThroughAddress());                                                  \
  }                                                                                                                    \
  }

ASCENDC_SIM_VEC_SCALAR(Adds, kVecUnary, ascendc_sim::lane::Plus(a, s))
ASCENDC_SIM_VEC_SCALAR(Muls, kVecUnary, ascendc_sim::lane::Times(a, s))
ASCENDC_SIM_VEC_SCALAR(Maxs, kVecUnary, a > s ? a : s)
ASCENDC_SIM_VEC_SCALAR(Mins, kVecUnary, a < s ? a : s)
ASCENDC_SIM_VEC_SCALAR(LeakyRelu, kVecUnary, a >= T(0) ? a : a * s)
// Shifted as unsigned bits (two's complement, as the vector unit does): a negative a << s is UB in C++17.
ASCENDC_SIM_VEC_SCALAR(ShiftLeft, kVecUnary, static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(a)) << s)
ASCENDC_SIM_VEC_SCALAR(ShiftRight, kVecUnary, a >> s)  // arithmetic for signed types, logical for unsigned

// ---- unary: dst = f(src) ----------------------------------------------------------------------
#define ASCENDC_SIM_UNARY(NAME, OPCLASS, EXPR)                                                                        \
  namespace ascendc_sim::lane {                                                                                       \
  struct NAME {                                                                                                       \
    template <typename T>                                                                                             \
    T operator()(T a) const {                                                                                         \
      return static_cast<T>(EXPR);                                                                                    \
    }                                                                                                                 \
  };                                                                                                                  \
  }                                                                                                                   \
  namespace AscendC {                                                                                                 \
  template <typename T>                                                                                               \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count, ASCENDC_SIM_LOC) { \
    ascendc_sim::Unary(ascendc_sim::Op::OPCLASS, #NAME, dst, src, ascendc_sim::CountLanes<T>(count), {}, {},          \
                       ascendc_sim::lane::NAME{}, loc);                                                               \
  }                                                                                                                   \
  template <typename T, bool isSetMask = true>                                                                        \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, const uint8_t repeatTime, \
                       const UnaryRepeatParams& p, ASCENDC_SIM_LOC) {                                                 \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc)                     \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                            \
    ascendc_sim::Unary(ascendc_sim::Op::OPCLASS, #NAME, dst, src, l, ascendc_sim::DstStride(p),                       \
                       ascendc_sim::SrcStride(p), ascendc_sim::lane::NAME{}, loc);                                    \
  }                                                                                                                   \
  template <typename T, bool isSetMask = true>                                                                        \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],                   \
                       const uint8_t repeatTime, const UnaryRepeatParams& p, ASCENDC_SIM_LOC) {                       \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::MaskLanes<T>(mask, repeatTime, loc)                               \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                            \
    ascendc_sim::Unary(ascendc_sim::Op::OPCLASS, #NAME, dst, src, l, ascendc_sim::DstStride(p),                       \
                       ascendc_sim::SrcStride(p), ascendc_sim::lane::NAME{}, loc);                                    \
  }                                                                                                                   \
  template <typename T, typename R>                                                                                   \
  __aicore__ R NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {                     \
    return NAME<T>(dst, src, count, ascendc_sim::SrcLoc::ThroughAddress());                                           \
  }                                                                                                                   \
  template <typename T, bool isSetMask = true, typename R>                                                            \
  __aicore__ R NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, const uint8_t repeatTime,    \
                    const UnaryRepeatParams& p) {                                                                     \
    return NAME<T, isSetMask>(dst, src, mask, repeatTime, p, ascendc_sim::SrcLoc::ThroughAddress());                  \
  }                                                                                                                   \
  template <typename T, bool isSetMask = true, typename R>                                                            \
  __aicore__ R NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask[], const uint8_t repeatTime,  \
                    const UnaryRepeatParams& p) {                                                                     \
    return NAME<T, isSetMask>(dst, src, static_cast<const uint64_t*>(mask), repeatTime, p,                            \
                              ascendc_sim::SrcLoc::ThroughAddress());                                                 \
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
ASCENDC_SIM_UNARY(Not, kVecUnary, ~a)

namespace AscendC {

// ---- Duplicate: dst = scalar ------------------------------------------------------------------
template <typename T>
__aicore__ void Duplicate(const LocalTensor<T>& dst, const typename ascendc_sim::Identity<T>::type& scalar,
                          const int32_t& count, ASCENDC_SIM_LOC) {
  ascendc_sim::Fill(
      ascendc_sim::Op::kVecUnary, "Duplicate", dst, ascendc_sim::CountLanes<T>(count), {},
      [v = static_cast<T>(scalar)](uint64_t) { return v; }, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ void Duplicate(const LocalTensor<T>& dst, const typename ascendc_sim::Identity<T>::type& scalar,
                          uint64_t mask, const uint8_t repeatTime, const uint16_t dstBlockStride,
                          const uint8_t dstRepeatStride, ASCENDC_SIM_LOC) {
  ascendc_sim::Lanes l = isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc)
                                   : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);
  ascendc_sim::Fill(
      ascendc_sim::Op::kVecUnary, "Duplicate", dst, l, {dstBlockStride, dstRepeatStride},
      [v = static_cast<T>(scalar)](uint64_t) { return v; }, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ void Duplicate(const LocalTensor<T>& dst, const typename ascendc_sim::Identity<T>::type& scalar,
                          const uint64_t mask[], const uint8_t repeatTime, const uint16_t dstBlockStride,
                          const uint8_t dstRepeatStride, ASCENDC_SIM_LOC) {
  ascendc_sim::Lanes l =
      isSetMask ? ascendc_sim::MaskLanes<T>(mask, repeatTime, loc) : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);
  ascendc_sim::Fill(
      ascendc_sim::Op::kVecUnary, "Duplicate", dst, l, {dstBlockStride, dstRepeatStride},
      [v = static_cast<T>(scalar)](uint64_t) { return v; }, loc);
}

// The library's internal forms on a raw `__ubuf__` pointer (kernel_operator_vec_duplicate_impl.h),
// which some kernels call directly: the same instruction as the tensor forms.
template <typename T>
__aicore__ inline void DuplicateImpl(__ubuf__ T* dst, const T& scalar, const int32_t& count, ASCENDC_SIM_LOC) {
  Duplicate(UbTensorAt(dst, static_cast<uint32_t>(count), TPosition::VECCALC, loc), scalar, count, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void DuplicateImpl(__ubuf__ T* dst, const T& scalar, uint64_t mask, const uint8_t repeatTime,
                                     const uint16_t dstBlockStride, const uint8_t dstRepeatStride, ASCENDC_SIM_LOC) {
  const uint32_t span = (repeatTime * dstRepeatStride + 8u * dstBlockStride) * (32u / sizeof(T));
  Duplicate<T, isSetMask>(UbTensorAt(dst, span, TPosition::VECCALC, loc), scalar, mask, repeatTime, dstBlockStride,
                          dstRepeatStride, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void DuplicateImpl(__ubuf__ T* dst, const T& scalar, uint64_t mask[], const uint8_t repeatTime,
                                     const uint16_t dstBlockStride, const uint8_t dstRepeatStride, ASCENDC_SIM_LOC) {
  const uint32_t span = (repeatTime * dstRepeatStride + 8u * dstBlockStride) * (32u / sizeof(T));
  Duplicate<T, isSetMask>(UbTensorAt(dst, span, TPosition::VECCALC, loc), scalar, mask, repeatTime, dstBlockStride,
                          dstRepeatStride, loc);
}

// ---- Copy: vector UB -> UB copy, mask + repeats (docs/ascendc.md API 6: Copy) -------------------------
// Strides in 32 B blocks as for the unary family: dst/src block stride, dst/src repeat size.
template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,
                            const uint8_t repeatTime, const CopyRepeatParams& p, ASCENDC_SIM_LOC) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Copy: 16- or 32-bit elements");
  const ascendc_sim::Lanes l =
      ascendc_sim::CopyLanes<T>(isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc)
                                          : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc),
                                repeatTime, loc);
  ascendc_sim::Unary(
      ascendc_sim::Op::kVecUnary, "Copy", dst, src, l, {p.dstStride, p.dstRepeatSize}, {p.srcStride, p.srcRepeatSize},
      [](T x) { return x; }, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                            const uint8_t repeatTime, const CopyRepeatParams& p, ASCENDC_SIM_LOC) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Copy: 16- or 32-bit elements");
  const ascendc_sim::Lanes l = ascendc_sim::CopyLanes<T>(
      isSetMask ? ascendc_sim::MaskLanes<T>(mask, repeatTime, loc) : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc),
      repeatTime, loc);
  ascendc_sim::Unary(
      ascendc_sim::Op::kVecUnary, "Copy", dst, src, l, {p.dstStride, p.dstRepeatSize}, {p.srcStride, p.srcRepeatSize},
      [](T x) { return x; }, loc);
}

// ---- Axpy: dst += src * scalar (dst may be float with a half source) --------------------------
template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalar, const int32_t& count,
                            ASCENDC_SIM_LOC) {
  static_assert(std::is_same_v<T, U> || (std::is_same_v<T, float> && std::is_same_v<U, half>),
                "Axpy: T == U or float += half");
  ascendc_sim::Binary<true>(
      ascendc_sim::Op::kVecFma, "Axpy", dst, src, src, ascendc_sim::CountLanes<T>(count), {}, {}, {},
      [s = scalar](U x, U, T d) { return static_cast<T>(static_cast<T>(static_cast<T>(x) * static_cast<T>(s)) + d); },
      loc);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalar, uint64_t mask,
                            const uint8_t repeatTime, const UnaryRepeatParams& p, ASCENDC_SIM_LOC) {
  ascendc_sim::Lanes l = isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc)
                                   : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);
  ascendc_sim::Binary<true>(
      ascendc_sim::Op::kVecFma, "Axpy", dst, src, src, l, ascendc_sim::DstStride(p), ascendc_sim::SrcStride(p),
      ascendc_sim::SrcStride(p),
      [s = scalar](U x, U, T d) { return static_cast<T>(static_cast<T>(static_cast<T>(x) * static_cast<T>(s)) + d); },
      loc);
}

// ---- CreateVecIndex: dst[i] = first + i ----------------------------------------------------------
template <typename T>
__aicore__ inline void CreateVecIndex(const LocalTensor<T>& dst, const T& firstValue, uint32_t count, ASCENDC_SIM_LOC) {
  ascendc_sim::Fill(
      ascendc_sim::Op::kVecIndex, "CreateVecIndex", dst, ascendc_sim::CountLanes<T>(count), {},
      [f = firstValue](uint64_t i) { return static_cast<T>(static_cast<double>(f) + static_cast<double>(i)); }, loc);
}

// ---- Brcb: each source element fills one 32 B block of dst; 8 elements per repeat -------------
template <typename T>
__aicore__ inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t repeatTime,
                            const BrcbRepeatParams& p, ASCENDC_SIM_LOC) {
  constexpr uint32_t perBlock = 32 / sizeof(T);
  const ascendc_sim::Lanes l = ascendc_sim::EveryLane<T>(repeatTime);
  const ascendc_sim::Stride sd = ascendc_sim::Blocks<T>({p.dstBlkStride, p.dstRepStride});
  ascendc_sim::IssueVector(ascendc_sim::Op::kVecIndex, "Brcb", l, {{dst.UbAddr(), dst.GetSize(), sizeof(T), sd, true}},
                           sizeof(T), loc, {{src.UbAddr(), static_cast<uint32_t>(repeatTime * 8 * sizeof(T)), false}});
  ASCENDC_SIM_CHECK(repeatTime * 8u <= src.GetSize(), loc, "Brcb: %u repeats read %u elements of a %u-element source",
                    repeatTime, repeatTime * 8u, src.GetSize());
  T* d = ascendc_sim::HostData(dst);
  const T* x = ascendc_sim::HostData(src);
  for (uint32_t r = 0; r < repeatTime; ++r)
    for (uint32_t e = 0; e < l.perRepeat; ++e) d[l.Offset(r, e, sd)] = x[r * 8 + e / perBlock];
}

// ---- Gatherb: whole 32 B blocks of src at the byte offsets `offset` holds, 8 blocks a repeat ------
template <typename T>
__aicore__ inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                               const LocalTensor<uint32_t>& offset, const uint8_t repeatTime,
                               const GatherRepeatParams& p, ASCENDC_SIM_LOC) {
  static_assert(std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t>, "Gatherb on the A2: uint16_t or uint32_t");
  constexpr uint32_t perBlock = 32 / sizeof(T);
  const ascendc_sim::Lanes l = ascendc_sim::EveryLane<T>(repeatTime);
  const uint16_t blk = p.dstBlkStride == 0 ? 1 : p.dstBlkStride;  // 0 is taken as 1 (documented)
  const ascendc_sim::Stride sd = ascendc_sim::Blocks<T>({blk, p.dstRepStride});
  ASCENDC_SIM_CHECK(repeatTime * 8u <= offset.GetSize(), loc,
                    "Gatherb: %u repeats read %u offsets of a %u-element offset tensor", repeatTime, repeatTime * 8u,
                    offset.GetSize());
  // Each block must lie inside the UB, 32 B aligned (src's address plus its offset); the device
  // reads past src's own elements, which is tolerated with a warning.
  const uint32_t* off = ascendc_sim::HostData(offset);
  const uint32_t ubBytes = ascendc_sim::CurrentCore().Local().Size(ascendc_sim::LocalBuf::kUB);
  uint64_t reach = 0;
  for (uint32_t k = 0; k < repeatTime * 8u; ++k) {
    const uint64_t at = static_cast<uint64_t>(src.UbAddr()) + off[k];
    ASCENDC_SIM_CHECK(at % 32 == 0 && at + 32 <= ubBytes, loc,
                      "Gatherb: offset %u B of block %u is not 32 B aligned or runs past the end of the UB", off[k], k);
    reach = std::max<uint64_t>(reach, off[k] + 32ull);
  }
  if (reach > src.GetLength())
    ascendc_sim::DeviceTolerated(loc, "Gatherb: blocks reach %llu B past src, whose tensor has %u B",
                                 static_cast<unsigned long long>(reach), src.GetLength());
  // Charged as Brcb, a block a lane group (no device measurement: pto-isa's vgatherb is its
  // unfitted default line); Gather's per-lane UB reads (kVecGather) do not apply.
  ascendc_sim::IssueVector(ascendc_sim::Op::kVecIndex, "Gatherb", l,
                           {{dst.UbAddr(), dst.GetSize(), sizeof(T), sd, true}}, sizeof(T), loc,
                           {{offset.UbAddr(), static_cast<uint32_t>(repeatTime * 8 * sizeof(uint32_t)), false},
                            {src.UbAddr(), static_cast<uint32_t>(std::max<uint64_t>(reach, src.GetLength())), false}});
  T* d = ascendc_sim::HostData(dst);
  const uint8_t* x = reinterpret_cast<const uint8_t*>(ascendc_sim::HostData(src));
  for (uint32_t r = 0; r < repeatTime; ++r)
    for (uint32_t b = 0; b < 8; ++b) std::memcpy(&d[l.Offset(r, b * perBlock, sd)], x + off[r * 8 + b], 32);
}

// ---- Gather: dst[i] = *(src + base + offsets[i]) with byte offsets ----------------------------
template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& offsets, const uint32_t srcBaseAddr, const uint32_t count,
                              ASCENDC_SIM_LOC) {
  // The A2 library adds src's address and srcBaseAddr into the one base address vgather takes
  // (dav_c220 kernel_operator_vec_gather_impl.h): a src off the 32 B grid the documentation asks
  // for gathers as the aligned src with a larger srcBaseAddr, which needs element alignment only.
  const uint32_t srcAddr = src.UbAddr();
  ASCENDC_SIM_CHECK(srcAddr % sizeof(T) == 0, loc,
                    "Gather: src at UB address %u is not aligned to its %zu-byte elements", srcAddr, sizeof(T));
  ASCENDC_SIM_WARN_UNLESS(srcAddr % 32 == 0, loc,
                          "Gather: src at UB address %u is not 32 B aligned (the A2 adds it to srcBaseAddr and runs)",
                          srcAddr);
  ascendc_sim::Lanes l = ascendc_sim::CountLanes<T>(count);
  ascendc_sim::IssueVector(ascendc_sim::Op::kVecGather, "Gather", l,
                           {{dst.UbAddr(), dst.GetSize(), sizeof(T), {}, true},
                            {offsets.UbAddr(), offsets.GetSize(), sizeof(uint32_t), {}, false}},
                           sizeof(T), loc, {{srcAddr / 32 * 32, src.GetLength() + srcAddr % 32, false}});
  T* d = ascendc_sim::HostData(dst);
  const uint32_t* off = ascendc_sim::HostData(offsets);
  const uint8_t* base = reinterpret_cast<const uint8_t*>(ascendc_sim::HostData(src)) + srcBaseAddr;
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t byte = static_cast<uint64_t>(srcBaseAddr) + off[i];
    ASCENDC_SIM_CHECK(off[i] % sizeof(T) == 0 && byte + sizeof(T) <= src.GetLength(), loc,
                      "Gather: offset %u B of lane %u is misaligned or outside the %u-byte source", off[i], i,
                      src.GetLength());
    std::memcpy(&d[i], base + off[i], sizeof(T));
  }
}

// ---- Transpose: one 16 x 16 matrix of 2-byte elements (512 B), dst[j][i] = src[i][j] ----------
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, ASCENDC_SIM_LOC) {
  static_assert(sizeof(T) == 2, "Transpose (16 x 16) takes half, int16_t or uint16_t");
  ASCENDC_SIM_CHECK(dst.GetSize() >= 256 && src.GetSize() >= 256, loc,
                    "Transpose: needs 256 elements in each operand, dst has %u and src %u", dst.GetSize(),
                    src.GetSize());
  ascendc_sim::Lanes l = ascendc_sim::CountLanes<T>(256);
  ascendc_sim::IssueVector(
      ascendc_sim::Op::kVecUnary, "Transpose", l,
      {{dst.UbAddr(), dst.GetSize(), sizeof(T), {}, true}, {src.UbAddr(), src.GetSize(), sizeof(T), {}, false}},
      sizeof(T), loc);
  T tmp[256];  // dst may alias src
  const T* x = ascendc_sim::HostData(src);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) tmp[j * 16 + i] = x[i * 16 + j];
  std::memcpy(ascendc_sim::HostData(dst), tmp, sizeof(tmp));
}

}  // namespace AscendC
