// CANN's MMPA (the toolkit's OS abstraction, include/mmpa/mmpa_api.h with its Linux typedefs) as a
// host tiling program may use it: the fixed-width type names and return codes, and the calls
// whose answer inside a tiling is a function of its inputs: the calling thread's id and name
// (the deferred threads of ascendc_sim/tiling_threads.h), a sleep (returns at once: the tiling
// reads no clock), the environment (the sandbox's own) and mutexes. MMPA's files, sockets,
// processes, clocks and thread creation are not declared: a tiling calling one fails to compile
// naming it, as every OS reach of a tiling is refused (docs/trust_boundary.md).
#pragma once

#include <pthread.h>

#include <cstdlib>
#include <cstring>

#include "ascendc_sim/tiling_threads.h"

#ifndef FALSE
#define FALSE 0
#endif
#ifndef TRUE
#define TRUE 1
#endif

typedef unsigned char UINT8;
typedef signed char INT8;
typedef unsigned short UINT16;
typedef signed short INT16;
typedef unsigned int UINT32;
typedef signed int INT32;
typedef unsigned long long UINT64;
typedef signed long long INT64;
typedef float FLOAT;
typedef double DOUBLE;
typedef void VOID;
typedef unsigned char UCHAR;
typedef char CHAR;
typedef unsigned short USHORT;
typedef short SHORT;
typedef unsigned int UINT;
typedef int INT;
typedef unsigned long ULONG;
typedef unsigned long long ULONGLONG;
typedef long LONG;

#define EN_OK 0
#define EN_ERR 1
#define EN_ERROR (-1)
#define EN_INVALID_PARAM (-2)
#define EN_TIMEOUT (-3)

#define MMPA_THREADNAME_SIZE 16
#define MMPA_MAX_SLEEP_MILLSECOND 4294967

typedef pthread_mutex_t mmMutex_t;
#define MM_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER

inline INT32 mmGetTid() { return static_cast<INT32>(ascendc_sim::tiling_threads::current); }

inline INT32 mmSleep(UINT32) { return EN_OK; }

inline INT32 mmSetCurrentThreadName(const CHAR* name) {
  if (name == nullptr) return EN_INVALID_PARAM;
  ascendc_sim::tiling_threads::SetName(name);
  return EN_OK;
}

inline INT32 mmGetCurrentThreadName(CHAR* name, INT32 size) {
  if (name == nullptr || size < MMPA_THREADNAME_SIZE) return EN_INVALID_PARAM;
  ascendc_sim::tiling_threads::GetName(name, static_cast<std::size_t>(size));
  return EN_OK;
}

// `name`'s value into `value` (`len` bytes, NUL included); EN_ERROR if unset or longer.
inline INT32 mmGetEnv(const CHAR* name, CHAR* value, UINT32 len) {
  if (name == nullptr || value == nullptr || len == 0) return EN_INVALID_PARAM;
  const char* found = std::getenv(name);
  if (found == nullptr || std::strlen(found) >= len) return EN_ERROR;
  std::memcpy(value, found, std::strlen(found) + 1);
  return EN_OK;
}

// A default mutex needs no resources: initialising is the static initializer, destroying nothing.
inline INT32 mmMutexInit(mmMutex_t* mutex) {
  if (mutex == nullptr) return EN_INVALID_PARAM;
  *mutex = PTHREAD_MUTEX_INITIALIZER;
  return EN_OK;
}
inline INT32 mmMutexLock(mmMutex_t* mutex) {
  if (mutex == nullptr) return EN_INVALID_PARAM;
  return pthread_mutex_lock(mutex) == 0 ? EN_OK : EN_ERROR;
}
inline INT32 mmMutexTryLock(mmMutex_t* mutex) {
  if (mutex == nullptr) return EN_INVALID_PARAM;
  return pthread_mutex_trylock(mutex) == 0 ? EN_OK : EN_ERROR;
}
inline INT32 mmMutexUnLock(mmMutex_t* mutex) {
  if (mutex == nullptr) return EN_INVALID_PARAM;
  return pthread_mutex_unlock(mutex) == 0 ? EN_OK : EN_ERROR;
}
inline INT32 mmMutexDestroy(mmMutex_t* mutex) { return mutex == nullptr ? EN_INVALID_PARAM : EN_OK; }
