// Elements per core, in whole 32-byte blocks of float; included as "common/demo_split.h".
#pragma once
#include <cstdint>

inline uint32_t DemoSplitPerCore(uint32_t total, uint32_t cores) {
  const uint32_t perCore = (total + cores - 1) / cores;
  return (perCore + 7) / 8 * 8;
}
