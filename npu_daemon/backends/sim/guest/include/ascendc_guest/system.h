// System values and the kernel-side odds and ends (included by kernel_operator.h): sub-blocks, the
// core type, the cycle counter, Trap and ASSERT, the tiling macros' other forms, and printf,
// PRINTF and DumpTensor, which print nothing here: a kernel's own output would carry the case's
// data out of the evaluation (docs/trust_boundary.md), so the guest engine gives it none.
#pragma once

#include <atomic>

namespace ascendc_guest {
ASCENDC_GUEST_IMPORT(core_info) int64_t core_info(CoreInfo what);
ASCENDC_GUEST_IMPORT(dump_tensor)
void dump_tensor(Dtype t, int32_t gm, uint32_t addr, int64_t size, int32_t pos, uint32_t count, int32_t line);
// The tiling argument's GM address (a __gm__ pointer: a value of the host's GM space).
template <typename P>
inline uint32_t TilingAddr(P tiling) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(tiling));
}
}  // namespace ascendc_guest

namespace AscendC {

inline int64_t GetSubBlockIdx() { return ascendc_guest::core_info(ascendc_guest::CoreInfo::kSubBlockIdx); }
inline int64_t GetSubBlockNum() { return ascendc_guest::core_info(ascendc_guest::CoreInfo::kSubBlockNum); }
inline int64_t GetTaskRation() { return GetSubBlockNum(); }
inline int64_t GetTaskRatio() { return GetSubBlockNum(); }
// The emulation's clock as the native engine reads it: the instructions the core has issued.
inline int64_t GetSystemCycle() { return ascendc_guest::core_info(ascendc_guest::CoreInfo::kSystemCycle); }
// Scalar bfloat16 <-> float conversions (the scalar unit has no bf16 arithmetic).
inline float ToFloat(const bfloat16_t& v) { return static_cast<float>(v); }
inline bfloat16_t ToBfloat16(const float& v) { return bfloat16_t(v); }
// A compiler barrier (kfc_comm.h of asc-devkit): orders the core's scalar memory accesses, no instruction.
inline void Barrier() { std::atomic_signal_fence(std::memory_order_seq_cst); }
// The system workspace is the launch's (GetSysWorkSpacePtr); setting it changes nothing.
inline void SetSysWorkspace(GM_ADDR) {}
inline void SetSysWorkspaceForce(GM_ADDR) {}

// Stops the AI core: the kernel's RUNTIME_ERROR, as on the native engine.
inline void Trap(ASCENDC_GUEST_LINE) { ascendc_guest::api_fail(ascendc_guest::Fault::kTrap, line); }

// libc's own input and output (std::printf, puts, std::cout: a CANN logging macro such as OP_LOGD
// expands to them) end in WASI calls a module may not import. These definitions take the imports'
// place inside the module: every descriptor is closed (EBADF), the environment is empty (as the
// native engine's is scrubbed) and exit traps, so the output goes nowhere and the formatting is
// metered as the kernel's own work. Files, clocks and randomness stay imports the build refuses.
extern "C" {
inline constexpr int32_t kAscendcGuestBadFd = 8;  // WASI's EBADF
int32_t __imported_wasi_snapshot_preview1_fd_write(int32_t, int32_t, int32_t, int32_t) { return kAscendcGuestBadFd; }
int32_t __imported_wasi_snapshot_preview1_fd_read(int32_t, int32_t, int32_t, int32_t) { return kAscendcGuestBadFd; }
int32_t __imported_wasi_snapshot_preview1_fd_seek(int32_t, int64_t, int32_t, int32_t) { return kAscendcGuestBadFd; }
int32_t __imported_wasi_snapshot_preview1_fd_close(int32_t) { return kAscendcGuestBadFd; }
int32_t __imported_wasi_snapshot_preview1_fd_fdstat_get(int32_t, int32_t) { return kAscendcGuestBadFd; }
int32_t __imported_wasi_snapshot_preview1_environ_sizes_get(int32_t count, int32_t bytes) {
  *reinterpret_cast<int32_t*>(count) = 0;
  *reinterpret_cast<int32_t*>(bytes) = 0;
  return 0;
}
int32_t __imported_wasi_snapshot_preview1_environ_get(int32_t, int32_t) { return 0; }
[[noreturn]] void __imported_wasi_snapshot_preview1_proc_exit(int32_t) { __builtin_trap(); }
}

// Printed nowhere (see the top of this header); the arguments are still the kernel's own work.
template <typename... Args>
void printf(const char*, Args...) {}
template <typename... Args>
void PRINTF(const char*, Args...) {}
// DumpTensor's range checks and its scalar cost are the native engine's; its values go nowhere.
template <typename T>
void DumpTensor(const LocalTensor<T>& t, uint32_t, uint32_t dumpSize, ASCENDC_GUEST_LINE) {
  ascendc_guest::dump_tensor(ascendc_guest::DtypeOf<T>(), 0, t.UbAddr(), t.GetSize(),
                             static_cast<int32_t>(t.GetPosition()), dumpSize, line);
}
template <typename T>
void DumpTensor(const GlobalTensor<T>& t, uint32_t, uint32_t dumpSize, ASCENDC_GUEST_LINE) {
  ascendc_guest::dump_tensor(ascendc_guest::DtypeOf<T>(), 1, t.GmAddr(), static_cast<int64_t>(t.GetSize()), 0, dumpSize,
                             line);
}

template <bool isAIVOnly = true>
void SyncAll(const GlobalTensor<int32_t>&, const LocalTensor<int32_t>&, int32_t usedCores = 0, ASCENDC_GUEST_LINE) {
  if (usedCores != 0 && usedCores != GetBlockNum()) ascendc_guest::api_fail(ascendc_guest::Fault::kSyncAllCores, line);
  ascendc_guest::sync_all(line);
}

// IBSet / IBWait: the library's polls of a flag in GM, as on the native engine (ascendc_sim/cube_sync.h,
// which documents the slot and the protocol); every copy, flag and element access is an import.
template <bool isAIVOnly = true>
void IBHandshake(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                 int32_t eventID, int32_t from, int32_t line) {
  if (ascendc_guest::core_info(ascendc_guest::CoreInfo::kCoreType) == 1) return;
  const int64_t blockNum = isAIVOnly ? GetBlockNum() : GetBlockNum() * 2;
  constexpr int32_t kSlot = 32 / sizeof(int32_t);
  const GlobalTensor<int32_t> slot = gmWorkspace[static_cast<uint64_t>(blockNum) * kSlot * eventID + blockIdx * kSlot];
  PipeBarrier<PIPE_ALL>(line);
  for (;;) {
    DataCopy(ubWorkspace, slot, kSlot, line);
    SetFlag<HardEvent::MTE2_S>(EVENT_ID0, line);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID0, line);
    if (ubWorkspace.GetValue(0, line) == from) break;
  }
  ubWorkspace.SetValue(0, 1 - from, line);
  SetFlag<HardEvent::S_MTE3>(EVENT_ID0, line);
  WaitFlag<HardEvent::S_MTE3>(EVENT_ID0, line);
  DataCopy(slot, ubWorkspace, kSlot, line);
  PipeBarrier<PIPE_ALL>(line);
}
template <bool isAIVOnly = true>
void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
           int32_t eventID, ASCENDC_GUEST_LINE) {
  IBHandshake<isAIVOnly>(gmWorkspace, ubWorkspace, blockIdx, eventID, 0, line);
}
template <bool isAIVOnly = true>
void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
            int32_t eventID, ASCENDC_GUEST_LINE) {
  IBHandshake<isAIVOnly>(gmWorkspace, ubWorkspace, blockIdx, eventID, 1, line);
}

constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;

}  // namespace AscendC

// The unit the code runs on, a run-time test as on the native engine (one build serves every core).
#define ASCEND_IS_AIV (::ascendc_guest::core_info(::ascendc_guest::CoreInfo::kCoreType) == 0)
#define ASCEND_IS_AIC (::ascendc_guest::core_info(::ascendc_guest::CoreInfo::kCoreType) == 1)
#define ASCEND_IS_NOT_AIV (!ASCEND_IS_AIV)
#define ASCEND_IS_NOT_AIC (!ASCEND_IS_AIC)
struct CoreTypeOfRunningCore {
  operator int32_t() const { return ASCEND_IS_AIC ? AscendC::AIC : AscendC::AIV; }
};
inline constexpr CoreTypeOfRunningCore g_coreType{};
#include "ascendc_guest/block_vars.h"

// The leading `;` keeps `x = y ASSERT(c);` of the official template compiling, as on the device
// where ASSERT is empty; here a failed one stops the kernel.
#define ASSERT(expr)                                                                                         \
  ;                                                                                                          \
  {                                                                                                          \
    if (!(expr)) ::ascendc_guest::api_fail(::ascendc_guest::Fault::kAssert, static_cast<int32_t>(__LINE__)); \
  }
#define ascendc_assert(expr, ...) \
  (static_cast<bool>(expr)        \
       ? void(0)                  \
       : ::ascendc_guest::api_fail(::ascendc_guest::Fault::kAssert, static_cast<int32_t>(__LINE__)))
// The kernel's assert with a message (asc-devkit kernel_log.h): a failed one traps, as ASSERT.
#define ASSERT_MSG(expr, fmt, ...)                                                                           \
  do {                                                                                                       \
    if (!(expr)) ::ascendc_guest::api_fail(::ascendc_guest::Fault::kAssert, static_cast<int32_t>(__LINE__)); \
  } while (0)
// The library's instruction-cache preload of the next `len` code blocks (asc-devkit
// kernel_utils_ceil_oom_que.h): the model charges no instruction fetch, so a prefetch has nothing to
// hide; the length is evaluated and the kernel goes on, as the library's CPU debug build defines it.
#define PRELOAD(len) static_cast<void>(len)
// The library's CPU-debug check and log: empty in a device build, their arguments unevaluated.
#define ASCENDC_ASSERT(cond, behavior)
#define KERNEL_LOG(level, format, ...)

// A run-time value, as on the native engine: an identifier, so an `#if` on it preprocesses (as 0).
#define TILING_KEY_VAR ascendc_guest_tiling_key_var
// A template tiling key's dispatcher (backends/common/template_key.py) given a key it built no instance for.
#define ASCENDC_TPL_NO_INSTANCE(key, keys) \
  ::ascendc_guest::api_fail(::ascendc_guest::Fault::kNoTemplateInstance, static_cast<int32_t>(__LINE__))
namespace ascendc_guest {
struct TilingKeyVar {
  operator uint64_t() const { return static_cast<uint64_t>(tiling_key()); }
};
}  // namespace ascendc_guest
inline constexpr ascendc_guest::TilingKeyVar ascendc_guest_tiling_key_var{};

// The tiling's other forms, each copied out of the host's tiling buffer into the kernel's memory
// (a pointer to the tiling itself would name GM, which the guest cannot read).
#define GET_TILING_DATA_MEMBER(type, member, var, tiling) \
  decltype(type::member) var;                             \
  ::ascendc_guest::tiling_read(&var, ::ascendc_guest::TilingAddr(tiling) + offsetof(type, member), sizeof(var))
#define GET_TILING_DATA_PTR_WITH_STRUCT(type, name, tiling)                                                    \
  type name##_ascendc_guest_copy;                                                                              \
  ::ascendc_guest::tiling_read(&name##_ascendc_guest_copy, ::ascendc_guest::TilingAddr(tiling), sizeof(type)); \
  const type* name = &name##_ascendc_guest_copy
