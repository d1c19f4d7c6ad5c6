// Shared with other operators of the tree (experimental/norm/offset_scale includes it by a
// relative path): elements per core, whole 32-byte blocks of float over at most `cores` cores.
#pragma once
#include <cstdint>

inline uint32_t ScaleRowsPerCore(uint32_t total, uint32_t cores) {
  const uint32_t blocks = (total + 7) / 8;
  const uint32_t used = blocks < cores ? blocks : cores;
  return (blocks + used - 1) / used * 8;
}
