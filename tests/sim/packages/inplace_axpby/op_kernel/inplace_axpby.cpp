// x = a * x + b * y, written back over x (the op has no output tensor of its own).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void inplace_axpby(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  const uint32_t start = GetBlockIdx() * t.perCore;
  const uint32_t n = t.total - start < t.perCore ? t.total - start : t.perCore;
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x + start, n);
  yg.SetGlobalBuffer((__gm__ float*)y + start, n);
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> qx, qy;
  TQue<QuePosition::VECOUT, 1> qz;
  const uint32_t bytes = (n * 4 + 31) / 32 * 32;
  pipe.InitBuffer(qx, 1, bytes);
  pipe.InitBuffer(qy, 1, bytes);
  pipe.InitBuffer(qz, 1, bytes);
  LocalTensor<float> a = qx.AllocTensor<float>(), b = qy.AllocTensor<float>();
  DataCopyPad(a, xg, {1, static_cast<uint32_t>(n * 4), 0, 0, 0}, {false, 0, 0, 0});
  DataCopyPad(b, yg, {1, static_cast<uint32_t>(n * 4), 0, 0, 0}, {false, 0, 0, 0});
  qx.EnQue(a);
  qy.EnQue(b);
  a = qx.DeQue<float>();
  b = qy.DeQue<float>();
  LocalTensor<float> z = qz.AllocTensor<float>();
  Muls(z, a, t.a, n);
  Axpy(z, b, t.b, n);
  qz.EnQue(z);
  qx.FreeTensor(a);
  qy.FreeTensor(b);
  z = qz.DeQue<float>();
  DataCopyPad(xg, z, {1, static_cast<uint32_t>(n * 4), 0, 0, 0});
  qz.FreeTensor(z);
}
