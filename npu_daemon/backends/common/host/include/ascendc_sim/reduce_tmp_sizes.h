// The sharedTmpBuffer sizes of the pattern reductions (ReduceSum/Mean/Max/Min/Prod/Any/All over a
// [first, last] shape, AR or RA) as asc-devkit's A2 reduce_tiling.cpp computes them, its maximum
// and minimum one number: one definition for the host helpers (host_reduce_tiling.h) and the kernel
// side, which refuses a buffer under it and takes a buffer as written only up to it, so what a
// kernel keeps past it stays its own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace ascendc_sim::reduce_tmp {

// The largest power of two at most n (1 for n <= 1), halved when it is n itself and `halve`.
inline uint32_t Split(uint32_t n, bool halve) {
  uint32_t k = 1;
  for (uint32_t m = n; m > 1; m >>= 1) k <<= 1;
  return k == n && halve ? k >> 1 : k;
}
inline uint32_t Align32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

// ReduceMax / Min / Any / All of float or half: per row one repeat (or block) of the type; RA
// pairs rows. With isReuseSource the library keeps its values in the source: none.
inline uint32_t Common(bool ar, uint32_t first, uint32_t last, uint32_t size, bool reuse) {
  if (reuse) return 0;
  const uint32_t perBlock = 32 / size, perRepeat = 256 / size;
  if (ar) return last <= perBlock ? 0 : first * (last < perRepeat ? perBlock : perRepeat) * size;
  return Split(first, first > 1) * Align32(last * size);
}

// ReduceSum / Mean (float): a binary split of the reduced axis in float.
inline uint32_t SumMean(bool ar, uint32_t first, uint32_t last, bool reuse) {
  if (reuse) return 0;
  if (ar) return last <= 64 ? 0 : first * Split(last, first > 1) * 4;
  return Split(first, first > 1) * ((last + 7) / 8 * 8) * 4;
}

// ReduceAny / All of uint8: a uint16 copy of a row plus a block per row (AR); RA as Common in bytes.
inline uint32_t AnyAllU8(bool ar, uint32_t first, uint32_t last, bool reuse) {
  if (ar) return Align32(last) * 2 + first * 32;
  return reuse ? 0 : Split(first, first > 1) * Align32(last);
}

// ReduceProd (float): AR keeps a block-aligned split, a block per row and one repeat.
inline uint32_t Prod(bool ar, uint32_t first, uint32_t last, bool reuse) {
  if (reuse) return ar ? 256 : 0;
  if (ar) return (std::max<uint32_t>(Split(last, first > 1), 8) + first * 8) * 4 + 256;
  return Split(first, first > 1) * Align32(last * 4);
}

// The maximum of the reduction the emulation records as `api` over elements of `size` bytes.
inline uint32_t MaxBytes(const char* api, bool ar, uint32_t first, uint32_t last, uint32_t size, bool reuse) {
  if (std::strcmp(api, "ReduceSum") == 0 || std::strcmp(api, "ReduceMean") == 0) return SumMean(ar, first, last, reuse);
  if (std::strcmp(api, "ReduceProd") == 0) return Prod(ar, first, last, reuse);
  const bool anyAll = std::strcmp(api, "ReduceAny") == 0 || std::strcmp(api, "ReduceAll") == 0;
  if (anyAll && size == 1) return AnyAllU8(ar, first, last, reuse);
  return Common(ar, first, last, size, reuse);
}

// The host helper that gives the size of `api`, for a kernel's error message.
inline const char* Helper(const char* api) {
  static constexpr const char* kHelpers[][2] = {
      {"ReduceSum", "GetReduceSumMaxMinTmpSize"},   {"ReduceMean", "GetReduceMeanMaxMinTmpSize"},
      {"ReduceMax", "GetReduceMaxMaxMinTmpSize"},   {"ReduceMin", "GetReduceMinMaxMinTmpSize"},
      {"ReduceProd", "GetReduceProdMaxMinTmpSize"}, {"ReduceAny", "GetReduceAnyMaxMinTmpSize"},
      {"ReduceAll", "GetReduceAllMaxMinTmpSize"},
  };
  for (const auto& h : kHelpers)
    if (std::strcmp(api, h[0]) == 0) return h[1];
  return "its host helper";
}

}  // namespace ascendc_sim::reduce_tmp
