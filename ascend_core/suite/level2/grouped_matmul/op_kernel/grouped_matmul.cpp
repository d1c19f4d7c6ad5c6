// Grouped (MoE) matmul on the cube cores. The scalar unit walks the group sizes; each group is cut
// into work items of singleCoreM rows x singleCoreN columns, numbered across the groups, and core i
// runs the items i, i + blockDim, ... with one Matmul each (x rows of the group @ w[g]).
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using HalfND = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using FloatND = MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void grouped_matmul(GM_ADDR x, GM_ADDR w, GM_ADDR group_sizes, GM_ADDR y, GM_ADDR workspace,
                                                     GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GET_TILING_DATA(t, tiling);
  const TCubeTiling& tl = t.mm;
  TPipe pipe;
  Matmul<HalfND, HalfND, HalfND, FloatND, CFG_NORM> mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);
  GlobalTensor<half> gx, gw, gy;
  GlobalTensor<int32_t> gs;
  gx.SetGlobalBuffer((__gm__ half*)x);
  gw.SetGlobalBuffer((__gm__ half*)w);
  gs.SetGlobalBuffer((__gm__ int32_t*)group_sizes);
  gy.SetGlobalBuffer((__gm__ half*)y);
  const uint32_t N = tl.N, K = tl.Ka, sm = tl.singleCoreM, sn = tl.singleCoreN;
  const uint32_t nItems = (N + sn - 1) / sn, core = GetBlockIdx(), cores = GetBlockNum();
  uint64_t row0 = 0, item = 0;
  for (uint32_t g = 0; g < t.groups; ++g) {
    const uint32_t rowsG = static_cast<uint32_t>(gs.GetValue(g));
    const uint32_t items = (rowsG + sm - 1) / sm * nItems;
    for (uint32_t j = 0; j < items; ++j, ++item) {
      if (item % cores != core) continue;
      const uint32_t mi = j % ((rowsG + sm - 1) / sm), ni = j / ((rowsG + sm - 1) / sm);
      const uint64_t r = row0 + mi * sm, c = ni * sn;
      mm.SetTensorA(gx[r * K]);
      mm.SetTensorB(gw[g * static_cast<uint64_t>(K) * N + c]);
      mm.SetTail(rowsG - mi * sm < sm ? rowsG - mi * sm : sm, N - c < sn ? N - c : sn);
      mm.IterateAll(gy[r * N + c]);
    }
    row0 += rowsG;
  }
  mm.End();
}
