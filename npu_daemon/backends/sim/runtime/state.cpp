// Process-wide state of one launch on the device side: tiling key, workspace, GM buffers (the SoC
// parameters and the op registries are the host side's, backends/common/host/registry.cpp).
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <iterator>
#include <map>
#include <string>

#include "ascendc_sim/runtime.h"
#include "guard.h"

namespace ascendc_sim {

namespace {
uint64_t g_tilingKey = 0;
uint8_t* g_sysWorkspace = nullptr;
uint8_t* g_paraBase = nullptr;
struct GmBuf {
  uint64_t bytes;
  std::string name;
  intptr_t toHost;  // host address - kernel address (0: unguarded)
  uint64_t mapped;  // bytes of the guard mapping
};
std::map<uintptr_t, GmBuf>& GmBuffers() {
  static std::map<uintptr_t, GmBuf> buffers;
  return buffers;
}
}  // namespace

void SetTilingKey(uint64_t key) { g_tilingKey = key; }
uint64_t TilingKey() { return g_tilingKey; }
void SetSysWorkspace(uint8_t* ws) { g_sysWorkspace = ws; }
uint8_t* SysWorkspace() { return g_sysWorkspace; }
void SetParaBase(uint8_t* base) { g_paraBase = base; }
uint8_t* ParaBase() { return g_paraBase; }

// GuardSyscall: the system call number and arguments moved into the kernel's registers, one
// system call instruction, `ascendc_sim_guard_syscall_site` just past it.
#if defined(__x86_64__)
asm(R"(
  .text
  .globl ascendc_sim_guard_syscall
  .hidden ascendc_sim_guard_syscall
  .type ascendc_sim_guard_syscall, @function
ascendc_sim_guard_syscall:
  mov %rdi, %rax
  mov %rsi, %rdi
  mov %rdx, %rsi
  mov %rcx, %rdx
  mov %r8, %r10
  mov %r9, %r8
  mov 8(%rsp), %r9
  syscall
  .globl ascendc_sim_guard_syscall_site
  .hidden ascendc_sim_guard_syscall_site
ascendc_sim_guard_syscall_site:
  ret
  .size ascendc_sim_guard_syscall, .-ascendc_sim_guard_syscall
)");
#elif defined(__aarch64__)
asm(R"(
  .text
  .globl ascendc_sim_guard_syscall
  .hidden ascendc_sim_guard_syscall
  .type ascendc_sim_guard_syscall, %function
ascendc_sim_guard_syscall:
  mov x8, x0
  mov x0, x1
  mov x1, x2
  mov x2, x3
  mov x3, x4
  mov x4, x5
  mov x5, x6
  svc #0
  .globl ascendc_sim_guard_syscall_site
  .hidden ascendc_sim_guard_syscall_site
ascendc_sim_guard_syscall_site:
  ret
  .size ascendc_sim_guard_syscall, .-ascendc_sim_guard_syscall
)");
#endif
extern "C" long ascendc_sim_guard_syscall(long, long, long, long, long, long, long);
extern "C" char ascendc_sim_guard_syscall_site[];

long GuardSyscall(long nr, long a, long b, long c, long d, long e, long f) {
  return ascendc_sim_guard_syscall(nr, a, b, c, d, e, f);
}
uintptr_t GuardSyscallSite() { return reinterpret_cast<uintptr_t>(ascendc_sim_guard_syscall_site); }

namespace {
std::atomic<uintptr_t> g_guardNext{kGuardWindowHi};  // guards are placed top down, as mmap places memory
}

namespace {
// A place for `mapped` bytes of guard in the window, top down (guard.h).
uintptr_t GuardPlace(uint64_t mapped) {
  const uintptr_t at = g_guardNext.fetch_sub(mapped) - mapped;
  return at >= kGuardWindowLo ? at : 0;
}
}  // namespace

GuardedMemory::GuardedMemory(uint64_t n, const char* name, bool guarded, int file, uint64_t fileBytes) : bytes(n) {
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  mapped = std::max<uint64_t>((n + page - 1) / page * page, page);
  const auto fail = [&] {
    throw SimError(Status::RUNTIME_ERROR, "cannot map " + std::to_string(n) + " bytes of device memory for " + name);
  };
  if (file >= 0) {
    // Anonymous zero pages, the file's pages over their start (a page past its end would SIGBUS);
    // the guard view at its place in the window (`at`), through GuardSyscall.
    const uint64_t filePages = std::min(mapped, (fileBytes + page - 1) / page * page);
    auto view = [&](int prot, uintptr_t at) {
      const int fixed = at ? MAP_FIXED : 0;
      const long v = GuardSyscall(__NR_mmap, static_cast<long>(at), static_cast<long>(mapped), prot,
                                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | fixed, -1, 0);
      if (v < 0 && v > -4096) fail();
      if (filePages > 0 &&
          GuardSyscall(__NR_mmap, v, static_cast<long>(filePages), prot, MAP_PRIVATE | MAP_FIXED, file, 0) != v)
        fail();
      return reinterpret_cast<uint8_t*>(v);
    };
    host = view(PROT_READ | PROT_WRITE, 0);
    if (guarded) {
      const uintptr_t at = GuardPlace(mapped);
      if (at == 0) fail();
      guard = view(PROT_NONE, at);
    } else {
      guard = host;
    }
    return;
  }
  // Shared anonymous pages; mremap with old size 0 maps the same pages a second time (no file, so
  // the sandbox's RLIMIT_FSIZE does not apply), here at a fixed place in the guard window.
  void* h = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  void* g = h;
  if (h != MAP_FAILED && guarded) {
    const uintptr_t at = GuardPlace(mapped);
    const long moved = at != 0 ? GuardSyscall(__NR_mremap, reinterpret_cast<long>(h), 0, static_cast<long>(mapped),
                                              MREMAP_MAYMOVE | MREMAP_FIXED, static_cast<long>(at))
                               : -ENOMEM;
    g = moved == static_cast<long>(at) && GuardSyscall(__NR_mprotect, moved, static_cast<long>(mapped), PROT_NONE) == 0
            ? reinterpret_cast<void*>(at)
            : MAP_FAILED;
  }
  if (h == MAP_FAILED || g == MAP_FAILED) fail();
  host = static_cast<uint8_t*>(h);
  guard = static_cast<uint8_t*>(g);
}

GuardedMemory::~GuardedMemory() {
  if (guard != host) GuardSyscall(__NR_munmap, reinterpret_cast<long>(guard), static_cast<long>(mapped));
  munmap(host, mapped);
}

void RegisterGm(const void* base, uint64_t bytes, const std::string& name, const void* host, uint64_t mapped) {
  const auto b = reinterpret_cast<uintptr_t>(base);
  GmBuffers()[b] =
      GmBuf{bytes, name, host ? static_cast<intptr_t>(reinterpret_cast<uintptr_t>(host) - b) : 0, host ? mapped : 0};
}
// The registered buffer at or below `addr` (the one that may hold it), or null.
static const std::pair<const uintptr_t, GmBuf>* BufferBelow(uintptr_t addr) {
  auto it = GmBuffers().upper_bound(addr);
  return it == GmBuffers().begin() ? nullptr : &*std::prev(it);
}
uint8_t* GmHost(const void* p) {
  const auto addr = reinterpret_cast<uintptr_t>(p);
  const auto* buf = BufferBelow(addr);
  return reinterpret_cast<uint8_t*>(buf && addr < buf->first + buf->second.mapped ? addr + buf->second.toHost : addr);
}
bool InGuardedGm(uintptr_t addr) {
  const auto* buf = BufferBelow(addr);
  return buf && addr < buf->first + buf->second.mapped;
}
bool GmRangeValid(const void* p, uint64_t bytes) {
  const auto addr = reinterpret_cast<uintptr_t>(p);
  const auto* buf = BufferBelow(addr);
  return buf && addr + bytes <= buf->first + buf->second.bytes;
}
bool GmRangeTolerated(const void* p, uint64_t bytes, bool write) {
  const auto addr = reinterpret_cast<uintptr_t>(p);
  const auto* buf = BufferBelow(addr);
  if (!buf) return false;
  if (!write) return addr + bytes <= buf->first + std::max(buf->second.bytes, buf->second.mapped);
  // `bytes` of a registered buffer already holds aclrtMalloc's padding: ALIGN_UP(size, 32) + 32.
  const uint64_t block = (buf->second.bytes + 511) / 512 * 512;
  return addr + bytes <= buf->first + std::min(block, buf->second.mapped);
}
std::string DescribeGm(uint64_t addr) {
  const auto* buf = BufferBelow(addr);
  if (!buf) return "GM address " + std::to_string(addr);
  return (buf->second.name.empty() ? std::string("GM buffer") : buf->second.name) + "+" +
         std::to_string(addr - buf->first);
}

}  // namespace ascendc_sim
