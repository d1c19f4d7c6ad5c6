#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void square_scalar(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
  GET_TILING_DATA(t, tiling);
  uint32_t blockLength = 0, tileLength = 0;
  const uint32_t block = GetBlockIdx();
  blockLength = block < t.bigNum ? t.bigLength : t.smallLength;
  const uint32_t offset = block < t.bigNum ? block * t.bigLength : t.bigNum * t.bigLength + (block - t.bigNum) * t.smallLength;
  if (offset >= t.totalLength) blockLength = 0;
  else if (offset + blockLength > t.totalLength) blockLength = t.totalLength - offset;
  tileLength = t.tileLength;

  GlobalTensor<DTYPE_X> xGm;
  GlobalTensor<DTYPE_Y> yGm;
  xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset, blockLength);
  yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + offset, blockLength);
  for (uint32_t i = 0; i < blockLength; ++i) {
    DTYPE_X v = xGm.GetValue(i);
    yGm.SetValue(i, static_cast<DTYPE_Y>(v * v));
  }
}
