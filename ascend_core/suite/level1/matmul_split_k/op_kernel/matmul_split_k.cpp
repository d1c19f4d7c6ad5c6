// c = a @ b on the cube cores, fp32 out. Core i computes block i % mnBlocks of C over K slice
// i / mnBlocks. Unsplit (one slice): one Matmul IterateAll per core. Split: each core's block is
// one base block, computed into L0C (Iterate); the first slice's cores write it, SyncAll, then
// the other slices add theirs atomically (in block order, so the sum is deterministic).
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using HalfND = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using FloatND = MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void matmul_split_k(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GET_TILING_DATA(t, tiling);
  const TCubeTiling& tl = t.mm;
  TPipe pipe;
  Matmul<HalfND, HalfND, FloatND, FloatND, CFG_NORM> mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);
  const uint32_t idx = GetBlockIdx(), slice = idx / t.mnBlocks, blk = idx % t.mnBlocks;
  const uint32_t mBlocks = (tl.M + tl.singleCoreM - 1) / tl.singleCoreM, mi = blk % mBlocks, ni = blk / mBlocks;
  const uint32_t m0 = mi * tl.singleCoreM, n0 = ni * tl.singleCoreN, k0 = slice * t.sliceK;
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc;
  ga.SetGlobalBuffer((__gm__ half*)a);
  gb.SetGlobalBuffer((__gm__ half*)b);
  gc.SetGlobalBuffer((__gm__ float*)c);
  mm.SetTensorA(ga[static_cast<uint64_t>(m0) * tl.Ka + k0]);
  mm.SetTensorB(gb[static_cast<uint64_t>(k0) * tl.N + n0]);
  const uint32_t rows = tl.M - m0 < tl.singleCoreM ? tl.M - m0 : tl.singleCoreM;
  const uint32_t cols = tl.N - n0 < tl.singleCoreN ? tl.N - n0 : tl.singleCoreN;
  mm.SetTail(rows, cols, tl.Ka - k0 < t.sliceK ? tl.Ka - k0 : t.sliceK);
  const GlobalTensor<float> out = gc[static_cast<uint64_t>(m0) * tl.N + n0];
  if (t.splitK == 1) {
    mm.IterateAll(out);
  } else {
    mm.Iterate();
    if (slice == 0) mm.GetTensorC(out);
    SyncAll();
    if (slice > 0) mm.GetTensorC(out, 1);
  }
  mm.End();
}
