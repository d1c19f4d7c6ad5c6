// Integer helpers of the CANN op base (opbase's op_common/op_host/util/math_util.h): both
// operands of one type, as there; a zero divisor returns x (division) or 0 (alignment).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
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

// The largest power of two not above n (1 for n = 0).
inline uint64_t LastPow2(uint64_t n) {
  uint64_t p = 1;
  while (p <= n / 2) p *= 2;
  return p;
}

// MurmurHash3 (x86, 32-bit) as the op base computes it: 4-byte little-endian words, then the
// srcLen % 4 tail bytes, which its implementation reads from the start of src, then the finalizer.
inline uint32_t MurmurHash(const void* src, uint32_t srcLen, uint32_t seed = 271828) {
  const auto* bytes = static_cast<const uint8_t*>(src);
  const auto rotl = [](uint32_t x, int r) { return (x << r) | (x >> (32 - r)); };
  const auto scramble = [&](uint32_t k) { return rotl(k * 0xcc9e2d51u, 15) * 0x1b873593u; };
  uint32_t h = seed;
  for (uint32_t i = 0; i + 4 <= srcLen; i += 4) {
    uint32_t k;
    std::memcpy(&k, bytes + i, 4);
    h = rotl(h ^ scramble(k), 13) * 5 + 0xe6546b64u;
  }
  uint32_t tail = 0;
  for (uint32_t i = srcLen % 4; i > 0; --i) tail = (tail << 8) | bytes[i - 1];
  h ^= scramble(tail) ^ srcLen;
  h = (h ^ (h >> 16)) * 0x85ebca6bu;
  h = (h ^ (h >> 13)) * 0xc2b2ae35u;
  return h ^ (h >> 16);
}

// A length split into splitCount pieces of splitFactor, the last of splitTailFactor.
struct SplitResult {
  int32_t splitCount = 0;
  int64_t splitFactor = 0;
  int64_t splitTailFactor = 0;
};

// At most `parts` pieces as equal as the length allows; false for a non-positive argument.
inline bool SplitIntoEqualByParts(int64_t splitLen, int32_t parts, SplitResult& r) {
  if (splitLen <= 0 || parts <= 0) return false;
  r.splitFactor = CeilDiv(splitLen, std::min<int64_t>(splitLen, parts));
  r.splitCount = static_cast<int32_t>(CeilDiv(splitLen, r.splitFactor));
  r.splitTailFactor = splitLen % r.splitFactor == 0 ? r.splitFactor : splitLen % r.splitFactor;
  return true;
}

// Pieces of `factor` (the whole length when shorter); splitFactor reads 0 when one piece is all.
inline bool SplitIntoEqualByFactor(int64_t splitLen, int32_t factor, SplitResult& r) {
  if (splitLen <= 0 || factor <= 0) return false;
  const int64_t piece = std::min<int64_t>(splitLen, factor);
  r.splitCount = static_cast<int32_t>(CeilDiv(splitLen, piece));
  r.splitTailFactor = splitLen % piece == 0 ? piece : splitLen % piece;
  r.splitFactor = r.splitCount == 1 ? 0 : piece;
  return true;
}
}  // namespace Base
}  // namespace Ops
