// Anchor L1: SwiGLU of x's two halves, z = a / (1 + exp(-a)) * b, on one core.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void l1_launch(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  const uint32_t half = t.length / 2;
  GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, t.length);
  zGm.SetGlobalBuffer((__gm__ float*)z, half);
  TPipe pipe;
  TBuf<QuePosition::VECCALC> ub;
  pipe.InitBuffer(ub, 2 * t.length * sizeof(float));
  LocalTensor<float> all = ub.Get<float>();
  LocalTensor<float> a = all, b = all[half], s = all[t.length];
  DataCopy(all, xGm, t.length);
  SetFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
  Muls(s, a, -1.0f, half);
  Exp(s, s, half);
  Adds(s, s, 1.0f, half);
  Div(s, a, s, half);
  Mul(s, s, b, half);
  SetFlag<HardEvent::V_MTE3>(0);
  WaitFlag<HardEvent::V_MTE3>(0);
  DataCopy(zGm, s, half);
}
