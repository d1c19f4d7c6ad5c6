// Cube anchors in the Matmul API's default MIX mode: each AIV of a group drives a Matmul for its
// singleCoreM x singleCoreN block of C and the group's AIC serves the requests of both AIVs.
// As in the vendor's kernels, an AIV whose block index reaches usedCoreNum has no block and returns.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void c3_matmul_mix(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  GET_TILING_DATA(t, tiling);
  const TCubeTiling& tl = t.mm;
  TPipe pipe;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>, CFG_NORM>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);
  const int32_t idx = GetBlockIdx();
  if (idx >= tl.usedCoreNum) return;
  const int32_t mBlocks = (tl.M + tl.singleCoreM - 1) / tl.singleCoreM;
  const int32_t mi = idx % mBlocks, ni = idx / mBlocks;
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc;
  ga.SetGlobalBuffer((__gm__ half*)a);
  gb.SetGlobalBuffer((__gm__ half*)b);
  gc.SetGlobalBuffer((__gm__ float*)c);
  mm.SetTensorA(ga[mi * tl.singleCoreM * tl.Ka]);
  mm.SetTensorB(gb[ni * tl.singleCoreN]);
  const int32_t tailM = tl.M - mi * tl.singleCoreM, tailN = tl.N - ni * tl.singleCoreN;
  mm.SetTail(tailM < tl.singleCoreM ? tailM : tl.singleCoreM, tailN < tl.singleCoreN ? tailN : tl.singleCoreN);
  mm.IterateAll(gc[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);
  mm.End();
}
