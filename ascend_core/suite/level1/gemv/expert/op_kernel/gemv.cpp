// Expert: as the baseline, with the MDL template (several base blocks of K per GM -> L1 copy: fewer,
// longer copies keep MTE2 ahead of the cube).
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using BTransType = MatmulType<TPosition::GM, CubeFormat::ND, half, true>;
using HalfND = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void gemv(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GET_TILING_DATA(t, tiling);
  const TCubeTiling& tl = t.mm;
  TPipe pipe;
  Matmul<HalfND, BTransType, HalfND, BiasType, CFG_MDL> mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);
  const int32_t idx = GetBlockIdx();
  const int32_t mBlocks = (tl.M + tl.singleCoreM - 1) / tl.singleCoreM;
  const int32_t mi = idx % mBlocks, ni = idx / mBlocks;
  GlobalTensor<half> ga, gb, gc;
  ga.SetGlobalBuffer((__gm__ half*)x);
  gb.SetGlobalBuffer((__gm__ half*)w);
  gc.SetGlobalBuffer((__gm__ half*)y);
  mm.SetTensorA(ga[mi * tl.singleCoreM * tl.Ka]);
  mm.SetTensorB(gb[ni * tl.singleCoreN * tl.Kb], true);
  const int32_t tailM = tl.M - mi * tl.singleCoreM, tailN = tl.N - ni * tl.singleCoreN;
  mm.SetTail(tailM < tl.singleCoreM ? tailM : tl.singleCoreM, tailN < tl.singleCoreN ? tailN : tl.singleCoreN);
  mm.IterateAll(gc[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);
  mm.End();
}
