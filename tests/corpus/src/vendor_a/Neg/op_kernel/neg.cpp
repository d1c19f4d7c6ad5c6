#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void neg(GM_ADDR input_x, GM_ADDR output_y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  const uint32_t start = GetBlockIdx() * t.perCore;
  const uint32_t n = t.total - start < t.perCore ? t.total - start : t.perCore;
  GlobalTensor<DTYPE_INPUT_X> xg;
  GlobalTensor<DTYPE_OUTPUT_Y> yg;
  xg.SetGlobalBuffer((__gm__ DTYPE_INPUT_X*)input_x + start);
  yg.SetGlobalBuffer((__gm__ DTYPE_OUTPUT_Y*)output_y + start);
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> qi;
  TQue<QuePosition::VECOUT, 1> qo;
  pipe.InitBuffer(qi, 1, t.perCore * 4);
  pipe.InitBuffer(qo, 1, t.perCore * 4);
  LocalTensor<float> a = qi.AllocTensor<float>();
  DataCopyPad(a, xg, {1, n * 4, 0, 0, 0}, {false, 0, 0, 0});
  qi.EnQue(a);
  a = qi.DeQue<float>();
  LocalTensor<float> b = qo.AllocTensor<float>();
  Muls(b, a, -1.0f, n);
  qo.EnQue(b);
  qi.FreeTensor(a);
  b = qo.DeQue<float>();
  DataCopyPad(yg, b, {1, n * 4, 0, 0, 0});
  qo.FreeTensor(b);
}
