// System values and kernel-entry macros: block index, tiling data, tiling keys, workspaces.
#pragma once

#include <atomic>

#include "../../guest/include/ascendc_guest/abi.h"     // KernelMetaType
#include "../../guest/include/ascendc_guest/params.h"  // scalar helpers and type traits, shared with the guest
#include "ascendc_sim/core.h"
#include "register/tilingdata_base.h"

namespace ascendc_sim {
uint64_t TilingKey();
uint8_t* SysWorkspace();
uint8_t* ParaBase();
int64_t SocParamInt(const char* key);
// GET_TILING_DATA's copy of `bytes` of the tiling at GM `tiling` into the kernel's struct, charged as
// the device runs it: the scalar unit loads it a word at a time through its data cache (core.cpp).
void TilingCopy(void* dst, const uint8_t* tiling, uint64_t bytes);
}  // namespace ascendc_sim

namespace AscendC {

__aicore__ inline int64_t GetBlockIdx() { return ascendc_sim::CurrentCore().Spec().blockIdx; }
__aicore__ inline int64_t GetBlockNum() { return ascendc_sim::CurrentCore().Spec().blockNum; }
__aicore__ inline int64_t GetSubBlockIdx() { return ascendc_sim::CurrentCore().Spec().sub; }
__aicore__ inline int64_t GetSubBlockNum() { return ascendc_sim::CurrentCore().Spec().ratio; }
__aicore__ inline int64_t GetTaskRation() { return ascendc_sim::CurrentCore().Spec().ratio; }
__aicore__ inline int64_t GetTaskRatio() { return ascendc_sim::CurrentCore().Spec().ratio; }
__aicore__ inline int64_t GetSystemCycle() {
  return static_cast<int64_t>(ascendc_sim::CurrentCore().Trace().instrs.size());
}
__aicore__ inline GM_ADDR GetSysWorkSpacePtr() { return ascendc_sim::SysWorkspace(); }
__aicore__ inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
  return workspace == nullptr ? nullptr : workspace + ascendc_sim::SocParamInt("lib_workspace_bytes");
}
// Reset the core's control state (atomic mode, vector mask) as a kernel's first instruction would.
__aicore__ inline void InitSocState() {
  ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  core.Registers().atomicOp = ascendc_sim::AtomicOp::kNone;
  core.Registers().mask[0] = core.Registers().mask[1] = ~0ull;
  core.Registers().maskCounter = false;
}
// Scalar bfloat16 <-> float conversions (the scalar unit has no bf16 arithmetic).
__aicore__ inline float ToFloat(const bfloat16_t& v) { return static_cast<float>(v); }
__aicore__ inline bfloat16_t ToBfloat16(const float& v) { return bfloat16_t(v); }
// A compiler barrier (kfc_comm.h of asc-devkit): orders the core's scalar memory accesses, no instruction.
__aicore__ inline void Barrier() { std::atomic_signal_fence(std::memory_order_seq_cst); }

__aicore__ inline void SetSysWorkspace(GM_ADDR) {}
__aicore__ inline void SetSysWorkspaceForce(GM_ADDR) {}
using ::printf;
// The library's device printf (the device prints after the kernel ends; here at once).
template <typename... Args>
__aicore__ inline void PRINTF(const char* fmt, Args... args) {
  ::printf(fmt, args...);
}
// The leading `;` keeps the official template's `this->tileNum = tileNum ASSERT(...);` compiling, and
// the block one without a `;` after it (cann-ops mul_sigmoid), as both do on the device where ASSERT
// is empty; the cost is that `if (c) ASSERT(x);` checks x always.
#define ASSERT(expr)                                                                                                \
  ;                                                                                                                 \
  {                                                                                                                 \
    if (!(expr))                                                                                                    \
      ::ascendc_sim::Fail(::ascendc_sim::Status::RUNTIME_ERROR, ::ascendc_sim::SrcLoc::here(), "ASSERT(%s) failed", \
                          #expr);                                                                                   \
  }
// Stops the AI core (asc-devkit kernel_operator_sys_var_intf.h; an assert in the library's CPU mode).
__aicore__ inline void Trap(ASCENDC_SIM_LOC) {
  ::ascendc_sim::Fail(::ascendc_sim::Status::RUNTIME_ERROR, loc, "Trap()");
}

}  // namespace AscendC

// The library's device assert (asc-devkit utils/debug/asc_assert.h), active unless a build turns
// dumps off: a failed one stops the kernel, its message left out here.
#define ascendc_assert(expr, ...)                                                                                     \
  (static_cast<bool>(expr) ? void(0)                                                                                  \
                           : ::ascendc_sim::Fail(::ascendc_sim::Status::RUNTIME_ERROR, ::ascendc_sim::SrcLoc::here(), \
                                                 "ascendc_assert(%s) failed", #expr))

// The kernel's assert with a message (asc-devkit impl/basic_api/kernel_log.h): the device prints
// the message and traps; here the failed condition stops the kernel, the message left out.
#define ASSERT_MSG(expr, fmt, ...)                                                             \
  do {                                                                                         \
    if (!(expr))                                                                               \
      ::ascendc_sim::Fail(::ascendc_sim::Status::RUNTIME_ERROR, ::ascendc_sim::SrcLoc::here(), \
                          "ASSERT_MSG(%s) failed", #expr);                                     \
  } while (0)

// The library's instruction-cache preload of the next `len` code blocks (asc-devkit
// kernel_utils_ceil_oom_que.h): the model charges no instruction fetch, so a prefetch has nothing to
// hide; the length is evaluated and the kernel goes on, as the library's CPU debug build defines it.
#define PRELOAD(len) static_cast<void>(len)
// The library's internal check and log (asc-devkit impl/basic_api/kernel_log.h): only its CPU
// debug build (ASCENDC_CPU_DEBUG) defines them; the device build leaves both empty, the condition
// and the message unevaluated, so a kernel may call them with names it never declares.
#define ASCENDC_ASSERT(cond, behavior)
#define KERNEL_LOG(level, format, ...)
// Kernels call these unqualified outside `using namespace AscendC`, as the toolchain allows
// (GetSysWorkSpacePtr is a global function in asc-devkit's kernel_operator_swap_mem_intf.h).
using AscendC::GetBlockIdx;
using AscendC::GetBlockNum;
using AscendC::GetSysWorkSpacePtr;

// The device compiler's global abs takes floats too (the library's Std::abs calls ::abs on a
// float); g++'s is C's int abs alone, which would truncate a float argument.
using std::abs;

// CCE intrinsics older kernels call directly.
__aicore__ inline int64_t get_block_idx() { return AscendC::GetBlockIdx(); }
__aicore__ inline int64_t get_block_num() { return AscendC::GetBlockNum(); }
__aicore__ inline int64_t get_subblockid() { return AscendC::GetSubBlockIdx(); }
__aicore__ inline int64_t get_subblockdim() { return AscendC::GetSubBlockNum(); }
// The address of the launch's parameter block: the kernel's arguments as 8 B GM addresses in
// signature order, the tiling data inline after them.
__aicore__ inline int64_t get_para_base() { return reinterpret_cast<int64_t>(ascendc_sim::ParaBase()); }

// The unit the code runs on: a run-time test here (one kernel build runs on every core), so
// `if ASCEND_IS_AIC { ... }` works as on the device but `if constexpr (ASCEND_IS_AIC)` does not.
#define ASCEND_IS_AIV (::ascendc_sim::CurrentCore().Spec().type == ::ascendc_sim::CoreType::kAiv)
#define ASCEND_IS_AIC (::ascendc_sim::CurrentCore().Spec().type == ::ascendc_sim::CoreType::kAic)
#define ASCEND_IS_NOT_AIV (!ASCEND_IS_AIV)
#define ASCEND_IS_NOT_AIC (!ASCEND_IS_AIC)

// The library's core-type codes and g_coreType, which kernels compare with them
// (`if (g_coreType == AIV)`): a constant of each split compile on the device, the running core here.
namespace AscendC {
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
}  // namespace AscendC
struct CoreTypeOfRunningCore {
  operator int32_t() const { return ASCEND_IS_AIC ? AscendC::AIC : AscendC::AIV; }
};
inline constexpr CoreTypeOfRunningCore g_coreType{};

#include "../../guest/include/ascendc_guest/block_vars.h"  // shared with the guest

// The kernel type is read from the kernel source before the launch (npu_daemon/backends/common/
// kernel_view.py: kernel_type) and decides which cores run; the statement itself does nothing.
#define KERNEL_TASK_TYPE_DEFAULT(type) (void)(type)
#define KERNEL_TASK_TYPE(key, type) (void)(key), (void)(type)

#define TILING_KEY_IS(k) (::ascendc_sim::TilingKey() == static_cast<uint64_t>(k))
// A run-time value here: the real toolchain compiles one kernel per key and makes it a constant
// (so `if constexpr (TILING_KEY_IS(k))` and TILING_KEY_VAR as a template argument do not compile).
// An identifier, not an expression, so that an `#if` on it preprocesses: there it reads as 0, as
// the preprocessor reads any identifier (one build serves every key).
#define TILING_KEY_VAR ascendc_sim_tiling_key_var
// A template tiling key's dispatcher (backends/common/template_key.py) given a key it built no instance for.
#define ASCENDC_TPL_NO_INSTANCE(key, keys)                                                             \
  ::ascendc_sim::Fail(::ascendc_sim::Status::RUNTIME_ERROR, ::ascendc_sim::SrcLoc::here(),             \
                      "tiling key %llu has no kernel instance (ASCENDC_TPL_SEL builds keys " keys ")", \
                      static_cast<unsigned long long>(key))
namespace ascendc_sim {
struct TilingKeyVar {
  operator uint64_t() const { return TilingKey(); }
};
}  // namespace ascendc_sim
inline constexpr ascendc_sim::TilingKeyVar ascendc_sim_tiling_key_var{};

#define ASCENDC_SIM_STR2(x) #x
#define ASCENDC_SIM_STR(x) ASCENDC_SIM_STR2(x)
#define ASCENDC_SIM_OP_KEY ::ascendc_sim::OpKey(ASCENDC_SIM_STR(ASCENDC_SIM_OP_TYPE))

// The TilingData registered for this op type (REGISTER_TILING_DATA_CLASS in the host tiling header,
// or REGISTER_TILING_DEFAULT in the kernel), copied out of the tiling buffer.
#define GET_TILING_DATA(name, tiling)                                         \
  decltype(TilingOf(::ascendc_sim::TilingKeyTag<ASCENDC_SIM_OP_KEY>{})) name; \
  ::ascendc_sim::TilingCopy(&name, reinterpret_cast<const uint8_t*>(tiling), sizeof(name))
#define GET_TILING_DATA_WITH_STRUCT(type, name, tiling) \
  type name;                                            \
  ::ascendc_sim::TilingCopy(&name, reinterpret_cast<const uint8_t*>(tiling), sizeof(name))
#define GET_TILING_DATA_MEMBER(type, member, var, tiling) \
  decltype(type::member) var;                             \
  ::ascendc_sim::TilingCopy(&var, reinterpret_cast<const uint8_t*>(tiling) + offsetof(type, member), sizeof(var))
// A pointer to a copy, as the guest engine makes: the kernel's reads of the struct are the device's
// scalar loads from GM, charged by TilingCopy like the other forms.
#define GET_TILING_DATA_PTR_WITH_STRUCT(type, name, tiling)                                                    \
  type name##_ascendc_sim_copy;                                                                                \
  ::ascendc_sim::TilingCopy(&name##_ascendc_sim_copy, reinterpret_cast<const uint8_t*>(tiling), sizeof(type)); \
  const type* name = &name##_ascendc_sim_copy
