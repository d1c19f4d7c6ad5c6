// Each AIV block drives the Matmul for its part of C (the tiling's split of M and N): offsets
// from the block index, a tail where the part is cut short by the matrix's edge.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using HalfND = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using FloatND = MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                    GM_ADDR tilingGm) {
  GET_TILING_DATA(tilingData, tilingGm);
  const TCubeTiling& tiling = tilingData.cubeTilingData;
  TPipe pipe;
  Matmul<HalfND, HalfND, FloatND, FloatND> matmulObj;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), matmulObj, &tiling);
  const int32_t blockIdx = GetBlockIdx();
  if (blockIdx >= tiling.usedCoreNum) {
    return;
  }
  const int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
  const int32_t mOffset = blockIdx % mBlocks * tiling.singleCoreM;
  const int32_t nOffset = blockIdx / mBlocks * tiling.singleCoreN;
  const int32_t tailM = tiling.M - mOffset < tiling.singleCoreM ? tiling.M - mOffset : tiling.singleCoreM;
  const int32_t tailN = tiling.N - nOffset < tiling.singleCoreN ? tiling.N - nOffset : tiling.singleCoreN;
  GlobalTensor<half> aGlobal, bGlobal;
  GlobalTensor<float> biasGlobal, cGlobal;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias));
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  matmulObj.SetTensorA(aGlobal[mOffset * tiling.Ka]);
  matmulObj.SetTensorB(bGlobal[nOffset]);
  matmulObj.SetBias(biasGlobal[nOffset]);
  matmulObj.SetTail(tailM, tailN);
  matmulObj.IterateAll(cGlobal[mOffset * tiling.N + nOffset]);
  matmulObj.End();
}
