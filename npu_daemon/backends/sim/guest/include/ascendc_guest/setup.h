// What a kernel sets up by hand (included by kernel_operator.h): the launch's parameter block
// (get_para_base) and the core's control state (InitSocState). LocalTensor's constructor at a fixed
// address of a position's buffer is in kernel_operator.h (its import, local_at, served beside these).
//
// The parameter block holds the kernel's arguments as GM addresses in signature order (the
// workspace and the tiling last), then the tiling data inline, laid out at the guest's pointer
// width (a GM_ADDR is 4 bytes here, 8 on the device). It is a copy in the kernel's own memory made
// once per core: the native engine's block is unguarded GM its kernel reads as plain memory, and
// the guest reads its copy with plain loads.
#pragma once

#include <cstdlib>

namespace ascendc_guest {
// Writes the block at `dst` when `capacity` bytes hold it; its size in bytes either way.
ASCENDC_GUEST_IMPORT(para_block) uint32_t para_block(void* dst, uint32_t capacity);
ASCENDC_GUEST_IMPORT(init_soc_state) void init_soc_state();
}  // namespace ascendc_guest

inline int64_t get_para_base() {
  static void* block = nullptr;  // an instance per core: each core's its own copy
  if (block == nullptr) {
    const uint32_t bytes = ascendc_guest::para_block(nullptr, 0);
    block = std::malloc(bytes);
    ascendc_guest::para_block(block, bytes);
  }
  return static_cast<int64_t>(reinterpret_cast<intptr_t>(block));
}

namespace AscendC {
// The core's atomic mode and vector mask reset, as a kernel's first instruction would.
inline void InitSocState() { ascendc_guest::init_soc_state(); }
}  // namespace AscendC
