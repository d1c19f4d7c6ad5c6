// The one-byte floats of Ascend 950 (asc-devkit's fp8_e4m3fn_t, fp8_e5m2_t, fp8_e8m0_t and
// hifloat8_t): storage of a byte, converted through one codec per format. Both engines convert
// with these functions (the guest's types call them through an import), and the checker's Python
// side (npu_daemon/float8.py) decodes the same bytes to the same values.
//
// A codec is the decode table of its 256 bytes and its non-negative finite values in ascending
// order with their bytes; encoding picks the nearer of the two values that bracket |x|, a tie by
// the format's rule, and a value past the midpoint to where the byte after the largest would be
// overflows (OCP E4M3FN and E8M0 to NaN, E5M2 and HiFloat8 to inf), as ml_dtypes does.
//  - E4M3FN (bias 7, 3 mantissa bits, no inf, 0x7F NaN) and E5M2 (bias 15, 2 bits, IEEE-style inf
//    and NaN): nearest even (CAST_RINT).
//  - E8M0, the MX scale: 2^(b - 127), 0xFF NaN, no sign and no zero; nearest with a tie upwards,
//    anything not positive NaN, anything up to 2^-127 the least byte.
//  - HiFloat8 (arXiv 2409.16626): a sign, a prefix-coded dot field (11, 10, 01, 001, 0001: 4, 3, 2,
//    1, 0 exponent bits), the exponent in sign-magnitude with its leading 1 implied, the rest
//    mantissa; dot 0000 is the denormals 2^(m - 23). 0x00 zero, 0x80 NaN, 0x6F / 0xEF +-inf.
//    Nearest with ties away from zero (CAST_ROUND, asc_float2hif8's non-saturating "rna" mode).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace ascendc_sim {

enum class Fp8Format : uint8_t { kE4M3FN, kE5M2, kE8M0, kHiF8 };

struct Fp8Codec {
  std::array<float, 256> decode{};
  std::array<double, 129> sorted{};  // finite values >= 0 ascending, then the overflow point's
  std::array<uint8_t, 129> codes{};  // their bytes; the last, the overflow byte
  int n = 0;                         // entries of sorted, the overflow one included
  uint8_t nan = 0;
  bool tiesAway = false;
};

inline double HiF8Magnitude(uint32_t r) {
  if (r >> 3 == 0) return r == 0 ? 0.0 : std::ldexp(1.0, static_cast<int>(r & 7) - 23);  // dot 0000
  int dot, mbits;
  if (r >> 5) {  // dots 11, 10, 01
    dot = static_cast<int>(r >> 5) + 1;
    mbits = 5 - dot;
  } else {  // dots 001, 0001
    dot = r >> 4 ? 1 : 0;
    mbits = 3;
  }
  int exponent = 0;
  if (dot) {
    const uint32_t field = (r >> mbits) & ((1u << dot) - 1);
    const int magnitude = static_cast<int>((1u << (dot - 1)) | (field & ((1u << (dot - 1)) - 1)));
    exponent = field >> (dot - 1) ? -magnitude : magnitude;
  }
  return std::ldexp(1.0 + static_cast<double>(r & ((1u << mbits) - 1)) / (1 << mbits), exponent);
}

// An OCP float8 byte without its sign: `mbits` mantissa bits under the exponent, IEEE subnormals.
inline double OcpMagnitude(uint32_t r, int mbits, int bias) {
  const uint32_t e = r >> mbits, m = r & ((1u << mbits) - 1);
  const double frac = static_cast<double>(m) / (1 << mbits);
  return e == 0 ? std::ldexp(frac, 1 - bias) : std::ldexp(1.0 + frac, static_cast<int>(e) - bias);
}

inline Fp8Codec MakeCodec(Fp8Format f) {
  Fp8Codec c;
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  if (f == Fp8Format::kE8M0) {  // powers of two: encoded by E8M0FromFloat, not by a search
    for (uint32_t b = 0; b < 256; ++b)
      c.decode[b] = b == 0xFF ? nan : static_cast<float>(std::ldexp(1.0, static_cast<int>(b) - 127));
    c.nan = 0xFF;
    return c;
  }
  std::array<std::pair<double, uint8_t>, 128> finite{};
  int n = 0;
  for (uint32_t r = 0; r < 128; ++r) {
    double v;
    bool special;
    if (f == Fp8Format::kHiF8) {
      v = HiF8Magnitude(r), special = r == 0x6F;
    } else if (f == Fp8Format::kE4M3FN) {
      v = OcpMagnitude(r, 3, 7), special = r == 0x7F;
    } else {
      v = OcpMagnitude(r, 2, 15), special = r >= 0x7C;
    }
    if (!special) finite[n++] = {v, static_cast<uint8_t>(r)};
    const float value = special ? (f == Fp8Format::kE4M3FN || r > 0x7C ? nan : inf) : static_cast<float>(v);
    c.decode[r] = value;
    c.decode[r | 0x80] = -value;
  }
  double past;  // the value the byte after the largest finite one would have
  uint8_t overflow;
  if (f == Fp8Format::kHiF8) {
    c.decode[0x80] = nan;
    c.tiesAway = true, c.nan = 0x80, past = 49152.0, overflow = 0x6F;
  } else if (f == Fp8Format::kE4M3FN) {
    c.nan = 0x7F, past = 480.0, overflow = 0x7F;
  } else {
    c.nan = 0x7E, past = 65536.0, overflow = 0x7C;
  }
  std::sort(finite.begin(), finite.begin() + n);
  for (int i = 0; i < n; ++i) c.sorted[i] = finite[i].first, c.codes[i] = finite[i].second;
  c.sorted[n] = past, c.codes[n] = overflow, c.n = n + 1;
  return c;
}

inline const Fp8Codec& Codec(Fp8Format f) {
  static const std::array<Fp8Codec, 4> codecs = {MakeCodec(Fp8Format::kE4M3FN), MakeCodec(Fp8Format::kE5M2),
                                                 MakeCodec(Fp8Format::kE8M0), MakeCodec(Fp8Format::kHiF8)};
  return codecs[static_cast<int>(f)];
}

inline float Fp8ToFloat(Fp8Format f, uint8_t b) { return Codec(f).decode[b]; }

// E8M0's 255 finite values are exact powers of two: its byte is the exponent, rounded by the
// mantissa (a tie, 1.5 * 2^e, upwards).
inline uint8_t E8M0FromFloat(float x) {
  if (!(x > 0) || std::isinf(x)) return 0xFF;
  // float32's subnormals above 2^-127 go up to 2^-126, as ml_dtypes rounds them
  if (x < std::numeric_limits<float>::min()) return x > std::ldexp(1.0f, -127) ? 1 : 0;
  int e;
  const double m = std::frexp(static_cast<double>(x), &e);  // x = m * 2^e, m in [0.5, 1)
  const int exponent = (e - 1) + (m >= 0.75 ? 1 : 0);
  return exponent > 127 ? 0xFF : static_cast<uint8_t>(std::max(exponent, -127) + 127);
}

inline uint8_t Fp8FromFloat(Fp8Format f, float x) {
  if (f == Fp8Format::kE8M0) return E8M0FromFloat(x);
  const Fp8Codec& c = Codec(f);
  if (std::isnan(x)) return c.nan;
  const double a = std::fabs(static_cast<double>(x));
  const auto end = c.sorted.begin() + c.n;
  const int hi = static_cast<int>(std::lower_bound(c.sorted.begin(), end, a) - c.sorted.begin());
  uint8_t code;
  if (hi == c.n) {
    code = c.codes[c.n - 1];  // past the overflow point
  } else if (hi == 0) {
    code = c.codes[0];
  } else {
    const double below = a - c.sorted[hi - 1], above = c.sorted[hi] - a;
    const bool up = below > above || (below == above && (c.tiesAway || (c.codes[hi] & 1) == 0));
    code = c.codes[up ? hi : hi - 1];
  }
  if (std::signbit(x) && (f != Fp8Format::kHiF8 || code != 0)) code |= 0x80;  // HiFloat8 has no -0
  return code;
}

// The AscendC scalar type of a format: a byte, from float by the format's rounding, to float exact.
template <Fp8Format F>
struct Fp8 {
  static constexpr Fp8Format kFormat = F;
  uint8_t bits = 0;
  Fp8() = default;
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T> || std::is_same_v<T, half> ||
                                                    std::is_same_v<T, bfloat16_t>>>
  Fp8(T v) : bits(Fp8FromFloat(F, static_cast<float>(v))) {}
  static Fp8 FromBits(uint8_t b) {
    Fp8 r;
    r.bits = b;
    return r;
  }
  operator float() const { return Fp8ToFloat(F, bits); }
};

template <typename T>
constexpr bool kFp8 = false;
template <Fp8Format F>
constexpr bool kFp8<Fp8<F>> = true;

}  // namespace ascendc_sim

using fp8_e4m3fn_t = ascendc_sim::Fp8<ascendc_sim::Fp8Format::kE4M3FN>;
using fp8_e5m2_t = ascendc_sim::Fp8<ascendc_sim::Fp8Format::kE5M2>;
using fp8_e8m0_t = ascendc_sim::Fp8<ascendc_sim::Fp8Format::kE8M0>;
using hifloat8_t = ascendc_sim::Fp8<ascendc_sim::Fp8Format::kHiF8>;
