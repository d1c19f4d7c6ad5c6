// <sys/syscall.h> as the guest engine's kernel sees it: the wasm sysroot's (WASI has no system
// calls) with what CANN's log headers name in an inline helper (`syscall(__NR_gettid)`) that a
// host tiling header brings into the kernel's view of its TilingData: the number, and `syscall`
// declared as glibc's <unistd.h> does. Neither leaves a symbol; a kernel that calls `syscall`
// imports it, which the module's import check refuses.
#pragma once

#include_next <sys/syscall.h>

#ifndef __NR_gettid
#define __NR_gettid 178  // aarch64's
#endif

extern "C" long syscall(long, ...);
