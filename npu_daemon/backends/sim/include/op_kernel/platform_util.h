// Kernel-side platform constants of the CANN op base (opbase's op_common/op_kernel/platform_util.h).
#pragma once

#include "kernel_operator.h"

namespace Ops {
namespace Base {
__aicore__ inline constexpr uint32_t GetUbBlockSize() { return 32U; }  // bytes of a UB block
__aicore__ inline constexpr uint32_t GetVRegSize() { return 256U; }    // bytes one vector repeat covers
}  // namespace Base
}  // namespace Ops
