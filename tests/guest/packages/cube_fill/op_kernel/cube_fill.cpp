#include "kernel_operator.h"
using namespace AscendC;

// One 32 x 32 x 32 tile: A and B through L1 (NZ) and L0A / L0B, each with a fill over part of it.
extern "C" __global__ __aicore__ void cube_fill(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GET_TILING_DATA(t, tiling);
  const uint32_t n = t.size, n1 = n / 16;
  TPipe pipe;
  TQue<TPosition::A1, 1> qa1;
  TQue<TPosition::B1, 1> qb1;
  TQue<TPosition::A2, 1> qa2;
  TQue<TPosition::B2, 1> qb2;
  TQue<TPosition::CO1, 1> qc;
  pipe.InitBuffer(qa1, 1, n * n * 2);
  pipe.InitBuffer(qb1, 1, n * n * 2);
  pipe.InitBuffer(qa2, 1, n * n * 2);
  pipe.InitBuffer(qb2, 1, n * n * 2);
  pipe.InitBuffer(qc, 1, n * n * 4);
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc;
  ga.SetGlobalBuffer((__gm__ half*)a);
  gb.SetGlobalBuffer((__gm__ half*)b);
  gc.SetGlobalBuffer((__gm__ float*)c);

  LocalTensor<half> a1 = qa1.AllocTensor<half>();
  DataCopy(a1, ga, Nd2NzParams(1, n, n, 0, n, n, 1, 0));
  // L1 in 32 B blocks (one row of a 16-column block): rows 0-7 and 16-23 of column block 0.
  Fill(a1, InitConstValueParams<half>(2, 8, 8, half(2.0f)));
  // Block 63 (row 31 of column block 1) as uint32_t words of two halves 2.0 (0x4000).
  Fill(a1.ReinterpretCast<uint32_t>()[63 * 8], {1, 1, 0, 0x40004000u});
  qa1.EnQue(a1);
  LocalTensor<half> b1 = qb1.AllocTensor<half>();
  DataCopy(b1, gb, Nd2NzParams(1, n, n, 0, n, n, 1, 0));
  qb1.EnQue(b1);

  a1 = qa1.DeQue<half>();
  LocalTensor<half> a2 = qa2.AllocTensor<half>();
  for (uint32_t i = 0; i < n1; ++i) LoadData(a2[i * n1 * 256], a1[i * 256], LoadData2DParams(0, n1, n1, 0, 0, false, 0));
  // L0A in 512 B fractals, row-major over fractals: fractal (0, 1).
  InitConstValue(a2[256], {1, 1, 0, half(0.5f)});
  qa2.EnQue(a2);
  qa1.FreeTensor(a1);
  b1 = qb1.DeQue<half>();
  LocalTensor<half> b2 = qb2.AllocTensor<half>();
  for (uint32_t k = 0; k < n1; ++k) LoadData(b2[k * n1 * 256], b1[k * 256], LoadData2DParams(0, n1, n1, 0, 0, true, 0));
  // L0B: fractal (0, 0) of B.
  Fill(b2, InitConstValueParams<half>(1, 1, 0, half(0.0f)));
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
