// The op base's host half type (opbase's util/fp16.h): Ops::Base::fp16_t, IEEE binary16 bits in
// `val`, converted to and from float with round-to-nearest-even.
#pragma once

#include <cstdint>
#include <cstring>

namespace Ops {
namespace Base {

struct fp16_t {
  uint16_t val = 0;
  fp16_t() = default;
  fp16_t(float f) {  // NOLINT: implicit, as the op base's
    const _Float16 h = static_cast<_Float16>(f);
    std::memcpy(&val, &h, sizeof(val));
  }
  fp16_t(double d) : fp16_t(static_cast<float>(d)) {}
  fp16_t(int32_t i) : fp16_t(static_cast<float>(i)) {}
  operator float() const {
    _Float16 h;
    std::memcpy(&h, &val, sizeof(h));
    return static_cast<float>(h);
  }
  float ToFloat() const { return static_cast<float>(*this); }
};

}  // namespace Base
}  // namespace Ops
