#include "kernel_operator.h"
using namespace AscendC;

// One 32 x 32 x 32 tile from fractals in GM: A straight into L0A, B into L1 and on to L0B.
extern "C" __global__ __aicore__ void cube_from_gm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GET_TILING_DATA(t, tiling);
  const uint32_t n = t.size, n1 = n / 16, fractals = n1 * n1;
  TPipe pipe;
  TQue<TPosition::B1, 1> qb1;
  TQue<TPosition::A2, 1> qa2;
  TQue<TPosition::B2, 1> qb2;
  TQue<TPosition::CO1, 1> qc;
  pipe.InitBuffer(qb1, 1, n * n * 2);
  pipe.InitBuffer(qa2, 1, n * n * 2);
  pipe.InitBuffer(qb2, 1, n * n * 2);
  pipe.InitBuffer(qc, 1, n * n * 4);
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc;
  ga.SetGlobalBuffer((__gm__ half*)a);
  gb.SetGlobalBuffer((__gm__ half*)b);
  gc.SetGlobalBuffer((__gm__ float*)c);

  // GM -> L0A: the even fractals, then the odd ones (startIndex 1), each every other fractal of
  // the source (srcStride 2) into every other fractal of L0A (dstGap 1).
  LocalTensor<half> a2 = qa2.AllocTensor<half>();
  LoadData(a2, ga, LoadData2DParams(0, fractals / 2, 2, 0, 1, false, 0));
  LoadData(a2[256], ga, LoadData2DParams(1, fractals / 2, 2, 0, 1, false, 0));
  qa2.EnQue(a2);
  // GM -> L1: the NZ fractals as they are; the A2's GM paths take no transpose, so ifTranspose
  // changes nothing here.
  LocalTensor<half> b1 = qb1.AllocTensor<half>();
  LoadData2dParams whole(0, fractals, 1, 0, 0, true, 0);
  LoadData(b1, gb, whole);
  qb1.EnQue(b1);

  b1 = qb1.DeQue<half>();
  LocalTensor<half> b2 = qb2.AllocTensor<half>();
  for (uint32_t k = 0; k < n1; ++k) LoadData(b2[k * n1 * 256], b1[k * 256], LoadData2DParams(0, n1, n1, 0, 0, true, 0));
  qb2.EnQue(b2);
  qb1.FreeTensor(b1);

  a2 = qa2.DeQue<half>();
  b2 = qb2.DeQue<half>();
  LocalTensor<float> co = qc.AllocTensor<float>();
  MmadParams mp;
  mp.m = n;
  mp.n = n;
  mp.k = n;
  Mmad(co, a2, b2, mp);
  qc.EnQue(co);
  qa2.FreeTensor(a2);
  qb2.FreeTensor(b2);
  co = qc.DeQue<float>();
  Fixpipe(gc, co, FixpipeParamsV220(n, n, n, n, false));
  qc.FreeTensor(co);
}
