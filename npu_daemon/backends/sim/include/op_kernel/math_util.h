// Kernel-side integer helpers of the CANN op base (opbase's op_common/op_kernel/math_util.h): the
// ceiling forms add in a wider unsigned type (32-bit for 8- and 16-bit T, 64-bit otherwise) and
// cast back to T; no check of a zero divisor, as there.
#pragma once

#include <type_traits>

#include "kernel_operator.h"

namespace Ops {
namespace Base {
template <typename T>
using KernelMathWide = std::conditional_t<sizeof(T) <= sizeof(uint16_t), uint32_t, uint64_t>;

template <typename T>
__aicore__ inline T CeilDiv(T a, T b) {
  using W = KernelMathWide<T>;
  return static_cast<T>((static_cast<W>(a) + static_cast<W>(b) - 1) / static_cast<W>(b));
}

template <typename T>
__aicore__ inline T FloorDiv(T a, T b) {
  return a / b;
}

template <typename T>
__aicore__ inline T CeilAlign(T a, T b) {
  using W = KernelMathWide<T>;
  return static_cast<T>((static_cast<W>(a) + static_cast<W>(b) - 1) / static_cast<W>(b) * static_cast<W>(b));
}

template <typename T>
__aicore__ inline T FloorAlign(T a, T b) {
  return a / b * b;
}
}  // namespace Base
}  // namespace Ops
