#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void fp8_cast(GM_ADDR x, GM_ADDR q, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                               GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  using F = DTYPE_Q;
  const uint32_t n = t.totalLength;
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bq, by, bz;
  pipe.InitBuffer(bx, n * sizeof(float));
  pipe.InitBuffer(bq, n * sizeof(F));
  pipe.InitBuffer(by, n * sizeof(F));
  pipe.InitBuffer(bz, n * sizeof(float));
  GlobalTensor<float> xg, zg;
  GlobalTensor<F> qg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x, n);
  qg.SetGlobalBuffer((__gm__ F*)q, n);
  yg.SetGlobalBuffer((__gm__ F*)y, n);
  zg.SetGlobalBuffer((__gm__ float*)z, n);
  LocalTensor<float> lx = bx.Get<float>(), lz = bz.Get<float>();
  LocalTensor<F> lq = bq.Get<F>(), ly = by.Get<F>();
  DataCopy(lx, xg, n);
  DataCopy(lq, qg, n);
  PipeBarrier<PIPE_ALL>();
  Cast(ly, lx, std::is_same_v<F, hifloat8_t> ? RoundMode::CAST_ROUND : RoundMode::CAST_RINT, n);
  Cast(lz, lq, RoundMode::CAST_NONE, n);
  PipeBarrier<PIPE_ALL>();
  DataCopy(yg, ly, n);
  DataCopy(zg, lz, n);
}
