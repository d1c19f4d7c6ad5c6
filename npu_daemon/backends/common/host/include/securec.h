// The bounds-checked functions of Huawei's secure C library (libboundscheck, which CANN ships and
// its graph headers include: metadef's exe_graph/runtime/continuous_vector.h), written from its
// documentation: C11 Annex K's interfaces with the library's own result codes. A call checks its
// destination first (none, or a size of 0 or past the library's maximum: the destination is left
// alone), then its source and count; a failure past that point resets the destination (zeroed
// memory, an empty string) and returns the reason with the reset bit (128) set.
#pragma once

#include <cerrno>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
#define EINVAL_AND_RESET (22 | 128)
#define ERANGE_AND_RESET (34 | 128)
#define EOVERLAP_AND_RESET (54 | 128)
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL

using errno_t = int;  // the library's result type (securectype.h)

namespace securec_detail {
inline bool Overlap(const void* a, size_t na, const void* b, size_t nb) {
  const auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y + nb && y < x + na;
}
// The destination's own check, the same for every function of a family.
inline bool BadDest(const void* dest, size_t destMax, size_t limit, errno_t& why) {
  if (destMax == 0 || destMax > limit) return why = ERANGE, true;
  if (dest == nullptr) return why = EINVAL, true;
  return false;
}
inline errno_t EmptyString(char* dest, errno_t why) {
  dest[0] = '\0';
  return why;
}
}  // namespace securec_detail

inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  errno_t why = EOK;
  if (securec_detail::BadDest(dest, destMax, SECUREC_MEM_MAX_LEN, why)) return why;
  if (count > destMax) {  // the destination is filled whole, and the call fails
    std::memset(dest, c, destMax);
    return ERANGE_AND_RESET;
  }
  std::memset(dest, c, count);
  return EOK;
}

inline errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
  errno_t why = EOK;
  if (securec_detail::BadDest(dest, destMax, SECUREC_MEM_MAX_LEN, why)) return why;
  if (src == nullptr || count > destMax) {
    std::memset(dest, 0, destMax);
    return src == nullptr ? EINVAL_AND_RESET : ERANGE_AND_RESET;
  }
  std::memmove(dest, src, count);
  return EOK;
}

// As memmove_s, but the regions may not overlap.
inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  errno_t why = EOK;
  if (securec_detail::BadDest(dest, destMax, SECUREC_MEM_MAX_LEN, why)) return why;
  if (src != nullptr && count <= destMax && dest != src && securec_detail::Overlap(dest, count, src, count)) {
    std::memset(dest, 0, destMax);
    return EOVERLAP_AND_RESET;
  }
  return memmove_s(dest, destMax, src, count);
}

// The string functions: the result must fit with its terminator, else the destination is the
// empty string and the call fails.
inline errno_t strncpy_s(char* dest, size_t destMax, const char* src, size_t count) {
  errno_t why = EOK;
  if (securec_detail::BadDest(dest, destMax, SECUREC_STRING_MAX_LEN, why)) return why;
  if (src == nullptr || count > SECUREC_STRING_MAX_LEN) {
    return securec_detail::EmptyString(dest, src == nullptr ? EINVAL_AND_RESET : ERANGE_AND_RESET);
  }
  const size_t n = strnlen(src, count);
  if (n >= destMax) return securec_detail::EmptyString(dest, ERANGE_AND_RESET);
  if (securec_detail::Overlap(dest, n + 1, src, n + 1)) {
    return securec_detail::EmptyString(dest, EOVERLAP_AND_RESET);
  }
  std::memcpy(dest, src, n);
  dest[n] = '\0';
  return EOK;
}
inline errno_t strcpy_s(char* dest, size_t destMax, const char* src) {
  return strncpy_s(dest, destMax, src, src == nullptr ? 0 : std::strlen(src));
}
inline errno_t strncat_s(char* dest, size_t destMax, const char* src, size_t count) {
  errno_t why = EOK;
  if (securec_detail::BadDest(dest, destMax, SECUREC_STRING_MAX_LEN, why)) return why;
  if (src == nullptr) return securec_detail::EmptyString(dest, EINVAL_AND_RESET);
  const size_t used = strnlen(dest, destMax);
  // A destination without a terminator within destMax is not a string.
  if (used == destMax) return securec_detail::EmptyString(dest, EINVAL_AND_RESET);
  const size_t n = strnlen(src, count);
  if (used + n >= destMax) return securec_detail::EmptyString(dest, ERANGE_AND_RESET);
  if (securec_detail::Overlap(dest, used + n + 1, src, n + 1)) {
    return securec_detail::EmptyString(dest, EOVERLAP_AND_RESET);
  }
  std::memcpy(dest + used, src, n);
  dest[used + n] = '\0';
  return EOK;
}
inline errno_t strcat_s(char* dest, size_t destMax, const char* src) {
  return strncat_s(dest, destMax, src, src == nullptr ? 0 : std::strlen(src));
}

// The formatted ones return the length written, or -1: where the output does not fit in destMax
// (the destination emptied), and where `count`, below destMax, cuts it (the cut output kept, as
// the library documents for the truncating snprintf_s).
inline int vsnprintf_s(char* dest, size_t destMax, size_t count, const char* format, va_list args) {
  if (dest == nullptr || destMax == 0 || destMax > SECUREC_STRING_MAX_LEN || format == nullptr) {
    if (dest != nullptr && destMax > 0 && destMax <= SECUREC_STRING_MAX_LEN) dest[0] = '\0';
    return -1;
  }
  const bool cuts = count < destMax;
  const size_t room = cuts ? count + 1 : destMax;
  const int n = std::vsnprintf(dest, room, format, args);
  if (n < 0) return securec_detail::EmptyString(dest, 0), -1;
  if (static_cast<size_t>(n) >= room) {
    if (!cuts) dest[0] = '\0';
    return -1;
  }
  return n;
}
inline int vsprintf_s(char* dest, size_t destMax, const char* format, va_list args) {
  return vsnprintf_s(dest, destMax, destMax, format, args);
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
  const int n = vsprintf_s(dest, destMax, format, args);
  va_end(args);
  return n;
}
