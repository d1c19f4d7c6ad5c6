// The library's compile-time utilities and no-op calls (kernel_utils and utils/std of asc-devkit):
// nothing of the emulation, so the native engine (ascendc_sim/system.h) and the guest engine
// (kernel_operator.h) share them. Inside namespace AscendC.
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>

namespace AscendC {

// The library's scalar ceiling division (kernel_utils of asc-devkit; the samples call it qualified).
constexpr inline uint32_t DivCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
constexpr inline uint32_t AlignUp(uint32_t a, uint32_t b) { return DivCeil(a, b) * b; }
constexpr inline uint32_t ConstCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
// A compiler barrier (kfc_comm.h of asc-devkit): orders the core's scalar memory accesses, no instruction.
inline void Barrier() { std::atomic_signal_fence(std::memory_order_seq_cst); }

inline void SetSysWorkspace(GM_ADDR) {}
inline void SetSysWorkspaceForce(GM_ADDR) {}
// The library's compile-time type traits (kernel_utils of asc-devkit): kernels branch with
// `if constexpr (IsSameType<T, float>::value)`.
template <bool b>
struct BoolInst {
  using Type = BoolInst<b>;
  static constexpr bool value = b;
};
using TrueType = BoolInst<true>;
using FalseType = BoolInst<false>;
template <typename T, typename U>
struct IsSameType : FalseType {};
template <typename T>
struct IsSameType<T, T> : TrueType {};
template <bool b, typename T1, typename T2>
struct Conditional {
  using type = T1;
};
template <typename T1, typename T2>
struct Conditional<false, T1, T2> {
  using type = T2;
};
// The library's std-like utilities (AscendC::Std, asc-devkit include/utils/std).
namespace Std {
using std::is_same;
using std::is_same_v;
template <typename T, typename U>
constexpr inline std::common_type_t<T, U> min(T a, U b) {
  return b < a ? b : a;
}
template <typename T, typename U>
constexpr inline std::common_type_t<T, U> max(T a, U b) {
  return a < b ? b : a;
}
}  // namespace Std

}  // namespace AscendC
