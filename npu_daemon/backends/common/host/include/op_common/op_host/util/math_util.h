// Integer helpers of the CANN op base (opbase's op_common/op_host/util/math_util.h): both
// operands of one type, as there; a zero divisor returns x (division) or 0 (alignment).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace Ops {
namespace Base {

template <typename T>
auto FloorDiv(T x, T y) -> std::enable_if_t<std::is_integral_v<T>, T> {
  return y == 0 ? x : x / y;
}

template <typename T>
auto FloorAlign(T x, T align) -> std::enable_if_t<std::is_integral_v<T>, T> {
  return align == 0 ? 0 : x / align * align;
}

// Rounds towards +infinity for either sign.
template <typename T>
auto CeilDiv(T x, T y) -> std::enable_if_t<std::is_integral_v<T>, T> {
  if (y == 0 || x == 0) return x;
  const T q = x / y;
  bool up = x % y != 0;
  if constexpr (std::is_signed_v<T>) up = up && ((x ^ y) >= 0);
  return up ? q + 1 : q;
}

// Saturates at the type's maximum where the aligned value would overflow.
template <typename T>
auto CeilAlign(T x, T align) -> std::enable_if_t<std::is_integral_v<T>, T> {
  if (align == 0) return 0;
  const T div = CeilDiv(x, align);
  return div > std::numeric_limits<T>::max() / align ? std::numeric_limits<T>::max() : div * align;
}

template <typename T>
auto IsFloatEqual(T a, T b) -> std::enable_if_t<std::is_floating_point_v<T>, bool> {
  if (std::isnan(a) || std::isnan(b)) return false;
  if (std::isinf(a) || std::isinf(b)) return std::signbit(a) == std::signbit(b);
  return std::fabs(a - b) <= std::numeric_limits<T>::epsilon();
}

}  // namespace Base
}  // namespace Ops
