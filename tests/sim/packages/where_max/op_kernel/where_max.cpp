#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void where_max(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
  GET_TILING_DATA(t, tiling);
  uint32_t blockLength = 0, tileLength = 0;
  const uint32_t block = GetBlockIdx();
  blockLength = block < t.bigNum ? t.bigLength : t.smallLength;
  const uint32_t offset = block < t.bigNum ? block * t.bigLength : t.bigNum * t.bigLength + (block - t.bigNum) * t.smallLength;
  if (offset >= t.totalLength) blockLength = 0;
  else if (offset + blockLength > t.totalLength) blockLength = t.totalLength - offset;
  tileLength = t.tileLength;

  GlobalTensor<float> xGm, yGm, zGm;
  xGm.SetGlobalBuffer((__gm__ float*)x + offset);
  yGm.SetGlobalBuffer((__gm__ float*)y + offset);
  zGm.SetGlobalBuffer((__gm__ float*)z + offset);
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQ;
  TQue<QuePosition::VECOUT, 1> outQ;
  TBuf<> maskBuf;
  pipe.InitBuffer(inQ, 1, 2 * tileLength * sizeof(float));
  pipe.InitBuffer(outQ, 1, tileLength * sizeof(float));
  pipe.InitBuffer(maskBuf, tileLength / 8);
  for (uint32_t done = 0; done < blockLength; done += tileLength) {
    uint32_t len = blockLength - done < tileLength ? blockLength - done : tileLength;
    uint32_t padded = (len + 63) / 64 * 64;  // Compare works on whole 256 B repeats
    LocalTensor<float> in = inQ.AllocTensor<float>();
    DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
    DataCopyPad(in, xGm[done], p, DataCopyPadExtParams<float>{false, 0, 0, 0});
    DataCopyPad(in[tileLength], yGm[done], p, DataCopyPadExtParams<float>{false, 0, 0, 0});
    inQ.EnQue(in);
    in = inQ.DeQue<float>();
    LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
    LocalTensor<float> out = outQ.AllocTensor<float>();
    Compare(mask, in, in[tileLength], CMPMODE::GT, padded);
    PipeBarrier<PIPE_V>();
    Select(out, mask, in, in[tileLength], SELMODE::VSEL_TENSOR_TENSOR_MODE, padded);
    outQ.EnQue(out);
    inQ.FreeTensor(in);
    out = outQ.DeQue<float>();
    DataCopyPad(zGm[done], out, p);
    outQ.FreeTensor(out);
  }
}
