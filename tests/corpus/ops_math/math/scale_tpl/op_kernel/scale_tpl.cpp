// One kernel instance per selected (mode, negate): each scales by its own constant.
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "scale_tpl_tiling_data.h"
#include "scale_tpl_tiling_key.h"

template <uint32_t mode, bool negate>
__global__ __aicore__ void scale_tpl(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  REGISTER_TILING_DEFAULT(ScaleTplTilingData);
  GET_TILING_DATA_WITH_STRUCT(ScaleTplTilingData, tilingData, tiling);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueue;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
  AscendC::GlobalTensor<float> xGm, yGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, tilingData.total);
  yGm.SetGlobalBuffer((__gm__ float*)y, tilingData.total);
  pipe.InitBuffer(inQueue, 1, tilingData.total * sizeof(float));
  pipe.InitBuffer(outQueue, 1, tilingData.total * sizeof(float));
  AscendC::LocalTensor<float> in = inQueue.AllocTensor<float>();
  AscendC::DataCopy(in, xGm, tilingData.total);
  inQueue.EnQue(in);
  in = inQueue.DeQue<float>();
  AscendC::LocalTensor<float> out = outQueue.AllocTensor<float>();
  AscendC::Muls(out, in, negate ? -static_cast<float>(mode) : static_cast<float>(mode), tilingData.total);
  outQueue.EnQue(out);
  inQueue.FreeTensor(in);
  out = outQueue.DeQue<float>();
  AscendC::DataCopy(yGm, out, tilingData.total);
  outQueue.FreeTensor(out);
}
