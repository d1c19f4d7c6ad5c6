// Expert: the baseline's mixed kernel with the Matmul on the MDL template.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using HalfND = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using FloatND = MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void matmul_bias_relu(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace,
                                                       GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  GET_TILING_DATA(t, tiling);
  const TCubeTiling& tl = t.mm;
  TPipe pipe;
  Matmul<HalfND, HalfND, FloatND, FloatND, CFG_MDL> mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);
  const int32_t idx = GetBlockIdx();
  if (idx >= tl.usedCoreNum) return;
  const int32_t mBlocks = (tl.M + tl.singleCoreM - 1) / tl.singleCoreM;
  const int32_t mi = idx % mBlocks, ni = idx / mBlocks;
  const int32_t m0 = mi * tl.singleCoreM, n0 = ni * tl.singleCoreN;
  const int32_t rows = tl.M - m0 < tl.singleCoreM ? tl.M - m0 : tl.singleCoreM;
  const int32_t cols = tl.N - n0 < tl.singleCoreN ? tl.N - n0 : tl.singleCoreN;
  GlobalTensor<half> gx, gw, gy;
  GlobalTensor<float> gb, gc;
  gx.SetGlobalBuffer((__gm__ half*)x);
  gw.SetGlobalBuffer((__gm__ half*)w);
  gb.SetGlobalBuffer((__gm__ float*)bias);
  gy.SetGlobalBuffer((__gm__ half*)y);
  gc.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace));
  mm.SetTensorA(gx[m0 * tl.Ka]);
  mm.SetTensorB(gw[n0]);
  mm.SetBias(gb[n0]);
  mm.SetTail(rows, cols);
  mm.IterateAll(gc[m0 * tl.N + n0]);
  mm.End();

  // Epilogue on this AIV: rowsPerCopy rows of its block per tile, double-buffered.
  const uint32_t step = t.rowsPerCopy;
  TQue<TPosition::VECIN, 2> qin;
  TQue<TPosition::VECOUT, 2> qout;
  pipe.InitBuffer(qin, 2, step * tl.singleCoreN * sizeof(float));
  pipe.InitBuffer(qout, 2, step * tl.singleCoreN * sizeof(half));
  for (int32_t r = 0; r < rows; r += step) {
    const uint32_t n = (rows - r < static_cast<int32_t>(step) ? rows - r : step);
    LocalTensor<float> c = qin.AllocTensor<float>();
    DataCopyParams in{static_cast<uint16_t>(n), static_cast<uint16_t>(cols * sizeof(float) / 32),
                      static_cast<uint16_t>((tl.N - cols) * sizeof(float) / 32), 0};
    DataCopy(c, gc[(m0 + r) * tl.N + n0], in);
    qin.EnQue(c);
    c = qin.DeQue<float>();
    LocalTensor<half> o = qout.AllocTensor<half>();
    Relu(c, c, n * cols);
    Cast(o, c, RoundMode::CAST_RINT, n * cols);
    qout.EnQue(o);
    qin.FreeTensor(c);
    o = qout.DeQue<half>();
    DataCopyParams out{static_cast<uint16_t>(n), static_cast<uint16_t>(cols * sizeof(half) / 32), 0,
                       static_cast<uint16_t>((tl.N - cols) * sizeof(half) / 32)};
    DataCopy(gy[(m0 + r) * tl.N + n0], o, out);
    qout.FreeTensor(o);
  }
}
