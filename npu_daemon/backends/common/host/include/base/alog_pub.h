// CANN's log library as a tiling program calls it (levels, log types, the module id, the level
// check and the record). A record asked for anyway goes to stderr as OP_LOGE's do
// (op_common/log/log.h).
#pragma once

#include <cstdarg>
#include <cstdint>
#include <cstdio>

#include "op_common/log/log.h"  // DLOG_DEBUG ... DLOG_ERROR

#define DLOG_NULL 4
#define DLOG_TRACE 5
#define DLOG_OPLOG 6
#define DLOG_EVENT 0x10
#define DLOG_TYPE_DEBUG 0
#define DLOG_TYPE_RUN 1
#define MSG_LENGTH 1024

// Module ids of CANN's module list: the tuning tools' (TUNE: the AOE knowledge bank and tuning
// space logs of cube tilings) and the operators' (OP_MODULE_ID).
enum { TUNE = 60, OP = 63 };

// Every level off: the repository's own log macros then call nothing (CANN's LogBase names the
// thread by `syscall`, which no tiling may link); its error reports still print (base/err_msg.h).
inline int AlogCheckDebugLevel(uint32_t, int32_t) { return 0; }

inline void AlogRecord(uint32_t, uint32_t, int32_t, const char* fmt, ...) {
  std::va_list args;
  va_start(args, fmt);
  std::fputs("[ERROR] ", stderr);
  std::vfprintf(stderr, fmt, args);
  std::fputc('\n', stderr);
  va_end(args);
}
