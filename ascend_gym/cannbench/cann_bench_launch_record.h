// A cann-bench direct-launch operator's launch, recorded by its host side (direct_launch_host.h)
// as the tiling data, and made again by the generated kernel entry (cannbench/direct_launch.py):
// which launch statement of the kernel file, its block count, and each argument.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace cann_bench_direct {
constexpr int kMaxLaunchArgs = 32;
enum : int32_t { kIntArg = 0, kFloatArg = 1, kTensorArg = 2, kNullArg = 3 };
constexpr int32_t kNoLaunch = -1;  // the instance of a call that launched nothing (a dtype it skips)

struct LaunchArg {
  int32_t kind;
  int32_t tensor;  // kTensorArg: the entry's GM parameter (inputs, then outputs)
  int64_t bits;    // the integer, the double's bits, or the byte offset into the tensor
};

struct LaunchRecord {
  int32_t instance;  // the launch statement, in the order of the kernel file
  int32_t nargs;
  int64_t blockDim;
  LaunchArg args[kMaxLaunchArgs];
};

#ifdef ASCENDC_SIM_KERNEL
// Argument i of the launch as the kernel's parameter type.
template <typename P>
P LaunchArgument(const LaunchRecord& r, int i, GM_ADDR const* gm) {
  const LaunchArg& a = r.args[i];
  if constexpr (std::is_pointer_v<P>) {
    return a.kind == kTensorArg ? (P)(gm[a.tensor] + a.bits) : nullptr;  // GM_ADDR is __gm__ on the guest
  } else if constexpr (std::is_floating_point_v<P>) {
    double d;
    std::memcpy(&d, &a.bits, sizeof d);
    return static_cast<P>(d);
  } else if constexpr (std::is_integral_v<P> || std::is_enum_v<P>) {
    return a.kind == kFloatArg ? P{} : static_cast<P>(a.bits);
  } else {
    P p;
    std::memcpy(&p, &a.bits, sizeof p);
    return p;
  }
}

template <typename... P, size_t... I>
void CallRecorded(void (*kernel)(P...), const LaunchRecord& r, GM_ADDR const* gm, std::index_sequence<I...>) {
  kernel(LaunchArgument<std::decay_t<P>>(r, static_cast<int>(I), gm)...);
}

// The kernel called with the recorded arguments, on the block the simulator runs.
template <typename... P>
void CallRecorded(void (*kernel)(P...), const LaunchRecord& r, GM_ADDR const* gm) {
  CallRecorded(kernel, r, gm, std::index_sequence_for<P...>{});
}
#endif
}  // namespace cann_bench_direct
