// The repository's tiling framework: one core's share of `total` elements, whole 32 B blocks.
#pragma once
#include <cstdint>

inline uint32_t RowShare(uint32_t total, uint32_t cores) {
  const uint32_t perCore = (total + cores - 1) / cores;
  return (perCore + 7) / 8 * 8;
}
