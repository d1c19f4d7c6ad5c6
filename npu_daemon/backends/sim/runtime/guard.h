// Where guarded device memory lives, and the one system call site allowed to change it.
//
// The kernel's view of GM and UB (GuardedMemory::guard) is mapped inside one fixed address window,
// so the candidate process's syscall filter (confine.cpp) can refuse every memory call that touches
// the window: a kernel cannot unprotect, unmap, remap or duplicate its guarded pages. The
// emulation's own calls there (mapping a guard, the raw-access trap opening one page for one
// instruction) go through GuardSyscall, whose system call instruction is the only address the
// filter lets them through from.
#pragma once

#include <cstdint>

namespace ascendc_sim {

// [16 TiB, 32 TiB): below the executable and its heap, far below where mmap places memory (top down
// from near 128 TiB), so nothing else is ever mapped there. Guards are placed top down from the end.
constexpr uintptr_t kGuardWindowLo = uintptr_t{1} << 44;
constexpr uintptr_t kGuardWindowHi = uintptr_t{2} << 44;

// A raw system call (the kernel's return value: -errno on failure). Hidden: candidate code cannot
// link to it.
__attribute__((visibility("hidden"))) long GuardSyscall(long nr, long a, long b, long c = 0, long d = 0, long e = 0,
                                                        long f = 0);
// The instruction pointer the filter sees for GuardSyscall's calls.
uintptr_t GuardSyscallSite();

}  // namespace ascendc_sim
