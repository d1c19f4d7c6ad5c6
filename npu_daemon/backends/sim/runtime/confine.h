// The confinement of the launch harness's processes that run candidate code (the tiling process,
// then the candidate process): the system calls candidate code may make (a seccomp filter),
// installed before its library is loaded, and how such a process loads that library and ends.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace ascendc_sim {

enum class SyscallStage {
  kLoading,  // dlopen of the candidate's libraries: read-only opens, file-backed executable mappings
  kRunning,  // tiling and kernel: no file opened (to write: the end; to read: EACCES), no executable memory
};

// Allows what the emulation needs (memory, threads of this process, futexes, signals, writes to
// its open descriptors); anything else raises SIGSYS, whose handler reports the call on `reportFd`
// and ends the process. Filters stack: kRunning after kLoading narrows what is left.
void InstallSyscallFilter(SyscallStage stage, int reportFd);

// Loads the candidate library at `path` under the loading stage's filter, installs the guard's
// handlers and narrows the filter to the running stage. None of the library's code has run yet.
void* LoadCandidate(const std::string& path, int reportFd);

// As LoadCandidate, for a kernel built once per core type (one library each, loaded under the one
// loading stage). Each is loaded local: its own inline functions and templates bind within it, so
// one core type's build never runs the other's code of the same name.
std::vector<void*> LoadCandidates(const std::vector<std::string>& paths, int reportFd);

// Runs the library's constructors, its registrations included (deferred: backends/common/ctors.py).
void RunConstructors(void* lib);

// The body of a process that runs candidate code: it dies with the launcher, a failure of `run`
// goes to the launcher as an error record on `fd`, and it ends without exit handlers or static
// destructors of candidate code.
[[noreturn]] void RunConfined(int fd, const std::function<void()>& run);

}  // namespace ascendc_sim
