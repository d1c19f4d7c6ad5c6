// One core's share of y = x * scale + offset, on the project's shared "offset_math.h".
#include "kernel_operator.h"
#include "offset_math.h"

extern "C" __global__ __aicore__ void offset_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  const uint32_t start = AscendC::GetBlockIdx() * t.perCore;
  const uint32_t n = t.total - start < t.perCore ? t.total - start : t.perCore;
  AscendC::GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x + start, n);
  yg.SetGlobalBuffer((__gm__ float*)y + start, n);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> qi;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> qo;
  pipe.InitBuffer(qi, 1, t.perCore * sizeof(float));
  pipe.InitBuffer(qo, 1, t.perCore * sizeof(float));
  AscendC::LocalTensor<float> a = qi.AllocTensor<float>();
  AscendC::DataCopyPad(a, xg, {1, n * 4, 0, 0, 0}, {false, 0, 0, 0});
  qi.EnQue(a);
  a = qi.DeQue<float>();
  AscendC::LocalTensor<float> b = qo.AllocTensor<float>();
  OffsetMath(b, a, t.scale, t.offset, n);
  qo.EnQue(b);
  qi.FreeTensor(a);
  b = qo.DeQue<float>();
  AscendC::DataCopyPad(yg, b, {1, n * 4, 0, 0, 0});
  qo.FreeTensor(b);
}
