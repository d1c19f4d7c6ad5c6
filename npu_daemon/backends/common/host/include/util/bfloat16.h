// The op base's host bfloat16 type (opbase's util/bfloat16.h): Ops::Base::bfloat16, the upper 16
// bits of a float in `value`; from float with round-to-nearest-even, a NaN becoming the quiet NaN
// 0x7fc0 (so rounding never turns it into an infinity).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace Ops {
namespace Base {

struct bfloat16 {
  uint16_t value = 0;

  bfloat16() = default;
  bfloat16(float f) : value(Round(f)) {}  // NOLINT: implicit, as the op base's
  template <class T>
  bfloat16(const T& v) : bfloat16(static_cast<float>(v)) {}  // NOLINT
  template <class T>
  bfloat16& operator=(T v) {
    value = Round(static_cast<float>(v));
    return *this;
  }

  operator float() const {
    const uint32_t bits = static_cast<uint32_t>(value) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
  }
  operator double() const { return static_cast<float>(*this); }
  operator int() const { return static_cast<int>(static_cast<float>(*this)); }
  float ToFloat() const { return static_cast<float>(*this); }
  bool IsZero() const { return (value & 0x7FFF) == 0; }

  static uint16_t Round(float f) {
    if (std::isnan(f)) return 0x7fc0;
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    bits += 0x7fff + ((bits >> 16) & 1);  // ties go to the even upper half
    return static_cast<uint16_t>(bits >> 16);
  }
};

}  // namespace Base
}  // namespace Ops
