#pragma once
#include <cstdint>

// Plain C++ tiling struct shared verbatim by host and kernel.
struct SoftsignStructTilingData {
  uint32_t total;
  uint32_t perCore;  // elements per core, a multiple of 32 B
  uint32_t tile;
};
