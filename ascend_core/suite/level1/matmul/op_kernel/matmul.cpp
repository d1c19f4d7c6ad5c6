// c = a @ b on the cube cores: one Matmul object per AIC computes its singleCoreM x singleCoreN
// block of C (the tiling's M x N split), with the tail blocks cut to the matrix.
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GET_TILING_DATA(t, tiling);
  const TCubeTiling& tl = t.mm;
  TPipe pipe;
  Matmul<AType, AType, CType, BiasType, CFG_NORM> mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);
  const int32_t idx = GetBlockIdx();
  const int32_t mBlocks = (tl.M + tl.singleCoreM - 1) / tl.singleCoreM;
  const int32_t mi = idx % mBlocks, ni = idx / mBlocks;
  GlobalTensor<half> ga, gb, gc;
  ga.SetGlobalBuffer((__gm__ half*)a);
  gb.SetGlobalBuffer((__gm__ half*)b);
  gc.SetGlobalBuffer((__gm__ half*)c);
  mm.SetTensorA(ga[mi * tl.singleCoreM * tl.Ka]);
  mm.SetTensorB(t.transB ? gb[ni * tl.singleCoreN * tl.Kb] : gb[ni * tl.singleCoreN], t.transB != 0);
  const int32_t tailM = tl.M - mi * tl.singleCoreM, tailN = tl.N - ni * tl.singleCoreN;
  mm.SetTail(tailM < tl.singleCoreM ? tailM : tl.singleCoreM, tailN < tl.singleCoreN ? tailN : tl.singleCoreN);
  mm.IterateAll(gc[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);
  mm.End();
}
