// <sys/prctl.h> for a host tiling program: prctl on the calling thread's name alone. Real tilings
// name their threads (PR_SET_NAME); the name is kept with the deferred thread
// (ascendc_sim/tiling_threads.h) and PR_GET_NAME reads it back. Every other option changes the
// process itself (its signals, its dumpability, its syscall filter) and is refused as a kernel
// without it refuses it: -1 with errno EINVAL. A C++ function of ours, not libc's prctl. Only the
// two options it serves are declared (Linux's values): <linux/prctl.h> would bring the kernel's
// integer typedefs into the tiling's unit for no option it can use.
#pragma once

#include <cerrno>
#include <cstdarg>

#include "ascendc_sim/tiling_threads.h"

#ifndef PR_SET_NAME
#define PR_SET_NAME 15
#endif
#ifndef PR_GET_NAME
#define PR_GET_NAME 16
#endif

inline int prctl(int option, ...) {
  if (option != PR_SET_NAME && option != PR_GET_NAME) {
    errno = EINVAL;
    return -1;
  }
  std::va_list args;
  va_start(args, option);
  char* name = reinterpret_cast<char*>(va_arg(args, unsigned long));
  va_end(args);
  if (option == PR_SET_NAME)
    ascendc_sim::tiling_threads::SetName(name);
  else
    ascendc_sim::tiling_threads::GetName(name, ascendc_sim::tiling_threads::kNameBytes);
  return 0;
}
