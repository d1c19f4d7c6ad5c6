// The bounds-checked C functions of Huawei's secure C library that host code calls: each fails
// (and, like the library, clears what it can of the destination) when the count exceeds destMax.
#pragma once

#include <cstdarg>
#include <cstddef>
#include <cstdio>
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
inline errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
  return memcpy_s(dest, destMax, src, count);  // ours moves: overlap is allowed either way
}

// The string functions: the result must fit with its terminator, else the destination is the
// empty string (when it has room for one) and the call fails.
namespace securec_detail {
inline errno_t Fail(char* dest, size_t destMax) {
  if (dest != nullptr && destMax > 0) dest[0] = '\0';
  return ERANGE_AND_RESET;
}
}  // namespace securec_detail
inline errno_t strncpy_s(char* dest, size_t destMax, const char* src, size_t count) {
  if (dest == nullptr || src == nullptr) return securec_detail::Fail(dest, destMax);
  const size_t n = strnlen(src, count);
  if (n >= destMax) return securec_detail::Fail(dest, destMax);
  std::memmove(dest, src, n);
  dest[n] = '\0';
  return EOK;
}
inline errno_t strcpy_s(char* dest, size_t destMax, const char* src) {
  return strncpy_s(dest, destMax, src, src == nullptr ? 0 : std::strlen(src));
}
inline errno_t strncat_s(char* dest, size_t destMax, const char* src, size_t count) {
  if (dest == nullptr || src == nullptr) return securec_detail::Fail(dest, destMax);
  const size_t used = strnlen(dest, destMax);
  if (used == destMax) return securec_detail::Fail(dest, destMax);  // no terminator within destMax
  return strncpy_s(dest + used, destMax - used, src, count) == EOK ? EOK : securec_detail::Fail(dest, destMax);
}
inline errno_t strcat_s(char* dest, size_t destMax, const char* src) {
  return strncat_s(dest, destMax, src, src == nullptr ? 0 : std::strlen(src));
}
// The formatted ones return the length written, or -1 where it does not fit (destination emptied).
inline int vsnprintf_s(char* dest, size_t destMax, size_t count, const char* format, va_list args) {
  if (dest == nullptr || destMax == 0 || format == nullptr) return -1;
  const size_t room = count < destMax ? count + 1 : destMax;
  const int n = std::vsnprintf(dest, room, format, args);
  if (n < 0 || static_cast<size_t>(n) >= room) return securec_detail::Fail(dest, destMax), -1;
  return n;
}
inline int snprintf_s(char* dest, size_t destMax, size_t count, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsnprintf_s(dest, destMax, count, format, args);
  va_end(args);
  return n;
}
inline int sprintf_s(char* dest, size_t destMax, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsnprintf_s(dest, destMax, destMax - (destMax > 0), format, args);
  va_end(args);
  return n;
}
