// The system calls candidate code may make (a seccomp filter), installed by the launch harness in
// the process that loads the candidate's tiling and kernel, before either is loaded.
#pragma once

#include <sys/types.h>

namespace ascendc_sim {

enum class SyscallStage {
  kLoading,  // dlopen of the candidate's libraries: read-only opens, file-backed executable mappings
  kRunning,  // tiling and kernel: no file opened (to write: the end; to read: EACCES), no executable memory
};

// Allows what the emulation needs (memory, threads of this process, futexes, signals, writes to
// its open descriptors); anything else raises SIGSYS, whose handler reports the call on `reportFd`
// and ends the process. Filters stack: kRunning after kLoading narrows what is left.
void InstallSyscallFilter(SyscallStage stage, int reportFd);

}  // namespace ascendc_sim
