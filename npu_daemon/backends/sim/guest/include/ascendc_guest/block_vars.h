// The device compiler's built-in variables block_idx and block_num (what GetBlockIdx() and
// GetBlockNum() return, in older kernels): the running core's, read where they are used. Both
// engines include this after their AscendC::GetBlockIdx / GetBlockNum.
#pragma once

#include <cstdint>

struct BlockIdxOfRunningCore {
  operator int64_t() const { return AscendC::GetBlockIdx(); }
};
struct BlockNumOfLaunch {
  operator int64_t() const { return AscendC::GetBlockNum(); }
};
inline constexpr BlockIdxOfRunningCore block_idx{};
inline constexpr BlockNumOfLaunch block_num{};
