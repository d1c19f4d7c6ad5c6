// fp32 C = A x B through the Matmul API with SetHF32 (cube only, as documented): each AIC its
// singleCoreM x singleCoreN block.
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using FType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void cube_hf32(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GET_TILING_DATA(t, tiling);
  const TCubeTiling& tl = t.mm;
  TPipe pipe;
  Matmul<FType, FType, FType, FType, CFG_NORM> mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);
  const int32_t idx = GetBlockIdx();
  const int32_t mBlocks = (tl.M + tl.singleCoreM - 1) / tl.singleCoreM;
  const int32_t mi = idx % mBlocks, ni = idx / mBlocks;
  GlobalTensor<float> ga, gb, gc;
  ga.SetGlobalBuffer((__gm__ float*)a);
  gb.SetGlobalBuffer((__gm__ float*)b);
  gc.SetGlobalBuffer((__gm__ float*)c);
  mm.SetTensorA(ga[mi * tl.singleCoreM * tl.Ka]);
  mm.SetTensorB(gb[ni * tl.singleCoreN]);
  const int32_t tailM = tl.M - mi * tl.singleCoreM, tailN = tl.N - ni * tl.singleCoreN;
  mm.SetTail(tailM < tl.singleCoreM ? tailM : tl.singleCoreM, tailN < tl.singleCoreN ? tailN : tl.singleCoreN);
  mm.SetHF32(t.hf32 != 0, t.transMode);
  mm.IterateAll(gc[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);
  mm.SetHF32(false);
  mm.End();
}
