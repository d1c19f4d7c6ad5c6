// One core's share of y = x * scale + offset, on a sibling operator's kernel header and the
// A2 variant of the repository's soc_block.h, both found through the build's include directories.
#include "kernel_operator.h"
#include "math/scale_rows/op_kernel/scale_math.h"
#include "soc_block.h"
#include "offset_rows_tiling_data.h"

extern "C" __global__ __aicore__ void offset_rows(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(OffsetRowsTilingData, t, tiling);
  const uint32_t start = AscendC::GetBlockIdx() * t.perCore;
  const uint32_t n = t.total - start < t.perCore ? t.total - start : t.perCore;
  const uint32_t padded = (n + SOC_BLOCK_FLOATS - 1) / SOC_BLOCK_FLOATS * SOC_BLOCK_FLOATS;
  AscendC::GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x + start, n);
  yg.SetGlobalBuffer((__gm__ float*)y + start, n);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> qi;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> qo;
  pipe.InitBuffer(qi, 1, padded * sizeof(float));
  pipe.InitBuffer(qo, 1, padded * sizeof(float));
  AscendC::LocalTensor<float> a = qi.AllocTensor<float>();
  AscendC::DataCopyPad(a, xg, {1, n * 4, 0, 0, 0}, {false, 0, 0, 0});
  qi.EnQue(a);
  a = qi.DeQue<float>();
  AscendC::LocalTensor<float> b = qo.AllocTensor<float>();
  ScaleMath(b, a, t.scale, t.offset, n);
  qo.EnQue(b);
  qi.FreeTensor(a);
  b = qo.DeQue<float>();
  AscendC::DataCopyPad(yg, b, {1, n * 4, 0, 0, 0});
  qo.FreeTensor(b);
}
