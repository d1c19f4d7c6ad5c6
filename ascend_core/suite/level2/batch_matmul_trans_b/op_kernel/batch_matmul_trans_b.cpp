// Batched a @ b^T (b is [batch, N, K], e.g. attention scores q @ k^T per head) on the cube cores: work item j = (batch j / blocksPerBatch, block j % blocksPerBatch);
// each core takes the items j = blockIdx, blockIdx + blockDim, ... and runs one Matmul per item.
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using HalfND = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using FloatND = MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void batch_matmul_trans_b(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GET_TILING_DATA(t, tiling);
  const TCubeTiling& tl = t.mm;
  TPipe pipe;
  Matmul<HalfND, HalfND, HalfND, FloatND, CFG_NORM> mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);
  GlobalTensor<half> ga, gb, gc;
  ga.SetGlobalBuffer((__gm__ half*)a);
  gb.SetGlobalBuffer((__gm__ half*)b);
  gc.SetGlobalBuffer((__gm__ half*)c);
  const int32_t mBlocks = (tl.M + tl.singleCoreM - 1) / tl.singleCoreM;
  const uint32_t items = t.batch * t.blocksPerBatch;
  for (uint32_t j = GetBlockIdx(); j < items; j += GetBlockNum()) {
    const uint32_t bi = j / t.blocksPerBatch, blk = j % t.blocksPerBatch;
    const int32_t mi = blk % mBlocks, ni = blk / mBlocks;
    const uint64_t aOff = static_cast<uint64_t>(bi) * tl.M * tl.Ka, bOff = static_cast<uint64_t>(bi) * tl.Kb * tl.N;
    const uint64_t cOff = static_cast<uint64_t>(bi) * tl.M * tl.N;
    mm.SetTensorA(ga[aOff + mi * tl.singleCoreM * tl.Ka]);
    mm.SetTensorB(gb[bOff + ni * tl.singleCoreN * tl.Kb], true);
    const int32_t tailM = tl.M - mi * tl.singleCoreM, tailN = tl.N - ni * tl.singleCoreN;
    mm.SetTail(tailM < tl.singleCoreM ? tailM : tl.singleCoreM, tailN < tl.singleCoreN ? tailN : tl.singleCoreN);
    mm.IterateAll(gc[cOff + mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);
  }
  mm.End();
}
