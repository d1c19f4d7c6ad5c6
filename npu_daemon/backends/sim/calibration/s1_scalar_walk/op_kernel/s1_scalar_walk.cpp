// Anchor S1: scalar GM reads through the data cache. Each GetValue at a 64 B stride lands on a line
// the cache does not hold.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void s1_scalar_walk(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer((__gm__ float*)x);
  zGm.SetGlobalBuffer((__gm__ float*)z, 1);
  float sum = 0;
  for (uint32_t i = 0; i < t.reads; ++i) sum += xGm.GetValue(static_cast<uint64_t>(i) * t.stride);
  zGm.SetValue(0, sum);
}
