// Raw pointer accesses (raw_access.h): charged one by one, then stopped.
//
// The SIGSEGV handler charges a fault on a guard address as the scalar access it is on the device
// (what GetValue/SetValue record: same cycles, same race checks), opens the page and sets the x86
// trap flag so the instruction runs once; the SIGTRAP that follows closes the page again (both through
// GuardSyscall, the only call the syscall filter lets change guarded pages or these handlers). Blocks run
// one at a time, so no other block's code runs while a page is open. Each trap costs microseconds
// of host time, hence a budget per launch: past it the launch stops here and the evaluation times
// it on the guest engine, where an access is one import call (backend.py, _run_on_guest).
#include "raw_access.h"

#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstring>

#include <exception>
#include <string>
#include <utility>

#include "ascendc_sim/runtime.h"
#include "guard.h"
#include "race_checker.h"

namespace ascendc_sim {

namespace {

// A cost bound of this engine, not of the device: ~20 us of host time per trap keeps a launch within
// it near 10 s (a per-element scalar loop over about 170k elements, 3 accesses each).
constexpr uint64_t kMaxRawAccesses = 1u << 19;
const SrcLoc kRawLoc{"kernel code", 0};

// A raw GM store is recorded once it has run, so a store of the bytes GM already held counts as one
// (several blocks may write identical bytes, see Core::GmAccess): the bytes it can reach are kept.
constexpr uint64_t kStoreSpan = 64;  // the widest x86 store (AVX-512)
struct RawAccesses {
  uint64_t count = 0;
  std::string first;       // "buffer+offset" of the first access
  uintptr_t open[4] = {};  // pages opened for the instruction being stepped
  int nOpen = 0;
  uintptr_t store = 0;  // the GM address of the store being stepped, 0 if none
  uint64_t storeBytes = 0;
  uint8_t before[kStoreSpan] = {};
};
RawAccesses g_raw;                            // touched only by the block holding the baton
thread_local sigjmp_buf* t_escape = nullptr;  // set while this thread runs kernel code
thread_local std::exception_ptr t_escaped;
const uintptr_t kPage = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));

// Out of a signal handler with the exception in flight, back to RunKernel, which rethrows it.
[[noreturn]] void Escape() {
  t_escaped = std::current_exception();
  siglongjmp(*t_escape, 1);
}

std::string RawLimitMessage(const Core& core) {
  return "block " + std::to_string(core.Spec().blockIdx) + ": " + std::to_string(g_raw.count) +
         " raw pointer accesses in this launch, the first to " + g_raw.first +
         ": kernel code loads or stores GM/UB through a plain C++ pointer, bypassing the AscendC API. On the device "
         "each is a "
         "scalar-unit access (~" +
         std::to_string(core.ScalarGmCycles()) + " cycles on GM, ~" + std::to_string(core.ScalarUbCycles()) +
         " on UB, like GetValue/SetValue); the native engine traps each and hands a launch past " +
         std::to_string(kMaxRawAccesses) +
         " to the guest engine. Move data with DataCopy and compute with vector "
         "instructions";
}

// Back to the default action, through GuardSyscall: the syscall filter refuses candidate code any
// change to the handlers of the signals the guard relies on. A zeroed kernel sigaction is SIG_DFL.
void ResetToDefault(int sig) {
  const uint64_t act[4] = {};
  GuardSyscall(__NR_rt_sigaction, sig, reinterpret_cast<long>(act), 0, 8);
}

void OnFault(int, siginfo_t* info, void* ctx) {
  auto* uc = static_cast<ucontext_t*>(ctx);
  const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  Core* core = RunningCore();
  const auto ubGuard = core ? reinterpret_cast<uintptr_t>(core->UbGuardPtr(0)) : 0;
  const bool ub = core && addr >= ubGuard && addr < ubGuard + core->LocalMappedBytes();
  if (t_escape == nullptr || core == nullptr || !(ub || InGuardedGm(addr)) || g_raw.nOpen == 4) {
    ResetToDefault(SIGSEGV);  // not a guarded access: crash as any other wild access would
    return;
  }
#if defined(__x86_64__)
  const bool write = uc->uc_mcontext.gregs[REG_ERR] & 2;  // page-fault error code, bit 1: write
  constexpr bool kCanStep = true;
#else
  const bool write = false;
  constexpr bool kCanStep = false;  // no trap flag: every raw access stops the launch
#endif
  try {
    if (g_raw.count++ == 0) g_raw.first = ub ? "UB+" + std::to_string(addr - ubGuard) : DescribeGm(addr);
    if (g_raw.count > kMaxRawAccesses || !kCanStep) throw SimError(Status::RUNTIME_ERROR, RawLimitMessage(*core));
    if (ub) {
      core->ScalarUb(static_cast<uint32_t>(addr - ubGuard), 1, write, kRawLoc, write ? "raw UB store" : "raw UB load");
    } else {
      gm_flags::RestoreView();  // before the store runs, or its bytes are kept
      core->Scalar(core->ScalarGmCost(addr, 1));
      // A store crossing a page faults twice: its second part is recorded at once, as changing GM.
      uint64_t span = write && g_raw.store == 0 && GmRangeValid(reinterpret_cast<void*>(addr), 1) ? kStoreSpan : 0;
      while (span > 0 && !GmRangeValid(reinterpret_cast<void*>(addr), span)) span /= 2;
      if (span > 0) {  // recorded by OnTrap, once the store has run
        g_raw.store = addr;
        g_raw.storeBytes = span;
        std::memcpy(g_raw.before, GmHost(reinterpret_cast<void*>(addr)), span);
      } else {
        if (write) core->NoteScalarStore(kStoreSpan);
        core->GmAccess(PIPE_S, GmPattern{addr, 1, 1, 1}, write, kRawLoc, write ? "raw GM store" : "raw GM load");
      }
    }
  } catch (...) {
    Escape();
  }
  const uintptr_t page = addr & ~(kPage - 1);
  GuardSyscall(__NR_mprotect, static_cast<long>(page), static_cast<long>(kPage), PROT_READ | PROT_WRITE);
  g_raw.open[g_raw.nOpen++] = page;
#if defined(__x86_64__)
  uc->uc_mcontext.gregs[REG_EFL] |= 0x100;  // TF: trap after the faulting instruction
#endif
}

void OnTrap(int, siginfo_t*, void* ctx) {
  if (g_raw.nOpen == 0) {  // not our single step: die of it as without the handler
    ResetToDefault(SIGTRAP);
    raise(SIGTRAP);
    return;
  }
  for (int k = 0; k < g_raw.nOpen; ++k)
    GuardSyscall(__NR_mprotect, static_cast<long>(g_raw.open[k]), static_cast<long>(kPage), PROT_NONE);
  g_raw.nOpen = 0;
#if defined(__x86_64__)
  static_cast<ucontext_t*>(ctx)->uc_mcontext.gregs[REG_EFL] &= ~0x100LL;
#endif
  if (g_raw.store == 0) return;
  const uintptr_t addr = std::exchange(g_raw.store, 0);
  const bool same = std::memcmp(g_raw.before, GmHost(reinterpret_cast<void*>(addr)), g_raw.storeBytes) == 0;
  try {
    RunningCore()->NoteScalarStore(g_raw.storeBytes);
    gm_flags::Stored(*RunningCore(), addr, g_raw.before, static_cast<uint32_t>(g_raw.storeBytes));
    RunningCore()->GmAccess(PIPE_S, GmPattern{addr, 1, 1, 1}, true, kRawLoc, "raw GM store", same);
  } catch (...) {
    Escape();
  }
}

bool g_handlersSet = false;
void SetHandlers() {
  struct sigaction sa{};
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sa.sa_sigaction = OnFault;
  sigaction(SIGSEGV, &sa, nullptr);
  sa.sa_sigaction = OnTrap;
  sigaction(SIGTRAP, &sa, nullptr);
  g_handlersSet = true;
}

void InstallHandlers() {
  if (!g_handlersSet) SetHandlers();
}

}  // namespace

void InstallGuardHandlers() { SetHandlers(); }  // again: whatever code loaded before set

void ResetRawAccesses() {
  g_raw = RawAccesses{};
  InstallHandlers();
}

void RunKernel(const std::function<void()>& kernel) {
  sigjmp_buf env;
  if (sigsetjmp(env, 1) != 0) {
    t_escape = nullptr;
    std::rethrow_exception(std::exchange(t_escaped, nullptr));
  }
  t_escape = &env;
  try {
    kernel();
  } catch (...) {
    t_escape = nullptr;
    throw;
  }
  t_escape = nullptr;
}

}  // namespace ascendc_sim
