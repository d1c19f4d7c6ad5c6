// Cast with every RoundMode on the conversion pairs Atlas A2 supports, and between float and Ascend
// 950's one-byte floats (ascendc_sim/fp8.h, CheckFp8Round); any other pair fails to
// compile with a static_assert naming it.
//
// Rounding is computed exactly: the value is held in long double (exact for every source type),
// the round-to-nearest-even neighbour in the target type is found, and the mode picks between the
// two target values that bracket the exact value. CAST_NONE rounds like CAST_RINT when the
// conversion loses precision and is exact otherwise; CAST_ODD (float -> half) picks the neighbour
// with an odd last mantissa bit. Float -> integer conversions saturate; NaN becomes 0.
// float -> float with a mode rounds to an integral value (what Floor/Ceil/Round build on).
#pragma once

#include "ascendc_sim/vec_elementwise.h"

namespace AscendC {
enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };
}  // namespace AscendC

namespace ascendc_sim {

template <typename D, typename S>
constexpr bool CastSupported() {
  using std::is_same_v;
  if constexpr (is_same_v<S, half>)
    return is_same_v<D, float> || is_same_v<D, int32_t> || is_same_v<D, int16_t> || is_same_v<D, int8_t> ||
           is_same_v<D, uint8_t> || is_same_v<D, AscendC::int4b_t>;
  else if constexpr (is_same_v<S, float>)
    return is_same_v<D, half> || is_same_v<D, float> || is_same_v<D, int32_t> || is_same_v<D, int16_t> ||
           is_same_v<D, int64_t> || is_same_v<D, bfloat16_t> || is_same_v<D, fp8_e4m3fn_t> ||
           is_same_v<D, fp8_e5m2_t> || is_same_v<D, hifloat8_t>;
  else if constexpr (kFp8<S>)  // Ascend 950's one-byte floats widen to float exactly
    return is_same_v<D, float>;
  else if constexpr (is_same_v<S, bfloat16_t>)
    return is_same_v<D, float> || is_same_v<D, int32_t>;
  else if constexpr (is_same_v<S, int32_t>)
    return is_same_v<D, float> || is_same_v<D, int16_t> || is_same_v<D, int64_t> || is_same_v<D, half>;
  else if constexpr (is_same_v<S, int16_t>)
    return is_same_v<D, float> || is_same_v<D, half>;
  else if constexpr (is_same_v<S, int64_t>)
    return is_same_v<D, float> || is_same_v<D, int32_t>;
  else if constexpr (is_same_v<S, int8_t> || is_same_v<S, uint8_t> || is_same_v<S, AscendC::int4b_t>)
    return is_same_v<D, half>;
  return false;
}

// Bit-level neighbours of a finite-or-infinite floating value in type F.
template <typename F>
F Step(F v, bool up) {
  if constexpr (std::is_same_v<F, float>) {
    return std::nextafter(v, up ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity());
  } else {
    uint16_t b;
    std::memcpy(&b, &v, 2);
    const bool neg = b & 0x8000u;
    if ((b & 0x7fffu) == 0)
      b = up ? 0x0001 : 0x8001;  // from +-0 to the smallest subnormal
    else if (neg == up)
      b = static_cast<uint16_t>(b - 1);
    else
      b = static_cast<uint16_t>(b + 1);
    F r;
    std::memcpy(&r, &b, 2);
    return r;
  }
}

template <typename F>
F NearestEven(long double v) {
  if constexpr (std::is_same_v<F, bfloat16_t>)
    return bfloat16_t(static_cast<float>(v));  // sources of bf16 are float
  else
    return static_cast<F>(v);
}

template <typename F>
bool OddMantissa(F v) {
  uint32_t b = 0;
  std::memcpy(&b, &v, sizeof(F));
  return b & 1u;
}

template <typename F>
F RoundFloat(long double v, AscendC::RoundMode m) {
  using AscendC::RoundMode;
  if (std::isnan(v)) return NearestEven<F>(v);
  const F c = NearestEven<F>(v);
  const long double cv = static_cast<long double>(static_cast<float>(c));
  if (cv == v || m == RoundMode::CAST_NONE || m == RoundMode::CAST_RINT) return c;
  const F lo = cv < v ? c : Step(c, false);
  const F hi = cv > v ? c : Step(c, true);
  const long double lov = static_cast<float>(lo), hiv = static_cast<float>(hi);
  switch (m) {
    case RoundMode::CAST_FLOOR:
      return lo;
    case RoundMode::CAST_CEIL:
      return hi;
    case RoundMode::CAST_TRUNC:
      return v > 0 ? lo : hi;
    case RoundMode::CAST_ROUND:
      return v - lov == hiv - v ? (v > 0 ? hi : lo) : c;
    case RoundMode::CAST_ODD:
      return OddMantissa(lo) ? lo : hi;
    default:
      return c;
  }
}

inline long double RoundIntegral(long double v, AscendC::RoundMode m) {
  using AscendC::RoundMode;
  switch (m) {
    case RoundMode::CAST_FLOOR:
      return std::floor(v);
    case RoundMode::CAST_CEIL:
      return std::ceil(v);
    case RoundMode::CAST_TRUNC:
      return std::trunc(v);
    case RoundMode::CAST_ROUND:
      return std::round(v);
    default:
      return std::nearbyint(v);  // round half to even in the default FP environment
  }
}

template <typename D, typename S>
D CastLane(S s, AscendC::RoundMode m) {
  if constexpr (std::is_same_v<D, half> && std::is_same_v<S, int32_t>)  // vconv_deq: the round mode is ignored
    return static_cast<half>(static_cast<float>(s) * CurrentCore().Registers().deqScale);
  long double v;
  if constexpr (std::is_same_v<S, bfloat16_t> || std::is_same_v<S, half> || kFp8<S>)
    v = static_cast<float>(s);
  else
    v = static_cast<long double>(s);
  if constexpr (kFp8<D>) {
    return D(static_cast<float>(v));  // the format's one rounding mode (CheckFp8Round)
  } else if constexpr (std::is_integral_v<D>) {
    if (std::isnan(v)) return 0;
    const long double r = RoundIntegral(v, m);
    if (r <= static_cast<long double>(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
    if (r >= static_cast<long double>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
    return static_cast<D>(r);
  } else if constexpr (std::is_same_v<D, S>) {
    return std::isfinite(v) ? static_cast<D>(RoundIntegral(v, m)) : s;  // float -> float: integral rounding
  } else {
    return RoundFloat<D>(v, m);
  }
}

}  // namespace ascendc_sim

namespace AscendC {

// The DEQSCALE register: the int32 -> half Cast computes half(src * scale).
__aicore__ inline void SetDeqScale(half scale) {
  ascendc_sim::CurrentCore().Registers().deqScale = static_cast<float>(scale);
  ascendc_sim::CurrentCore().Scalar(1);
}

}  // namespace AscendC

namespace ascendc_sim {
// float -> fp8_e4m3fn_t / fp8_e5m2_t rounds to nearest even (CAST_RINT; CAST_NONE is the same),
// float -> hifloat8_t to nearest away (CAST_ROUND): the modes Ascend 950 has besides saturation
// and HiFloat8's stochastic CAST_HYBRID, which are not emulated.
template <typename D>
void CheckFp8Round(AscendC::RoundMode mode, const SrcLoc& loc) {
  using AscendC::RoundMode;
  if constexpr (std::is_same_v<D, hifloat8_t>)
    ASCENDC_SIM_CHECK(mode == RoundMode::CAST_ROUND, loc, "Cast float -> hifloat8_t: only CAST_ROUND is emulated");
  else if constexpr (kFp8<D>)
    ASCENDC_SIM_CHECK(mode == RoundMode::CAST_RINT || mode == RoundMode::CAST_NONE, loc,
                      "Cast float -> fp8: only CAST_RINT (or CAST_NONE) is emulated");
}

// float -> float with CAST_NONE: the A2 library's CastIntrinsicsImpl has no instruction for it (only
// an assert, compiled away on the device), so nothing is issued and dst keeps what it held.
template <typename D, typename S>
bool CastIssuesNothing(AscendC::RoundMode mode, const SrcLoc& loc) {
  if constexpr (std::is_same_v<D, float> && std::is_same_v<S, float>) {
    if (mode == AscendC::RoundMode::CAST_NONE) {
      DeviceTolerated(loc,
                      "Cast float -> float with CAST_NONE issues no instruction on Atlas A2: dst is left as it was");
      return true;
    }
  }
  return false;
}

// half <-> int4b_t, count form (vconv_f162s4* / vconv_s42f16): lanes are half elements, the int4
// side packs two to a byte (element 2k in the low nibble). To int4 saturates to [-8, 7]; from
// int4 only CAST_NONE exists.
template <typename D, typename S>
void CastInt4(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src, AscendC::RoundMode mode,
              uint32_t count, const SrcLoc& loc) {
  constexpr bool kToInt4 = kHalfByte<D>;
  ASCENDC_SIM_CHECK(kToInt4 ? mode != AscendC::RoundMode::CAST_ODD : mode == AscendC::RoundMode::CAST_NONE, loc,
                    kToInt4 ? "Cast half -> int4b_t: CAST_ODD is not supported on Atlas A2"
                            : "Cast int4b_t -> half: only CAST_NONE is supported on Atlas A2");
  ASCENDC_SIM_CHECK(count % 2 == 0, loc, "Cast with int4b_t: count %u is odd (two elements share a byte)", count);
  const uint32_t halfBytes = count * 2, int4Bytes = count / 2;
  const bool srcIsHalf = kToInt4;
  IssueVector(Op::kVecCast, "Cast", CountLanes<half>(count), {}, 2, loc,
              {{src.UbAddr(), srcIsHalf ? halfBytes : int4Bytes, false},
               {dst.UbAddr(), srcIsHalf ? int4Bytes : halfBytes, true}});
  if constexpr (kToInt4) {
    const half* x = ascendc_sim::HostData(src);
    uint8_t* out = reinterpret_cast<uint8_t*>(ascendc_sim::HostData(dst));
    for (uint32_t i = 0; i < count; i += 2) {
      const auto nib = [&](uint32_t k) {
        return static_cast<uint8_t>(std::clamp<int>(CastLane<int16_t, half>(x[k], mode), -8, 7) & 0xf);
      };
      out[i / 2] = static_cast<uint8_t>(nib(i) | nib(i + 1) << 4);
    }
  } else {
    const uint8_t* in = reinterpret_cast<const uint8_t*>(ascendc_sim::HostData(src));
    half* d = ascendc_sim::HostData(dst);
    for (uint32_t i = 0; i < count; ++i)
      d[i] = static_cast<half>(static_cast<int8_t>(AscendC::int4b_t(static_cast<uint32_t>(in[i / 2] >> (i % 2 * 4)))));
  }
}

}  // namespace ascendc_sim

namespace AscendC {

template <typename D, typename S>
__aicore__ void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& mode, const uint32_t count,
                     ASCENDC_SIM_LOC) {
  static_assert(ascendc_sim::CastSupported<D, S>(),
                "Cast: this source -> destination pair is not supported on Atlas A2");
  if constexpr (ascendc_sim::kHalfByte<D> || ascendc_sim::kHalfByte<S>) {
    ascendc_sim::CastInt4(dst, src, mode, count, loc);
  } else {
    ascendc_sim::CheckFp8Round<D>(mode, loc);
    if (ascendc_sim::CastIssuesNothing<D, S>(mode, loc)) return;
    using W = std::conditional_t<(sizeof(D) > sizeof(S)), D, S>;
    ascendc_sim::Unary(
        ascendc_sim::Op::kVecCast, "Cast", dst, src, ascendc_sim::CountLanes<W>(count), {}, {},
        [mode](S s) { return ascendc_sim::CastLane<D, S>(s, mode); }, loc);
  }
}
template <typename D, typename S, bool isSetMask = true>
__aicore__ void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& mode, const uint64_t mask,
                     const uint8_t repeatTime, const UnaryRepeatParams& p, ASCENDC_SIM_LOC) {
  static_assert(ascendc_sim::CastSupported<D, S>(),
                "Cast: this source -> destination pair is not supported on Atlas A2");
  static_assert(!ascendc_sim::kHalfByte<D> && !ascendc_sim::kHalfByte<S>,
                "Cast with int4b_t: only the count form is emulated");
  ascendc_sim::CheckFp8Round<D>(mode, loc);
  if (ascendc_sim::CastIssuesNothing<D, S>(mode, loc)) return;
  using W = std::conditional_t<(sizeof(D) > sizeof(S)), D, S>;
  ascendc_sim::Lanes l = isSetMask ? ascendc_sim::ContinuousMaskLanes<W>(mask, repeatTime, loc)
                                   : ascendc_sim::RegisterMaskLanes<W>(repeatTime, loc);
  ascendc_sim::Unary(
      ascendc_sim::Op::kVecCast, "Cast", dst, src, l, ascendc_sim::DstStride(p), ascendc_sim::SrcStride(p),
      [mode](S s) { return ascendc_sim::CastLane<D, S>(s, mode); }, loc);
}
template <typename D, typename S, bool isSetMask = true>
__aicore__ void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& mode, const uint64_t mask[],
                     const uint8_t repeatTime, const UnaryRepeatParams& p, ASCENDC_SIM_LOC) {
  static_assert(ascendc_sim::CastSupported<D, S>(),
                "Cast: this source -> destination pair is not supported on Atlas A2");
  static_assert(!ascendc_sim::kHalfByte<D> && !ascendc_sim::kHalfByte<S>,
                "Cast with int4b_t: only the count form is emulated");
  ascendc_sim::CheckFp8Round<D>(mode, loc);
  if (ascendc_sim::CastIssuesNothing<D, S>(mode, loc)) return;
  using W = std::conditional_t<(sizeof(D) > sizeof(S)), D, S>;
  ascendc_sim::Lanes l =
      isSetMask ? ascendc_sim::MaskLanes<W>(mask, repeatTime, loc) : ascendc_sim::RegisterMaskLanes<W>(repeatTime, loc);
  ascendc_sim::Unary(
      ascendc_sim::Op::kVecCast, "Cast", dst, src, l, ascendc_sim::DstStride(p), ascendc_sim::SrcStride(p),
      [mode](S s) { return ascendc_sim::CastLane<D, S>(s, mode); }, loc);
}

}  // namespace AscendC

namespace AscendC {

// Scalar conversions (kernel_operator_scalar_intf.h), on the scalar unit: float -> half with
// CAST_ODD and float -> int32_t with CAST_ROUND / CAST_CEIL / CAST_FLOOR / CAST_RINT are the pairs
// the A2 documents. Any other mode, and any other 2-byte target (bfloat16_t), compiles on the
// device and returns 0 there (the library's CastImpl: an assert compiled away, then `return 0`).
template <typename T, typename U, RoundMode roundMode>
__aicore__ inline U Cast(T valueIn, ASCENDC_SIM_LOC) {
  static_assert(sizeof(U) == 2 || sizeof(U) == 4, "Cast: the scalar target is half or int32_t");
  constexpr bool kHalf = std::is_same_v<U, half> && roundMode == RoundMode::CAST_ODD;
  constexpr bool kInt =
      std::is_same_v<U, int32_t> && (roundMode == RoundMode::CAST_ROUND || roundMode == RoundMode::CAST_CEIL ||
                                     roundMode == RoundMode::CAST_FLOOR || roundMode == RoundMode::CAST_RINT);
  if constexpr (kHalf || kInt) {
    return ascendc_sim::CastLane<U, float>(static_cast<float>(valueIn), roundMode);
  } else {
    ascendc_sim::DeviceTolerated(
        loc, "scalar Cast to this type or with this RoundMode is not supported on Atlas A2: it returns 0");
    return U(0);
  }
}
// The former name of the scalar Cast.
template <typename T, typename U, RoundMode roundMode>
__aicore__ inline U ScalarCast(T valueIn, ASCENDC_SIM_LOC) {
  return Cast<T, U, roundMode>(valueIn, loc);
}
// float <-> bfloat16_t on the scalar unit; to bfloat16_t rounds to nearest even (CAST_RINT).
__aicore__ inline bfloat16_t Cast(const float& fVal) { return bfloat16_t(fVal); }
__aicore__ inline float Cast(const bfloat16_t& bVal) { return static_cast<float>(bVal); }

}  // namespace AscendC
