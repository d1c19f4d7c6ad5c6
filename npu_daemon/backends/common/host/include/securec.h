// The bounds-checked C functions of Huawei's secure C library that host code calls: each fails
// (and, like the library, clears what it can of the destination) when the count exceeds destMax.
#pragma once

#include <cstddef>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif
#define ERANGE_AND_RESET 162

using errno_t = int;  // the library's result type (securectype.h)

inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (dest == nullptr) return ERANGE_AND_RESET;
  std::memset(dest, c, count <= destMax ? count : destMax);
  return count <= destMax ? EOK : ERANGE_AND_RESET;
}
inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  if (dest == nullptr || src == nullptr || count > destMax) {
    if (dest != nullptr) std::memset(dest, 0, destMax);
    return ERANGE_AND_RESET;
  }
  std::memmove(dest, src, count);
  return EOK;
}
