// The seccomp filter of the tiling and candidate processes (raw BPF through prctl; no library
// needed). An allow list: what glibc, libstdc++ and the emulation use while a tiling or a kernel
// runs. Argument checks keep the dangerous forms of needed calls out: clone only for threads of
// this process, mmap/mprotect never executable (no code the compiler did not produce from the
// checked source), no memory call on the guard window (guard.h) but the emulation's own, no new
// handler for the signals the guard and this filter report through, signals only to itself, opens
// read-only and only while the library loads.
#include "confine.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "ascendc_sim/core.h"
#include "ascendc_sim/runtime.h"
#include "channel.h"
#include "guard.h"

namespace ascendc_sim {
namespace {

#if defined(__x86_64__)
constexpr uint32_t kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr uint32_t kArch = AUDIT_ARCH_AARCH64;
#else
#error "the candidate process's syscall filter knows x86_64 and aarch64"
#endif

int g_reportFd = -1;

const char* Explain(long nr) {
  switch (nr) {
    case __NR_openat:
      return "openat: opening files";
#ifdef __NR_open
    case __NR_open:
      return "open: opening files";
#endif
    case __NR_clone:
      return "clone: starting a process";
#ifdef __NR_fork
    case __NR_fork:
    case __NR_vfork:
      return "fork: starting a process";
#endif
    case __NR_execve:
      return "execve: running a program";
    case __NR_socket:
      return "socket: networking";
    case __NR_mmap:
      return "mmap: executable memory or guarded device memory";
    case __NR_mprotect:
      return "mprotect: executable memory or guarded device memory";
    case __NR_munmap:
    case __NR_mremap:
    case __NR_madvise:
      return "changing guarded device memory";
    case __NR_rt_sigaction:
      return "rt_sigaction: replacing the handler of a fault the simulator charges";
    case __NR_kill:
    case __NR_tgkill:
    case __NR_tkill:
      return "kill: signalling another process";
    case __NR_ptrace:
      return "ptrace";
    case __NR_process_vm_writev:
    case __NR_process_vm_readv:
      return "process_vm: another process's memory";
    case __NR_shmget:
    case __NR_shmat:
    case __NR_msgget:
    case __NR_semget:
      return "SysV IPC";
    case __NR_ioctl:
      return "ioctl";
    case __NR_prctl:
      return "prctl";
    default:
      return "not needed by the emulation";
  }
}

// SIGSYS from the filter: report the call as the launch's failure and end the process.
void OnForbidden(int, siginfo_t* info, void*) {
  char msg[256];
  const int n =
      std::snprintf(msg, sizeof msg,
                    "forbidden system call %d (%s): candidate code runs without files, processes, sockets, IPC "
                    "or executable memory; the AscendC API needs none of them",
                    info->si_syscall, Explain(info->si_syscall));
  const channel::Header h{channel::Kind::kError, static_cast<uint32_t>(Status::RUNTIME_ERROR),
                          static_cast<uint64_t>(n)};
  channel::WriteAll(g_reportFd, &h, sizeof h);
  channel::WriteAll(g_reportFd, msg, static_cast<size_t>(n));
  channel::WriteAll(2, msg, static_cast<size_t>(n));
  channel::WriteAll(2, "\n", 1);
  _exit(111);
}

struct Program {
  std::vector<sock_filter> code;

  void Stmt(uint16_t op, uint32_t k) { code.push_back(BPF_STMT(op, k)); }
  void Jump(uint16_t op, uint32_t k, uint8_t jt, uint8_t jf) { code.push_back(BPF_JUMP(op, k, jt, jf)); }
  void LoadNr() { Stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)); }
  // The low 32 bits of argument i (little endian): every flag and prot checked fits in them.
  void LoadArg(int i) { Stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args) + 8 * i); }
  void LoadArgHigh(int i) { Stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args) + 8 * i + 4); }
  void Ret(uint32_t action) { Stmt(BPF_RET | BPF_K, action); }

  // Allows the call if it comes from GuardSyscall's instruction; falls through otherwise.
  void AllowFromGuardSite() {
    const uint64_t site = GuardSyscallSite();
    Stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, instruction_pointer));
    Jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(site), 0, 3);
    Stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, instruction_pointer) + 4);
    Jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(site >> 32), 0, 1);
    Ret(SECCOMP_RET_ALLOW);
  }

  // Traps if [argument `a`, + argument `len`) meets the guard window; falls through otherwise.
  // 64-bit arithmetic in 32-bit words: end = a + len with the carry, then end > window start.
  void TrapIfInGuardWindow(int a, int len) {
    constexpr uint32_t lo = kGuardWindowLo >> 32, hi = kGuardWindowHi >> 32;  // low words are 0
    static_assert((kGuardWindowLo & 0xffffffffu) == 0 && (kGuardWindowHi & 0xffffffffu) == 0);
    LoadArgHigh(a);
    Jump(BPF_JMP | BPF_JGE | BPF_K, hi, 28, 0);  // starts past the window: fine
    Jump(BPF_JMP | BPF_JGE | BPF_K, lo, 0, 1);   // starts inside it
    Ret(SECCOMP_RET_TRAP);
    LoadArgHigh(len);
    Jump(BPF_JMP | BPF_JGE | BPF_K, 0x10000, 0, 1);  // 2^48 bytes or more: no valid call
    Ret(SECCOMP_RET_TRAP);
    Stmt(BPF_ST, 1);  // M[1] = len high
    LoadArg(len);
    Stmt(BPF_MISC | BPF_TAX, 0);
    LoadArg(a);
    Stmt(BPF_ALU | BPF_ADD | BPF_X, 0);  // end low
    Stmt(BPF_ST, 0);
    Stmt(BPF_MISC | BPF_TAX, 0);
    LoadArg(a);
    Jump(BPF_JMP | BPF_JGT | BPF_X, 0, 0, 2);  // a low > end low: a carry
    Stmt(BPF_LD | BPF_IMM, 1);
    Jump(BPF_JMP | BPF_JA, 1, 0, 0);
    Stmt(BPF_LD | BPF_IMM, 0);
    Stmt(BPF_MISC | BPF_TAX, 0);
    Stmt(BPF_LD | BPF_MEM, 1);
    Stmt(BPF_ALU | BPF_ADD | BPF_X, 0);
    Stmt(BPF_MISC | BPF_TAX, 0);
    LoadArgHigh(a);
    Stmt(BPF_ALU | BPF_ADD | BPF_X, 0);         // end high
    Jump(BPF_JMP | BPF_JGT | BPF_K, lo, 3, 0);  // ends past the window's start
    Jump(BPF_JMP | BPF_JEQ | BPF_K, lo, 0, 3);
    Stmt(BPF_LD | BPF_MEM, 0);
    Jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0);  // ends exactly at it: fine
    Ret(SECCOMP_RET_TRAP);
  }

  // if (nr == `nr`) { body } ; `body` ends in returns.
  template <typename Body>
  void On(long nr, Body body) {
    Program inner;
    body(inner);
    if (inner.code.size() > 255) throw std::logic_error("a filter rule longer than a BPF jump reaches");
    LoadNr();
    Jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, static_cast<uint8_t>(inner.code.size()));
    code.insert(code.end(), inner.code.begin(), inner.code.end());
  }
  void Allow(long nr) {
    On(nr, [](Program& p) { p.Ret(SECCOMP_RET_ALLOW); });
  }
  // Allowed unless argument `arg` has any of `bits`.
  void AllowWithout(long nr, int arg, uint32_t bits) {
    On(nr, [&](Program& p) {
      p.LoadArg(arg);
      p.Jump(BPF_JMP | BPF_JSET | BPF_K, bits, 0, 1);
      p.Ret(SECCOMP_RET_TRAP);
      p.Ret(SECCOMP_RET_ALLOW);
    });
  }
  // Allowed only if argument `arg` has all of `bits` (one bit here).
  void AllowWith(long nr, int arg, uint32_t bit) {
    On(nr, [&](Program& p) {
      p.LoadArg(arg);
      p.Jump(BPF_JMP | BPF_JSET | BPF_K, bit, 0, 1);
      p.Ret(SECCOMP_RET_ALLOW);
      p.Ret(SECCOMP_RET_TRAP);
    });
  }
  void AllowIfEqual(long nr, int arg, uint32_t value) {
    On(nr, [&](Program& p) {
      p.LoadArg(arg);
      p.Jump(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1);
      p.Ret(SECCOMP_RET_ALLOW);
      p.Ret(SECCOMP_RET_TRAP);
    });
  }
};

}  // namespace

void InstallSyscallFilter(SyscallStage stage, int reportFd) {
  g_reportFd = reportFd;
  struct sigaction sa{};
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sa.sa_sigaction = OnForbidden;
  sigaction(SIGSYS, &sa, nullptr);

  const bool loading = stage == SyscallStage::kLoading;
  Program p;
  p.Stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0);
  p.Ret(SECCOMP_RET_KILL_PROCESS);
#if defined(__x86_64__)
  p.LoadNr();  // x32 system calls (same arch, other numbers) are never needed
  p.Jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
  p.Ret(SECCOMP_RET_TRAP);
#endif
  // Memory calls: the emulation's own on the guard window, anyone's elsewhere (mmap and mprotect
  // further checked below).
  p.On(__NR_munmap, [](Program& q) {
    q.AllowFromGuardSite();
    q.TrapIfInGuardWindow(0, 1);
    q.Ret(SECCOMP_RET_ALLOW);
  });
  p.On(__NR_madvise, [](Program& q) {
    q.AllowFromGuardSite();
    q.TrapIfInGuardWindow(0, 1);
    q.Ret(SECCOMP_RET_ALLOW);
  });
  p.On(__NR_mremap, [](Program& q) {  // (old, old size, new size, flags, new address)
    q.AllowFromGuardSite();
    q.TrapIfInGuardWindow(0, 1);
    q.TrapIfInGuardWindow(0, 2);
    q.LoadArg(3);  // the new address counts only with MREMAP_FIXED
    q.Jump(BPF_JMP | BPF_JSET | BPF_K, MREMAP_FIXED, 1, 0);
    q.Ret(SECCOMP_RET_ALLOW);
    q.TrapIfInGuardWindow(4, 2);
    q.Ret(SECCOMP_RET_ALLOW);
  });
  p.On(__NR_mprotect, [](Program& q) {
    q.AllowFromGuardSite();
    q.TrapIfInGuardWindow(0, 1);
    q.LoadArg(2);
    q.Jump(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1);
    q.Ret(SECCOMP_RET_TRAP);
    q.Ret(SECCOMP_RET_ALLOW);
  });
  // The handlers of the guard's faults and of this filter's traps stay the emulation's.
  p.On(__NR_rt_sigaction, [loading](Program& q) {
    q.AllowFromGuardSite();
    if (!loading) {
      q.LoadArg(0);
      q.Jump(BPF_JMP | BPF_JEQ | BPF_K, SIGSEGV, 3, 0);
      q.Jump(BPF_JMP | BPF_JEQ | BPF_K, SIGTRAP, 2, 0);
      q.Jump(BPF_JMP | BPF_JEQ | BPF_K, SIGSYS, 1, 0);
      q.Ret(SECCOMP_RET_ALLOW);
      q.LoadArg(1);  // a new action (not only reading the current one)
      q.Jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3);
      q.LoadArgHigh(1);
      q.Jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1);
      q.Ret(SECCOMP_RET_ALLOW);
      q.Ret(SECCOMP_RET_TRAP);
    } else {
      q.Ret(SECCOMP_RET_ALLOW);
    }
  });
  for (long nr : {__NR_read,         __NR_write,          __NR_writev,
                  __NR_pread64,      __NR_close,          __NR_lseek,
                  __NR_brk,          __NR_futex,          __NR_set_robust_list,
                  __NR_rseq,         __NR_rt_sigprocmask, __NR_rt_sigreturn,
                  __NR_sigaltstack,  __NR_gettid,         __NR_getpid,
                  __NR_exit,         __NR_exit_group,     __NR_clock_gettime,
                  __NR_clock_getres, __NR_gettimeofday,   __NR_clock_nanosleep,
                  __NR_nanosleep,    __NR_sched_yield,    __NR_sched_getaffinity,
                  __NR_getrandom,    __NR_restart_syscall})
    p.Allow(nr);
  p.AllowWith(__NR_newfstatat, 3, AT_EMPTY_PATH);  // fstat of an open descriptor, not a path
#ifdef __NR_fstat
  p.Allow(__NR_fstat);
#endif
  p.AllowIfEqual(__NR_prlimit64, 2, 0);      // read limits, never set them
  p.AllowWith(__NR_clone, 0, CLONE_THREAD);  // threads (one per parked block), not processes
  p.On(__NR_clone3, [](Program& q) { q.Ret(SECCOMP_RET_ERRNO | ENOSYS); });  // glibc falls back to clone
  p.AllowIfEqual(__NR_tgkill, 0, static_cast<uint32_t>(getpid()));           // raise(): abort, the raw-access trap
#if defined(__SANITIZE_ADDRESS__)
  p.Allow(__NR_pipe2);  // ASCEND_GYM_SIM_SANITIZE builds: ASan probes memory by writing it to a pipe
#endif
  if (loading) {
    p.AllowWithout(__NR_openat, 2, O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND);
    p.Allow(__NR_seccomp);  // the running stage's filter
    // Executable mappings only of files (the libraries), never of anonymous memory.
    p.On(__NR_mmap, [](Program& q) {
      q.AllowFromGuardSite();
      q.TrapIfInGuardWindow(0, 1);
      q.LoadArg(2);
      q.Jump(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 3);
      q.LoadArg(3);
      q.Jump(BPF_JMP | BPF_JSET | BPF_K, MAP_ANONYMOUS, 0, 1);
      q.Ret(SECCOMP_RET_TRAP);
      q.Ret(SECCOMP_RET_ALLOW);
    });
  } else {
    p.On(__NR_mmap, [](Program& q) {
      q.AllowFromGuardSite();
      q.TrapIfInGuardWindow(0, 1);
      q.LoadArg(2);
      q.Jump(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1);
      q.Ret(SECCOMP_RET_TRAP);
      q.Ret(SECCOMP_RET_ALLOW);
    });
    // Opening to write ends the launch; reading fails with EACCES (glibc's malloc itself probes
    // /proc/sys/vm/overcommit_memory when it trims a thread's heap, and copes).
    p.On(__NR_openat, [](Program& q) {
      q.LoadArg(2);
      q.Jump(BPF_JMP | BPF_JSET | BPF_K, O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND, 0, 1);
      q.Ret(SECCOMP_RET_TRAP);
      q.Ret(SECCOMP_RET_ERRNO | EACCES);
    });
  }
  p.Ret(SECCOMP_RET_TRAP);

  sock_fprog prog{static_cast<unsigned short>(p.code.size()), p.code.data()};
  if ((loading && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) ||
      syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
    throw SimError(Status::RUNTIME_ERROR,
                   std::string("cannot install the candidate process's syscall filter: ") + std::strerror(errno));
}

namespace {
std::vector<void*> Load(const std::vector<std::string>& paths, int mode, int reportFd) {
  InstallSyscallFilter(SyscallStage::kLoading, reportFd);
  std::vector<void*> libs;
  for (const std::string& path : paths) {
    void* lib = dlopen(path.c_str(), RTLD_NOW | mode);
    if (lib == nullptr) throw SimError(Status::RUNTIME_ERROR, std::string("dlopen: ") + dlerror());
    libs.push_back(lib);
  }
  InstallGuardHandlers();  // before the filter locks the handlers of SIGSEGV and SIGTRAP
  InstallSyscallFilter(SyscallStage::kRunning, reportFd);
  return libs;
}
}  // namespace

void* LoadCandidate(const std::string& path, int reportFd) { return Load({path}, RTLD_GLOBAL, reportFd)[0]; }

std::vector<void*> LoadCandidates(const std::vector<std::string>& paths, int reportFd) {
  return Load(paths, RTLD_LOCAL, reportFd);
}

void RunConstructors(void* lib) {
  auto* init = reinterpret_cast<void (*)()>(dlsym(lib, "ascendc_sim_candidate_init"));
  if (init == nullptr) throw SimError(Status::RUNTIME_ERROR, "a candidate library without its constructor runner");
  init();
}

void RunConfined(int fd, const std::function<void()>& run) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  try {
    run();
  } catch (const SimError& e) {
    std::fflush(nullptr);
    channel::Send(fd, channel::Kind::kError, static_cast<uint32_t>(e.status), {{e.what(), std::strlen(e.what())}});
  } catch (const std::exception& e) {
    std::fflush(nullptr);
    const std::string what = std::string("uncaught C++ exception: ") + e.what();
    channel::Send(fd, channel::Kind::kError, static_cast<uint32_t>(Status::RUNTIME_ERROR),
                  {{what.data(), what.size()}});
  }
  _exit(0);  // no exit handlers or static destructors of candidate code
}

}  // namespace ascendc_sim
