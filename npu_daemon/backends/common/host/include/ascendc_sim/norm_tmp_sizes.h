// The sharedTmpBuffer sizes of BatchNorm, GroupNorm and LayerNormGrad as their host helpers
// (GetBatchNormMaxMinTmpSize, GetGroupNormMaxMinTmpSize, GetLayerNormGradMaxMinTmpSize on the A2)
// give them: the host helpers return these numbers and the kernel APIs refuse a buffer under the
// minimum, where the device would compute on whatever lies past it. Plain arithmetic, one
// definition for the host, the native kernel and the guest engine's imports.
#pragma once

#include <cstdint>

namespace ascendc_sim {

struct TmpRange {
  uint32_t maxValue = 0;
  uint32_t minValue = 0;
};

inline uint32_t Align32(uint64_t bytes) { return static_cast<uint32_t>((bytes + 31) / 32 * 32); }

// BatchNorm over [B, S, H]: three float work buffers beside the float mean and variance [S * H];
// each buffer of the whole input at the most, at the least one 32 B block per batch row (two for
// half, whose casts work in 64 B; 64 floats per row for the basic block).
inline TmpRange BatchNormTmpRange(uint32_t originB, uint64_t sh, uint32_t typeSize, bool isBasicBlock) {
  const uint32_t stats = 2 * Align32(sh * 4);
  const uint32_t perRow = isBasicBlock ? 64 * 4 : (typeSize == 2 ? 64 : 32);
  return {3 * Align32(static_cast<uint64_t>(originB) * sh * 4) + stats, 3 * originB * perRow + stats};
}

// GroupNorm over [N, C, H, W] in groupNum groups: three float work buffers (two for a float input
// that may be reused) of all N * C channels at the most, of one group's C / groupNum at the least,
// each channel's H * W padded to 32 B; beside the float mean and variance [N, groupNum].
inline TmpRange GroupNormTmpRange(uint32_t n, uint32_t c, uint64_t hw, uint32_t groupNum, uint32_t typeSize,
                                  bool isReuseSource) {
  if (groupNum == 0 || typeSize == 0) return {};
  const uint64_t channel = Align32(hw * typeSize) / typeSize * 4;
  const uint32_t stats = 2 * Align32(static_cast<uint64_t>(n) * groupNum * 4);
  const uint32_t bufs = isReuseSource && typeSize == 4 ? 2 : 3;
  return {static_cast<uint32_t>(bufs * static_cast<uint64_t>(n) * c * channel + stats),
          static_cast<uint32_t>(bufs * static_cast<uint64_t>(c / groupNum) * channel + stats)};
}

// LayerNormGrad over [B, S, H]: nine buffers of T for half, six floats (four when a float input may
// be reused), of the larger of B * S * H and H * H at the most and the smaller at the least.
inline TmpRange LayerNormGradTmpRange(uint32_t b, uint32_t s, uint32_t h, uint32_t typeSize, bool isReuseSource) {
  const uint64_t input = static_cast<uint64_t>(b) * s * h, square = static_cast<uint64_t>(h) * h;
  const uint32_t bufs = typeSize == 2 ? 9 : (isReuseSource ? 4 : 6);
  const uint64_t big = input > square ? input : square, small = input < square ? input : square;
  return {static_cast<uint32_t>(bufs * big * typeSize), static_cast<uint32_t>(bufs * small * typeSize)};
}

}  // namespace ascendc_sim
