// y = x @ w^T in int8 on the cube cores (int32 accumulation in L0C, int32 out through the Fixpipe):
// one Matmul object per AIC computes its singleCoreM x singleCoreN block of y.
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using Int8ND = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
using Int8Trans = MatmulType<TPosition::GM, CubeFormat::ND, int8_t, true>;
using Int32ND = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;

extern "C" __global__ __aicore__ void matmul_int8(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GET_TILING_DATA(t, tiling);
  const TCubeTiling& tl = t.mm;
  TPipe pipe;
  Matmul<Int8ND, Int8Trans, Int32ND, Int32ND, CFG_NORM> mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);
  const int32_t idx = GetBlockIdx();
  const int32_t mBlocks = (tl.M + tl.singleCoreM - 1) / tl.singleCoreM;
  const int32_t mi = idx % mBlocks, ni = idx / mBlocks;
  GlobalTensor<int8_t> gx, gw;
  GlobalTensor<int32_t> gy;
  gx.SetGlobalBuffer((__gm__ int8_t*)x);
  gw.SetGlobalBuffer((__gm__ int8_t*)w);
  gy.SetGlobalBuffer((__gm__ int32_t*)y);
  mm.SetTensorA(gx[mi * tl.singleCoreM * tl.Ka]);
  mm.SetTensorB(gw[ni * tl.singleCoreN * tl.Kb], true);
  const int32_t tailM = tl.M - mi * tl.singleCoreM, tailN = tl.N - ni * tl.singleCoreN;
  mm.SetTail(tailM < tl.singleCoreM ? tailM : tl.singleCoreM, tailN < tl.singleCoreN ? tailN : tl.singleCoreN);
  mm.IterateAll(gy[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);
  mm.End();
}
