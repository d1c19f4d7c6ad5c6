// One core's share of y = x * scale + offset, on the repository's shared "blend_math.h".
#include "kernel_operator.h"
#include "blend_math.h"
#include "offset_blend_tiling.h"

extern "C" __global__ __aicore__ void offset_blend(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(OffsetBlendTiling, t, tiling);
  const uint32_t start = AscendC::GetBlockIdx() * t.perCore;
  const uint32_t n = t.total - start < t.perCore ? t.total - start : t.perCore;
  BlendRows((__gm__ float*)x + start, (__gm__ float*)y + start, n, t.scale, t.offset);
}
