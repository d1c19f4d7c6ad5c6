// Raw-access accounting: kernel code only ever holds guard addresses of GM and local memory
// (GuardedMemory), so a plain C++ load or store through a pointer faults; the fault is charged as
// the scalar access it is on the device, then the instruction is let through once.
#pragma once

#include <functional>

namespace ascendc_sim {

// Install the SIGSEGV / SIGTRAP handlers (once per process) and start a launch's count afresh.
void ResetRawAccesses();
// Run kernel code with raw accesses trapped; an error raised in the handler resumes here and is
// rethrown.
void RunKernel(const std::function<void()>& kernel);

}  // namespace ascendc_sim
